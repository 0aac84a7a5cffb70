"""Why a move is refused, as a catalog key and parameters: what, never how it is worded.

An engine says why a move is illegal twice: in English (``explain_illegal``) and as
a :class:`Refusal` (``explain_illegal_parts``): a message key of the translation
catalogs in ``cardtable/i18n`` (``refusal.skipbo.*``, ``refusal.skyjo.*``) and its
integer parameters, so that a client can word the refusal in its player's
language. Each engine keeps its keys and their English wording in one table
(``cardtable/skipbo/refusals.py``, ``cardtable/skyjo/refusals.py``) and renders its
English from it, with no file to read; a test checks that the English catalog
holds the same texts.

This module knows no language. :func:`fill_refusal` puts the parameters into a
text as their caller words them; how a client words them (Skip-Bo cards named with
an article, the ``{move}`` placeholder) is :mod:`cardtable.i18n.refusals`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any


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


def fill_refusal(
    refusal: Refusal,
    translate: Callable[..., str],
    move: str = "",
    wording: Mapping[str, Callable[[int], str]] | None = None,
) -> str:
    """``refusal`` in words: ``translate(key, **params)`` gives the text of a key with its
    placeholders filled in; ``wording`` words the parameters it names (the others are
    shown as numbers); ``move`` is the refused move in the same words."""
    words = wording or {}
    shown = {
        name: words[name](value) if name in words else str(value) for name, value in refusal.params
    }
    return translate(refusal.key, move=move, **shown)


def table_translator(table: Mapping[str, str]) -> Callable[..., str]:
    """``translate`` for :func:`fill_refusal` from an engine's own table of texts."""

    def translate(key: str, **params: str) -> str:
        return table[key].format(**params)

    return translate
