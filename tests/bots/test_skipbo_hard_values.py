"""``hard``'s value of each legal Skip-Bo move (:mod:`cardtable.bots.skipbo_hard_values`),
the prior of the learned bot's residual policy: ``hard``'s own move is always valued
best, every play has the value of the best line it starts, discards rank as ``hard``
ranks them, and the prior row is bounded and zero where ``hard`` values nothing."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from cardtable.bots.skipbo_hard import (  # noqa: E402
    HARD_WEIGHTS,
    HardBot,
    discard_options,
    frozen,
    plan_step_action,
)
from cardtable.bots.skipbo_hard_values import (  # noqa: E402
    DISCARD_WEIGHT,
    FLOOR,
    ValuingPlanner,
    move_values,
    play_step,
    prior_row,
)
from cardtable.core import Rng  # noqa: E402
from cardtable.skipbo import GAME  # noqa: E402
from cardtable.skipbo.moves import (  # noqa: E402
    DISCARD_BASE,
    DISCARD_PLAY_BASE,
    END_TURN,
    NUM_ACTIONS,
    STOCK_BASE,
)
from cardtable.skipbo.rules import SkipBoRules  # noqa: E402
from cardtable.skipbo.state import SkipBoState  # noqa: E402


def _decisions(rules: SkipBoRules, seeds: range) -> Iterator[tuple[SkipBoState, int]]:
    """Every decision of ``hard``-only games, with ``hard``'s move there."""
    hard = HardBot()
    for seed in seeds:
        state = GAME.new_state(rules, seed)
        assert isinstance(state, SkipBoState)
        rng = Rng(seed)
        while not state.is_over:
            action = hard.choose(state, rng)
            yield state, action
            state.advance(action)


def test_hards_move_is_always_valued_best_and_asking_changes_nothing() -> None:
    compared = ties = 0
    for state, action in _decisions(SkipBoRules(players=2, stock_size=30), range(6)):
        before = state.to_json()
        values = move_values(state)
        assert state.to_json() == before
        if len(state.legal_actions()) < 2:
            assert values == {}
            continue
        best = max(values.values())
        assert values[action] == best
        ties += sum(value == best for value in values.values()) > 1
        compared += 1
    assert compared > 1000 and 0 < ties < compared


def test_a_play_is_worth_the_best_line_it_starts_and_equal_piles_are_one_play() -> None:
    checked = twins = 0
    for state, _ in _decisions(SkipBoRules(players=2, stock_size=20), range(3)):
        values = move_values(state)
        if not values:
            continue
        planner = ValuingPlanner(state, state.current)
        planner.search()
        for action in state.legal_actions():
            if action >= DISCARD_BASE:
                continue
            first = play_step(state, action)
            assert values[action] == planner.by_first[first]
            # The planner plays onto the first pile that needs the card: equal piles
            # are the same play.
            canonical = plan_step_action(state, first)
            assert values[canonical] == values[action]
            twins += canonical != action
            checked += 1
            if STOCK_BASE <= action < DISCARD_PLAY_BASE:
                assert values[action] > HARD_WEIGHTS.stock_played - 200
    assert checked > 500 and twins > 0


def test_discards_rank_as_hard_ranks_them_below_stopping_now() -> None:
    checked = 0
    for state, _ in _decisions(SkipBoRules(players=2, stock_size=20), range(3)):
        values = move_values(state)
        legal = state.legal_actions()
        if not values or not any(DISCARD_BASE <= a < END_TURN for a in legal):
            continue
        planner = ValuingPlanner(state, state.current)
        planner.search()
        stop = planner.by_first[None]
        ranked = discard_options(state, state.current, legal)
        top = ranked[0][0]
        for score, action in ranked:
            assert values[action] == stop - DISCARD_WEIGHT * (top - score)
        assert values[ranked[0][1]] == stop
        ignored = {a for a in legal if DISCARD_BASE <= a < END_TURN} - {a for _, a in ranked}
        assert not ignored & set(values)  # a discard hard never considers has no value
        checked += 1
    assert checked > 300


