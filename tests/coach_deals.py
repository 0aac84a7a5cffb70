"""Practice deals for the coach's tests: a Skyjo deal, played as the server plays it, where
the coach (its verdicts fixed by one seed) is silent on one move and speaks on the next."""

from __future__ import annotations

from typing import Any

from cardtable.bots import coaching
from cardtable.core import Rng
from cardtable.games import get_game
from cardtable.server.rooms.bot_seats import choose_job, judge_job
from cardtable.skyjo.moves import EXCHANGE, TAKE_DISCARD
from cardtable.skyjo.position import TURN

#: The seed of every random choice of the coach in these tests (``coach.new_seed``):
#: the verdicts are then the same in the test and on the server.
JUDGE_SEED = 20_261_207
SKYJO = {"players": 2}


def to_first_turn(seed: int) -> Any:
    """The deal ``seed`` played as the server plays it up to the player's first turn: the
    player (seat 0) turns up positions 0 and 1, the greedy bot (seat 1) plays its moves."""
    game = get_game("skyjo")
    state = game.new_state(game.rules_from_json(SKYJO), seed)
    while state.current_player != 0 or state.phase != TURN:
        seat = state.current_player
        if seat == 0:
            action = min(state.legal_actions())
        else:
            action = choose_job("skyjo", "greedy", state.clone(), seed)
        state.apply_action(action)
    return state


def coach_speaks(state: Any, action: int) -> bool:
    """Whether the coach, its random choices fixed by ``JUDGE_SEED``, calls seat 0's
    ``action`` in ``state`` clearly worse (the same calls as the server's)."""
    world = state.determinize(0, Rng(JUDGE_SEED))
    verdict = judge_job(world, 0, action, JUDGE_SEED)
    return verdict is not None and coaching.clearly_worse("round_points", verdict)


def practice_deal() -> tuple[int, int]:
    """A deal where, at the player's first turn, the coach is silent when the player takes
    the discard's top and speaks when they put it over one of their two face-up cards
    (which shows nothing hidden, so it may be taken back). Returns the deal's seed and
    that card's position."""
    for seed in range(1, 500):
        state = to_first_turn(seed)
        if coach_speaks(state, TAKE_DISCARD):
            continue
        state.apply_action(TAKE_DISCARD)
        for pos in (0, 1):
            if coach_speaks(state, EXCHANGE + pos):
                return seed, pos
    raise AssertionError("no practice deal found")
