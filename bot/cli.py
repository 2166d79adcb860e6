"""The ``sahra`` command."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from pydantic import ValidationError

from bot.console import play
from bot.logs import configure_logging
from bot.settings import Settings
from storage.backup import backup
from storage.opening import open_backend


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="sahra", description="Sahra — سهرة: card games.")
    commands = parser.add_subparsers(dest="command", required=True)
    play.add_arguments(
        commands.add_parser("play", help="play a match in the terminal against computers")
    )
    play.add_arguments(
        commands.add_parser(
            "run",
            help="run the bots of every platform with a token (SAHRA_TELEGRAM_TOKEN,"
            " SAHRA_DISCORD_TOKEN); with none, the terminal table (same options as play)",
        )
    )
    commands.add_parser("doctor", help="check the settings, the database and each token")
    commands.add_parser("tables", help="list the live tables")
    export = commands.add_parser("export", help="a table's match log as JSON (replayable)")
    export.add_argument("table", type=int)
    ratings = commands.add_parser(
        "ratings", help="count finished matches into the ratings (--rebuild: all again)"
    )
    ratings.add_argument(
        "--rebuild", action="store_true", help="forget the ratings and count every result again"
    )
    backup = commands.add_parser("backup", help="an online backup of the database")
    backup.add_argument("path", type=Path)
    moving = (
        "copy the SQLite file (SAHRA_DATABASE) into an empty PostgreSQL database and"
        " verify the copy by replay; stop the bot first, it must not write while this runs"
    )
    migrate_db = commands.add_parser("migrate-db", help=moving, description=moving)
    migrate_db.add_argument(
        "--to", required=True, metavar="URL", help="postgresql://user:password@host:5432/sahra"
    )
    args = parser.parse_args(argv)
    if args.command == "play":
        return play.run(args)
    if args.command == "run":
        return run_bots(args)
    settings = _settings()
    if settings is None:
        return 2
    return asyncio.run(_operate(args, settings))


def _settings() -> Settings | None:
    try:
        return Settings()
    except ValidationError as error:
        # Each setting and the reason, never the value given: it may be a token, a
        # password in a database URL or the webhook's secret.
        for problem in error.errors(include_url=False, include_input=False):
            name = "SAHRA_" + str(problem["loc"][0]).upper() if problem["loc"] else "settings"
            print(f"sahra: bad setting {name}: {problem['msg']}", file=sys.stderr)
        return None


async def _operate(args: argparse.Namespace, settings: Settings) -> int:
    """The operator commands (they never need a platform library)."""
    from bot import ops
    from bot.activity_doctor import WARNING

    if args.command == "doctor":
        checks = await ops.doctor(settings)
        for name, ok, detail in checks:
            label = "FAIL" if not ok else "warn" if detail.startswith(WARNING) else "ok  "
            print(f"{label} {name:9} {detail.removeprefix(WARNING)}")
        return 0 if all(ok for _, ok, _ in checks) else 1
    if args.command == "backup":
        if settings.database_address():
            print("sahra: with PostgreSQL, back up with pg_dump", file=sys.stderr)
            return 2
        pages = backup(settings.database, args.path)
        print(f"backed up {settings.database} to {args.path} ({pages} pages)")
        return 0
    if args.command == "migrate-db":
        return await _migrate_db(settings, args.to)
    async with open_backend(settings.database, settings.database_address()) as db:
        if args.command == "tables":
            for row in await ops.live_tables(db):
                print(json.dumps(row, ensure_ascii=False))
            return 0
        if args.command == "ratings":
            counted, rated = await ops.ratings(db, rebuild=args.rebuild)
            print(f"counted {counted} matches; {rated} ratings")
            return 0
        try:
            print(json.dumps(await ops.export_table(db, args.table), ensure_ascii=False))
        except KeyError:
            print(f"sahra: there is no table {args.table}", file=sys.stderr)
            return 1
        return 0


async def _migrate_db(settings: Settings, url: str) -> int:
    """0: copied and verified; 1: the copy failed or does not verify; 2: refused."""
    from bot.migration import BadMigration, migrate
    from storage.errors import StorageError
    from storage.migrate import SchemaMismatch, TargetNotEmpty

    try:
        report = await migrate(settings.database, url)
    except (BadMigration, TargetNotEmpty, SchemaMismatch) as error:
        print(f"sahra: {error}", file=sys.stderr)
        return 2
    except StorageError as error:
        print(f"sahra: {error}", file=sys.stderr)
        return 1
    for table, count in report.counts.items():
        print(f"{table:14} {count:>9}")
    if not report.ok:
        for problem in report.problems:
            print(f"sahra: {problem}", file=sys.stderr)
        # The rows stay in PostgreSQL; a second run would be refused as not empty.
        print(
            "sahra: the copy does not verify; empty the PostgreSQL database before trying again",
            file=sys.stderr,
        )
        return 1
    print(
        f"verified {report.live_tables} live tables by replay"
        f" ({report.seconds:.2f} s, of which copying {report.copy_seconds:.2f} s)"
    )
    return 0


def run_bots(args: argparse.Namespace) -> int:
    """``make run``: the bots when a platform token is configured, else the console."""

    settings = _settings()
    if settings is None:
        return 2
    if settings.telegram_token is None and settings.discord_token is None:
        return play.run(args)
    from bot.runner import LeaseLost, RoleFailed
    from bot.runner import run_bots as run  # only when needed: the console needs neither

    configure_logging(settings.log_level, settings.log_format, settings.secrets())
    print("Sahra: bots starting (Ctrl-C or SIGTERM stops them).", file=sys.stderr)
    try:
        with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C: a clean stop, not a trace
            asyncio.run(run(settings))
    except LeaseLost:
        print("sahra: lost the leader lease; stopped (restart to stand by)", file=sys.stderr)
        return 3
    except RoleFailed as failed:
        print(f"sahra: {failed}; stopped so that a standby takes over", file=sys.stderr)
        return 4
    return 0


if __name__ == "__main__":
    sys.exit(main())
