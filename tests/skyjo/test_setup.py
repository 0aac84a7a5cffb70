"""Dealing, the set-up reveals and the starting player of each round."""

from __future__ import annotations

from typing import Any

import pytest

from cardtable.core import Event, IllegalMoveError
from cardtable.skyjo import GAME, DrawFromDeck, Reveal, SkyjoRules, SkyjoState, StarterChosen

from .helpers import build, face_down, grid, of_type, play


def test_deal() -> None:
    state = GAME.new_state(SkyjoRules(players=3), seed=11)
    assert state.phase == 0 and state.current_player == 0
    assert all(len(face_down(state, seat)) == 12 for seat in range(3))
    assert len(state.discard) == 1
    assert len(state.draw) == 150 - 36 - 1
    assert GAME.new_state(SkyjoRules(players=3), seed=11) == state
    assert GAME.new_state(SkyjoRules(players=3), seed=12) != state


def test_each_seat_turns_two_cards_in_seat_order() -> None:
    state = GAME.new_state(SkyjoRules(players=3), seed=5)
    movers = []
    for pos in (0, 1, 4, 5, 10, 11):
        movers.append(state.current_player)
        play(state, Reveal(pos))
    assert movers == [0, 0, 1, 1, 2, 2]
    assert [len(face_down(state, seat)) for seat in range(3)] == [10, 10, 10]
    assert state.phase == 1  # the first turn of the round


def test_setup_refuses_other_moves_with_a_reason() -> None:
    state = GAME.new_state(SkyjoRules(players=2), seed=5)
    play(state, Reveal(3))
    with pytest.raises(IllegalMoveError, match="already face up"):
        state.apply(Reveal(3))
    with pytest.raises(IllegalMoveError, match="two cards face up"):
        state.apply(DrawFromDeck())


def _setup_position(*seat_cards: tuple[int, int], **kwargs: Any) -> SkyjoState:
    """A set-up position where seat ``s`` will turn up ``seat_cards[s]`` at positions 0 and 1."""
    grids = [grid(f"*{a} *{b} * *  * * * *  * * * *") for a, b in seat_cards]
    return build(grids, phase="setup", **{"starter": None, **kwargs})


def _reveal_all(state: SkyjoState) -> int:
    """Every seat turns up positions 0 and 1; the seat chosen to start."""
    events: list[Event] = []
    for _ in range(state.num_players):
        events += play(state, Reveal(0), Reveal(1))
    (chosen,) = of_type(events, StarterChosen)
    assert state.current_player == chosen.seat
    return int(chosen.seat)


def test_highest_sum_starts() -> None:
    state = _setup_position((1, 2), (3, 4), (12, 11), (-2, 3))
    assert _reveal_all(state) == 2


def test_tie_in_round_one_goes_to_the_first_seat_from_seat_0() -> None:
    state = _setup_position((1, 2), (9, 1), (3, 7), (10, 0))
    assert _reveal_all(state) == 1


def test_tie_later_counts_from_the_seat_after_the_previous_starter() -> None:
    rounds = [
        {
            "points": [1, 2, 3, 4],
            "winners": [0],
            "turns": 9,
            "blocked": False,
            "closer": 0,
            "doubled": False,
        }
    ]
    state = _setup_position(
        (1, 2), (9, 1), (3, 7), (10, 0), round_number=2, rounds=rounds, starter=1
    )  # seat 1 started round 1: ties count from seat 2
    assert _reveal_all(state) == 2


def test_option_closer_starts_next_round() -> None:
    rounds = [
        {
            "points": [1, 2, 3, 4],
            "winners": [0],
            "turns": 9,
            "blocked": False,
            "closer": 3,
            "doubled": False,
        }
    ]
    state = _setup_position(
        (1, 2),
        (12, 12),
        (3, 7),
        (0, 0),
        round_number=2,
        rounds=rounds,
        closer_starts_next=True,
    )
    assert _reveal_all(state) == 3


def test_option_closer_starts_next_does_not_apply_to_round_one() -> None:
    state = _setup_position((1, 2), (12, 12), (3, 7), (0, 0), closer_starts_next=True)
    assert _reveal_all(state) == 1


def test_starter_event_names_the_sums() -> None:
    state = _setup_position((1, 2), (3, 4))
    events = play(state, Reveal(0), Reveal(1), Reveal(0), Reveal(1))
    assert of_type(events, StarterChosen) == [
        StarterChosen(1, (3, 7), "highest sum of the face-up cards")
    ]
