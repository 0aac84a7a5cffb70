"""A turn: take the discard and exchange, or draw then exchange or discard and reveal."""

from __future__ import annotations

import pytest

from cardtable.core import IllegalMoveError
from cardtable.skyjo import (
    CardRevealed,
    DiscardAndReveal,
    Discarded,
    DrawFromDeck,
    Drew,
    Exchange,
    Exchanged,
    Reveal,
    TakeDiscard,
    TookDiscard,
)

from .helpers import build, face_down, grid, of_type, play

MINE = grid("""
    9   *   *   *
    *   4   *   *
   *7   *   *   *
""")
THEIRS = grid("1 * * *  * 2 * *  * * * *")


def test_a_turn_starts_with_draw_or_take() -> None:
    state = build([MINE, THEIRS])
    assert state.legal_moves() == [DrawFromDeck(), TakeDiscard()]
    with pytest.raises(IllegalMoveError, match="first draw from the draw pile"):
        state.apply(Exchange(0))
    with pytest.raises(IllegalMoveError, match="only at set-up"):
        state.apply(Reveal(1))


def test_taking_the_discard_forces_an_exchange() -> None:
    state = build([MINE, THEIRS], discard=[3, 2])
    events = play(state, TakeDiscard())
    assert events == [TookDiscard(0, 2)]
    assert state.hand == 2 and state.discard == [3]
    # Only exchanges are legal now, with any of the 12 positions, face up or down.
    assert state.legal_moves() == [Exchange(pos) for pos in range(12)]
    before = state.to_json()
    for refused in (DiscardAndReveal(1), DrawFromDeck(), TakeDiscard(), Reveal(1)):
        with pytest.raises(IllegalMoveError, match="must exchange the card taken"):
            state.apply(refused)
        assert state.to_json() == before


def test_exchange_with_a_face_up_card() -> None:
    state = build([MINE, THEIRS], discard=[2])
    events = play(state, TakeDiscard(), Exchange(0))
    assert of_type(events, Exchanged) == [Exchanged(0, 0, 2, 9, True)]
    assert state.discard == [9]  # the replaced card, face up on the discard pile
    assert state.view(1)["grids"][0][0] == 2
    assert state.current_player == 1


def test_exchange_with_a_face_down_card_shows_the_replaced_card() -> None:
    state = build([MINE, THEIRS], discard=[0])
    play(state, TakeDiscard(), Exchange(8))
    assert state.discard == [7]
    assert 8 not in face_down(state, 0)
    assert state.view(1)["grids"][0][8] == 0


def test_draw_then_exchange() -> None:
    state = build([MINE, THEIRS], draw_top=[1], discard=[6])
    events = play(state, DrawFromDeck())
    assert events == [Drew(0, 1)]
    assert state.view(1)["hand"] == 1  # the drawn card is shown to everyone
    play(state, Exchange(5))
    assert state.discard == [6, 4]
    assert state.current_player == 1


def test_draw_then_discard_reveals_exactly_one_card() -> None:
    state = build([MINE, THEIRS], draw_top=[11], discard=[6])
    down_before = face_down(state, 0)
    events = play(state, DrawFromDeck(), DiscardAndReveal(3))
    assert of_type(events, Discarded) == [Discarded(0, 11)]
    assert [e.pos for e in of_type(events, CardRevealed)] == [3]
    assert face_down(state, 0) == [p for p in down_before if p != 3]
    assert state.discard == [6, 11]
    assert state.current_player == 1


def test_after_drawing_only_exchange_or_discard_and_reveal() -> None:
    state = build([MINE, THEIRS], draw_top=[11])
    play(state, DrawFromDeck())
    legal = state.legal_moves()
    assert legal == [Exchange(p) for p in range(12)] + [
        DiscardAndReveal(p) for p in face_down(state, 0)
    ]
    with pytest.raises(IllegalMoveError, match="already face up"):
        state.apply(DiscardAndReveal(0))
    with pytest.raises(IllegalMoveError, match="already hold the drawn card"):
        state.apply(TakeDiscard())


def test_removed_positions_cannot_be_used() -> None:
    mine = grid(". * * *  . * * *  . * * *")
    state = build([mine, THEIRS], discard=[2])
    play(state, TakeDiscard())
    with pytest.raises(IllegalMoveError, match=r"position 4 .* is empty"):
        state.apply(Exchange(4))


def test_the_reason_names_the_phase_before_the_position() -> None:
    state = build([MINE, THEIRS])
    with pytest.raises(IllegalMoveError, match="first draw from the draw pile"):
        state.apply(DiscardAndReveal(0))  # position 0 is face up, but drawing comes first
