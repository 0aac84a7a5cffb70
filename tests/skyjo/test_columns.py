"""The column rule (and the rows option): three equal face-up cards leave the grid."""

from __future__ import annotations

from cardtable.skyjo import (
    ColumnRemoved,
    DiscardAndReveal,
    DrawFromDeck,
    Exchange,
    RowRemoved,
    TakeDiscard,
)

from .helpers import build, grid, of_type, play, present

OTHER = grid("1 * * *  * 2 * *  * * * *")


def test_exchange_completing_a_column_discards_it_after_the_exchanged_card() -> None:
    mine = grid("""
        7   *   *   *
        7   *   *   *
       *3   *   *   *
    """)
    state = build([mine, OTHER], discard=[10, 7])
    events = play(state, TakeDiscard(), Exchange(8))
    assert of_type(events, ColumnRemoved) == [ColumnRemoved(0, 0, 7)]
    # Exchanged card first, then the three cards of the column (one of them on top).
    assert state.discard == [10, 3, 7, 7, 7]
    assert present(state, 0) == [1, 2, 3, 5, 6, 7, 9, 10, 11]
    assert state.view(1)["status"][0][0::4] == ["removed"] * 3


def test_revealing_the_third_card_also_completes_a_column() -> None:
    mine = grid("""
        *   5   *   *
        *   5   *   *
        *  *5   *   *
    """)
    state = build([mine, OTHER], draw_top=[12], discard=[0])
    events = play(state, DrawFromDeck(), DiscardAndReveal(9))
    assert of_type(events, ColumnRemoved) == [ColumnRemoved(0, 1, 5)]
    assert state.discard == [0, 12, 5, 5, 5]


def test_face_down_cards_never_complete_a_column() -> None:
    mine = grid("""
        4   *   *   *
       *4   *   *   *
        *   *   *   *
    """)
    state = build([mine, OTHER], discard=[4])
    events = play(state, TakeDiscard(), Exchange(8))
    assert of_type(events, ColumnRemoved) == []
    assert 4 in present(state, 0)


def test_rows_are_not_removed_by_default() -> None:
    mine = grid("""
        6   6   6   *
        *   *   *   *
        *   *   *   *
    """)
    state = build([mine, OTHER], discard=[6])
    events = play(state, TakeDiscard(), Exchange(3))
    assert of_type(events, RowRemoved) == []
    assert present(state, 0) == list(range(12))


def test_rows_option_removes_four_equal_face_up_cards_in_a_row() -> None:
    mine = grid("""
        6   6   6   *
        *   *   *   *
        *   *   *   *
    """)
    state = build([mine, OTHER], discard=[6], rows_rule=True)
    events = play(state, TakeDiscard(), Exchange(3))
    assert of_type(events, RowRemoved) == [RowRemoved(0, 0, 6)]
    assert state.discard[-5:] == [*state.discard[-5:-4], 6, 6, 6, 6]
    assert present(state, 0) == list(range(4, 12))


def test_a_row_needs_four_present_cards_once_a_column_is_gone() -> None:
    mine = grid("""
        .   6   6   *
        .   *   *   *
        .   *   *   *
    """)
    state = build([mine, OTHER], discard=[6], rows_rule=True)
    events = play(state, TakeDiscard(), Exchange(3))
    assert of_type(events, RowRemoved) == []


def test_a_card_completing_a_column_and_a_row_removes_the_column_only() -> None:
    mine = grid("""
        2   2   2   *
        *   *   *   2
        *   *   *   2
    """)
    state = build([mine, OTHER], discard=[2], rows_rule=True)
    events = play(state, TakeDiscard(), Exchange(3))
    assert of_type(events, ColumnRemoved) == [ColumnRemoved(0, 3, 2)]
    assert of_type(events, RowRemoved) == []
    assert present(state, 0) == [0, 1, 2, 4, 5, 6, 8, 9, 10]
