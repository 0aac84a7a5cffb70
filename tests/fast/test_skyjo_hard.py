"""The compiled Skyjo hard bot chooses what HardBot chooses, move by move."""

from __future__ import annotations

import inspect
import random

import numpy as np
import pytest

from cardtable.bots.skyjo_hard import HardBot
from cardtable.core import Rng
from cardtable.fast import skyjo_hard as fast_hard
from cardtable.fast import skyjo_kernels as k
from cardtable.fast.skyjo_batch import SkyjoBatch
from cardtable.fast.skyjo_check import cross_check
from cardtable.skyjo import GAME, SkyjoRules

from .test_skyjo_batch import IDS, RULE_SETS, assert_agrees


def check_hard(rules: SkyjoRules, seeds, bot: HardBot | None = None, **options):
    bot = bot or HardBot()
    return cross_check(
        rules, seeds, bot="hard", choose=bot.choose, params=fast_hard.hard_params(bot), **options
    )


@pytest.mark.parametrize("rules", RULE_SETS, ids=IDS)
def test_hard_sample_chooses_as_the_python_bot(rules: SkyjoRules) -> None:
    """Every run: a few games per rule set, hard in every seat, each choice compared."""
    report = check_hard(rules, range(500, 506), full=True)
    assert_agrees(report)
    assert report.games == 6 and report.moves > 6 * 50


def test_hard_with_other_weights_chooses_as_the_python_bot() -> None:
    """Weights that make the doubling fear fade early (``0.5 ** x`` on every going out),
    reward taking the discard and build pairs greedily: still the same choices."""
    bot = HardBot(patience=1.0, fear_halving=1.5, take_margin=-0.75, pair_weight=1.3)
    report = check_hard(SkyjoRules(players=3), range(20), bot)
    assert_agrees(report)
    assert report.doubled_rounds > 0


@pytest.mark.crosscheck
@pytest.mark.parametrize("rules", RULE_SETS, ids=IDS)
def test_hard_cross_check_ten_thousand_games(rules: SkyjoRules) -> None:
    """10,000 games per rule set, every choice of every seat compared (the Python bot
    sets the pace: about 7,000 moves a second)."""
    report = check_hard(rules, range(10_000))
    assert_agrees(report)
    assert report.games == 10_000


def test_a_different_choice_is_reported_with_its_seed_and_step() -> None:
    """A Python bot that takes the discard where hard draws: the first such turn is
    named, with its seed and step."""
    hard = HardBot()
    rules = SkyjoRules(players=2)

    def contrary(state, rng):
        choice = hard.choose(state, rng)
        if state.phase == k.TURN and len(state.history) > 30:
            return 1 - choice  # DRAW <-> TAKE_DISCARD
        return choice

    report = cross_check(
        rules, [8, 9], bot="hard", choose=contrary, params=fast_hard.hard_params(hard)
    )
    mismatch = report.mismatch
    assert mismatch is not None and mismatch.seed == 8 and mismatch.what == "bot choice"
    assert mismatch.step > 30
    state = GAME.replay(rules, 8, list(mismatch.actions[: mismatch.step]))
    assert state.phase == k.TURN
    assert "seed 8" in str(mismatch) and f"step {mismatch.step}" in str(mismatch)


def test_the_parameters_are_every_weight_of_hard_in_order() -> None:
    weights = [name for name in inspect.signature(HardBot.__init__).parameters if name != "self"]
    assert list(fast_hard.WEIGHTS) == weights
    params = fast_hard.hard_params(HardBot(deny_free=3.5))
    assert params.shape == (fast_hard.PARAMS,)
    assert params[fast_hard.P_DENY_FREE] == 3.5
    assert params[fast_hard.P_HALF] == 0.5 and params[fast_hard.P_TWO] == 2.0


def test_the_cross_check_refuses_a_bot_it_cannot_compare() -> None:
    rules = SkyjoRules(players=2)
    with pytest.raises(ValueError, match="bot must be one of random, greedy, hard"):
        cross_check(rules, [1], bot="expert")
    with pytest.raises(ValueError, match="needs choose"):
        cross_check(rules, [1], bot="hard")
    with pytest.raises(ValueError, match="needs params"):
        cross_check(rules, [1], bot="hard", choose=HardBot().choose)


def test_the_compiled_model_is_the_python_model_to_the_last_bit() -> None:
    """The unseen cards' count, mean and variance (``(v - mean) ** 2`` is the C
    library's ``pow``, not ``x * x``: they differ in the last bit for some ``x``), the
    own value and the rivals' estimates and spreads, at every move of random games."""
    from cardtable.bots.skyjo_hard import _Model

    rules = SkyjoRules(players=3)
    bot = HardBot(patience=0.0)
    params, work = fast_hard.hard_params(bot), fast_hard.work_array()
    batch = SkyjoBatch(rules, 1)
    rng = random.Random(3)
    compared = closing = 0
    for seed in range(12):
        batch.reset([seed])
        state = GAME.new_state(rules, seed)
        while not state.is_over:
            seat = state.player
            fast_hard._build_model(batch.st, batch.cfg, 0, seat, params, work)
            model = _Model(state, seat, bot)
            assert work[fast_hard.W_POOL] == model.pool
            assert work[fast_hard.W_MEAN] == model.mean
            assert work[fast_hard.W_VAR] == model.var
            assert work[fast_hard.W_NOW] == model.now
            if work[fast_hard.W_RIVALS]:
                model.closing_value(0.0)  # fills in the rivals
                rivals = int(work[fast_hard.W_RIVALS])
                estimates = work[fast_hard.W_ESTIMATE : fast_hard.W_ESTIMATE + rivals]
                spreads = work[fast_hard.W_SPREAD : fast_hard.W_SPREAD + rivals]
                assert list(zip(estimates.tolist(), spreads.tolist(), strict=True)) == model.rivals
                assert work[fast_hard.W_NEAREST] == model.nearest
                assert work[fast_hard.W_FEAR] == bot.doubling_fear(state)
                closing += 1
            compared += 1
            action = rng.choice(state.legal_actions())
            state.advance(action)
            batch.step([action])
    assert compared > 1000 and closing > 10


def test_a_game_of_hard_is_played_in_the_batch_as_the_reference_plays_it() -> None:
    """hard_action on a batch stepped from outside, as a caller other than the
    tournament would use it, with one generator per game."""
    rules = SkyjoRules(players=4)
    seeds = [3, 4]
    batch = SkyjoBatch(rules, len(seeds))
    batch.reset(seeds)
    rngs = np.array([77, 78], dtype=np.uint64)
    params, work = fast_hard.hard_params(HardBot()), fast_hard.work_array()
    states = [GAME.new_state(rules, seed) for seed in seeds]
    python_rngs = [Rng(77), Rng(78)]
    bot = HardBot()
    while not batch.is_over.all():
        actions = []
        for b, state in enumerate(states):
            if state.is_over:
                actions.append(-1)
                continue
            action = int(fast_hard.hard_action(batch.st, batch.cfg, b, rngs, b, params, work))
            assert action == bot.choose(state, python_rngs[b])
            state.advance(action)
            actions.append(action)
        live = [b for b, action in enumerate(actions) if action >= 0]
        batch.step([actions[b] for b in live], live)
    for b, state in enumerate(states):
        assert batch.result(b) == state.result()
