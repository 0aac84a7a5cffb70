"""Skip-Bo ``expert`` candidates (and oracles) against ``hard``, paired seats.

    python -m lab expert_experiments oracle-mc --games 400 --stock 10
    python -m lab expert_experiments oracle-mc --games 200 --set horizon=2
    python -m lab expert_experiments oracle-mc --games 200 --set know=1 --set iterations=6
    python -m lab expert_experiments oracle-danger --games 400 --stock 10
    python -m lab expert_experiments expert-discard --games 200 --set horizon=3 \
        --set iterations=32 --set z=2
    python -m lab expert_experiments expert --games 400 --stock 30 --seed 8
    python -m lab expert_experiments expert --games 400 --stock 30 --set iterations=48
    python -m lab expert_experiments expert-all --games 200 --set horizon=2 --set z=1.5

Game ``i`` is dealt from ``game_seed(seed, i // 2)`` with the variant in seat
``i % 2`` and ``hard`` in the other (so every deal is played from both seats).
The line printed gives the wins, the 95% Wilson interval and the variant's CPU
seconds per game; stderr gets a line per game as it ends (games in order: the
game's number, 1 if the variant won it, the wins so far and their rate).

Oracles are calibration only, never bots to ship: they read the real hidden cards.

- ``oracle-mc``: the expert's comparison of ``hard``'s move with every distinct
  play and the 3 best discards, on ``horizon`` turns (default 4) of
  ``PlanFollowingBot`` scored by the stock race, but on the *true* state (real
  opponent hand, real stocks and draw order, real reshuffles) instead of re-deals.
  The rollouts are then deterministic, so one rollout per move is exact, and the
  move with the best stock race is played (``hard``'s move on ties).
  ``know=1``: only the opponent's real hand is kept, the stocks below their tops
  and the draw pile are re-dealt among themselves, ``iterations`` times, and the
  best mean is played (no guard). ``know=2``: a fair re-deal of everything hidden
  (``determinize``), otherwise the same: not an oracle, the unguarded expert.
- ``oracle-danger``: ``hard`` whose danger term is exact: a pile state is a gift
  (weight 45) when the next player, with their real hand refilled from the real
  draw pile and their discard piles, can reach their stock top next turn.

Fair variants use only what the seat sees:

- ``expert``: the shipped :class:`SkipBoExpert`, the paired comparison as a
  tie-break: only the moves ``hard`` itself values within ``margin`` (plays: the
  best line each first play starts, default 3.0) or ``dmargin`` (discards:
  ``discard_options`` scores, default 0.5) of its best are compared with its move,
  ``iterations`` re-deals (48), ``horizon`` turns (4), ``seat_draws`` (1), a rival
  taken above ``z`` standard errors (1.0). Until 2026-12-01 this was the
  ``expert-ties`` experiment; until the evening of 2026-12-01 its defaults were 24 re-deals,
  3 turns, one shared draw pile and no fitted value (``--set iterations=24 --set horizon=3 --set
  seat_draws=0 --set value=0`` plays it as then).
  ``value``: rollouts that stop mid-round add ``value`` times the stock cards
  each side can expect to play in the next 8 turns, own minus the opponent's
  (``bots/skipbo_value.py``, fitted by ``lab/skipbo_leaf_fit.py``; default 1).
  ``seat_draws`` 1: each seat draws from its own part of the re-dealt draw pile
  (``bots/seat_draws.py``), so that moves drawing different numbers of cards
  stay paired. ``smargin``: stopping (``hard``'s discard) is a rival of a play too when
  ``hard`` values it within ``smargin`` of its best line (default: never). ``win`` 1
  (the default since 2026-12-02; 0 for the stock race): 2-player rollouts are scored
  by the chance to win the round (``win_chance``, which already counts the cards to
  come, so ``value`` then changes nothing).
- ``expert-all``: the expert shipped until 2026-12-01: every distinct play and
  the 3 best discards compared with ``hard``'s move (``iterations`` 24,
  ``horizon`` 4, ``z`` 2.5).
- ``expert-leaf``: the shipped ``expert`` whose rollouts that stop mid-round also
  score what the building piles then offer: ``leaf`` (1.0) stock cards times the
  own stock top's offer minus the best opposing one's (``hard``'s gap table, 1 when
  the top fits now).
- ``expert-discard``: the same paired, guarded comparison as ``expert-all``, run
  only where ``hard`` would end its turn with a discard (candidates: every
  distinct play, the ``discards`` best discards).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Sequence
from multiprocessing import Pool
from typing import Any

from cardtable.bots import skipbo_hard
from cardtable.bots.montecarlo import Budget, improve
from cardtable.bots.skipbo_expert import SkipBoExpert, skipbo_progress
from cardtable.bots.skipbo_hard import (
    HARD_WEIGHTS,
    HardBot,
    PlanFollowingBot,
    PlanWeights,
    TurnPlanner,
)
from cardtable.core import GameState, Rng
from cardtable.games import get_game
from cardtable.sim.tournament import game_seed, play_game
from cardtable.skipbo.moves import DISCARD_BASE, DISCARD_PLAY_BASE, END_TURN, STOCK_BASE
from cardtable.skipbo.state import SkipBoState

_WILD = 0


# --- oracle: the expert's comparison on the true state ------------------------------
class OracleMC:
    """Exact ``horizon``-turn lookahead on the real state (reads hidden cards)."""

    name = "oracle-mc"

    def __init__(
        self, horizon: int = 4, discards: int = 3, know: str = "all", iterations: int = 1
    ) -> None:
        self.horizon = horizon
        self.discards = discards
        self.know = know
        self.iterations = iterations
        self.hard = HardBot()

    def world(self, state: SkipBoState, rng: Rng) -> SkipBoState:
        """The state the lookahead sees: the truth, or a re-deal keeping part of it."""
        seat = state.current
        if self.know == "all":
            return state.clone()
        world = state.determinize(seat, rng)
        if self.know == "hand":
            # The opponents' real hands; the rest of the hidden cards re-dealt among themselves.
            world = state.clone()
            pool = [*world.draw]
            for stock in world.stocks:
                pool += stock[:-1]
            pool.sort()
            rng.shuffle(pool)
            for owner, stock in enumerate(state.stocks):
                if stock:
                    world.stocks[owner] = [*(pool.pop() for _ in range(len(stock) - 1)), stock[-1]]
            world.draw = pool
            world.rng = rng.spawn()
        return world

    def choose(self, state: GameState[Any], rng: Rng) -> int:
        assert isinstance(state, SkipBoState)
        first = self.hard.choose(state, rng)
        if STOCK_BASE <= first < DISCARD_PLAY_BASE or len(state.legal_actions()) == 1:
            return first
        moves = [first, *(a for a in skipbo_candidates(state, self.discards) if a != first)]
        if len(moves) == 1:
            return first
        totals = dict.fromkeys(moves, 0.0)
        for _ in range(self.iterations):
            world = self.world(state, rng)
            for action in moves:
                copy = world.clone()
                copy.apply_unchecked(action)
                policies = [PlanFollowingBot() for _ in range(state.n)]
                steps = 0
                while (
                    copy.final is None
                    and len(copy.round_log) == len(state.round_log)
                    and copy.turns < state.turns + self.horizon
                    and steps < 3000
                ):
                    copy.apply_unchecked(policies[copy.current].choose(copy, rng))
                    steps += 1
                totals[action] += skipbo_progress(state, copy, state.current)[0]
        best, best_value = first, totals[first]
        for action in moves:
            if totals[action] > best_value:
                best, best_value = action, totals[action]
        return best


# --- oracle: exact danger from the next player's real hand -------------------------
def _reaches(nexts: list[int], hand: list[int], discards: list[list[int]], top: int) -> bool:
    """Whether plays from ``hand`` and the discard tops can make ``top`` fit a building pile.

    A depth-first search over multisets of needs; wilds fill any need.
    """
    if top == _WILD or top in nexts:
        return True
    depths = [len(pile) for pile in discards]
    seen: set[tuple[Any, ...]] = set()

    def dfs() -> bool:
        key = (tuple(sorted(nexts)), tuple(hand), tuple(depths))
        if key in seen:
            return False
        seen.add(key)
        if top in nexts:
            return True
        needs = set(nexts)
        for index in range(4):
            if not depths[index]:
                continue
            card = discards[index][depths[index] - 1]
            for need in needs if card == _WILD else ([card] if card in needs else []):
                depths[index] -= 1
                i = nexts.index(need)
                nexts[i] = 1 if need == 12 else need + 1
                ok = dfs()
                nexts[i] = need
                depths[index] += 1
                if ok:
                    return True
        for card in range(13):
            if not hand[card]:
                continue
            for need in needs if card == _WILD else ([card] if card in needs else []):
                hand[card] -= 1
                i = nexts.index(need)
                nexts[i] = 1 if need == 12 else need + 1
                ok = dfs()
                nexts[i] = need
                hand[card] += 1
                if ok:
                    return True
        return False

    return dfs()


class _OracleDangerPlanner(TurnPlanner):
    def __init__(self, state: SkipBoState, seat: int, weights: PlanWeights = HARD_WEIGHTS) -> None:
        super().__init__(state, seat, weights)
        other = (seat + 1) % state.n
        self.opp_stock = state.stocks[other][-1] if state.stocks[other] else None
        hand = state.hands[other][:]
        # The next player draws up to five from the top of the real draw pile.
        missing = 5 - state.hand_sizes[other]
        for card in state.draw[::-1][:missing]:
            hand[card] += 1
        self.opp_hand = hand
        self.opp_discards = state.discards[other]

    def danger(self) -> float:
        if self.opp_stock is None:
            return 0.0
        hit = _reaches(self.nexts[:], self.opp_hand[:], self.opp_discards, self.opp_stock)
        return self.weights.gift * (1.0 if hit else 0.0)


# --- fair: the earlier shipped expert, every distinct play and the best discards ----
def skipbo_candidates(state: SkipBoState, discards: int = 3) -> list[int]:
    """Distinct plays (piles needing the same number are one place) and the best discards."""
    legal = state.legal_actions()
    nexts = [len(pile) + 1 for pile in state.building]
    seen: set[tuple[int, int]] = set()
    plays = []
    for action in legal:
        if action >= DISCARD_BASE:
            continue
        if action < STOCK_BASE:
            source, pile = divmod(action, 4)
        elif action < DISCARD_PLAY_BASE:
            source, pile = 100 + (action - STOCK_BASE) // 4, (action - STOCK_BASE) % 4
        else:
            relative = action - DISCARD_PLAY_BASE
            source, pile = 200 + relative // 4, relative % 4
        key = (source, nexts[pile])
        if key not in seen:
            seen.add(key)
            plays.append(action)
    ranked = [a for _, a in skipbo_hard.discard_options(state, state.current, legal)[:discards]]
    tail = [END_TURN] if END_TURN in legal else []
    return plays + ranked + tail


class AllMovesExpert(SkipBoExpert):
    """The expert shipped until 2026-12-01: every distinct play and the best discards.

    They are compared with ``hard``'s move wherever it would not play its stock, and
    one is taken above ``z`` standard errors (default 2.5, horizon 4).
    """

    def __init__(self, budget: Budget, horizon: int, z: float, discards: int = 3) -> None:
        super().__init__(budget, horizon=horizon, z=z)
        self.discards = discards

    def rivals(self, state: SkipBoState, baseline: int) -> list[int]:
        return [a for a in skipbo_candidates(state, self.discards) if a != baseline]


# --- fair: search only where hard ends its turn ------------------------------------
class DiscardExpert(AllMovesExpert):
    """The expert's paired comparison, run only where ``hard`` would stop and discard.

    That is the turn's main choice (stop now, and with which discard, or play on);
    searching there alone costs about one search a turn, so more re-deals fit.
    """

    def choose(self, state: GameState[Any], rng: Rng) -> int:
        assert isinstance(state, SkipBoState)
        first = self.hard.choose(state, rng)
        if first < DISCARD_BASE or len(state.legal_actions()) == 1:
            return first
        rivals = [a for a in skipbo_candidates(state, self.discards) if a != first]
        if not rivals:
            return first
        return improve(first, self.compare(state, first, rng.spawn(), rivals), self.z)


# --- fair: the tie-break with a leaf value for the stock tops the piles then offer ----
def _offer(state: SkipBoState, seat: int) -> float:
    """How close the building piles come to ``seat``'s stock top (1: it fits now)."""
    stock = state.stocks[seat]
    if not stock:
        return 0.0
    top = stock[-1]
    if top == _WILD:
        return 1.0
    return max(HARD_WEIGHTS.gift_chance(top - (len(pile) + 1)) for pile in state.building)


