"""Gymnasium vector envs on the compiled batch engines (extras ``rl`` and ``fast``).

``SkyjoFastVectorEnv(num_envs, rules=..., opponents="random")`` (or
``SkipBoFastVectorEnv``), or ``make_vector_env("skyjo", N, engine="fast", ...)``, is the
vector env of :class:`cardtable.rl.vector.CardtableVectorEnv` with every game held in one
batch (:class:`cardtable.fast.skyjo_batch.SkyjoBatch`,
:class:`cardtable.fast.skipbo_batch.SkipBoBatch`). A ``step`` is one call of a compiled
kernel (``step_envs`` of :mod:`cardtable.fast.skyjo_env` or
:mod:`cardtable.fast.skipbo_env`): the learners' moves, the compiled bots' replies, the
rewards and flags, the autoresets (new deals included) and the observations and masks
of all N games; Python then copies the results out (each call returns new arrays, as
the reference does, so a caller may keep and change them) and builds the infos of
illegal actions and ended episodes only in the steps that have some.

It returns what ``CardtableVectorEnv`` returns for the same seeds and actions, array by
array (tested in every autoreset mode, with illegal actions and truncations): the same
observation layout (a policy trained on one runs on the other), the same masks,
rewards, flags and infos, because the games are dealt from the same seeds, the
compiled bots choose and draw exactly as the Python ones, and each env's seats and
seeds are drawn from its own ``np_random`` stream as the single-agent env draws them:
the stream is NumPy's PCG64, held as a row of :mod:`cardtable.fast.pcg64` so that the
kernel draws the same numbers.

Options are those of the single-agent env (``rules``, ``seat``, ``reward``,
``reward_at``, ``illegal``, ``illegal_penalty``, ``max_steps``) and ``autoreset_mode``,
with two differences: ``opponents`` are the bots the batch engine plays (``"random"``,
``"greedy"``, ``"hard"``, and ``"frozen"``: one name, or one per other seat), and with
``illegal="raise"`` an illegal action raises before any env moves. Skip-Bo's takes one
more reward, ``reward="stock"``: the dense reward of :mod:`cardtable.fast.skipbo_env`
(stock cards played, plus the win reward), which the reference envs do not have.

``"frozen"`` is a learned policy (``frozen=PolicyWeights``, the trainer's weights, or a
list of them: a pool, env ``i`` playing policy ``i % len(pool)``) whose network runs in
the kernel (:mod:`cardtable.fast.frozen_policy`): a frozen seat encodes its own
observation (what the learner's encoder shows that seat, never the hidden cards) and
plays the legal move with the highest logit, as ``LearnedBot`` with those weights does.
``set_frozen(weights)`` copies new weights of the same shape into the kernels' arrays
(no compile), for a trainer refreshing its league. Weights of another game, player
count, encoder version or observation size are refused with a ``ValueError`` naming
the field.

``teacher_actions()`` gives, for every env, the move ``hard`` would play in the
learner's seat now (for the trainer's imitation term, :mod:`cardtable.rl.train`); the
reference envs do not have it either. ``hard_priors()`` gives ``hard``'s value of every
legal move of the learner, as the prior of the trainer's ``--prior hard``.
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

from ..bots.learned_net import PolicyWeights
from ..core import Game, IllegalMoveError, RulesBase
from ..encoders.layout import Layout
from ..fast import env_common as common
from ..fast import frozen_policy, pcg64
from .common import check_max_steps, check_reward_options, check_seat_options, resolve_rules
from .vector import DISABLED, NEXT_STEP, SAME_STEP, reset_choice, reset_seeds

if TYPE_CHECKING:
    from numpy.typing import NDArray


def compiled_entry(kernel: Any, args: tuple[Any, ...]) -> Any:
    """The machine code of ``kernel`` for the types of ``args``, called directly.

    Calling a numba kernel costs about a microsecond before its code runs: the
    dispatcher works out the type of every argument (here some twenty arrays) to find
    the compiled version. A vector env calls its step kernel with the same arrays every
    time (only the actions are new, and ``step`` makes them an aligned C-ordered int64
    array like the one given here), so it looks that version up once.
    ``Dispatcher.compile`` compiles it, or loads it from numba's cache, and returns its
    entry point, which takes the arguments without checking their types.
    """
    signature = tuple(kernel.typeof_pyval(arg) for arg in args)
    return kernel.compile(signature)


_MODES = {
    NEXT_STEP: common.MODE_NEXT_STEP,
    SAME_STEP: common.MODE_SAME_STEP,
    DISABLED: common.MODE_DISABLED,
}


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
        frozen: PolicyWeights | Sequence[PolicyWeights] | None = None,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        resolved = resolve_rules(self._game(), rules)
        self.rules = resolved
        n = self.num_players = resolved.players  # type: ignore[attr-defined]
        kernels = self._kernels()
        known = kernels.OPPONENT_NAMES
        names = check_seat_options(n, opponents, seat, illegal)
        unknown = sorted(set(names) - set(known))
        if unknown:
            raise ValueError(
                f"the batch engine's opponents are {', '.join(known)}, not {', '.join(unknown)}"
            )
        opponent_codes = np.array([known.index(name) for name in names], dtype=np.int64)
        # The kernels compile without hard unless a seat plays it (see skyjo_env), and
        # without the frozen policy's network unless a seat plays that.
        self._meets_hard = "hard" in names
        if "frozen" in names and frozen is None:
            raise ValueError("opponents 'frozen' need frozen=PolicyWeights (or a list: a pool)")
        if frozen is not None and "frozen" not in names:
            raise ValueError("frozen weights given, but no opponent is 'frozen'")
        if reward not in self._dense_rewards():
            check_reward_options(reward, reward_at)
        elif reward_at not in ("game", "round"):
            check_reward_options("win", reward_at)
        self.fixed_seat = seat
        self.reward_kind = getattr(kernels, reward.upper())
        self.reward_at = kernels.AT_GAME if reward_at == "game" else kernels.AT_ROUND
        self.illegal = illegal
        self._raise_illegal = illegal == "raise"
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
        self.size = kernels.observation_size(n)
        self._hard_args = self._kernel_extra()
        self._frozen: tuple[Any, ...] | None = None
        if frozen is not None:
            pool = [frozen] if isinstance(frozen, PolicyWeights) else list(frozen)
            self._frozen = frozen_policy.frozen_arrays(*self._frozen_rows(pool))
        self._extra = (*self._hard_args, self._frozen)
        # The envs' arrays the step kernel reads and writes (layout: fast.env_common).
        self.seats = np.full(num_envs, 0 if seat is None else seat, dtype=np.int64)
        self.policy = np.zeros(num_envs, dtype=np.uint64)  # each game's bots' generator
        # The bot code of each seat of each game (the learner's entry is not used).
        self.kinds = np.zeros((num_envs, n), dtype=np.int64)
        # Each env's np_random (the single-agent env's), held as a PCG64 row.
        self.streams = np.zeros((num_envs, pcg64.WIDTH), dtype=np.uint64)
        self._seeded = np.zeros(num_envs, dtype=np.bool_)
        self._steps = np.zeros(num_envs, dtype=np.int64)
        self._state = np.zeros(num_envs, dtype=np.int8)  # env_common.PLAYING, ...
        self._ev = (
            self.policy, self.kinds, self.seats, opponent_codes, self.streams, self._steps,
            self._state,
        )  # fmt: skip
        conf = np.zeros(common.NK, dtype=np.int64)
        conf[common.K_SEAT] = -1 if seat is None else seat
        conf[common.K_MAX_STEPS] = self.max_steps or 0
        conf[common.K_MODE] = _MODES[self.autoreset_mode]
        conf[common.K_REWARD] = self.reward_kind
        conf[common.K_AT] = self.reward_at
        self._conf = conf
        # What the kernels write; step() returns copies, so a caller may keep (and
        # change) what it got while the env steps on.
        self._obs = np.zeros((num_envs, self.size), dtype=np.float32)
        self._masks = np.zeros((num_envs, num_actions), dtype=np.int8)
        self._rewards = np.zeros(num_envs, dtype=np.float64)
        self._terminated = np.zeros(num_envs, dtype=np.bool_)
        self._truncated = np.zeros(num_envs, dtype=np.bool_)
        self._illegal = np.zeros(num_envs, dtype=np.bool_)
        self._final_obs = np.zeros((num_envs, self.size), dtype=np.float32)
        self._final_masks = np.zeros((num_envs, num_actions), dtype=np.int8)
        self._ends = np.zeros((num_envs, n + 1), dtype=np.int64)
        self._out = (
            self._rewards, self._terminated, self._truncated, self._illegal, self._obs,
            self._masks, self._final_obs, self._final_masks, self._ends,
        )  # fmt: skip
        self._step_args = (self.batch.st, self.batch.cfg, self._ev, conf, self.illegal_penalty)
        self._step_kernel = compiled_entry(
            kernels.step_envs,
            (*self._step_args, np.zeros(num_envs, dtype=np.int64), self._out, *self._extra),
        )
        self._any_ended = False  # DISABLED: some env waits for its reset
        self._reset_once = False
        self._all = np.arange(num_envs, dtype=np.int64)
        self._ones = np.ones(num_envs, dtype=np.bool_)
        self._teacher: tuple[Any, ...] | None = None
        self._priors: tuple[Any, ...] | None = None

    def teacher_actions(self) -> NDArray[np.int64]:
        """The action ``hard`` would play in each env's learner seat now, -1 where the
        learner is not to move or, in Skyjo, is in the set-up (``hard`` reveals at random
        there). Asking changes no env and depends on nothing but the games: the only draw
        ``hard`` makes here, among a single legal move, uses the teacher's own generators."""
        if self._teacher is None:
            extra = self._hard_args if self._meets_hard else self._hard_extra()
            rngs = np.zeros(self.num_envs, dtype=np.uint64)  # never decisive: see above
            self._teacher = (rngs, np.zeros(self.num_envs, dtype=np.int64), *extra)
        rngs, out = self._teacher[:2]
        args = (self.batch.st, self.batch.cfg, self._ev, rngs, out, *self._teacher[2:])
        self.kernels.teacher_actions(*args)
        return np.asarray(out.copy())

    def hard_priors(self) -> NDArray[np.float32]:
        """``(num_envs, num_actions)`` float32: each env's prior row of ``hard``'s values
        of the learner's legal moves, from what the learner's seat sees: 0 for ``hard``'s
        choice, below 0 for the others, 0 for illegal codes, and a row of 0 where the
        learner is not to move or ``hard`` values nothing. Skyjo: ``-(value(a) - min
        value)`` of :func:`cardtable.bots.skyjo_hard.move_values` (nothing in the set-up,
        where ``hard`` reveals at random); Skip-Bo:
        :func:`cardtable.bots.skipbo_hard_values.prior_row`. Asking changes no env."""
        if self._priors is None:
            extra = self._hard_args if self._meets_hard else self._hard_extra()
            num_actions = self._game().num_actions
            out = np.zeros((self.num_envs, num_actions), dtype=np.float32)
            values = np.zeros(num_actions, dtype=np.float64)
            self._priors = (out, values, *self._prior_extra(), *extra)
        out = self._priors[0]
        self.kernels.hard_priors(self.batch.st, self.batch.cfg, self._ev, *self._priors)
        return np.asarray(out.copy())

    def _prior_extra(self) -> tuple[Any, ...]:
        """Arguments of the game's ``hard_priors`` kernel before ``hard``'s."""
        return ()

    def set_frozen(self, frozen: PolicyWeights | Sequence[PolicyWeights]) -> None:
        """New weights for the ``frozen`` opponents: as many policies as the env was
        made with, of the same layer sizes. They are copied into the kernels' arrays,
        so nothing compiles again; the next step plays them."""
        if self._frozen is None:
            raise ValueError("no opponent of this env is 'frozen'")
        pool = [frozen] if isinstance(frozen, PolicyWeights) else list(frozen)
        rows, sizes = self._frozen_rows(pool)
        held = self._frozen[0].shape[0]
        if len(rows) != held:
            raise ValueError(f"frozen: {len(rows)} policies, this env holds {held}")
        if not np.array_equal(sizes, self._frozen[1]):
            raise ValueError(
                f"frozen: layer sizes {sizes.tolist()}, this env holds {self._frozen[1].tolist()}"
            )
        frozen_policy.refill(self._frozen, rows)

    def _frozen_rows(self, pool: list[Any]) -> tuple[list[NDArray[np.float64]], NDArray[np.int64]]:
        """The packed rows of a pool of weights and their layer sizes (all alike); a
        ``ValueError`` naming the field when one is not for this env."""
        if not pool:
            raise ValueError("frozen: an empty pool of policies")
        game = self._game().name
        wanted = {
            "game": game,
            "players": self.num_players,
            "encoder_version": self._encoder_version(),
            "obs_size": self.size,
            "num_actions": self._game().num_actions,
        }
        rows = []
        sizes = None
        for index, weights in enumerate(pool):
            where = "frozen" if len(pool) == 1 else f"frozen[{index}]"
            for name, value in wanted.items():
                if getattr(weights, name) != value:
                    raise ValueError(
                        f"{where}: {name} {getattr(weights, name)!r}, this env needs {value!r}"
                    )
            if weights.prior:
                raise ValueError(
                    f"{where}: prior {weights.prior!r}: the frozen opponent plays "
                    "weights without a prior only"
                )
            if weights.inv_std.shape != weights.mean.shape:
                raise ValueError(f"{where}: inv_std's shape is not mean's")
            width = self.size
            for layer, (weight, bias) in enumerate(weights.layers):
                if weight.shape != (width, bias.shape[0]):
                    raise ValueError(
                        f"{where}: layer {layer}'s weight has shape {weight.shape}, "
                        f"its inputs and bias need ({width}, {bias.shape[0]})"
                    )
                width = bias.shape[0]
            these = frozen_policy.layer_sizes(weights.mean, weights.layers)
            if sizes is not None and not np.array_equal(these, sizes):
                raise ValueError(
                    f"{where}: layer sizes {these.tolist()}, frozen[0] has {sizes.tolist()}"
                )
            sizes = these
            rows.append(frozen_policy.pack(weights.mean, weights.inv_std, weights.layers))
        assert sizes is not None
        return rows, sizes

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
            if seeds[index] is not None or not self._seeded[index]:
                pcg64.row_of(seeding.np_random(seeds[index])[0], self.streams[index])
                self._seeded[index] = True
        self.kernels.deal_envs(
            self.batch.st, self.batch.cfg, self._ev, self._conf, games, self._out, *self._extra
        )
        self._any_ended = bool((self._state == common.ENDED).any())
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
        codes = np.asarray(actions, dtype=np.int64).reshape(-1)
        if codes.shape[0] != self.num_envs:
            raise ValueError(f"step needs {self.num_envs} actions, got {codes.shape[0]}")
        if not codes.flags.carray:  # the compiled entry takes aligned C-ordered arrays
            codes = codes.copy()
        if self._any_ended:
            index = int(np.flatnonzero(self._state == common.ENDED)[0])
            raise RuntimeError(
                f"env {index} finished its episode: reset it (reset_mask) before stepping it"
            )
        if self._raise_illegal:
            self._refuse_illegal(codes)
        status = self._step_kernel(*self._step_args, codes, self._out, *self._extra)
        infos = {"action_mask": self._masks.copy(), "_action_mask": self._ones.copy()}
        if status:
            self._end_infos(status, infos)
        return (
            self._obs.copy(),
            self._rewards.copy(),
            self._terminated.copy(),
            self._truncated.copy(),
            infos,
        )

    def _refuse_illegal(self, codes: NDArray[np.int64]) -> None:
        """``illegal="raise"``: raise for the first env with an illegal action (envs
        whose autoreset is due ignore theirs) before any env moves."""
        legal = self._legal_for(codes)
        bad = np.flatnonzero((self._state != common.RESET_DUE) & ~legal)
        if bad.size:
            game = int(bad[0])
            raise IllegalMoveError(
                f"env {game}: action {int(codes[game])} is not legal{self._where(game)}"
            )

    def _end_infos(self, status: int, infos: dict[str, Any]) -> None:
        """Add the infos of this step's illegal actions and ended episodes to ``infos``,
        batched as ``CardtableVectorEnv`` (so ``SyncVectorEnv``) batches them."""
        illegal = self._illegal if status & common.ILLEGAL else None
        terminated = self._terminated if status & common.TERMINATED else None
        if not status & common.DONE or self.autoreset_mode is not SAME_STEP:
            if status & common.DONE:
                self._any_ended = self.autoreset_mode is DISABLED
            self._add_entries(infos, illegal, terminated)
            return
        # SAME_STEP: the ended envs' entries go into final_info, with their last
        # observation and mask; the next game's are already in the observations.
        done = self._terminated | self._truncated
        final_obs = np.empty(self.num_envs, dtype=object)
        for index in np.flatnonzero(done).tolist():
            final_obs[index] = self._final_obs[index].copy()
        final_info = {
            "action_mask": np.where(done[:, None], self._final_masks, 0).astype(np.int8),
            "_action_mask": done.copy(),
        }
        if illegal is None:
            self._add_entries(final_info, None, terminated)
        else:
            self._add_entries(infos, illegal & ~done, None)
            self._add_entries(final_info, illegal & done, terminated)
        infos["final_obs"] = final_obs
        infos["_final_obs"] = done
        infos["final_info"] = final_info
        infos["_final_info"] = done.copy()

    def _add_entries(
        self,
        infos: dict[str, Any],
        illegal: NDArray[np.bool_] | None,
        terminated: NDArray[np.bool_] | None,
    ) -> None:
        """Add the ``illegal_action`` entries of the envs of ``illegal`` and the
        ``winners`` and ``scores`` of those of ``terminated``, each with its ``_`` mask."""
        if illegal is not None and illegal.any():
            infos["illegal_action"] = illegal.copy()
            infos["_illegal_action"] = illegal.copy()
        if terminated is not None:
            players = self.num_players
            winners = np.empty(self.num_envs, dtype=object)  # all None
            scores = np.empty(self.num_envs, dtype=object)
            ends = self._ends
            for index in np.flatnonzero(terminated).tolist():
                row = ends[index].tolist()  # the scores, then the winners' seat mask
                scores[index] = row[:players]
                winners[index] = [seat for seat in range(players) if row[players] >> seat & 1]
            infos["winners"] = winners
            infos["_winners"] = terminated.copy()
            infos["scores"] = scores
            infos["_scores"] = terminated.copy()

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
    def _encoder_version() -> int:
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
    def _hard_extra(self) -> tuple[Any, ...]:
        """Those arguments with ``hard``'s weights and work arrays, whoever the opponents."""

    @staticmethod
    def _dense_rewards() -> tuple[str, ...]:
        """The reward kinds of this game's fast env beyond ``win`` and ``score``."""
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
    def _encoder_version() -> int:
        from ..encoders.skyjo_obs import ENCODER_VERSION

        return ENCODER_VERSION

    @staticmethod
    def _layout(players: int) -> Layout:
        from ..encoders.skyjo_obs import skyjo_layout

        return skyjo_layout(players)

    @staticmethod
    def _batch(rules: RulesBase, size: int) -> Any:
        from ..fast.skyjo_batch import SkyjoBatch
        from ..skyjo.rules import SkyjoRules

        assert isinstance(rules, SkyjoRules)
        return SkyjoBatch(rules, size)

    def _kernel_extra(self) -> tuple[Any, ...]:
        return self._hard_extra() if self._meets_hard else (None, None)

    def _hard_extra(self) -> tuple[Any, ...]:
        from ..bots.skyjo_hard import HardBot
        from ..fast.skyjo_hard import hard_params, work_array

        return (hard_params(HardBot()), work_array())

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
    def _encoder_version() -> int:
        from ..encoders.skipbo_obs import ENCODER_VERSION

        return ENCODER_VERSION

    @staticmethod
    def _layout(players: int) -> Layout:
        from ..encoders.skipbo_obs import skipbo_layout

        return skipbo_layout(players)

    @staticmethod
    def _batch(rules: RulesBase, size: int) -> Any:
        from ..fast.skipbo_batch import SkipBoBatch
        from ..skipbo.rules import SkipBoRules

        assert isinstance(rules, SkipBoRules)
        return SkipBoBatch(rules, size)

    def _kernel_extra(self) -> tuple[Any, ...]:
        return self._hard_extra() if self._meets_hard else (self.batch.scratch, None, None, None)

    def _prior_extra(self) -> tuple[Any, ...]:
        from ..bots.skipbo_hard_values import DISCARD_WEIGHT, FLOOR

        return (np.array([DISCARD_WEIGHT, FLOOR], dtype=np.float64),)

    def _hard_extra(self) -> tuple[Any, ...]:
        from ..bots.skipbo_hard import HARD_WEIGHTS
        from ..fast.skipbo_hard import HardWork, hard_params

        work = HardWork(self.rules)
        return (self.batch.scratch, hard_params(HARD_WEIGHTS), work.arrays, work.copy.st)

    @staticmethod
    def _dense_rewards() -> tuple[str, ...]:
        return ("stock",)

    def _legal_for(self, codes: NDArray[np.int64]) -> NDArray[np.bool_]:
        legal = np.zeros(self.num_envs, dtype=np.bool_)
        self.kernels.legal_for(self.batch.st, self.batch.cfg, self._all, codes, legal)
        return legal
