"""Who a page is: a hello's credential checked, or refused with a reason the page shows.

Three credentials, one outcome (a ``Visitor``: platform, user, the table it was issued
for): Telegram's signed launch data (the Mini App), a personal link (Discord, the
terminal), or a session the server issued earlier (a reload, a reconnect, a restart: the
signing secret is kept in the database, so sessions outlive the process).

Each is bounded: launch data is taken for an hour after Telegram signed it; a link once,
on whichever process (its use is kept in the database); a session for 12 hours, and no
longer than ``ENDED_GRACE`` after its table ended.

Who may watch (issue 32, item 5): a person seated at the table plays; anyone else only
watches, and only if they belong where the table is played. Table ids are sequential, so
a Mini App link to any table is easy to guess: Telegram's launch data proves who opens the
page, not that they are in the group. Each platform answers through ``Members``: on
Telegram, getChatMember (``bot/telegram/members.py``, wired by the runner); on Discord
the link is the proof (``LinkHolders``). A platform with no answer wired is refused,
except the terminal's own (``LOCAL_PLATFORMS``).
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Callable
from typing import Protocol

from bot.render.i18n import language_of
from bot.tables.live import LIVE_STATUSES, LiveTable, Place
from bot.web.activity import ActivityLaunch, ActivityRefused, DiscordActivity
from bot.web.auth import (
    INIT_DATA_MAX_AGE,
    SESSION_SECONDS,
    LaunchRefused,
    Signer,
    TokenRefused,
    validate_init_data,
)
from bot.web.frames import DiscordLaunch, Hello
from bot.web.socket import Visitor
from storage.errors import StorageError
from storage.store import Store

log = logging.getLogger("sahra.web")

# ``sahra play --web``: the page is served on 127.0.0.1 to the terminal's one player, and
# its only credential is the session the terminal printed. Nobody else can reach it, so
# there is no chat to be a member of.
LOCAL_PLATFORMS = frozenset({"console"})
# A session is honoured this long after its table ended: the page can still be reloaded to
# read the result sheet and press Rematch (the rematch's page gets a session of its own),
# the way a table message stays in the chat; after that it opens nothing.
ENDED_GRACE = 600.0
# A table seen live is read again after this long. Shorter than the grace, so a session is
# never honoured past its table's end plus the grace for having been seen live earlier.
LIVE_RECHECK = 60.0
ENDS_KEPT = 10_000  # tables whose end this process remembers (the oldest are forgotten)
START_PARAM = re.compile(r"t([0-9]{1,12})(?:d[1-9][0-9]{0,3})?")


class Members(Protocol):
    """Whether a platform user belongs where a table is played (may watch it)."""

    async def is_member(self, place: Place, user_id: str) -> bool: ...


class LinkHolders:
    """Discord: nothing to ask at hello, because the credential is the proof. A Discord
    page opens only with a personal link (or the session it was exchanged for), and a
    link is issued only to the person who pressed Open the table on the table's own
    message, in its own server and channel (``bot/discord/buttons.py`` refuses a press
    from anywhere else). Discord delivers that press only from someone who can see the
    message, that is a member of the server who may view the channel. Someone removed
    from the server afterwards keeps the page they opened until the session ends (with the
    table, ``ENDED_GRACE`` after it); a new link needs a new press."""

    async def is_member(self, place: Place, user_id: str) -> bool:
        return True


class TableEnds:
    """When each table ended, as the database every process shares says: an end never
    changes once written, so it is kept; a live table is read again after
    ``LIVE_RECHECK``. A reconnect storm reads each table once, not once per page."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._known: dict[int, tuple[float | None, float]] = {}  # table -> (ended, read at)

    async def ended_at(self, table_id: int, now: float) -> float | None:
        """When the table ended; None while it is live, or when that cannot be told (an
        unknown table is the server's to refuse)."""
        known = self._known.get(table_id)
        if known is not None and (known[0] is not None or now - known[1] < LIVE_RECHECK):
            return known[0]
        try:
            row = await self.store.table_home(table_id)
        except StorageError as error:
            # Refusing would end every page that reconnects during a database hiccup for
            # good (the page forgets a refused session); the session is still signed and
            # within its 12 hours, so it is let through, and asked about next time.
            cause = type(error.__cause__ or error).__name__
            log.warning("event=table_end_unknown table=%d error=%s", table_id, cause)
            return None
        if row is None:
            return None
        ended = None if row.status in LIVE_STATUSES else row.updated_at
        self._known.pop(table_id, None)
        if len(self._known) >= ENDS_KEPT:
            self._known.pop(next(iter(self._known)))
        self._known[table_id] = (ended, now)
        return ended


