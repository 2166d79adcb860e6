"""Fixtures every test folder may use."""

from tests.backends import backend

__all__ = ["backend"]
