"""A turn: draw to five, play any number of cards, end by discarding one hand card."""

import pytest

from cardtable.core import IllegalMoveError
from cardtable.skipbo import (
    Discard,
    Drew,
    EndTurn,
    PlayFromDiscard,
    PlayFromHand,
    PlayFromStock,
    SkipBoRules,
    TurnPassed,
    TurnStarted,
)

from .helpers import SB, filler, position


def test_next_player_tops_up_the_hand_to_five_at_the_start_of_the_turn() -> None:
    state = position(hands={0: [3, 4, 6, 9, 11], 1: [2, 2]}, stocks={0: filler(5), 1: filler(5)})
    outcome = state.apply(Discard(card=9, discard=0))
    assert state.current == 1
    assert state.hand_sizes == [4, 5]
    assert TurnStarted(1, 2) in outcome.events
    assert Drew(1, 3) in outcome.events


def test_a_player_may_discard_although_plays_remain() -> None:
    state = position(hands={0: [1, 2, 3, 4, 5]}, stocks={0: filler(5), 1: filler(5)})
    assert state.is_legal(PlayFromHand(1, 0))
    state.apply(Discard(card=1, discard=2))
    assert state.discards[0][2] == [1]
    assert state.current == 1


def test_discards_take_any_card_in_any_order() -> None:
    state = position(
        hands={0: [SB, 12, 3, 4, 5]},
        stocks={0: filler(5), 1: filler(5)},
        discards={0: [[2], [], [], []]},
    )
    assert state.is_legal(Discard(card=SB, discard=0))
    assert state.is_legal(Discard(card=12, discard=0))
    state.apply(Discard(card=12, discard=0))
    assert state.discards[0][0] == [2, 12]


def test_only_the_top_of_a_discard_pile_can_be_played() -> None:
    state = position(
        hands={0: [9, 9, 9, 9, 9]},
        stocks={0: filler(5), 1: filler(5)},
        discards={0: [[1, 8], [], [], []]},
    )
    with pytest.raises(IllegalMoveError, match="takes a 1 or a Skip-Bo card, not an 8"):
        state.apply(PlayFromDiscard(discard=0, pile=0))


def test_playing_the_stock_turns_up_the_next_card() -> None:
    state = position(hands={0: filler(5)}, stocks={0: [4, 1], 1: filler(5)})
    outcome = state.apply(PlayFromStock(pile=0))
    assert state.stocks[0] == [4]
    assert state.view(1)["players"][0]["stock_top"] == 4
    assert outcome.events[-1].to_json() == {
        "type": "StockRevealed",
        "owner": 0,
        "card": 4,
        "remaining": 1,
    }


def test_end_turn_is_only_for_an_empty_hand_with_nothing_to_draw() -> None:
    state = position(hands={0: [5]}, stocks={0: filler(5), 1: filler(5)})
    with pytest.raises(IllegalMoveError, match="discarding a card"):
        state.apply(EndTurn())


def test_empty_hand_and_nothing_to_draw_ends_the_turn_without_discarding() -> None:
    state = position(
        hands={0: [1]},
        stocks={0: [9, 2], 1: [*filler(4), 3]},  # seat 1's 3 keeps the round alive
        draw=[],
        completed=[],
    )
    state.apply(PlayFromHand(1, 0))
    assert state.hand_sizes[0] == 0  # nothing was left to draw
    state.apply(PlayFromStock(0))  # an empty hand still plays its stock
    assert state.legal_moves() == [EndTurn()]
    outcome = state.apply(EndTurn())
    assert TurnPassed(0) in outcome.events
    assert state.current == 1


def test_a_move_by_the_wrong_card_explains_itself_and_changes_nothing() -> None:
    state = position(hands={0: [3, 4, 5, 6, 7]}, stocks={0: filler(5), 1: filler(5)})
    before = state.to_json()
    with pytest.raises(IllegalMoveError) as caught:
        state.apply(PlayFromHand(card=1, pile=0))
    assert caught.value.reason == "you hold no 1 card"
    assert state.to_json() == before


def test_partner_moves_are_refused_outside_team_play() -> None:
    state = position(
        hands={0: [1, 4, 5, 6, 7]},
        stocks={0: filler(5), 1: [1]},
        discards={1: [[1], [], [], []]},
    )
    before = state.to_json()
    for move in (PlayFromStock(0, partner=True), PlayFromDiscard(0, 0, partner=True)):
        with pytest.raises(IllegalMoveError, match="only in team play"):
            state.apply(move)
    assert state.to_json() == before


def test_another_players_discard_pile_is_never_playable() -> None:
    # Seat 1's discard pile shows a 1 that would fit, but no move reaches it for seat 0.
    state = position(
        SkipBoRules(players=3),
        hands={0: [4, 5, 6, 7, 8]},
        stocks={0: filler(5), 1: filler(5), 2: filler(5)},
        discards={1: [[1], [], [], []]},
    )
    assert not any(
        isinstance(move, PlayFromDiscard | PlayFromStock) for move in state.legal_moves()
    )
    with pytest.raises(IllegalMoveError):
        state.apply(PlayFromDiscard(0, 0, partner=True))


def test_turns_pass_clockwise() -> None:
    state = position(
        SkipBoRules(players=3),
        current=2,
        hands={2: filler(5)},
        stocks={0: filler(5), 1: filler(5), 2: filler(5)},
    )
    state.apply(Discard(card=5, discard=0))
    assert state.current == 0
