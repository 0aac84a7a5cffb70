"""Gymnasium vector envs on the compiled batch engines (extras ``rl`` and ``fast``).

``SkyjoFastVectorEnv(num_envs, rules=..., opponents="random")`` (or
``SkipBoFastVectorEnv``), or ``make_vector_env("skyjo", N, engine="fast", ...)``, is the
vector env of :class:`cardtable.rl.vector.CardtableVectorEnv` with every game held in one
batch (:class:`cardtable.fast.skyjo_batch.SkyjoBatch`,
:class:`cardtable.fast.skipbo_batch.SkipBoBatch`): the learners' moves, the compiled bots'
replies, the rewards, observations and masks of all N games are computed by compiled
kernels in one call per step. It returns what ``CardtableVectorEnv`` returns for the same
seeds and actions, array by array (tested in every autoreset mode, with illegal actions
and truncations): the same observation layout (a policy trained on one runs on the
other), the same masks, rewards, flags and infos, because the games are dealt from
the same seeds, the compiled bots choose and draw exactly as the Python ones, and each
env's seeds come from
the same per-env ``np_random`` stream as the single-agent env's.

Options are those of the single-agent env (``rules``, ``seat``, ``reward``,
``reward_at``, ``illegal``, ``illegal_penalty``, ``max_steps``) and ``autoreset_mode``,
with two differences: ``opponents`` are the bots the batch engine plays (``"random"``,
``"greedy"``: one name, or one per other seat), and with ``illegal="raise"`` an
illegal action raises before any env moves.
"""

from __future__ import annotations

import abc
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from ..core import Game, IllegalMoveError, RulesBase
from .common import check_max_steps, check_reward_options, resolve_rules
from .gym_env import SEED_BOUND, check_seat_options
from .layout import Layout
from .vector import DISABLED, NEXT_STEP, _put, reset_choice, reset_seeds

if TYPE_CHECKING:
    from numpy.typing import NDArray


