"""Translation catalogs for the browser: the common catalog of a language merged
with the web-only one (``cardtable/i18n/web/{lang}.json``, keys under ``web.``)."""

from __future__ import annotations

import functools
import json
from importlib import resources
from typing import Any

LANGUAGES: tuple[str, ...] = ("en", "fr", "de", "it")
FALLBACK = "en"


def _read(package: str, name: str) -> dict[str, str]:
    try:
        text = resources.files(package).joinpath(name).read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError):
        return {}
    data: Any = json.loads(text)
    if not isinstance(data, dict) or not all(
        isinstance(key, str) and isinstance(value, str) for key, value in data.items()
    ):
        raise ValueError(f"{package}/{name} must be a JSON object of strings")
    return data


@functools.cache
def web_catalog(lang: str) -> dict[str, str]:
    """The web-only strings of ``lang``."""
    if lang not in LANGUAGES:
        raise KeyError(f"unknown language {lang!r}; known: {', '.join(LANGUAGES)}")
    return _read("cardtable.i18n", f"web/{lang}.json")


@functools.cache
def common_catalog(lang: str) -> dict[str, str]:
    """The catalog shared with the terminal client (empty while it does not exist)."""
    if lang not in LANGUAGES:
        raise KeyError(f"unknown language {lang!r}; known: {', '.join(LANGUAGES)}")
    return _read("cardtable.i18n", f"{lang}.json")


def browser_catalog(lang: str) -> dict[str, str]:
    """Everything the page may look up in ``lang``: common keys, then the web keys."""
    return {**common_catalog(lang), **web_catalog(lang)}
