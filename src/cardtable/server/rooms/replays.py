"""Replays: a game's log, move by move, and the public view after any step.

The seed (which fixes every hidden card) is published only once the game is over.
Views are spectator views: a replay of a running game shows what a spectator sees.
"""

from __future__ import annotations

from typing import Any

from ...core import JSON, GameState
from ...games import get_game
from ..storage.records import GameRecord


def _replayed(record: GameRecord, steps: int) -> tuple[GameState[Any], list[JSON]]:
    game = get_game(record.game)
    rules = game.rules_from_record(record.rules)
    state = game.new_state(rules, record.seed)
    outcomes = []
    for _, action, _ in record.moves[:steps]:
        outcomes.append(state.apply_action(action).to_json())
    return state, outcomes


def replay_log(record: GameRecord) -> JSON:
    _, outcomes = _replayed(record, len(record.moves))
    finished = record.result is not None
    return {
        "room": record.room_code,
        "game_no": record.game_no,
        "game": record.game,
        "rules": record.rules,
        "seats": record.seats,
        "finished": finished,
        "result": record.result,
        "seed": record.seed if finished else None,
        "moves": [
            {"index": index, "seat": seat, "action": action, "version": version, "outcome": outcome}
            for index, ((seat, action, version), outcome) in enumerate(
                zip(record.moves, outcomes, strict=True)
            )
        ],
        "started_at": record.started_at,
        "finished_at": record.finished_at,
    }


def replay_step(record: GameRecord, step: int) -> JSON:
    """The spectator view after ``step`` moves (0: the deal), and the move that led there."""
    state, outcomes = _replayed(record, step)
    return {
        "room": record.room_code,
        "game_no": record.game_no,
        "step": step,
        "steps": len(record.moves),
        "outcome": outcomes[-1] if outcomes else None,
        "view": state.view(None),
    }


def game_summary(record: GameRecord) -> JSON:
    return {
        "game_no": record.game_no,
        "game": record.game,
        "rules": record.rules,
        "seats": record.seats,
        "result": record.result,
        "started_at": record.started_at,
        "finished_at": record.finished_at,
    }