class FastVectorEnv(VectorEnv, abc.ABC):
    """``num_envs`` games for one learner each, on a batch engine; see the module. The
    game's parts are the subclass's: :class:`SkyjoFastVectorEnv`, :class:`SkipBoFastVectorEnv`."""

    metadata: dict[str, Any] = {"render_modes": [], "autoreset_mode": NEXT_STEP}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int = 1,
        rules: RulesBase | Mapping[str, Any] | None = None,
        *,
        opponents: str | Sequence[str] = "random",
        seat: int | None = 0,
        reward: str = "win",
        reward_at: str = "game",
        illegal: str = "penalty",
        illegal_penalty: float = -1.0,
        max_steps: int | None = None,
        autoreset_mode: AutoresetMode | str = NEXT_STEP,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        resolved = resolve_rules(self._game(), rules)
        self.rules = resolved
        n = self.num_players = resolved.players  # type: ignore[attr-defined]
        kernels = self._kernels()
        BOT_NAMES = self._bot_names()  # noqa: N806
        names = check_seat_options(n, opponents, seat, illegal)
        unknown = sorted(set(names) - set(BOT_NAMES))
        if unknown:
            raise ValueError(
                f"the batch engine's opponents are {', '.join(BOT_NAMES)}, not {', '.join(unknown)}"
            )
        self._opponents = np.array([BOT_NAMES.index(name) for name in names], dtype=np.int64)
        check_reward_options(reward, reward_at)
        self.fixed_seat = seat
        self.reward_kind = kernels.WIN if reward == "win" else kernels.SCORE
        self.reward_at = kernels.AT_GAME if reward_at == "game" else kernels.AT_ROUND
        self.illegal = illegal
        self.illegal_penalty = float(illegal_penalty)
        self.max_steps = check_max_steps(max_steps)
        self.autoreset_mode = AutoresetMode(autoreset_mode)
        self.num_envs = num_envs
        self.metadata = {**self.metadata, "autoreset_mode": self.autoreset_mode}
        self.render_mode = None
        low, high = self._layout(n).bounds()
        self.single_observation_space = spaces.Box(low, high, dtype=np.float32)
        num_actions = self._game().num_actions
        self.single_action_space = spaces.Discrete(num_actions)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.batch: Any = self._batch(resolved, num_envs)
        self.kernels = kernels
        self._extra = self._kernel_extra()
        self.size = kernels.observation_size(n)
        self.seats = np.full(num_envs, 0 if seat is None else seat, dtype=np.int64)
        self.policy = np.zeros(num_envs, dtype=np.uint64)  # each game's bots' generator
        # The bot code of each seat of each game (the learner's entry is not used).
        self.kinds = np.zeros((num_envs, n), dtype=np.int64)
        self._np_randoms: list[np.random.Generator | None] = [None] * num_envs
        self._obs = np.zeros((num_envs, self.size), dtype=np.float32)
        self._masks = np.zeros((num_envs, num_actions), dtype=np.int8)
        self._steps = np.zeros(num_envs, dtype=np.int64)
        self._autoreset = np.zeros(num_envs, dtype=np.bool_)
        self._ended = np.zeros(num_envs, dtype=np.bool_)
        self._reset_once = False
        self._all = np.arange(num_envs, dtype=np.int64)
        self._ones = np.ones(num_envs, dtype=np.bool_)

    # --- games ------------------------------------------------------------------------
    def _new_games(self, games: NDArray[np.int64]) -> None:
        """Deal the listed envs' next games from their ``np_random`` streams (the draws
        of the single-agent env's ``_new_game``) and let the bots play up to the learner."""
        seeds = []
        for index in games.tolist():
            rng = self._np_randoms[index]
            if rng is None:
                rng = self._np_randoms[index] = seeding.np_random(None)[0]
            if self.fixed_seat is None:
                self.seats[index] = int(rng.integers(self.num_players))
            # The other seats in seat order get the opponents in order, as in the
            # single-agent env.
            seat = int(self.seats[index])
            others = [s for s in range(self.num_players) if s != seat]
            self.kinds[index, others] = self._opponents
            self.policy[index] = int(rng.integers(SEED_BOUND))
            seeds.append(int(rng.integers(SEED_BOUND)))
        pending = games
        while pending.size:
            self.batch.reset_games(pending, seeds)
            self.kernels.start_games(
                self.batch.st, self.batch.cfg, self.policy, self.kinds, self.seats, pending,
                *self._extra,
            )  # fmt: skip
            # Bots can finish a (short Skip-Bo) game before the learner's first move: the
            # single-agent env then deals the next game of the same seeded stream.
            pending = pending[self.batch.is_over[pending]]
            seeds = [int(self._rng_of(index).integers(SEED_BOUND)) for index in pending.tolist()]
        self._steps[games] = 0

    def _rng_of(self, index: int) -> np.random.Generator:
        rng = self._np_randoms[index]
        assert rng is not None
        return rng

    def _observe(self, games: NDArray[np.int64]) -> None:
        self.kernels.observe(
            self.batch.st, self.batch.cfg, self.seats, games, self._obs, self._masks, *self._extra
        )

    # --- VectorEnv API ----------------------------------------------------------------
    def reset(
        self,
        *,
        seed: int | Sequence[int | None] | None = None,
        options: dict[str, Any] | None = None,
    ) -> tuple[NDArray[np.float32], dict[str, Any]]:
        """Reset every env (or those of ``options["reset_mask"]``), as ``CardtableVectorEnv``."""
        n = self.num_envs
        seeds = reset_seeds(seed, n)
        chosen = reset_choice(dict(options or {}).get("reset_mask"), n, self._reset_once)
        games = np.flatnonzero(chosen).astype(np.int64)
        for index in games.tolist():
            if seeds[index] is not None or self._np_randoms[index] is None:
                self._np_randoms[index] = seeding.np_random(seeds[index])[0]
        self._new_games(games)
        self._observe(games)
        self._autoreset[games] = False
        self._ended[games] = False
        self._reset_once = True
        masks = np.where(chosen[:, None], self._masks, 0).astype(np.int8)
        return self._obs.copy(), {"action_mask": masks, "_action_mask": chosen}

    def step(
        self, actions: Any
    ) -> tuple[
        NDArray[np.float32],
        NDArray[np.float64],
        NDArray[np.bool_],
        NDArray[np.bool_],
        dict[str, Any],
    ]:
        """One action per env (shape ``(num_envs,)``), as ``CardtableVectorEnv.step``."""
        if not self._reset_once:
            raise RuntimeError("call reset() first")
        n = self.num_envs
        codes = np.asarray(actions, dtype=np.int64).reshape(-1)
        if codes.shape[0] != n:
            raise ValueError(f"step needs {n} actions, got {codes.shape[0]}")
        mode = self.autoreset_mode
        if mode is DISABLED and self._ended.any():
            index = int(np.flatnonzero(self._ended)[0])
            raise RuntimeError(
                f"env {index} finished its episode: reset it (reset_mask) before stepping it"
            )
        resetting = self._autoreset
        acting = ~resetting
        st, cfg = self.batch.st, self.batch.cfg
        if self.illegal == "raise":
            legal = self._legal_for(codes)
            bad = np.flatnonzero(acting & ~legal)
            if bad.size:
                game = int(bad[0])
                raise IllegalMoveError(
                    f"env {game}: action {int(codes[game])} is not legal{self._where(game)}"
                )
        rewards = np.empty(n, dtype=np.float64)
        legal = np.empty(n, dtype=np.bool_)
        out = (rewards, legal, self._obs, self._masks)
        self.kernels.vector_step(
            st, cfg, self.policy, self.kinds, self.seats, codes, acting, self.reward_kind,
            self.reward_at, self.illegal_penalty, out, *self._extra,
        )  # fmt: skip
        self._steps += acting
        over = self.batch.is_over
        terminated = acting & over
        if self.max_steps is None:
            truncated = np.zeros(n, dtype=np.bool_)
        else:
            truncated = acting & ~over & (self._steps >= self.max_steps)
        illegal = ~legal
        if not (terminated.any() or truncated.any() or resetting.any() or illegal.any()):
            quiet = {"action_mask": self._masks.copy(), "_action_mask": self._ones.copy()}
            return self._obs.copy(), rewards, terminated, truncated, quiet
        illegal_games = np.flatnonzero(illegal)
        reset_now = np.flatnonzero(resetting).astype(np.int64)
        if reset_now.size:  # NEXT_STEP: these envs ignore their action and deal anew
            self._new_games(reset_now)
            self._observe(reset_now)
            self._autoreset[reset_now] = False
        infos: dict[str, Any] = {
            "action_mask": self._masks.copy(),
            "_action_mask": self._ones.copy(),
        }
        done = np.flatnonzero(terminated | truncated)
        extra: list[tuple[int, dict[str, Any]]] = []
        for index in illegal_games.tolist():
            extra.append((index, {"illegal_action": True}))
        ends = done.tolist()
        for index in ends:
            info: dict[str, Any] = {}
            if index in illegal_games:
                info["illegal_action"] = True
            if terminated[index]:
                result = self.batch.result(index)
                assert result is not None
                info["winners"] = list(result.winners)
                info["scores"] = list(result.scores)
            extra = [(i, e) for i, e in extra if i != index] + [(index, info)]
        obs = self._obs.copy()
        if mode is NEXT_STEP:
            self._autoreset[done] = True
        elif mode is DISABLED:
            self._ended[done] = True
        elif done.size:  # SAME_STEP: deal the next games at once
            finals = []
            for index in ends:
                info = next(e for i, e in extra if i == index)
                final = {
                    "final_obs": obs[index].copy(),
                    "final_info": {"action_mask": self._masks[index].copy(), **info},
                }
                finals.append((index, final))
            extra = [(i, e) for i, e in extra if i not in ends] + finals
            self._new_games(done.astype(np.int64))
            self._observe(done.astype(np.int64))
            obs[done] = self._obs[done]
            infos["action_mask"][done] = self._masks[done]
        for index, info in sorted(extra, key=lambda item: item[0]):
            for key, value in info.items():
                _put(infos, key, value, index, n)
        return obs, rewards, terminated, truncated, infos

    # --- the game's parts -------------------------------------------------------------
    @staticmethod
    @abc.abstractmethod
    def _game() -> Game[Any]:
        """The game (each subclass gives its own parts: these six methods)."""

    @staticmethod
    @abc.abstractmethod
    def _kernels() -> Any:
        """See :meth:`_game`."""

    @staticmethod
    @abc.abstractmethod
    def _bot_names() -> tuple[str, ...]:
        """See :meth:`_game`."""

    @staticmethod
    @abc.abstractmethod
    def _layout(players: int) -> Layout:
        """See :meth:`_game`."""

    @staticmethod
    @abc.abstractmethod
    def _batch(rules: RulesBase, size: int) -> Any:
        """See :meth:`_game`."""

    def _kernel_extra(self) -> tuple[Any, ...]:
        """Arguments the game's kernels take after the common ones."""
        return ()

    @abc.abstractmethod
    def _legal_for(self, codes: NDArray[np.int64]) -> NDArray[np.bool_]:
        """Whether each env's action is legal (see :meth:`_game`)."""

    def _where(self, game: int) -> str:
        """Where the game stands, for an illegal action's message."""
        return ""


