"""What each seat sees: face-up cards, piles, the shown drawn card; never a face-down card."""

from __future__ import annotations

import json

from cardtable.core import Rng
from cardtable.skyjo import GAME, DiscardAndReveal, DrawFromDeck, SkyjoRules, TakeDiscard

from .helpers import build, grid, play

MINE = grid("""
    9  *3   .   *
   *1   4   .   *
   *7  *8   .   *
""")
THEIRS = grid("1 * * *  * 2 * *  * * * *")


def test_face_down_cards_are_null_for_everyone_including_their_owner() -> None:
    state = build([MINE, THEIRS])
    for seat in (None, 0, 1):
        view = state.view(seat)
        assert view["grids"][0] == [
            9,
            None,
            None,
            None,
            None,
            4,
            None,
            None,
            None,
            None,
            None,
            None,
        ]
        assert view["status"][0] == [
            "up", "down", "removed", "down",
            "down", "up", "removed", "down",
            "down", "down", "removed", "down",
        ]  # fmt: skip
        json.dumps(view)


def test_public_piles_and_counts() -> None:
    state = build([MINE, THEIRS], discard=[3, 0, 6])
    view = state.view(1)
    assert view["discard"] == [3, 0, 6] and view["discard_top"] == 6
    assert view["draw_count"] == len(state.draw)
    assert "draw" not in view
    assert view["current_player"] == 0 and view["phase"] == "turn"
    assert view["totals"] == [0, 0] and view["rounds"] == []
    assert view["face_up_sums"] == [13, 3]


def test_the_drawn_card_is_shown_and_only_the_mover_gets_legal_actions() -> None:
    state = build([MINE, THEIRS], draw_top=[11])
    play(state, DrawFromDeck())
    mover, other, spectator = state.view(0), state.view(1), state.view(None)
    assert mover["hand"] == other["hand"] == spectator["hand"] == 11
    assert mover["hand_from"] == "draw"
    assert mover["legal_actions"] == state.legal_actions()
    assert other["legal_actions"] == spectator["legal_actions"] == []


def test_taken_discard_is_shown() -> None:
    state = build([MINE, THEIRS], discard=[2, 5])
    play(state, TakeDiscard())
    view = state.view(None)
    assert view["hand"] == 5 and view["hand_from"] == "discard" and view["discard"] == [2]


def test_view_does_not_change_when_hidden_cards_are_redealt() -> None:
    state = GAME.new_state(SkyjoRules(players=5), seed=3)
    rng = Rng(8)
    for _ in range(60):
        legal = state.legal_actions()
        state.apply_action(legal[rng.below(len(legal))])
    for seat in (None, *range(5)):
        other = state.determinize(seat, Rng(seat or 0))
        assert other.view(seat) == state.view(seat)
        assert other.to_json() != state.to_json()


def test_final_turns_are_announced() -> None:
    done = grid("1 2 3 4  5 6 7 8  9 10 11 *0")
    state = build([done, THEIRS], draw_top=[12])
    play(state, DrawFromDeck())
    assert state.view(1)["final_turns"] is False
    play(state, DiscardAndReveal(11))
    view = state.view(1)
    assert view["final_turns"] is True and view["closer"] == 0