class LeafExpert(SkipBoExpert):
    """The shipped tie-break whose rollouts also score what the piles offer at the horizon.

    A rollout that stops mid-round adds ``leaf`` stock cards times (own offer minus
    the best opposing offer), the offer being ``hard``'s gap table (1 when the stock
    top fits a building pile now): the stock race alone ignores a stock card about
    to be played.
    """

    def __init__(self, budget: Budget, horizon: int, z: float, leaf: float) -> None:
        super().__init__(budget, horizon=horizon, z=z)
        self.leaf = leaf

    def _outcome(self, start: Any, end: Any, seat: int) -> tuple[float, float]:
        value, other = skipbo_progress(start, end, seat)
        if len(end.round_log) > len(start.round_log):
            return value, other
        team = start.rules.team(seat)
        mine = max(_offer(end, s) for s in team)
        theirs = max(_offer(end, s) for s in range(end.n) if s not in team)
        return value + self.leaf * (mine - theirs), other


# --- variants -------------------------------------------------------------------------
VARIANTS = (
    "oracle-mc", "oracle-danger", "expert-all", "expert-discard", "expert", "expert-leaf",
)  # fmt: skip


def variant(name: str, params: dict[str, float]) -> Any:
    if name == "oracle-mc":
        know = {0: "all", 1: "hand", 2: "none"}[int(params.get("know", 0))]
        return OracleMC(
            horizon=int(params.get("horizon", 4)),
            know=know,
            iterations=int(params.get("iterations", 1)),
        )
    if name == "oracle-danger":
        return HardBot(planner=_OracleDangerPlanner)
    if name == "expert-all":
        return AllMovesExpert(
            Budget(iterations=int(params.get("iterations", 24)), milliseconds=None),
            horizon=int(params.get("horizon", 4)),
            z=params.get("z", 2.5),
        )
    if name == "expert-discard":
        return DiscardExpert(
            Budget(iterations=int(params.get("iterations", 48)), milliseconds=None),
            horizon=int(params.get("horizon", 4)),
            z=params.get("z", 2.0),
            discards=int(params.get("discards", 4)),
        )
    if name == "expert":
        return SkipBoExpert(
            Budget(iterations=int(params.get("iterations", 48)), milliseconds=None),
            horizon=int(params.get("horizon", 4)),
            z=params.get("z", 1.0),
            margin=params.get("margin", 3.0),
            dmargin=params.get("dmargin", 0.5),
            smargin=params.get("smargin"),
            seat_draws=bool(params.get("seat_draws", 1)),
            value=params.get("value", 1.0),
            win=bool(params.get("win", 1)),
        )
    if name == "expert-leaf":
        return LeafExpert(
            Budget(iterations=int(params.get("iterations", 24)), milliseconds=None),
            horizon=int(params.get("horizon", 3)),
            z=params.get("z", 1.0),
            leaf=params.get("leaf", 1.0),
        )
    raise KeyError(name)


