"""What the store needs of a database, whichever it is: SQLite (``storage/database.py``,
the embedded default) or PostgreSQL (``storage/postgres.py``, shared by processes).

Statements are written once, in the SQL both understand (``INSERT … ON CONFLICT … DO
UPDATE``, no ``INSERT OR REPLACE``), with ``?`` placeholders; a backend translates what its
driver needs. ``write`` commits its statements together, in order, and returns once they
are durable; it raises ``Conflict`` for a broken uniqueness rule and ``StorageError`` for
any other failure, nothing of the write being kept either way. ``write_if`` is the
conditional write several processes claim a row with: its guards are statements that must
each change a row (``UPDATE … WHERE … AND <still as read>``, ``INSERT … ON CONFLICT DO
NOTHING``); when one changes none, because another process got there first, nothing of the
write is kept.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

Statement = tuple[str, Sequence[Any]]


class Backend(Protocol):
    dialect: str  # "sqlite" or "postgresql"

    async def write(self, *statements: Statement) -> None: ...

    async def write_if(self, guards: Sequence[Statement], *statements: Statement) -> bool:
        """Commit the guards, then the statements, in one transaction if every guard
        changed a row (True); otherwise keep nothing of it (False)."""
        ...

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """Rows readable by column name (``row["id"]``) and by position."""
        ...

    async def schema_version(self) -> int: ...

    def current_schema(self) -> int:
        """The schema version this Sahra expects of this backend."""
        ...

    async def integrity(self) -> str:
        """``ok``, or the first problem the backend's own check finds."""
        ...

    def describe(self) -> str:
        """Where the data lives, for operators (never a password)."""
        ...

    async def close(self) -> None: ...
