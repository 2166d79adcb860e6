"""The web table opened from Discord: inside Discord as an Activity where the application
has them (the interaction answered with callback type 12, LAUNCH_ACTIVITY: Discord opens
the Activity in the channel the interaction came from, and the page finds that channel's
table), else as a personal link only the asker sees.

Discord may refuse a launch (the application's Activities are off, an older client): the
answer is then the link, so a press always opens the table one way or the other. A refused
callback leaves the interaction unanswered (discord.py marks it answered only once Discord
accepted), so exactly one answer reaches the asker."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord

from bot.discord.host import Host, Interaction, expired
from bot.discord.texts import text
from bot.discord.views import view_of
from bot.render import Button, Screen, refusal_notice
from bot.render.i18n import t
from bot.tables import LiveTable

log = logging.getLogger("sahra.discord")


def pressed_where(interaction: Interaction, table: LiveTable) -> bool:
    """Whether the press came from the table's own channel (a thread is a channel of its
    own) in its own server. Discord sends a press only from someone whose client shows the
    message pressed, so such a press proves they may view the channel; a button's table id
    reached from another channel, another server or a DM (a crafted or a forwarded press)
    proves nothing about this one. Channel ids are unique across Discord."""
    place = table.place
    if interaction.channel_id is None or str(interaction.channel_id) != place.chat:
        return False
    return not place.guild or str(interaction.guild_id) == place.guild


def launching(host: Host) -> bool:
    """Whether the table opens as an Activity: the operator enabled them, and the web table
    (what the Activity shows) is served."""
    return host.activities and host.web_link is not None


async def open_web(
    host: Host, interaction: Interaction, table: LiveTable, review: int | None = None
) -> None:
    """**Open the table**: anyone who can see the table's channel may (a person not seated
    watches). The Activity and the personal link are the web table's only proof of that
    (``bot.web.identity``), so a press from anywhere else gets neither."""
    language = table.config.language
    if host.web_link is None:
        await host._say(interaction, refusal_notice(language, "stale").text)
        return
    if not pressed_where(interaction, table):
        host._refused(interaction, "button", "web_elsewhere", table=table.id)
        await host._say(interaction, t(language, "web_denied_not_member"))
        return
    if launching(host):
        await launch(host, interaction, lambda: send_link(host, interaction, table, review))
    else:
        await send_link(host, interaction, table, review)


async def open_here(host: Host, interaction: Interaction) -> None:
    """``/sahra play`` and the Entry Point command: the channel's table, opened as the
    button opens it. With no table here an Activity is launched all the same (its page
    offers to start one in this channel); a link needs a table to point to."""
    table = host._table_here(interaction)
    language = host._language(interaction)
    if host.web_link is None:
        host._refused(interaction, "command", "web_off")
        await host._say(interaction, text(language, "web_off"))
    elif table is not None:
        await open_web(host, interaction, table)
    elif launching(host):
        await launch(host, interaction, lambda: no_table(host, interaction, language))
    else:
        await no_table(host, interaction, language)


async def no_table(host: Host, interaction: Interaction, language: str) -> None:
    await host._say(interaction, refusal_notice(language, "unknown_table").text)


async def launch(
    host: Host, interaction: Interaction, otherwise: Callable[[], Awaitable[None]]
) -> None:
    """Answer with LAUNCH_ACTIVITY; where Discord refuses it, ``otherwise`` answers."""
    try:
        await interaction.response.launch_activity()
    except discord.HTTPException as error:
        if expired(error):  # 10062: too late to answer at all; the next press opens it
            log.warning("event=interaction_expired")
            return
        # Not documented: the code an application without Activities gets. Logged as it
        # came so that an operator sees why the table opened as a link.
        log.warning(
            "event=activity_launch_refused status=%s code=%s user=%s channel=%s",
            error.status,
            error.code,
            interaction.user.id,
            interaction.channel_id,
        )
        await otherwise()
        return
    log.info(
        "event=activity_launched user=%s channel=%s", interaction.user.id, interaction.channel_id
    )


async def send_link(
    host: Host, interaction: Interaction, table: LiveTable, review: int | None = None
) -> None:
    """A link only the asker sees, signed for them and this table, short-lived and good
    once (the page exchanges it for a session); with ``review``, it opens that deal's
    replay (``?review=<deal>``: routing only, the server checks the deal has ended)."""
    assert host.web_link is not None
    language = table.config.language
    url = host.web_link(table, host._player(interaction, language))
    if review is not None:
        page, _, fragment = url.partition("#")
        url = f"{page}?review={review}#{fragment}"
    link = Button(t(language, "web_open"), {"type": "web"}, table.id, table.seq, url=url)
    screen = Screen(t(language, "web_link_ready"), ((link,),))
    view = view_of(screen)
    assert view is not None
    try:
        await interaction.response.send_message(screen.text, view=view, ephemeral=True)
    except discord.NotFound:  # 10062: too late; the next press gets a link
        log.warning("event=interaction_expired")
