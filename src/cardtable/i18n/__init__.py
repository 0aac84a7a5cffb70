"""Translations shared by the terminal client and the web table.

Each language is one flat JSON catalog in this package (``en.json``, ``fr.json``,
``de.json``, ``it.json``) mapping a dotted key to a text with ``{name}``
placeholders. Card and pile names follow each language's rule sheet.
:func:`translate` falls back to English for a key a catalog lacks, and records
the miss so tests can insist that nothing is missing.

A text that counts something is a plural group: one key per CLDR plural category
(``lobby.waiting_players.one``, ``lobby.waiting_players.other``, and ``.many`` or
``.few`` where a language wants them), chosen by :func:`translate_count` with
Babel's CLDR rules for the language; a category a catalog does not give falls back
to ``.other``. Every group has at least ``.one`` and ``.other``. A count written with
decimals is a :class:`~decimal.Decimal` as written (``Decimal("1.0")``), since CLDR
chooses by the digits shown: "1.0 points" in English, "1,5 point" in French.
"""

from __future__ import annotations

import functools
import json
import os
import string
from collections.abc import Callable, Mapping
from decimal import Decimal
from importlib import resources

LANGUAGES: tuple[str, ...] = ("en", "fr", "de", "it")
FALLBACK = "en"
ENV_VARIABLES = ("CARDTABLE_LANG", "LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE")

_missing: set[tuple[str, str]] = set()


@functools.cache
def catalog(lang: str) -> dict[str, str]:
    """The catalog of ``lang`` (a copy is not made: do not modify it)."""
    return read_catalog(lang, f"{lang}.json")


def read_catalog(lang: str, name: str) -> dict[str, str]:
    """The catalog file ``name`` of this package (``fr.json``, ``web/fr.json``) for
    ``lang``, checked to be a JSON object of strings."""
    if lang not in LANGUAGES:
        raise KeyError(f"unknown language {lang!r}; known: {', '.join(LANGUAGES)}")
    text = resources.files(__package__).joinpath(name).read_text(encoding="utf-8")
    data = json.loads(text)
    if not isinstance(data, dict) or not all(
        isinstance(key, str) and isinstance(value, str) for key, value in data.items()
    ):
        raise ValueError(f"{name} must be a JSON object of strings")
    return data


def default_language(environ: Mapping[str, str] | None = None) -> str:
    """The language named by the environment (``CARDTABLE_LANG``, then the locale), else English."""
    env = os.environ if environ is None else environ
    for name in ENV_VARIABLES:
        value = env.get(name, "")
        for part in value.split(":"):
            code = part[:2].lower()
            if code in LANGUAGES:
                return code
    return FALLBACK


def translate(lang: str, key: str, **params: object) -> str:
    """The text of ``key`` in ``lang`` with ``params`` filled in; English when ``lang`` lacks it."""
    text = catalog(lang).get(key)
    if text is None:
        _missing.add((lang, key))
        text = catalog(FALLBACK).get(key)
        if text is None:
            return key
    return text.format(**params) if params else text


@functools.cache
def _plural_rule(lang: str) -> Callable[[int | Decimal], str]:
    from babel import Locale  # only the texts that count something need it

    rule: Callable[[int | Decimal], str] = Locale.parse(lang).plural_form
    return rule


def plural_key(lang: str, key: str, count: int | Decimal) -> str:
    """The key of ``key``'s plural group that words ``count`` in ``lang`` (CLDR rules)."""
    magnitude = -count if count < 0 else count
    chosen = f"{key}.{_plural_rule(lang)(magnitude)}"
    return chosen if chosen in catalog(lang) or chosen in catalog(FALLBACK) else f"{key}.other"


def translate_count(lang: str, key: str, count: int | Decimal, **params: object) -> str:
    """The text of the plural group ``key`` for ``count`` (passed as ``{count}`` too)."""
    return translate(lang, plural_key(lang, key, count), count=count, **params)


def placeholders(text: str) -> set[str]:
    """The names of the ``{placeholders}`` in ``text``."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def missing() -> set[tuple[str, str]]:
    """Every (language, key) looked up so far that its catalog lacked."""
    return set(_missing)


__all__ = [
    "FALLBACK",
    "LANGUAGES",
    "catalog",
    "default_language",
    "missing",
    "placeholders",
    "plural_key",
    "read_catalog",
    "translate",
    "translate_count",
]
