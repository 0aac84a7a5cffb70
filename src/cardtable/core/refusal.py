"""Why a move is refused, as a catalog key and parameters.

An engine says why a move is illegal twice: in English (``explain_illegal``) and as
a :class:`Refusal` (``explain_illegal_parts``): a message key of the translation
catalogs in ``cardtable/i18n`` (``refusal.skipbo.*``, ``refusal.skyjo.*``) and its
integer parameters, so that a client can word the refusal in its player's
language. Each engine keeps its keys and their English wording in one table
(``cardtable/skipbo/refusals.py``, ``cardtable/skyjo/refusals.py``) and renders its
English from it, with no file to read; a test checks that the English catalog
holds the same texts.

Every client words a refusal the same way (:func:`render_refusal`):

- a parameter is a number shown as it is (piles, discard piles, rows and columns
  already counted from 1; a Skyjo ``pos`` as the engine counts it, 0 to 11);
- the parameters ``card`` and ``needed`` are Skip-Bo cards (0 is the Skip-Bo card)
  named with their indefinite article: the text of :func:`card_key` with the card as
  ``{value}`` (``a 7``, ``an 8``, ``a Skip-Bo card`` in English);
- the placeholder ``{move}`` is not a parameter: it stands for the refused move in
  the client's own words.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

#: Parameters holding a Skip-Bo card named with its indefinite article.
ARTICLE_PARAMS = frozenset({"card", "needed"})
#: The catalog keys naming a card with its article: the Skip-Bo card, the numbers
#: whose English name begins with a vowel (8 and 11: "an"), the other numbers.
CARD_WILD_KEY = "refusal.skipbo.card_wild"
CARD_AN_KEY = "refusal.skipbo.card_an"
CARD_A_KEY = "refusal.skipbo.card_a"


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a move is refused: a catalog key and its parameters, all integers."""

    key: str
    params: tuple[tuple[str, int], ...] = ()

    @classmethod
    def of(cls, key: str, **params: int) -> Refusal:
        return cls(key, tuple(sorted(params.items())))

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "params": dict(self.params)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Refusal:
        params = data.get("params") or {}
        return cls.of(str(data["key"]), **{str(k): int(v) for k, v in params.items()})


def card_key(card: int) -> str:
    """The catalog key that names the Skip-Bo ``card`` with its indefinite article."""
    if card == 0:
        return CARD_WILD_KEY
    return CARD_AN_KEY if card in (8, 11) else CARD_A_KEY


def render_refusal(refusal: Refusal, translate: Callable[..., str], move: str = "") -> str:
    """``refusal`` in words: ``translate(key, **params)`` gives the text of a key with its
    placeholders filled in; ``move`` is the refused move in the same words."""
    shown: dict[str, str] = {}
    for name, value in refusal.params:
        if name in ARTICLE_PARAMS:
            shown[name] = translate(card_key(value), value=str(value))
        else:
            shown[name] = str(value)
    return translate(refusal.key, move=move, **shown)


def table_translator(table: Mapping[str, str]) -> Callable[..., str]:
    """``translate`` for :func:`render_refusal` from an engine's own table of texts."""

    def translate(key: str, **params: str) -> str:
        return table[key].format(**params)

    return translate
