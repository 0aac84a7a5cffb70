"""The coach's judge on a fixed blunder set: blunders named, false alarms, verdict time, review.

    taskset -c 1 python -m lab coach_judge skyjo --per-kind 40 --strong 200 --expert 40
    taskset -c 1 python -m lab coach_judge skipbo --per-kind 40 --strong 200 --expert 40

For one game, with the precise judge (:mod:`cardtable.sim.judge`; ``--judge advisor``
measures the coach's judge before it, ``cardtable.bots.coaching.judge``, instead):

- the blunder set (:func:`cardtable.sim.judge_blunders.blunders`, ``--per-kind`` of
  each kind from seeded ``hard`` games): the share the coach names (its verdict is
  *clearly worse*: a loss of at least 2 Skyjo points or 5 points of Skip-Bo win
  chance), kind by kind, with the median cost; and how many are clearly worse by a
  reference verdict of the same judge with up to ``--reference`` re-deals, four
  candidates and 5 standard errors, and how many of those the coach names;
- strong players' moves at every decision of whole seeded games: ``--strong`` of
  ``hard``'s and ``--expert`` of ``expert``'s (``expert`` in seat 0 with ``hard``
  elsewhere): the share the coach calls clearly worse (false alarms);
- the CPU time of one verdict (this process, so pin it to one core with ``taskset``),
  median and 90th percentile over every verdict above;
- the review (its budget, :data:`cardtable.sim.judge.REVIEW_BUDGETS`) of ``--review``
  decisions of seat 0 playing random legal moves against ``hard``: the moves it names
  costly (a clear loss, listed among the worst) and those the coach would have
  spoken of.

Every count is seeded (``--seed``): the same command gives the same figures, times
aside.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import time
from collections.abc import Sequence

from cardtable.bots import coaching, make_bot
from cardtable.bots.coaching import clearly_worse
from cardtable.bots.review import MEASURES, ReviewedMove, has_choice
from cardtable.core import Rng
from cardtable.games import get_game
from cardtable.sim.judge import BUDGETS, REVIEW_BUDGETS, JudgeBudget, judge_position
from cardtable.sim.judge_blunders import (
    KINDS,
    SKIPBO_LATE,
    Position,
    blunders,
    random_game_decisions,
    strong_moves,
)

_MASK = (1 << 63) - 1


#: ``--judge advisor``: the coach's judge before issue 48 (``bots.coaching.judge``: the
#: advisor's 4 + 16 Python re-deals, a loss counted past two standard errors).
ADVISOR = "advisor"


def judge(
    position: Position, seed: int, budget: JudgeBudget | None = None, which: str = "precise"
) -> tuple[ReviewedMove, float]:
    """The verdict on ``position`` and its CPU seconds."""
    state = position.state()
    start = time.process_time()
    if which == ADVISOR:
        verdict = coaching.judge(state, position.seat, position.action, seed)[1]
    else:
        verdict = judge_position(state, position.seat, position.action, seed, budget)
    seconds = time.process_time() - start
    assert verdict is not None, "every benchmark position has a choice"
    return verdict, seconds


def expert_moves(game_name: str, count: int, seed: int) -> list[Position]:
    """``count`` moves of ``expert`` in seat 0 (``hard`` in the other seats) at its
    decisions with a real choice, from seeded games."""
    game = get_game(game_name)
    rules = game.rules_from_json({})
    moves: list[Position] = []
    deal = seed
    while len(moves) < count:
        state = game.new_state(rules, deal)
        expert = make_bot(game_name, "expert")
        hard = make_bot(game_name, "hard")
        rng = Rng((deal * 7_919 + 3) & _MASK)
        while not state.is_over and len(moves) < count:
            seat = state.current_player
            assert seat is not None
            bot = expert if seat == 0 else hard
            action = bot.choose(state, rng)
            if seat == 0 and has_choice(state, seat):
                moves.append(Position(game_name, deal, tuple(state.history), seat, action, None))
            state.apply_action(action)
        deal += 1
    return moves


def _seed(seed: int, index: int) -> int:
    return (seed * 1_000_003 + index * 7_919 + 11) & _MASK


def _percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(KINDS))
    parser.add_argument("--per-kind", type=int, default=40, help="blunders of each kind")
    parser.add_argument("--strong", type=int, default=200, help="hard's moves judged")
    parser.add_argument("--expert", type=int, default=40, help="expert's moves judged")
    parser.add_argument("--review", type=int, default=20, help="random-move decisions reviewed")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--judge",
        choices=("precise", ADVISOR),
        default="precise",
        help="the judge measured: sim.judge's, or the advisor's of bots.coaching (before)",
    )
    parser.add_argument(
        "--reference",
        type=int,
        default=1024,
        help="re-deals at most of the precise reference verdict on each blunder (0: none)",
    )
    parser.add_argument(
        "--early",
        action="store_true",
        help="Skip-Bo blunders anywhere in the round, not only late (no stock above 10)",
    )
    parser.add_argument("--verbose", action="store_true", help="one line per verdict")
    args = parser.parse_args(argv)
    measure = MEASURES[args.game]
    times: list[float] = []
    index = 0

    def run(position: Position, review: bool = False) -> ReviewedMove:
        nonlocal index
        budget = REVIEW_BUDGETS[args.game] if review else None
        verdict, seconds = judge(position, _seed(args.seed, index), budget, args.judge)
        index += 1
        if not review:
            times.append(seconds)
        if args.verbose:
            print(
                f"  {position.kind or '-':<20} seed {position.seed} move {len(position.actions)}: "
                f"cost {verdict.cost:.3f} ({verdict.samples} re-deals, {seconds * 1000:.0f} ms) "
                f"{verdict.played} | {verdict.played_reason} -> {verdict.best}"
            )
        return verdict

    print(f"{args.game}: blunders named by the coach ({args.per_kind} a kind, seed {args.seed})")
    total = named = 0
    late = 30 if args.early else SKIPBO_LATE
    blunder_set = blunders(args.game, args.per_kind, args.seed, late)
    reference = dataclasses.replace(BUDGETS[args.game], most=args.reference, z=5.0, candidates=4)
    costly = costly_named = 0
    for kind in KINDS[args.game]:
        found = [p for p in blunder_set if p.kind == kind]
        verdicts = [run(p) for p in found]
        hits = [clearly_worse(measure, v) for v in verdicts]
        total += len(found)
        named += sum(hits)
        costs = [v.cost for v in verdicts]
        median = statistics.median(costs) if costs else 0.0
        share = 100 * sum(hits) / len(found) if found else 0.0
        line = f"  {kind:<20} {sum(hits):>3} of {len(found):>3} ({share:5.1f}%)"
        line += f", median cost {median:.3f}"
        if args.reference:
            precise = [
                clearly_worse(measure, judge(p, _seed(args.seed + 1, i), reference)[0])
                for i, p in enumerate(found)
            ]
            both = sum(h and c for h, c in zip(hits, precise, strict=True))
            costly += sum(precise)
            costly_named += both
            line += f"; {sum(precise)} clearly worse by the reference, {both} of them named"
        print(line)
    print(f"  {'all':<20} {named:>3} of {total:>3} ({100 * named / max(total, 1):5.1f}%)")
    if args.reference:
        share = 100 * costly_named / max(costly, 1)
        print(
            f"  clearly worse by the reference ({args.reference} re-deals at most, 5 standard "
            f"errors): {costly} of {total}, named {costly_named} ({share:.1f}%)"
        )
    for name, positions in (
        ("hard", strong_moves(args.game, args.strong, args.seed + 10_000)),
        ("expert", expert_moves(args.game, args.expert, args.seed + 20_000)),
    ):
        verdicts = [run(p) for p in positions]
        alarms = sum(clearly_worse(measure, v) for v in verdicts)
        share = 100 * alarms / max(len(verdicts), 1)
        print(f"false alarms on {name}'s moves: {alarms} of {len(verdicts)} ({share:.1f}%)")
    if times:
        p50 = 1000 * _percentile(times, 0.5)
        print(
            f"verdict CPU time over {len(times)} verdicts: p50 {p50:.0f} ms, "
            f"p90 {1000 * _percentile(times, 0.9):.0f} ms, max {1000 * max(times):.0f} ms"
        )
    decisions = random_game_decisions(args.game, args.review, args.seed + 30_000)
    verdicts = [run(p, review=True) for p in decisions]
    costly = sum(v.cost > 0.0 for v in verdicts)
    coached = sum(clearly_worse(measure, v) for v in verdicts)
    print(
        f"review of {len(verdicts)} random-move decisions: {costly} named costly, "
        f"{coached} clearly worse"
    )
    # By the move played: a random Skyjo player's draw from the pile is often the best
    # move, its placements seldom (docs/bots.md).
    game = get_game(args.game)
    by_type: dict[str, list[bool]] = {}
    for verdict in verdicts:
        move_type = str(game.decode(verdict.action).to_json()["type"])
        by_type.setdefault(move_type, []).append(verdict.cost > 0.0)
    print(
        "  by the move played: "
        + ", ".join(f"{name} {sum(hits)} of {len(hits)}" for name, hits in sorted(by_type.items()))
    )


if __name__ == "__main__":
    main()
