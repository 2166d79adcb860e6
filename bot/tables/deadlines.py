"""The deadline policy: when a table's next timer runs out, and what kind it is. Pure
functions of the table's state and the time, so the scheduler only arms what this says."""

from __future__ import annotations

from bot.backoff import backoff
from bot.tables.live import DeadlineKind, LiveTable

Deadline = tuple[float | None, DeadlineKind | None]


def computer_plays(table: LiveTable, seat: int) -> bool:
    """An empty seat, a computer's, or a human's taken over (the owner is away)."""
    occupant = table.seats[seat]
    return occupant is None or occupant.computer_plays


def next_deadline(table: LiveTable, now: float) -> Deadline:
    """The timer the table should have after a change made at ``now``."""
    config = table.config
    if table.status == "lobby" and config.rematch_of is not None:
        # A rematch waits a fixed time from its opening for the players' confirmations,
        # then computers take the seats of those who did not confirm.
        return table.created_at + config.rematch_seconds, "rematch"
    if table.status == "lobby":
        return now + config.lobby_ttl_seconds, "lobby"
    match = table.match
    if table.status != "running" or match is None:
        return None, None
    humans = [s for s in match.to_act if not computer_plays(table, s)]
    if not humans:
        return None, None  # the computers' loop acts; no human waits on a timer
    phase = match.phase
    if phase == "doubling" and table.window_seq < table.seq and table.deadline:
        # TX.7: one deadline for the whole window; moving it when an answer comes in
        # would tell the table that someone answered.
        return table.deadline, table.deadline_kind
    if phase == "doubling":
        seconds = float(config.doubling_seconds)
    elif phase == "playing":
        seconds = float(config.turn_seconds)
    else:
        seconds = float(config.bid_seconds)
    # A seat following the table on a page starts its clock once the page has shown the
    # moves before its turn (``pace.py``): the presentation costs no one turn time.
    if any(seat in table.paced_seats for seat in humans):
        now = max(now, table.shown_until)
    if config.forced_autoplay and all(match.forced_action(s) is not None for s in humans):
        return now + config.forced_delay_seconds, "forced"  # TX.12
    return now + seconds, "turn"


def abandon_due(table: LiveTable, now: float) -> bool:
    """A running table no human has touched for too long (computers alone never are)."""
    if not any(s is not None and s.kind == "human" for s in table.seats):
        return False
    return now - table.last_human_at > table.config.abandon_after_seconds


def retry_after(failures: int) -> float:
    """Seconds before retrying a table whose background work failed ``failures`` times in
    a row: quick for a blip, at most a minute for a database that stays down."""
    return backoff(failures - 1, 0.5, 60.0)
