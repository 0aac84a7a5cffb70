"""The Skip-Bo batch engine against the reference engine: deals, moves, bots, results."""

from __future__ import annotations

import numpy as np
import pytest

from cardtable.bots.base import RandomBot
from cardtable.bots.skipbo import GreedyBot
from cardtable.core import IllegalMoveError, Rng
from cardtable.fast import skipbo_kernels as k
from cardtable.fast.engines import POLICY_SALT, batch_engine
from cardtable.fast.skipbo_batch import SkipBoBatch
from cardtable.fast.skipbo_check import cross_check, reference_fields
from cardtable.skipbo import GAME, SkipBoRules, SkipBoState
from cardtable.skyjo import SkyjoRules

#: The rule sets of the cross-check with the random policy: 2 to 6 players, teams and
#: discarding to the partner, stock sizes, single rounds and matches (to a target, or
#: ended by the blocked-round limit), sheet 003's cut and a fixed first player, small
#: idle and turn limits, and rules edition 1.
RULE_SETS = [
    SkipBoRules(),
    SkipBoRules(players=4, teams=True, discard_to_partner=True, stock_size=5),
    SkipBoRules(
        players=6,
        high_card_deal=True,
        stock_size=5,
        rounds=True,
        target=100,
        idle_limit=3,
        turn_limit=100,
        blocked_limit=2,
    ),
    SkipBoRules(players=3, stock_size=8, edition=1),
    SkipBoRules(players=5, first_player=2, stock_size=5, rounds=True, target=50, points_per_card=0),
    SkipBoRules(
        players=2, stock_size=5, rounds=True, high_card_deal=True, idle_limit=1, turn_limit=100
    ),
]
IDS = ["2p", "4p-teams", "6p-cut-match-limits", "3p-edition1", "5p-first-match", "2p-idle1"]

#: The rule sets of the greedy bot's cross-check.
GREEDY_SETS = [
    SkipBoRules(players=4, teams=True, discard_to_partner=True, stock_size=10),
    SkipBoRules(players=6, stock_size=5, rounds=True, target=60, turn_limit=100, idle_limit=2),
    SkipBoRules(players=2, stock_size=12, rounds=True, target=60, first_player=1),
]
GREEDY_IDS = ["4p-teams", "6p-match", "2p-match"]


def assert_agrees(report) -> None:
    assert report.mismatch is None, str(report.mismatch)


@pytest.mark.parametrize("rules", RULE_SETS, ids=IDS)
def test_deals_equal_the_reference_deals(rules: SkipBoRules) -> None:
    seeds = [0, 1, 2**63 + 5, 2**64 - 1, -7, 123456789123456789]
    batch = SkipBoBatch(rules, len(seeds))
    batch.reset(seeds)
    for b, seed in enumerate(seeds):
        state = GAME.new_state(rules, seed)
        assert batch.fields(b) == reference_fields(state), seed
        assert batch.legal_actions(b) == state.legal_actions()
        assert batch.current_player(b) == state.current_player


@pytest.mark.parametrize("rules", RULE_SETS, ids=IDS)
def test_cross_check_sample(rules: SkipBoRules) -> None:
    """Every run: a sample of games; a few of them with every pile compared whole after
    every move."""
    report = cross_check(rules, range(1000, 1040))
    assert_agrees(report)
    assert report.games == 40 and report.moves > 40 * 50
    report = cross_check(rules, range(2000, 2006), full=True)
    assert_agrees(report)
    assert report.full_compares == report.moves


@pytest.mark.parametrize("rules", GREEDY_SETS, ids=GREEDY_IDS)
def test_the_compiled_greedy_bot_chooses_as_the_python_bot(rules: SkipBoRules) -> None:
    report = cross_check(rules, range(500, 530), bot="greedy", choose=GreedyBot().choose)
    assert_agrees(report)
    assert report.games == 30 and report.stock_wins > 0


@pytest.mark.crosscheck
@pytest.mark.parametrize("rules", RULE_SETS, ids=IDS)
def test_cross_check_ten_thousand_games(rules: SkipBoRules) -> None:
    """10,000 games per rule set, move by move (docs/performance.md gives the time)."""
    report = cross_check(rules, range(10_000))
    assert_agrees(report)
    assert report.games == 10_000


@pytest.mark.crosscheck
@pytest.mark.parametrize("rules", GREEDY_SETS, ids=GREEDY_IDS)
def test_greedy_cross_check_ten_thousand_games(rules: SkipBoRules) -> None:
    report = cross_check(rules, range(10_000), bot="greedy", choose=GreedyBot().choose)
    assert_agrees(report)
    assert report.games == 10_000


def test_the_sweep_covers_the_rare_rules() -> None:
    """The rule sets above do reach what the cross-check must test: reshuffles of the
    completed piles, stock and team wins, blocked rounds (by a stuck table and by the
    turn limit), matches won on points and matches stopped by the blocked-round limit."""
    reports = [cross_check(rules, range(100)) for rules in RULE_SETS]
    for report in reports:
        assert_agrees(report)
    assert all(report.piles_completed > 0 for report in reports)
    # Rounds cut short by the turn limit of 100 (the last rule set) never run out of cards.
    assert all(report.reshuffles > 0 for report in reports[:-1])
    assert reports[0].blocked_rounds > 0
    assert reports[1].team_wins > 0
    assert reports[2].turn_limit_rounds > 0 and reports[2].matches_blocked > 0
    assert reports[4].matches_to_target > 0 and reports[4].stock_wins > 0
    assert reports[5].turn_limit_rounds > 0