def test_the_prior_row_is_zero_at_the_best_and_floored_below() -> None:
    floored = 0
    for state, action in _decisions(SkipBoRules(players=2, stock_size=30), range(2)):
        row = prior_row(state, NUM_ACTIONS)
        assert row.dtype == np.float32 and row.shape == (NUM_ACTIONS,)
        legal = state.legal_actions()
        illegal = np.ones(NUM_ACTIONS, dtype=bool)
        illegal[legal] = False
        assert not row[illegal].any()
        values = move_values(state)
        if not values:
            assert not row.any()
            continue
        assert row[action] == 0.0 == row.max() and row.min() >= -FLOOR
        best = max(values.values())
        for code in legal:
            expected = -FLOOR if code not in values else max(values[code] - best, -FLOOR)
            assert row[code] == np.float32(expected)
        floored += int((row == -FLOOR).sum())
    assert floored > 0


def _frozen_copy(state: SkipBoState) -> SkipBoState:
    still = state.clone()
    still.completed = []
    still.draw = []
    still.idle = still.n
    return still


def test_where_hard_values_nothing_the_row_is_zero() -> None:
    state = GAME.new_state(SkipBoRules(players=2, stock_size=10), 3)
    assert isinstance(state, SkipBoState)
    still = _frozen_copy(state)
    assert frozen(still) and move_values(still) == {}
    assert not prior_row(still, NUM_ACTIONS).any()
    # A partner's stock top to play (team play): hard plays it whatever else is open.
    # Plays from a partner's discard piles and discards onto them: never valued.
    partner_turns = partner_moves = 0
    rules: Any = SkipBoRules(players=4, teams=True, stock_size=10)
    for position, _ in _decisions(rules, range(4)):
        legal = position.legal_actions()
        if any(STOCK_BASE + 4 <= a < DISCARD_PLAY_BASE for a in legal):
            assert move_values(position) == {}
            partner_turns += 1
            continue
        theirs = [a for a in legal if DISCARD_PLAY_BASE + 16 <= a < DISCARD_BASE or a >= 144]
        theirs = [a for a in theirs if a != END_TURN]
        assert all(play_step(position, a) is None for a in theirs)
        assert not set(theirs) & set(move_values(position))
        partner_moves += len(theirs)
    assert partner_turns > 0 and partner_moves > 0
    over = GAME.new_state(SkipBoRules(players=2, stock_size=5), 1)
    hard, rng = HardBot(), Rng(1)
    while not over.is_over:
        over.advance(hard.choose(over, rng))
    assert move_values(over) == {}  # type: ignore[arg-type]


def test_the_learned_bot_with_a_flat_head_and_the_prior_plays_hards_moves() -> None:
    """Weights whose network adds nothing (a zero output layer) and the prior: the
    ``learned`` bot's move is ``hard``'s or one ``hard`` values as much (the lowest code
    among equal logits)."""
    from cardtable.bots.learned import LearnedBot
    from cardtable.bots.learned_net import PolicyWeights
    from cardtable.encoders.skipbo_obs import ENCODER_VERSION, skipbo_layout

    size = skipbo_layout(2).size
    weights = PolicyWeights(
        game="skipbo",
        players=2,
        encoder_version=ENCODER_VERSION,
        mean=np.zeros(size),
        inv_std=np.ones(size),
        layers=(
            (np.zeros((size, 8)), np.zeros(8)),
            (np.zeros((8, NUM_ACTIONS)), np.zeros(NUM_ACTIONS)),
        ),
        prior="hard",
        prior_scale=4.0,
    )
    bot = LearnedBot("skipbo", HardBot, weights)
    same = compared = 0
    for state, action in _decisions(SkipBoRules(players=2, stock_size=20), range(2)):
        values = move_values(state)
        if not values:
            continue
        choice = bot.choose(state, Rng(0))
        assert values.get(choice) == max(values.values())
        same += choice == action
        compared += 1
    assert compared > 300 and same > 0.7 * compared
