"""The tables' harness (a manager on a real SQLite file, a clock the test moves)."""

from tests.bot.tables.conftest import harness

__all__ = ["harness"]