def test_a_difference_is_reported_with_its_seed_and_step(monkeypatch) -> None:
    """The checker finds a rule that differs: here the reference's idle counter never
    moves, so the first turn without a card built once the draw pile is empty differs."""
    original = SkipBoState._end_turn

    def forgetful(self, events):
        idle = self.idle
        original(self, events)
        if self.idle == idle + 1:
            self.idle = idle

    monkeypatch.setattr(SkipBoState, "_end_turn", forgetful)
    report = cross_check(SkipBoRules(), [42, 43])
    assert report.mismatch is not None
    assert report.mismatch.seed == 42
    text = str(report.mismatch)
    assert "seed 42" in text and f"step {report.mismatch.step}" in text and "idle" in text
    assert report.mismatch.what == "state: idle"
    assert (report.mismatch.reference, report.mismatch.batch) == (0, 1)
    assert len(report.mismatch.actions) == report.mismatch.step + 1


def test_the_random_policy_is_the_random_bot() -> None:
    """The compiled random policy picks what RandomBot picks with the same generator, so
    a game of random bots is the same game in both engines."""
    rules = SkipBoRules(players=3, stock_size=6, rounds=True, target=60)
    seeds = [11, 12, 13]
    batch = SkipBoBatch(rules, len(seeds))
    batch.reset(seeds)
    moves = batch.play_random([seed ^ POLICY_SALT for seed in seeds])
    total = 0
    for b, seed in enumerate(seeds):
        state = GAME.new_state(rules, seed)
        rng = Rng(seed ^ POLICY_SALT)
        bot = RandomBot()
        while not state.is_over:
            state.advance(bot.choose(state, rng))
            total += 1
        assert state.result() == batch.result(b)
        assert state.rounds()[-1] == batch.last_round(b)
        assert batch.moves(b) == len(state.history)
    assert moves == total


def test_games_do_not_depend_on_the_batch_around_them() -> None:
    rules = SkipBoRules(players=4, teams=True)
    wide = SkipBoBatch(rules, 5)
    wide.reset([1, 2, 3, 4, 5])
    wide.play_random([9, 8, 7, 6, 5])
    alone = SkipBoBatch(rules, 1)
    alone.reset([4])
    alone.play_random([6])
    assert alone.fields(0) == wide.fields(3)
    again = SkipBoBatch(rules, 5)
    again.reset([1, 2, 3, 4, 5])
    again.play_random([9, 8, 7, 6, 5])
    for b in range(5):
        assert again.fields(b) == wide.fields(b)


def test_step_applies_one_action_per_game_like_the_reference() -> None:
    rules = SkipBoRules(players=4, teams=True, discard_to_partner=True, stock_size=5)
    seeds = [5, 6, 7, 8]
    batch = SkipBoBatch(rules, len(seeds))
    batch.reset(seeds)
    states = [GAME.new_state(rules, seed) for seed in seeds]
    rng = np.random.default_rng(0)
    while not batch.is_over.all():
        mask = batch.legal_mask()
        games, actions = [], []
        for b, state in enumerate(states):
            assert np.flatnonzero(mask[b]).tolist() == state.legal_actions()
            if not state.is_over:  # a finished game is left out; the others go on
                games.append(b)
                actions.append(int(rng.choice(np.flatnonzero(mask[b]))))
                state.advance(actions[-1])
        batch.step(actions, games)
        for b, state in enumerate(states):
            assert batch.fields(b) == reference_fields(state)
    for b, state in enumerate(states):
        assert batch.result(b) == state.result()
    with pytest.raises(IllegalMoveError, match="game 0: action 196: the game is over"):
        batch.step([196], [0])


def test_an_illegal_action_raises_and_changes_no_game() -> None:
    rules = SkipBoRules(players=2)
    batch = SkipBoBatch(rules, 3)
    batch.reset([1, 2, 3])
    # A discard of a held card is legal in every game at its start.
    first, second, third = (
        next(code for code in batch.legal_actions(b) if code >= 92) for b in range(3)
    )
    before = [array.copy() for array in batch.st]
    with pytest.raises(IllegalMoveError, match=r"game 1: action 196 is not legal \(legal: \["):
        batch.step([first, 196, third])  # ending the turn with cards in hand
    with pytest.raises(IllegalMoveError, match="game 2: action 300"):
        batch.step([first, second, 300])
    with pytest.raises(ValueError, match="3 actions"):
        batch.step([196, 196])
    with pytest.raises(IndexError):
        batch.step([196], [3])
    for old, new in zip(before, batch.st, strict=True):
        np.testing.assert_array_equal(old, new)
    batch.step([second], [1])
    state = GAME.new_state(rules, 2)
    state.advance(second)
    assert batch.fields(1) == reference_fields(state)


def test_partner_moves_are_refused_without_teams() -> None:
    batch = SkipBoBatch(SkipBoRules(players=4), 1)
    batch.reset([3])
    for code in (56, 57, 76, 144):  # partner's stock and discard, discard to partner
        with pytest.raises(IllegalMoveError):
            batch.step([code])
    assert k.NUM_ACTIONS == 197


def test_bad_construction_is_refused() -> None:
    with pytest.raises(ValueError, match="size"):
        SkipBoBatch(SkipBoRules(), 0)
    with pytest.raises(TypeError, match="SkipBoRules"):
        SkipBoBatch({"players": 2}, 2)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="SkipBoRules"):
        batch_engine("skipbo", SkyjoRules(), 2)
    batch = SkipBoBatch(SkipBoRules(), 2)
    with pytest.raises(ValueError, match="expected 2 seeds"):
        batch.reset([1])
    with pytest.raises(IndexError):
        batch.reset_games([2], [1])
    assert isinstance(batch_engine("skipbo", SkipBoRules(players=3), 4), SkipBoBatch)
