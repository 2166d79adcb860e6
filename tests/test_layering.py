"""The layers of architecture.md, enforced: the core imports no platform library, SQL
lives only in ``storage/``, the engine is pure, and ``bot/tables`` stays in small files."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PLATFORMS = ("telegram", "discord")
ADAPTERS = ("bot/telegram", "bot/discord", "bot/console")
DRIVERS = ("sqlite3", "aiosqlite", "asyncpg")
SQL = re.compile(
    r"\b(SELECT\s.+\sFROM|INSERT\s+(OR\s+\w+\s+)?INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM"
    r"|CREATE\s+(TABLE|INDEX)|DROP\s+TABLE|PRAGMA\s+\w+)\b",
    re.DOTALL,  # our SQL is written in capitals; prose that says "select … from" is not SQL
)


def sources(*folders: str) -> list[Path]:
    return sorted(p for folder in folders for p in (ROOT / folder).rglob("*.py"))


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def top(name: str) -> str:
    return name.split(".")[0]


def relative(path: Path) -> str:
    return str(path.relative_to(ROOT))


def core_files() -> list[Path]:
    return [
        p
        for p in sources("bot")
        if not any(relative(p).startswith(adapter) for adapter in ADAPTERS)
        and relative(p) not in ("bot/runner.py",)  # the composition root starts adapters
    ]


def test_the_core_imports_no_platform_library() -> None:
    found = {
        relative(p): sorted(
            n
            for n in imports(p)
            if top(n) in PLATFORMS or n.startswith(("bot.telegram", "bot.discord"))
        )
        for p in core_files()
    }
    assert {path: names for path, names in found.items() if names} == {}


def test_sql_and_database_drivers_live_only_in_storage() -> None:
    offenders: list[str] = []
    for path in sources("bot", "engine", "benchmarks"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and SQL.search(node.value)
            ):
                offenders.append(f"{relative(path)}:{node.lineno}")
        drivers = sorted(n for n in imports(path) if top(n) in DRIVERS)
        if drivers:
            offenders.append(f"{relative(path)} imports {drivers}")
    assert offenders == []


def test_the_engine_is_pure_and_storage_knows_no_chat() -> None:
    # ``random`` stays allowed: the engine seeds its own ``random.Random`` instances.
    impure = ("asyncio", "time", "bot", "storage", "aiohttp", *DRIVERS, *PLATFORMS)
    for path in sources("engine"):
        assert not {n for n in imports(path) if top(n) in impure}, relative(path)
    for path in sources("storage"):
        assert not {n for n in imports(path) if top(n) in ("bot", *PLATFORMS)}, relative(path)


def test_no_file_in_bot_tables_is_over_400_lines() -> None:
    sizes = {relative(p): len(p.read_text().splitlines()) for p in sources("bot/tables")}
    assert {path: n for path, n in sizes.items() if n > 400} == {}


def test_the_scan_catches_sql_in_a_string() -> None:
    assert SQL.search("SELECT id FROM tables WHERE x = ?")
    assert SQL.search("INSERT OR REPLACE INTO seats VALUES (?)")
    assert not SQL.search("Select a card from your hand")


# What turns events into screens is the presenter's alone (bot/present): an adapter draws
# no table, hand, sheet or lobby itself, so the platforms cannot drift apart.
SCREEN_MAKERS = (
    "table_screen",
    "hand_screen",
    "deal_sheet",
    "score_sheet",
    "result_screen",
    "lobby_screen",
    "narrate",
)


def test_no_adapter_decides_which_screens_an_event_changes() -> None:
    found = {}
    for path in sources(*ADAPTERS):
        tree = ast.parse(path.read_text())
        names = sorted(
            alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("bot.render")
            for alias in node.names
            if alias.name in SCREEN_MAKERS
        )
        if names:
            found[relative(path)] = names
    assert found == {}
