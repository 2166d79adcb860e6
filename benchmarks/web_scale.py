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
  never reads: the honest tables' p90 beside the same run without it (``calm``);
- ``2pages``: the calm run with every player's page open twice (the second only reads):
  twice the frames for the same moves, which parts a frame's CPU from its move's.

p50/p90/max in milliseconds, moves and refused moves, KB of server memory per socket. The
players share this process (and, here, the machine's two cores with the servers), so
their own parsing is in every latency. The servers' cost is printed apart, free of theirs:
each server process's own CPU time (user + system, every thread, from /proc), first for
a few seconds with every socket open and nobody moving (idle), then over the window of
play: what the moves added, per move applied and per frame the pages received, and what
that makes at a human's pace: the tables one core carries at a move every 1.5 s per
table, and the tables that fill one process's event loop thread. With PostgreSQL, its
server's CPU is read too when it is a local ``tests.postgres_cluster``. Frames are counted
where the pages receive them (the server keeps no count): text frames only, so the
heartbeat's pings are not counted, though their CPU is. Figures are printed, never
asserted.

    python -m tests.postgres_cluster -- python -m benchmarks.web_scale   # make bench
    python -m benchmarks.web_scale --quick   # 200 tables a run, 5 s each: about a minute
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

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

if TYPE_CHECKING:
    from bot.tables.live import Place

URL_VARIABLES = ("SAHRA_BENCH_POSTGRES_URL", "SAHRA_TEST_POSTGRES_URL")
BACKOFF = 0.5  # the page's first reconnect delay (app.js BACKOFF_MS), jittered ±25 %
HUMAN_PACE = 1.5  # seconds between two moves of one table: what "tables per core" assumes
TICKS = os.sysconf("SC_CLK_TCK")  # /proc/<pid>/stat counts CPU time in these
QUIET_SECONDS = 3.0  # the servers' CPU is read this long with nobody moving, before play


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
    web.gate.members["telegram"] = WholeGroup()
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


# ---------------------------------------------------------------- the servers' CPU


def _stat(pid: int) -> list[str]:
    """/proc/<pid>/stat from its third field on (the name before it may hold spaces)."""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def cpu_seconds(pid: int, *, reaped: bool = False, loop: bool = False) -> float:
    """CPU time of process ``pid`` so far, user and system alike: the scheduler's own count
    (schedstat, in nanoseconds: /proc/<pid>/stat's clock ticks are too coarse for a short
    run) summed over its threads, SQLite's included. A thread that ended is no longer
    counted: the servers' threads (the loop's, SQLite's, the executor's) outlive a run.
    With ``reaped``, also the children that ended (in clock ticks); with ``loop``, the
    main thread's only, the event loop's: what one process cannot spread over cores."""
    threads = [str(pid)] if loop else os.listdir(f"/proc/{pid}/task")
    total = 0
    for thread in threads:
        with contextlib.suppress(OSError):  # a thread that ended meanwhile
            total += int(Path(f"/proc/{pid}/task/{thread}/schedstat").read_text().split()[0])
    seconds = total / 1e9
    if reaped:
        fields = _stat(pid)
        seconds += (int(fields[13]) + int(fields[14])) / TICKS  # cutime, cstime
    return seconds


def postmaster(url: str) -> int | None:
    """The local PostgreSQL server of ``url``, found by the ``-c port=…`` that
    ``tests.postgres_cluster`` starts it with; None for any other server (its CPU is then
    not read: a remote one's is not ours to see)."""
    parts = urlsplit(url)
    if parts.hostname not in ("127.0.0.1", "localhost") or parts.port is None:
        return None
    wanted = f"port={parts.port}".encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue  # ended meanwhile, or not ours to read
        if argv[0].endswith(b"postgres") and wanted in argv:
            return int(entry.name)
    return None


def cluster_cpu(pid: int) -> float:
    """A PostgreSQL server's CPU so far: the postmaster's, its live processes' (backends,
    WAL writer, checkpointer...) and those that ended. A backend ending between the two
    readings here would be missed; the bots' pools keep theirs open through a run."""
    total = cpu_seconds(pid, reaped=True)
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int(_stat(int(entry.name))[1]) == pid:  # its parent
                    total += cpu_seconds(int(entry.name))
            except (OSError, IndexError, ValueError):
                continue
    return total


@dataclass(frozen=True)
class Cpu:
    """CPU seconds: the servers' processes, their event loop threads (part of the first),
    and the database server's (0 when it is not read)."""

    server: float = 0.0
    loop: float = 0.0
    database: float = 0.0

    @classmethod
    def read(cls, servers: list[Server], database: Callable[[], float] | None) -> Cpu:
        pids = [server.process.pid for server in servers]
        return cls(
            sum(cpu_seconds(pid) for pid in pids),
            sum(cpu_seconds(pid, loop=True) for pid in pids),
            database() if database is not None else 0.0,
        )

    def minus(self, other: Cpu, times: float = 1.0) -> Cpu:
        """This less ``times`` ``other``, never below nothing (idle is itself measured)."""
        return Cpu(
            max(0.0, self.server - times * other.server),
            max(0.0, self.loop - times * other.loop),
            max(0.0, self.database - times * other.database),
        )


def cpu_figures(
    tables: int, applied: int, frames: int, window: float, spent: Cpu, idle: Cpu, database: bool
) -> dict[str, Any]:
    """The servers' CPU over a window of play. ``idle``: what they spend a second with every
    socket open and nobody moving (heartbeats, timers, polling); a move's figure is what
    the moves added beyond that, over the moves applied: the rules, the commit, its frames
    to every page; a frame's is the same CPU over the frames, not a frame's cost alone.
    Tables per core: the tables whose idle share and moves, one every ``HUMAN_PACE``
    seconds each, fill one core; the same for the event loop's thread alone."""
    moved = spent.minus(idle, window)
    if not applied:
        return {"window_s": round(window, 2), "applied": 0, "frames": frames}

    def per_table(idle_second: float, per_move: float) -> int | None:
        load = idle_second / tables + per_move / HUMAN_PACE  # a core's share, one table
        return round(1 / load) if load > 0 else None

    return {
        "window_s": round(window, 2),
        "applied": applied,
        "frames": frames,
        "frames_per_move": round(frames / applied, 2),
        "idle_pct": round(100 * idle.server, 1),
        "server_cpu_pct": round(100 * spent.server / window, 1),
        "server_ms_per_move": round(1000 * moved.server / applied, 3),
        "server_us_per_frame": round(1e6 * moved.server / frames, 1) if frames else None,
        "loop_ms_per_move": round(1000 * moved.loop / applied, 3),
        "db_ms_per_move": round(1000 * moved.database / applied, 3) if database else None,
        "tables_per_core": per_table(
            idle.server + idle.database, (moved.server + moved.database) / applied
        ),
        "tables_per_loop": per_table(idle.loop, moved.loop / applied),
    }


def frame_split(calm: dict[str, Any], doubled: dict[str, Any]) -> dict[str, Any]:
    """A frame's own CPU, apart from its move's: the same tables with every player's page
    open twice send twice the frames for the same moves, so the extra CPU a move over the
    extra frames a move is what one frame costs; the rest of a move's is the move itself
    (rules, commit, timers). A difference of two runs: noisy on a busy machine."""
    if not calm["applied"] or not doubled["applied"]:  # no figures to part
        return {"frame_us": None, "move_ms_without_frames": None}
    extra = doubled["frames_per_move"] - calm["frames_per_move"]
    if extra <= 0:
        return {"frame_us": None, "move_ms_without_frames": None}
    frame_ms = (doubled["server_ms_per_move"] - calm["server_ms_per_move"]) / extra
    return {
        "frame_us": round(1000 * frame_ms, 1),
        "move_ms_without_frames": round(
            calm["server_ms_per_move"] - calm["frames_per_move"] * frame_ms, 3
        ),
    }


# ---------------------------------------------------------------- the clients


@dataclass
class Page(Seat):
    """A scripted page that keeps its session and comes back after a drop."""

    url: str = ""
    hello: dict[str, Any] | None = None
    welcomed: float = 0.0
    frames: int = 0  # text frames received: states, welcomes, answers (not pings)

    async def read(self) -> None:
        async for message in self.ws:
            self.frames += 1
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
    http: aiohttp.ClientSession, servers: list[Server], tables: list[int], copies: int = 1
) -> list[list[Page]]:
    """Four pages per table, dealt to the servers in turn (round robin); with ``copies``,
    each player has that many pages open (seats 0-3, then their second pages...)."""
    now = int(time.time())
    everyone: list[list[Page]] = []
    turn = 0
    for index, table in enumerate(tables):
        seats = []
        for seat in list(range(4)) * copies:
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


