"""A page's ask for a deal's replay, answered to that page alone (issue 35, items 1 and 5).

A replay names every card of every hand, so it is given only for a deal that has ended
(scored, or cancelled and redealt: the table's log says so, read from the store every
process shares), and only to someone who may see the table: seated at it, or a watcher
the platform vouches for (``Gate.may_watch``, as at the page's hello). Anything else (the
deal being played, one still to come, a number that never was) gets a polite refusal and
nothing of any hand. The work (reading the log, replaying it, waiting for the analysis)
runs beside the socket's reader (``PageSocket.spawn``), never in its way.
"""

from __future__ import annotations

import logging
from dataclasses import replace

from bot.present.summary import table_info
from bot.render import refusal_notice
from bot.render.replay import replay_view
from bot.tables.live import LiveTable
from bot.tables.reviews import Reviews
from bot.web.frames import out
from bot.web.hub import seat_of
from bot.web.identity import Gate
from bot.web.socket import PageSocket
from bot.web.texts import denial

log = logging.getLogger("sahra.web")

# How long a replay waits for its deal's analysis before it is sent saying ``pending``
# (the analysis goes on and is stored: the next ask has it).
ANALYSIS_WAIT = 2.0
# A page waits for one replay before asking the next; a few in flight cover a quick
# second tap, more is a page that does not wait.
REPLAYS_PER_PAGE = 2


class Replays:
    def __init__(self, reviews: Reviews, gate: Gate, *, wait: float = ANALYSIS_WAIT) -> None:
        self.reviews = reviews
        self.gate = gate
        self.wait = wait

    def ask(self, socket: PageSocket, table: LiveTable, deal: int) -> None:
        """The page asked for deal ``deal``'s replay: answered beside the reader."""
        if len(socket.errands) >= REPLAYS_PER_PAGE:
            self._refused(socket, table, "review_busy")
            return
        socket.spawn(self.answer(socket, table, deal))

    async def answer(self, socket: PageSocket, table: LiveTable, deal: int) -> None:
        visitor = socket.visitor
        assert visitor is not None
        seated = seat_of(table, socket) is not None
        if not seated and not await self.gate.may_watch(table, visitor):
            log.warning("event=replay_refused table=%d reason=not_member", table.id)
            code = "not_member"
            socket.send(out("refused", code=code, message=denial(socket.language, code)))
            return
        found = await self.reviews.ended_deal(table.id, deal)
        if found is None:
            self._refused(socket, table, "review_not_over")
            return
        variant, record = found
        analysis = await self.reviews.analysis(table.id, variant, record, self.wait)
        info = table_info(table)
        if table.config.language != socket.language:  # the page's own switch
            info = replace(
                info, config=table.config.model_copy(update={"language": socket.language})
            )
        target = table.match.view(None).get("target") if table.match is not None else None
        view = replay_view(info, record, target=target, analysis=analysis)
        socket.send(out("replay", deal=view))
        log.info("event=replay_sent table=%d deal=%d", table.id, deal)

    def _refused(self, socket: PageSocket, table: LiveTable, code: str) -> None:
        log.info("event=replay_refused table=%d code=%s", table.id, code)
        notice = refusal_notice(socket.language, code)
        socket.send(out("refused", code=code, message=notice.text))
