"""The ``sahra`` command."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from bot.console import play


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="sahra", description="Sahra — سهرة: card games.")
    commands = parser.add_subparsers(dest="command", required=True)
    play.add_arguments(
        commands.add_parser("play", help="play a match in the terminal against computers")
    )
    args = parser.parse_args(argv)
    if args.command == "play":
        return play.run(args)
    parser.error(f"unknown command {args.command}")
    return 2


if __name__ == "__main__":
    sys.exit(main())
