"""The Skyjo batch engine against the reference engine: deals, moves, results."""

from __future__ import annotations

import numpy as np
import pytest

from cardtable.bots.base import RandomBot
from cardtable.core import IllegalMoveError, Rng
from cardtable.fast import skyjo_kernels as k
from cardtable.fast.skyjo_batch import SkyjoBatch
from cardtable.fast.skyjo_check import POLICY_SALT, cross_check
from cardtable.skyjo import GAME, SkyjoRules, SkyjoState

#: The rule sets of the cross-check: every option of SkyjoRules off and on, 2 to 8
#: players, short and long games, rounds cut by the turn limit (with reshuffles).
RULE_SETS = [
    SkyjoRules(),
    SkyjoRules(players=2, rows_rule=True),
    SkyjoRules(players=3, closer_doubling=False, end_score=30),
    SkyjoRules(players=8, closer_starts_next=True, turn_limit=100),
    SkyjoRules(players=5, rows_rule=True, closer_starts_next=True, end_score=200, turn_limit=150),
    SkyjoRules(players=6, rows_rule=True, closer_doubling=False, end_score=150),
]
IDS = [
    f"{r.players}p-rows{int(r.rows_rule)}-cs{int(r.closer_starts_next)}-d{int(r.closer_doubling)}-e{r.end_score}-t{r.turn_limit}"
    for r in RULE_SETS
]


def assert_agrees(report) -> None:
    assert report.mismatch is None, str(report.mismatch)


@pytest.mark.parametrize("rules", RULE_SETS, ids=IDS)
def test_deals_equal_the_reference_deals(rules: SkyjoRules) -> None:
    seeds = [0, 1, 2**63 + 5, 2**64 - 1, -7, 123456789123456789]
    batch = SkyjoBatch(rules, len(seeds))
    batch.reset(seeds)
    for b, seed in enumerate(seeds):
        state = GAME.new_state(rules, seed)
        fields = batch.fields(b)
        for name in ("cards", "present", "down", "draw", "discard", "phase", "player", "round"):
            assert fields[name] == getattr(state, name), (seed, name)
        assert fields["rng"] == state.rng.state
        assert batch.legal_actions(b) == state.legal_actions()


@pytest.mark.parametrize("rules", RULE_SETS, ids=IDS)
def test_cross_check_sample_every_step_in_full(rules: SkyjoRules) -> None:
    """Every run: a sample of games, both piles compared after every move."""
    report = cross_check(rules, range(1000, 1030), full=True)
    assert_agrees(report)
    assert report.games == 30 and report.moves > 30 * 50


@pytest.mark.crosscheck
@pytest.mark.parametrize("rules", RULE_SETS, ids=IDS)
def test_cross_check_ten_thousand_games(rules: SkyjoRules) -> None:
    """10,000 games per rule set, move by move (about 200,000 moves a second checked)."""
    report = cross_check(rules, range(10_000))
    assert_agrees(report)
    assert report.games == 10_000


def test_the_sweep_covers_the_rare_rules() -> None:
    """The rule sets above do reach reshuffles, removed lines, blocked and doubled rounds
    (otherwise the cross-check would not test them)."""
    reports = [cross_check(rules, range(200)) for rules in RULE_SETS]
    for report in reports:
        assert_agrees(report)
    assert sum(r.reshuffles for r in reports) > 0
    assert all(r.lines_removed > 0 for r in reports)
    assert reports[3].blocked_rounds > 0 and reports[4].blocked_rounds > 0
    assert reports[0].doubled_rounds > 0 and reports[2].doubled_rounds == 0


def test_a_difference_is_reported_with_its_seed_and_step(monkeypatch) -> None:
    """The checker finds a rule that differs: here the reference's starter is moved on
    by one seat, so the last set-up reveal (step 7 with 4 players) disagrees."""
    original = SkyjoState._choose_starter

    def shifted(self, events):
        original(self, events)
        self.player = self.starter = (self.starter + 1) % self.n

    monkeypatch.setattr(SkyjoState, "_choose_starter", shifted)
    report = cross_check(SkyjoRules(), [42, 43])
    assert report.mismatch is not None
    text = str(report.mismatch)
    assert report.mismatch.seed == 42 and report.mismatch.step == 7
    assert "seed 42" in text and "step 7" in text and "player" in text


def test_the_random_policy_is_the_random_bot() -> None:
    """The compiled random policy picks what RandomBot picks with the same generator, so
    a game of random bots is the same game in both engines."""
    rules = SkyjoRules(players=3)
    seeds = [11, 12, 13]
    batch = SkyjoBatch(rules, len(seeds))
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
        assert batch.moves(b) == len(state.history)
    assert moves == total


def test_games_do_not_depend_on_the_batch_around_them() -> None:
    rules = SkyjoRules(players=4)
    wide = SkyjoBatch(rules, 5)
    wide.reset([1, 2, 3, 4, 5])
    wide.play_random([9, 8, 7, 6, 5])
    alone = SkyjoBatch(rules, 1)
    alone.reset([4])
    alone.play_random([6])
    assert alone.fields(0) == wide.fields(3)
    again = SkyjoBatch(rules, 5)
    again.reset([1, 2, 3, 4, 5])
    again.play_random([9, 8, 7, 6, 5])
    for b in range(5):
        assert again.fields(b) == wide.fields(b)


def reference_fields(state: SkyjoState) -> dict[str, object]:
    return {
        "phase": state.phase,
        "player": state.player,
        "hand": state.hand,
        "starter": state.starter,
        "closer": state.closer,
        "round": state.round,
        "turns": state.turns,
        "reshuffled": state.reshuffled,
        "cards": state.cards,
        "present": state.present,
        "down": state.down,
        "draw": state.draw,
        "discard": state.discard,
        "totals": state.totals,
        "rng": state.rng.state,
        "rounds": len(state.finished),
        "moves": len(state.history),
    }


def test_step_applies_one_action_per_game_like_the_reference() -> None:
    rules = SkyjoRules(players=2, rows_rule=True)
    seeds = [5, 6, 7, 8]
    batch = SkyjoBatch(rules, len(seeds))
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
    with pytest.raises(IllegalMoveError, match="game 0: action 0 is not legal in phase over"):
        batch.step([0], [0])


def test_an_illegal_action_raises_and_changes_no_game() -> None:
    batch = SkyjoBatch(SkyjoRules(players=2), 3)
    batch.reset([1, 2, 3])
    before = [array.copy() for array in batch.st]
    with pytest.raises(IllegalMoveError, match="game 1: action 0 is not legal in phase setup"):
        batch.step([14, 0, 15])  # drawing during the set-up reveals
    with pytest.raises(IllegalMoveError, match="game 2"):
        batch.step([14, 15, 99])
    with pytest.raises(ValueError, match="3 actions"):
        batch.step([14, 15])
    with pytest.raises(IndexError):
        batch.step([14], [3])
    for old, new in zip(before, batch.st, strict=True):
        np.testing.assert_array_equal(old, new)
    batch.step([14, 15, 16])
    assert batch.fields(0)["down"][0] == k.FULL & ~1


def test_bad_construction_is_refused() -> None:
    with pytest.raises(ValueError, match="size"):
        SkyjoBatch(SkyjoRules(), 0)
    with pytest.raises(TypeError, match="SkyjoRules"):
        SkyjoBatch({"players": 2}, 2)  # type: ignore[arg-type]
    batch = SkyjoBatch(SkyjoRules(), 2)
    with pytest.raises(ValueError, match="expected 2 seeds"):
        batch.reset([1])
    with pytest.raises(IndexError):
        batch.reset_games([2], [1])