class Denied(Exception):
    """A hello refused: ``code`` is the protocol's fatal code; ``reason`` is for the log."""

    def __init__(self, code: str, reason: str = "") -> None:
        super().__init__(code)
        self.code = code
        self.reason = reason or code


class Gate:
    def __init__(
        self,
        signer: Signer,
        store: Store,
        *,
        telegram_token: str | None = None,
        clock: Callable[[], float] = time.time,
        max_age: float = INIT_DATA_MAX_AGE,
    ) -> None:
        self.signer = signer
        self.store = store
        self.telegram_token = telegram_token
        self.clock = clock
        self.max_age = max_age
        self.ends = TableEnds(store)
        # platform -> who may watch its tables; the runner adds Telegram's.
        self.members: dict[str, Members] = {"discord": LinkHolders()}
        # Discord's Activity launches, proven with Discord (None: Activities are off).
        self.activity: DiscordActivity | None = None

    async def launch(self, credential: DiscordLaunch) -> ActivityLaunch:
        """An Activity page's launch, proven with Discord; ``Denied`` otherwise. Like a
        link, the proof is the credential: Discord says this user is in an instance of the
        channel, so they may see its table (``LinkHolders``)."""
        if self.activity is None:
            raise Denied("activity_unavailable", "no_activity")
        try:
            return await self.activity.verify(credential.code, credential.instance)
        except ActivityRefused as refused:
            raise Denied(refused.code, refused.reason) from None

    async def admit(self, hello: Hello) -> Visitor:
        """The visitor a link, a session or Telegram's launch data proves (an Activity's
        launch is ``launch``: its table is the one of the channel Discord names)."""
        now = self.clock()
        if hello.init_data is not None:
            return self._telegram(hello.init_data, now, hello.table)
        kind = "link" if hello.link is not None else "session"
        token = hello.link if hello.link is not None else hello.session
        assert token is not None
        try:
            claims = self.signer.verify(token, kind, now=now)
        except TokenRefused as refused:
            raise Denied(refused.code, refused.reason) from None
        if kind == "link" and not await self.store.spend_link(
            claims.nonce, claims.expires, now=now
        ):
            raise Denied("bad_link", "used")  # exchanged already, here or on another process
        if kind == "session":
            ended = await self.ends.ended_at(claims.table, now)
            if ended is not None and now - ended > ENDED_GRACE:
                raise Denied("bad_session", "table_over")
        return Visitor(
            claims.platform,
            claims.user_id,
            claims.name,
            language_of(claims.language),
            claims.table,
        )

    def _telegram(self, raw: str, now: float, asked: int | None) -> Visitor:
        if self.telegram_token is None:
            raise Denied("bad_launch", "no_telegram")
        try:
            launch = validate_init_data(raw, self.telegram_token, now=now, max_age=self.max_age)
        except LaunchRefused as refused:
            raise Denied("bad_launch", refused.code) from None
        table = table_param(launch.start_param) if launch.start_param else asked
        if table is None:
            raise Denied("unknown_table", "start_param")
        return Visitor("telegram", str(launch.user_id), launch.name, launch.language or "", table)

    async def may_watch(self, table: LiveTable, visitor: Visitor) -> bool:
        """Whether ``visitor``, not seated at ``table``, may watch it (or join its lobby):
        a member of the table's chat, as its platform says (``Members``)."""
        platform = table.place.platform
        members = self.members.get(platform)
        if members is None:
            if platform in LOCAL_PLATFORMS:
                return True
            log.warning("event=watch_refused platform=%s reason=no_check", platform)
            return False  # never a table of a chat nobody can vouch for
        if visitor.platform != platform:
            return False
        try:
            return await members.is_member(table.place, visitor.user_id)
        except Exception as error:  # a checker's failure grants nothing
            log.error(
                "event=watch_check_failed platform=%s error=%s", platform, type(error).__name__
            )
            return False

    def session(self, visitor: Visitor, table: int) -> str:
        return self.signer.issue(
            "session",
            platform=visitor.platform,
            user_id=visitor.user_id,
            table=table,
            name=visitor.name,
            language=visitor.language,
            expires=self.clock() + SESSION_SECONDS,
        )


def table_param(start_param: str) -> int | None:
    """``t123`` (the Mini App link's ``startapp``: routing data, never an authority), or
    ``t123d4``: deal 4's replay at table 123 (the page opens it; the table is what counts)."""
    found = START_PARAM.fullmatch(start_param)
    if found is None or len(start_param) > 20:
        return None
    table = int(found[1])
    return table if table > 0 else None
