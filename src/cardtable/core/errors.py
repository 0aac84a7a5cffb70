"""Error classes shared by every game.

Each kind of bad input has its own class so callers can tell an illegal move from
a malformed message or a bad option.
"""

from __future__ import annotations

from typing import Any

from .refusal import Refusal


class CardtableError(Exception):
    """Base class of every error raised by cardtable."""


class IllegalMoveError(CardtableError):
    """A move that the rules do not allow in the current position.

    The state is left exactly as it was; ``reason`` says why in plain English and
    ``refusal``, when the game has one, says it as a catalog key and parameters
    (see :mod:`cardtable.core.refusal`) for a client to word in its language.
    """

    def __init__(self, reason: str, refusal: Refusal | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.refusal = refusal

    @property
    def key(self) -> str | None:
        """The catalog key of the refusal, if the game gave one."""
        return None if self.refusal is None else self.refusal.key

    @property
    def params(self) -> dict[str, int]:
        """The parameters of the refusal (empty without one)."""
        return {} if self.refusal is None else dict(self.refusal.params)

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.reason, self.refusal))


class OptionError(CardtableError, ValueError):
    """A rules option outside its allowed range; names the field and the range.

    ``allowed`` says what the option allows in English; ``key`` and ``params``, when
    given, say the same as a catalog key (under ``allowed.``) and its parameters for a
    client to word in its language (:func:`cardtable.core.options.option_error`).
    """

    def __init__(
        self,
        field: str,
        allowed: str,
        value: object,
        key: str | None = None,
        params: dict[str, int | str] | None = None,
    ) -> None:
        super().__init__(f"option {field!r}: {allowed} (got {value!r})")
        self.field = field
        self.allowed = allowed
        self.value = value
        self.key = key
        self.params: dict[str, int | str] = dict(params or {})

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.field, self.allowed, self.value, self.key, self.params))


class ActionCodeError(CardtableError, ValueError):
    """An integer action code outside a game's encoding."""


class SerializationError(CardtableError, ValueError):
    """A serialized state or rules object that cannot be read back."""
