"""Playing a lesson step: the learner's moves checked against the engine and the script.

:func:`run_step` rebuilds the step's position from its snapshot and replays the moves the
learner made in it, so a step is the same wherever and whenever it is played (a reload
resumes it from the moves the browser kept). Each move must be legal for the engine
(else :class:`IllegalStepMoveError`, with the engine's own refusal) and
expected by the script (else the step stops there, the position as it was before that
move, and says why with the step's ``wrong`` text). The other seats' scripted moves are
made as they come up.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from ..core import JSON, GameState, IllegalMoveError, Outcome
from ..games import get_game
from .steps import Expect, Lesson, Step, matches


class LessonError(ValueError):
    """A request a lesson cannot answer: ``field`` names what was wrong."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(reason)
        self.field = field
        self.reason = reason


class IllegalStepMoveError(IllegalMoveError):
    """The engine's refusal of a move of the learner's (its ``reason`` and ``refusal``),
    with the move in its JSON form and how many moves were made before it."""

    def __init__(self, error: IllegalMoveError, move: JSON, made: int) -> None:
        super().__init__(error.reason, error.refusal)
        self.move = move
        self.made = made


@dataclasses.dataclass
class StepRun:
    """Where the learner is in a step.

    ``made``: how many of the given moves were accepted (the learner's own);
    ``refused``: the move (action code) refused as not the one taught, if any;
    ``outcomes``: what every move made so far did, the scripted ones included.
    """

    state: GameState[Any]
    made: int
    done: bool
    refused: int | None
    outcomes: list[Outcome[Any]]


def accepted_actions(state: GameState[Any], expect: Expect) -> list[int]:
    """The legal action codes of ``state`` that ``expect`` accepts, ascending."""
    game = state.game
    found = []
    for code in state.legal_actions():
        move = game.decode(code)
        as_json = move.to_json()
        if any(matches(as_json, pattern) for pattern in expect.patterns):
            found.append(code)
    return found


def start(lesson: Lesson, step: Step) -> tuple[GameState[Any], list[Outcome[Any]], int]:
    """The step's position with the scripted moves that come before the learner's:
    the state, their outcomes, and where the script stands."""
    state = get_game(lesson.game).state_from_json(step.snapshot)
    outcomes: list[Outcome[Any]] = []
    return state, outcomes, _autos(state, step.script, 0, outcomes)


def _autos(
    state: GameState[Any], script: Sequence[Expect], index: int, outcomes: list[Outcome[Any]]
) -> int:
    while index < len(script) and script[index].auto:
        chosen = accepted_actions(state, script[index])
        if not chosen:
            raise AssertionError(f"scripted move {index} is not legal in the lesson position")
        outcomes.append(state.apply_action(chosen[0]))
        index += 1
    return index


def run_step(lesson: Lesson, number: int, moves: Sequence[int]) -> StepRun:
    """Step ``number`` (from 0) of ``lesson`` after the learner's ``moves`` (action codes).

    Raises :class:`LessonError` for a step that does not exist or more moves than the
    step takes, and :class:`IllegalStepMoveError` (the engine's refusal) for an illegal move
    (nothing is played past it)."""
    if not 0 <= number < len(lesson.steps):
        raise LessonError("step", f"step is a number from 0 to {len(lesson.steps) - 1}")
    step = lesson.steps[number]
    if len(moves) > step.learner_moves():
        raise LessonError("moves", f"this step takes {step.learner_moves()} moves")
    state, outcomes, index = start(lesson, step)
    game = state.game
    for made, code in enumerate(moves):
        if isinstance(code, bool) or not (isinstance(code, int) and 0 <= code < game.num_actions):
            raise LessonError("moves", f"a move is an action code from 0 to {game.num_actions - 1}")
        if not state.is_legal_action(code):
            move = game.decode(code)
            raise IllegalStepMoveError(state.illegal_move_error(move), move.to_json(), made)
        if code not in accepted_actions(state, step.script[index]):
            return StepRun(state, made, False, code, outcomes)
        outcomes.append(state.apply_action(code))
        index = _autos(state, step.script, index + 1, outcomes)
    return StepRun(state, len(moves), index == len(step.script), None, outcomes)
