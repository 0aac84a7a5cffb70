"""The Skip-Bo table drawn from a seat's view, and the choice of a move in two steps.

A move is picked as a source (a hand card, a stock, a discard pile) then a
target (a building pile, or a discard pile for a hand card). Keys name places:
``1``-``5`` the hand, ``s`` the own stock, ``p`` the partner's stock, ``q w e r``
the own discard piles, ``Q W E R`` the partner's, ``a b c d`` the building piles.
Highlights come from the view's legal actions only.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from rich.text import Text

from ..skipbo.moves import (
    Discard,
    EndTurn,
    PlayFromDiscard,
    PlayFromHand,
    PlayFromStock,
    decode,
)
from .words import Words

JSON = dict[str, Any]
Move = PlayFromHand | PlayFromStock | PlayFromDiscard | Discard | EndTurn

DISCARD_KEYS = "qwer"
BUILDING_KEYS = "abcd"
STYLE_SELECTED = "reverse bold"
STYLE_LEGAL = "bold black on green"
STYLE_TURN = "bold yellow"


@dataclasses.dataclass(frozen=True, slots=True)
class Place:
    """A place on the table: ``kind`` is hand, stock, discard or building."""

    kind: str
    index: int = 0
    partner: bool = False


def place_of_source(move: Move, hand: list[int]) -> list[Place]:
    if isinstance(move, PlayFromHand | Discard):
        return [Place("hand", slot) for slot, card in enumerate(hand) if card == move.card]
    if isinstance(move, PlayFromStock):
        return [Place("stock", 0, move.partner)]
    if isinstance(move, PlayFromDiscard):
        return [Place("discard", move.discard, move.partner)]
    return []


def place_of_target(move: Move) -> Place | None:
    if isinstance(move, PlayFromHand | PlayFromStock | PlayFromDiscard):
        return Place("building", move.pile)
    if isinstance(move, Discard):
        return Place("discard", move.discard, move.partner)
    return None


def legal_moves(view: JSON) -> list[Move]:
    return [decode(code) for code in view.get("legal_actions", [])]


def legal_sources(view: JSON) -> set[Place]:
    hand: list[int] = view.get("hand", [])
    return {place for move in legal_moves(view) for place in place_of_source(move, hand)}


def legal_targets(view: JSON, source: Place | None) -> set[Place]:
    if source is None:
        return set()
    hand: list[int] = view.get("hand", [])
    targets = set()
    for move in legal_moves(view):
        target = place_of_target(move)
        if target is not None and source in place_of_source(move, hand):
            targets.add(target)
    return targets


def build_move(view: JSON, source: Place, target: Place) -> Move | None:
    """The move from ``source`` to ``target`` (legal or not), or None if no move says that."""
    hand: list[int] = view.get("hand", [])
    if source.kind == "hand":
        if source.index >= len(hand):
            return None
        card = hand[source.index]
        if target.kind == "building":
            return PlayFromHand(card, target.index)
        if target.kind == "discard":
            return Discard(card, target.index, target.partner)
        return None
    if target.kind != "building":
        return None
    if source.kind == "stock":
        return PlayFromStock(target.index, source.partner)
    if source.kind == "discard":
        return PlayFromDiscard(source.index, target.index, source.partner)
    return None


def _style(place: Place, selected: Place | None, highlighted: set[Place], base: str = "") -> str:
    if place == selected:
        return STYLE_SELECTED
    if place in highlighted:
        return STYLE_LEGAL
    return base


def _pile_text(words: Words, pile: list[int], keep: int) -> str:
    if not pile:
        return "·"
    shown = " ".join(words.card(card) for card in pile[-keep:])
    return ("…" if len(pile) > keep else "") + shown


def _seat_name(words: Words, seat: int, width: int) -> str:
    name = words.who(seat)
    return (name if len(name) <= width else name[: width - 1] + "…").ljust(width)


def _other_line(view: JSON, words: Words, player: JSON, partner_of_me: bool, hl: Any) -> Text:
    """One line per other player: name, hand size, stock top and size, the four discard piles.

    The partner's places carry their keys (``p``, ``Q W E R``) and highlights.
    """
    seat = player["seat"]
    selected, highlighted = hl
    line = Text("▶" if view["current"] == seat else " ", style=STYLE_TURN)
    line.append(_seat_name(words, seat, 12), style="bold" if view["current"] == seat else "")
    line.append(" " + words("skipbo.hand_short", count=player["hand_size"]) + " ")
    top = player["stock_top"]
    stock = Place("stock", 0, True)
    line.append("p" if partner_of_me else " ", style="dim")
    stock_text = f"{words.card(top) if top is not None else '·':>3}"
    line.append(
        stock_text, style=_style(stock, selected, highlighted, "bold") if partner_of_me else "bold"
    )
    line.append(f" ({player['stock_size']})".ljust(6), style="dim")
    for index, pile in enumerate(player["discards"]):
        line.append("│")
        line.append(DISCARD_KEYS[index].upper() if partner_of_me else " ", style="dim")
        place = Place("discard", index, True)
        text = _pile_text(words, pile, 2)
        style = _style(place, selected, highlighted) if partner_of_me else ""
        line.append(" ")
        line.append(text, style=style)
        line.append(" " * max(0, 7 - len(text)))
    line.rstrip()
    return line


def render_skipbo(view: JSON, words: Words, selected: Place | None) -> Text:
    """The table from our seat: centre piles, the other players (by team), then our own area."""
    seat = view.get("seat")
    players: list[JSON] = view["players"]
    mine = players[seat] if seat is not None else None
    highlighted = legal_targets(view, selected) if selected is not None else legal_sources(view)
    hl = (selected, highlighted)
    out = Text()
    out.append(words("skipbo.draw_pile") + f" {view['draw_size']}", style="bold")
    out.append("   " + words("skipbo.completed") + f" {view['completed_size']}")
    out.append("   " + words("common.round", round=view["round"]))
    out.append("\n" + words("skipbo.building_piles") + ":")
    for index, pile in enumerate(view["building"]):
        place = Place("building", index)
        out.append("  ")
        out.append(BUILDING_KEYS[index], style="dim")
        value = str(len(pile)) if pile else "·"
        out.append(f" {value:>2} ", style=_style(place, None, highlighted, "bold"))
        out.append(f"→{view['building_next'][index]:<2}", style="dim")
    out.append("\n")
    rules = view["rules"]
    others = [p for p in players if p["seat"] != seat]
    if rules.get("teams") and mine is not None:
        partner = mine["partner"]
        teams: dict[int, list[JSON]] = {}
        for player in players:
            teams.setdefault(player["team"], []).append(player)
        for team, members in sorted(teams.items(), key=lambda item: item[0] != mine["team"]):
            names = words("common.and").join(words.who(p["seat"]) for p in members)
            header = "skipbo.your_team" if team == mine["team"] else "skipbo.team"
            out.append("\n" + words(header, number=team + 1, names=names), style="bold underline")
            for player in members:
                if player["seat"] != seat:
                    out.append("\n")
                    out.append_text(_other_line(view, words, player, player["seat"] == partner, hl))
    else:
        for player in others:
            out.append("\n")
            out.append_text(_other_line(view, words, player, False, hl))
    if mine is None:
        return out
    out.append("\n\n")
    me = mine["seat"]
    out.append("▶" if view["current"] == me else " ", style=STYLE_TURN)
    out.append(words("skipbo.your_stock") + " ", style="bold")
    out.append("s", style="dim")
    top = mine["stock_top"]
    stock_place = Place("stock")
    out.append(
        f" {words.card(top) if top is not None else '·':>2} ",
        style=_style(stock_place, selected, highlighted, "bold"),
    )
    out.append(words.count("skipbo.left", mine["stock_size"]), style="dim")
    out.append("\n " + words("skipbo.your_discards") + ":")
    for index, pile in enumerate(mine["discards"]):
        place = Place("discard", index)
        out.append("  ")
        out.append(DISCARD_KEYS[index], style="dim")
        out.append(" ")
        out.append(_pile_text(words, pile, 4), style=_style(place, selected, highlighted))
    out.append("\n " + words("skipbo.your_hand") + ":")
    hand: list[int] = view.get("hand", [])
    for slot in range(5):
        place = Place("hand", slot)
        out.append(" ")
        out.append(str(slot + 1), style="dim")
        text = f"{words.card(hand[slot]) if slot < len(hand) else '·':>2}"
        out.append(
            f"[{text}]" if place == selected else f" {text} ",
            style=_style(place, selected, highlighted, "bold"),
        )
    return out
