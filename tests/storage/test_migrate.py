"""``sahra migrate-db``: a SQLite installation built by the real manager (finished and
counted matches, a stopped table, a lobby, a table mid-deal, a chat's language, a player,
a remembered message, the webhook's secret) copied into a fresh PostgreSQL database:
every row, every live table replaying to the same state, the league answering the same,
the running table continued there; a target with any row refused; the command end to
end."""

from __future__ import annotations

import asyncio
import itertools
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import asyncpg
import pytest

from bot.cli import main
from bot.delivery.memory import StoredMessages
from bot.league.service import counting
from bot.migration import BadMigration, migrate, verify_copy
from bot.tables import InMemoryNotifier, Place, TableManager
from bot.tables.recovery import live_table
from storage.backup import backup
from storage.database import Database
from storage.league import LeagueStore
from storage.lease import FileLease
from storage.migrate import TABLES, TargetNotEmpty, copy_database, row_counts
from storage.postgres import PostgresDatabase
from storage.records import ChatLanguageSet, DmReachability, PlayerSeen, StoredReview
from storage.store import Store
from tests.backends import ADMIN_URL, BackendFactory
from tests.bot.league.support import ALI, BADR, scripted_match, with_computers
from tests.bot.tables.conftest import FakeClock
from tests.bot.tables.test_manager import full_table, press

# Every test here but the bad-input one needs PostgreSQL: only the fixture's
# postgresql param (a fresh database; skipped without SAHRA_TEST_POSTGRES_URL).
ON_POSTGRESQL = pytest.mark.parametrize("backend", ["postgresql"], indirect=True)


@dataclass(frozen=True)
class Source:
    path: Path
    now: float  # the fake clock at the end: the running table's timer is not due yet
    scripted: int  # a counted Tarneeb 41 doubled match in chat "c"
    stopped: int
    lobby: int
    running: int  # Syrian 41, four humans, mid-deal


async def build(path: Path) -> Source:
    clock = FakeClock()
    async with Database.open(path, synchronous="NORMAL") as db:
        manager = TableManager(
            db, InMemoryNotifier(), clock=clock, seed_source=itertools.count(1).__next__
        )
        league = counting(manager)
        await manager.start()
        scripted = await scripted_match(manager, chat="c")
        await with_computers(manager, "tarneeb_solo", humans=2, chat="solo")
        stopped = await full_table(manager, "syrian41", humans=2, place="stopped")
        await manager.stop(stopped.id, ALI.user_id)
        lobby = await manager.create(Place("test", "lobby"), ALI, {"variant": "trix_complex"})
        await manager.join(lobby.id, BADR)
        await manager.add_computer(lobby.id, ALI.user_id)
        running = await full_table(manager, "syrian41", humans=4, place="running")
        match = running.match
        assert match is not None
        while match.phase != "playing" or running.seq < 10:  # the bids and a few cards
            seat = match.to_act[0]
            await press(manager, running, seat, match.auto_action(seat))
        store = manager.store
        await store.commit(
            [
                ChatLanguageSet("test", "c", "en", clock()),
                PlayerSeen("test", "u9", "Zaid", None, clock()),  # a NULL language
                DmReachability("test", "u9", "Zaid", "ar", True, clock()),
            ]
        )
        await StoredMessages(store, "test", clock=clock).remember(
            "c", ("table", running.id), "m-17", True
        )
        await store.shared_secret("telegram_webhook", "kept-across-the-move")
        await store.spend_link("exchanged-before-the-move", clock() + 600, now=clock())
        await store.save_review(StoredReview(scripted.id, 1, 1, {"status": "done"}, clock()))
        await manager.settle()
        await league.settle()
        await manager.close()
        assert running.status == "running" and lobby.status == "lobby"
        return Source(path, clock.now, scripted.id, stopped.id, lobby.id, running.id)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Source:
    """One installation for the whole module (a second of play); tests copy it."""
    if not os.environ.get(ADMIN_URL):  # module fixtures come first: skip before playing
        pytest.skip(f"{ADMIN_URL} is not set")
    return asyncio.run(build(tmp_path_factory.mktemp("source") / "sahra.sqlite"))


@pytest.fixture
def source(built: Source, tmp_path: Path) -> Iterator[Source]:
    """This test's own copy of the installation (the migration may write to it)."""
    path = tmp_path / "source.sqlite"
    backup(built.path, path)
    yield Source(path, built.now, built.scripted, built.stopped, built.lobby, built.running)


