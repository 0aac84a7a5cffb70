"""What a lesson is made of, as data: steps, each a position and the moves it teaches.

A step names its texts by catalog key (``lesson.<game>.<step>.title``, ``.do``,
``.quote``, ``.wrong``, ``.done``; :func:`text_keys`), so every client words it in its
player's language. Its position is a full engine snapshot (built by
:mod:`cardtable.lessons.positions`), and each expected move is a *pattern*: the fields a
move's JSON form must have (``{"type": "play_stock"}`` is any play from the stock, to
any building pile). Which moves are legal is only ever the engine's answer.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from ..core import JSON

#: The parts of a step's text, each a catalog key ``lesson.<game>.<step>.<part>``.
TEXT_PARTS = ("title", "do", "quote", "done")
#: A step that refuses some legal move explains why with this part.
WRONG_PART = "wrong"
#: A quote taken from no sheet of the player's language: the project's translation.
PROJECT_TRANSLATION = "project"


@dataclasses.dataclass(frozen=True)
class Expect:
    """One move of a step's script.

    ``patterns``: a legal move matching any of them is accepted (a pattern is the fields
    its JSON form must have). ``auto``: the move is made for the other seat by the
    lesson itself (the first legal move that matches), not by the learner.
    """

    patterns: tuple[Mapping[str, Any], ...]
    auto: bool = False


@dataclasses.dataclass(frozen=True)
class Step:
    """One rule of the sheet, taught in one position.

    ``sources`` names, per language, the rule sheet the quote is taken from (a file of
    ``shared/seeds``, as ``docs/rules`` numbers them) or :data:`PROJECT_TRANSLATION`.
    ``free_choice``: every legal move is right (the sheet leaves the choice to the
    player), so the step has no wrong move and no ``wrong`` text.
    """

    name: str
    snapshot: JSON
    learner: int
    script: tuple[Expect, ...]
    sources: Mapping[str, str]
    free_choice: bool = False

    def learner_moves(self) -> int:
        """How many moves of the script the learner makes."""
        return sum(not expect.auto for expect in self.script)


@dataclasses.dataclass(frozen=True)
class Lesson:
    """A game's lesson: its steps in order, and the rules of the first real game."""

    game: str
    steps: tuple[Step, ...]

    def text_keys(self, step: Step) -> dict[str, str]:
        return text_keys(self.game, step)


def text_keys(game: str, step: Step) -> dict[str, str]:
    """The catalog key of each text part of ``step`` (``wrong`` unless a free choice)."""
    parts = TEXT_PARTS if step.free_choice else (*TEXT_PARTS, WRONG_PART)
    return {part: f"lesson.{game}.{step.name}.{part}" for part in parts}


def matches(move_json: Mapping[str, Any], pattern: Mapping[str, Any]) -> bool:
    """Whether a move's JSON form has every field of ``pattern``."""
    return all(move_json.get(key) == value for key, value in pattern.items())
