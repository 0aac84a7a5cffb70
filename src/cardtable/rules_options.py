"""Every game's rules options, what each means and what it allows: one source for all clients.

What an option *is* (name, kind, whether None lets the rules choose, default, meaning)
is read off the rules dataclass: its fields, type hints and docstrings. What it *allows*
is asked of the engine itself, never listed here: :func:`allowed` gives the rules' own
words for the values they accept, :func:`bounds` finds the smallest and largest accepted
whole numbers by asking ``validate`` (a binary search; accepted values form a range),
and :func:`bounds_by_players` does so for each player count, since some limits depend
on it (Skip-Bo's stock size, the first player). The web page's options, the terminal's
flags and lobby, and ``cardtable rules`` are all built from here, so a new option or a
changed limit reaches every client at once.

Imports only ``core`` and ``games`` (which loads the engines); never a client.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import inspect
import itertools
import re
import textwrap
import types
import typing
from collections.abc import Callable
from typing import Any

from .core import OptionError, RulesBase
from .games import game_names, get_game

#: Probing range for whole numbers: far beyond every option's limits.
SEARCH_LOW = -(10**9)
SEARCH_HIGH = 10**9
#: The option that other limits may depend on.
PLAYERS = "players"
_RANGE = re.compile(r"from (-?\d+) to (-?\d+)")
_BULLET = re.compile(r"^-\s*``(\w+)``\s*:\s*(.*)$")


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


# --- What an option is: read off the rules type ---------------------------------------


def _kind(annotation: Any) -> tuple[str, bool]:
    """(``"int"`` or ``"bool"``, whether None is allowed) from a field's type."""
    if isinstance(annotation, str):
        return ("bool" if "bool" in annotation else "int"), "None" in annotation
    args = typing.get_args(annotation)
    if isinstance(annotation, types.UnionType) or args:
        inner = [arg for arg in args if arg is not type(None)]
        return ("bool" if bool in inner else "int"), type(None) in args
    return ("bool" if annotation is bool else "int"), False


def _attribute_docstrings(cls: type) -> dict[str, str]:
    """Field docstrings: a string right after the field in the class body."""
    docs: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        try:
            source = textwrap.dedent(inspect.getsource(klass))
        except (OSError, TypeError):  # built-ins and classes made at run time have no source
            continue
        tree = ast.parse(source)
        body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
        for node, following in itertools.pairwise(body):
            if (
                isinstance(node, ast.AnnAssign)
                and isinstance(node.target, ast.Name)
                and isinstance(following, ast.Expr)
                and isinstance(following.value, ast.Constant)
                and isinstance(following.value.value, str)
            ):
                docs[node.target.id] = " ".join(following.value.value.split())
    return docs


def _docstring_bullets(cls: type) -> dict[str, str]:
    """Bullets ``- ``name``: text`` of the class docstring (continued on indented lines)."""
    docs: dict[str, str] = {}
    current: str | None = None
    for line in inspect.cleandoc(cls.__doc__ or "").splitlines():
        match = _BULLET.match(line.strip())
        if match:
            current = match.group(1)
            docs[current] = match.group(2).strip()
        elif current is not None and line.startswith(" ") and line.strip():
            docs[current] += " " + line.strip()
        else:
            current = None
    return docs


def meanings(rules_type: type[RulesBase]) -> dict[str, str]:
    """Each documented option's meaning: its field docstring, else its docstring bullet."""
    return {**_docstring_bullets(rules_type), **_attribute_docstrings(rules_type)}


@functools.cache
def option_specs(game_name: str) -> tuple[OptionSpec, ...]:
    """Every rules option of ``game_name`` in declaration order."""
    rules_type = get_game(game_name).rules_type
    hints = typing.get_type_hints(rules_type)
    defaults = rules_type()
    meaning = meanings(rules_type)
    specs = []
    for field in dataclasses.fields(rules_type):
        kind, optional = _kind(hints.get(field.name, field.type))
        specs.append(
            OptionSpec(
                game_name,
                field.name,
                kind,
                optional,
                getattr(defaults, field.name),
                meaning.get(field.name, ""),
            )
        )
    return tuple(specs)


def all_option_names() -> list[str]:
    """The options of every game, each once, in order of first appearance."""
    names: list[str] = []
    for game in game_names():
        names += [spec.name for spec in option_specs(game) if spec.name not in names]
    return names


def spec_of(game_name: str, name: str) -> OptionSpec | None:
    return next((spec for spec in option_specs(game_name) if spec.name == name), None)


# --- What an option allows: asked of the engine ---------------------------------------


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


def accepts(rules: RulesBase, name: str, value: object) -> bool:
    """Whether the engine accepts ``value`` for option ``name``, the others as in ``rules``."""
    try:
        rules.replace(**{name: value})
    except (OptionError, TypeError):
        return False
    return True