def url_of(backend: BackendFactory) -> str:
    assert backend.url is not None
    return backend.url


@ON_POSTGRESQL
async def test_every_row_is_copied_and_every_live_table_replays_the_same(
    source: Source, backend: BackendFactory
) -> None:
    report = await migrate(source.path, url_of(backend), batch=7)  # many batches per table
    assert report.problems == []
    assert report.live_tables == 2  # the lobby and the running table
    async with Database.open(source.path) as sqlite, PostgresDatabase.open(url_of(backend)) as pg:
        counts = await row_counts(sqlite)
        assert report.counts == counts == await row_counts(pg)
        assert list(counts) == list(TABLES) and all(counts.values()), counts
        old, new = Store(sqlite), Store(pg)
        # The webhook keeps its secret: processes on PostgreSQL set the one Telegram has.
        assert await new.shared_secret("telegram_webhook", "new") == "kept-across-the-move"
        # A link exchanged just before the move stays spent after it.
        assert not await new.spend_link("exchanged-before-the-move", 1e12, now=source.now)
        running_before = await old.load_table(source.running)
        running_after = await new.load_table(source.running)
        assert running_before is not None and running_after is not None
        before, after = live_table(running_before), live_table(running_after)
        assert before.match is not None and after.match is not None
        assert (after.seq, after.status) == (before.seq, "running")
        assert after.match.to_json() == before.match.to_json()
        # Through the store's own reads, every table is what it was: NULLs (decks, timers
        # of ended tables) kept, floats exact, results with their JSON.
        for table_id in range(1, await old.max_table_id() + 1):
            assert await new.load_table(table_id) == await old.load_table(table_id)
            assert await new.result(table_id) == await old.result(table_id)
        assert await new.max_table_id() == await old.max_table_id()
        assert await new.chat_language("test", "c") == "en"
        assert await new.messages("test") == await old.messages("test")
        assert await new.contacts("test", ["u9"]) == await old.contacts("test", ["u9"])
        assert (await pg.fetchall("SELECT language FROM players WHERE user_id = 'u9'")) == [
            (None,)
        ]
        assert await verify_copy(sqlite, pg) == []


@ON_POSTGRESQL
async def test_a_manager_on_postgresql_continues_the_running_table(
    source: Source, backend: BackendFactory
) -> None:
    assert (await migrate(source.path, url_of(backend))).ok
    async with PostgresDatabase.open(url_of(backend)) as pg:
        clock = FakeClock(source.now)
        manager = TableManager(pg, InMemoryNotifier(), clock=clock)
        await manager.start()
        try:
            assert manager.table(source.lobby).status == "lobby"
            table = manager.table(source.running)
            match = table.match
            assert match is not None and table.status == "running"
            seq = table.seq
            seat = match.to_act[0]
            assert table.seats[seat] is not None and table.seats[seat].kind == "human"  # type: ignore[union-attr]
            await press(manager, table, seat, match.legal_actions(seat)[0])
            assert table.seq == seq + 1
            stored = await manager.store.load_table(source.running)
            assert stored is not None
            assert [a.seq for a in stored.actions] == list(range(1, seq + 2))
            # New tables take the ids after the copied ones.
            fresh = await manager.create(Place("test", "new"), BADR, {"variant": "syrian41"})
            assert fresh.id == max(source.running, source.lobby) + 1
        finally:
            await manager.close()


@ON_POSTGRESQL
async def test_the_league_answers_the_same_on_both(
    source: Source, backend: BackendFactory
) -> None:
    assert (await migrate(source.path, url_of(backend))).ok
    async with Database.open(source.path) as sqlite, PostgresDatabase.open(url_of(backend)) as pg:
        old, new = LeagueStore(sqlite), LeagueStore(pg)
        assert await new.all_ratings() == await old.all_ratings() != []
        for chat, family in (("c", "tarneeb"), ("solo", "solo")):
            board = await old.leaderboard("test", chat, family, 1)
            assert board and await new.leaderboard("test", chat, family, 1) == board
            history = await old.history("test", chat, 10)
            assert history and await new.history("test", chat, 10) == history
        assert await new.player("test", ALI.user_id) == await old.player("test", ALI.user_id)
        assert await new.counted(source.scripted) == await old.counted(source.scripted)
        assert await new.rank("test", "tarneeb", ALI.user_id, 1) == await old.rank(
            "test", "tarneeb", ALI.user_id, 1
        )
        # results.rated came as it was: nothing waits to be counted a second time.
        assert await new.waiting() == [] == await old.waiting()


