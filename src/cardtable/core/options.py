"""Frozen, validated rules objects with a JSON round trip, each option described once.

A game's rules are a frozen dataclass deriving from :class:`RulesBase` whose every
field is declared with :func:`option`: its default, its meaning, its translated label
(a catalog key), and for a whole number its range (a limit may follow other options,
e.g. the largest stock for the player count), plus what a yes/no option needs when on.
That one description is the engine's validation (:meth:`RulesBase.validate` walks
it, so every bad option raises :class:`OptionError` naming the field and its allowed
range) and what every client reads (:mod:`cardtable.rules_options`: the lobby form,
the CLI flags, the docs table).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
from typing import Any, ClassVar, Self

from .errors import OptionError

#: What an option of any game allows, in English, by catalog key: the reference wording
#: of the core's own refusals (the English catalog holds the same texts, the other
#: catalogs their translations; a client words a ``bad_options`` refusal from the key and
#: parameters the server sends besides the English). No text here chooses a grammatical
#: form: a count is a bare number. What one game's option needs of the others is that
#: game's own text (:class:`Requirement`).
ALLOWED: dict[str, str] = {
    "allowed.int": "an integer from {low} to {high}",
    "allowed.optional_int": "null or an integer from {low} to {high}",
    "allowed.bool": "true or false",
    "allowed.object": "a JSON object of options",
    "allowed.unknown": "not an option; known: {known}",
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


#: A limit of a whole-number option: a number, or a function of the rules object
#: (the options declared before it are already valid when it is called).
Bound = int | Callable[[Any], int]
#: The key of an option's description in its dataclass field's ``metadata``.
OPTION = "cardtable.option"


@dataclasses.dataclass(frozen=True, slots=True)
class Requirement:
    """What an option needs of the options declared before it (and of itself):
    ``holds(rules)``, else the option is refused with the catalog key ``allowed_key``,
    whose English the engine gives as ``english`` (the English catalog holds the same
    text, tested). A yes/no option's requirements apply when it is on (team play needs 4
    or 6 players); a number's after its range (a match must score some points)."""

    allowed_key: str
    english: str
    holds: Callable[[Any], bool]

    def refusal(self, field: str, value: object) -> OptionError:
        """The :class:`OptionError` of ``field`` at ``value`` when this does not hold."""
        return OptionError(field, self.english, value, self.allowed_key, {})


@dataclasses.dataclass(frozen=True, slots=True)
class Option:
    """The description of one rules field, kept in its ``metadata``."""

    #: What the option does, in English (``--help``, ``cardtable rules``, the docs).
    meaning: str
    #: The catalog key of its short label (``option.skipbo.players``).
    label: str
    #: A whole number's smallest and largest accepted values (None for yes/no).
    low: Bound | None = None
    high: Bound | None = None
    #: What the option needs (see :class:`Requirement`).
    requires: tuple[Requirement, ...] = ()

    def bounds(self, rules: Any) -> tuple[int, int] | None:
        """The accepted range with the other options as in ``rules``, or None."""
        if self.low is None or self.high is None:
            return None
        return _bound(self.low, rules), _bound(self.high, rules)


def _bound(bound: Bound, rules: Any) -> int:
    return bound if isinstance(bound, int) else bound(rules)


def option(
    default: object,
    *,
    meaning: str,
    label: str,
    low: Bound | None = None,
    high: Bound | None = None,
    requires: tuple[Requirement, ...] = (),
) -> Any:
    """A rules field with its description (see the module docstring)."""
    described = Option(" ".join(meaning.split()), label, low, high, requires)
    return dataclasses.field(default=default, metadata={OPTION: described})


@dataclasses.dataclass(frozen=True, slots=True)
class OptionField:
    """A rules field as validation and the clients see it: ``kind`` ``"int"`` or
    ``"bool"``, ``optional`` when None lets the rules choose."""

    name: str
    kind: str
    optional: bool
    default: Any
    option: Option


_FIELDS: dict[type, tuple[OptionField, ...]] = {}


def option_fields(rules_type: type[RulesBase]) -> tuple[OptionField, ...]:
    """Every option of ``rules_type`` in declaration order; a field declared without
    :func:`option`, or of a type other than ``int``, ``bool`` or ``int | None``, is a
    mistake of the engine and raises ``TypeError``."""
    known = _FIELDS.get(rules_type)
    if known is None:
        known = _FIELDS[rules_type] = _read_fields(rules_type)
    return known


def _read_fields(rules_type: type[RulesBase]) -> tuple[OptionField, ...]:
    hints = typing.get_type_hints(rules_type)
    found = []
    for field in dataclasses.fields(rules_type):
        described = field.metadata.get(OPTION)
        if not isinstance(described, Option):
            raise TypeError(f"{rules_type.__name__}.{field.name} is not declared with option()")
        kind, optional = _kind(hints[field.name])
        found.append(OptionField(field.name, kind, optional, field.default, described))
    return tuple(found)


def _kind(annotation: Any) -> tuple[str, bool]:
    if annotation is bool:
        return "bool", False
    if annotation is int:
        return "int", False
    if isinstance(annotation, types.UnionType) and set(typing.get_args(annotation)) == {
        int,
        type(None),
    }:
        return "int", True
    raise TypeError(f"a rules option is int, bool or int | None, not {annotation!r}")


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
        """Raise :class:`OptionError` for the first option (in declaration order) that
        its description refuses."""
        for field in option_fields(type(self)):
            value = getattr(self, field.name)
            if field.kind == "bool":
                check_bool(field.name, value)
                if value:
                    for need in field.option.requires:
                        if not need.holds(self):
                            raise need.refusal(field.name, value)
                continue
            bounds = field.option.bounds(self)
            assert bounds is not None, f"{field.name} needs low and high"
            check = check_optional_int if field.optional else check_int
            check(field.name, value, *bounds)
            for need in field.option.requires:
                if not need.holds(self):
                    raise need.refusal(field.name, value)

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
