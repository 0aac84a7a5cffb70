"""B Skip-Bo games held in numpy arrays and stepped together by compiled code.

``SkipBoBatch(SkipBoRules(players=4, teams=True), size=1024)`` holds the games;
``reset(seeds)`` deals game ``b`` from ``seeds[b]`` exactly as
``GAME.new_state(rules, seeds[b])`` does (the same SplitMix64, the same cut for the
deal, the same shuffles), ``legal_mask()`` gives every game's legal actions (the
reference's action codes, :mod:`cardtable.skipbo.moves`), ``step(actions)`` applies
one action per game, ``play_random(seeds)`` plays every game to its end with the
random policy inside compiled code. Every rules option of
:class:`cardtable.skipbo.SkipBoRules` is supported: 2 to 6 players, teams and
discarding to the partner, stock sizes, multi-round matches (target, round bonus,
points per card, blocked-round limit), the first player or sheet 003's cut for the
deal, the idle and turn limits, and both rules editions.

The pure-Python engine (:mod:`cardtable.skipbo`) stays the reference: the cross-check
(:mod:`cardtable.fast.skipbo_check`) replays games of this engine through it move by
move and requires the same legal moves, the same state, scores and result.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..core import IllegalMoveError, Result, RoundResult
from ..skipbo.moves import NUM_ACTIONS
from ..skipbo.rules import SkipBoRules
from . import skipbo_kernels as k
from .skyjo_batch import seeds_array


def seats_of(mask: int, players: int) -> tuple[int, ...]:
    """The seats of a seat bit mask, ascending."""
    return tuple(seat for seat in range(players) if mask >> seat & 1)


def rules_config(rules: SkipBoRules) -> NDArray[np.int64]:
    """The ``cfg`` array of the kernels for ``rules`` (see ``skipbo_kernels.C_*``)."""
    values = [0] * k.NC
    values[k.C_PLAYERS] = rules.players
    values[k.C_STOCK] = rules.stock
    values[k.C_TEAMS] = int(rules.teams)
    values[k.C_TO_PARTNER] = int(rules.discard_to_partner)
    values[k.C_ROUNDS] = int(rules.rounds)
    values[k.C_TARGET] = rules.target
    values[k.C_BONUS] = rules.round_bonus
    values[k.C_PER_CARD] = rules.points_per_card
    values[k.C_FIRST] = -1 if rules.first_player is None else rules.first_player
    values[k.C_HIGH_CARD] = int(rules.high_card_deal)
    values[k.C_IDLE_LIMIT] = rules.idle_limit
    values[k.C_TURN_LIMIT] = rules.turn_limit
    values[k.C_BLOCKED_LIMIT] = rules.blocked_limit
    values[k.C_EDITION] = rules.edition
    return np.array(values, dtype=np.int64)


class SkipBoBatch:
    """``size`` Skip-Bo games under one ``rules``, stepped together; see the module."""

    def __init__(self, rules: SkipBoRules, size: int) -> None:
        if not isinstance(rules, SkipBoRules):
            raise TypeError(f"Skip-Bo needs SkipBoRules, got {type(rules).__name__}")
        rules.validate()
        if isinstance(size, bool) or not isinstance(size, int) or size < 1:
            raise ValueError(f"size must be a positive integer, got {size!r}")
        self.rules = rules
        self.size = size
        n = self.players = rules.players
        self.cfg = rules_config(rules)
        self.ints = np.zeros((size, k.NF), dtype=np.int32)
        self.hands = np.zeros((size, k.CARDS * n), dtype=np.int8)
        self.hand_sizes = np.zeros((size, n), dtype=np.int32)
        self.stocks = np.zeros((size, k.STOCK_ROOM * n), dtype=np.int8)
        self.stock_sizes = np.zeros((size, n), dtype=np.int32)
        self.discards = np.zeros((size, k.PILES * n, k.DECK_SIZE), dtype=np.int8)
        self.discard_sizes = np.zeros((size, k.PILES * n), dtype=np.int32)
        self.building = np.zeros((size, k.PILES, k.HIGHEST), dtype=np.int8)
        self.building_sizes = np.zeros((size, k.PILES), dtype=np.int32)
        self.draw = np.zeros((size, k.DECK_SIZE), dtype=np.int8)
        self.completed = np.zeros((size, k.DECK_SIZE), dtype=np.int8)
        self.scores = np.zeros((size, n), dtype=np.int32)
        self.points = np.zeros((size, n), dtype=np.int32)
        self.final = np.zeros((size, n), dtype=np.int32)
        self.rng = np.zeros(size, dtype=np.uint64)
        self.ints[:, k.F_OVER] = 1  # nothing dealt before reset()
        self.scratch = np.zeros(NUM_ACTIONS, dtype=np.int64)
        self._all = np.arange(size, dtype=np.int64)

    @property
    def st(self) -> tuple[NDArray[Any], ...]:
        """The state tuple the kernels take (see :mod:`cardtable.fast.skipbo_kernels`)."""
        return (
            self.ints,
            self.hands,
            self.hand_sizes,
            self.stocks,
            self.stock_sizes,
            self.discards,
            self.discard_sizes,
            self.building,
            self.building_sizes,
            self.draw,
            self.completed,
            self.scores,
            self.points,
            self.final,
            self.rng,
        )

    # --- dealing ------------------------------------------------------------------
    def reset(self, seeds: Sequence[int] | NDArray[Any]) -> None:
        """Deal game ``b`` anew from ``seeds[b]``, for every game."""
        k.new_games(self.st, self.cfg, self._all, seeds_array(seeds, self.size))

    def reset_games(
        self, games: Sequence[int] | NDArray[Any], seeds: Sequence[int] | NDArray[Any]
    ) -> None:
        """Deal the listed games anew, game ``games[i]`` from ``seeds[i]``."""
        index = np.asarray(games, dtype=np.int64).reshape(-1)
        if index.size and (index.min() < 0 or index.max() >= self.size):
            raise IndexError(f"games must lie in 0..{self.size - 1}")
        k.new_games(self.st, self.cfg, index, seeds_array(seeds, index.size))

    # --- moves ----------------------------------------------------------------------
    def legal_mask(self) -> NDArray[np.int8]:
        """int8 ``(size, 197)``: 1 where the action is legal (all 0 in a finished game)."""
        out = np.zeros((self.size, NUM_ACTIONS), dtype=np.int8)
        k.legal_masks(self.st, self.cfg, out, self.scratch)
        return out

    def legal_actions(self, game: int) -> list[int]:
        """The legal action codes of one game, ascending (as ``state.legal_actions()``)."""
        if not 0 <= game < self.size:
            raise IndexError(f"game must lie in 0..{self.size - 1}")
        count = int(k.legal_of(self.st, self.cfg, game, self.scratch))
        return [int(code) for code in self.scratch[:count]]

    def step(
        self,
        actions: Sequence[int] | NDArray[Any],
        games: Sequence[int] | NDArray[Any] | None = None,
    ) -> None:
        """Apply ``actions[b]`` to every game ``b`` or, with ``games``, ``actions[i]`` to
        game ``games[i]`` only. If any action is illegal (or its game is over), raise
        :class:`IllegalMoveError` naming the first such game and change no game."""
        codes = np.asarray(actions, dtype=np.int64).reshape(-1)
        index = self._all if games is None else np.asarray(games, dtype=np.int64).reshape(-1)
        if codes.shape[0] != index.shape[0]:
            raise ValueError(f"step needs {index.shape[0]} actions, got {codes.shape[0]}")
        if index.size and (index.min() < 0 or index.max() >= self.size):
            raise IndexError(f"games must lie in 0..{self.size - 1}")
        st = self.st
        bad = int(k.first_illegal(st, self.cfg, index, codes))
        if bad >= 0:
            game = int(index[bad])
            if self.ints[game, k.F_OVER]:
                raise IllegalMoveError(f"game {game}: action {int(codes[bad])}: the game is over")
            raise IllegalMoveError(
                f"game {game}: action {int(codes[bad])} is not legal "
                f"(legal: {self.legal_actions(game)})"
            )
        k.step_games(st, self.cfg, index, codes)

    def play_random(self, seeds: Sequence[int] | NDArray[Any]) -> int:
        """Play every game to its end, each choosing uniformly among its legal actions
        with its own generator seeded from ``seeds[b]`` (the random bot's rule); the
        number of moves played."""
        policy = seeds_array(seeds, self.size, "policy seeds")
        return int(k.play_random(self.st, self.cfg, policy, self.scratch))

    # --- reading --------------------------------------------------------------------
    @property
    def is_over(self) -> NDArray[np.bool_]:
        over: NDArray[np.bool_] = self.ints[:, k.F_OVER] != 0
        return over

    def current_player(self, game: int) -> int | None:
        """The seat to move in one game, or None once it is over."""
        if self.ints[game, k.F_OVER]:
            return None
        return int(self.ints[game, k.F_CURRENT])

    def moves_array(self) -> NDArray[np.int32]:
        """Every game's moves since its deal: a view, up to date after every call."""
        view: NDArray[np.int32] = self.ints[:, k.F_MOVES]
        return view

    def moves(self, game: int) -> int:
        """Moves applied to one game since its deal (the reference's ``len(history)``)."""
        return int(self.ints[game, k.F_MOVES])

    def result(self, game: int) -> Result | None:
        """The result of one game (as the reference's ``state.result()``), or None."""
        if not self.ints[game, k.F_OVER]:
            return None
        winners = seats_of(int(self.ints[game, k.F_WINNERS]), self.players)
        scores = tuple(int(score) for score in self.final[game])
        return Result(winners, scores, bool(self.ints[game, k.F_FINAL_BLOCKED]))

    def last_round(self, game: int) -> RoundResult | None:
        """The last finished round of one game (the reference's ``rounds()[-1]``), or None."""
        ints = self.ints[game]
        if not ints[k.F_ROUNDS_DONE]:
            return None
        return RoundResult(
            tuple(int(p) for p in self.points[game]),
            seats_of(int(ints[k.F_ROUND_WINNERS]), self.players),
            int(ints[k.F_ROUND_TURNS]),
            bool(ints[k.F_ROUND_BLOCKED]),
        )

    def fields(self, game: int) -> dict[str, Any]:
        """One game's whole state (hidden cards included) in the terms of the
        reference engine's :class:`cardtable.skipbo.SkipBoState` attributes."""
        n = self.players
        ints = [int(value) for value in self.ints[game]]
        hands = self.hands[game].reshape(n, k.CARDS).tolist()
        stocks = [
            self.stocks[game, seat * k.STOCK_ROOM : seat * k.STOCK_ROOM + size].tolist()
            for seat, size in enumerate(self.stock_sizes[game].tolist())
        ]
        sizes = self.discard_sizes[game].tolist()
        discards = [
            [self.discards[game, seat * 4 + i, : sizes[seat * 4 + i]].tolist() for i in range(4)]
            for seat in range(n)
        ]
        building = [
            self.building[game, pile, :size].tolist()
            for pile, size in enumerate(self.building_sizes[game].tolist())
        ]
        return {
            "current": ints[k.F_CURRENT],
            "round_index": ints[k.F_ROUND],
            "starter": ints[k.F_STARTER],
            "turns": ints[k.F_TURNS],
            "idle": ints[k.F_IDLE],
            "built": bool(ints[k.F_BUILT]),
            "hands": hands,
            "hand_sizes": self.hand_sizes[game].tolist(),
            "stocks": stocks,
            "discards": discards,
            "building": building,
            "draw": self.draw[game, : ints[k.F_DRAW_LEN]].tolist(),
            "completed": self.completed[game, : ints[k.F_DONE_LEN]].tolist(),
            "scores": self.scores[game].tolist(),
            "rng": int(self.rng[game]),
            "rounds": ints[k.F_ROUNDS_DONE],
            "moves": ints[k.F_MOVES],
            "over": bool(ints[k.F_OVER]),
        }
