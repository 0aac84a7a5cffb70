"""The Skip-Bo lesson: one step per rule of the sheet (sheet 000; Italian team play from
sheet 003, the only Italian text of it), the learner at seat 0.

Each position is written as the cards it is about; :mod:`.positions` adds the rest of
the deck and the engine reads it back. The patterns are the moves' JSON forms
(:mod:`cardtable.skipbo.moves`): piles count from 0.
"""

from __future__ import annotations

from .positions import skipbo_snapshot
from .steps import Expect, Lesson, Step

#: Two players, short stocks; the learner starts.
TWO = {"players": 2, "stock_size": 10, "first_player": 0}
#: Two teams of two: seats 0 and 2 against 1 and 3.
TEAMS = {"players": 4, "stock_size": 10, "teams": True, "first_player": 0}
#: A match of rounds to 500 points.
ROUNDS = {**TWO, "rounds": True}

SHEET = {"fr": "000", "de": "000", "en": "000", "it": "000"}
#: The Italian text of sheet 000 stops before team play; sheet 003 (Italian) has it.
TEAM_SHEETS = {**SHEET, "it": "003"}

OTHER_HAND = [2, 4, 6, 8, 10]


def play_stock(**fields: object) -> Expect:
    return Expect(({"type": "play_stock", **fields},))


def play_hand(card: int, pile: int) -> Expect:
    return Expect(({"type": "play_hand", "card": card, "pile": pile},))


STEPS = (
    Step(
        name="stock",
        snapshot=skipbo_snapshot(
            rules=TWO,
            hands=[[5, 7, 9, 10, 11], OTHER_HAND],
            stocks=[[3, 8, 1], [4, 9, 2, 6]],
        ),
        learner=0,
        script=(play_stock(partner=False),),
        sources=SHEET,
    ),
    Step(
        name="build",
        snapshot=skipbo_snapshot(
            rules=TWO,
            hands=[[2, 3, 8, 9, 10], OTHER_HAND],
            stocks=[[7, 11, 6], [4, 9, 2, 12]],
            building=[[1]],
        ),
        learner=0,
        script=(play_hand(2, 0), play_hand(3, 0)),
        sources=SHEET,
    ),
    Step(
        name="wild",
        snapshot=skipbo_snapshot(
            rules=TWO,
            hands=[[0, 8, 9, 10, 11], OTHER_HAND],
            stocks=[[3, 6], [4, 9, 2, 12]],
            building=[[1, 2, 3, 4]],
        ),
        learner=0,
        script=(play_hand(0, 0), play_stock(pile=0)),
        sources=SHEET,
    ),
    Step(
        name="discard",
        snapshot=skipbo_snapshot(
            rules=TWO,
            hands=[[7, 8, 9, 11, 12], OTHER_HAND],
            stocks=[[5, 10], [4, 9, 2, 12]],
            building=[[1, 2], [1, 2, 3, 4, 5]],
            discards=[[[4]]],
        ),
        learner=0,
        script=(Expect(({"type": "discard", "card": 12, "partner": False},)),),
        sources=SHEET,
    ),
    Step(
        name="refill",
        snapshot=skipbo_snapshot(
            rules=TWO,
            hands=[[4], OTHER_HAND],
            stocks=[[5, 12], [4, 9, 2, 11]],
            building=[[1, 2, 3]],
            draw_next=[5, 6, 9, 10, 0],
        ),
        learner=0,
        script=(play_hand(4, 0),),
        sources=SHEET,
    ),
    Step(
        name="complete",
        snapshot=skipbo_snapshot(
            rules=TWO,
            hands=[[3, 5, 7, 9, 10], OTHER_HAND],
            stocks=[[4, 12], [4, 9, 2, 11]],
            building=[[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]],
        ),
        learner=0,
        script=(play_stock(pile=0),),
        sources=SHEET,
    ),
    Step(
        name="team",
        snapshot=skipbo_snapshot(
            rules=TEAMS,
            hands=[[5, 6, 8, 10, 11], OTHER_HAND, OTHER_HAND, OTHER_HAND],
            stocks=[[7, 9], [4, 12], [8, 3], [5, 11]],
            building=[[1, 2]],
        ),
        learner=0,
        script=(play_stock(pile=0, partner=True),),
        sources=TEAM_SHEETS,
    ),
    Step(
        name="rounds",
        snapshot=skipbo_snapshot(
            rules=ROUNDS,
            hands=[[5, 8, 9, 10, 11], OTHER_HAND],
            stocks=[[7], [3, 5, 8, 10, 12]],
            building=[[1, 2, 3, 4, 5, 6]],
            scores=[0, 0],
        ),
        learner=0,
        script=(play_stock(pile=0, partner=False),),
        sources=SHEET,
    ),
)

LESSON = Lesson(game="skipbo", steps=STEPS)
