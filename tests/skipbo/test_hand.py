"""Emptying the hand by plays draws five more; discarding the last card does not."""

from cardtable.skipbo import Discard, Drew, PlayFromHand

from .helpers import filler, position


def test_emptying_the_hand_by_plays_draws_five_more_at_once() -> None:
    state = position(hands={0: [1, 2, 3, 4, 5]}, stocks={0: filler(5), 1: filler(5)})
    for card in (1, 2, 3, 4):
        state.apply(PlayFromHand(card, 0))
    assert state.hand_sizes[0] == 1
    outcome = state.apply(PlayFromHand(5, 0))
    assert Drew(0, 5) in outcome.events
    assert state.hand_sizes[0] == 5
    assert state.current == 0  # the turn goes on


def test_discarding_the_last_hand_card_does_not_draw() -> None:
    state = position(hands={0: [9]}, stocks={0: filler(5), 1: filler(5)})
    outcome = state.apply(Discard(card=9, discard=0))
    assert Drew(0, 5) not in outcome.events
    assert state.hand_sizes[0] == 0
    assert state.current == 1


def test_an_empty_hand_draws_what_there_is_when_the_deck_runs_short() -> None:
    state = position(hands={0: [1]}, stocks={0: filler(5), 1: filler(5)}, draw=[6, 7], completed=[])
    outcome = state.apply(PlayFromHand(1, 0))
    assert Drew(0, 2) in outcome.events
    assert state.hand_cards(0) == [6, 7]
    assert state.draw == []
