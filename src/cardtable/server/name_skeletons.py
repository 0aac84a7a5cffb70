"""Account names that look alike (docs/players.md#accounts): the skeleton of a name, per
Unicode TR39 ("Security Mechanisms", section 4), and the scripts a name may mix.

Two names with one skeleton look the same to a reader (``Alice`` and ``Alice`` with a
Cyrillic A, U+0410; ``Ian`` with a capital I and ``lan``), so only the first is registered.
The confusable characters are Unicode's ``confusables.txt`` as the
``confusable-homoglyphs`` package ships it. That package keeps each pair of the file
in both directions, which loses which side is the prototype; it is recovered here: a
prototype is never a source, so a character with one look-alike that itself has
several (or is a sequence, ``rn`` for ``m``) maps to it, and in a pair of two single
characters each with only the other, both map to the smaller (either way, the two
get one skeleton). The skeleton is taken of the name as typed (a capital I looks like
an l) and again after case folding (a Cyrillic small a looks like a Latin one); that
the case alone makes no other name is ``name_key``'s rule.

A name mixes scripts only as people write them (TR39's "highly restrictive" level):
one script besides the common characters (digits, spaces, ``-_.``), or Latin with
Han and Japanese kana, with Han and Bopomofo, or with Han and Hangul.
"""

from __future__ import annotations

import functools
import hashlib
import unicodedata

from confusable_homoglyphs import categories, utils

#: Scripts any name may hold besides one other (digits, punctuation, combining marks).
NEUTRAL = frozenset({"COMMON", "INHERITED"})
#: The sets of scripts a name may mix (TR39 "highly restrictive").
MIXES = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)
#: The data marks right-to-left characters with LEFT-TO-RIGHT MARKs around them.
_MARK = "\u200e"


@functools.cache
def prototypes() -> dict[str, str]:
    """Each confusable character's prototype (characters not listed are their own)."""
    graph = {
        key.replace(_MARK, ""): [entry["c"].replace(_MARK, "") for entry in entries]
        for key, entries in utils.load("confusables.json").items()
    }
    mapping: dict[str, str] = {}
    for char, alike in graph.items():
        if len(char) != 1 or len(alike) != 1:
            continue  # a sequence, or the prototype of several: itself
        (other,) = alike
        if len(other) != 1 or len(graph.get(other, ())) > 1:
            mapping[char] = other
        elif other != char:
            mapping[char] = min(char, other)
    return mapping


def _mapped(text: str) -> str:
    table = prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(table.get(char, char) for char in decomposed))


def skeleton(name: str) -> str:
    """The TR39 skeleton of ``name`` (NFKC first), as typed and case-folded: names with
    one skeleton are confusable."""
    typed = _mapped(unicodedata.normalize("NFKC", name))
    return _mapped(unicodedata.normalize("NFKC", typed.casefold()))


def skeleton_hash(name: str) -> str:
    """The SHA-256 (hex) of :func:`skeleton`: what the ``users.name_skeleton`` column
    keeps, of a fixed length however far NFKC and the prototypes lengthen a name."""
    return hashlib.sha256(skeleton(name).encode()).hexdigest()


def scripts(name: str) -> frozenset[str]:
    """The scripts of ``name``'s characters (ISO 15924 aliases), neutral ones left out."""
    found = {categories.alias(char) for char in unicodedata.normalize("NFKC", name)}
    return frozenset(found - NEUTRAL)


def mixed_scripts(name: str) -> frozenset[str] | None:
    """The scripts ``name`` mixes when people do not write them together, else None."""
    found = scripts(name)
    if len(found) <= 1 or any(found <= mix for mix in MIXES):
        return None
    return found
