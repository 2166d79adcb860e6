"""``sahra play``: a real table in the terminal — you and three computer players.

The same manager, database and renderer as the chat bots: the public table above, your
hand below with your legal moves numbered. Each move is read as the number of a listed
move, one per line, so the console is scriptable (``printf '1\\n2\\n' | sahra play``). The
match is saved in SQLite after every move: when stdin closes (or the terminal does), it
stays saved and the next ``sahra play`` of that variant resumes it. Exits 0 when the match
is over or when stdin closes.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import getpass
import os
import sys
from pathlib import Path
from typing import TextIO

import engine
from bot.console.terminal import ConsoleNotifier
from bot.delivery.router import PlatformRouter
from bot.league.service import counting
from bot.render import DOUBLE_PICK, Button, refusal_notice, rules_text
from bot.render.i18n import CATALOG, language_of
from bot.tables import (
    LiveTable,
    Place,
    PlayerRef,
    Press,
    Refusal,
    TableConfig,
    TableManager,
    table_commands,
)
from bot.tables.computers import Computers
from bot.tables.table_commands import NobodyElse
from storage.database import Database
from storage.lease import FileLease
from storage.records import TableRecord

CONSOLE_USER = "console"
CONSOLE_PLATFORM = "console"
# A file of its own: the console never shares the bots' database (``SAHRA_DATABASE``) by
# default, and a file it is pointed at is used only while no other Sahra holds it.
DEFAULT_DATABASE = "sahra-console.sqlite"
DATABASE_VARIABLE = "SAHRA_CONSOLE_DATABASE"
BUSY = 1  # the exit code when another Sahra holds the file


def console_config(variant: str, language: str, difficulty: str) -> TableConfig:
    """A table for one person at a terminal: no turn timer to speak of, no TX.12 auto-play
    behind the prompt's back, and computers that answer at once."""
    return TableConfig.model_validate(
        {
            "variant": variant,
            "language": language,
            "difficulty": difficulty,
            "turn_seconds": 3600,
            "bid_seconds": 3600,
            "doubling_seconds": 600,
            "forced_autoplay": False,
            "timeouts_before_takeover": 20,
            "lobby_ttl_seconds": 3600,
            "abandon_after_seconds": 30 * 24 * 3600,
        }
    )


async def play(
    variant: str,
    language: str,
    seat: int,
    database: Path,
    stdin: TextIO,
    out: TextIO,
    difficulty: str = "easy",
    name: str | None = None,
    web_port: int | None = None,
) -> int:
    """``web_port`` (0: any free port): serve the table as a web page on this machine
    instead of reading moves from ``stdin``."""
    player = PlayerRef.model_validate(
        {"user_id": CONSOLE_USER, "name": name or _user_name(), "language": language}
    )
    text = {  # the catalog's console_<key> strings, by <key>
        key.removeprefix("console_"): value
        for key, value in CATALOG[language_of(language)].items()
        if key.startswith("console_")
    }

    notifier = ConsoleNotifier(out)
    # The lease a ``sahra run`` on this file takes: while a bot runs on it, the console
    # does not open it (the two would hand out the same table ids, and the bot would not
    # know the console's moves); while the console plays, a bot stands by for it.
    lease = FileLease(database)
    if not lease.attempt():
        notifier.write(text["busy"].format(file=database, option="--db another.sqlite"))
        return BUSY
    try:
        async with Database.open(database) as db:
            router = PlatformRouter()
            router.add(CONSOLE_PLATFORM, notifier)
            manager = TableManager(db, router, computers=Computers())
            counting(manager)  # a finished match counts in this file's league, as the bot's do
            await manager.start(_console_table)
            try:
                table = await _open_table(manager, variant, language, seat, player, difficulty)
                if table.seq or table.status != "running":
                    notifier.write(text["resume"].format(table=table.id))
                else:
                    notifier.write(text["new"].format(seat=seat + 1))
                    notifier.write(rules_text(variant, language))
                await manager.resume()
                if web_port is not None:
                    from bot.console.web import serve  # the web server, only when asked

                    return await serve(
                        manager, router, table, player, notifier, text["web"], web_port
                    )
                return await _loop(manager, table, player, stdin, notifier, text)
            finally:
                await manager.close()
                await notifier.outbox.flush()
                await notifier.outbox.close()
    finally:
        await lease.release()


def _console_table(record: TableRecord) -> bool:
    """The console loads its own tables only: another platform's table in the same file
    is not its to time out or to print."""
    return record.platform == CONSOLE_PLATFORM


