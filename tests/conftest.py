"""Fixtures every test folder may use, and which tests run on PostgreSQL as well."""

from __future__ import annotations

import pytest

from tests.backends import backend

__all__ = ["backend"]

# The platform adapters' tests exercise Telegram's and Discord's handling, which reads and
# writes through the same store on either database: there the backend matters only where a
# test says so (``@pytest.mark.backend_matters``: processes sharing PostgreSQL, one whole
# match end to end). The storage, manager, league, crash and failover tests run on both.
ADAPTER_FOLDERS = ("tests/bot/telegram/", "tests/bot/discord/")


# The tests that take longest (processes, browsers, SIGKILL rounds, search players), longest
# first. They start first, spread over the workers (``make test`` hands tests out in
# collection order, one at a time): started last, one of them alone would hold up the
# suite's end while the other workers sit idle.
LONG_FIRST = (
    "tests/bot/tables/test_crash.py",
    "tests/benchmarks/test_web_scale.py",
    "tests/test_layering.py",
    "tests/bot/web/test_browser.py",
    "tests/bot/web/test_fit.py",
    "tests/bot/web/test_table_page.py",
    "tests/bot/web/test_telegram.py",
    "tests/bot/web/test_activity_page.py",
    "tests/benchmarks/test_page_load.py",
    "tests/bot/discord/test_shards_across_processes.py",
    "tests/engine/players/test_legality.py",
    "tests/bot/web/test_browser_trix.py",
    "tests/benchmarks/test_arena.py",
    "tests/bot/web/test_restart.py",
    "tests/bot/discord/test_gateway_failover.py",
    "tests/bot/web/test_takeover.py",
    "tests/bot/test_failover.py",
    "tests/bot/render/test_no_hidden_cards.py",
    "tests/bot/telegram/test_e2e.py",
    "tests/bot/web/test_processes.py",
)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    dropped = [item for item in items if _postgresql_by_habit(item)]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = [item for item in items if item not in set(dropped)]
    items.sort(key=_start_order)  # stable: the rest keep their order


def _start_order(item: pytest.Item) -> int:
    path = item.nodeid.split("::")[0]
    return LONG_FIRST.index(path) if path in LONG_FIRST else len(LONG_FIRST)


def _postgresql_by_habit(item: pytest.Item) -> bool:
    """An adapter test's PostgreSQL run that no ``backend_matters`` mark asks for (the
    mark's keywords, if any, name the parameters of the one run kept)."""
    callspec = getattr(item, "callspec", None)
    if callspec is None or callspec.params.get("backend") != "postgresql":
        return False
    if not item.nodeid.startswith(ADAPTER_FOLDERS):
        return False
    marker = item.get_closest_marker("backend_matters")
    if marker is None:
        return True
    return any(callspec.params.get(name) != value for name, value in marker.kwargs.items())
