"""Failover: two ``sahra run`` processes, one bot token, one database (PostgreSQL, or the
SQLite file). One holds the leader lease and polls Telegram; the other stands by and makes
no call. SIGKILL the poller in the middle of a deal: the other polls within 10 s, redraws
the table, and the match goes on to its end with every acknowledged move kept and never
two pollers at once (no 409 Conflict)."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from bot.render.codes import decode
from bot.render.i18n import CATALOG, t
from storage.records import StoredTable
from storage.store import Store
from tests.backends import BackendFactory
from tests.bot.support import until
from tests.bot.telegram.fake_api import FakeBotAPI, Message
from tests.bot.telegram.harness import GROUP, playable

ROOT = Path(__file__).resolve().parents[2]
ALI = 101
TAKEOVER_LIMIT = 10.0
# The fake Bot API has no write limits: Telegram's pace (a group write per 3.5 s, a private
# one per second) would only make each hand wait, and the takeover proves nothing more by it.
FAST_WRITES = {"SAHRA_TELEGRAM_GROUP_INTERVAL": "0.2", "SAHRA_TELEGRAM_PRIVATE_INTERVAL": "0.05"}


def spawn(env: dict[str, str], log: Path) -> subprocess.Popen[bytes]:
    with log.open("wb") as output:  # the child keeps its own copy of the descriptor
        return subprocess.Popen(
            [sys.executable, "-m", "bot.cli", "run"],
            cwd=ROOT,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=output,
        )


def text(log: Path) -> str:
    return log.read_text(errors="replace") if log.exists() else ""


async def stop_all(processes: list[subprocess.Popen[bytes]]) -> None:
    """SIGTERM every process still running; kill one that has not stopped in 10 s.

    It waits without blocking the event loop: the fake servers run in it, and a process
    that is stopping still flushes its last writes to them."""
    for process in processes:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + 10
    for process in processes:
        while process.poll() is None and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        if process.poll() is None:
            process.kill()
            process.wait()


def show_logs(logs: list[Path]) -> None:
    """The last lines of each process's log (pytest shows them when the test fails)."""
    for log in logs:
        print(f"--- {log.name}\n" + "\n".join(text(log).splitlines()[-40:]))


def show_chat(fake: FakeBotAPI, chat: int, since: float = 0.0) -> None:
    """Every write to ``chat`` since ``since`` (a monotonic time), with its answer and the
    version and kind of each button (pytest shows them when the test fails)."""
    print(f"--- writes to {chat}")
    for call in fake.calls:
        if call.method not in ("sendMessage", "editMessageText") or call.at < since:
            continue
        if int(call.params.get("chat_id", 0)) != chat:
            continue
        keyboard = call.params.get("reply_markup") or {}
        if isinstance(keyboard, str):
            keyboard = json.loads(keyboard)
        buttons = [
            decode(button["callback_data"])
            for row in keyboard.get("inline_keyboard", [])
            for button in row
            if "callback_data" in button
        ]
        kinds = sorted({(b[1], b[2]["type"]) for b in buttons if b is not None})
        message = call.params.get("message_id", "new")
        print(f"{call.at:.2f} {call.method} {call.code} {message} {kinds}")


def leader(logs: list[Path]) -> int | None:
    holders = [i for i, log in enumerate(logs) if "event=lease_acquired" in text(log)]
    assert len(holders) <= 1, "two processes hold the lease"
    return holders[0] if holders else None


def lobby_full(fake: FakeBotAPI, chat: int = GROUP) -> bool:
    """Whether a lobby in ``chat`` says its four seats are filled (in either language):
    every /join and /addbot before it was applied."""
    ready = [t(language, "lobby_ready") for language in CATALOG]
    return any(line in message.text for message in fake.in_chat(chat) for line in ready)


def polls_after(fake: FakeBotAPI, moment: float) -> list[float]:
    return [c.at for c in fake.calls if c.method == "getUpdates" and c.at > moment]


def hand(fake: FakeBotAPI) -> Message | None:
    """Ali's private message with buttons he may press now, if any."""
    message = fake.latest_with_buttons(ALI)
    return message if message is not None and playable(message) else None


