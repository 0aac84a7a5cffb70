"""Each seat sees its own hand, every stock top and size, all discard piles, the
building piles and the pile sizes; never another hand, a stock card below the
top, or the draw order."""

import json

import pytest

from cardtable.skipbo import SkipBoRules

from .helpers import SB, position, random_play


def test_view_shows_exactly_the_public_table_and_the_own_hand() -> None:
    state = position(
        hands={0: [SB, 3, 3, 7, 12], 1: [2, 4]},
        stocks={0: [11, 6], 1: [9, 8, 1]},
        discards={1: [[10, 5], [], [2], []]},
        building=[[1, 2, 3], [], [], []],
    )
    view = state.view(1)
    assert view["hand"] == [2, 4]
    assert view["players"][0]["hand_size"] == 5
    assert view["players"][0]["stock_top"] == 6
    assert view["players"][1]["stock_top"] == 1
    assert view["players"][1]["stock_size"] == 3
    assert view["players"][1]["discards"] == [[10, 5], [], [2], []]
    assert view["building"][0] == [1, 2, 3]
    assert view["building_next"] == [4, 1, 1, 1]
    assert view["draw_size"] == len(state.draw)
    assert view["legal_actions"] == []  # not seat 1's turn
    assert state.view(0)["legal_actions"] == state.legal_actions()


def test_spectator_sees_no_hand() -> None:
    state = position(hands={0: [SB, 3, 3, 7, 12]})
    view = state.view(None)
    assert "hand" not in view
    assert "legal_actions" not in view


def test_view_rejects_a_seat_outside_the_table() -> None:
    state = position()
    with pytest.raises(ValueError, match="seat"):
        state.view(2)


@pytest.mark.parametrize("seed", range(6))
def test_views_never_contain_hidden_cards(seed: int) -> None:
    rules = SkipBoRules(players=4, teams=True, stock_size=10)
    state = random_play(rules, seed, 60)
    for seat in (None, 0, 1, 2, 3):
        text = json.dumps(state.view(seat))
        view = json.loads(text)
        # Nothing lists the draw pile or a stock below its top.
        assert "draw" not in view and "stocks" not in view and "hands" not in view
        for player in view["players"]:
            assert set(player) == {
                "seat",
                "team",
                "partner",
                "hand_size",
                "stock_size",
                "stock_top",
                "discards",
                "score",
            }
