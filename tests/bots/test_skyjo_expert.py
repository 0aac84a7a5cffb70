"""The Skyjo expert's game objective and the moves it compares."""

from __future__ import annotations

import math
from collections.abc import Callable

import pytest

from cardtable.bots.montecarlo import Budget
from cardtable.bots.skyjo_expert import (
    EXPERT_WEIGHTS,
    SkyjoExpert,
    _closes,
    _skyjo_turn_over,
    game_win_chance,
    skyjo_candidates,
)
from cardtable.bots.skyjo_hard import HardBot
from cardtable.bots.skyjo_value import FEATURES, features, round_points_to_come
from cardtable.core import Rng
from cardtable.games import get_game
from cardtable.skyjo.moves import DRAW, TAKE_DISCARD
from cardtable.skyjo.state import DRAWN, TURN, SkyjoState


def test_a_finished_game_is_won_by_the_lowest_totals_only() -> None:
    assert game_win_chance([101, 40, 55, 40], 1, 100) == 1.0
    assert game_win_chance([101, 40, 55, 40], 3, 100) == 1.0
    assert game_win_chance([101, 40, 55, 40], 2, 100) == 0.0
    assert game_win_chance([101, 40, 55, 40], 0, 100) == 0.0


def test_between_rounds_the_chances_are_a_distribution_ordered_by_totals() -> None:
    totals = [30, 45, 45, 70]
    chances = [game_win_chance(totals, seat, 100) for seat in range(4)]
    assert math.isclose(sum(chances), 1.0)
    assert chances[0] > chances[1] == chances[2] > chances[3] > 0.0
    assert game_win_chance([20, 20, 20, 20], 2, 100) == pytest.approx(0.25)


def test_a_lead_counts_for_more_when_the_end_is_near() -> None:
    early = game_win_chance([10, 20, 20, 20], 0, 100)
    late = game_win_chance([80, 90, 90, 90], 0, 100)
    assert 0.25 < early < late < 1.0


def _first_position(seed: int, wanted: Callable[[SkyjoState], bool]) -> SkyjoState:
    """The first position of a seeded 4-player ``hard`` game that is ``wanted``."""
    game = get_game("skyjo")
    state = game.new_state(game.rules_from_json({"players": 4}), seed)
    assert isinstance(state, SkyjoState)
    bot = HardBot()
    rng = Rng(seed)
    while not state.is_over:
        if wanted(state):
            return state
        state.advance(bot.choose(state, rng))
    raise AssertionError("no such position")


def _drawn_with_one_card_down(seed: int) -> SkyjoState:
    """A position where the mover holds a drawn card and has one card face down."""

    def wanted(state: SkyjoState) -> bool:
        down = state.down[state.player] & state.present[state.player]
        return state.phase == DRAWN and down.bit_count() == 1 and state.closer is None

    return _first_position(seed, wanted)


def test_candidates_always_hold_a_move_that_goes_out_and_one_that_does_not() -> None:
    for seed in range(1, 6):
        state = _drawn_with_one_card_down(seed)
        candidates = skyjo_candidates(state, width=1, both_sides=True)
        assert all(action in state.legal_actions() for action in candidates)
        assert any(_closes(state, action) for action in candidates)
        assert any(not _closes(state, action) for action in candidates)
        assert len(set(candidates)) == len(candidates)
        assert skyjo_candidates(state, width=1) == candidates[:1]


def test_early_in_the_game_a_late_expert_plays_hards_move_without_searching() -> None:
    state = _drawn_with_one_card_down(2)
    assert max(state.totals) < 60
    expert = SkyjoExpert(Budget(iterations=2, milliseconds=None), objective="game", late=40)
    expert.compare = None  # type: ignore[assignment,method-assign]  # a search would fail
    assert expert.choose(state, Rng(3)) == HardBot(**EXPERT_WEIGHTS).choose(state, Rng(3))


def _close_take(seed: int) -> SkyjoState:
    """A turn where ``hard`` takes the discard, though by less than half a point."""

    def wanted(state: SkyjoState) -> bool:
        if state.phase != TURN:
            return False
        (best, first), (other, _) = HardBot().ranked(state)
        return first == TAKE_DISCARD and other - best < 0.5

    return _first_position(seed, wanted)


def test_the_expert_weighs_moves_with_its_own_weights() -> None:
    state = _close_take(4)
    # late=0: no search before the game's end, so the choice is its evaluation's alone.
    tuned = SkyjoExpert(Budget(iterations=2, milliseconds=None), late=0)
    plain = SkyjoExpert(Budget(iterations=2, milliseconds=None), late=0, weights={})
    assert tuned.choose(state, Rng(1)) == DRAW
    assert plain.choose(state, Rng(1)) == TAKE_DISCARD == HardBot().choose(state, Rng(1))
    assert skyjo_candidates(state, bot=tuned.hard)[0] == DRAW


def test_an_unknown_objective_is_refused() -> None:
    with pytest.raises(ValueError, match="objective"):
        SkyjoExpert(objective="points")


def _turn_position(seed: int, turns: int) -> SkyjoState:
    game = get_game("skyjo")
    state = game.new_state(game.rules_from_json({"players": 4}), seed)
    assert isinstance(state, SkyjoState)
    bot = HardBot()
    rng = Rng(seed)
    while state.phase != TURN or state.turns < turns:
        state.advance(bot.choose(state, rng))
    return state


def test_a_short_rollout_stops_when_the_seats_next_turn_begins() -> None:
    start = _turn_position(2, 6)
    state = start.clone()
    bot = HardBot()
    seen = []
    while not _skyjo_turn_over(start, state):
        seen.append(state.player)
        state.advance(bot.choose(state, Rng(0)))
    assert state.player == start.player and state.phase == TURN
    # The seat's own turn, then each other seat's turn once.
    assert sorted(set(seen)) == [0, 1, 2, 3]
    assert seen.count(start.player) == 2  # draw or take, then place


def test_the_short_expert_scores_by_the_fitted_points_and_stays_blind() -> None:
    state = _turn_position(3, 8)
    expert = SkyjoExpert(
        Budget(iterations=6, milliseconds=None), rollout="hard", short=True, seat_draws=True
    )
    baseline = HardBot().choose(state, Rng(0))
    results = expert.compare(state, baseline, Rng(4))
    assert results and all(c.samples == 6 for c in results)
    assert any(c.error > 0 for c in results)
    assert expert.compare(state.determinize(state.player, Rng(9)), baseline, Rng(4)) == results
    move = expert.choose(state, Rng(4))
    assert move in state.legal_actions()


def test_fitted_round_points_rise_with_the_face_up_cards() -> None:
    state = _turn_position(4, 8)
    seat = state.player
    assert len(features(state, seat)) == len(FEATURES)
    up = [p for p in range(12) if state.present[seat] >> p & 1 and not state.down[seat] >> p & 1]
    low = min(up, key=lambda p: state.cards[seat * 12 + p])
    assert state.cards[seat * 12 + low] < 12
    before = round_points_to_come(state, seat)
    state.cards[seat * 12 + low] = 12
    assert round_points_to_come(state, seat) > before


def test_short_rollouts_refuse_the_game_objective() -> None:
    with pytest.raises(ValueError, match="objective must be 'round'"):
        SkyjoExpert(short=True, objective="game")