def bounds(rules: RulesBase, name: str) -> tuple[int, int] | None:
    """The smallest and largest whole numbers option ``name`` accepts with the other options
    as in ``rules`` (found by asking the engine; accepted values are a range), or None."""
    start = getattr(rules, name)
    if isinstance(start, bool) or not isinstance(start, int) or not accepts(rules, name, start):
        found = _RANGE.search(allowed(rules, name))  # e.g. an "auto" option: start in range
        if found is None or not accepts(rules, name, int(found.group(1))):
            return None
        start = int(found.group(1))
    low, high = SEARCH_LOW, start  # low refused (or the limit), high accepted
    if accepts(rules, name, low):
        lowest = low
    else:
        while high - low > 1:
            middle = (low + high) // 2
            low, high = (low, middle) if accepts(rules, name, middle) else (middle, high)
        lowest = high
    low, high = start, SEARCH_HIGH  # low accepted, high refused (or the limit)
    if accepts(rules, name, high):
        return lowest, high
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if accepts(rules, name, middle) else (low, middle)
    return lowest, low


@functools.cache
def player_counts(game_name: str) -> tuple[int, ...]:
    """The player counts the game's rules accept with the other options at their defaults
    (empty for rules without a ``players`` option)."""
    defaults = get_game(game_name).rules_type()
    found = bounds(defaults, PLAYERS) if hasattr(defaults, PLAYERS) else None
    return () if found is None else tuple(range(found[0], found[1] + 1))


@functools.cache
def bounds_by_players(game_name: str, name: str) -> dict[int, tuple[int, int]]:
    """The bounds of option ``name`` for each player count, the other options at their
    defaults (empty for a yes/no option, for ``players`` itself, or without players)."""
    if name == PLAYERS:
        return {}
    defaults = get_game(game_name).rules_type()
    found: dict[int, tuple[int, int]] = {}
    for players in player_counts(game_name):
        try:
            rules = defaults.replace(**{PLAYERS: players})
        except OptionError:
            continue
        limits = bounds(rules, name)
        if limits is None:
            return {}
        found[players] = limits
    return found


@functools.cache
def limits(game_name: str, name: str) -> tuple[int, int] | None:
    """The smallest and largest whole numbers option ``name`` accepts for some player count
    (the other options at their defaults), or None for a yes/no option."""
    by_players = bounds_by_players(game_name, name)
    if by_players:
        return min(low for low, _ in by_players.values()), max(
            high for _, high in by_players.values()
        )
    return bounds(get_game(game_name).rules_type(), name)


def depends_on_players(game_name: str, name: str) -> bool:
    """Whether option ``name``'s bounds change with the player count."""
    return len(set(bounds_by_players(game_name, name).values())) > 1


# --- The same in words ----------------------------------------------------------------


def value_text(value: object, null: str = "auto") -> str:
    """An option's value as typed on the command line (``true``, ``30``, ``auto``)."""
    if value is None:
        return null
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def allowed_text(game_name: str, name: str, null: str = "auto (the rules choose)") -> str:
    """What option ``name`` accepts with the other options at their defaults, in the
    engine's words, None written ``null`` (e.g. ``auto (the rules choose) or an integer
    from 5 to 30``)."""
    what = allowed(get_game(game_name).rules_type(), name)
    return what.replace("null or ", f"{null} or ", 1) if what.startswith("null or ") else what


def players_note(game_name: str, name: str) -> str:
    """How option ``name``'s bounds change with the player count, e.g. ``5 to 30 with 2-4
    players; 5 to 27 with 5 players; 5 to 22 with 6 players`` ("" when they do not)."""
    if not depends_on_players(game_name, name):
        return ""
    groups: list[tuple[int, int, tuple[int, int]]] = []
    for players, found in bounds_by_players(game_name, name).items():
        if groups and groups[-1][2] == found:
            groups[-1] = (groups[-1][0], players, found)
        else:
            groups.append((players, players, found))
    return "; ".join(
        f"{low_high[0]} to {low_high[1]} with "
        + (f"{first}-{last} players" if first != last else f"{first} players")
        for first, last, low_high in groups
    )


def options_table(
    game_name: str,
    heading: str,
    *,
    label: Callable[[OptionSpec], str] = lambda spec: spec.name,
    null: str = "auto",
    null_meaning: str = "auto (the rules choose)",
) -> str:
    """A listing of a game's options under ``heading``: each option's ``label`` (its name,
    or its flag), what it accepts, its default, how its limits follow the player count,
    and its meaning. ``null`` writes None (``auto`` on the command line, ``null`` in
    JSON), ``null_meaning`` says what it does."""
    lines = [heading]
    for spec in option_specs(game_name):
        what = allowed_text(game_name, spec.name, null_meaning)
        lines.append(f"  {label(spec):<22} {what}; default {value_text(spec.default, null)}")
        for note in (players_note(game_name, spec.name), spec.meaning.replace("``", "")):
            if note:
                lines += textwrap.wrap(
                    note, 79, initial_indent=" " * 25, subsequent_indent=" " * 25
                )
    return "\n".join(lines)
