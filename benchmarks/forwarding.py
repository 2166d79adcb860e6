"""What a forwarded update costs: the time from one process leaving it in the inbox to the
owning process handling it (``bot/cluster/inbox.py``), over a real PostgreSQL server.

A Discord DM press for a table on another process's shard, or a Telegram webhook update
that a load balancer gave to a process that does not own Telegram, pays this on top of
the owner's own press-to-answer time. Two processes are stood in for by two connection
pools: the receiver forwards at an offered rate, the owner is woken by NOTIFY (as it
runs in production) and handles each row by noting the time.

    python -m tests.postgres_cluster -- python -m benchmarks.forwarding

(``make bench`` runs it so; the server's URL comes from ``SAHRA_BENCH_POSTGRES_URL`` or
``SAHRA_TEST_POSTGRES_URL``.)
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import time

from bot.cluster.inbox import Inbox
from bot.cluster.partitions import Ownership
from storage.pg_admin import create_database, drop_database
from storage.postgres import PostgresDatabase
from storage.store import Store

URL_VARIABLES = ("SAHRA_BENCH_POSTGRES_URL", "SAHRA_TEST_POSTGRES_URL")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


async def measure(url: str, count: int, rate: float) -> dict[str, float]:
    """Forward ``count`` updates at ``rate`` a second (0: all at once); the latencies."""
    receiver_db, owner_db = PostgresDatabase(url), PostgresDatabase(url)
    await receiver_db.start()
    await owner_db.start()
    left: dict[str, float] = {}
    took: list[float] = []
    done = asyncio.Event()

    async def handle(payload: str) -> None:
        took.append(time.perf_counter() - left[payload])
        if len(took) == count:
            done.set()

    owner = Inbox(Store(owner_db), Ownership(held={"discord:1"}))
    owner.handlers["discord"] = handle
    receiver = Inbox(Store(receiver_db), Ownership(held={"discord:0"}))
    await owner.start()
    started = time.perf_counter()
    try:
        for n in range(count):
            if rate:
                await asyncio.sleep(max(0.0, started + n / rate - time.perf_counter()))
            payload = f'{{"n":{n}}}'
            left[payload] = time.perf_counter()
            if rate:
                await receiver.forward("discord:1", payload)
            else:
                asyncio.get_running_loop().create_task(receiver.forward("discord:1", payload))
        await asyncio.wait_for(done.wait(), 120)
        elapsed = time.perf_counter() - started
    finally:
        await owner.close()
        await receiver_db.close()
        await owner_db.close()
    return {
        "p50_ms": statistics.median(took) * 1000,
        "p95_ms": percentile(took, 0.95) * 1000,
        "p99_ms": percentile(took, 0.99) * 1000,
        "per_s": count / elapsed,
    }


async def main(admin_url: str, count: int) -> None:
    url = await create_database(admin_url, prefix="sahra_forward")
    try:
        for rate in (20.0, 200.0, 0.0):
            figures = await measure(url, count if rate != 20.0 else count // 10, rate)
            offered = f"{rate:.0f}/s offered" if rate else "all at once"
            print(
                f"forwarding, {offered:>16}: left → handled p50 {figures['p50_ms']:.1f} ms"
                f"  p95 {figures['p95_ms']:.1f} ms  p99 {figures['p99_ms']:.1f} ms"
                f"  ({figures['per_s']:,.0f} handled/s)"
            )
    finally:
        await drop_database(admin_url, url)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--quick", action="store_true", help="fewer updates")
    arguments, _ = parser.parse_known_args()
    admin = next((os.environ[v] for v in URL_VARIABLES if os.environ.get(v)), None)
    if admin is None:
        print("forwarding: no PostgreSQL server (run it through python -m tests.postgres_cluster)")
    else:
        asyncio.run(main(admin, 400 if arguments.quick else arguments.count))
