"""A round ends blocked only when no card can ever be built again, or by a house rule."""

import pytest

from cardtable.core import OptionError, RoundResult
from cardtable.skipbo import (
    Discard,
    EndTurn,
    GameEnded,
    PlayFromDiscard,
    PlayFromHand,
    RoundEnded,
    SkipBoRules,
    SkipBoState,
)

from .helpers import filler, position


def last_fit(rules: SkipBoRules | None = None, **fields: object) -> SkipBoState:
    """Nothing left to draw, and seat 0's 3 is the only card anywhere that fits a pile."""
    return position(
        rules,
        hands={0: [3, 9]},
        stocks={0: filler(5), 1: filler(5)},
        building=[[1, 2], [], [], []],
        draw=[],
        completed=[],
        **fields,
    )


def round_ended(events: tuple[object, ...]) -> RoundEnded:
    return next(event for event in events if isinstance(event, RoundEnded))


def test_a_round_whose_last_fitting_card_is_built_ends_blocked_at_once() -> None:
    state = last_fit()
    assert state.any_card_fits()
    outcome = state.apply(PlayFromHand(3, 0))
    assert not state.any_card_fits()
    assert state.is_over  # mid-turn: the 9 left in hand could only be discarded
    ended = round_ended(outcome.events)
    assert ended.blocked and ended.reason == "no card fits"
    assert ended.winners == () and ended.points == (0, 0)
    assert isinstance(outcome.events[-1], GameEnded)
    result = state.result()
    assert result is not None and result.blocked and result.winners == ()
    assert result.scores == (0, 0)


def test_with_nothing_to_draw_a_seat_that_discards_a_fitting_card_keeps_the_round_alive() -> None:
    # Edition 1 called this round blocked after one idle turn per seat.
    state = position(
        hands={0: [3, 9, 9, 9], 1: [10, 10, 10, 10]},
        stocks={0: filler(5), 1: filler(5)},
        building=[[1, 2], [], [], []],
        draw=[],
        completed=[],
    )
    for _ in range(6):
        state.apply(Discard(9 if state.current == 0 else 10, 0))
        assert not state.is_over
    assert state.idle == 6
    assert state.view(0)["idle_turns"] == 6
    state.apply(Discard(3, 1))  # the 3 goes on top of a discard pile: it still fits
    assert not state.is_over
    state.apply(Discard(10, 1))
    state.apply(PlayFromDiscard(1, 0))
    assert state.building[0] == [1, 2, 3]


def test_the_idle_limit_ends_a_round_nobody_builds_in() -> None:
    rules = SkipBoRules(players=2, idle_limit=20)
    state = position(
        rules,
        hands={0: [], 1: []},
        stocks={0: filler(5), 1: filler(5)},
        discards={0: [[3], [], [], []]},
        building=[[1, 2], [], [], []],
        draw=[],
        completed=[],
    )
    for _ in range(19):
        state.apply(EndTurn())
    assert not state.is_over and state.idle == 19
    outcome = state.apply(EndTurn())
    ended = round_ended(outcome.events)
    assert ended.blocked and ended.reason == "idle limit"
    assert state.is_over


def test_a_build_restarts_the_count_of_idle_turns() -> None:
    rules = SkipBoRules(players=2, idle_limit=3)
    state = position(
        rules,
        hands={0: [3, 4], 1: []},
        stocks={0: filler(5), 1: filler(5)},
        discards={1: [[5], [], [], []]},
        building=[[1, 2], [], [], []],
        draw=[],
        completed=[],
    )
    state.apply(Discard(4, 0))  # idle 1
    state.apply(EndTurn())  # idle 2
    state.apply(PlayFromHand(3, 0))
    state.apply(EndTurn())  # a card was built: not idle
    assert state.idle == 0
    state.apply(EndTurn())
    state.apply(EndTurn())
    assert not state.is_over and state.idle == 2
    state.apply(EndTurn())
    assert state.is_over


def test_a_turn_with_cards_left_to_draw_is_never_idle() -> None:
    rules = SkipBoRules(players=2, idle_limit=1)
    state = position(rules, hands={0: [9, 9, 9, 9, 9]}, stocks={0: filler(5), 1: filler(5)})
    state.apply(Discard(9, 0))
    assert not state.is_over and state.idle == 0


def test_a_match_stops_on_the_points_so_far_after_the_blocked_limit() -> None:
    rules = SkipBoRules(players=2, rounds=True, target=500, blocked_limit=1)
    state = last_fit(rules, scores=[80, 30])
    outcome = state.apply(PlayFromHand(3, 0))
    assert state.is_over
    ended = [event for event in outcome.events if isinstance(event, GameEnded)]
    assert ended == [GameEnded((0,), (80, 30), True)]


def test_a_match_with_no_points_stopped_by_blocked_rounds_has_no_winner() -> None:
    rules = SkipBoRules(players=2, rounds=True, blocked_limit=1)
    state = last_fit(rules)
    state.apply(PlayFromHand(3, 0))
    result = state.result()
    assert result is not None and result.winners == () and result.blocked


def test_below_the_blocked_limit_a_match_deals_the_next_round() -> None:
    rules = SkipBoRules(players=2, rounds=True, blocked_limit=2)
    state = last_fit(rules)
    state.apply(PlayFromHand(3, 0))
    assert not state.is_over
    assert state.round_index == 1 and state.blocked_run() == 1
    assert [len(stock) for stock in state.stocks] == [30, 30]


def test_a_won_round_restarts_the_count_of_blocked_rounds() -> None:
    state = position(SkipBoRules(players=2, rounds=True, blocked_limit=2))
    state.round_log = [RoundResult((0, 0), (), 10, True), RoundResult((30, 0), (0,), 10, False)]
    assert state.blocked_run() == 0
    state.round_log.append(RoundResult((0, 0), (), 10, True))
    assert state.blocked_run() == 1


@pytest.mark.parametrize(
    ("field", "good", "bad"),
    [
        ("idle_limit", (1, 100_000), (0, 100_001)),
        ("turn_limit", (100, 1_000_000), (99, 1_000_001)),
        ("blocked_limit", (1, 100), (0, 101)),
        ("edition", (1, 2), (0, 3)),
    ],
)
def test_every_safeguard_has_its_range_checked(
    field: str, good: tuple[int, int], bad: tuple[int, int]
) -> None:
    for value in good:
        SkipBoRules(**{field: value})
    for value in bad:
        with pytest.raises(OptionError) as caught:
            SkipBoRules(**{field: value})
        assert caught.value.field == field
        assert f"from {good[0]} to {good[1]}" in str(caught.value)


def test_a_match_in_which_nobody_can_score_is_refused() -> None:
    SkipBoRules(round_bonus=0, points_per_card=0)  # one round: the winner needs no points
    with pytest.raises(OptionError) as caught:
        SkipBoRules(rounds=True, round_bonus=0, points_per_card=0)
    assert caught.value.field == "points_per_card"
    assert "round_bonus is 0" in str(caught.value)
