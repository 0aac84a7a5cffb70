"""Gymnasium single-agent environments: the learner takes one seat, bots play the others.

``gymnasium.make("cardtable/Skyjo-v0", opponents="greedy")`` or ``SkyjoGymEnv(...)``.

- The observation is the learner's float32 vector (see docs/rl.md): exactly what
  ``state.view(seat)`` shows, read from the state's public fields (tested equal to
  the view-based reference encoder); ``info["action_mask"]`` (int8) marks the legal
  actions.
- One ``step`` is one action of the learner, followed by the bots' moves until the
  learner is to move again or the game is over. Its reward sums what the learner
  earned meanwhile (round or game end, win/loss or points, as in the AEC env).
- Opponents are bots made by ``cardtable.bots.make_bot(game, name)``: one name for
  every other seat, or a list with one name per other seat in seat order.
- ``seat`` is the learner's seat, or None for a seat drawn at every reset.
- Illegal actions: ``illegal="raise"`` (default) raises
  :class:`cardtable.core.IllegalMoveError` and changes nothing; ``illegal="penalty"``
  leaves the state unchanged, returns ``illegal_penalty`` as reward and sets
  ``info["illegal_action"] = True`` (the episode goes on).
- Seeding: ``reset(seed=s)`` fixes the deal, the bots' choices and the learner's
  seat; later unseeded resets continue the same stream.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..bots import Bot, make_bot
from ..core import GameState, IllegalMoveError, Rng, RulesBase
from .common import RewardRule, action_mask, load, observation, render_text

if TYPE_CHECKING:
    from numpy.typing import NDArray

SEED_BOUND = 2**63
ILLEGAL_MODES = ("raise", "penalty")


class CardtableGymEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One seat of ``game_name`` for a single learner, the other seats played by bots."""

    # gymnasium.Env declares metadata as an instance attribute with a class default.
    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        game_name: str,
        rules: RulesBase | Mapping[str, Any] | None = None,
        *,
        opponents: str | Sequence[str] = "random",
        seat: int | None = 0,
        reward: str = "win",
        reward_at: str = "game",
        illegal: str = "raise",
        illegal_penalty: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', got {render_mode!r}")
        if illegal not in ILLEGAL_MODES:
            raise ValueError(f"illegal must be 'raise' or 'penalty', got {illegal!r}")
        self.game_name = game_name
        self.game, self.rules, self.encoder = load(game_name, rules)
        self.num_players: int = self.rules.players  # type: ignore[attr-defined]
        if seat is not None and not 0 <= seat < self.num_players:
            raise ValueError(f"seat must be None or 0..{self.num_players - 1}, got {seat!r}")
        others = self.num_players - 1
        names = [opponents] * others if isinstance(opponents, str) else list(opponents)
        if len(names) != others:
            raise ValueError(f"opponents: one bot name or {others} names, got {len(names)}")
        self.opponent_names = names
        self.bots: list[Bot] = [make_bot(game_name, name) for name in names]
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        self.reward_rule = RewardRule(game_name, self.num_players, reward, reward_at)
        self.illegal = illegal
        self.illegal_penalty = float(illegal_penalty)
        self.render_mode = render_mode
        self.num_actions = self.game.num_actions
        low, high = self.encoder.layout.bounds()
        self.observation_space = spaces.Box(low, high, dtype=np.float32)
        self.action_space = spaces.Discrete(self.num_actions)
        self.state_: GameState[Any] | None = None
        self.bot_rng = Rng(0)
        self._rounds = 0
        self._seat_bots: dict[int, Bot] = {}

    # --- helpers ------------------------------------------------------------------
    @property
    def game_state(self) -> GameState[Any]:
        """The engine state (full, hidden cards included: not for a policy)."""
        if self.state_ is None:
            raise RuntimeError("call reset() first")
        return self.state_

    def _observe(self) -> tuple[NDArray[np.float32], dict[str, Any]]:
        state = self.game_state
        info: dict[str, Any] = {"action_mask": action_mask(state, self.seat, self.num_actions)}
        return observation(self.encoder, state, self.seat), info

    def _play_bots(self) -> float:
        """Bots move until the learner is to move or the game is over; the learner's reward."""
        state = self.game_state
        seat = self.seat
        bots = self._seat_bots
        rng = self.bot_rng
        earn = self.reward_rule.earned
        rounds = self._rounds
        earned = 0.0
        while True:
            current = state.current_player  # None once the game is over
            if current is None or current == seat:
                break
            state._apply(bots[current].choose(state, rng))
            rewards, rounds = earn(state, rounds)
            if rewards is not None:
                earned += rewards[seat]
        self._rounds = rounds
        return earned

    # --- gymnasium API ------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[np.float32], dict[str, Any]]:
        super().reset(seed=seed)
        rng = self.np_random
        if self.fixed_seat is None:
            self.seat = int(rng.integers(self.num_players))
        others = [s for s in range(self.num_players) if s != self.seat]
        self._seat_bots = dict(zip(others, self.bots, strict=True))
        self.bot_rng = Rng(int(rng.integers(SEED_BOUND)))
        while True:
            self.state_ = self.game.new_state(self.rules, int(rng.integers(SEED_BOUND)))
            self._rounds = 0
            self._play_bots()
            # Bots could in principle finish a (short Skip-Bo) game before the learner's
            # first move; such a deal is replaced by the next one of the seeded stream.
            if not self.state_.is_over:
                break
        return self._observe()

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        state = self.game_state
        if state.is_over:
            raise RuntimeError("the game is over: call reset()")
        code = int(action)
        if not (0 <= code < self.num_actions and state.is_legal_action(code)):
            if self.illegal == "raise":
                state.apply_action(code)  # raises IllegalMoveError with the reason
                raise IllegalMoveError(f"action {code} is not legal")  # pragma: no cover
            obs, info = self._observe()
            info["illegal_action"] = True
            return obs, self.illegal_penalty, False, False, info
        state._apply(code)
        rewards, self._rounds = self.reward_rule.earned(state, self._rounds)
        earned = (0.0 if rewards is None else rewards[self.seat]) + self._play_bots()
        obs, info = self._observe()
        if state.is_over:
            result = state.result()
            assert result is not None
            info["winners"] = list(result.winners)
            info["scores"] = list(result.scores)
        if self.render_mode == "human":
            self.render()
        return obs, earned, state.is_over, False, info

    def render(self) -> str | None:
        if self.render_mode is None or self.state_ is None:
            return None
        text = render_text(self.state_)
        if self.render_mode == "human":
            print(text)
            return None
        return text


