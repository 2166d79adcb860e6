"""A process that counts the league once, as ``sahra ratings`` does.

Run by ``test_service.py``: ``python -m tests.bot.league.count_worker DB`` (DB: the SQLite
file, or a ``postgresql://`` URL). It opens the database, prints ``ready``, waits for a
line on its standard input (so that several workers count at once), counts every match
waiting and prints ``counted N``.
"""

from __future__ import annotations

import asyncio
import sys

from bot.ops import ratings
from storage.opening import open_backend
from storage.postgres import is_postgres_url


async def main(address: str) -> None:
    url = address if is_postgres_url(address) else None
    async with open_backend(address, url) as db:
        print("ready", flush=True)
        await asyncio.to_thread(sys.stdin.readline)
        counted, _ = await ratings(db)
        print(f"counted {counted}", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
