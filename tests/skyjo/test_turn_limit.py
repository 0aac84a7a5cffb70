"""The ``turn_limit`` safeguard: a round that reaches it ends at once, as if its final
turns were over, is scored without doubling and counts as blocked."""

from __future__ import annotations

import json
from typing import Any

import pytest

from cardtable.bots import make_bot
from cardtable.core import GameState, Rng, RoundResult, SerializationError, check_game
from cardtable.sim.tournament import play_game
from cardtable.skyjo import (
    GAME,
    CardRevealed,
    ColumnRemoved,
    DiscardAndReveal,
    Discarded,
    DrawFromDeck,
    Drew,
    Exchange,
    GameEnded,
    Reveal,
    RoundDealt,
    RoundEnded,
    SkyjoRules,
    StarterChosen,
    TakeDiscard,
    TurnLimitReached,
)
from cardtable.skyjo.moves import DRAW, EXCHANGE
from cardtable.skyjo.state import DRAWN, SETUP, TAKEN, SkyjoState

from .helpers import build, grid, of_type, play

STILL_DOWN = grid("""
    1   2   3  *4
    5   6   7  *8
    9  10  11  *0
""")
# Column 0 is three 4s once the face-down 4 is turned up: it leaves at the final reveal.
COLUMN_AT_THE_END = grid("""
    4   1   2   .
   *4   1   3   .
    4  *0  *5   .
""")
ALL_UP = grid("""
   12  12  11  11
   10  10   9   9
    8   8   7   6
""")
SOME_DOWN = grid("1 * * *  * 2 * *  * * * 3")


def one_turn_before(turns: int = 99, **options: Any) -> SkyjoState:
    return build(
        [STILL_DOWN, COLUMN_AT_THE_END], draw_top=[12], turns=turns, turn_limit=100, **options
    )


def test_the_turn_reaching_the_limit_ends_the_round_with_every_event_in_order() -> None:
    state = one_turn_before(end_score=1000)
    events = play(state, DrawFromDeck(), DiscardAndReveal(3))
    assert events[:5] == [
        Drew(0, 12),
        Discarded(0, 12),
        CardRevealed(0, 3, 4),
        TurnLimitReached(1, 100),
        CardRevealed(0, 7, 8),
    ]
    assert events[5:11] == [
        CardRevealed(0, 11, 0),
        CardRevealed(1, 4, 4),
        CardRevealed(1, 9, 0),
        CardRevealed(1, 10, 5),
        ColumnRemoved(1, 0, 4),
        # 1 + 2 + ... + 11 + 0 = 66; 1 + 1 + 0 + 2 + 3 + 5 = 12 (the 4s left).
        RoundEnded(1, None, (66, 12), (66, 12), False),
    ]
    (dealt,) = events[11:]
    assert isinstance(dealt, RoundDealt) and dealt.round == 2
    assert state.rounds() == [RoundResult((66, 12), (1,), 100, True)]
    assert state.round == 2 and state.turns == 0 and state.closer is None
    assert state.phase == SETUP and state.current_player == 0
    assert state.totals == [66, 12]


def test_one_turn_earlier_the_round_goes_on() -> None:
    state = one_turn_before(turns=98)
    events = play(state, DrawFromDeck(), DiscardAndReveal(3))
    assert not of_type(events, TurnLimitReached) and not of_type(events, RoundEnded)
    assert state.turns == 99 and state.current_player == 1 and state.round == 1


def test_the_fast_path_ends_the_round_at_the_limit_too() -> None:
    slow, fast = one_turn_before(), one_turn_before()
    play(slow, DrawFromDeck(), DiscardAndReveal(3))
    fast.advance(DRAW)
    fast.advance(GAME.encode(DiscardAndReveal(3)))
    assert fast.to_json() == slow.to_json()
    assert fast.rounds()[0].blocked


def test_the_game_ends_after_a_blocked_round_as_usual_and_says_it_was_blocked() -> None:
    state = one_turn_before(totals=[40, 0])
    events = play(state, DrawFromDeck(), DiscardAndReveal(3))
    assert of_type(events, RoundEnded) == [RoundEnded(1, None, (66, 12), (106, 12), False)]
    assert events[-1] == GameEnded((1,), (106, 12))
    assert state.is_over
    result = state.result()
    assert result is not None
    assert result.winners == (1,) and result.scores == (106, 12) and result.blocked


def test_nobody_is_doubled_when_the_limit_comes_during_the_final_turns() -> None:
    # Seat 0 went out with 113 points, the highest: a normal end would double them.
    state = build(
        [ALL_UP, SOME_DOWN, SOME_DOWN],
        closer=0,
        player=1,
        draw_top=[12],
        turns=99,
        turn_limit=100,
        end_score=1000,
    )
    events = play(state, DrawFromDeck(), DiscardAndReveal(1))
    assert of_type(events, TurnLimitReached) == [TurnLimitReached(1, 100)]
    (ended,) = of_type(events, RoundEnded)
    assert ended.closer == 0 and not ended.doubled and ended.points[0] == 113
    assert state.rounds()[0].blocked and state.rounds()[0].turns == 100


