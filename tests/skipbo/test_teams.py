"""Team play: partners sit opposite and may play each other's stock and discard piles."""

import pytest

from cardtable.core import IllegalMoveError
from cardtable.skipbo import (
    GAME,
    Discard,
    PlayFromDiscard,
    PlayFromStock,
    SkipBoRules,
    StockRevealed,
)

from .helpers import filler, position

TEAMS4 = SkipBoRules(players=4, teams=True)


def stocks4(**overrides: list[int]) -> dict[int, list[int]]:
    stocks = {seat: filler(5) for seat in range(4)}
    stocks.update({int(key[1:]): value for key, value in overrides.items()})
    return stocks


def test_partners_sit_opposite() -> None:
    assert [TEAMS4.partner(seat) for seat in range(4)] == [2, 3, 0, 1]
    six = SkipBoRules(players=6, teams=True)
    assert [six.partner(seat) for seat in range(6)] == [3, 4, 5, 0, 1, 2]


def test_the_partners_stock_top_is_playable_and_turns_up_their_next_card() -> None:
    state = position(TEAMS4, hands={0: [9, 9, 9, 9, 9]}, stocks=stocks4(s2=[6, 1]))
    outcome = state.apply(PlayFromStock(pile=0, partner=True))
    assert state.stocks[2] == [6]
    assert StockRevealed(2, 6, 1) in outcome.events


def test_the_partners_discard_tops_are_playable() -> None:
    state = position(
        TEAMS4,
        hands={0: [9, 9, 9, 9, 9]},
        stocks=stocks4(),
        discards={2: [[], [4, 1], [], []]},
    )
    state.apply(PlayFromDiscard(discard=1, pile=0, partner=True))
    assert state.discards[2][1] == [4]
    assert state.building[0] == [1]


def test_an_opponents_piles_stay_out_of_reach_in_team_play() -> None:
    state = position(
        TEAMS4,
        hands={0: [9, 9, 9, 9, 9]},
        stocks=stocks4(s1=[1], s3=[1]),
        discards={1: [[1], [], [], []], 3: [[1], [], [], []]},
    )
    assert all(move == Discard(9, move.discard) for move in state.legal_moves())  # type: ignore[union-attr]


def test_discards_go_on_own_piles_unless_the_option_allows_the_partners() -> None:
    state = position(TEAMS4, hands={0: [9, 9, 9, 9, 9]}, stocks=stocks4())
    with pytest.raises(IllegalMoveError, match="discard_to_partner"):
        state.apply(Discard(9, 0, partner=True))
    shared = SkipBoRules(players=4, teams=True, discard_to_partner=True)
    state = position(shared, hands={0: [9, 9, 9, 9, 9]}, stocks=stocks4())
    state.apply(Discard(9, 3, partner=True))
    assert state.discards[2][3] == [9]


def test_a_player_whose_stock_is_empty_keeps_playing_and_the_team_goes_on() -> None:
    state = position(
        TEAMS4, hands={0: [9, 9, 9, 9, 9], 1: [5, 5, 5, 5]}, stocks=stocks4(s0=[1], s2=[8, 7])
    )
    state.apply(PlayFromStock(0))
    assert state.stocks[0] == []
    assert not state.is_over
    state.apply(Discard(9, 0))
    state.apply(Discard(5, 0))
    assert state.current == 2
    state.apply(Discard(state.hand_cards(2)[0], 0))
    assert state.current == 3
    state.apply(Discard(state.hand_cards(3)[0], 0))
    assert state.current == 0  # the seat with an empty stock still takes its turns
    assert state.hand_sizes[0] == 5


def test_the_team_wins_only_when_both_stocks_are_empty() -> None:
    state = position(TEAMS4, hands={0: [9, 9, 9, 9, 9]}, stocks=stocks4(s0=[1], s2=[3, 2]))
    state.apply(PlayFromStock(0))
    assert not state.is_over
    state.apply(PlayFromStock(0, partner=True))
    assert not state.is_over
    state.apply(PlayFromStock(0, partner=True))
    result = state.result()
    assert result is not None
    assert result.winners == (0, 2)
    # 25 + 5 for each card left in the opponents' two stocks of five.
    assert result.scores == (75, 0, 75, 0)


def test_partners_never_see_each_others_hands() -> None:
    state = GAME.new_state(TEAMS4, seed=11)
    seat = state.current
    partner = TEAMS4.partner(seat)
    assert partner is not None
    assert state.view(partner)["hand"] == []
    assert state.view(seat)["hand"] == state.hand_cards(seat)
    assert all("hand" not in player for player in state.view(partner)["players"])
