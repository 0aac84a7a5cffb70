"""Why a Skip-Bo move is refused: every refusal's catalog key and its English wording.

:meth:`SkipBoState.explain_illegal_parts` gives a :class:`~cardtable.core.Refusal`
with one of these keys; :meth:`SkipBoState.explain_illegal` is its English wording
from :data:`ENGLISH`, which the English catalog (``cardtable/i18n/en.json``) repeats
word for word (a test checks it). Parameters follow :mod:`cardtable.i18n.refusals`:
``pile`` and ``discard`` count from 1, ``card`` and ``needed`` are cards named with
their article, ``value`` a card's number.
"""

from __future__ import annotations

from ..core import Refusal, fill_refusal
from ..core.refusal import table_translator
from .cards import with_article

GAME_OVER = "refusal.skipbo.game_over"
PARTNER_SOLO = "refusal.skipbo.partner_solo"
PARTNER_DISCARD_OFF = "refusal.skipbo.partner_discard_off"
NO_CARD = "refusal.skipbo.no_card"
NO_WILD = "refusal.skipbo.no_wild"
STOCK_EMPTY = "refusal.skipbo.stock_empty"
PARTNER_STOCK_EMPTY = "refusal.skipbo.partner_stock_empty"
DISCARD_EMPTY = "refusal.skipbo.discard_empty"
PARTNER_DISCARD_EMPTY = "refusal.skipbo.partner_discard_empty"
HAND_EMPTY = "refusal.skipbo.hand_empty"
END_TURN = "refusal.skipbo.end_turn"
EMPTY_PLACE = "refusal.skipbo.empty_place"
PILES_IN_USE = "refusal.skipbo.piles_in_use"
PILE_NEEDS = "refusal.skipbo.pile_needs"

#: Every key of a Skip-Bo refusal in English.
ENGLISH: dict[str, str] = {
    GAME_OVER: "the game is over",
    PARTNER_SOLO: "a partner's cards can be played only in team play",
    PARTNER_DISCARD_OFF: (
        "discards go onto your own discard piles (option discard_to_partner is off)"
    ),
    NO_CARD: "you hold no {value} card",
    NO_WILD: "you hold no Skip-Bo card",
    STOCK_EMPTY: "your stock pile is empty",
    PARTNER_STOCK_EMPTY: "your partner's stock pile is empty",
    DISCARD_EMPTY: "your discard pile {discard} is empty",
    PARTNER_DISCARD_EMPTY: "your partner's discard pile {discard} is empty",
    HAND_EMPTY: "your hand is empty: end the turn instead",
    END_TURN: "a turn ends by discarding a card from your hand",
    EMPTY_PLACE: "an empty building place takes a 1 or a Skip-Bo card, not {card}",
    PILES_IN_USE: (
        "all four building piles are in use: a new one can start only when one is complete"
    ),
    PILE_NEEDS: "building pile {pile} needs {needed}, not {card}",
}

_english = table_translator(ENGLISH)
#: The parameters that are Skip-Bo cards, named in English with their article.
_CARDS_IN_ENGLISH = {"card": with_article, "needed": with_article}


def english(refusal: Refusal) -> str:
    """The refusal in English (Skip-Bo refusals never name the move itself)."""
    return fill_refusal(refusal, _english, wording=_CARDS_IN_ENGLISH)


def no_card(card: int) -> Refusal:
    """The hand holds no ``card``."""
    return Refusal.of(NO_WILD) if card == 0 else Refusal.of(NO_CARD, value=card)
