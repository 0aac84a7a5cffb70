"""A game's rules options for the terminal: flags, help and typed values.

What each option is and allows comes from :mod:`cardtable.rules_options` (each rules
field's own description, the one the engine validates with, never listed by hand); this module
adds what is the terminal's own: the words a value may be typed as, the ``--help``
listing and each flag's help line. ``cardtable play`` builds its flags and help from
here, and the lobby's option editor its rows, so a new option appears in both at once.
"""

from __future__ import annotations

from ..games import get_game
from ..rules_options import (
    OptionSpec,
    all_option_names,
    allowed,
    allowed_text,
    bounds,
    option_specs,
    spec_of,
    value_text,
)
from ..rules_options import options_table as _options_table

__all__ = [
    "FALSE_WORDS",
    "NULL_WORDS",
    "TRUE_WORDS",
    "OptionSpec",
    "all_option_names",
    "allowed",
    "bounds",
    "flag_help",
    "option_specs",
    "options_table",
    "parse_value",
    "spec_of",
    "value_text",
]

#: Texts read as yes/no (case-insensitive) for a yes/no option.
TRUE_WORDS = ("true", "yes", "on", "1")
FALSE_WORDS = ("false", "no", "off", "0")
#: Texts read as "no value" (the engine's own choice) for an option that may be null.
NULL_WORDS = ("null", "none", "auto", "default")


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


def options_table(game_name: str) -> str:
    """The help listing of a game's options: flag, allowed values, default and meaning."""
    title = get_game(game_name).title
    return _options_table(
        game_name,
        f"{title} options (the flag, or --option NAME=VALUE):",
        label=lambda spec: spec.flag,
    )


def flag_help(spec: OptionSpec) -> str:
    """A flag's line in ``--help``: the game, what it accepts and its default."""
    return f"{allowed_text(spec.game, spec.name, 'auto')}, default {value_text(spec.default)}"