def test_a_normal_end_on_the_limit_turn_is_a_normal_end() -> None:
    # The closer's last opponent plays the 100th turn: the round ends by the rules, the
    # closer (113, not strictly the lowest) is doubled and the round is not blocked.
    state = build(
        [SOME_DOWN, ALL_UP], closer=1, draw_top=[12], turns=99, turn_limit=100, end_score=1000
    )
    events = play(state, DrawFromDeck(), DiscardAndReveal(1))
    assert not of_type(events, TurnLimitReached)
    (ended,) = of_type(events, RoundEnded)
    assert ended.closer == 1 and ended.doubled and ended.points[1] == 226
    assert not state.rounds()[0].blocked


def test_after_a_blocked_round_without_closer_the_highest_sum_starts() -> None:
    state = one_turn_before(end_score=1000, closer_starts_next=True)
    play(state, DrawFromDeck(), DiscardAndReveal(3))
    events = play(state, Reveal(0), Reveal(1), Reveal(0), Reveal(1))
    (chosen,) = of_type(events, StarterChosen)
    assert chosen.reason == "highest sum of the face-up cards"


class Stalling:
    """Never turns a card up after set-up: exchanges at a face-up position whenever it
    can (the policy that used to keep a round going forever)."""

    name = "stalling"

    def choose(self, state: GameState[Any], rng: Rng) -> int:
        assert isinstance(state, SkyjoState)
        seat = state.player
        if state.phase in (DRAWN, TAKEN):
            up = state.present[seat] & ~state.down[seat]
            if up:
                return EXCHANGE + (up & -up).bit_length() - 1
        return state.legal_actions()[0]


def test_players_who_never_go_out_end_every_round_at_the_limit() -> None:
    rules = SkyjoRules(players=4, turn_limit=100)
    record = play_game(GAME, rules, [Stalling()] * 4, 1, max_moves=10_000)
    assert record.blocked
    # Each round: 8 set-up reveals and 100 turns of two moves.
    assert record.moves == len(record.round_points) * (8 + 200)
    assert record.turns == len(record.round_points) * 100


@pytest.mark.parametrize("seed", [1, 2])
def test_four_hard_bots_finish_with_a_small_limit(seed: int) -> None:
    """Four ``hard`` bots that all decline to go out played one round for ever (seed 1
    as reported; with the bot of commit cfc8be0 the tournament runner's seed 2 reached
    the default limit of 1000 turns): with ``turn_limit=100`` the game ends within a
    bounded number of moves whatever the bots do."""
    rules = SkyjoRules(players=4, turn_limit=100)
    bots = [make_bot("skyjo", "hard") for _ in range(4)]
    record = play_game(GAME, rules, bots, seed, max_moves=20_000)
    assert record.moves < 20_000
    assert all(len(points) == 4 for points in record.round_points)


def _stalling_policy(state: GameState[Any], rng: Rng) -> int:
    return Stalling().choose(state, rng)


@pytest.mark.slow
def test_conformance_with_rounds_ended_by_the_limit() -> None:
    rules = SkyjoRules(players=3, turn_limit=100, closer_starts_next=True)
    report = check_game(
        GAME, rules, range(2), deep_every=7, replay_every=100, policy=_stalling_policy
    )
    assert report.games == 2 and report.blocked == 2


def test_snapshot_round_trip_keeps_the_turn_count_and_blocked_rounds() -> None:
    state = one_turn_before(end_score=1000)
    play(state, DrawFromDeck(), DiscardAndReveal(3))
    play(state, Reveal(0), Reveal(1), Reveal(0), Reveal(1))
    play(state, TakeDiscard(), Exchange(5), DrawFromDeck())
    assert state.turns == 1
    data = state.to_json()
    assert data["turns"] == 1 and data["rules"]["turn_limit"] == 100
    assert data["rounds"][0]["blocked"] is True and data["rounds"][0]["closer"] is None
    restored = GAME.state_from_json(json.loads(json.dumps(data)))
    assert restored == state and restored.to_json() == data
    assert restored.rounds() == state.rounds()
    assert restored.clone() == state


def test_views_show_the_turn_count_and_blocked_rounds() -> None:
    state = one_turn_before(end_score=1000)
    assert state.view(1)["turns"] == 99 and state.view(None)["rules"]["turn_limit"] == 100
    play(state, DrawFromDeck(), DiscardAndReveal(3))
    view = state.view(0)
    assert view["turns"] == 0
    assert view["rounds"][0]["blocked"] is True and view["rounds"][0]["doubled"] is False


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        ({"turns": 100}, "below the turn limit"),
        ({"rounds": [{"points": [1, 2], "winners": [0], "turns": 9, "closer": None}]}, "closer"),
        (
            {
                "rounds": [
                    {"points": [2, 1], "winners": [1], "turns": 9, "closer": 0, "blocked": True}
                ],
                "doubled": True,
            },
            "doubled",
        ),
    ],
)
def test_inconsistent_snapshots_are_refused(edit: dict[str, Any], message: str) -> None:
    data = one_turn_before().to_json()
    doubled = edit.pop("doubled", False)
    data.update(edit)
    for entry in data["rounds"]:
        entry["doubled"] = doubled
    with pytest.raises(SerializationError, match=message):
        GAME.state_from_json(data)


def test_a_round_entry_of_an_older_snapshot_without_blocked_reads_as_not_blocked() -> None:
    data = one_turn_before().to_json()
    data["rounds"] = [{"points": [1, 2], "winners": [0], "turns": 9, "closer": 0, "doubled": False}]
    state = GAME.state_from_json(data)
    assert state.rounds() == [RoundResult((1, 2), (0,), 9, False)]
