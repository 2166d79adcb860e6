"""Failures the store reports, whatever its backend."""

from __future__ import annotations


class StorageError(RuntimeError):
    """A commit or a read failed; nothing of the commit was written."""


class Conflict(StorageError):
    """A commit broke a uniqueness rule (a second live table at one place, a move number
    already in the log); nothing of it was written."""


class StorageClosed(StorageError):
    """A write was attempted after the database was closed."""
