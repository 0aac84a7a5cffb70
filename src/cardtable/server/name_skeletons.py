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

No name may look like what the clients call a seat that no person holds: a bot's label
(``Bot · hard``, ``robot greedy``: the ``web.bot.*`` words of the web page and the
terminal's ``lobby.seat_bot``, in every language) or a deleted account's
(``Former player`` and its translations). Its look-alikes are refused too: the same
skeleton once spaces and punctuation are left out (``Bot ꞏ hard`` with U+A78F,
``B0t.hard``). :func:`checked_name` applies every rule to an account's or a guest's name.
"""

from __future__ import annotations

import functools
import hashlib
import unicodedata

from confusable_homoglyphs import categories, utils

from ..display_names import DisplayNameError, clean_name
from ..i18n import LANGUAGES, catalog, read_catalog

#: Scripts any name may hold besides one other (digits, punctuation, combining marks).
NEUTRAL = frozenset({"COMMON", "INHERITED"})
#: The sets of scripts a name may mix (TR39 "highly restrictive").
MIXES = (
    frozenset({"LATIN", "HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"LATIN", "HAN", "BOPOMOFO"}),
    frozenset({"LATIN", "HAN", "HANGUL"}),
)
#: What a deleted account's seats are called (docs/players.md#accounts), in every
#: language the clients speak: no one may take these names or their look-alikes.
FORMER_PLAYER = {
    "en": "Former player",
    "fr": "Ancien joueur",
    "de": "Ehemaliger Spieler",
    "it": "Ex giocatore",
}
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


class MixedScriptsError(DisplayNameError):
    """A name mixing scripts as people do not write them; ``scripts`` are those."""

    def __init__(self, scripts: frozenset[str]) -> None:
        shown = ", ".join(sorted(script.replace("_", " ").title() for script in scripts))
        super().__init__(f"a name is written in one script, not a mix of {shown}")
        self.scripts = scripts
        self.shown = shown


class ReservedNameError(DisplayNameError):
    """A name that looks like a bot's or a former player's label (``label``)."""

    def __init__(self, label: str) -> None:
        super().__init__(f"a name may not look like {label!r}, the table's own label")
        self.label = label


def name_refusal(error: DisplayNameError) -> dict[str, object]:
    """The fields of a ``bad_name`` answer besides its English reason: the field, and
    for the refusals a client cannot tell from the name rule (a mix of scripts, a
    reserved label) a catalog key and its parameters (``reason_key``,
    ``reason_params``), so that the page says which, in its language."""
    fields: dict[str, object] = {"field": "name"}
    if isinstance(error, MixedScriptsError):
        fields |= {
            "scripts": sorted(error.scripts),
            "reason_key": "web.name.mixed_scripts",
            "reason_params": {"scripts": error.shown},
        }
    elif isinstance(error, ReservedNameError):
        fields |= {"reason_key": "web.name.reserved", "reason_params": {"label": error.label}}
    return fields


@functools.cache
def reserved_labels() -> frozenset[str]:
    """The labels the clients give seats no person holds, in every language: each bot's
    on the web page (``web.bot.*``) and in the terminal (``lobby.seat_bot``), and a
    deleted account's."""
    labels = set(FORMER_PLAYER.values())
    for lang in LANGUAGES:
        terminal = catalog(lang)["lobby.seat_bot"]
        for key, text in read_catalog(lang, f"web/{lang}.json").items():
            if key.startswith("web.bot."):
                labels.add(text)
                labels.add(terminal.format(bot=key.removeprefix("web.bot.")))
    return frozenset(labels)


def _loose(name: str) -> str:
    """The skeleton of ``name`` with only its letters and digits: ``Bot · hard``,
    ``Bot.hard`` and ``B0t ꞏ hard`` are one."""
    return "".join(char for char in skeleton(name) if unicodedata.category(char)[0] in "LN")


@functools.cache
def _reserved() -> dict[str, str]:
    # Of the labels one skeleton covers (the terminal's "bot hard", the page's "Bot ·
    # hard"), the longest is the one named in a refusal: the label as the page shows it.
    return {
        _loose(label): label
        for label in sorted(reserved_labels(), key=lambda text: (len(text), text))
    }


def reserved_label(name: str) -> str | None:
    """The bot's or former player's label ``name`` looks like, else None."""
    return _reserved().get(_loose(name))


def checked_name(raw: str) -> str:
    """``raw`` as a name an account or a guest may take: a display name
    (:func:`~cardtable.display_names.clean_name`) in one script as people write them
    (:class:`MixedScriptsError` otherwise), that looks like no reserved label
    (:class:`ReservedNameError` naming the label)."""
    name = clean_name(raw)
    mixed = mixed_scripts(name)
    if mixed is not None:
        raise MixedScriptsError(mixed)
    label = reserved_label(name)
    if label is not None:
        raise ReservedNameError(label)
    return name
