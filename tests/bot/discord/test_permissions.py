"""``/sahra new`` where the bot may not post: refused up front from the interaction's
``app_permissions`` naming what is missing, and — should Discord refuse the post anyway
(403 50013) — the table is ended at once, so the channel is free when the permission
comes back."""

from __future__ import annotations

from tests.bot.discord.conftest import Guild
from tests.bot.discord.fake_discord import (
    CHANNEL,
    INVITED,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
)
from tests.bot.support import eventually

ALI, BADR = 301, 302
THREAD = 555_100


def posts(guild: Guild, channel: int) -> int:
    return len(guild.fake.requests("POST", f"/channels/{channel}/messages"))


async def test_new_is_refused_up_front_naming_the_permission_the_bot_lacks(
    guild: Guild,
) -> None:
    guild.fake.app_permissions[CHANNEL] = INVITED & ~SEND_MESSAGES & ~READ_MESSAGE_HISTORY
    await guild.slash(ALI, "new", variant="syrian41")
    told = guild.fake.notices_for(ALI)[-1]
    assert "Send Messages" in told and "Read Message History" in told
    assert "Send Messages in Threads" not in told and "View Channel" not in told
    assert guild.bot is not None and guild.bot.manager.table_at(guild.table_place()) is None
    assert posts(guild, CHANNEL) == 0


async def test_a_thread_needs_send_messages_in_threads_not_send_messages(guild: Guild) -> None:
    guild.fake.threads[THREAD] = CHANNEL
    guild.fake.app_permissions[THREAD] = INVITED & ~SEND_MESSAGES_IN_THREADS
    await guild.slash(ALI, "new", channel=THREAD, variant="syrian41")
    assert "Send Messages in Threads" in guild.fake.notices_for(ALI)[-1]
    assert posts(guild, THREAD) == 0
    # Without Send Messages (a channel's permission) a thread is fine.
    guild.fake.app_permissions[THREAD] = INVITED & ~SEND_MESSAGES
    await guild.slash(ALI, "new", channel=THREAD, variant="syrian41")
    assert guild.fake.notices_for(ALI)[-1] == "✓"
    assert posts(guild, THREAD) == 1


async def test_a_table_discord_refuses_to_post_is_ended_and_the_channel_freed(
    guild: Guild,
) -> None:
    guild.fake.forbidden.add(CHANNEL)  # app_permissions say yes; the post gets 403 50013
    await guild.slash(ALI, "new", variant="syrian41")
    told = guild.fake.notices_for(ALI)[-1]
    assert "Missing Permissions" in told and "Send Messages" in told and told != "✓"
    assert guild.bot is not None and guild.bot.manager.table_at(guild.table_place()) is None
    guild.fake.forbidden.clear()  # an admin grants the permission
    await guild.slash(ALI, "new", variant="syrian41")
    assert guild.fake.notices_for(ALI)[-1] == "✓"
    assert guild.table().status == "lobby" and len(guild.fake.in_channel()) == 1


async def test_a_table_whose_channel_becomes_unwritable_is_ended(guild: Guild) -> None:
    await guild.slash(ALI, "new", variant="syrian41")
    lobby = guild.public()
    guild.fake.forbidden.add(CHANNEL)  # the permission is taken away mid-lobby
    await guild.click(BADR, lobby, guild.button(lobby, "join"))  # the lobby's edit: 403
    assert guild.bot is not None
    await eventually(lambda: guild.bot.manager.table_at(guild.table_place()) is None)
    guild.fake.forbidden.clear()
    await guild.slash(BADR, "new", variant="trix_complex")
    assert guild.fake.notices_for(BADR)[-1] == "✓"


async def test_score_names_the_missing_permission_instead_of_posting(guild: Guild) -> None:
    await guild.slash(ALI, "new", variant="syrian41")
    before = posts(guild, CHANNEL)
    guild.fake.app_permissions[CHANNEL] = INVITED & ~SEND_MESSAGES
    await guild.slash(BADR, "score")
    assert "Send Messages" in guild.fake.notices_for(BADR)[-1]
    assert posts(guild, CHANNEL) == before
