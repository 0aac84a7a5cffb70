"""Moves and events in words, in the player's language, from their public JSON forms.

Everything here reads JSON (a move's ``to_json()``, an event's ``to_json()``), so
the same words serve a local game and a room on a server.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from ..bots.advisor import ReasonPart, render_reason
from ..core import Refusal
from ..i18n import FALLBACK, catalog, plural_key, translate, translate_count
from ..i18n.refusals import render_refusal

JSON = dict[str, Any]


#: Why a Skip-Bo round ended blocked (the engine's ``RoundEnded.reason``), in words.
_SKIPBO_BLOCKED = {
    "no card fits": "event.round_blocked_stuck",
    "idle limit": "event.round_blocked_idle",
}


class Words:
    """Translations for one language and one table (seat names included)."""

    def __init__(self, lang: str, game: str, names: Sequence[str]) -> None:
        self.lang = lang
        self.game = game
        self.names = list(names)

    def __call__(self, key: str, **params: object) -> str:
        return translate(self.lang, key, **params)

    def count(self, key: str, count: int, **params: object) -> str:
        """The plural group ``key`` worded for ``count`` (``{count}`` in the text)."""
        return translate_count(self.lang, key, count, **params)

    def amount(self, key: str, value: float, digits: int = 1, **params: object) -> str:
        """The plural group ``key`` for ``value`` written with ``digits`` decimals, the
        form chosen for the number as written (CLDR: "1.0 points", "1,0 point")."""
        chosen = plural_key(self.lang, key, Decimal(f"{value:.{digits}f}"))
        return self(chosen, count=self.number(value, digits), **params)

    def has(self, key: str) -> bool:
        """Whether ``key`` has a text (without counting a miss, unlike a lookup)."""
        return key in catalog(self.lang) or key in catalog(FALLBACK)

    # --- small pieces -----------------------------------------------------
    def who(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else str(seat)

    def many(self, seats: Sequence[int]) -> str:
        return self("common.and").join(self.who(seat) for seat in seats)

    def card(self, card: int | None) -> str:
        """A card as shown on the board: Skip-Bo wild cards are 'SB'."""
        if card is None:
            return "?"
        if self.game == "skipbo" and card == 0:
            return self("skipbo.wild_short")
        return str(card)

    def card_long(self, card: int) -> str:
        if self.game == "skipbo" and card == 0:
            return self("skipbo.wild")
        return str(card)

    def number(self, value: float, digits: int = 1) -> str:
        """``value`` with ``digits`` decimals, with a decimal comma outside English."""
        text = f"{value:.{digits}f}"
        return text if self.lang == "en" else text.replace(".", ",")

    def position(self, pos: int) -> str:
        return self("skyjo.position", row=pos // 4 + 1, col=pos % 4 + 1)

    # --- moves ------------------------------------------------------------
    def move(self, move: JSON) -> str:
        kind = move.get("type", "")
        if self.game == "skipbo":
            partner = bool(move.get("partner", False))
            if kind == "play_hand":
                return self(
                    "move.skipbo.play_hand",
                    card=self.card_long(move["card"]),
                    pile=move["pile"] + 1,
                )
            if kind == "play_stock":
                key = "move.skipbo.play_partner_stock" if partner else "move.skipbo.play_stock"
                return self(key, pile=move["pile"] + 1)
            if kind == "play_discard":
                key = "move.skipbo.play_partner_discard" if partner else "move.skipbo.play_discard"
                return self(key, discard=move["discard"] + 1, pile=move["pile"] + 1)
            if kind == "discard":
                key = "move.skipbo.discard_partner" if partner else "move.skipbo.discard"
                return self(key, card=self.card_long(move["card"]), discard=move["discard"] + 1)
            if kind == "end_turn":
                return self("move.skipbo.end_turn")
        else:
            if kind == "draw":
                return self("move.skyjo.draw")
            if kind == "take_discard":
                return self("move.skyjo.take_discard")
            if kind in ("exchange", "reveal", "discard_and_reveal"):
                return self(f"move.skyjo.{kind}", position=self.position(move["pos"]))
        return str(move)

    # --- table talk -------------------------------------------------------------
    def talk(self, message: JSON) -> str | None:
        """A chat line, a quick reaction or a ``turn_timeout`` or ``hinted`` notice of an
        online room in words (None for anything else)."""
        seat = message.get("seat")
        if isinstance(seat, int):
            name = self.who(seat)
        else:
            name = self("talk.spectator", n=message.get("spectator") or 0)
        kind = message.get("type")
        if kind == "chat":
            return self("talk.chat", name=name, text=str(message.get("text", "")))
        if kind == "reaction":
            reaction = str(message.get("reaction", ""))
            key = f"talk.reaction.{reaction}"
            return self("talk.reaction", name=name, reaction=self(key) if self.has(key) else "?")
        if kind == "notice" and message.get("code") == "turn_timeout":
            return self("talk.turn_timeout", name=name)
        if kind == "notice" and message.get("code") == "hinted":
            return self("talk.hinted", name=name)
        if kind == "rated":
            return self.verdict(message)
        return None

    # --- ratings ----------------------------------------------------------
    def ladder(self, ladder: str) -> str:
        return self(f"ladder.{ladder}")

    def verdict(self, message: JSON) -> str:
        """Whether the game just finished was rated (a ``rated`` message), and each rated
        seat's new rating and change; or why it was not."""
        if not message.get("rated"):
            reason = str(message.get("reason") or "blocked")
            key = f"rated.reason.{reason}"
            return self("talk.unrated", reason=self(key) if self.has(key) else reason)
        changes = [
            self(
                "talk.rated_seat",
                name=self.who(int(entry["seat"])),
                rating=entry["rating"],
                plus_minus=entry["plus_minus"],
                change=f"{entry['change']:+d}" if entry["change"] else "0",
            )
            for entry in message.get("seats") or []
        ]
        return self(
            "talk.rated", ladder=self.ladder(str(message.get("ladder"))), seats=", ".join(changes)
        )

    def standing(self, name: str, ratings: Sequence[JSON]) -> str:
        """Who is signed in and their rating on this game's ladders (none yet: said so)."""
        shown = [
            self(
                "account.rating",
                ladder=self.ladder(str(entry["ladder"])),
                rating=entry["rating"],
                plus_minus=entry["plus_minus"],
            )
            + (" " + self("account.provisional") if entry.get("provisional") else "")
            for entry in ratings
        ]
        if not shown:
            shown = [self("account.no_rating", game=self(f"game.{self.game}"))]
        return self("account.signed_in", name=name, ratings=" · ".join(shown))

    # --- the move advisor's reasons ------------------------------------------
    def reason(self, parts: Sequence[JSON]) -> str:
        """A reason of the move advisor (its ``reason_parts`` JSON form) in words: seats
        by their names here."""
        return render_reason((ReasonPart.from_json(part) for part in parts), self, self.who)

    # --- refused moves ------------------------------------------------------
    def refusal(self, refusal: Refusal, move: JSON | None = None) -> str:
        """Why the engine refused ``move`` (its JSON form), in words."""
        return render_refusal(refusal, self, "" if move is None else self.move(move))

    # --- other refusals -----------------------------------------------------
    def error(self, code: str | None, reason: str) -> str:
        """A refusal that is not the engine's (the server's error ``code``, or this
        client's own) in words: ``error.{code}``, or the English ``reason`` for a code
        this catalog does not know."""
        key = f"error.{code}"
        return self(key) if code and self.has(key) else reason or str(code)

    def allowed(self, key: str | None, params: JSON, english: str) -> str:
        """What a rules option allows (a ``bad_options`` refusal's ``allowed_key`` and
        ``allowed_params``) in words; the engine's English when there is no known key."""
        return self(key, **params) if key and self.has(key) else english

    # --- events -----------------------------------------------------------
    def event(self, event: JSON) -> str | None:
        """One log line for ``event``, or None for events not worth a line."""
        kind = event.get("type", "")
        method = getattr(self, f"_{self.game}_{kind}", None)
        if method is None:
            return None
        text: str | None = method(event)
        return text

    # Skip-Bo
    def _skipbo_RoundDealt(self, e: JSON) -> str:  # noqa: N802
        return self("event.skipbo.round_dealt", round=e["round"], who=self.who(e["starter"]))

    def _skipbo_TurnStarted(self, e: JSON) -> str:  # noqa: N802
        return self("event.turn", turn=e["turn"], who=self.who(e["seat"]))

    def _skipbo_Drew(self, e: JSON) -> str:  # noqa: N802
        return self("event.skipbo.drew", who=self.who(e["seat"]), count=e["count"])

    def _skipbo_Reshuffled(self, e: JSON) -> str:  # noqa: N802
        return self("event.skipbo.reshuffled", count=e["count"])

    def _skipbo_Built(self, e: JSON) -> str:  # noqa: N802
        source = e["source"]
        partner = e["owner"] != e["seat"]
        where = {
            "hand": self("skipbo.from_hand"),
            "stock": self("skipbo.from_partner_stock" if partner else "skipbo.from_stock"),
            "discard": self("skipbo.from_partner_discard" if partner else "skipbo.from_discard"),
        }.get(source, source)
        card = self.card_long(e["card"])
        if e["card"] == 0:
            card = self("skipbo.wild_as", value=e["value"])
        return self(
            "event.skipbo.built",
            who=self.who(e["seat"]),
            card=card,
            source=where,
            pile=e["pile"] + 1,
        )

    def _skipbo_PileCompleted(self, e: JSON) -> str:  # noqa: N802
        return self("event.skipbo.pile_completed", pile=e["pile"] + 1)

    def _skipbo_StockRevealed(self, e: JSON) -> str:  # noqa: N802
        return self.count(
            "event.skipbo.stock_revealed",
            e["remaining"],
            who=self.who(e["owner"]),
            card=self.card_long(e["card"]),
        )

    def _skipbo_StockEmptied(self, e: JSON) -> str:  # noqa: N802
        return self("event.skipbo.stock_emptied", who=self.who(e["owner"]))

    def _skipbo_Discarded(self, e: JSON) -> str:  # noqa: N802
        key = (
            "event.skipbo.discarded_partner"
            if e["owner"] != e["seat"]
            else "event.skipbo.discarded"
        )
        return self(
            key, who=self.who(e["seat"]), card=self.card_long(e["card"]), pile=e["discard"] + 1
        )

    def _skipbo_TurnPassed(self, e: JSON) -> str:  # noqa: N802
        return self("event.skipbo.turn_passed", who=self.who(e["seat"]))

    def _skipbo_RoundEnded(self, e: JSON) -> str:  # noqa: N802
        if e["blocked"] or not e["winners"]:
            key = _SKIPBO_BLOCKED.get(e["reason"], "event.round_blocked")
            return self(key, round=e["round"])
        return self("event.round_won", round=e["round"], who=self.many(e["winners"]))

    def _skipbo_GameEnded(self, e: JSON) -> str:  # noqa: N802
        if e["blocked"] and e["winners"]:  # a match stopped by blocked rounds, on points
            return self("event.game_stopped_on_points", who=self.many(e["winners"]))
        if e["blocked"] or not e["winners"]:
            return self("event.game_blocked")
        return self("event.game_won", who=self.many(e["winners"]))

    # Skyjo
    def _skyjo_RoundDealt(self, e: JSON) -> str:  # noqa: N802
        return self("event.skyjo.round_dealt", round=e["round"], card=e["discard"])

    def _skyjo_CardRevealed(self, e: JSON) -> str:  # noqa: N802
        return self(
            "event.skyjo.revealed",
            who=self.who(e["seat"]),
            card=e["card"],
            position=self.position(e["pos"]),
        )

    def _skyjo_StarterChosen(self, e: JSON) -> str:  # noqa: N802
        return self("event.skyjo.starter", who=self.who(e["seat"]))

    def _skyjo_Drew(self, e: JSON) -> str:  # noqa: N802
        return self("event.skyjo.drew", who=self.who(e["seat"]), card=e["card"])

    def _skyjo_TookDiscard(self, e: JSON) -> str:  # noqa: N802
        return self("event.skyjo.took_discard", who=self.who(e["seat"]), card=e["card"])

    def _skyjo_Exchanged(self, e: JSON) -> str:  # noqa: N802
        return self(
            "event.skyjo.exchanged",
            who=self.who(e["seat"]),
            card=e["card"],
            position=self.position(e["pos"]),
            replaced=e["replaced"],
        )

    def _skyjo_Discarded(self, e: JSON) -> str:  # noqa: N802
        return self("event.skyjo.discarded", who=self.who(e["seat"]), card=e["card"])

    def _skyjo_ColumnRemoved(self, e: JSON) -> str:  # noqa: N802
        return self(
            "event.skyjo.column_removed", who=self.who(e["seat"]), col=e["col"] + 1, card=e["card"]
        )

    def _skyjo_RowRemoved(self, e: JSON) -> str:  # noqa: N802
        return self(
            "event.skyjo.row_removed", who=self.who(e["seat"]), row=e["row"] + 1, card=e["card"]
        )

    def _skyjo_Reshuffled(self, e: JSON) -> str:  # noqa: N802
        return self("event.skyjo.reshuffled", count=e["count"])

    def _skyjo_FinalTurns(self, e: JSON) -> str:  # noqa: N802
        return self("event.skyjo.final_turns", who=self.who(e["closer"]))

    def _skyjo_TurnLimitReached(self, e: JSON) -> str:  # noqa: N802
        return self.count("event.skyjo.turn_limit", e["turns"], round=e["round"])

    def _skyjo_RoundEnded(self, e: JSON) -> str:  # noqa: N802
        if e["closer"] is None:  # the round reached the turn limit; nobody went out
            return self("event.skyjo.round_ended_limit", round=e["round"])
        key = "event.skyjo.round_ended_doubled" if e["doubled"] else "event.skyjo.round_ended"
        return self(key, round=e["round"], who=self.who(e["closer"]))

    def _skyjo_GameEnded(self, e: JSON) -> str:  # noqa: N802
        return self("event.game_won", who=self.many(e["winners"]))