class SkyjoFastVectorEnv(FastVectorEnv):
    """``num_envs`` Skyjo games for one learner each, on the batch engine; see the module."""

    @staticmethod
    def _game() -> Game[Any]:
        from ..skyjo import GAME

        return GAME

    @staticmethod
    def _kernels() -> Any:
        from ..fast import skyjo_env

        return skyjo_env

    @staticmethod
    def _bot_names() -> tuple[str, ...]:
        from ..fast.skyjo_bots import NAMES

        return NAMES

    @staticmethod
    def _layout(players: int) -> Layout:
        from .skyjo_obs import skyjo_layout

        return skyjo_layout(players)

    @staticmethod
    def _batch(rules: RulesBase, size: int) -> Any:
        from ..fast.skyjo_batch import SkyjoBatch
        from ..skyjo.rules import SkyjoRules

        assert isinstance(rules, SkyjoRules)
        return SkyjoBatch(rules, size)

    def _legal_for(self, codes: NDArray[np.int64]) -> NDArray[np.bool_]:
        legal = np.zeros(self.num_envs, dtype=np.bool_)
        self.kernels.legal_for(self.batch.st, self._all, codes, legal)
        return legal

    def _where(self, game: int) -> str:
        from ..fast.skyjo_batch import PHASES

        return f" in phase {PHASES[int(self.batch.phase[game])]}"