class SkyjoGymEnv(CardtableGymEnv):
    """Skyjo for one learner against bots (``opponents``: a bot name or one per other seat)."""

    def __init__(self, rules: RulesBase | Mapping[str, Any] | None = None, **kwargs: Any) -> None:
        super().__init__("skyjo", rules, **kwargs)


class SkipBoGymEnv(CardtableGymEnv):
    """Skip-Bo for one learner against bots (``opponents``: a bot name or one per other seat)."""

    def __init__(self, rules: RulesBase | Mapping[str, Any] | None = None, **kwargs: Any) -> None:
        super().__init__("skipbo", rules, **kwargs)


GYM_IDS = {"skyjo": "cardtable/Skyjo-v0", "skipbo": "cardtable/SkipBo-v0"}


def register_envs() -> None:
    """Register ``cardtable/Skyjo-v0`` and ``cardtable/SkipBo-v0`` with Gymnasium (idempotent)."""
    entry = {"skyjo": "SkyjoGymEnv", "skipbo": "SkipBoGymEnv"}
    for game_name, env_id in GYM_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(id=env_id, entry_point=f"cardtable.rl.gym_env:{entry[game_name]}")


register_envs()


def gym_env(game_name: str, **kwargs: Any) -> CardtableGymEnv:
    """``gym_env("skyjo", rules={"players": 2}, opponents="greedy")``."""
    if game_name not in GYM_IDS:
        raise KeyError(f"unknown game {game_name!r}; known: {', '.join(GYM_IDS)}")
    return CardtableGymEnv(game_name, **kwargs)


def make_vector_env(game_name: str, num_envs: int, **kwargs: Any) -> gymnasium.vector.SyncVectorEnv:
    """``num_envs`` copies of the single-agent env stepped together (Gymnasium vector API).

    Masks come batched in ``infos["action_mask"]`` (shape ``(num_envs, num_actions)``);
    finished games are reset on the following step (Gymnasium's default next-step
    autoreset). ``reset(seed=s)`` seeds env ``i`` with ``s + i``.
    """
    if num_envs < 1:
        raise ValueError(f"num_envs must be at least 1, got {num_envs}")
    factory = functools.partial(gym_env, game_name, **kwargs)
    return gymnasium.vector.SyncVectorEnv([factory] * num_envs)
