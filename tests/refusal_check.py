"""The check every engine's refusal cases share: an illegal move, its key and its English."""

from __future__ import annotations

from typing import Any

import pytest

from cardtable.core import GameState, IllegalMoveError, Refusal


def check_refused(state: GameState[Any], move: Any, english: str, refusal: Refusal) -> None:
    """``move`` is illegal in ``state``, refused with ``refusal`` and worded ``english``
    alike by ``explain_illegal``, ``explain_illegal_parts`` and the error of ``apply``."""
    assert not state.is_legal(move)
    assert state.explain_illegal_parts(move) == refusal
    assert state.explain_illegal(move) == english
    with pytest.raises(IllegalMoveError) as caught:
        state.apply(move)
    assert caught.value.reason == english
    assert caught.value.refusal == refusal
