"""Display names: validated on the way in; every client shows one as text, never markup.

A leaf below every front end: the server validates each name it is given with
:func:`clean_name`, the web page states :data:`MAX_NAME` as its input's limit, and the
terminal client offers the login name only when :func:`clean_name` would take it.
"""

from __future__ import annotations

import unicodedata

MIN_NAME = 1
MAX_NAME = 24
#: The most characters a name may hold in its compatibility form (:func:`name_key`, the
#: ``users.name_key`` column): a letter such as U+FDFA stands for 18 in NFKC, so a name
#: of 24 characters could need 432.
MAX_KEY = 96
_ALLOWED_PUNCTUATION = frozenset(" -_.")
#: Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt, Unicode 15):
#: characters that render as nothing, as first and last code point of each range. Most
#: are no letter or digit anyway; the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0)
#: and the Khmer inherent vowels are letters that show nothing.
DEFAULT_IGNORABLE: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)


class DisplayNameError(ValueError):
    """A display name that is not allowed; the message says why."""


def invisible(char: str) -> bool:
    """Whether ``char`` renders as nothing (a default-ignorable code point)."""
    code = ord(char)
    return any(first <= code <= last for first, last in DEFAULT_IGNORABLE)


def clean_name(raw: str) -> str:
    """``raw`` normalized (NFC, spaces collapsed), or raise :class:`DisplayNameError`.

    Names hold :data:`MIN_NAME` to :data:`MAX_NAME` (1 to 24) letters, digits, spaces
    and ``-_.``; no markup, quotes or control characters can pass, so a name is safe as
    text everywhere. Its :func:`name_key` holds at most :data:`MAX_KEY` characters. No
    invisible character either (:func:`invisible`: the Hangul
    fillers are letters that show nothing), so every name shows every character it
    holds and no name renders blank or as another one with something unseen added.
    """
    name = " ".join(unicodedata.normalize("NFC", raw).split())
    if not MIN_NAME <= len(name) <= MAX_NAME:
        raise DisplayNameError(f"a name has {MIN_NAME} to {MAX_NAME} characters")
    for char in name:
        if char in _ALLOWED_PUNCTUATION:
            continue
        if invisible(char):
            raise DisplayNameError(
                f"a name may not hold invisible characters (not U+{ord(char):04X})"
            )
        category = unicodedata.category(char)
        if category[0] not in "LN":
            raise DisplayNameError(
                f"a name may hold letters, digits, spaces and - _ . only (not U+{ord(char):04X})"
            )
    if len(name_key(name)) > MAX_KEY:
        raise DisplayNameError(
            f"a name has {MIN_NAME} to {MAX_NAME} characters, and at most {MAX_KEY} once"
            " its letters are spelled out (NFKC: U+FDFA is 18)"
        )
    return name


def name_key(name: str) -> str:
    """What makes two account names the same: ``name`` (already :func:`clean_name`'d)
    in NFKC, case-folded, and NFKC again (case folding may leave a form NFKC changes),
    so ``Ann``, ``ANN`` and ``Ann`` in full-width letters (U+FF21...) are one name."""
    folded = unicodedata.normalize("NFKC", name).casefold()
    return " ".join(unicodedata.normalize("NFKC", folded).split())
