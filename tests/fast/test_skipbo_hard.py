"""The compiled Skip-Bo hard bot chooses what HardBot chooses, move by move."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from cardtable.bots import skipbo_hard as python_hard
from cardtable.bots.skipbo_hard import HARD_WEIGHTS, HardBot, PlanWeights
from cardtable.fast import skipbo_hard as fast_hard
from cardtable.fast.skipbo_check import cross_check
from cardtable.sim.fast_tournament import run_fast_tournament
from cardtable.sim.tournament import run_tournament
from cardtable.skipbo import GAME, SkipBoRules
from cardtable.skipbo.moves import STOCK_BASE

from .test_skipbo_batch import IDS, RULE_SETS, assert_agrees

#: Six seats with stocks of 20 leave 12 cards to draw: tables freeze (nothing to draw,
#: a whole round of turns without a build) and ``hard`` builds its way out of them.
FROZEN_SETS = [
    SkipBoRules(players=6, teams=True, stock_size=20),
    SkipBoRules(players=6, stock_size=20),
]
FROZEN_IDS = ["6p-teams-20", "6p-20"]
TEAMS_MATCH = SkipBoRules(players=4, teams=True, stock_size=8, rounds=True, target=150)


def check_hard(rules: SkipBoRules, seeds, bot: HardBot | None = None, **options):
    bot = bot or HardBot()
    return cross_check(
        rules,
        seeds,
        bot="hard",
        choose=bot.choose,
        params=fast_hard.hard_params(bot.weights),
        **options,
    )


class CountingPlanner(python_hard.TurnPlanner):
    """The Python planner, counting the searches that reached the node limit."""

    limited = 0

    def search(self):
        found = super().search()
        if self.nodes > python_hard._NODE_LIMIT:
            CountingPlanner.limited += 1
        return found


class CountingBot(HardBot):
    """The Python ``hard``, counting its frozen-table decisions."""

    unfrozen = 0

    def __init__(self) -> None:
        super().__init__(planner=CountingPlanner)

    def unfreeze(self, state, builds):
        CountingBot.unfrozen += 1
        return super().unfreeze(state, builds)


@pytest.fixture
def counting():
    CountingPlanner.limited = CountingBot.unfrozen = 0
    return CountingBot()


@pytest.mark.parametrize("rules", RULE_SETS, ids=IDS)
def test_hard_sample_chooses_as_the_python_bot(rules: SkipBoRules) -> None:
    """Every run: a few games per rule set, hard in every seat, each choice compared
    and every pile compared after every move."""
    report = check_hard(rules, range(300, 306), full=True)
    assert_agrees(report)
    assert report.games == 6 and report.moves > 6 * 40


def test_searches_cut_by_the_node_limit_choose_the_same_line(counting: CountingBot) -> None:
    """Where the search stops at 1,500 nodes the first line found decides: the compiled
    search visits the same nodes in the same order."""
    report = check_hard(SkipBoRules(), range(40), counting)
    assert_agrees(report)
    assert CountingPlanner.limited > 0


@pytest.mark.parametrize("rules", FROZEN_SETS, ids=FROZEN_IDS)
def test_frozen_tables_are_left_by_the_same_build(rules: SkipBoRules, counting) -> None:
    """On a frozen table each build is applied to a copy of the game and planned from:
    the compiled copy and apply lead to the same choice."""
    report = check_hard(rules, range(12), counting)
    assert_agrees(report)
    assert CountingBot.unfrozen > 0


def test_hard_with_other_weights_chooses_as_the_python_bot() -> None:
    """Other weights, a longer gift table and no fear of gifts: the same choices."""
    weights = PlanWeights(
        hand_emptied=30.0, wild_used=2.0, from_hand=1.5, gift=0.0, gift_by_gap=(1.0,) * 14
    )
    bot = HardBot(weights=weights)
    report = check_hard(SkipBoRules(players=3, stock_size=15), range(20), bot)
    assert_agrees(report)
    cautious = HardBot(weights=dataclasses.replace(HARD_WEIGHTS, gift=200.0))
    assert_agrees(check_hard(SkipBoRules(players=4, teams=True), range(10), cautious))


@pytest.mark.crosscheck
@pytest.mark.parametrize("rules", RULE_SETS + FROZEN_SETS, ids=IDS + FROZEN_IDS)
def test_hard_cross_check_ten_thousand_games(rules: SkipBoRules) -> None:
    """10,000 games per rule set, every choice of every seat compared."""
    report = check_hard(rules, range(10_000))
    assert_agrees(report)
    assert report.games == 10_000


def test_a_different_choice_is_reported_with_its_seed_and_step() -> None:
    """A Python bot that ends its plays early where hard plays its stock: the first such
    move is named, with its seed and step."""
    hard = HardBot()
    rules = SkipBoRules(players=2, stock_size=10)

    def contrary(state, rng):
        choice = hard.choose(state, rng)
        if len(state.history) > 20 and STOCK_BASE <= choice < STOCK_BASE + 4:
            return state.legal_actions()[-1]  # a discard instead of the stock
        return choice

    report = cross_check(
        rules, [3, 4], bot="hard", choose=contrary, params=fast_hard.hard_params(HARD_WEIGHTS)
    )
    mismatch = report.mismatch
    assert mismatch is not None and mismatch.seed == 3 and mismatch.what == "bot choice"
    assert mismatch.step > 20
    state = GAME.replay(rules, 3, list(mismatch.actions[: mismatch.step]))
    assert mismatch.batch == hard.choose(state, None)
    assert STOCK_BASE <= mismatch.batch < STOCK_BASE + 4
    assert mismatch.reference == state.legal_actions()[-1]
    assert "seed 3" in str(mismatch) and f"step {mismatch.step}" in str(mismatch)


def test_the_parameters_are_the_planner_weights_in_order() -> None:
    params = fast_hard.hard_params(PlanWeights(gift=7.0, gift_by_gap=(1.0, 0.5)))
    assert params.shape == (fast_hard.PARAMS,)
    assert params[fast_hard.P_GIFT] == 7.0
    assert params[fast_hard.P_STOCK_PLAYED] == HARD_WEIGHTS.stock_played
    assert params[fast_hard.P_GAPS] == 2
    assert list(params[fast_hard.P_GAP : fast_hard.P_GAP + 3]) == [1.0, 0.5, 0.0]
    # Gaps past 11 cannot occur (a stock top of at most 12 less a need of at least 1).
    long = fast_hard.hard_params(PlanWeights(gift_by_gap=tuple(range(20))))
    assert long[fast_hard.P_GAPS] == fast_hard.MAX_GAPS
    assert list(long[fast_hard.P_GAP :]) == list(range(12))


def test_the_cross_check_refuses_hard_without_its_weights() -> None:
    rules = SkipBoRules(players=2)
    with pytest.raises(ValueError, match="bot must be one of random, greedy, hard"):
        cross_check(rules, [1], bot="expert")
    with pytest.raises(ValueError, match="needs params"):
        cross_check(rules, [1], bot="hard", choose=HardBot().choose)
    with pytest.raises(ValueError, match="needs params"):
        cross_check(rules, [1], bot="hard", choose=HardBot().choose, params=np.zeros(3))


@pytest.mark.parametrize(
    ("rules", "bots", "paired"),
    [
        (SkipBoRules(players=2, stock_size=10), ["hard", "greedy"], True),
        (TEAMS_MATCH, ["hard", "random"], False),
        (FROZEN_SETS[1], ["hard"], False),
    ],
    ids=["2p-paired", "4p-teams-match", "6p-frozen"],
)  # fmt: skip
def test_fast_tournaments_with_hard_equal_the_reference(rules, bots, paired) -> None:
    games = 12 - 12 % rules.players
    fast = run_fast_tournament(GAME, rules, bots, games, 5, paired=paired, batch=5)
    reference = run_tournament(GAME, rules, bots, games, 5, paired=paired)
    assert fast.records == reference.records
    assert fast.to_json() == reference.to_json()