class WholeGroup:
    """The benchmark's group: everyone is in it, so the abusive client is a member watching
    (its pages reach the eight-pages limit rather than the chat's door)."""

    async def is_member(self, place: Place, user_id: str) -> bool:
        return True


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
    copies: int = 1,
    database: Callable[[], float] | None = None,
) -> dict[str, Any]:
    """``copies``: pages each player keeps open (the first plays, the others only read);
    ``database``: the database server's CPU so far, when it runs apart and can be read."""
    tables = servers[0].tables
    before = sum(resident_kb(s.process.pid) for s in servers)
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as http:
        everyone = await connect(http, servers, tables, copies)
        pages = [page for seats in everyone for page in seats]
        readers = [asyncio.create_task(page.read()) for page in pages]
        while not all(page.state for page in pages):
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.5)
        after = sum(resident_kb(s.process.pid) for s in servers)
        # Every socket open and nobody moving: what the servers spend anyway, so that a
        # move is charged only what it adds (players slowed by a busy machine move less).
        quiet = min(QUIET_SECONDS, seconds / 2)
        cpu, started = Cpu.read(servers, database), time.perf_counter()
        await asyncio.sleep(quiet)
        idle_cpu = Cpu.read(servers, database).minus(cpu)
        quiet = time.perf_counter() - started
        idle = Cpu(idle_cpu.server / quiet, idle_cpu.loop / quiet, idle_cpu.database / quiet)
        abuser = (
            asyncio.create_task(abuse(http, servers[0], tables[0], abusive)) if abusive else None
        )
        figures = Figures()
        # The window of play: the servers' CPU and the frames the pages got, read around it.
        frames = sum(page.frames for page in pages)
        cpu = Cpu.read(servers, database)
        started = time.perf_counter()
        until = started + seconds
        await asyncio.gather(
            *(table_player(seats[:4], pace, until, figures) for seats in everyone)
        )
        window = time.perf_counter() - started
        spent = Cpu.read(servers, database).minus(cpu)
        frames = sum(page.frames for page in pages) - frames
        if abuser is not None:
            abuser.cancel()
        row: dict[str, Any] = {
            "tables": len(tables),
            "sockets": len(pages),
            "moves": figures.moves,
            "refused": figures.refused,
            **percentiles(figures),
            "kb_per_socket": round((after - before) / len(pages), 1),
            **cpu_figures(
                len(tables),
                figures.moves - figures.refused,
                frames,
                window,
                spent,
                idle,
                database is not None,
            ),
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


async def run_one(
    size: int, seconds: float, pace: float, abusive: int = 0, copies: int = 1
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        server = await spawn("alone", size, str(Path(folder) / "bench.sqlite"))
        try:
            return await measure([server], seconds, pace, abusive=abusive, copies=copies)
        finally:
            await server.stop()


async def run_two(admin: str, size: int, seconds: float, pace: float) -> dict[str, Any]:
    from storage.pg_admin import create_database, drop_database

    url = await create_database(admin, prefix="sahra_web_scale")
    try:
        owner = await spawn("owner", size, url)
        follower = await spawn("follower", 0, url)
        follower.tables = owner.tables
        cluster = postmaster(admin)
        database = (lambda: cluster_cpu(cluster)) if cluster is not None else None
        try:
            return await measure([owner, follower], seconds, pace, storm=True, database=database)
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


CPU_HEADER = (
    f"{'run':<7} {'moves':>6} {'frames':>7} {'fr/move':>7} {'idle %':>6} {'CPU %':>6}"
    f" {'ms/move':>7} {'µs/frame':>8} {'loop ms':>7} {'db ms':>6} {'tables/core':>11}"
)


def cpu_line(run: str, row: dict[str, Any]) -> str:
    def shown(key: str) -> str:
        return "-" if row.get(key) is None else str(row[key])

    return (
        f"{run:<7} {row['applied']:>6} {row['frames']:>7} {shown('frames_per_move'):>7}"
        f" {shown('idle_pct'):>6} {shown('server_cpu_pct'):>6}"
        f" {shown('server_ms_per_move'):>7} {shown('server_us_per_frame'):>8}"
        f" {shown('loop_ms_per_move'):>7} {shown('db_ms_per_move'):>6}"
        f" {shown('tables_per_core'):>11}"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--serve", choices=["alone", "owner", "follower"], help=argparse.SUPPRESS)
    parser.add_argument("--tables", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--where", help=argparse.SUPPRESS)
    parser.add_argument("--sizes", type=int, nargs="*", default=[500, 1000, 2000])
    parser.add_argument("--two", type=int, default=1000, help="tables for the two-process run")
    parser.add_argument(
        "--abuse", type=int, default=500, help="tables for the calm, 2pages and abuse runs"
    )
    parser.add_argument("--abuse-sockets", type=int, default=300)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--pace", type=float, default=1.5)
    parser.add_argument("--quick", action="store_true", help="200 tables a run, 5 s each")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.serve is not None:
        asyncio.run(serve(args.serve, args.tables, args.where))
        return 0
    if args.quick:
        args.sizes, args.two, args.abuse, args.abuse_sockets = [200], 200, 200, 50
        args.seconds = 5.0
    rows = []
    print(f"Web table at scale: move → the other three seats' frames, {args.pace} s a move")
    print("End to end (players on the same cores as the servers: their parsing is in it)")
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
    show("calm", asyncio.run(run_one(args.abuse, args.seconds, args.pace)))
    show("2pages", asyncio.run(run_one(args.abuse, args.seconds, args.pace, copies=2)))
    rows[-1].update(frame_split(rows[-2], rows[-1]))
    show("abuse", asyncio.run(run_one(args.abuse, args.seconds, args.pace, args.abuse_sockets)))
    print("storm s: seconds until every dropped socket was welcomed again (how many came back)")
    print()
    print(
        "Server CPU (the server processes' own user + system time, from /proc), over the"
        f" window of\nplay; tables/core at a move every {HUMAN_PACE} s per table"
    )
    print(CPU_HEADER)
    for row in rows:
        print(cpu_line(row["run"], row))
    print(
        "moves: applied. frames: text frames the pages received. idle %: the servers' CPU\n"
        "with every socket open and nobody moving, CPU %: while playing (of one core, two\n"
        "processes summed). ms/move: what the moves added to idle, per move applied: rules,\n"
        "commit, its frames. µs/frame: the same per frame (the move's own work in it). loop\n"
        "ms: the part of ms/move on the event loop's thread. db ms: PostgreSQL's per move\n"
        "(SQLite's is in the server's). tables/core: the tables whose idle share and moves,\n"
        f"one every {HUMAN_PACE} s each, fill one core (server + database). abuse: the abusive"
        " client's cost\nis in its row (its frames are not counted)."
    )
    split = next(row for row in rows if row["run"] == "2pages")
    print(
        f"2pages against calm (every player's page open twice, {args.abuse} tables): a frame's"
        f" own CPU {split['frame_us']} µs,\na move without its frames"
        f" {split['move_ms_without_frames']} ms (a difference of two runs: noisy)"
    )
    alone = [r for r in rows if r["run"] == "one" and r.get("tables_per_core")]
    if alone:
        cores = sorted(r["tables_per_core"] for r in alone)
        moves = sorted(r["server_ms_per_move"] for r in alone)
        print(
            f"one process on SQLite: {moves[0]}–{moves[-1]} ms of server CPU a move: "
            f"{cores[0]}–{cores[-1]} tables per core at a move every {HUMAN_PACE} s"
        )
        # One process runs its event loop on one thread: that thread, not the cores,
        # bounds the tables one process carries.
        loops = sorted(r["tables_per_loop"] for r in alone if r.get("tables_per_loop"))
        if loops:
            print(f"one process saturates its event loop's thread at {loops[0]}–{loops[-1]}")
    if args.json:
        print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
