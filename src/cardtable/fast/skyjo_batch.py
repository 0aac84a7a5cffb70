"""B Skyjo games held in numpy arrays and stepped together by compiled code.

``SkyjoBatch(SkyjoRules(players=4), size=1024)`` holds the games; ``reset(seeds)``
deals game ``b`` from ``seeds[b]`` exactly as ``GAME.new_state(rules, seeds[b])``
does (the same SplitMix64, the same shuffle), ``legal_mask()`` gives every game's
legal actions, ``step(actions)`` applies one action per game, ``play_random(seeds)``
plays every game to its end with the random policy inside compiled code. Every
rules option of :class:`cardtable.skyjo.SkyjoRules` is supported.

The pure-Python engine (:mod:`cardtable.skyjo`) stays the reference: the tests
replay games of this engine through it move by move and require the same legal
moves, the same state, scores and result at every step.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..core import IllegalMoveError, Result
from ..skyjo.rules import SkyjoRules
from . import skyjo_kernels as k

_MASK64 = (1 << 64) - 1
PHASES = ("setup", "turn", "drawn", "taken", "over")


def seeds_array(
    seeds: Sequence[int] | NDArray[Any], size: int, what: str = "seeds"
) -> NDArray[np.uint64]:
    """``seeds`` as ``uint64`` (each reduced modulo 2**64, as ``Rng(seed)`` does)."""
    values = [int(seed) & _MASK64 for seed in seeds]
    if len(values) != size:
        raise ValueError(f"{what}: expected {size} seeds, got {len(values)}")
    return np.array(values, dtype=np.uint64)


class SkyjoBatch:
    """``size`` Skyjo games under one ``rules``, stepped together; see the module."""

    def __init__(self, rules: SkyjoRules, size: int) -> None:
        if not isinstance(rules, SkyjoRules):
            raise TypeError(f"Skyjo needs SkyjoRules, got {type(rules).__name__}")
        rules.validate()
        if isinstance(size, bool) or not isinstance(size, int) or size < 1:
            raise ValueError(f"size must be a positive integer, got {size!r}")
        self.rules = rules
        self.size = size
        n = self.players = rules.players
        self.cfg = np.array(
            [
                n,
                rules.end_score,
                int(rules.rows_rule),
                int(rules.closer_starts_next),
                int(rules.closer_doubling),
                rules.turn_limit,
            ],
            dtype=np.int64,
        )
        self.ints = np.zeros((size, k.NF), dtype=np.int32)
        self.cards = np.zeros((size, k.SLOTS * n), dtype=np.int8)
        self.present = np.zeros((size, n), dtype=np.int32)
        self.down = np.zeros((size, n), dtype=np.int32)
        self.totals = np.zeros((size, n), dtype=np.int32)
        self.points = np.zeros((size, n), dtype=np.int32)
        self.draw = np.zeros((size, k.DECK_SIZE), dtype=np.int8)
        self.discard = np.zeros((size, k.DECK_SIZE), dtype=np.int8)
        self.rng = np.zeros(size, dtype=np.uint64)
        self.ints[:, k.F_PHASE] = k.OVER  # nothing dealt before reset()
        self._all = np.arange(size, dtype=np.int64)

    @property
    def st(self) -> tuple[NDArray[Any], ...]:
        """The state tuple the kernels take (see :mod:`cardtable.fast.skyjo_kernels`)."""
        return (
            self.ints,
            self.cards,
            self.present,
            self.down,
            self.totals,
            self.points,
            self.draw,
            self.discard,
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
        """int8 ``(size, 38)``: 1 where the action is legal (all 0 in a finished game)."""
        out = np.zeros((self.size, k.NUM_ACTIONS), dtype=np.int8)
        k.legal_masks(self.st, out)
        return out

    def legal_actions(self, game: int) -> list[int]:
        """The legal action codes of one game, ascending (as ``state.legal_actions()``)."""
        bits = int(k.legal_bits(self.st, game))
        return [code for code in range(k.NUM_ACTIONS) if bits >> code & 1]

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
        bad = int(k.first_illegal(st, index, codes))
        if bad >= 0:
            game = int(index[bad])
            phase = PHASES[int(self.ints[game, k.F_PHASE])]
            raise IllegalMoveError(
                f"game {game}: action {int(codes[bad])} is not legal in phase {phase} "
                f"(legal: {self.legal_actions(game)})"
            )
        k.step_games(st, self.cfg, index, codes)

    def play_random(self, seeds: Sequence[int] | NDArray[Any]) -> int:
        """Play every game to its end, each choosing uniformly among its legal actions
        with its own generator seeded from ``seeds[b]`` (the random bot's rule); the
        number of moves played."""
        policy = seeds_array(seeds, self.size, "policy seeds")
        return int(k.play_random(self.st, self.cfg, policy))

    # --- reading --------------------------------------------------------------------
    @property
    def phase(self) -> NDArray[np.int32]:
        return self.ints[:, k.F_PHASE].copy()

    @property
    def is_over(self) -> NDArray[np.bool_]:
        over: NDArray[np.bool_] = self.ints[:, k.F_PHASE] == k.OVER
        return over

    def current_player(self, game: int) -> int | None:
        """The seat to move in one game, or None once it is over."""
        if self.ints[game, k.F_PHASE] == k.OVER:
            return None
        return int(self.ints[game, k.F_PLAYER])

    def moves_array(self) -> NDArray[np.int32]:
        """Every game's moves since its deal: a view, up to date after every call."""
        view: NDArray[np.int32] = self.ints[:, k.F_MOVES]
        return view

    def moves(self, game: int) -> int:
        """Moves applied to one game since its deal (the reference's ``len(history)``)."""
        return int(self.ints[game, k.F_MOVES])

    def result(self, game: int) -> Result | None:
        """The result of one game (as the reference's ``state.result()``), or None."""
        if self.ints[game, k.F_PHASE] != k.OVER:
            return None
        totals = [int(total) for total in self.totals[game]]
        low = min(totals)
        winners = tuple(seat for seat, total in enumerate(totals) if total == low)
        return Result(winners, tuple(totals), bool(self.ints[game, k.F_BLOCKED]))

    def fields(self, game: int) -> dict[str, Any]:
        """One game's whole state (hidden cards included) in the terms of the
        reference engine's :class:`cardtable.skyjo.SkyjoState` attributes."""
        ints = [int(value) for value in self.ints[game]]

        def seat(value: int) -> int | None:
            return None if value == k.NO_SEAT else value

        return {
            "phase": ints[k.F_PHASE],
            "player": ints[k.F_PLAYER],
            "hand": None if ints[k.F_HAND] == k.NO_CARD else ints[k.F_HAND],
            "starter": seat(ints[k.F_STARTER]),
            "closer": seat(ints[k.F_CLOSER]),
            "round": ints[k.F_ROUND],
            "turns": ints[k.F_TURNS],
            "reshuffled": bool(ints[k.F_RESHUFFLED]),
            "cards": self.cards[game].tolist(),
            "present": self.present[game].tolist(),
            "down": self.down[game].tolist(),
            "draw": self.draw[game, : ints[k.F_DRAW_LEN]].tolist(),
            "discard": self.discard[game, : ints[k.F_DISCARD_LEN]].tolist(),
            "totals": self.totals[game].tolist(),
            "rng": int(self.rng[game]),
            "rounds": ints[k.F_ROUNDS_DONE],
            "moves": ints[k.F_MOVES],
        }
