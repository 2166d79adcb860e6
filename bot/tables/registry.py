"""The live tables of this process, by id and by place."""

from __future__ import annotations

from collections.abc import Iterator

from bot.tables.errors import Refusal
from bot.tables.live import LiveTable, Place


class Registry:
    def __init__(self) -> None:
        self._tables: dict[int, LiveTable] = {}
        self._by_place: dict[Place, int] = {}
        # Places whose new table is being written: a second create there must be refused
        # before its own write, not by the database's unique index after it.
        self._opening: set[Place] = set()
        self.next_id = 1

    def get(self, table_id: int) -> LiveTable:
        table = self._tables.get(table_id)
        if table is None:
            raise Refusal("unknown_table")
        return table

    def at(self, place: Place) -> LiveTable | None:
        table_id = self._by_place.get(place)
        return None if table_id is None else self._tables.get(table_id)

    def __iter__(self) -> Iterator[LiveTable]:
        return iter(list(self._tables.values()))

    def __contains__(self, table_id: object) -> bool:
        return table_id in self._tables

    def __len__(self) -> int:
        return len(self._tables)

    def new_id(self) -> int:
        table_id = self.next_id
        self.next_id += 1
        return table_id

    def reserve(self, place: Place) -> None:
        """Claim ``place`` for a table about to be written, or refuse."""
        if place in self._opening or self.at(place) is not None:
            raise Refusal("place_taken")
        self._opening.add(place)

    def release(self, place: Place) -> None:
        self._opening.discard(place)

    def add(self, table: LiveTable) -> None:
        self._opening.discard(table.place)
        self._tables[table.id] = table
        self._by_place[table.place] = table.id

    def forget(self, table: LiveTable) -> None:
        if self._by_place.get(table.place) == table.id:
            del self._by_place[table.place]
        self._tables.pop(table.id, None)

    def sizes(self) -> dict[str, int]:
        """How much this process holds (the soak benchmark checks it returns to zero)."""
        return {
            "tables": len(self._tables),
            "places": len(self._by_place),
            "opening": len(self._opening),
        }
