"""The Skyjo lesson: one step per rule of sheet 004 (all four languages), the learner at
seat 0 against one other player.

Grids are written row by row (positions 0..11, ``pos // 4`` the row): a number is a
face-up card, ``Down(n)`` a face-down one. The patterns are the moves' JSON forms
(:mod:`cardtable.skyjo.moves`).
"""

from __future__ import annotations

from .positions import Down, skyjo_snapshot
from .steps import Expect, Lesson, Step

TWO = {"players": 2}
SHEET = {"fr": "004", "de": "004", "en": "004", "it": "004"}

DRAW = Expect(({"type": "draw"},))
TAKE = Expect(({"type": "take_discard"},))
#: The other player's move after the learner's: the lesson makes it (the lowest position).
OTHER_DRAWS = Expect(({"type": "draw"},), auto=True)
OTHER_DISCARDS = Expect(({"type": "discard_and_reveal"},), auto=True)


def exchange(pos: int) -> Expect:
    return Expect(({"type": "exchange", "pos": pos},))


D = Down

STEPS = (
    Step(
        name="setup",
        snapshot=skyjo_snapshot(
            rules=TWO,
            phase="setup",
            starter=None,
            grids=[
                [D(4), D(9), D(0), D(7), D(-1), D(3), D(11), D(2), D(6), D(5), D(8), D(1)],
                [D(10), D(2), D(5), D(12), D(3), D(-2), D(7), D(0), D(9), D(1), D(4), D(6)],
            ],
            discard=[6],
        ),
        learner=0,
        script=(
            Expect(({"type": "reveal"},)),
            Expect(({"type": "reveal"},)),
            Expect(({"type": "reveal"},), auto=True),
            Expect(({"type": "reveal"},), auto=True),
        ),
        sources=SHEET,
        free_choice=True,
    ),
    Step(
        name="take",
        snapshot=skyjo_snapshot(
            rules=TWO,
            grids=[
                [10, D(4), D(6), D(1), D(8), 3, D(0), D(9), D(5), D(2), D(7), D(11)],
                [D(3), 9, D(1), D(6), D(12), D(0), 7, D(2), D(4), D(8), D(5), D(10)],
            ],
            discard=[5, -2],
            turns=2,
        ),
        learner=0,
        script=(TAKE, exchange(0)),
        sources=SHEET,
    ),
    Step(
        name="exchange",
        snapshot=skyjo_snapshot(
            rules=TWO,
            grids=[
                [D(3), D(6), 11, D(1), D(8), D(-1), D(5), D(7), D(2), 4, D(10), D(9)],
                [D(4), 8, D(1), D(6), 2, D(0), D(12), D(3), D(7), D(8), D(5), 5],
            ],
            discard=[9],
            draw_next=[0],
            turns=4,
        ),
        learner=0,
        script=(DRAW, exchange(2)),
        sources=SHEET,
    ),
    Step(
        name="discard",
        snapshot=skyjo_snapshot(
            rules=TWO,
            grids=[
                [1, 2, D(6), D(9), 0, D(3), D(7), D(4), D(10), D(5), D(8), D(-1)],
                [D(2), 6, D(1), 9, D(4), D(0), 3, D(11), D(7), D(5), 8, D(2)],
            ],
            discard=[5],
            draw_next=[12],
            turns=6,
        ),
        learner=0,
        script=(DRAW, Expect(({"type": "discard_and_reveal"},))),
        sources=SHEET,
    ),
    Step(
        name="column",
        snapshot=skyjo_snapshot(
            rules=TWO,
            grids=[
                [3, 7, D(1), D(10), D(6), 7, D(4), D(2), D(8), 9, D(0), D(5)],
                [D(5), 4, D(11), 2, D(1), 6, D(0), D(3), 8, D(12), D(9), 1],
            ],
            discard=[2, 7],
            turns=8,
        ),
        learner=0,
        script=(TAKE, exchange(9)),
        sources=SHEET,
    ),
    Step(
        name="close",
        snapshot=skyjo_snapshot(
            rules=TWO,
            grids=[
                [0, 1, -1, 2, 1, 0, 3, -2, 2, 0, 1, D(2)],
                [4, D(5), 3, D(6), D(2), 8, D(1), 6, 3, D(7), 5, D(0)],
            ],
            discard=[4, -1],
            draw_next=[8],
            turns=20,
        ),
        learner=0,
        script=(TAKE, exchange(11), OTHER_DRAWS, OTHER_DISCARDS),
        sources=SHEET,
    ),
    Step(
        name="doubling",
        snapshot=skyjo_snapshot(
            rules=TWO,
            grids=[
                [3, 6, 4, 2, 3, 2, 1, 5, 1, 4, 0, D(10)],
                [0, D(1), -1, 2, D(0), 1, 3, D(-2), 2, 0, D(1), 1],
            ],
            discard=[8, 12],
            draw_next=[6, 5],
            turns=22,
        ),
        learner=0,
        script=(
            DRAW,
            exchange(11),
            OTHER_DRAWS,
            OTHER_DISCARDS,
        ),
        sources=SHEET,
    ),
    Step(
        name="end",
        snapshot=skyjo_snapshot(
            rules=TWO,
            grids=[
                [1, 0, -1, 2, 0, 1, -2, 3, 2, 0, 1, D(4)],
                [3, D(2), 1, D(4), 2, D(1), 0, D(3), 2, 1, D(0), 1],
            ],
            discard=[3, 0],
            draw_next=[7],
            totals=[61, 92],
            turns=24,
        ),
        learner=0,
        script=(TAKE, exchange(11), OTHER_DRAWS, OTHER_DISCARDS),
        sources=SHEET,
    ),
)

LESSON = Lesson(game="skyjo", steps=STEPS)
