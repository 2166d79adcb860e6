"""Operator commands (doctor, tables, export, ratings, backup), SIGTERM, and the log scan."""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

import engine
from bot.cli import main
from bot.league.service import counting
from bot.logs import JsonFormatter
from bot.tables import InMemoryNotifier, Place, PlayerRef, Press, TableManager
from storage.database import Database
from storage.league import LeagueStore
from tests.backends import BackendFactory
from tests.bot.support import eventually
from tests.bot.telegram.fake_api import FakeBotAPI
from tests.bot.web.support import site

ROOT = Path(__file__).resolve().parents[2]
ALI = PlayerRef(user_id="u1", name="Ali", language="en")
CARD_CODE = re.compile(r"\b(?:10|[2-9TJQKA])[CDHS]\b|(?:10|[2-9JQKA])[♣♦♥♠]")


async def computer_match(path: Path, variant: str, place: str) -> int:
    """A whole match of four computers through the manager; returns the table id."""
    async with Database.open(path, synchronous="NORMAL") as db:
        manager = TableManager(db, InMemoryNotifier())
        await manager.start()
        table = await manager.create(Place("test", place), ALI, {"variant": variant}, join=False)
        for _ in range(4):
            await manager.add_computer(table.id, ALI.user_id)
        await manager.begin(table.id, ALI.user_id)
        await manager.settle()
        await manager.close()
        return table.id


@pytest.mark.parametrize("variant", ["syrian41", "tarneeb_solo", "trix_complex"])
async def test_an_export_replays_to_the_same_result(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    variant: str,
) -> None:
    path = tmp_path / "sahra.sqlite"
    table_id = await computer_match(path, variant, "x")
    monkeypatch.setenv("SAHRA_DATABASE", str(path))
    assert await asyncio.to_thread(main, ["export", str(table_id)]) == 0
    exported = json.loads(capsys.readouterr().out)
    match = engine.new_match(
        exported["variant"],
        seed=exported["seed"],
        options=exported["options"],
        decks=exported["decks"],
    )
    for entry in exported["actions"]:
        match.apply(entry["seat"], entry["action"])
    assert match.result is not None
    assert match.result["winners"] == exported["result"]["winners"]
    assert match.scores == exported["result"]["scores"]
    assert await asyncio.to_thread(main, ["export", "999"]) == 1


async def test_ratings_rebuild_counts_every_finished_match_again_to_the_same_numbers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "sahra.sqlite"
    async with Database.open(path, synchronous="NORMAL") as db:
        manager = TableManager(db, InMemoryNotifier())
        league = counting(manager)
        await manager.start()
        for place in ("one", "two"):
            table = await manager.create(Place("test", place), ALI, {"variant": "tarneeb_solo"})
            for _ in range(3):
                await manager.add_computer(table.id, ALI.user_id)
            await manager.begin(table.id, ALI.user_id)
            while table.status == "running":  # Ali plays the rules' timeout moves
                await manager.settle()
                match = table.match
                if table.status == "running" and match is not None and 0 in match.to_act:
                    await manager.press(
                        Press(
                            table_id=table.id,
                            version=table.seq,
                            action=match.auto_action(0),
                            player=ALI,
                        )
                    )
        await league.settle()
        before = await league.games.all_ratings()
        await manager.close()
    assert [(family, r.user_id, r.matches) for _, family, r in before] == [("solo", "u1", 2)]
    monkeypatch.setenv("SAHRA_DATABASE", str(path))
    assert await asyncio.to_thread(main, ["ratings"]) == 0
    assert capsys.readouterr().out.strip() == "counted 0 matches; 1 ratings"
    assert await asyncio.to_thread(main, ["ratings", "--rebuild"]) == 0
    assert capsys.readouterr().out.strip() == "counted 2 matches; 1 ratings"
    async with Database.open(path) as db:
        assert await LeagueStore(db).all_ratings() == before


