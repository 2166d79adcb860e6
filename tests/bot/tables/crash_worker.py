"""A process that plays computer tables through the manager until it is killed.

Run by ``test_crash.py``: ``python -m tests.bot.tables.crash_worker DB TABLES`` (DB: the
SQLite file, or a ``postgresql://`` URL). It prints
one line per published change, after its commit: ``ack TABLE SEQ DEAL HASH`` (HASH is a
digest of the match state, never its cards), and one ``loaded TABLE SEQ HASH`` per table
it restored at start-up.
"""

from __future__ import annotations

import asyncio
import hashlib
import sys
from typing import Any

from bot.tables import LiveTable, Place, PlayerRef, TableManager
from storage.opening import open_backend
from storage.postgres import is_postgres_url

VARIANTS = ("syrian41", "tarneeb_solo", "trix_complex", "tarneeb41_double")
OWNER = PlayerRef(user_id="crash", name="Crash test", language="en")


def digest(table: LiveTable) -> str:
    assert table.match is not None
    return hashlib.sha256(table.match.to_json().encode()).hexdigest()[:16]


class AckNotifier:
    async def publish(self, table: LiveTable, events: list[dict[str, Any]]) -> None:
        if table.match is not None:
            sys.stdout.write(
                f"ack {table.id} {table.seq} {table.match.deal_number} {digest(table)}\n"
            )
            sys.stdout.flush()


async def main(address: str, wanted: int) -> None:
    url = address if is_postgres_url(address) else None
    async with open_backend(address, url) as db:
        manager = TableManager(db, AckNotifier())
        await manager.start()
        for table in manager.live_tables():
            if table.match is not None:
                print(f"loaded {table.id} {table.seq} {digest(table)}", flush=True)
        number = 0
        while True:
            running = [t for t in manager.live_tables() if t.status == "running"]
            for _ in range(wanted - len(running)):
                number += 1
                variant = VARIANTS[number % len(VARIANTS)]
                place = Place("crash", f"{variant}-{number}-{len(manager.live_tables())}")
                table = await manager.create(place, OWNER, {"variant": variant}, join=False)
                for _ in range(4):
                    await manager.add_computer(table.id, OWNER.user_id)
                await manager.begin(table.id, OWNER.user_id)
            await asyncio.sleep(0.05)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
