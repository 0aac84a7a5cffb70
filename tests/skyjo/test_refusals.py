"""Refusals as catalog keys: each refusal's key and parameters, and its English text,
byte for byte the text the engine gave before refusals had keys."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from cardtable.core import Refusal, Rng
from cardtable.skyjo import (
    GAME,
    SLOTS,
    DiscardAndReveal,
    DrawFromDeck,
    Exchange,
    Move,
    Reveal,
    SkyjoRules,
    SkyjoState,
    TakeDiscard,
)
from cardtable.skyjo import cards as layout
from cardtable.skyjo import refusals as r
from cardtable.skyjo.state import DRAWN, OVER, SETUP, TAKEN, TURN

from ..refusal_check import check_refused
from .helpers import build, grid, play

MINE = grid("""
    9   *   *   *
    *   4   *   *
   *7   *   *   *
""")
THEIRS = grid("1 * * *  * 2 * *  * * * *")
GONE = grid(". * * *  . * * *  . * * *")


def _setup() -> SkyjoState:
    state = GAME.new_state(SkyjoRules(players=2), seed=5)
    play(state, Reveal(3))
    return state


def _turn() -> SkyjoState:
    return build([MINE, THEIRS])


def _drawn() -> SkyjoState:
    state = build([MINE, THEIRS], draw_top=[11])
    play(state, DrawFromDeck())
    return state


def _taken(mine: list[tuple[str, int | None]] = MINE) -> SkyjoState:
    state = build([mine, THEIRS], discard=[3, 2])
    play(state, TakeDiscard())
    return state


def _over() -> SkyjoState:
    state = GAME.new_state(SkyjoRules(players=2, end_score=10), 0)
    rng = Rng(1)
    while not state.is_over:
        legal = state.legal_actions()
        state.advance(legal[rng.below(len(legal))])
    return state


CASES: list[tuple[Callable[[], SkyjoState], Move, str, Refusal]] = [
    (_over, DrawFromDeck(), "the game is over", Refusal.of(r.GAME_OVER)),
    (
        _setup,
        DrawFromDeck(),
        "the round has not started: each player first turns two cards face up",
        Refusal.of(r.SETUP_FIRST),
    ),
    (
        _turn,
        Reveal(1),
        "cards are turned up freely only at set-up; draw or take the discard first",
        Refusal.of(r.SETUP_ONLY),
    ),
    (
        _turn,
        DiscardAndReveal(0),
        "first draw from the draw pile or take the top of the discard pile",
        Refusal.of(r.DRAW_FIRST),
    ),
    (
        _drawn,
        TakeDiscard(),
        "you already hold the drawn card: exchange it, or discard it and reveal",
        Refusal.of(r.ALREADY_HOLDING),
    ),
    (
        _drawn,
        Reveal(2),
        "to turn a card up now, discard the drawn card (discard and reveal)",
        Refusal.of(r.DISCARD_TO_REVEAL),
    ),
    (
        _taken,
        DiscardAndReveal(1),
        "you must exchange the card taken from the discard pile",
        Refusal.of(r.MUST_EXCHANGE),
    ),
    (
        lambda: _taken(GONE),
        Exchange(4),
        "position 4 (row 2, column 1) is empty: its cards were removed",
        Refusal.of(r.EMPTY_POSITION, pos=4, row=2, col=1),
    ),
    (
        _setup,
        Reveal(3),
        "position 3 (row 1, column 4) is already face up",
        Refusal.of(r.FACE_UP, pos=3, row=1, col=4),
    ),
    (
        _drawn,
        DiscardAndReveal(5),
        "position 5 (row 2, column 2) is already face up",
        Refusal.of(r.FACE_UP, pos=5, row=2, col=2),
    ),
]


@pytest.mark.parametrize(("make", "move", "english", "refusal"), CASES)
def test_each_refusal_has_its_key_and_its_english(
    make: Callable[[], SkyjoState], move: Move, english: str, refusal: Refusal
) -> None:
    check_refused(make(), move, english, refusal)


def test_a_legal_move_asked_about_is_named_by_the_move_itself() -> None:
    # No illegal move comes to this last answer: only a legal one explained anyway.
    state = _turn()
    move = DrawFromDeck()
    assert state.is_legal(move)
    assert state.explain_illegal_parts(move) == Refusal.of(r.NOT_LEGAL)
    assert state.explain_illegal(move) == "draw from the draw pile is not legal now"


def test_the_cases_cover_every_refusal() -> None:
    keys = {refusal.key for *_, refusal in CASES}
    assert keys == set(r.ENGLISH) - {r.NOT_LEGAL}


def _before(state: SkyjoState, move: Move) -> str:
    """The engine's explanation as it was written before refusals had keys."""
    phase = state.phase
    if phase == OVER:
        return "the game is over"
    if phase == SETUP:
        if not isinstance(move, Reveal):
            return "the round has not started: each player first turns two cards face up"
    elif phase == TURN:
        if isinstance(move, Reveal):
            return "cards are turned up freely only at set-up; draw or take the discard first"
        if not isinstance(move, DrawFromDeck | TakeDiscard):
            return "first draw from the draw pile or take the top of the discard pile"
    elif phase == DRAWN:
        if isinstance(move, DrawFromDeck | TakeDiscard):
            return "you already hold the drawn card: exchange it, or discard it and reveal"
        if isinstance(move, Reveal):
            return "to turn a card up now, discard the drawn card (discard and reveal)"
    elif phase == TAKEN and not isinstance(move, Exchange):
        return "you must exchange the card taken from the discard pile"
    seat = state.player
    pos = getattr(move, "pos", None)
    if isinstance(pos, int) and 0 <= pos < SLOTS:
        where = f"position {pos} ({layout.position_name(pos)})"
        if not state.present[seat] >> pos & 1:
            return f"{where} is empty: its cards were removed"
        if not state.down[seat] >> pos & 1:
            return f"{where} is already face up"
    return f"{move} is not legal now"


@pytest.mark.parametrize(
    "rules",
    [SkyjoRules(players=2, end_score=30), SkyjoRules(players=3, end_score=20, rows_rule=True)],
    ids=["two", "three-rows"],
)
def test_random_positions_explain_every_move_as_before(rules: SkyjoRules) -> None:
    odd = [Reveal(-1), Reveal(12), Exchange(40), DiscardAndReveal(-3)]
    compared = 0
    for seed in range(3):
        state = GAME.new_state(rules, seed)
        rng = Rng(seed + 100)
        while True:
            for move in [GAME.decode(action) for action in range(GAME.num_actions)] + odd:
                assert state.explain_illegal(move) == _before(state, move), (seed, move)
                compared += 1
            if state.is_over:
                break
            legal = state.legal_actions()
            state.advance(legal[rng.below(len(legal))])
    assert compared > 10_000
