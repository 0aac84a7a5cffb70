"""Error classes shared by every game.

Each kind of bad input has its own class so callers can tell an illegal move from
a malformed message or a bad option.
"""

from __future__ import annotations


class CardtableError(Exception):
    """Base class of every error raised by cardtable."""


class IllegalMoveError(CardtableError):
    """A move that the rules do not allow in the current position.

    The state is left exactly as it was; ``reason`` says why in plain words.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class OptionError(CardtableError, ValueError):
    """A rules option outside its allowed range; names the field and the range."""

    def __init__(self, field: str, allowed: str, value: object) -> None:
        super().__init__(f"option {field!r}: {allowed} (got {value!r})")
        self.field = field
        self.allowed = allowed
        self.value = value


class ActionCodeError(CardtableError, ValueError):
    """An integer action code outside a game's encoding."""


class SerializationError(CardtableError, ValueError):
    """A serialized state or rules object that cannot be read back."""