class SkipBoFastVectorEnv(FastVectorEnv):
    """``num_envs`` Skip-Bo games for one learner each, on the batch engine; see the module."""

    @staticmethod
    def _game() -> Game[Any]:
        from ..skipbo import GAME

        return GAME

    @staticmethod
    def _kernels() -> Any:
        from ..fast import skipbo_env

        return skipbo_env

    @staticmethod
    def _bot_names() -> tuple[str, ...]:
        from ..fast.skipbo_bots import NAMES

        return NAMES

    @staticmethod
    def _layout(players: int) -> Layout:
        from .skipbo_obs import skipbo_layout

        return skipbo_layout(players)

    @staticmethod
    def _batch(rules: RulesBase, size: int) -> Any:
        from ..fast.skipbo_batch import SkipBoBatch
        from ..skipbo.rules import SkipBoRules

        assert isinstance(rules, SkipBoRules)
        return SkipBoBatch(rules, size)

    def _kernel_extra(self) -> tuple[Any, ...]:
        return (self.batch.scratch,)

    def _legal_for(self, codes: NDArray[np.int64]) -> NDArray[np.bool_]:
        legal = np.zeros(self.num_envs, dtype=np.bool_)
        self.kernels.legal_for(self.batch.st, self.batch.cfg, self._all, codes, legal)
        return legal
