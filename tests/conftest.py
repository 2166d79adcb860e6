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


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    dropped = [item for item in items if _postgresql_by_habit(item)]
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = [item for item in items if item not in set(dropped)]


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
