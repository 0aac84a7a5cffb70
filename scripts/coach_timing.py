"""Time the practice coach's verdict on a player's decisions (docs/protocol.md, "The
practice coach"): the bots wait this long after each move of a coached player.

python scripts/coach_timing.py skyjo            # 3 games of 2 greedy players
python scripts/coach_timing.py skipbo --games 2 --decisions 30

Seat 0's decisions with a choice are judged as the server judges them (a re-deal of what
the seat could not see, the coach's budget) in this process, one after another; both
seats play the greedy bot, so the games are the same on every run. Prints the seconds
per verdict (mean, 90th percentile, max) and how many moves the coach spoke of.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Run against this checkout's code even if another cardtable is installed.
sys.path.insert(0, str(ROOT / "src"))

from cardtable.bots import coaching  # noqa: E402
from cardtable.bots.review import MEASURES, has_choice  # noqa: E402
from cardtable.core import Rng  # noqa: E402
from cardtable.games import get_game  # noqa: E402
from cardtable.server.rooms.bot_seats import choose_job, judge_job  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=["skipbo", "skyjo"])
    parser.add_argument("--games", type=int, default=3, help="games (seeds 1..N)")
    parser.add_argument("--decisions", type=int, default=40, help="seat 0's decisions per game")
    args = parser.parse_args()
    game = get_game(args.game)
    rules = game.rules_from_json({"players": 2})
    measure = MEASURES[args.game]
    seconds: list[float] = []
    spoken = 0
    for seed in range(1, args.games + 1):
        state = game.new_state(rules, seed)
        judged = 0
        while not state.is_over and judged < args.decisions:
            seat = state.current_player
            action = choose_job(args.game, "greedy", state.clone(), seed)
            if seat == 0 and has_choice(state, 0):
                world = state.determinize(0, Rng(seed * 1000 + judged))
                began = time.perf_counter()
                verdict = judge_job(world, 0, action, seed + judged)
                seconds.append(time.perf_counter() - began)
                judged += 1
                spoken += verdict is not None and coaching.clearly_worse(measure, verdict)
            state.apply_action(action)
    if not seconds:
        print("no decision judged")
        return 1
    ordered = sorted(seconds)
    print(
        f"{args.game}: {len(seconds)} verdicts, seconds each: mean "
        f"{statistics.fmean(seconds):.3f}, p90 {ordered[int(0.9 * (len(ordered) - 1))]:.3f}, "
        f"max {ordered[-1]:.3f}; the coach spoke of {spoken}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