async def press_once(fake: FakeBotAPI, acked: list[tuple[int, int, dict[str, object]]]) -> None:
    """Press the first legal button of Ali's hand until a press is acknowledged (answered
    without a refusal), then wait for the hand to be redrawn (the card gone).

    Each press is made on a snapshot of the hand taken before it: the fake edits a message
    in place, so an edit that lands before the wait starts still differs from the snapshot.
    Its text alone may read the same (Ali won the trick and leads again); its buttons carry
    the new version."""
    deadline = time.monotonic() + TAKEOVER_LIMIT + 20
    while True:
        assert time.monotonic() < deadline, "every press refused"
        await until(lambda: hand(fake) is not None, "Ali's turn", TAKEOVER_LIMIT + 20)
        message = hand(fake)
        assert message is not None
        before = shown(message)
        data = playable(message)[0]
        query, _ = fake.press(ALI, message, data)
        answer = await fake.answered(query, timeout=TAKEOVER_LIMIT + 20)
        if answer.get("text"):
            continue  # refused (say, a hand a newer one replaces): press what is shown now
        decoded = decode(data)
        assert decoded is not None
        acked.append(decoded)
        await until(
            lambda b=before: (m := fake.latest_with_buttons(ALI)) is None or shown(m) != b,
            "the hand redrawn",
        )
        return


async def stored_table(backend: BackendFactory, table_id: int = 1) -> StoredTable:
    """The table as the database holds it once the processes are gone."""
    db = backend.make()
    await db.start()
    try:
        stored = await Store(db).load_table(table_id)
    finally:
        await db.close()
    assert stored is not None
    return stored


def shown(message: Message) -> tuple[int, str, str]:
    return message.message_id, message.text, repr(message.keyboard)


async def test_the_standby_takes_over_within_ten_seconds_and_the_match_finishes(
    backend: BackendFactory, tmp_path: Path
) -> None:
    fake = FakeBotAPI()
    url = await fake.start()
    env = {
        **os.environ,
        "SAHRA_TELEGRAM_TOKEN": "123:TEST",
        "SAHRA_TELEGRAM_API_URL": url,
        "SAHRA_DATABASE": str(backend.path),
        "SAHRA_LOG_LEVEL": "INFO",
        "PTB_TIMEDELTA": "true",
        "PYTHONUNBUFFERED": "1",
        **FAST_WRITES,
    }
    env.pop("SAHRA_DATABASE_URL", None)
    if backend.url is not None:
        env["SAHRA_DATABASE_URL"] = backend.url
    logs = [tmp_path / "first.log", tmp_path / "second.log"]
    processes = [spawn(env, logs[0])]
    try:
        await until(lambda: leader(logs) == 0, "the first process leads")
        processes.append(spawn(env, logs[1]))
        await until(lambda: "event=standby" in text(logs[1]), "the second stands by")
        await until(lambda: polls_after(fake, 0.0), "polling")

        fake.command(GROUP, ALI, "/new solo 31")
        await until(lambda: fake.latest_with_buttons(GROUP) is not None, "the lobby")
        added = [fake.command(GROUP, ALI, "/addbot") for _ in range(3)]
        await until(lambda: fake.acked > added[-1], "the computers asked for")
        fake.command(ALI, ALI, "/start t1")  # the deep link: Ali's private chat opens
        await until(lambda: fake.in_chat(ALI), "Ali's private chat")
        fake.command(GROUP, ALI, "/begin")
        acked: list[tuple[int, int, dict[str, object]]] = []
        for _ in range(4):
            await press_once(fake, acked)

        processes[0].send_signal(signal.SIGKILL)  # mid-deal, the poller dies
        processes[0].wait()
        killed = time.monotonic()
        await until(lambda: leader(logs[1:]) == 0, "the standby leads", TAKEOVER_LIMIT + 5)
        await until(lambda: polls_after(fake, killed), "the standby polls", TAKEOVER_LIMIT + 5)
        takeover = polls_after(fake, killed)[0] - killed
        print(f"takeover: the standby polled {takeover:.2f} s after the SIGKILL at {killed:.2f}")
        assert takeover < TAKEOVER_LIMIT

        for _ in range(3):  # the hand of the player to act was redrawn: play on
            await press_once(fake, acked)
        fake.command(GROUP, ALI, "/leave")  # a computer finishes the match for Ali
        db = backend.make()
        await db.start()
        try:
            store = Store(db)

            async def finished() -> bool:
                found = await store.result(1)
                return found is not None and found.status == "finished"

            await until(finished, "the match finished", 60, every=0.2)
            stored = await store.load_table(1)
        finally:
            await db.close()
        assert fake.conflicts == 0  # never two pollers
        assert len(acked) == 7
        assert stored is not None and stored.table.status == "finished"
        moves = {action.seq: action for action in stored.actions}
        for _, version, action in acked:  # every acknowledged move is in the log
            logged = moves[version + 1]
            assert logged.action == action and logged.source == "human"
    finally:
        await stop_all(processes)
        await fake.close()
        show_logs(logs)
        show_chat(fake, ALI)
