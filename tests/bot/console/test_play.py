"""The console table end to end: moves read as numbers from stdin, the match saved after
every move, resumed by the next run, and garbage answered politely without a change."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main
from bot.console.play import BUSY, DATABASE_VARIABLE, DEFAULT_DATABASE, play
from bot.tables import InMemoryNotifier, Place, PlayerRef, TableManager
from storage.database import Database
from storage.lease import FileLease
from storage.store import Store
from tests.bot.tables.conftest import FakeClock

ROOT = Path(__file__).resolve().parents[3]


def run_cli(args: list[str], stdin: str, database: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", "play", "--db", str(database), *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=120,
        check=False,
    )


def test_a_whole_syrian41_match_is_played_through_stdin_and_stdout(tmp_path: Path) -> None:
    done = run_cli(
        ["--variant", "syrian41", "--lang", "en", "--name", "Ali"],
        "1\n" * 3000,
        tmp_path / "c.sqlite",
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "A new match: you sit in seat 1 with three computer players." in out
    assert "Your move (number):" in out and "Score sheet" not in out
    assert "score sheet" in out  # one per deal
    assert "🏁 Match over — Syrian Tarneeb 41" in out
    assert "Winners:" in out and "Final scores:" in out
    assert "\u2068" not in out and "\u200e" not in out  # no bidi controls in a terminal


@pytest.mark.parametrize("variant", ["tarneeb41_double", "tarneeb_solo", "trix_complex"])
async def test_every_variant_plays_to_its_end_in_the_console(tmp_path: Path, variant: str) -> None:
    out = io.StringIO()
    code = await play(
        variant, "ar", 2, tmp_path / "c.sqlite", io.StringIO("1\n" * 5000), out, name="علي"
    )
    text = out.getvalue()
    assert code == 0
    assert "🏁 انتهت المباراة" in text
    assert "مقعدك 3" in text  # --seat 2, shown 1-based


def last_hand(out: str) -> str:
    block = out.rsplit("Your hand — ", 1)[1]
    return block.split("Your moves:", 1)[0]


def first_hand(out: str) -> str:
    block = out.split("Your hand — ", 1)[1]
    return block.split("Your moves:", 1)[0]


def test_closing_stdin_saves_the_match_and_the_next_run_resumes_it(tmp_path: Path) -> None:
    database = tmp_path / "c.sqlite"
    args = ["--variant", "trix_complex", "--lang", "en"]
    first = run_cli(args, "1\n" * 25, database)
    assert first.returncode == 0, first.stderr
    assert "Input closed: the match is saved." in first.stdout
    assert "🏁" not in first.stdout
    second = run_cli(args, "", database)  # resume, look, and close again at once
    assert second.returncode == 0, second.stderr
    assert "Resuming your saved match (table #1)." in second.stdout
    # The same deal, the same hand, the same position: nothing was redealt or lost.
    assert first_hand(second.stdout) == last_hand(first.stdout)
    third = run_cli(args, "1\n" * 3000, database)
    assert third.returncode == 0 and "🏁 Match over" in third.stdout


async def test_garbage_input_gets_a_polite_answer_and_changes_nothing(tmp_path: Path) -> None:
    out = io.StringIO()
    stdin = io.StringIO("hello\n0\n99\n-1\n\n")
    code = await play("syrian41", "en", 0, tmp_path / "c.sqlite", stdin, out, name="Ali")
    text = out.getvalue()
    assert code == 0
    assert text.count("Please type the number of one of the moves listed (1–12).") == 5
    # Each refusal re-shows the same bidding screen: no bid was made.
    assert text.count("▶ Your turn: bid.") == 6
    assert "Ali bids" not in text


async def test_a_different_variant_keeps_its_own_saved_match(tmp_path: Path) -> None:
    database = tmp_path / "c.sqlite"
    out = io.StringIO()
    await play("syrian41", "en", 0, database, io.StringIO("1\n" * 3), out, name="Ali")
    out = io.StringIO()
    await play("tarneeb_solo", "en", 0, database, io.StringIO(""), out, name="Ali")
    assert "A new match" in out.getvalue()
    out = io.StringIO()
    await play("syrian41", "en", 0, database, io.StringIO(""), out, name="Ali")
    assert "Resuming your saved match (table #1)." in out.getvalue()


async def test_the_console_refuses_a_file_another_sahra_holds(tmp_path: Path) -> None:
    """A running ``sahra run`` holds its SQLite file's lease: the console says so and
    leaves the file alone (it would hand out the bot's table ids, and the bot would never
    know its moves); once the holder is gone, the same command plays."""
    database = tmp_path / "bot.sqlite"
    holder = FileLease(database)  # what ``sahra run`` takes before opening the file
    assert holder.attempt()
    try:
        out = io.StringIO()
        code = await play("syrian41", "en", 0, database, io.StringIO("1\n" * 5), out)
        assert code == BUSY != 0
        assert "another Sahra is using" in out.getvalue() and str(database) in out.getvalue()
        assert "A new match" not in out.getvalue()
        assert not database.exists()  # never opened, not even created
    finally:
        await holder.release()
    out = io.StringIO()
    assert await play("syrian41", "en", 0, database, io.StringIO(""), out) == 0
    assert "A new match" in out.getvalue()


def test_play_keeps_its_match_in_a_file_of_its_own_not_the_bots(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("SAHRA_DATABASE", "bot.sqlite")  # the bots' file, from their .env
    monkeypatch.delenv(DATABASE_VARIABLE, raising=False)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "--lang", "en"]) == 0
    assert "A new match" in capsys.readouterr().out
    assert (tmp_path / DEFAULT_DATABASE).exists() and not (tmp_path / "bot.sqlite").exists()
    monkeypatch.setenv(DATABASE_VARIABLE, "mine.sqlite")
    assert main(["play", "--lang", "en"]) == 0
    assert (tmp_path / "mine.sqlite").exists() and not (tmp_path / "bot.sqlite").exists()


async def test_the_console_leaves_the_bots_tables_in_its_file_alone(tmp_path: Path) -> None:
    """Pointed at a bot's file while the bot is stopped, the console plays its own table
    only: a Telegram lobby whose timer is long due is neither expired nor printed."""
    database = tmp_path / "bot.sqlite"
    async with Database.open(database) as db:
        manager = TableManager(db, InMemoryNotifier(), clock=FakeClock())  # long ago
        await manager.start()
        lobby = await manager.create(
            Place("telegram", "-100777"),
            PlayerRef(user_id="7", name="Zaid", language="en"),
            {"variant": "syrian41"},
        )
        await manager.close()
    out = io.StringIO()
    assert await play("syrian41", "en", 0, database, io.StringIO("1\n" * 3), out) == 0
    assert "Zaid" not in out.getvalue()
    async with Database.open(database) as db:
        stored = await Store(db).load_table(lobby.id)
    assert stored is not None and stored.table.status == "lobby"
