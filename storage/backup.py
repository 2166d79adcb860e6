"""Online backups of the SQLite file."""

from __future__ import annotations

import sqlite3
from pathlib import Path


def backup(source: Path, target: Path) -> int:
    """An online backup (SQLite's backup API: consistent while the bot keeps writing).
    Returns the number of pages copied."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(source) as src, sqlite3.connect(target) as dst:
        src.backup(dst)
        pages: int = dst.execute("PRAGMA page_count").fetchone()[0]
    return pages
