"""``cardtable fast warm``: every kernel a user's first run needs is in the cache after it.

The check compiles one game's kernels cold (about 25 s of CPU), so it runs with ``make
crosscheck``; every run of the suite uses the warm-up itself (``make test`` runs it first).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("numba")
pytest.importorskip("gymnasium")

from cardtable.warmup import WARM_GAMES, warm

from ..test_cli import run

SRC = Path(__file__).resolve().parents[2] / "src"
#: What a researcher runs first: a vector env, a fast tournament, the batch engine.
FIRST_RUN = """
from cardtable.games import get_game
from cardtable.rl.gym_env import make_vector_env
from cardtable.sim.fast_tournament import run_fast_tournament
envs = make_vector_env("skyjo", 8, engine="fast", rules={"players": 4})
envs.reset(seed=5)
game = get_game("skyjo")
rules = game.rules_from_json({"players": 3})
print(run_fast_tournament(game, rules, ["hard", "greedy"], 6, 9, paired=True).games)
"""


def _run(env: dict[str, str], *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, *argv], env=env, capture_output=True, text=True, timeout=900, check=False
    )


@pytest.mark.crosscheck  # a cold compile of a game's kernels: make crosscheck runs it
def test_after_warm_a_first_run_compiles_nothing(tmp_path):
    # A cache of its own: what other tests compiled must not stand in for the warm-up.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(PYTHONPATH=str(SRC), NUMBA_CACHE_DIR=str(tmp_path))
    warmed = _run(env, "-m", "cardtable.cli", "fast", "warm", "--game", "skyjo", "--jobs", "1")
    assert warmed.returncode == 0, warmed.stderr
    assert warmed.stdout.startswith("skyjo: ready in ")
    assert f"kernels cached in {tmp_path}" in warmed.stdout
    assert "cardtable: compiling the fast engine's kernels" in warmed.stderr
    first = _run(env, "-c", FIRST_RUN)
    assert first.returncode == 0, first.stderr
    assert first.stdout.split() == ["6"]
    assert "cardtable: compil" not in first.stderr  # every kernel came from the cache


def test_an_unknown_game_is_refused_by_name(capsys):
    with pytest.raises(ValueError, match="no compiled engine for chess"):
        warm(["chess"])
    code, _, err = run(capsys, "fast", "warm", "--game", "chess")
    assert code == 2 and "invalid choice: 'chess'" in err
    assert WARM_GAMES == ("skyjo", "skipbo")
