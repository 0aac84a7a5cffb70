"""Moves: the fixed integer encoding, text for humans, JSON."""

from __future__ import annotations

import pytest

from cardtable.core import ActionCodeError, SerializationError
from cardtable.skyjo import (
    GAME,
    DiscardAndReveal,
    DrawFromDeck,
    Exchange,
    Reveal,
    TakeDiscard,
)


def test_encoding_layout() -> None:
    assert GAME.encode(DrawFromDeck()) == 0
    assert GAME.encode(TakeDiscard()) == 1
    assert [GAME.encode(Exchange(pos)) for pos in (0, 11)] == [2, 13]
    assert [GAME.encode(Reveal(pos)) for pos in (0, 11)] == [14, 25]
    assert [GAME.encode(DiscardAndReveal(pos)) for pos in (0, 11)] == [26, 37]


def test_every_code_round_trips_and_decodes_to_a_singleton() -> None:
    for action in range(GAME.num_actions):
        move = GAME.decode(action)
        assert GAME.encode(move) == action
        assert GAME.decode(action) is move
        assert GAME.move_from_json(move.to_json()) == move
        assert str(move)


@pytest.mark.parametrize("bad", [-1, 38, True, "3"])
def test_bad_codes(bad: object) -> None:
    with pytest.raises(ActionCodeError):
        GAME.decode(bad)  # type: ignore[arg-type]


def test_non_moves_do_not_encode() -> None:
    for bad in (Exchange(12), Reveal(-1), "draw", None):
        with pytest.raises(ActionCodeError):
            GAME.encode(bad)  # type: ignore[arg-type]


def test_human_text() -> None:
    assert str(Exchange(5)) == "exchange with the card at row 2, column 2"
    assert str(DiscardAndReveal(11)) == (
        "discard the drawn card and turn up the card at row 3, column 4"
    )
    assert str(DrawFromDeck()) == "draw from the draw pile"


@pytest.mark.parametrize(
    "bad",
    [
        None,
        {},
        {"type": "fly"},
        {"type": "exchange"},
        {"type": "exchange", "pos": 12},
        {"type": "reveal", "pos": True},
    ],
)
def test_bad_move_json(bad: object) -> None:
    with pytest.raises(SerializationError):
        GAME.move_from_json(bad)
