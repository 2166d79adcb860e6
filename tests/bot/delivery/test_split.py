"""The sending layer never sends a text over the platform's limit: a reply too long for one
message arrives whole, in order, in several (cut at paragraph boundaries, its buttons on
the last, each in the chat's budget, none sent twice when one must be retried, none
dropped as late once it has begun); a message edited in place stays one message, cut
short (virtual time)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from bot.delivery import REPLY, Outbox, RetryLater
from bot.delivery.split import Limit, fit_text, pieces, split_text
from bot.render.fitting import text_length
from bot.render.model import Button, Screen
from tests.bot.virtual_time import VirtualTime

LIMIT = Limit(100)
BUTTON = Button("Again", {"type": "rematch"}, 7, 1)


def paragraphs(count: int) -> list[str]:
    """Rules-like paragraphs: a title and short bullet lines, 60-odd units each."""
    return [f"Game {n}\n" + "\n".join(f"• rule {n}.{i}" for i in range(4)) for n in range(count)]


@dataclass
class Wire:
    """A platform that refuses any text over ``LIMIT`` and records what it was sent."""

    time: VirtualTime
    sent: list[tuple[float, str, Screen]] = field(default_factory=list)  # at, op, screen
    failures: list[Exception | None] = field(default_factory=list)  # the next calls
    refused: int = 0

    def _check(self, screen: Screen) -> None:
        if self.failures and (failure := self.failures.pop(0)) is not None:
            raise failure
        assert LIMIT.fits(screen.text), f"over the limit: {text_length(screen.text)}"
        assert screen.text.strip(), "an empty message"

    async def send(self, chat: str, screen: Screen, thread: str = "") -> str:
        self._check(screen)
        self.sent.append((self.time.now, "send", screen))
        return str(len(self.sent))

    async def edit(self, chat: str, message: str, screen: Screen) -> None:
        self._check(screen)
        self.sent.append((self.time.now, "edit", screen))


def outbox() -> tuple[Outbox, Wire, VirtualTime]:
    time = VirtualTime()
    wire = Wire(time)
    return Outbox(wire, clock=time, sleep=time.sleep, limit=LIMIT), wire, time


def test_a_long_text_is_cut_at_paragraph_boundaries_only_in_order() -> None:
    text = "\n\n".join(paragraphs(6))
    parts = split_text(text, LIMIT)
    assert len(parts) == 6
    assert all(LIMIT.fits(part) for part in parts)
    assert "\n\n".join(parts) == text  # whole paragraphs, in order, nothing lost


def test_a_paragraph_too_long_is_cut_at_its_lines_and_a_line_inside_at_a_space() -> None:
    paragraph = "\n".join(f"line {n} " + " ".join(["word"] * 5) for n in range(12))
    line = " ".join(["𝓐𝓑"] * 40)  # astral letters: two UTF-16 units each
    parts = split_text(f"{paragraph}\n\n{line}", LIMIT)
    assert all(LIMIT.fits(part) for part in parts)
    assert "\n".join(parts).split() == f"{paragraph}\n\n{line}".split()  # every word
    assert all(not part.startswith(" ") and not part.endswith(" ") for part in parts)
    assert split_text("short", LIMIT) == ["short"]


def test_pieces_carry_the_buttons_on_the_last_one() -> None:
    screens = pieces(Screen("\n\n".join(paragraphs(3)), ((BUTTON,),)), LIMIT)
    assert [screen.rows for screen in screens] == [(), (), ((BUTTON,),)]


def test_a_text_kept_to_one_message_is_cut_at_a_line_and_marked() -> None:
    text = "\n".join(paragraphs(3))
    fitted = fit_text(text, LIMIT)
    assert LIMIT.fits(fitted) and fitted.endswith("\n…") and text.startswith(fitted[:-2])
    one_line = fit_text("x" * 300, LIMIT)
    assert LIMIT.fits(one_line) and one_line.endswith("…")


async def test_a_reply_too_long_for_one_message_is_posted_as_several_in_order() -> None:
    box, wire, _ = outbox()
    text = "\n\n".join(paragraphs(5))
    box.post("42", "reply", Screen(text, ((BUTTON,),)), group=False, keep=False, priority=REPLY)
    await box.flush()
    assert [op for _, op, _ in wire.sent] == ["send"] * 5
    assert "\n\n".join(screen.text for _, _, screen in wire.sent) == text
    assert [screen.rows for _, _, screen in wire.sent] == [()] * 4 + [((BUTTON,),)]
    times = [at for at, _, _ in wire.sent]  # one private chat: a write a second at most
    assert all(b - a >= box.private_interval for a, b in itertools.pairwise(times))


async def test_a_message_edited_in_place_stays_one_message_cut_short() -> None:
    box, wire, _ = outbox()
    long = "\n".join(paragraphs(4))
    box.post("-1", "table", Screen(long, ((BUTTON,),)), group=True)
    box.show("-1", "table", Screen(long + "\nmore", ((BUTTON,),)), group=True)
    await box.flush()
    box.show("-1", "table", Screen(long + "\nmore still"), group=True)
    await box.flush()
    assert [op for _, op, _ in wire.sent] == ["send", "edit"]
    for _, _, screen in wire.sent:
        assert LIMIT.fits(screen.text) and screen.text.endswith("…")
    assert wire.sent[0][2].rows == ((BUTTON,),)


async def test_a_piece_that_must_be_retried_sends_no_piece_twice() -> None:
    box, wire, _ = outbox()
    wire.failures = [None, RetryLater(5.0), None]  # the second piece: "retry in 5 s"
    text = "\n\n".join(paragraphs(4))
    box.post("42", "reply", Screen(text), group=False, keep=False, priority=REPLY)
    await box.flush()
    assert "\n\n".join(screen.text for _, _, screen in wire.sent) == text


async def test_a_group_reply_once_begun_is_finished_past_its_expiry() -> None:
    box, wire, _ = outbox()
    wire.failures = [None, RetryLater(40.0)]  # the group is paused past the reply's 30 s
    text = "\n\n".join(paragraphs(4))
    box.post("-1", "reply", Screen(text), group=True, keep=False, priority=REPLY, expires=30.0)
    await box.flush()
    assert "\n\n".join(screen.text for _, _, screen in wire.sent) == text
