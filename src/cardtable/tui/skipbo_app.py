"""The Skip-Bo table: its keys (a source, then a target pile) and its pages."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType

from ..skipbo.moves import EndTurn
from .skipbo_board import Place, build_move, legal_sources, render_skipbo
from .source import GameSource
from .table import JSON, TableApp


class SkipBoApp(TableApp):
    """Skip-Bo: pick a source (hand, stock, discard pile), then a target pile."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *[Binding(str(n + 1), f"hand({n})", "keys.skipbo.hand", show=False) for n in range(5)],
        Binding("s", "stock(False)", "keys.skipbo.stock"),
        Binding("p", "stock(True)", "keys.skipbo.partner_stock"),
        *[Binding(k, f"discard({n},False)", "keys.skipbo.discard") for n, k in enumerate("qwer")],
        *[
            Binding(k, f"discard({n},True)", "keys.skipbo.partner_discard")
            for n, k in enumerate("QWER")
        ],
        *[Binding(k, f"building({n})", "keys.skipbo.building") for n, k in enumerate("abcd")],
        Binding("n", "end_turn", "keys.skipbo.end_turn"),
    ]

    def __init__(self, source: GameSource, lang: str, *, summaries: bool = True) -> None:
        super().__init__(source, lang, summaries=summaries)
        self.selected: Place | None = None

    def render_board(self, view: JSON) -> Text:
        return render_skipbo(view, self.words, self.selected)

    def after_move(self, view: JSON) -> None:
        if self.selected is not None and self.selected not in legal_sources(view):
            self.selected = None

    def status_text(self, view: JSON) -> Text:
        w = self.words
        text = Text(w("game.skipbo") + " · ", style="bold")
        current = view["current"]
        if view["result"] is not None:
            text.append(w("status.over"), style="bold")
        elif current == view["seat"]:
            key = "status.skipbo.target" if self.selected else "status.skipbo.source"
            text.append(w(key), style="bold green")
        elif current is not None:
            text.append(w("status.waiting", who=w.who(current)))
        return text

    def sort_key(self, total: int) -> int:
        return -total

    ROUND_TOTALS = "scores"
    CURRENT = "current"

    def round_heading(self, event: JSON) -> Text:
        return Text(self.words.event(event) or "")

    def final_page(self, view: JSON) -> Text:
        w = self.words
        result = view["result"] or {}
        page = Text(w("summary.final") + "\n\n", style="bold")
        if result.get("blocked") or not result.get("winners"):
            page.append(w("event.game_blocked") + "\n\n")
        else:
            page.append(w("event.game_won", who=w.many(result["winners"])) + "\n\n")
        for number, entry in enumerate(view["rounds"], 1):
            winners = w.many(entry["winners"]) if entry["winners"] else "—"
            page.append(f"  {w('common.round', round=number):<12} {winners}\n", style="dim")
        if view["rules"].get("rounds"):
            page.append("\n")
            page.append_text(self.scores_table(view, list(result.get("scores") or [])))
        else:
            page.append("\n")
            for player in view["players"]:
                page.append(
                    f"  {w.who(player['seat']):<28} "
                    f"{w.count('skipbo.left', player['stock_size'])}\n"
                )
        page.append_text(self.final_keys())
        return page

    # --- selection ----------------------------------------------------------------
    def select(self, place: Place) -> None:
        self.selected = place
        self.say("")
        self.redraw()

    def partner_ok(self, view: JSON) -> bool:
        if view["rules"].get("teams"):
            return True
        self.say(self.words("msg.skipbo.no_partner"))
        return False

    async def action_hand(self, slot: int) -> None:
        view = self.turn_view()
        if view is None:
            return
        if slot >= len(view.get("hand", [])):
            self.say(self.words("msg.skipbo.no_card", slot=slot + 1))
            return
        self.select(Place("hand", slot))

    async def action_stock(self, partner: bool) -> None:
        view = self.turn_view()
        if view is None or (partner and not self.partner_ok(view)):
            return
        self.select(Place("stock", 0, partner))

    async def action_discard(self, index: int, partner: bool) -> None:
        view = self.turn_view()
        if view is None or (partner and not self.partner_ok(view)):
            return
        place = Place("discard", index, partner)
        if self.selected is not None and self.selected.kind == "hand":
            move = build_move(view, self.selected, place)
            self.selected = None
            if move is not None:
                await self.play(move)
            return
        self.select(place)

    async def action_building(self, index: int) -> None:
        view = self.turn_view()
        if view is None:
            return
        if self.selected is None:
            self.say(self.words("msg.skipbo.pick_source"))
            return
        move = build_move(view, self.selected, Place("building", index))
        source = self.selected
        self.selected = None
        if move is None:
            self.say(self.words("msg.skipbo.no_such_move"))
            self.redraw()
            return
        if not await self.play(move) and source.kind == "hand":
            self.selected = None

    async def action_end_turn(self) -> None:
        if self.turn_view() is not None:
            self.selected = None
            await self.play(EndTurn())

    def action_cancel(self) -> None:
        self.selected = None
        self.say("")
        self.redraw()
