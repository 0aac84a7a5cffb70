"""How every client words an engine's refusal in its player's language.

An engine refuses a move with a :class:`~cardtable.core.Refusal`: a catalog key and
integer parameters (:mod:`cardtable.core.refusal`). The conventions below are the
same in every client (the terminal here, the browser in ``web/static/js/words.js``):

- a parameter is a number shown as it is (piles, discard piles, rows and columns
  already counted from 1; a Skyjo ``pos`` as the engine counts it, 0 to 11);
- the parameters ``card`` and ``needed`` are Skip-Bo cards (0 is the Skip-Bo card)
  named with their indefinite article: the text of :func:`card_key` with the card as
  ``{value}`` (``a 7``, ``an 8``, ``a Skip-Bo card`` in English);
- the placeholder ``{move}`` is not a parameter: it stands for the refused move in
  the client's own words.

Which of the three card keys names a number follows English spelling (8 and 11 are
the numbers whose English name begins with a vowel: "an"); every other catalog gives
both number keys the text its own language needs.
"""

from __future__ import annotations

from collections.abc import Callable

from ..core import Refusal, fill_refusal

#: Parameters holding a Skip-Bo card named with its indefinite article.
ARTICLE_PARAMS = frozenset({"card", "needed"})
#: The catalog keys naming a card with its article: the Skip-Bo card, the numbers
#: whose English name begins with a vowel (8 and 11: "an"), the other numbers.
CARD_WILD_KEY = "refusal.skipbo.card_wild"
CARD_AN_KEY = "refusal.skipbo.card_an"
CARD_A_KEY = "refusal.skipbo.card_a"
CARD_KEYS = frozenset({CARD_WILD_KEY, CARD_AN_KEY, CARD_A_KEY})


def card_key(card: int) -> str:
    """The catalog key that names the Skip-Bo ``card`` with its indefinite article."""
    if card == 0:
        return CARD_WILD_KEY
    return CARD_AN_KEY if card in (8, 11) else CARD_A_KEY


def render_refusal(refusal: Refusal, translate: Callable[..., str], move: str = "") -> str:
    """``refusal`` in words: ``translate(key, **params)`` gives the text of a key with its
    placeholders filled in; ``move`` is the refused move in the same words."""

    def card(value: int) -> str:
        return translate(card_key(value), value=str(value))

    return fill_refusal(refusal, translate, move, dict.fromkeys(ARTICLE_PARAMS, card))
