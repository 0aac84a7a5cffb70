"""Frozen, validated rules objects with a JSON round trip.

A game's rules are a frozen dataclass deriving from :class:`RulesBase`; its
``validate`` method calls the ``check_*`` helpers below so that every bad option
raises :class:`OptionError` naming the field and its allowed range.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar, Self

from .errors import OptionError


def check_int(field: str, value: object, low: int, high: int) -> None:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise OptionError(field, f"an integer from {low} to {high}", value)


def check_optional_int(field: str, value: object, low: int, high: int) -> None:
    if value is None:
        return
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise OptionError(field, f"null or an integer from {low} to {high}", value)


def check_bool(field: str, value: object) -> None:
    if not isinstance(value, bool):
        raise OptionError(field, "true or false", value)


@dataclasses.dataclass(frozen=True)
class RulesBase:
    """Base of every game's rules object."""

    game: ClassVar[str] = ""

    def __post_init__(self) -> None:
        self.validate()

    def validate(self) -> None:
        """Raise :class:`OptionError` for the first option out of range."""

    def to_json(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}

    @classmethod
    def from_json(cls, data: object) -> Self:
        if not isinstance(data, dict):
            raise OptionError("rules", "a JSON object of options", data)
        names = [f.name for f in dataclasses.fields(cls)]
        for key in data:
            if key not in names:
                raise OptionError(str(key), "not an option; known: " + ", ".join(names), data[key])
        return cls(**data)

    def replace(self, **changes: Any) -> Self:
        """A copy with some options changed (validated like a new object)."""
        return dataclasses.replace(self, **changes)