async def _open_table(
    manager: TableManager,
    variant: str,
    language: str,
    seat: int,
    player: PlayerRef,
    difficulty: str,
) -> LiveTable:
    place = Place(CONSOLE_PLATFORM, CONSOLE_USER, variant)
    table = manager.table_at(place)
    if table is None:
        config = console_config(variant, language, difficulty)
        table = await manager.create(place, player, config, join=False)
    if table.status == "lobby":  # new, or set up halfway when the terminal closed
        if table.seat_of(CONSOLE_USER) is None:
            await manager.join(table.id, player, seat if seat in table.free_seats() else None)
        while table.free_seats():
            await table_commands.run(manager, table.id, "add_computer", player, NobodyElse())
        await table_commands.run(manager, table.id, "begin", player, NobodyElse())
    own = table.seat_of(CONSOLE_USER)
    occupant = table.seats[own] if own is not None else None
    if occupant is not None and occupant.away:  # back at the keyboard
        await table_commands.run(manager, table.id, "reclaim", player, NobodyElse())
    return table


async def _loop(
    manager: TableManager,
    table: LiveTable,
    player: PlayerRef,
    stdin: TextIO,
    notifier: ConsoleNotifier,
    text: dict[str, str],
) -> int:
    table_id = table.id
    while True:
        await manager.settle()
        await notifier.outbox.flush()  # the table as it is now is printed above
        with contextlib.suppress(Refusal):  # a finished table leaves the manager's list
            table = manager.table(table_id)
        match = table.match
        if table.status != "running" or match is None:
            return 0
        seat = table.seat_of(CONSOLE_USER)
        assert seat is not None
        view = match.view(seat)
        if not view["legal_actions"]:
            await manager.run_due()  # nothing for us to do: only a timer can move the table
            await asyncio.sleep(0.05)
            continue
        hand = notifier.presenter.hand(table, seat)
        moves = hand.enabled()
        notifier.write("\n" + hand.text + "\n" + _menu(moves, text))
        notifier.prompt(text["prompt"])
        line = stdin.readline()
        if not line:
            notifier.write("\n" + text["saved"])
            return 0
        if not stdin.isatty():
            notifier.write(line.strip())  # a scripted move shows in the transcript
        choice = _number(line, len(moves))
        if choice is None:
            notifier.write(text["bad_number"].format(first=1, last=len(moves)))
            continue
        button = moves[choice - 1]
        if button.action["type"] == DOUBLE_PICK:
            notifier.presenter.pick(table, player.user_id, button.action["cards"])
            continue
        try:
            await manager.press(
                Press(
                    table_id=table_id, version=button.version, action=button.action, player=player
                )
            )
        except Refusal as refusal:
            language = table.config.language
            notifier.write(refusal_notice(language, refusal.code, refusal.detail).text)


def _menu(moves: list[Button], text: dict[str, str]) -> str:
    items = [f"{index}) {button.label}" for index, button in enumerate(moves, 1)]
    lines = ["   ".join(items[i : i + 6]) for i in range(0, len(items), 6)]
    return text["moves"] + "\n  " + "\n  ".join(lines)


def _number(line: str, count: int) -> int | None:
    try:
        value = int(line.strip())
    except ValueError:
        return None
    return value if 1 <= value <= count else None


def _user_name() -> str:
    try:
        return getpass.getuser()[:64] or "you"
    except (KeyError, OSError):
        return "you"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--variant",
        default=engine.DEFAULT_VARIANT,
        choices=list(engine.VARIANTS),
    )
    parser.add_argument("--lang", default="ar", choices=["ar", "en"])
    parser.add_argument(
        "--seat",
        type=int,
        default=0,
        choices=range(4),
        help="your seat, 0-3 (partners sit opposite)",
    )
    parser.add_argument("--difficulty", default="easy", choices=["easy", "hard"])
    parser.add_argument(
        "--db",
        type=Path,
        default=Path(os.environ.get(DATABASE_VARIABLE) or DEFAULT_DATABASE),
        help=f"the SQLite file the match is saved in (default: ${DATABASE_VARIABLE}, else"
        f" {DEFAULT_DATABASE}); not one a running bot holds",
    )
    parser.add_argument("--name", help="your name at the table")
    parser.add_argument(
        "--web",
        action="store_true",
        help="play in your browser: serve the web table on 127.0.0.1 and print its link",
    )
    parser.add_argument(
        "--port", type=int, default=0, help="the web table's port with --web (default: any)"
    )


def run(args: argparse.Namespace) -> int:
    try:
        return _run(args)
    except BrokenPipeError:  # the reader went away (``| head``): the match is saved anyway
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def _run(args: argparse.Namespace) -> int:
    return asyncio.run(
        play(
            args.variant,
            args.lang,
            args.seat,
            args.db,
            sys.stdin,
            sys.stdout,
            args.difficulty,
            args.name,
            args.port if args.web else None,
        )
    )


__all__ = ["add_arguments", "play", "run"]
