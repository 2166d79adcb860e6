"""Who runs a Discord server, and who has left it: the facts the core's table commands
ask the platform (``bot.tables.table_commands.Standing``). Whether the asker may manage
the server is in the interaction itself; whether someone left is one Get Guild Member
request, made only when the rule needs it. An answer that cannot be had grants nothing."""

from __future__ import annotations

import logging
from typing import Any

import discord

log = logging.getLogger("sahra.discord")


class InteractionStanding:
    def __init__(self, interaction: discord.Interaction[Any]) -> None:
        self.interaction = interaction

    async def is_admin(self, user: str) -> bool:
        # Manage Server: Discord's own mark of who runs a server's channels.
        return user == str(self.interaction.user.id) and self.interaction.permissions.manage_guild

    async def has_left(self, user: str) -> bool:
        guild = self.interaction.guild
        if guild is None or not user.isdecimal():
            return False
        try:
            await guild.fetch_member(int(user))
        except discord.NotFound:  # 10007 Unknown Member: not in the server any more
            return True
        except discord.HTTPException as error:
            log.warning("event=member_check_failed status=%s", error.status)
        return False
