"""Building piles: started by a 1 or a Skip-Bo card, built up in order, complete at 12."""

import pytest

from cardtable.core import IllegalMoveError
from cardtable.skipbo import Built, PileCompleted, PlayFromHand, Reshuffled

from .helpers import SB, filler, position


def test_a_pile_starts_with_a_one_or_a_skip_bo_card() -> None:
    state = position(hands={0: [1, SB, 2, 9, 9]}, stocks={0: filler(5), 1: filler(5)})
    assert state.is_legal(PlayFromHand(1, 0))
    assert state.is_legal(PlayFromHand(SB, 3))
    with pytest.raises(IllegalMoveError, match="empty building place takes a 1"):
        state.apply(PlayFromHand(2, 0))


def test_each_card_must_be_the_next_number() -> None:
    state = position(
        hands={0: [5, 6, 9, 9, 9]},
        stocks={0: filler(5), 1: filler(5)},
        building=[[1, 2, 3, 4], [], [], []],
    )
    with pytest.raises(IllegalMoveError, match="building pile 1 needs a 5, not a 6"):
        state.apply(PlayFromHand(6, 0))
    state.apply(PlayFromHand(5, 0))
    state.apply(PlayFromHand(6, 0))
    assert state.building[0] == [1, 2, 3, 4, 5, 6]


def test_a_skip_bo_card_counts_as_the_number_needed() -> None:
    state = position(
        hands={0: [SB, 6, 9, 9, 9]},
        stocks={0: filler(5), 1: filler(5)},
        building=[[1, 2, 3, 4], [], [], []],
    )
    outcome = state.apply(PlayFromHand(SB, 0))
    assert Built(0, "hand", 0, SB, 0, 5) in outcome.events
    assert state.is_legal(PlayFromHand(6, 0))


def test_a_skip_bo_card_at_eleven_then_a_twelve_completes_the_pile() -> None:
    ten = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]
    state = position(
        hands={0: [SB, 12, 3, 3, 3]},
        stocks={0: filler(5), 1: filler(5)},
        building=[ten, [], [], []],
    )
    state.apply(PlayFromHand(SB, 0))
    assert state.building[0] == [*ten, SB]
    completed_before = len(state.completed)
    outcome = state.apply(PlayFromHand(12, 0))
    assert PileCompleted(0) in outcome.events
    assert state.building[0] == []
    assert len(state.completed) == completed_before + 12


def test_a_skip_bo_card_can_itself_be_the_twelve() -> None:
    eleven = list(range(1, 12))
    state = position(
        hands={0: [SB, 4, 4, 4, 4]},
        stocks={0: filler(5), 1: filler(5)},
        building=[eleven, [], [], []],
    )
    state.apply(PlayFromHand(SB, 0))
    assert state.building[0] == []


def test_a_completed_pile_frees_its_place_for_a_new_pile() -> None:
    eleven = list(range(1, 12))
    state = position(
        hands={0: [12, 1, 4, 4, 4]},
        stocks={0: filler(5), 1: filler(5)},
        building=[eleven, [1], [1, 2], [1, 2, 3]],
    )
    assert not state.is_legal(PlayFromHand(1, 0))
    state.apply(PlayFromHand(12, 0))
    assert state.is_legal(PlayFromHand(1, 0))


def test_a_fifth_building_pile_cannot_be_started() -> None:
    state = position(
        hands={0: [1, 1, 4, 4, 4]},
        stocks={0: filler(5), 1: filler(5)},
        building=[[1], [1, 2], [1, 2, 3], [1, 2, 3, 4, 5]],
    )
    before = state.to_json()
    assert not any(state.is_legal(PlayFromHand(1, pile)) for pile in range(4))
    with pytest.raises(IllegalMoveError, match="all four building piles are in use"):
        state.apply(PlayFromHand(1, 2))
    assert state.to_json() == before


def test_completed_piles_stay_aside_while_the_draw_pile_has_cards() -> None:
    eleven = list(range(1, 12))
    state = position(
        hands={0: [12, 5, 5, 5, 5]},
        stocks={0: filler(5), 1: filler(5)},
        building=[eleven, [], [], []],
        draw=[3, 3, 3, 3],
    )
    aside = len(state.completed)
    state.apply(PlayFromHand(12, 0))
    assert len(state.completed) == aside + 12
    assert state.draw == [3, 3, 3, 3]


def test_completed_piles_recycle_when_a_draw_finds_the_draw_pile_empty() -> None:
    state = position(hands={0: [1]}, stocks={0: filler(5), 1: filler(5)}, draw=[3, 3])
    recycled = len(state.completed)
    outcome = state.apply(PlayFromHand(1, 0))
    assert Reshuffled(recycled) in outcome.events
    assert state.hand_sizes[0] == 5
    assert state.hands[0][3] >= 2  # the two cards left in the old draw pile came first
    assert state.completed == []
    assert len(state.draw) == recycled - 3
