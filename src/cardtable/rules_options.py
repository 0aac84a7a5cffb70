"""Every game's rules options, what each means and what it allows: one source for all clients.

Each rules dataclass describes its fields once (:func:`cardtable.core.option`: default,
meaning, translated label, range, what a yes/no option needs); the engine validates
with that description and this module hands it to the clients: :func:`option_specs`
for what an option *is*, :func:`bounds` and :func:`bounds_by_players` for the range it
accepts with the other options as they stand (Skip-Bo's stock size and first player
follow the player count), :func:`allowed` for the engine's own words. The web page's
options, the terminal's flags and lobby, ``cardtable rules`` and the options tables of
docs/rules are all built from here, so a new option or a changed limit reaches every
client at once. Nothing is read from source text or docstrings.

Imports only ``core`` and ``games`` (which loads the engines); never a client.
"""

from __future__ import annotations

import dataclasses
import functools
import textwrap
from collections.abc import Callable
from typing import Any

from .core import OptionError, RulesBase, option_fields
from .games import game_names, get_game

#: The option that other limits may depend on.
PLAYERS = "players"


@dataclasses.dataclass(frozen=True, slots=True)
class OptionSpec:
    """One rules option: ``kind`` is ``"int"`` or ``"bool"``; ``optional`` when None is
    allowed (the engine then picks, e.g. Skip-Bo's stock size by player count);
    ``label`` is the catalog key of its short label."""

    game: str
    name: str
    kind: str
    optional: bool
    default: Any
    meaning: str
    label: str

    @property
    def flag(self) -> str:
        """The command-line flag of the option: ``end_score`` is ``--end-score``."""
        return "--" + self.name.replace("_", "-")


@functools.cache
def option_specs(game_name: str) -> tuple[OptionSpec, ...]:
    """Every rules option of ``game_name`` in declaration order."""
    return tuple(
        OptionSpec(
            game_name,
            field.name,
            field.kind,
            field.optional,
            field.default,
            field.option.meaning,
            field.option.label,
        )
        for field in option_fields(get_game(game_name).rules_type)
    )


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


def bounds(rules: RulesBase, name: str) -> tuple[int, int] | None:
    """The smallest and largest whole numbers option ``name`` accepts with the other options
    as in ``rules`` (the engine's own description of the field), or None for yes/no."""
    for field in option_fields(type(rules)):
        if field.name == name:
            return field.option.bounds(rules)
    raise KeyError(f"{type(rules).__name__} has no option {name!r}")


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


def requirements_text(game_name: str, name: str) -> str:
    """What an option needs of the others (a yes/no option when on), in the engine's
    words ("" when nothing)."""
    field = next(f for f in option_fields(get_game(game_name).rules_type) if f.name == name)
    return "; ".join(need.english for need in field.option.requires)


def options_markdown(game_name: str) -> str:
    """The options table of docs/rules/GAME.md: option, default, what it accepts (per
    player count where that changes; what a yes/no option needs when on) and meaning,
    written from the rules' own description (a test keeps the docs equal to it)."""
    rows = [("option", "default", "allowed", "meaning")]
    for spec in option_specs(game_name):
        if spec.kind == "bool":
            what = "true or false"
            needs = requirements_text(game_name, spec.name)
            if needs:
                what += f"; true: {needs}"
        else:
            low_high = bounds(get_game(game_name).rules_type(), spec.name)
            assert low_high is not None
            what = players_note(game_name, spec.name) or f"{low_high[0]} to {low_high[1]}"
            if spec.optional:
                what = f"null, or {what}"
            needs = requirements_text(game_name, spec.name)
            if needs:
                what += f"; {needs}"
        default = value_text(spec.default, "null (the rules choose)")
        meaning = spec.meaning.replace("``", "`")
        rows.append((f"`{spec.name}`", default, what, meaning))
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    lines = []
    for number, row in enumerate(rows):
        cells = [cell.ljust(width) for cell, width in zip(row, widths, strict=False)]
        lines.append("| " + " | ".join([*cells, row[3]]) + " |")
        if number == 0:
            lines.append("|" + "|".join("-" * (w + 2) for w in widths) + "|---------|")
    return "\n".join(lines)
