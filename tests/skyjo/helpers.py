"""Scenario helpers: build Skyjo positions from readable grids, play moves.

A grid is written as three rows of four tokens::

    grid('''
        5   5  *5   .
        1   2   *   .
       *3   4   *   .
    ''')

``5`` is a face-up 5, ``*5`` a face-down 5 (the test knows it, the players do
not), ``*`` a face-down card of no importance (filled from the unused cards),
``.`` an empty position (its column was removed). Every position built by
:func:`build` holds the 150 cards of the deck: cards the scenario does not name
are dealt, in a fixed order, to ``*`` positions and to the draw pile.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from cardtable.core import Event
from cardtable.skyjo import GAME, SLOTS, Move, SkyjoRules, SkyjoState, deck

Cell = tuple[str, int | None]  # ("up" | "down" | "gone", card or None to fill)


def grid(text: str) -> list[Cell]:
    tokens = text.split()
    assert len(tokens) == SLOTS, f"a grid has {SLOTS} positions, got {len(tokens)}"
    cells: list[Cell] = []
    for token in tokens:
        if token == ".":
            cells.append(("gone", None))
        elif token == "*":
            cells.append(("down", None))
        elif token.startswith("*"):
            cells.append(("down", int(token[1:])))
        else:
            cells.append(("up", int(token)))
    return cells


def hidden(count: int = SLOTS) -> list[Cell]:
    """A grid of face-down cards of no importance."""
    return [("down", None)] * count


def _filler(pool: Counter[int]) -> list[int]:
    """The unused cards, values interleaved (12, 11, ..., -2, 12, 11, ...) so that
    neighbouring filled positions differ; popped from the front."""
    order: list[int] = []
    remaining = Counter(pool)
    while sum(remaining.values()):
        for value in sorted(remaining, reverse=True):
            if remaining[value] > 0:
                order.append(value)
                remaining[value] -= 1
    return order


def build(
    grids: list[list[Cell]],
    *,
    discard: list[int] | tuple[int, ...] = (5,),
    draw_top: list[int] | tuple[int, ...] = (),
    draw_size: int | None = None,
    hand: int | None = None,
    phase: str = "turn",
    player: int = 0,
    starter: int | None = 0,
    closer: int | None = None,
    totals: list[int] | None = None,
    round_number: int = 1,
    rounds: list[dict[str, Any]] | None = None,
    turns: int = 0,
    **options: Any,
) -> SkyjoState:
    """A position from a readable description (see the module docstring).

    ``draw_top`` lists the next cards to be drawn, the first one on top.
    ``draw_size`` caps the draw pile (the other unused cards go under the
    discard pile), e.g. ``draw_size=0`` for an empty draw pile. ``turns`` is the
    number of turns already played in the round (see the ``turn_limit`` option).
    """
    players = len(grids)
    rules = SkyjoRules(players=players, **options)
    pool = deck()

    def take(card: int) -> int:
        pool[card] -= 1
        assert pool[card] >= 0, f"the deck has only {deck()[card]} cards of value {card}"
        return card

    named = [c for g in grids for state, c in g if c is not None]
    for card in [*named, *discard, *draw_top, *([] if hand is None else [hand])]:
        take(card)
    filler = _filler(pool)
    grid_json: list[list[int | None]] = []
    face_up: list[list[bool]] = []
    for cells in grids:
        row: list[int | None] = []
        for status, card in cells:
            if status == "gone":
                row.append(None)
            else:
                row.append(card if card is not None else filler.pop(0))
        grid_json.append(row)
        face_up.append([status == "up" for status, _ in cells])
    under = filler
    if draw_size is not None:
        keep = max(0, draw_size - len(draw_top))
        under, filler = filler[keep:], filler[:keep]
        discard = [*under, *discard]
    draw = [*filler, *reversed(draw_top)]
    data = {
        "game": "skyjo",
        "rules": rules.to_json(),
        "seed": 0,
        "rng": 12345,
        "history": [],
        "round": round_number,
        "phase": phase,
        "player": None if phase == "over" else player,
        "starter": starter,
        "closer": closer,
        "grids": grid_json,
        "face_up": face_up,
        "draw": draw,
        "discard": list(discard),
        "hand": hand,
        "totals": totals if totals is not None else [0] * players,
        "turns": turns,
        "reshuffled": False,
        "rounds": rounds or [],
    }
    return GAME.state_from_json(data)


def play(state: SkyjoState, *moves: Move) -> list[Event]:
    """Apply ``moves`` in order (each must be legal); the events they caused."""
    events: list[Event] = []
    for move in moves:
        events.extend(state.apply(move).events)
    return events


def of_type(events: list[Event], kind: type[Event]) -> list[Any]:
    return [event for event in events if isinstance(event, kind)]


def face_down(state: SkyjoState, seat: int) -> list[int]:
    """Positions of ``seat`` still face down."""
    return [pos for pos in range(SLOTS) if state.down[seat] >> pos & 1]


def present(state: SkyjoState, seat: int) -> list[int]:
    """Positions of ``seat`` still holding a card."""
    return [pos for pos in range(SLOTS) if state.present[seat] >> pos & 1]
