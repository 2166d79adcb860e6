"""The web table at scale: tables per process, two processes on PostgreSQL, a reconnect
storm, and an abusive client.

Server processes (this module with ``--serve``) run the real web table: a real
``TableManager``, the hub, the gate and the aiohttp server. This process plays four-player
Syrian 41 tables of scripted clients (``benchmarks.web_latency``'s players: the seat to
act sends a legal move about every ``--pace`` seconds, and the time until each other seat
holds the new version is recorded). Printed, for each run:

- ``one``: one process on SQLite, at each of ``--sizes`` tables (four sockets each);
- ``two``: two processes on one PostgreSQL database, the tables owned by the first and the
  sockets dealt to the two in turn (as a balancer without sticky sessions would): half of
  the moves are forwarded to the owner and half of the pages follow a table owned elsewhere;
- ``storm``: after a run, every socket of every process is closed at once (1001, as at a
  restart) and the clients come back with their sessions, with the page's backoff; the
  seconds until every socket is welcomed again;
- ``abuse``: a run during which one client opens ``--abuse-sockets`` sockets that never
  say hello, one person opens 50 pages, one page sends frames as fast as it can and one
  never reads: the honest tables' p90 beside the same run without it.

p50/p90/max in milliseconds, moves and refused moves, KB of server memory per socket. The
players share this process (and, here, the machine's two cores with the servers), so
their own parsing is in every figure. Figures are printed, never asserted.

    python -m tests.postgres_cluster -- python -m benchmarks.web_scale   # make bench
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import random
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp

from benchmarks.web_latency import (
    TOKEN,
    Figures,
    Seat,
    forge,
    open_tables,
    resident_kb,
    table_player,
    user_of,
)

URL_VARIABLES = ("SAHRA_BENCH_POSTGRES_URL", "SAHRA_TEST_POSTGRES_URL")
BACKOFF = 0.5  # the page's first reconnect delay (app.js BACKOFF_MS), jittered ±25 %


# ---------------------------------------------------------------- the server processes


async def serve(role: str, tables: int, where: str) -> None:
    """``role``: ``alone`` (SQLite file ``where``), ``owner`` or ``follower`` (PostgreSQL
    ``where``). Reads commands on stdin: ``drop`` closes every socket; EOF stops."""
    from bot.cluster.inbox import Inbox
    from bot.cluster.partitions import Ownership
    from bot.delivery.router import PlatformRouter
    from bot.tables import TableManager
    from bot.web.app import web_table
    from bot.web.remote import RemotePages
    from storage.database import Database
    from storage.postgres import PostgresDatabase

    logging.disable(logging.WARNING)  # the abuse run's refusals would flood the report
    db = Database(Path(where)) if role == "alone" else PostgresDatabase(where)
    await db.start()
    router = PlatformRouter()
    manager = TableManager(db, router)
    if role != "follower":  # a follower holds no partition: it loads no table
        await manager.start()
    web = await web_table(manager, router, public_url="http://127.0.0.1:9", telegram_token=TOKEN)
    inbox = remote = None
    if role != "alone":
        ownership = Ownership(held={"telegram"} if role == "owner" else set())
        inbox = Inbox(manager.store, ownership)
        await inbox.start()
        remote = web.remote = RemotePages(manager, web.hub, inbox, ownership)
        await remote.start()
    ids = await open_tables(manager, tables if role != "follower" else 0)
    port = await web.start("127.0.0.1", 0)
    print(json.dumps({"port": port, "tables": ids}), flush=True)
    loop = asyncio.get_running_loop()
    while line := await loop.run_in_executor(None, sys.stdin.readline):
        if line.strip() == "drop":
            for socket in web.hub.every_socket():
                await socket.ws.close(code=1001, message=b"restart")
            print("dropped", flush=True)
    await web.stop()
    if remote is not None:
        await remote.close()
    if inbox is not None:
        await inbox.close()
    await manager.close()
    await db.close()


@dataclass
class Server:
    process: asyncio.subprocess.Process
    port: int
    tables: list[int]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/ws"

    async def command(self, line: str) -> str:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(line.encode() + b"\n")
        await self.process.stdin.drain()
        return (await self.process.stdout.readline()).decode().strip()

    async def stop(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        await self.process.wait()


async def spawn(role: str, tables: int, where: str) -> Server:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "benchmarks.web_scale",
        "--serve",
        role,
        "--tables",
        str(tables),
        "--where",
        where,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])},
    )
    assert process.stdout is not None
    ready = json.loads(await process.stdout.readline())
    return Server(process, ready["port"], ready["tables"])


# ---------------------------------------------------------------- the clients


@dataclass
class Page(Seat):
    """A scripted page that keeps its session and comes back after a drop."""

    url: str = ""
    hello: dict[str, Any] | None = None
    welcomed: float = 0.0

    async def read(self) -> None:
        async for message in self.ws:
            frame = json.loads(message.data)
            if frame["type"] == "welcome":
                self.hello = {"type": "hello", "session": frame["session"]}
                self.welcomed = time.perf_counter()
            elif frame["type"] == "state":
                self.state = frame["state"]
                self.arrived.setdefault(self.state["version"], time.perf_counter())
                self.changed.set()

    async def come_back(self, http: aiohttp.ClientSession) -> None:
        """What app.js does on a close: wait, reconnect with the session, again if need be."""
        for attempt in range(8):
            await asyncio.sleep(BACKOFF * (2 ** min(attempt, 4)) * random.uniform(0.75, 1.25))
            try:
                self.ws = await http.ws_connect(self.url)
                await self.ws.send_json(self.hello)
                await self.read()
                return
            except (aiohttp.ClientError, OSError):
                continue


async def connect(
    http: aiohttp.ClientSession, servers: list[Server], tables: list[int]
) -> list[list[Page]]:
    """Four pages per table, dealt to the servers in turn (round robin)."""
    now = int(time.time())
    everyone: list[list[Page]] = []
    turn = 0
    for index, table in enumerate(tables):
        seats = []
        for seat in range(4):
            url = servers[turn % len(servers)].url
            turn += 1
            ws = await http.ws_connect(url)
            await ws.send_json(
                {"type": "hello", "init_data": forge(user_of(index, seat), table, now)}
            )
            seats.append(Page(ws, url=url))
        everyone.append(seats)
    return everyone


def percentiles(figures: Figures) -> dict[str, float]:
    ordered = sorted(figures.latencies) or [0.0]

    def at(fraction: float) -> float:
        return round(1000 * ordered[min(len(ordered) - 1, int(fraction * len(ordered)))], 1)

    return {"p50_ms": at(0.5), "p90_ms": at(0.9), "max_ms": at(1.0)}


async def abuse(http: aiohttp.ClientSession, server: Server, table: int, sockets: int) -> None:
    """One client misbehaving every way at once until cancelled."""
    now = int(time.time())
    silent = [await http.ws_connect(server.url) for _ in range(sockets)]  # never a hello
    intruder = {"type": "hello", "init_data": forge(9_999_999, table, now)}  # not seated
    pages = []
    for _ in range(50):  # one person, 50 pages: eight stay open
        ws = await http.ws_connect(server.url)
        await ws.send_json(intruder)
        pages.append(ws)
    flood = await http.ws_connect(server.url)
    await flood.send_json(intruder)
    deaf = await http.ws_connect(server.url)  # never read from: the server's writes stall
    await deaf.send_json({"type": "hello", "init_data": forge(9_999_998, table, now)})
    move = {"type": "move", "version": 0, "action": {"type": "pass"}}
    try:
        while not flood.closed:
            await flood.send_json(move)
            await asyncio.sleep(0)
        await asyncio.Event().wait()
    except (ConnectionError, aiohttp.ClientError):
        await asyncio.Event().wait()
    finally:
        for ws in [*silent, *pages, flood, deaf]:
            await ws.close()


async def measure(
    servers: list[Server],
    seconds: float,
    pace: float,
    *,
    storm: bool = False,
    abusive: int = 0,
) -> dict[str, Any]:
    tables = servers[0].tables
    before = sum(resident_kb(s.process.pid) for s in servers)
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as http:
        everyone = await connect(http, servers, tables)
        pages = [page for seats in everyone for page in seats]
        readers = [asyncio.create_task(page.read()) for page in pages]
        while not all(page.state for page in pages):
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.5)
        after = sum(resident_kb(s.process.pid) for s in servers)
        abuser = (
            asyncio.create_task(abuse(http, servers[0], tables[0], abusive)) if abusive else None
        )
        figures = Figures()
        until = time.perf_counter() + seconds
        await asyncio.gather(*(table_player(seats, pace, until, figures) for seats in everyone))
        if abuser is not None:
            abuser.cancel()
        row: dict[str, Any] = {
            "tables": len(tables),
            "sockets": len(pages),
            "moves": figures.moves,
            "refused": figures.refused,
            **percentiles(figures),
            "kb_per_socket": round((after - before) / len(pages), 1),
        }
        if storm:
            for reader in readers:
                await asyncio.wait({reader}, timeout=0)
            dropped = time.perf_counter()
            for page in pages:
                page.welcomed = 0.0
            await asyncio.gather(*(server.command("drop") for server in servers))
            await asyncio.gather(*readers, return_exceptions=True)
            readers = [asyncio.create_task(page.come_back(http)) for page in pages]
            deadline = time.perf_counter() + 60
            while not all(page.welcomed for page in pages) and time.perf_counter() < deadline:
                await asyncio.sleep(0.05)
            back = [page.welcomed - dropped for page in pages if page.welcomed]
            row["storm_back"] = len(back)
            row["storm_s"] = round(max(back), 2) if back else None
        for page in pages:
            await page.ws.close()
        for reader in readers:
            reader.cancel()
    return row


# ---------------------------------------------------------------- the runs


async def run_one(size: int, seconds: float, pace: float, abusive: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        server = await spawn("alone", size, str(Path(folder) / "bench.sqlite"))
        try:
            return await measure([server], seconds, pace, abusive=abusive)
        finally:
            await server.stop()


async def run_two(admin: str, size: int, seconds: float, pace: float) -> dict[str, Any]:
    from storage.pg_admin import create_database, drop_database

    url = await create_database(admin, prefix="sahra_web_scale")
    try:
        owner = await spawn("owner", size, url)
        follower = await spawn("follower", 0, url)
        follower.tables = owner.tables
        try:
            return await measure([owner, follower], seconds, pace, storm=True)
        finally:
            await follower.stop()
            await owner.stop()
    finally:
        await drop_database(admin, url)


HEADER = (
    f"{'run':<7} {'tables':>6} {'sockets':>7} {'moves':>6} {'refused':>7} {'p50 ms':>7}"
    f" {'p90 ms':>7} {'max ms':>7} {'KB/socket':>9} {'storm s':>8}"
)


def line(run: str, row: dict[str, Any]) -> str:
    storm = "" if row.get("storm_s") is None else f"{row['storm_s']} ({row['storm_back']})"
    return (
        f"{run:<7} {row['tables']:>6} {row['sockets']:>7} {row['moves']:>6} {row['refused']:>7}"
        f" {row['p50_ms']:>7} {row['p90_ms']:>7} {row['max_ms']:>7} {row['kb_per_socket']:>9}"
        f" {storm:>8}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--serve", choices=["alone", "owner", "follower"], help=argparse.SUPPRESS)
    parser.add_argument("--tables", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--where", help=argparse.SUPPRESS)
    parser.add_argument("--sizes", type=int, nargs="*", default=[500, 1000, 2000])
    parser.add_argument("--two", type=int, default=1000, help="tables for the two-process run")
    parser.add_argument("--abuse", type=int, default=500, help="tables for the abuse runs")
    parser.add_argument("--abuse-sockets", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--pace", type=float, default=1.5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.serve is not None:
        asyncio.run(serve(args.serve, args.tables, args.where))
        return 0
    rows = []
    print(f"Web table at scale: move → the other three seats' frames, {args.pace} s a move")
    print(HEADER)

    def show(run: str, row: dict[str, Any]) -> None:
        rows.append({"run": run, **row})
        print(line(run, row), flush=True)

    for size in args.sizes:
        show("one", asyncio.run(run_one(size, args.seconds, args.pace, 0)))
    good = [r["tables"] for r in rows if r["p90_ms"] <= 250 and r["refused"] == 0]
    print(f"one process: most tables with p90 ≤ 250 ms and none refused: {max(good, default=0)}")
    admin = next((os.environ[v] for v in URL_VARIABLES if os.environ.get(v)), None)
    if admin is None:
        print("two: no PostgreSQL server (run through python -m tests.postgres_cluster)")
    else:
        show("two", asyncio.run(run_two(admin, args.two, args.seconds, args.pace)))
    show("calm", asyncio.run(run_one(args.abuse, args.seconds, args.pace, 0)))
    show("abuse", asyncio.run(run_one(args.abuse, args.seconds, args.pace, args.abuse_sockets)))
    print("storm s: seconds until every dropped socket was welcomed again (how many came back)")
    if args.json:
        print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
