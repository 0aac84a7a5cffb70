"""Golden seeded transcripts: a fixed list of games written out move by move.

A transcript pins down everything observable about a seeded game (each move's
text and events, the result and a hash of the final full snapshot), so any change
to an engine's behaviour shows up as a readable diff. ``scripts/golden.py``
rewrites or checks the stored files; ``tests/test_golden.py`` compares them.
"""

from __future__ import annotations

import difflib
import hashlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..bots import make_bot
from ..games import get_game
from .tournament import DEFAULT_MAX_MOVES, bot_rng, seat_assignment

REGENERATE = "python scripts/golden.py"


@dataclass(frozen=True)
class GoldenCase:
    game: str
    name: str
    rules: dict[str, Any]
    seed: int
    bots: tuple[str, ...]
    """Dealt round the seats like a tournament's ``--bots``."""
    description: str = field(default="", compare=False)

    @property
    def filename(self) -> str:
        return f"{self.game}_{self.name}.txt"


# Seeds are chosen so that each transcript exercises its case's special rules.
CASES: tuple[GoldenCase, ...] = (
    GoldenCase(
        "skipbo", "2p_stock5_random_greedy", {"players": 2, "stock_size": 5}, 101,
        ("random", "greedy"), "two players, short stocks, random against greedy",
    ),
    GoldenCase(
        "skipbo", "4p_teams_stock5_greedy", {"players": 4, "teams": True, "stock_size": 5}, 102,
        ("greedy",), "team play, partners opposite, all greedy",
    ),
    GoldenCase(
        "skipbo", "2p_rounds_target100_greedy",
        {"players": 2, "stock_size": 5, "rounds": True, "target": 100}, 103,
        ("greedy",), "multi-round scoring to 100",
    ),
    GoldenCase(
        "skipbo", "2p_stock10_hard", {"players": 2, "stock_size": 10}, 104,
        ("hard",), "the hard bot's planned turns, two players",
    ),
    GoldenCase(
        "skipbo", "3p_stock8_hard_greedy", {"players": 3, "stock_size": 8}, 105,
        ("hard", "greedy"), "hard against greedy, three players (two stocks to fear)",
    ),
    GoldenCase(
        "skyjo", "3p_greedy_random", {"players": 3}, 111,
        ("greedy", "random"), "three players, greedy and random; columns leave the grid",
    ),
    GoldenCase(
        "skyjo", "2p_rows_rule_greedy", {"players": 2, "rows_rule": True}, 110,
        ("greedy",), "the optional rows rule; a row and a column leave the grid",
    ),
)  # fmt: skip


def _compact(data: object) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def snapshot_hash(snapshot: dict[str, Any]) -> str:
    return hashlib.sha256(_compact(snapshot).encode()).hexdigest()


def render(case: GoldenCase) -> str:
    """The transcript of ``case``: a header, one line per move, then the result."""
    game = get_game(case.game)
    rules = game.rules_from_json(case.rules)
    state = game.new_state(rules, case.seed)
    seats = seat_assignment(case.bots, state.num_players)
    bots = [make_bot(case.game, name) for name in seats]
    rngs = [bot_rng(case.seed, seat) for seat in range(state.num_players)]
    lines = [
        f"# {game.title} golden transcript {case.name}: {case.description}",
        f"# rules {_compact(rules.to_json())}",
        f"# seed {case.seed}; seats {', '.join(seats)}",
        f"# regenerate with `{REGENERATE}` only after a deliberate engine or bot change",
    ]
    moves = 0
    while (seat := state.current_player) is not None:
        if moves >= DEFAULT_MAX_MOVES:
            raise RuntimeError(f"{case.filename}: no end after {moves} moves")
        outcome = state.apply_action(bots[seat].choose(state, rngs[seat]))
        moves += 1
        events = _compact([event.to_json() for event in outcome.events])
        lines.append(f"{moves} seat {seat}: {outcome.move} {events}")
    result = state.result()
    assert result is not None, "a game with no player to move has a result"
    lines.append(f"result {_compact(result.to_json())} sha256 {snapshot_hash(state.to_json())}")
    return "\n".join(lines) + "\n"


def difference(case: GoldenCase, directory: Path) -> str:
    """A unified diff from the stored transcript to a fresh one; empty when they agree."""
    path = directory / case.filename
    stored = path.read_text(encoding="utf-8") if path.exists() else ""
    fresh = render(case)
    if stored == fresh:
        return ""
    return (
        "".join(
            difflib.unified_diff(
                stored.splitlines(keepends=True),
                fresh.splitlines(keepends=True),
                fromfile=f"{path} (stored)",
                tofile=f"{path} (regenerated)",
            )
        )
        or f"{path}: differs only in line endings\n"
    )


def write_all(directory: Path) -> list[Path]:
    """Rewrite every golden transcript under ``directory``; returns the files written."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for case in CASES:
        path = directory / case.filename
        path.write_text(render(case), encoding="utf-8")
        written.append(path)
    return written
