"""Practice deals for the coach's tests: deals, played as the server plays them, where the
coach (its verdicts fixed by one seed) is silent on one move and speaks on the next."""

from __future__ import annotations

from typing import Any

from cardtable.bots import coaching
from cardtable.bots.review import MEASURES
from cardtable.core import Rng
from cardtable.games import get_game
from cardtable.server.rooms.bot_seats import choose_job, judge_job
from cardtable.skipbo.moves import DISCARD_BASE, STOCK_BASE
from cardtable.skyjo.moves import DRAW, EXCHANGE, REVEAL, TAKE_DISCARD
from cardtable.skyjo.position import TURN

#: The seed of every random choice of the coach in these tests (``coach.new_seed``):
#: the verdicts are then the same in the test and on the server.
JUDGE_SEED = 20_261_207
SKYJO = {"players": 2}
#: The coached Skip-Bo table: stocks of 5, so one stock card is worth much of the round
#: (the table's first player is the person, who moves before any bot).
SKIPBO = {"players": 2, "stock_size": 5, "first_player": 0}


def to_first_turn(seed: int, setup: tuple[int, int] = (0, 1)) -> Any:
    """The deal ``seed`` played as the server plays it up to the player's first turn: the
    player (seat 0) turns up the positions ``setup``, the greedy bot (seat 1) plays its
    moves."""
    game = get_game("skyjo")
    state = game.new_state(game.rules_from_json(SKYJO), seed)
    turned = iter(setup)
    while state.current_player != 0 or state.phase != TURN:
        seat = state.current_player
        if seat == 0:
            action = REVEAL + next(turned)
        else:
            action = choose_job("skyjo", "greedy", state.clone(), seed)
        state.apply_action(action)
    return state


def coach_speaks(state: Any, action: int) -> bool:
    """Whether the coach, its random choices fixed by ``JUDGE_SEED``, calls seat 0's
    ``action`` in ``state`` clearly worse (the same calls as the server's)."""
    world = state.determinize(0, Rng(JUDGE_SEED))
    verdict = judge_job(world, 0, action, JUDGE_SEED)
    measure = MEASURES[state.game.name]
    return verdict is not None and coaching.clearly_worse(measure, verdict)


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


def twelve_over_a_zero_deal() -> tuple[int, int, int]:
    """A Skyjo deal where the player turns up a 0 and another card, draws a 12 from the
    pile at their first turn, and the coach is silent on the draw and speaks when the 12
    goes over the 0. Returns the deal's seed, the 0's position and the other card's
    (in another column, so the 12 completes nothing)."""
    game = get_game("skyjo")
    for seed in range(1, 3000):
        grid = game.new_state(game.rules_from_json(SKYJO), seed).cards[:12]
        zeros = [pos for pos in range(12) if grid[pos] == 0]
        if not zeros:
            continue
        zero = zeros[0]
        other = (zero + 1) % 4  # the first row of the next column
        state = to_first_turn(seed, (zero, other))
        if state.draw[-1] != 12 or coach_speaks(state, DRAW):
            continue
        state.apply_action(DRAW)
        if coach_speaks(state, EXCHANGE + zero):
            return seed, zero, other
    raise AssertionError("no deal with a 12 to draw over a 0 found")


def discard_while_the_stock_plays_deal() -> tuple[int, int]:
    """A Skip-Bo deal (:data:`SKIPBO`) whose first move is the player's, their stock's top
    plays onto a building pile, and the coach speaks when they discard a hand card
    instead. Returns the deal's seed and the card discarded (onto discard pile 1)."""
    game = get_game("skipbo")
    rules = game.rules_from_json(SKIPBO)
    for seed in range(1, 500):
        state = game.new_state(rules, seed)
        legal = state.legal_actions()
        if state.current_player != 0 or not any(STOCK_BASE <= a < STOCK_BASE + 4 for a in legal):
            continue
        for card in range(13):
            if state.hands[0][card] and coach_speaks(state, DISCARD_BASE + 4 * card):
                return seed, card
    raise AssertionError("no deal with a discard while the stock plays found")