def _one(job: tuple[str, dict[str, float], int, int, int]) -> tuple[bool, float]:
    name, params, stock, seed, index = job
    game = get_game("skipbo")
    rules = game.rules_from_json({"stock_size": stock})
    seat = index % 2
    bots: list[Any] = [HardBot(), HardBot()]
    bots[seat] = variant(name, params)
    start = time.process_time()
    record = play_game(game, rules, bots, game_seed(seed, index // 2))
    return seat in record.winners, time.process_time() - start


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("variant", choices=VARIANTS)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--stock", type=int, default=10)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--set", action="append", default=[], metavar="NAME=VALUE")
    args = parser.parse_args(argv)
    params = {k: float(v) for k, _, v in (s.partition("=") for s in args.set)}
    jobs = [(args.variant, params, args.stock, args.seed, i) for i in range(args.games)]
    with Pool(args.workers) as pool:
        results = []
        # One line per game on stderr (games in order): a long run can be read as it goes.
        for done, result in enumerate(pool.imap(_one, jobs, chunksize=2), start=1):
            results.append(result)
            won = sum(w for w, _ in results)
            print(
                f"{done} {int(result[0])} {won} {100 * won / done:.1f}%",
                file=sys.stderr,
                flush=True,
            )
    wins = sum(won for won, _ in results)
    cpu = sum(t for _, t in results)
    n = args.games
    rate = wins / n
    # Wilson 95% interval.
    z = 1.96
    centre = (rate + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(rate * (1 - rate) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    print(
        f"{args.variant} {params or ''} stock {args.stock} seed {args.seed}: "
        f"{wins}/{n} wins, {100 * rate:.1f}% (95% Wilson {100 * (centre - half):.1f}-"
        f"{100 * (centre + half):.1f}%), {cpu / n:.2f} CPU s per game"
    )


if __name__ == "__main__":
    main()
