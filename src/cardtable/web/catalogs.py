"""Translation catalogs for the browser: the common catalog of a language
(:func:`cardtable.i18n.catalog`, shared with the terminal client) merged with the
web-only one (``cardtable/i18n/web/{lang}.json``, keys under ``web.``) and the lessons'
texts (``cardtable/i18n/lessons/{lang}.json``, keys under ``lesson.``)."""

from __future__ import annotations

import functools

from ..i18n import catalog, read_catalog


@functools.cache
def web_catalog(lang: str) -> dict[str, str]:
    """The web-only strings of ``lang``."""
    return read_catalog(lang, f"web/{lang}.json")


@functools.cache
def lesson_catalog(lang: str) -> dict[str, str]:
    """The lessons' texts in ``lang``: each step's instruction, the sheet's sentence it
    teaches, its explanations, and the lesson page's words (docs/lessons.md)."""
    return read_catalog(lang, f"lessons/{lang}.json")


def browser_catalog(lang: str) -> dict[str, str]:
    """Everything the page may look up in ``lang``: common keys, then the web keys, then
    the lessons'."""
    return {**catalog(lang), **web_catalog(lang), **lesson_catalog(lang)}
