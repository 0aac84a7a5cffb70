"""PettingZoo AEC environments: every seat is an agent, one action per step.

``SkyjoAECEnv`` and ``SkipBoAECEnv`` (or ``aec_env("skyjo", ...)``, the raw env) follow
the AEC API of PettingZoo 1.24+; ``env("skyjo", ...)`` returns one wrapped the way
PettingZoo's own classic envs are (``AssertOutOfBoundsWrapper`` and
``OrderEnforcingWrapper``; ``illegal="terminate"`` adds ``TerminateIllegalWrapper``):

- agents ``player_0 .. player_{n-1}`` are the seats; ``agent_selection`` is the
  seat to move (Skip-Bo turns take several steps, Skyjo turns two);
- ``observe(agent)`` is ``{"observation": float32 vector, "action_mask": int8}``;
  the vector carries exactly what ``state.view(seat)`` shows (the encoder reads the
  state's public fields and is tested equal to the view-based reference encoder);
  the mask is all zeros for an agent that is not to move;
- rewards arrive when a round or the game ends (``reward_at``), as win/loss
  (+1 / -1, 0 for all on a blocked game or a tie of everyone) or as points
  (``reward="score"``: Skyjo points count against, so they are negated);
- at the end of the game every agent is terminated; terminated agents are then
  stepped with ``None`` and leave ``agents`` one by one. There is no truncation unless
  ``max_steps`` is set: after that many actions (all agents together) an unfinished
  game truncates every agent (no reward is paid for it). Both games end every game
  by themselves through their ``turn_limit`` safeguards (a round reaching it is
  blocked), but a policy that never goes out makes Skyjo games very long, so
  ``max_steps`` is worth setting while a policy learns;
- an illegal action raises :class:`cardtable.core.IllegalMoveError` and changes
  nothing (mask the policy's choice with ``action_mask``).

There is no Parallel API version: PettingZoo's ``aec_to_parallel`` is only correct for
games in which every agent acts at once, and in these games one seat acts at a time
(a Skip-Bo turn is any number of plays by the same seat), so a parallel step would have
to invent no-op actions for everyone else. The envs say so with
``metadata["is_parallelizable"] = False``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv

from ..core import GameState, IllegalMoveError, RulesBase
from .common import MaskBytes, RewardRule, check_max_steps, load, render_text

if TYPE_CHECKING:
    from numpy.typing import NDArray

ObsDict = dict[str, "NDArray[Any]"]
SEED_BOUND = 2**63


class CardtableAECEnv(AECEnv):  # type: ignore[misc]
    """One game of ``game_name`` as a PettingZoo AEC environment."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": "cardtable_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game_name: str,
        rules: RulesBase | Mapping[str, Any] | None = None,
        *,
        reward: str = "win",
        reward_at: str = "game",
        max_steps: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', got {render_mode!r}")
        self.game, self.rules, self.encoder = load(game_name, rules)
        self.name = f"{game_name}_v0"
        self.render_mode = render_mode
        self.num_players: int = self.rules.players  # type: ignore[attr-defined]
        self.num_actions = self.game.num_actions
        self.max_steps = check_max_steps(max_steps)
        self.mask_bytes = MaskBytes(self.num_actions)
        self._float32 = np.dtype(np.float32)
        self._int8 = np.dtype(np.int8)
        self.reward_rule = RewardRule(game_name, self.num_players, reward, reward_at)
        self.possible_agents = [f"player_{seat}" for seat in range(self.num_players)]
        self.agent_seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        low, high = self.encoder.layout.bounds()
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(low, high, dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, (self.num_actions,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: spaces.Discrete(self.num_actions) for agent in self.possible_agents
        }
        self._np_random: np.random.Generator | None = None
        self.state_: GameState[Any] | None = None
        self._rounds = 0
        self._steps = 0
        # Whether ``rewards`` holds a non-zero payment (else it is all zeros already).
        self._paid = False

    def __str__(self) -> str:
        return self.name

    # --- spaces -------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # --- episode --------------------------------------------------------------
    @property
    def game_state(self) -> GameState[Any]:
        """The engine state (full, hidden cards included: not for a policy)."""
        if self.state_ is None:
            raise RuntimeError("call reset() first")
        return self.state_

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Deal a new game; ``seed`` fixes this deal and every later unseeded reset."""
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        game_seed = int(self._np_random.integers(SEED_BOUND))
        self.state_ = self.game.new_state(self.rules, game_seed)
        self._rounds = 0
        self._steps = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._paid = False
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._skip_agent_selection = None
        current = self.state_.current_player
        assert current is not None
        self.agent_selection = self.possible_agents[current]

    def observe(self, agent: str) -> ObsDict:
        state = self.game_state
        seat = self.agent_seat[agent]
        return {
            "observation": np.frombuffer(
                bytearray(self.encoder.encode_bytes(state, seat)), self._float32
            ),
            "action_mask": np.frombuffer(bytearray(self.mask_bytes(state, seat)), self._int8),
        }

    def step(self, action: int | np.integer[Any] | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalMoveError(f"{agent} is to move: None is only for finished agents")
        state = self.game_state
        code = int(action)
        if 0 <= code < self.num_actions and state.is_legal_action(code):
            state.advance(code)  # apply_action once the code is checked, with no move record
        else:
            state.apply_action(code)  # raises the engine's error with its reason
            raise IllegalMoveError(f"action {code} is not legal")  # pragma: no cover
        self._cumulative_rewards[agent] = 0.0
        rewards, self._rounds = self.reward_rule.earned(state, self._rounds)
        if rewards is not None:
            self.rewards = {a: rewards[self.agent_seat[a]] for a in self.agents}
            self._paid = True
            self._accumulate_rewards()
        elif self._paid:  # this step pays nothing: zero the previous step's rewards
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._paid = False
        # (a step that pays nothing leaves _cumulative_rewards as it is: adding zeros)
        if state.is_over:
            self.terminations = dict.fromkeys(self.agents, True)
            result = state.result()
            assert result is not None
            for a in self.agents:
                self.infos[a] = {"winners": list(result.winners), "scores": list(result.scores)}
        else:
            current = state.current_player
            assert current is not None
            self.agent_selection = self.possible_agents[current]
            self._steps += 1
            if self.max_steps is not None and self._steps >= self.max_steps:
                self.truncations = dict.fromkeys(self.agents, True)
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = render_text(self.game_state)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


class SkyjoAECEnv(CardtableAECEnv):
    """Skyjo as a PettingZoo AEC environment; ``rules`` is a SkyjoRules or a dict of options."""

    metadata: ClassVar[dict[str, Any]] = {**CardtableAECEnv.metadata, "name": "skyjo_v0"}

    def __init__(
        self,
        rules: RulesBase | Mapping[str, Any] | None = None,
        *,
        reward: str = "win",
        reward_at: str = "game",
        max_steps: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__(
            "skyjo",
            rules,
            reward=reward,
            reward_at=reward_at,
            max_steps=max_steps,
            render_mode=render_mode,
        )


class SkipBoAECEnv(CardtableAECEnv):
    """Skip-Bo as a PettingZoo AEC environment; ``rules`` is a SkipBoRules or a dict."""

    metadata: ClassVar[dict[str, Any]] = {**CardtableAECEnv.metadata, "name": "skipbo_v0"}

    def __init__(
        self,
        rules: RulesBase | Mapping[str, Any] | None = None,
        *,
        reward: str = "win",
        reward_at: str = "game",
        max_steps: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__(
            "skipbo",
            rules,
            reward=reward,
            reward_at=reward_at,
            max_steps=max_steps,
            render_mode=render_mode,
        )


def aec_env(game_name: str, **kwargs: Any) -> CardtableAECEnv:
    """The raw env: ``aec_env("skyjo", rules={"players": 3}, reward="score")``."""
    if game_name == "skyjo":
        return SkyjoAECEnv(**kwargs)
    if game_name == "skipbo":
        return SkipBoAECEnv(**kwargs)
    raise KeyError(f"unknown game {game_name!r}; known: skipbo, skyjo")


ILLEGAL_MODES = ("raise", "terminate")


def env(
    game_name: str, *, illegal: str = "raise", illegal_reward: float = -1.0, **kwargs: Any
) -> AECEnv:
    """The AEC env wrapped like PettingZoo's classic envs: ``env("skyjo", rules=...)``.

    ``AssertOutOfBoundsWrapper`` refuses actions outside the action space and
    ``OrderEnforcingWrapper`` refuses stepping, observing or rendering before
    ``reset()``. ``illegal="raise"`` (default): an illegal action raises
    :class:`cardtable.core.IllegalMoveError`, as in the raw env;
    ``illegal="terminate"``: PettingZoo's ``TerminateIllegalWrapper`` ends the game,
    the offender gets ``illegal_reward`` and everyone else 0. Other keyword arguments
    go to :func:`aec_env`; ``.unwrapped`` is the raw env.
    """
    from pettingzoo.utils import wrappers

    if illegal not in ILLEGAL_MODES:
        raise ValueError(f"illegal must be 'raise' or 'terminate', got {illegal!r}")
    wrapped: AECEnv = aec_env(game_name, **kwargs)
    if illegal == "terminate":
        wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=illegal_reward)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)
