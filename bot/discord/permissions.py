"""What the bot needs where a table is posted, read off each interaction: Discord sends
the bot's own permissions in the channel (``app_permissions``, overwrites included)."""

from __future__ import annotations

from typing import Any

import discord

Interaction = discord.Interaction[Any]

# What the bot needs where a table is posted (the README's invite permissions); a thread
# takes "Send Messages in Threads" instead of "Send Messages".
CHANNEL_NEEDS = ("view_channel", "send_messages", "read_message_history")
THREAD_NEEDS = ("view_channel", "send_messages_in_threads", "read_message_history")
THREADS = {
    discord.ChannelType.public_thread,
    discord.ChannelType.private_thread,
    discord.ChannelType.news_thread,
}


def missing_permissions(interaction: Interaction) -> list[str]:
    """The posting permissions the bot lacks in the interaction's channel, read from the
    ``app_permissions`` Discord sends with every interaction (overwrites included)."""
    if interaction.guild_id is None:
        return []  # a DM: nothing to grant
    granted = interaction.app_permissions
    if granted.administrator:
        return []
    return [name for name in needs_of(interaction) if not getattr(granted, name)]


def needs_of(interaction: Interaction) -> tuple[str, ...]:
    in_thread = getattr(interaction.channel, "type", None) in THREADS
    return THREAD_NEEDS if in_thread else CHANNEL_NEEDS