async def test_tables_lists_the_live_tables_and_backup_copies_online(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "sahra.sqlite"
    await computer_match(path, "syrian41", "done")
    async with Database.open(path) as db:
        manager = TableManager(db, InMemoryNotifier())
        await manager.start()
        lobby = await manager.create(Place("test", "open"), ALI, {"variant": "trix_complex"})
        monkeypatch.setenv("SAHRA_DATABASE", str(path))
        assert await asyncio.to_thread(main, ["tables"]) == 0
        rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        assert [(row["id"], row["status"]) for row in rows] == [(lobby.id, "lobby")]
        # An online backup while the bot's database is open and writing.
        target = tmp_path / "backups" / "copy.sqlite"
        assert await asyncio.to_thread(main, ["backup", str(target)]) == 0
        await manager.close()
    with sqlite3.connect(target) as copy:
        assert copy.execute("SELECT count(*) FROM tables").fetchone()[0] == 2
        assert copy.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


async def test_doctor_checks_the_database_and_each_token(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    fake = FakeBotAPI()
    await fake.start()
    try:
        monkeypatch.setenv("SAHRA_DATABASE", str(tmp_path / "sahra.sqlite"))
        monkeypatch.setenv("SAHRA_TELEGRAM_TOKEN", "123:TEST")
        monkeypatch.setenv("SAHRA_TELEGRAM_API_URL", fake.url)
        monkeypatch.setenv("SAHRA_DISCORD_TOKEN", "nope")
        monkeypatch.setenv("SAHRA_DISCORD_API_URL", "http://127.0.0.1:9/api/v10")  # closed
        code = await asyncio.to_thread(main, ["doctor"])
        out = capsys.readouterr().out
        assert code == 1  # Discord is unreachable
        assert re.search(r"^ok\s+database", out, re.M)
        assert re.search(r"^ok\s+telegram\s+reachable as sahra_test_bot", out, re.M)
        assert re.search(r"^FAIL\s+discord\s+unreachable", out, re.M)
    finally:
        await fake.close()


async def test_doctor_checks_that_the_web_table_can_be_served(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Free port: will be served; a running Sahra's page: served; another program: FAIL."""
    monkeypatch.setenv("SAHRA_DATABASE", str(tmp_path / "sahra.sqlite"))
    monkeypatch.delenv("SAHRA_TELEGRAM_TOKEN", raising=False)
    monkeypatch.delenv("SAHRA_DISCORD_TOKEN", raising=False)
    monkeypatch.setenv("SAHRA_WEB_URL", "https://table.example.org")
    with socket.create_server(("127.0.0.1", 0)) as probe:
        free = probe.getsockname()[1]
    monkeypatch.setenv("SAHRA_WEB_PORT", str(free))
    assert await asyncio.to_thread(main, ["doctor"]) == 0
    assert re.search(
        rf"^ok\s+web\s+https://table.example.org will be served on 127.0.0.1:{free}$",
        capsys.readouterr().out,
        re.M,
    )
    async with site(tmp_path / "web") as running:
        monkeypatch.setenv("SAHRA_WEB_PORT", str(running.web.port))
        assert await asyncio.to_thread(main, ["doctor"]) == 0
        assert re.search(r"^ok\s+web\s+.*\(running\)$", capsys.readouterr().out, re.M)

    async def ssh(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        writer.write(b"SSH-2.0-OpenSSH_9.2\r\n")
        await writer.drain()
        writer.close()

    other = await asyncio.start_server(ssh, "127.0.0.1", 0)
    async with other:
        monkeypatch.setenv("SAHRA_WEB_PORT", str(other.sockets[0].getsockname()[1]))
        assert await asyncio.to_thread(main, ["doctor"]) == 1
    assert re.search(
        r"^FAIL\s+web\s+127.0.0.1:\d+ is taken by another program$",
        capsys.readouterr().out,
        re.M,
    )


async def test_doctor_checks_postgresql_its_schema_and_hides_the_password(
    backend: BackendFactory, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    if backend.url is None:
        pytest.skip("the PostgreSQL check (SQLite's is above)")
    parts = urlsplit(backend.url)
    secret = parts._replace(netloc=f"{parts.username}:s3cret@{parts.netloc.split('@')[-1]}")
    monkeypatch.setenv("SAHRA_DATABASE_URL", urlunsplit(secret))  # trust auth ignores it
    monkeypatch.delenv("SAHRA_TELEGRAM_TOKEN", raising=False)
    monkeypatch.delenv("SAHRA_DISCORD_TOKEN", raising=False)
    assert await asyncio.to_thread(main, ["doctor"]) == 0
    out = capsys.readouterr().out
    assert re.search(
        r"^ok\s+database\s+postgresql://\w+:\*\*\*@.*: schema \d+, ok, 0 live", out, re.M
    )
    assert "s3cret" not in out
    monkeypatch.setenv("SAHRA_DATABASE_URL", "postgresql://nobody@127.0.0.1:1/none")
    assert await asyncio.to_thread(main, ["doctor"]) == 1
    assert re.search(
        r"^FAIL\s+database\s+postgresql://nobody@127.0.0.1:1/none", capsys.readouterr().out, re.M
    )


async def test_sigterm_stops_the_bots_gracefully(tmp_path: Path) -> None:
    fake = FakeBotAPI()
    await fake.start()
    env = {
        **os.environ,
        "SAHRA_TELEGRAM_TOKEN": "123:TEST",
        "SAHRA_TELEGRAM_API_URL": fake.url,
        "SAHRA_DATABASE": str(tmp_path / "sahra.sqlite"),
        "SAHRA_LOG_FORMAT": "json",
        "PTB_TIMEDELTA": "true",
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot.cli",
        "run",
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        await eventually(lambda: any(c.method == "getUpdates" for c in fake.calls), timeout=30)
        process.send_signal(signal.SIGTERM)
        _, stderr = await asyncio.wait_for(process.communicate(), timeout=30)
    finally:
        if process.returncode is None:
            process.kill()
        await fake.close()
    assert process.returncode == 0
    events = [
        json.loads(line)["event"]
        for line in stderr.decode().splitlines()
        if line.startswith("{") and '"event"' in line
    ]
    assert events[-2:] == ["shutdown_requested", "bots_stopped"]
    with sqlite3.connect(tmp_path / "sahra.sqlite") as db:  # closed cleanly, readable
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"


async def test_logs_of_whole_matches_never_name_a_card(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    for index, variant in enumerate(
        ("syrian41", "tarneeb41_double", "tarneeb_solo", "trix_complex")
    ):
        await computer_match(tmp_path / "logs.sqlite", variant, f"p{index}")
    lines = [record.getMessage() for record in caplog.records]
    actions = [line for line in lines if line.startswith("event=action ")]
    assert len(actions) > 500 and any("type=double" in line for line in actions)
    assert any(line.startswith("event=match_over") for line in lines)
    leaks = [line for line in lines if CARD_CODE.search(line)]
    assert not leaks, leaks[:3]
    # The JSON format carries the same fields, one object per line.
    record = next(r for r in caplog.records if r.getMessage().startswith("event=action"))
    data = json.loads(JsonFormatter().format(record))
    assert {"event", "table", "variant", "seat", "type", "source"} <= set(data)
