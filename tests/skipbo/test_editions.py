"""Games recorded under rules edition 1 (before blocked rounds were ruled anew) still load
and replay to the results they had; new games play edition 2."""

import json
from pathlib import Path
from typing import Any

import pytest

from cardtable.skipbo import GAME, EndTurn, RoundEnded, SkipBoRules
from cardtable.skipbo.rules import EDITION

from .helpers import filler, position

RECORDED = json.loads((Path(__file__).parent / "data" / "edition1_games.json").read_text())
GAMES: list[dict[str, Any]] = RECORDED["games"]


def test_new_rules_play_the_current_edition_and_say_so() -> None:
    assert SkipBoRules().edition == EDITION == 2
    assert SkipBoRules().to_json()["edition"] == 2
    assert SkipBoRules.from_json({"players": 3}).edition == 2


def test_a_record_without_an_edition_was_played_under_edition_1() -> None:
    old = GAMES[0]["rules"]
    assert "edition" not in old
    assert SkipBoRules.from_record(old).edition == 1
    assert GAME.rules_from_record(old) == SkipBoRules.from_record(old)
    assert SkipBoRules.from_record({**old, "edition": 2}).edition == 2


@pytest.mark.parametrize("game", GAMES, ids=[game["label"] for game in GAMES])
def test_a_recorded_game_replays_to_its_recorded_result(game: dict[str, Any]) -> None:
    rules = GAME.rules_from_record(game["rules"])
    state = GAME.replay(rules, game["seed"], game["history"])
    result = state.result()
    assert result is not None and result.to_json() == game["result"]
    assert [entry.to_json() for entry in state.rounds()] == game["rounds"]


@pytest.mark.parametrize("game", GAMES, ids=[game["label"] for game in GAMES])
def test_recorded_snapshots_load_and_play_on_as_recorded(game: dict[str, Any]) -> None:
    rules = GAME.rules_from_record(game["rules"])
    middle = GAME.state_from_json(game["snapshot_at_40"])
    assert middle == GAME.replay(rules, game["seed"], game["history"][:40])
    for action in game["history"][40:]:
        middle.apply_action(action)
    final = GAME.state_from_json(game["final_snapshot"])
    assert middle == final
    assert final.result() is not None and final.result().to_json() == game["result"]  # type: ignore[union-attr]


def test_the_same_moves_under_edition_2_play_on_where_edition_1_blocked() -> None:
    game = GAMES[0]
    assert game["result"]["blocked"]
    rules = SkipBoRules.from_json(game["rules"])
    assert rules.edition == 2
    state = GAME.replay(rules, game["seed"], game["history"][:-1])
    state.apply_action(game["history"][-1])
    assert not state.is_over  # edition 1 stopped here after one idle turn per seat


def test_edition_1_blocks_after_one_idle_turn_per_seat() -> None:
    state = position(
        SkipBoRules(players=2, edition=1),
        hands={0: [], 1: []},
        stocks={0: filler(5), 1: [*filler(4), 3]},
        building=[[1, 2], [], [], []],
        draw=[],
        completed=[],
    )
    state.apply(EndTurn())
    assert not state.is_over  # seat 1's 3 fits: edition 2 would play on
    outcome = state.apply(EndTurn())
    ended = next(event for event in outcome.events if isinstance(event, RoundEnded))
    assert ended.blocked and ended.reason == "no progress"
