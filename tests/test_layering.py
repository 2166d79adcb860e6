"""The layers of docs/architecture.md, enforced: the core imports no platform library, SQL
lives only in ``storage/``, the engine is pure, and ``bot/tables`` and the adapters stay in
small files."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PLATFORMS = ("telegram", "discord")
# The surfaces' packages. Only the two chat adapters may import their platform's library;
# the console and the web table speak to no chat platform, so the core's test reads them too.
ADAPTERS = ("bot/telegram", "bot/discord", "bot/console", "bot/web")
CHAT_ADAPTERS = ("bot/telegram", "bot/discord")
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
        if not any(relative(p).startswith(adapter) for adapter in CHAT_ADAPTERS)
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


# ------------------------------------------------------------------ import order and circles
#
# The core's layers, bottom up, as docs/architecture.md writes them: a module imports only
# from its own layer or below ("settings and logs → the renderer and i18n → the table manager
# → the league → the presenter → delivery → the surfaces → the runner and the CLI").
# ``bot.cluster`` (who owns which table, forwarding to the owner) belongs to the table
# manager; the operator commands (``bot.ops``, ``bot.migration``) sit with the CLI that runs
# them.
CORE_LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("settings and logs", ("bot.settings", "bot.logs", "bot.backoff")),
    ("the renderer and i18n", ("bot.render",)),
    ("the table manager", ("bot.tables", "bot.cluster")),
    ("the league", ("bot.league",)),
    ("the presenter", ("bot.present",)),
    ("delivery", ("bot.delivery",)),
    ("the surfaces", ("bot.telegram", "bot.discord", "bot.console", "bot.web")),
    (
        "the runner and the CLI",
        ("bot.runner", "bot.cli", "bot.ops", "bot.activity_doctor", "bot.migration"),
    ),
)
PROJECT = ("engine", "storage", "bot")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def project_modules() -> dict[str, Path]:
    return {module_name(p): p for p in sources(*PROJECT)}


def import_graph() -> dict[str, set[str]]:
    """Every import of every project module, at any depth of the file (inside functions and
    ``if TYPE_CHECKING:`` too: a reader must hold those in mind all the same), resolved to
    project modules. Importing ``a.b.c`` runs ``a/__init__`` and ``a/b/__init__`` first, so
    those count as imports too (but for the importer's own packages, already running)."""
    modules = project_modules()
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text())):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    base = ".".join([*up, base] if base else up)
                targets = [base, *(f"{base}.{alias.name}" for alias in node.names)]
            for target in targets:
                while target and target not in modules:
                    target = target.rpartition(".")[0]
                while target:
                    own = target == name or name.startswith(target + ".")
                    if target in modules and not own:
                        graph[name].add(target)
                    target = target.rpartition(".")[0]
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected sets of two or more modules (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph[node]):
            if other not in index:
                visit(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def layer_of(module: str) -> int | None:
    for number, (_, prefixes) in enumerate(CORE_LAYERS):
        if any(module == prefix or module.startswith(prefix + ".") for prefix in prefixes):
            return number
    return None


def test_no_import_circle_anywhere() -> None:
    assert circles(import_graph()) == []


def test_the_circle_finder_sees_a_circle_through_a_package_init() -> None:
    # bot.tables/__init__ importing the manager, the manager importing the league and the
    # league importing bot.tables.config: one circle, found only through the package edge.
    graph = {
        "bot.tables": {"bot.tables.manager"},
        "bot.tables.manager": {"bot.league"},
        "bot.league": {"bot.tables.config", "bot.tables"},
        "bot.tables.config": set(),
    }
    assert circles(graph) == [["bot.league", "bot.tables", "bot.tables.manager"]]


def test_every_core_module_has_a_layer() -> None:
    unplaced = [
        name
        for name in project_modules()
        if name.startswith("bot.") and name != "bot" and layer_of(name) is None
    ]
    assert unplaced == []


def test_the_core_imports_only_its_own_layer_or_below() -> None:
    upward = []
    for name, targets in import_graph().items():
        mine = layer_of(name)
        if mine is None:
            continue
        for target in sorted(targets):
            theirs = layer_of(target)
            if theirs is not None and theirs > mine:
                upward.append(f"{name} ({CORE_LAYERS[mine][0]}) imports {target}")
    assert upward == []


def test_engine_and_storage_import_nothing_of_the_bot() -> None:
    graph = import_graph()
    found = {
        name: sorted(t for t in targets if t == "bot" or t.startswith("bot."))
        for name, targets in graph.items()
        if name.startswith(("engine", "storage"))
    }
    assert {name: targets for name, targets in found.items() if targets} == {}


# A child forked from an interpreter that has loaded the third-party libraries (so each
# import costs milliseconds) but none of the project's modules: each project module is then
# imported first, alone, as in a fresh interpreter.
_IMPORT_ALONE = """
import importlib, os, sys
for library in ("aiohttp", "aiosqlite", "asyncpg", "discord", "discord.ext.commands",
                "discord.app_commands", "telegram", "telegram.ext", "pydantic",
                "pydantic_settings", "openskill.models", "numpy"):
    try:
        importlib.import_module(library)
    except ImportError:
        pass
assert not [m for m in sys.modules if m.split(".")[0] in ("bot", "engine", "storage")]
failed = []
running = {}
def reap():
    pid, status = os.wait()
    if status != 0:
        failed.append(running[pid])
    del running[pid]
for name in sys.argv[1:]:
    if len(running) >= 3:  # a few at once: a short wall time for this one long test
        reap()
    pid = os.fork()
    if pid == 0:
        try:
            importlib.import_module(name)
        except BaseException as error:
            sys.stderr.write(f"{name}: {type(error).__name__}: {error}\\n")
            os._exit(1)
        os._exit(0)
    running[pid] = name
while running:
    reap()
print("\\n".join(failed))
"""


def test_every_module_imports_alone_in_a_fresh_interpreter() -> None:
    import subprocess
    import sys

    names = sorted(project_modules())
    done = subprocess.run(
        [sys.executable, "-c", _IMPORT_ALONE, *names],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert done.stdout.split() == [], done.stderr


def test_no_variant_is_named_in_the_bot() -> None:
    """Every fact about a variant is read from ``engine.VARIANTS`` (teams, bidding, family,
    targets, TX.12, aliases): a variant's id written as a value in ``bot/`` (a comparison, a
    list of the variants) is a fact stated a second time. Docstrings may show examples."""
    import engine

    found = []
    for path in sources("bot"):
        tree = ast.parse(path.read_text())
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and node.value in engine.VARIANTS
                and id(node) not in docstrings
            ):
                found.append(f"{relative(path)}:{node.lineno} {node.value}")
    assert found == []


def test_no_adapter_module_is_over_300_lines() -> None:
    """Adapters by concern: where a command is parsed, a press answered or a screen made a
    widget is found from the file names, and no file holds several of those."""
    sizes = {relative(p): len(p.read_text().splitlines()) for p in sources(*ADAPTERS)}
    over = {path: n for path, n in sizes.items() if n > 300}
    assert over == {}
