"""The Skyjo table drawn from a seat's view: every grid, the piles, the held card.

Only the view is read (face-down cards are ``null`` there). The cursor and the
highlighted positions come from :class:`SkyjoCursor` and the view's legal actions.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from rich.text import Text

from ..skyjo.moves import DRAW, EXCHANGE, TAKE_DISCARD
from .words import Words

JSON = dict[str, Any]
ROWS, COLS, SLOTS = 3, 4, 12
BLOCK = 18  # characters per grid block
GAP = 2
PER_BAND = 4

STYLE_DOWN = "bold white on dark_blue"
STYLE_LEGAL = "bold black on green"
STYLE_TURN = "bold yellow"


def card_style(card: int) -> str:
    """Colours after the printed cards: blue below zero, then green, yellow, red."""
    if card < 0:
        return "bold blue"
    if card == 0:
        return "bold cyan"
    if card <= 4:
        return "bold green"
    if card <= 8:
        return "bold yellow"
    return "bold red"


@dataclasses.dataclass
class SkyjoCursor:
    """The position the player points at in their own grid (0..11, row by row)."""

    pos: int = 0

    def move(self, drow: int, dcol: int) -> None:
        row = (self.pos // COLS + drow) % ROWS
        col = (self.pos % COLS + dcol) % COLS
        self.pos = row * COLS + col


def legal_positions(view: JSON) -> set[int]:
    """Positions of our grid named by a legal move now (reveal, exchange, discard and reveal)."""
    positions: set[int] = set()
    for code in view.get("legal_actions", []):
        if code >= EXCHANGE:
            positions.add((code - EXCHANGE) % SLOTS)
    return positions


def _cell(view: JSON, owner: int, pos: int, cursor: int | None, legal: set[int]) -> Text:
    status = view["status"][owner][pos]
    if status == "removed":
        label, style = " ·", "dim"
    elif status == "down":
        label, style = "##", STYLE_DOWN
    else:
        card = view["grids"][owner][pos]
        label, style = f"{card:>2}", card_style(card)
    if pos in legal:
        style = STYLE_LEGAL
    if pos == cursor:
        return Text.assemble(("[", "bold"), (label, style + " reverse"), ("]", "bold"))
    return Text.assemble(" ", (label, style), " ")


def _block(view: JSON, owner: int, words: Words, cursor: int | None, legal: set[int]) -> list[Text]:
    current = view["current_player"]
    mark = "▶" if owner == current else " "
    name = words.who(owner)
    total = str(view["totals"][owner])
    room = BLOCK - 1 - len(total) - 1
    if len(name) > room:
        name = name[: room - 1] + "…"
    head = Text(mark, style=STYLE_TURN)
    head.append(name.ljust(room), style="bold" if owner == current else "")
    head.append(" " + total, style="bold magenta")
    lines = [head]
    for row in range(ROWS):
        line = Text(" ")
        for col in range(COLS):
            line.append_text(_cell(view, owner, row * COLS + col, cursor, legal))
        lines.append(line)
    info = Text(" " + words("skyjo.sum_short", sum=view["face_up_sums"][owner]), style="dim")
    if view.get("closer") == owner:
        info.append(" " + words("skyjo.closer_mark"), style="bold red")
    lines.append(info)
    return lines


def _held_line(view: JSON, words: Words) -> Text:
    legal = set(view.get("legal_actions", []))
    line = Text()
    draw_style = STYLE_LEGAL if DRAW in legal else "bold"
    line.append(words("skyjo.draw_pile") + " ")
    line.append("(d)", style="dim")
    line.append(" ")
    line.append(f" {view['draw_count']} ", style=draw_style)
    line.append("   " + words("skyjo.discard_pile") + " ")
    line.append("(t)", style="dim")
    line.append(" ")
    top = view["discard_top"]
    if top is None:
        line.append(" · ")
    else:
        style = STYLE_LEGAL if TAKE_DISCARD in legal else card_style(top)
        line.append(f" {top} ", style=style)
    hand = view.get("hand")
    if hand is not None and view.get("current_player") is not None:
        origin = words(
            "skyjo.from_draw" if view.get("hand_from") == "draw" else "skyjo.from_discard"
        )
        line.append("   " + words("skyjo.held") + " ")
        line.append(f" {hand} ", style=card_style(hand) + " reverse")
        line.append(f" ({origin})", style="dim")
    return line


def render_skyjo(view: JSON, words: Words, cursor: SkyjoCursor | None) -> Text:
    """The whole table: grids in bands of four (our seat first), then the piles."""
    seat = view.get("seat")
    count = len(view["grids"])
    order = list(range(count))
    if seat is not None:
        order = [seat, *[s for s in range(count) if s != seat]]
    legal = legal_positions(view)
    out = Text()
    for start in range(0, count, PER_BAND):
        band = order[start : start + PER_BAND]
        blocks = [
            _block(
                view,
                owner,
                words,
                cursor.pos if cursor is not None and owner == seat else None,
                legal if owner == seat else set(),
            )
            for owner in band
        ]
        for index in range(len(blocks[0])):
            line = Text()
            for block in blocks:
                part = block[index]
                line.append_text(part)
                line.append(" " * (BLOCK + GAP - part.cell_len))
            line.rstrip()
            out.append_text(line)
            out.append("\n")
    out.append_text(_held_line(view, words))
    return out
