"""Move → every other seat's frame on the web table, and memory per connected socket.

A server process (this module with ``--serve``) runs the real web table: a real
``TableManager`` on a SQLite file with its production settings, the hub, the gate and the
aiohttp server, with ``--tables`` running Syrian 41 tables of four humans. This process
(the players) opens four sockets per table with launch data signed as Telegram signs it,
reads the server's resident memory before and after, and then every table plays at human
pace: the seat to act sends a legal move (the first legal card, a bid of 3, pass when no
3) about every ``--pace`` seconds (1.5), and the time until each of the three other
sockets holds a state of the new version is recorded. Printed for 1, 100 and 500 tables
(``--sizes``): p50, p90 and max in milliseconds, moves made and refused, and KB of server
memory per socket. The players share one process, so their own parsing is part of every
figure (a pessimistic bound on what a real browser would see on this machine).

With ``--analyses`` each size is measured twice: as above, and with the deals' double-
dummy analyses running (issue 35, item 6) as they would at that many tables: the server
analyses a finished deal (the engine's review, through the web table's own reviews
service: a worker thread, one at a time) every ``DEAL_SECONDS / tables`` seconds, a deal
lasting about ``DEAL_SECONDS`` at this pace. The deals are real ones played beforehand by
the heuristic players; the analyses are stored as the service stores them.

Run ``python -m benchmarks.web_latency`` from the repository root (``make bench`` does);
``--json`` ends with one JSON line. Figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import random
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp

TOKEN = "123456:benchmark-token-of-the-web-table"
FIRST_USER = 10_000
# A Syrian 41 deal at a move every 1.5 s: four bids and 52 cards, about 85 s.
DEAL_SECONDS = 85.0


def user_of(table_index: int, seat: int) -> int:
    return FIRST_USER + 4 * table_index + seat


# ---------------------------------------------------------------- the server process


async def open_tables(manager: Any, count: int) -> list[int]:
    """``count`` running Syrian 41 tables of four humans (``user_of`` their ids)."""
    from bot.tables import PlayerRef
    from bot.tables.live import Place

    ids = []
    for index in range(count):
        place = Place("telegram", str(-1_000_000 - index), "")
        players = [
            PlayerRef(user_id=str(user_of(index, seat)), name=f"P{seat}", language="en")
            for seat in range(4)
        ]
        table = await manager.create(place, players[0], {"variant": "syrian41"})
        for player in players[1:]:
            await manager.join(table.id, player, None)
        await manager.begin(table.id, players[0].user_id)
        ids.append(table.id)
    return ids


def finished_deals(count: int) -> list[Any]:
    """``count`` scored Syrian 41 deals, played by the heuristic players."""
    import engine
    from engine.players.heuristic import HeuristicPlayer
    from engine.records import replay

    deals: list[Any] = []
    seed = 0
    while len(deals) < count:
        seed += 1
        match = engine.new_match("syrian41", seed=seed)
        player = HeuristicPlayer()
        moves = []
        while match.result is None and match.deal_number <= 3:
            for seat in list(match.to_act):
                action = player.decide(match.view(seat))
                moves.append((seat, action))
                match.apply(seat, action)
        record = replay("syrian41", {}, seed, None, moves)
        deals += [deal for deal in record.deals if deal.scored]
    return deals[:count]


async def analyses(web: Any, tables: list[int], every: float) -> None:
    """A finished deal analysed every ``every`` seconds, through the service the web
    table uses after each deal (its worker thread, its one-at-a-time limit, its store)."""
    deals = finished_deals(20)
    for number in itertools.count(1000):
        deal = deals[number % len(deals)]
        table = tables[number % len(tables)]
        await web.replays.reviews.analysis(table, "syrian41", deal, wait=0)
        await asyncio.sleep(every)


async def serve(tables: int, database: Path, with_analyses: bool) -> None:
    from bot.delivery.router import PlatformRouter
    from bot.tables import TableManager
    from bot.tables.reviews import deal_analysis
    from bot.web.app import web_table
    from storage.database import Database

    async with Database.open(database) as db:
        router = PlatformRouter()
        manager = TableManager(db, router)
        await manager.start()
        web = await web_table(
            manager,
            router,
            public_url="http://127.0.0.1:9",
            telegram_token=TOKEN,
            analyse=deal_analysis,
        )
        ids = await open_tables(manager, tables)
        port = await web.start("127.0.0.1", 0)
        load = None
        if with_analyses:
            load = asyncio.create_task(analyses(web, ids, DEAL_SECONDS / tables))
        print(json.dumps({"port": port, "tables": ids}), flush=True)
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, sys.stdin.read)  # until the players are done
        if load is not None:
            load.cancel()
        await web.stop()
        await manager.close()


# ---------------------------------------------------------------- the players


@dataclass
class Seat:
    ws: aiohttp.ClientWebSocketResponse
    state: dict[str, Any] = field(default_factory=dict)
    arrived: dict[int, float] = field(default_factory=dict)  # version → first seen
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    async def read(self) -> None:
        async for message in self.ws:
            frame = json.loads(message.data)
            if frame["type"] == "state":
                self.state = frame["state"]
                self.arrived.setdefault(self.state["version"], time.perf_counter())
                self.changed.set()


@dataclass
class Figures:
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    refused: int = 0


def forge(user: int, table: int, now: int) -> str:
    from tests.bot.web.support import forge_init_data

    who = {"id": user, "first_name": f"P{user}", "language_code": "en"}
    return forge_init_data(who, TOKEN, f"t{table}", now)


def choice(state: dict[str, Any]) -> dict[str, Any] | None:
    decisions = state.get("decisions") or []
    for decision in decisions:
        if decision["action"] == {"type": "bid", "value": 3}:
            return dict(decision["action"])
    if decisions:
        return dict(decisions[0]["action"])
    legal = [card for card in state.get("hand") or [] if card["legal"]]
    return dict(legal[0]["action"]) if legal else None


async def table_player(seats: Sequence[Seat], pace: float, until: float, figures: Figures) -> None:
    await asyncio.sleep(random.uniform(0, pace))
    while time.perf_counter() < until:
        acting = next((s for s in seats if s.state and choice(s.state)), None)
        if acting is None:
            for seat in seats:
                seat.changed.clear()
            await asyncio.wait(
                [asyncio.ensure_future(s.changed.wait()) for s in seats],
                timeout=pace,
                return_when=asyncio.FIRST_COMPLETED,
            )
            continue
        version = acting.state["version"]
        action = choice(acting.state)
        sent = time.perf_counter()
        await acting.ws.send_json({"type": "move", "version": version, "action": action})
        figures.moves += 1
        others = [s for s in seats if s is not acting]
        deadline = sent + 10
        while time.perf_counter() < deadline and not all(
            any(v > version for v in s.arrived) for s in seats
        ):
            await asyncio.sleep(0.002)
        for seat in others:
            seen = [at for v, at in seat.arrived.items() if v > version]
            if seen:
                figures.latencies.append(min(seen) - sent)
        if not any(v > version for v in acting.arrived):
            figures.refused += 1
        await asyncio.sleep(pace * random.uniform(0.8, 1.2))


def resident_kb(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def measure(
    tables: int, seconds: float, pace: float, with_analyses: bool = False
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        server = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "benchmarks.web_latency",
            "--serve",
            str(tables),
            "--db",
            str(Path(folder) / "bench.sqlite"),
            *(["--serve-analyses"] if with_analyses else []),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])},
        )
        assert server.stdout is not None and server.stdin is not None
        ready = json.loads(await server.stdout.readline())
        url = f"http://127.0.0.1:{ready['port']}/ws"
        before = resident_kb(server.pid)
        connector = aiohttp.TCPConnector(limit=0)
        async with aiohttp.ClientSession(connector=connector) as http:
            now = int(time.time())
            tables_seats: list[list[Seat]] = []
            readers = []
            for index, table in enumerate(ready["tables"]):
                seats = []
                for seat in range(4):
                    ws = await http.ws_connect(url)
                    hello = {"type": "hello", "init_data": forge(user_of(index, seat), table, now)}
                    await ws.send_json(hello)
                    seats.append(Seat(ws))
                tables_seats.append(seats)
                readers += [asyncio.create_task(s.read()) for s in seats]
            while not all(s.state for seats in tables_seats for s in seats):
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.5)
            after = resident_kb(server.pid)
            figures = Figures()
            until = time.perf_counter() + seconds
            await asyncio.gather(
                *(table_player(seats, pace, until, figures) for seats in tables_seats)
            )
            for seats in tables_seats:
                for player in seats:
                    await player.ws.close()
            for reader in readers:
                reader.cancel()
        server.stdin.close()
        await server.wait()
    ordered = sorted(figures.latencies) or [0.0]

    def at(fraction: float) -> float:
        return round(1000 * ordered[min(len(ordered) - 1, int(fraction * len(ordered)))], 1)

    sockets = 4 * tables
    return {
        "tables": tables,
        "analyses_per_s": round(tables / DEAL_SECONDS, 2) if with_analyses else 0.0,
        "sockets": sockets,
        "moves": figures.moves,
        "refused": figures.refused,
        "p50_ms": at(0.5),
        "p90_ms": at(0.9),
        "max_ms": at(1.0),
        "kb_per_socket": round((after - before) / sockets, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--db", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--serve-analyses", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument(
        "--analyses",
        action="store_true",
        help="each size again with its deals' double-dummy analyses running",
    )
    parser.add_argument("--sizes", type=int, nargs="*", default=[1, 100, 500])
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--pace", type=float, default=1.5)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.serve is not None:
        asyncio.run(serve(args.serve, args.db, args.serve_analyses))
        return 0
    rows = []
    print("Web table: move → the other three seats' state frames (one server process)")
    print(
        f"{'tables':>6} {'sockets':>7} {'analyses/s':>10} {'moves':>6} {'refused':>7}"
        f" {'p50 ms':>7} {'p90 ms':>7} {'max ms':>7} {'KB/socket':>9}"
    )
    for size in args.sizes:
        for with_analyses in (False, True) if args.analyses else (False,):
            row = asyncio.run(measure(size, args.seconds, args.pace, with_analyses))
            rows.append(row)
            print(
                f"{row['tables']:>6} {row['sockets']:>7} {row['analyses_per_s']:>10}"
                f" {row['moves']:>6} {row['refused']:>7} {row['p50_ms']:>7} {row['p90_ms']:>7}"
                f" {row['max_ms']:>7} {row['kb_per_socket']:>9}"
            )
    if args.json:
        print(json.dumps(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
