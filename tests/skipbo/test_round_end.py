"""The round ends the moment a stock empties; scoring; multi-round matches; blocked rounds."""

from cardtable.skipbo import (
    Discard,
    GameEnded,
    PlayFromStock,
    RoundEnded,
    SkipBoRules,
)

from .helpers import filler, position


def test_the_round_ends_the_moment_the_last_stock_card_is_played() -> None:
    state = position(hands={0: [5, 5, 5, 5, 5]}, stocks={0: [1], 1: filler(7)})
    outcome = state.apply(PlayFromStock(0))
    assert state.is_over
    assert state.current_player is None
    assert state.legal_actions() == []
    assert isinstance(outcome.events[-1], GameEnded)
    result = state.result()
    assert result is not None and result.winners == (0,)


def test_winner_scores_25_plus_5_per_card_left_in_opponents_stocks() -> None:
    state = position(
        SkipBoRules(players=3),
        hands={0: [5, 5, 5, 5, 5]},
        stocks={0: [1], 1: filler(7), 2: filler(4)},
    )
    state.apply(PlayFromStock(0))
    assert state.rounds()[0].points == (25 + 5 * 11, 0, 0)


def test_points_per_card_and_bonus_are_options() -> None:
    rules = SkipBoRules(players=2, points_per_card=1, round_bonus=10)
    state = position(rules, hands={0: [5, 5, 5, 5, 5]}, stocks={0: [1], 1: filler(7)})
    state.apply(PlayFromStock(0))
    assert state.rounds()[0].points == (17, 0)


def test_multi_round_match_deals_again_and_next_seat_starts() -> None:
    rules = SkipBoRules(players=3, rounds=True, target=200, stock_size=10)
    state = position(
        rules,
        current=1,
        hands={1: [5, 5, 5, 5, 5]},
        stocks={0: filler(10), 1: [1], 2: filler(9)},
        starter=1,
    )
    outcome = state.apply(PlayFromStock(0))
    assert not state.is_over
    assert state.scores == [0, 25 + 5 * 19, 0]
    ended = [event for event in outcome.events if isinstance(event, RoundEnded)]
    assert ended[0].winners == (1,) and ended[0].reason == "stock emptied"
    assert state.round_index == 1
    assert state.current == 2  # the next seat clockwise from the previous starter
    assert [len(stock) for stock in state.stocks] == [10, 10, 10]
    assert state.hand_sizes == [0, 0, 5]
    assert all(not pile for pile in state.building)


def test_match_ends_when_a_player_reaches_the_target() -> None:
    rules = SkipBoRules(players=2, rounds=True, target=100)
    state = position(
        rules, hands={0: [5, 5, 5, 5, 5]}, stocks={0: [1], 1: filler(5)}, scores=[60, 90]
    )
    state.apply(PlayFromStock(0))
    result = state.result()
    assert result is not None
    assert result.winners == (0,)
    assert result.scores == (110, 90)


def test_turn_limit_ends_a_round_as_blocked() -> None:
    rules = SkipBoRules(players=2, turn_limit=100)
    state = position(rules, hands={0: [9, 9, 9, 9, 9]}, stocks={0: filler(5), 1: filler(5)})
    state.turns = 100
    outcome = state.apply(Discard(9, 0))
    ended = [event for event in outcome.events if isinstance(event, RoundEnded)]
    assert ended[0].reason == "turn limit"
    assert state.is_over
