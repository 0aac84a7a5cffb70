"""Full JSON snapshots: layout, round trip, and refusal of broken snapshots."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest

from cardtable.core import SerializationError
from cardtable.skyjo import GAME, SkyjoRules


def snapshot() -> dict[str, Any]:
    state = GAME.new_state(SkyjoRules(players=3), seed=4)
    for action in (14, 15, 20, 21, 24, 25):  # the six set-up reveals
        state.apply_action(action)
    return state.to_json()


def test_layout_and_round_trip() -> None:
    data = snapshot()
    assert data["game"] == "skyjo" and data["phase"] == "turn"
    assert len(data["grids"]) == 3 and all(len(g) == 12 for g in data["grids"])
    assert sum(row.count(True) for row in data["face_up"]) == 6
    restored = GAME.state_from_json(json.loads(json.dumps(data)))
    assert restored.to_json() == data
    assert restored.replayed() == restored


def _set(key: str, value: object) -> Callable[[dict[str, Any]], None]:
    def edit(data: dict[str, Any]) -> None:
        data[key] = value

    return edit


def _drop_a_card(data: dict[str, Any]) -> None:
    data["draw"].pop()


def _face_up_hole(data: dict[str, Any]) -> None:
    data["grids"][0][0] = None
    data["face_up"][0][0] = True


@pytest.mark.parametrize(
    "edit",
    [
        _set("phase", "dancing"),
        _set("hand", 5),
        _set("player", None),
        _set("rules", {"players": 9}),
        _set("grids", []),
        _set("reshuffled", "no"),
        _drop_a_card,
        _face_up_hole,
    ],
)
def test_broken_snapshots_are_refused(edit: Callable[[dict[str, Any]], None]) -> None:
    data = copy.deepcopy(snapshot())
    edit(data)
    with pytest.raises(SerializationError):
        GAME.state_from_json(data)


def test_missing_key() -> None:
    data = snapshot()
    del data["discard"]
    with pytest.raises(SerializationError, match="missing discard"):
        GAME.state_from_json(data)
