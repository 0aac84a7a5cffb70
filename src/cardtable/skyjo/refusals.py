"""Why a Skyjo move is refused: every refusal's catalog key and its English wording.

:meth:`SkyjoState.explain_illegal_parts` gives a :class:`~cardtable.core.Refusal`
with one of these keys; :meth:`SkyjoState.explain_illegal` is its English wording
from :data:`ENGLISH`, which the English catalog (``cardtable/i18n/en.json``) repeats
word for word (a test checks it). Parameters follow :mod:`cardtable.i18n.refusals`:
``pos`` is a grid position as the engine counts it (0 to 11, row by row), ``row``
and ``col`` its row and column counted from 1. ``{move}`` in :data:`NOT_LEGAL` is the
move itself in words (a move that is in fact legal: no illegal move comes to it).
"""

from __future__ import annotations

from ..core import Refusal, fill_refusal
from ..core.refusal import table_translator
from .cards import COLS

GAME_OVER = "refusal.skyjo.game_over"
SETUP_FIRST = "refusal.skyjo.setup_first"
SETUP_ONLY = "refusal.skyjo.setup_only"
DRAW_FIRST = "refusal.skyjo.draw_first"
ALREADY_HOLDING = "refusal.skyjo.already_holding"
DISCARD_TO_REVEAL = "refusal.skyjo.discard_to_reveal"
MUST_EXCHANGE = "refusal.skyjo.must_exchange"
EMPTY_POSITION = "refusal.skyjo.empty_position"
FACE_UP = "refusal.skyjo.face_up"
NOT_LEGAL = "refusal.skyjo.not_legal"

#: Every key of a Skyjo refusal in English.
ENGLISH: dict[str, str] = {
    GAME_OVER: "the game is over",
    SETUP_FIRST: "the round has not started: each player first turns two cards face up",
    SETUP_ONLY: "cards are turned up freely only at set-up; draw or take the discard first",
    DRAW_FIRST: "first draw from the draw pile or take the top of the discard pile",
    ALREADY_HOLDING: "you already hold the drawn card: exchange it, or discard it and reveal",
    DISCARD_TO_REVEAL: "to turn a card up now, discard the drawn card (discard and reveal)",
    MUST_EXCHANGE: "you must exchange the card taken from the discard pile",
    EMPTY_POSITION: "position {pos} (row {row}, column {col}) is empty: its cards were removed",
    FACE_UP: "position {pos} (row {row}, column {col}) is already face up",
    NOT_LEGAL: "{move} is not legal now",
}

_english = table_translator(ENGLISH)


def english(refusal: Refusal, move: str) -> str:
    """The refusal in English; ``move`` is the move's English text."""
    return fill_refusal(refusal, _english, move)


def at(key: str, pos: int) -> Refusal:
    """A refusal about grid position ``pos``, which it names with its row and column."""
    return Refusal.of(key, pos=pos, row=pos // COLS + 1, col=pos % COLS + 1)
