"""The Skyjo table: its keys (draw, take, place, reveal, the cursor) and its pages."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType

from ..skyjo.moves import DiscardAndReveal, DrawFromDeck, Exchange, Reveal, TakeDiscard
from .skyjo_board import SkyjoCursor, render_skyjo
from .source import GameSource
from .table import JSON, TableApp


class SkyjoApp(TableApp):
    """Skyjo: arrows move the cursor over our grid; keys draw, take, place, reveal."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("d", "draw", "keys.skyjo.draw"),
        Binding("t", "take", "keys.skyjo.take"),
        Binding("enter,space", "place", "keys.skyjo.place", key_display="enter"),
        Binding("x", "flip", "keys.skyjo.flip"),
        Binding("left", "cursor(0,-1)", "keys.cursor", key_display="←↑↓→"),
        Binding("right", "cursor(0,1)", "keys.cursor", show=False),
        Binding("up", "cursor(-1,0)", "keys.cursor", show=False),
        Binding("down", "cursor(1,0)", "keys.cursor", show=False),
    ]

    def __init__(self, source: GameSource, lang: str, *, summaries: bool = True) -> None:
        super().__init__(source, lang, summaries=summaries)
        self.cursor = SkyjoCursor()

    def render_board(self, view: JSON) -> Text:
        return render_skyjo(view, self.words, self.cursor)

    def status_text(self, view: JSON) -> Text:
        w = self.words
        text = Text(w("common.round", round=view["round"]) + " · ", style="bold")
        current = view["current_player"]
        if view["result"] is not None:
            text.append(w("status.over"), style="bold")
            return text
        if view["final_turns"]:
            text.append(w("skyjo.final_turns", who=w.who(view["closer"])) + " · ", style="bold red")
        if current == view["seat"]:
            key = {
                "setup": "status.skyjo.setup",
                "turn": "status.skyjo.turn",
                "drawn": "status.skyjo.drawn",
                "taken": "status.skyjo.taken",
            }.get(view["phase"], "status.your_turn")
            text.append(w(key), style="bold green")
        elif current is not None:
            text.append(w("status.waiting", who=w.who(current)))
        return text

    ROUND_TOTALS = "totals"
    CURRENT = "current_player"

    def round_heading(self, event: JSON) -> Text:
        w = self.words
        if event["closer"] is None:
            return Text(w("skyjo.turn_limit_reached"))
        heading = Text(w("skyjo.closed_by", who=w.who(event["closer"])))
        if event["doubled"]:
            heading.append(" " + w("skyjo.doubled"), style="bold red")
        return heading

    def final_page(self, view: JSON) -> Text:
        w = self.words
        result = view["result"] or {}
        page = Text(w("summary.final") + "\n\n", style="bold")
        page.append(w("event.game_won", who=w.many(result.get("winners", []))) + "\n\n")
        for number, entry in enumerate(view["rounds"], 1):
            points = "  ".join(f"{p:>4}" for p in entry["points"])
            page.append(f"  {w('common.round', round=number):<12} {points}\n", style="dim")
        page.append("\n")
        page.append_text(self.scores_table(view, result.get("scores") or view["totals"]))
        page.append_text(self.final_keys())
        return page

    def action_cursor(self, drow: int, dcol: int) -> None:
        self.cursor.move(drow, dcol)
        self.redraw()

    async def action_draw(self) -> None:
        if self.turn_view() is not None:
            await self.play(DrawFromDeck())

    async def action_take(self) -> None:
        if self.turn_view() is not None:
            await self.play(TakeDiscard())

    async def action_place(self) -> None:
        if self.turn_view() is None:
            return
        view = self.source.view()
        pos = self.cursor.pos
        if view["phase"] == "setup":
            await self.play(Reveal(pos))
        elif view["hand"] is None:
            self.say(self.words("msg.skyjo.draw_first"))
        else:
            await self.play(Exchange(pos))

    async def action_flip(self) -> None:
        if self.turn_view() is not None:
            await self.play(DiscardAndReveal(self.cursor.pos))
