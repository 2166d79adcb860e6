"""The ``sahra`` command."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import sys
from collections.abc import Sequence

from pydantic import ValidationError

from bot.console import play
from bot.settings import Settings


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
    args = parser.parse_args(argv)
    if args.command == "play":
        return play.run(args)
    if args.command == "run":
        return run_bots(args)
    parser.error(f"unknown command {args.command}")
    return 2


def run_bots(args: argparse.Namespace) -> int:
    """``make run``: the bots when a platform token is configured, else the console."""

    try:
        settings = Settings()
    except ValidationError as error:
        print(f"sahra: bad setting: {error}", file=sys.stderr)
        return 2
    if settings.telegram_token is None and settings.discord_token is None:
        return play.run(args)
    from bot.runner import run_bots as run  # only when needed: the console needs neither

    print("Sahra: bots starting (Ctrl-C stops them).", file=sys.stderr)
    with contextlib.suppress(KeyboardInterrupt):  # Ctrl-C: a clean stop, not a trace
        asyncio.run(run(settings))
    return 0


if __name__ == "__main__":
    sys.exit(main())