@ON_POSTGRESQL
async def test_a_target_holding_any_row_is_refused_and_left_as_it_was(
    source: Source, backend: BackendFactory
) -> None:
    async with PostgresDatabase.open(url_of(backend)) as pg:
        await Store(pg).commit([ChatLanguageSet("test", "elsewhere", "ar", 1.0)])
        before = await row_counts(pg)
        async with Database.open(source.path) as sqlite:
            with pytest.raises(TargetNotEmpty, match="chats"):
                await copy_database(sqlite, pg)
        assert await row_counts(pg) == before == {t: int(t == "chats") for t in TABLES}
    with pytest.raises(TargetNotEmpty):
        await migrate(source.path, url_of(backend))


@ON_POSTGRESQL
async def test_verification_finds_a_lost_move_and_a_changed_row(
    source: Source, backend: BackendFactory
) -> None:
    assert (await migrate(source.path, url_of(backend))).ok
    connection = await asyncpg.connect(url_of(backend))
    try:
        await connection.execute(
            "DELETE FROM actions WHERE table_id = $1"
            " AND seq = (SELECT max(seq) FROM actions WHERE table_id = $1)",
            source.running,
        )
        await connection.execute("UPDATE players SET name = 'Someone' WHERE user_id = 'u9'")
    finally:
        await connection.close()
    async with Database.open(source.path) as sqlite, PostgresDatabase.open(url_of(backend)) as pg:
        problems = await verify_copy(sqlite, pg)
    assert problems[0].startswith("actions: ") and "in PostgreSQL" in problems[0]
    assert problems[1].startswith("players: ")
    assert problems[1].endswith(" rows on both sides, not the same contents")
    assert problems[2].startswith(f"table {source.running}: ") and "match" in problems[2]
    assert len(problems) == 3


@ON_POSTGRESQL
async def test_the_command_copies_verifies_and_refuses_a_second_run(
    source: Source,
    backend: BackendFactory,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("SAHRA_DATABASE", str(source.path))
    monkeypatch.delenv("SAHRA_DATABASE_URL", raising=False)
    url = url_of(backend)
    assert await asyncio.to_thread(main, ["migrate-db", "--to", url]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines[:-1]] == list(TABLES)
    assert all(int(line.split()[1]) > 0 for line in lines[:-1])
    assert lines[-1].startswith("verified 2 live tables by replay")
    assert await asyncio.to_thread(main, ["migrate-db", "--to", url]) == 2
    assert "already holds Sahra rows" in capsys.readouterr().err


async def test_the_command_refuses_a_bad_url_and_a_missing_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nothing.sqlite"
    monkeypatch.setenv("SAHRA_DATABASE", str(missing))
    monkeypatch.delenv("SAHRA_DATABASE_URL", raising=False)
    assert await asyncio.to_thread(main, ["migrate-db", "--to", "mysql://h/sahra"]) == 2
    assert "not a postgresql:// or postgres:// URL" in capsys.readouterr().err
    # Checked before any connection: no server needs to listen there.
    url = "postgresql://sahra@127.0.0.1:1/sahra"
    assert await asyncio.to_thread(main, ["migrate-db", "--to", url]) == 2
    assert "there is no SQLite file" in capsys.readouterr().err
    assert not missing.exists()  # not created by looking for it
    with pytest.raises(BadMigration):
        await migrate(missing, "sqlite:///x")


async def test_a_file_a_running_bot_holds_is_never_copied(tmp_path: Path) -> None:
    """The bot's leader lease on the SQLite file (``storage/lease.py``) refuses the copy:
    rows written during it would be lost."""
    path = tmp_path / "busy.sqlite"
    async with Database.open(path):
        pass
    running = FileLease(path)
    assert running.attempt()
    try:
        with pytest.raises(BadMigration, match="stop it first"):
            await migrate(path, "postgresql://sahra@127.0.0.1:1/sahra")
    finally:
        await running.release()


async def test_a_file_that_is_not_a_database_is_refused_with_a_clear_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "notes.sqlite"
    path.write_bytes(b"these are not the pages of a SQLite database" * 100)
    monkeypatch.setenv("SAHRA_DATABASE", str(path))
    url = "postgresql://sahra@127.0.0.1:1/sahra"
    assert await asyncio.to_thread(main, ["migrate-db", "--to", url]) == 1
    assert "is not a readable SQLite database" in capsys.readouterr().err
