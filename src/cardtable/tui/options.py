"""A game's rules options for the terminal: read off the rules dataclass, never listed by hand.

Each option's name, kind (whole number or yes/no, maybe "auto" for None), default and
meaning come from the rules type (its fields, type hints and docstrings); its allowed
values come from the rules' own ``validate``: :func:`allowed` asks the engine what it
would accept, and :func:`bounds` finds the smallest and largest accepted whole numbers
for the other options as they stand. ``cardtable play`` builds its flags and help from
here, and the lobby's option editor its rows, so a new option appears in both at once.
"""

from __future__ import annotations

import dataclasses
import functools
import re
import textwrap
import types
import typing
from typing import Any

from ..core import OptionError, RulesBase
from ..games import game_names, get_game
from ..sim.options_doc import describe_options

#: Texts read as yes/no (case-insensitive) for a yes/no option.
TRUE_WORDS = ("true", "yes", "on", "1")
FALSE_WORDS = ("false", "no", "off", "0")
#: Texts read as "no value" (the engine's own choice) for an option that may be null.
NULL_WORDS = ("null", "none", "auto", "default")
#: Probing range for whole numbers: far beyond every option's limits.
SEARCH_LOW = -(10**9)
SEARCH_HIGH = 10**9
_RANGE = re.compile(r"from (-?\d+) to (-?\d+)")


@dataclasses.dataclass(frozen=True, slots=True)
class OptionSpec:
    """One rules option: ``kind`` is ``"int"`` or ``"bool"``; ``optional`` when None is
    allowed (the engine then picks, e.g. Skip-Bo's stock size by player count)."""

    game: str
    name: str
    kind: str
    optional: bool
    default: Any
    meaning: str

    @property
    def flag(self) -> str:
        """The command-line flag of the option: ``end_score`` is ``--end-score``."""
        return "--" + self.name.replace("_", "-")


def _kind(annotation: Any) -> tuple[str, bool]:
    if isinstance(annotation, str):
        return ("bool" if "bool" in annotation else "int"), "None" in annotation
    args = typing.get_args(annotation)
    if isinstance(annotation, types.UnionType) or args:
        inner = [arg for arg in args if arg is not type(None)]
        return ("bool" if bool in inner else "int"), type(None) in args
    return ("bool" if annotation is bool else "int"), False


@functools.cache
def option_specs(game_name: str) -> tuple[OptionSpec, ...]:
    """Every rules option of ``game_name`` in declaration order."""
    rules_type = get_game(game_name).rules_type
    hints = typing.get_type_hints(rules_type)
    specs = []
    for doc in describe_options(rules_type):
        kind, optional = _kind(hints.get(doc.name, doc.type))
        specs.append(OptionSpec(game_name, doc.name, kind, optional, doc.default, doc.meaning))
    return tuple(specs)


def all_option_names() -> list[str]:
    """The options of every game, each once, in order of first appearance."""
    names: list[str] = []
    for game in game_names():
        names += [spec.name for spec in option_specs(game) if spec.name not in names]
    return names


def spec_of(game_name: str, name: str) -> OptionSpec | None:
    return next((spec for spec in option_specs(game_name) if spec.name == name), None)


def allowed(rules: RulesBase, name: str) -> str:
    """The engine's words for what option ``name`` accepts, the others as in ``rules``
    (e.g. ``an integer from 5 to 30``): the error of a value no option accepts."""
    try:
        rules.replace(**{name: object()})
    except OptionError as error:
        if error.field == name:
            return error.allowed
    except TypeError:
        pass
    return ""


def _accepts(rules: RulesBase, name: str, value: object) -> bool:
    try:
        rules.replace(**{name: value})
    except (OptionError, TypeError):
        return False
    return True


def bounds(rules: RulesBase, name: str) -> tuple[int, int] | None:
    """The smallest and largest whole numbers option ``name`` accepts with the other options
    as in ``rules`` (found by asking the engine; accepted values are a range), or None."""
    start = getattr(rules, name)
    if isinstance(start, bool) or not isinstance(start, int) or not _accepts(rules, name, start):
        found = _RANGE.search(allowed(rules, name))  # e.g. an "auto" option: start in range
        if found is None or not _accepts(rules, name, int(found.group(1))):
            return None
        start = int(found.group(1))
    low, high = SEARCH_LOW, start  # low refused (or the limit), high accepted
    if _accepts(rules, name, low):
        lowest = low
    else:
        while high - low > 1:
            middle = (low + high) // 2
            low, high = (low, middle) if _accepts(rules, name, middle) else (middle, high)
        lowest = high
    low, high = start, SEARCH_HIGH  # low accepted, high refused (or the limit)
    if _accepts(rules, name, high):
        return lowest, high
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if _accepts(rules, name, middle) else (low, middle)
    return lowest, low


def parse_value(spec: OptionSpec | None, text: str) -> object:
    """The value meant by ``text`` for option ``spec``: yes/no words for a yes/no option,
    a whole number, ``auto`` (None) where the engine may choose; anything else is passed
    on as it is, for the engine to refuse by name."""
    word = text.strip().lower()
    if spec is not None and spec.optional and word in NULL_WORDS:
        return None
    if spec is None or spec.kind == "int":
        try:
            return int(word)
        except ValueError:
            pass
    if spec is None or spec.kind == "bool":
        if word in TRUE_WORDS:
            return True
        if word in FALSE_WORDS:
            return False
    if spec is None and word in NULL_WORDS:
        return None
    return text


def value_text(value: object) -> str:
    """An option's value as typed on the command line (``true``, ``30``, ``auto``)."""
    if value is None:
        return "auto"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def options_table(game_name: str) -> str:
    """The help listing of a game's options: flag, allowed values, default and meaning."""
    game = get_game(game_name)
    defaults = game.rules_type()
    lines = [f"{game.title} options (the flag, or --option NAME=VALUE):"]
    seats = bounds(defaults, "players") if hasattr(defaults, "players") else None
    for spec in option_specs(game_name):
        what = allowed(defaults, spec.name)
        if spec.optional:
            what = what.replace("null or ", "auto (the rules choose) or ")
        lines.append(f"  {spec.flag:<22} {what}; default {value_text(spec.default)}")
        notes = _by_players(defaults, spec.name, seats) if seats and spec.name != "players" else []
        for note in [*notes, spec.meaning.replace("``", "")]:
            if note:
                lines += textwrap.wrap(
                    note, 79, initial_indent=" " * 25, subsequent_indent=" " * 25
                )
    return "\n".join(lines)


def flag_help(spec: OptionSpec) -> str:
    """A flag's line in ``--help``: the game, what it accepts and its default."""
    what = allowed(get_game(spec.game).rules_type(), spec.name).replace("null or ", "auto or ")
    return f"{what}, default {value_text(spec.default)}"


def _by_players(defaults: RulesBase, name: str, seats: tuple[int, int]) -> list[str]:
    """How an option's allowed values change with the player count (none: no line)."""
    groups: list[tuple[int, int, str]] = []
    for players in range(seats[0], seats[1] + 1):
        try:
            rules = defaults.replace(players=players)
        except OptionError:
            continue
        found = bounds(rules, name)
        if found is None:
            return []
        what = f"{found[0]} to {found[1]}"
        if groups and groups[-1][2] == what:
            groups[-1] = (groups[-1][0], players, what)
        else:
            groups.append((players, players, what))
    if len(groups) < 2:
        return []
    parts = [
        f"{what} with {low}-{high} players" if low != high else f"{what} with {low} players"
        for low, high, what in groups
    ]
    return ["; ".join(parts)]
