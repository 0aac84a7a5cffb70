"""Frozen, validated rules objects with a JSON round trip.

A game's rules are a frozen dataclass deriving from :class:`RulesBase`; its
``validate`` method calls the ``check_*`` helpers below so that every bad option
raises :class:`OptionError` naming the field and its allowed range.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar, Self

from .errors import OptionError

#: What an option allows, in English, by catalog key: the English catalog holds the same
#: texts, the other catalogs their translations (a client words a ``bad_options``
#: refusal from the key and parameters the server sends besides the English).
ALLOWED: dict[str, str] = {
    "allowed.int": "an integer from {low} to {high}",
    "allowed.optional_int": "null or an integer from {low} to {high}",
    "allowed.bool": "true or false",
    "allowed.object": "a JSON object of options",
    "allowed.unknown": "not an option; known: {known}",
    "allowed.teams_players": "team play needs 4 or 6 players",
    "allowed.needs_teams": "only with teams=true",
    "allowed.match_points": "at least 1 when round_bonus is 0 in a match (rounds=true)",
    "allowed.needs_no_seat": "only with first_player=null",
}


def option_error(field: str, value: object, key: str, **params: int | str) -> OptionError:
    """The :class:`OptionError` of ``field``: its English from :data:`ALLOWED` (``key``
    with ``params``), the key and parameters kept for translation."""
    return OptionError(field, ALLOWED[key].format(**params), value, key, params)


def check_int(field: str, value: object, low: int, high: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise option_error(field, value, "allowed.int", low=low, high=high)


def check_optional_int(field: str, value: object, low: int, high: int) -> None:
    if value is None:
        return
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise option_error(field, value, "allowed.optional_int", low=low, high=high)


def check_bool(field: str, value: object) -> None:
    if not isinstance(value, bool):
        raise option_error(field, value, "allowed.bool")


@dataclasses.dataclass(frozen=True)
class RulesBase:
    """Base of every game's rules object."""

    game: ClassVar[str] = ""
    #: What a field absent from a stored record meant when that record was written: a
    #: field added later takes this value, not its default, so old games replay as played.
    recorded_defaults: ClassVar[dict[str, Any]] = {}

    def __post_init__(self) -> None:
        self.validate()

    def validate(self) -> None:
        """Raise :class:`OptionError` for the first option out of range."""

    def to_json(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    @classmethod
    def from_json(cls, data: object) -> Self:
        if not isinstance(data, dict):
            raise option_error("rules", data, "allowed.object")
        names = [f.name for f in dataclasses.fields(cls)]
        for key in data:
            if key not in names:
                raise option_error(str(key), data[key], "allowed.unknown", known=", ".join(names))
        return cls(**data)

    @classmethod
    def from_record(cls, data: object) -> Self:
        """Rules read back from storage (a snapshot, a room, a game file): like
        :meth:`from_json`, but a field the record lacks means what it meant when the
        record was written (:attr:`recorded_defaults`)."""
        if isinstance(data, dict):
            missing = {k: v for k, v in cls.recorded_defaults.items() if k not in data}
            data = {**data, **missing}
        return cls.from_json(data)

    def replace(self, **changes: Any) -> Self:
        """A copy with some options changed (validated like a new object)."""
        return dataclasses.replace(self, **changes)
