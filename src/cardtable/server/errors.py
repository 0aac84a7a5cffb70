"""Refused requests: the :class:`RoomError` every room operation raises, and how an
engine's refusal (a bad option, an illegal move) becomes one."""

from __future__ import annotations

from ..core import JSON, IllegalMoveError, OptionError


class RoomError(Exception):
    """A refused request: ``code`` for programs, ``reason`` for people, and ``fields``:
    facts for programs added to the error reply (``field`` and ``allowed`` of a bad option)."""

    def __init__(self, code: str, reason: str, fields: JSON | None = None) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.fields: JSON = fields or {}


def option_refused(error: OptionError) -> RoomError:
    """The ``bad_options`` refusal of an option outside its range: the reply names the
    option (``field``) and its allowed values (``allowed``, the engine's words), and the
    same for translation (``allowed_key``, ``allowed_params``) when the engine gave them."""
    fields: JSON = {"field": error.field, "allowed": error.allowed}
    if error.key is not None:
        fields |= {"allowed_key": error.key, "allowed_params": dict(error.params)}
    return RoomError("bad_options", str(error), fields)


def refusal_fields(error: IllegalMoveError, move: JSON) -> JSON:
    """The facts of an ``illegal_move`` reply besides its English ``reason``: the refused
    move in its JSON form (``move``) and, from the engine, the refusal as a catalog key
    and parameters (``reason_key``, ``reason_params``) for a client to word it in its
    player's language (see :mod:`cardtable.core.refusal`)."""
    if error.refusal is None:
        return {"move": move}
    return {
        "reason_key": error.refusal.key,
        "reason_params": dict(error.refusal.params),
        "move": move,
    }
