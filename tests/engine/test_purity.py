"""The engine is pure: no I/O, no clock, no asyncio, no global random state."""

from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "engine"
ALLOWED_IMPORTS = {
    "__future__",
    "abc",
    "bisect",
    "collections",
    "collections.abc",
    "dataclasses",
    "enum",
    "itertools",
    "json",
    "math",
    "random",  # only random.Random instances; checked below
    "typing",
}


# The one foreign function the engine calls: DDS, a pure function written in C. Finding and
# loading its library at import is the only thing these modules are for; a solve reads
# and writes nothing but its arguments and DDS's own memory.
FOREIGN = {"doubledummy.py": {"ctypes", "importlib.util", "os", "queue"}}


def engine_modules() -> list[Path]:
    return sorted(ENGINE.rglob("*.py"))


def test_engine_imports_only_pure_modules() -> None:
    for path in engine_modules():
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            allowed = ALLOWED_IMPORTS | FOREIGN.get(path.name, set())
            for name in names:
                assert name == "engine" or name.startswith("engine.") or name in allowed, (
                    f"{path.name} imports {name}"
                )


def test_engine_uses_no_global_random_state() -> None:
    for path in engine_modules():
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "random"
            ):
                assert node.attr == "Random", f"{path.name} uses random.{node.attr}"


def test_engine_has_no_print_or_open() -> None:
    for path in engine_modules():
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                assert node.func.id not in {"print", "open", "input", "exec", "eval"}, path.name
