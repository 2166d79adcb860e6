"""The one exception a refused action raises."""

from __future__ import annotations


class IllegalAction(ValueError):
    """An action the rules refuse. ``code`` is stable (for programs and translations);
    ``str(error)`` is a readable English reason. The match is unchanged when it is raised.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"IllegalAction({self.code!r}, {self.message!r})"
