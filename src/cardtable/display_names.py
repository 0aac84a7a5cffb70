"""Display names: validated on the way in; every client shows one as text, never markup.

A leaf below every front end: the server validates each name it is given with
:func:`clean_name`, the web page states :data:`MAX_NAME` as its input's limit, and the
terminal client offers the login name only when :func:`clean_name` would take it.
"""

from __future__ import annotations

import unicodedata

MIN_NAME = 1
MAX_NAME = 24
_ALLOWED_PUNCTUATION = frozenset(" -_.")


class DisplayNameError(ValueError):
    """A display name that is not allowed; the message says why."""


def clean_name(raw: str) -> str:
    """``raw`` normalized (NFC, spaces collapsed), or raise :class:`DisplayNameError`.

    Names hold :data:`MIN_NAME` to :data:`MAX_NAME` (1 to 24) letters, digits, spaces
    and ``-_.``; no markup, quotes or control characters can pass, so a name is safe as
    text everywhere.
    """
    name = " ".join(unicodedata.normalize("NFC", raw).split())
    if not MIN_NAME <= len(name) <= MAX_NAME:
        raise DisplayNameError(f"a name has {MIN_NAME} to {MAX_NAME} characters")
    for char in name:
        if char in _ALLOWED_PUNCTUATION:
            continue
        category = unicodedata.category(char)
        if category[0] not in "LN":
            raise DisplayNameError(
                f"a name may hold letters, digits, spaces and - _ . only (not U+{ord(char):04X})"
            )
    return name


def name_key(name: str) -> str:
    """What makes two account names the same: ``name`` (already :func:`clean_name`'d)
    in NFKC, case-folded, and NFKC again (case folding may leave a form NFKC changes),
    so ``Ann``, ``ANN`` and ``Ann`` in full-width letters (U+FF21...) are one name."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return " ".join(unicodedata.normalize("NFKC", folded).split())
