"""The Gymnasium single-agent env: the learner takes one seat, bots play the others.

``gymnasium.make("cardtable/Skyjo-v0", opponents="greedy")`` (see
:mod:`cardtable.rl.gym_env`, which registers the ids) or ``SkyjoGymEnv(...)``.

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
- Legal actions: ``info["action_mask"]`` (int8), and ``env.action_masks()`` (bool), the
  method sb3-contrib's ``MaskablePPO`` calls, so it trains on the env unwrapped.
- Illegal actions: ``illegal="penalty"`` (default) leaves the state unchanged, returns
  ``illegal_penalty`` as reward and sets ``info["illegal_action"] = True`` (the episode
  goes on): an unmasked policy, or Gymnasium's ``check_env``, which steps with actions
  sampled from the whole action space, can step it. ``illegal="raise"`` raises
  :class:`cardtable.core.IllegalMoveError` and changes nothing.
- ``max_steps``: None (default: no truncation) or a number of steps after which an
  unfinished game is truncated (``truncated=True``); every ``step`` call counts, an
  illegal one in penalty mode included. (A Skyjo policy that never turns its last cards
  up never ends its round: this is the guard against it.)
- Seeding: ``reset(seed=s)`` fixes the deal, the bots' choices and the learner's
  seat; later unseeded resets continue the same stream.
- :func:`cardtable.rl.gym_env.make_vector_env` /
  :class:`cardtable.rl.vector.CardtableVectorEnv`: N envs stepped in one loop into
  batched arrays (Gymnasium ``VectorEnv`` API).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ..bots import Bot, make_bot
from ..core import GameState, IllegalMoveError, Rng, RulesBase
from .common import (
    LEARNER_ILLEGAL_MODES,
    MaskBytes,
    RewardRule,
    check_max_steps,
    check_seat_options,
    load,
    render_text,
)

if TYPE_CHECKING:
    from numpy.typing import NDArray

SEED_BOUND = 2**63


#: The bots a learner meets when ``opponents`` is not given. Random Skip-Bo players bury
#: the cards that fit under their discards until no card can be built (a learner acting
#: at random against random opponents ends 100 of 100 two-player games blocked, with no
#: reward), so Skip-Bo's learner faces ``greedy``, which empties its stock (docs/rl.md).
DEFAULT_OPPONENTS = {"skyjo": "random", "skipbo": "greedy"}


class CardtableGymEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One seat of ``game_name`` for a single learner, the other seats played by bots."""

    # gymnasium.Env declares metadata as an instance attribute with a class default.
    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        game_name: str,
        rules: RulesBase | Mapping[str, Any] | None = None,
        *,
        opponents: str | Sequence[str] | None = None,
        seat: int | None = 0,
        reward: str = "win",
        reward_at: str = "game",
        illegal: str = "penalty",
        illegal_penalty: float = -1.0,
        max_steps: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None, 'ansi' or 'human', got {render_mode!r}")
        if illegal not in LEARNER_ILLEGAL_MODES:
            raise ValueError(f"illegal must be 'raise' or 'penalty', got {illegal!r}")
        self.game_name = game_name
        self.game, self.rules, self.encoder = load(game_name, rules)
        self.num_players: int = self.rules.players  # type: ignore[attr-defined]
        if opponents is None:
            opponents = DEFAULT_OPPONENTS[game_name]
        names = check_seat_options(self.num_players, opponents, seat, illegal)
        self.opponent_names = names
        self.bots: list[Bot] = [make_bot(game_name, name) for name in names]
        self.fixed_seat = seat
        self.seat = 0 if seat is None else seat
        self.reward_rule = RewardRule(game_name, self.num_players, reward, reward_at)
        self.illegal = illegal
        self.illegal_penalty = float(illegal_penalty)
        self.max_steps = check_max_steps(max_steps)
        self.render_mode = render_mode
        self.num_actions = self.game.num_actions
        self.mask_bytes = MaskBytes(self.num_actions)
        low, high = self.encoder.layout.bounds()
        self.observation_space = spaces.Box(low, high, dtype=np.float32)
        self.action_space = spaces.Discrete(self.num_actions)
        self.state_: GameState[Any] | None = None
        self.bot_rng = Rng(0)
        self._rounds = 0
        self._steps = 0
        # The episode ended (game over or truncated): step() needs a reset first.
        self._ended = False
        # The bots' choose methods by seat, for this game.
        self._seat_choose: dict[int, Callable[[GameState[Any], Rng], int]] = {}

    # --- helpers ------------------------------------------------------------------
    @property
    def game_state(self) -> GameState[Any]:
        """The engine state (full, hidden cards included: not for a policy)."""
        if self.state_ is None:
            raise RuntimeError("call reset() first")
        return self.state_

    def _observe(self) -> tuple[NDArray[np.float32], dict[str, Any]]:
        state = self.game_state
        mask = self.mask_bytes.array(state, self.seat)
        return self.encoder.encode_state(state, self.seat), {"action_mask": mask}

    def action_masks(self) -> NDArray[np.bool_]:
        """The learner's legal actions as a bool array (all False once the game is
        over): sb3-contrib's ``MaskablePPO`` convention."""
        return np.frombuffer(self.mask_bytes(self.game_state, self.seat), dtype=np.bool_).copy()

    def _play_bots(self) -> None:
        """Bots move until the learner is to move or the game is over."""
        state = self.game_state
        seat = self.seat
        choose = self._seat_choose
        rng = self.bot_rng
        advance = state.advance  # the fast path: nothing here reads the move records
        while True:
            current = state.current_player  # None once the game is over
            if current is None or current == seat:
                return
            advance(choose[current](state, rng))

    # --- the step in parts: the seam the vector env drives ----------------------------
    # ``reset`` is ``deal`` then an observation; ``step`` is ``act``, an observation, then
    # ``finish_step``. The vector env calls the parts itself and writes every env's
    # observation into one shared buffer instead of building an array per env.
    def deal(self) -> None:
        """Deal a new game from ``np_random`` and let the bots play up to the learner
        (what ``reset`` does after seeding; the vector env's autoreset calls it)."""
        rng = self.np_random
        if self.fixed_seat is None:
            self.seat = int(rng.integers(self.num_players))
        others = [s for s in range(self.num_players) if s != self.seat]
        self._seat_choose = {seat: bot.choose for seat, bot in zip(others, self.bots, strict=True)}
        self.bot_rng = Rng(int(rng.integers(SEED_BOUND)))
        while True:
            state = self.state_ = self.game.new_state(self.rules, int(rng.integers(SEED_BOUND)))
            self._play_bots()
            # Bots could in principle finish a (short Skip-Bo) game before the learner's
            # first move; such a deal is replaced by the next one of the seeded stream.
            if not state.is_over:
                break
        # What the bots earned before the learner's first move is not paid to anyone.
        self._rounds = len(state.rounds())
        self._steps = 0
        self._ended = False

    def act(self, code: int) -> float | None:
        """Play the learner's move ``code`` and the bots' replies; return the learner's
        reward, or None for an illegal move in penalty mode (nothing changed). Counts
        the step; an illegal move in ``illegal="raise"`` mode raises ``IllegalMoveError``."""
        state = self.game_state
        if self._ended:
            raise RuntimeError("the episode is over: call reset()")
        if not (0 <= code < self.num_actions and state.is_legal_action(code)):
            if self.illegal == "raise":
                state.apply_action(code)  # raises IllegalMoveError with the reason
                raise IllegalMoveError(f"action {code} is not legal")  # pragma: no cover
            self._steps += 1
            return None
        state.advance(code)
        self._play_bots()
        self._steps += 1
        # One call sums whatever rounds (or the game) the learner's move and the bots'
        # moves finished: the same total as paying move by move.
        rewards, self._rounds = self.reward_rule.earned(state, self._rounds)
        return 0.0 if rewards is None else rewards[self.seat]

    def finish_step(self, earned: float | None, info: dict[str, Any]) -> tuple[float, bool, bool]:
        """Reward, terminated, truncated after :meth:`act` returned ``earned``; adds the
        step's entries (``illegal_action``, ``winners``, ``scores``) to ``info``."""
        state = self.game_state
        terminated = state.is_over
        truncated = not terminated and self.max_steps is not None and self._steps >= self.max_steps
        self._ended = terminated or truncated
        if earned is None:
            info["illegal_action"] = True
            earned = self.illegal_penalty
        if terminated:
            result = state.result()
            assert result is not None
            info["winners"] = list(result.winners)
            info["scores"] = list(result.scores)
        return earned, terminated, truncated

    # --- gymnasium API ------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[NDArray[np.float32], dict[str, Any]]:
        super().reset(seed=seed)
        self.deal()
        return self._observe()

    def step(
        self, action: int | np.integer[Any]
    ) -> tuple[NDArray[np.float32], float, bool, bool, dict[str, Any]]:
        earned = self.act(int(action))
        obs, info = self._observe()
        reward, terminated, truncated = self.finish_step(earned, info)
        if self.render_mode == "human":
            self.render()
        return obs, reward, terminated, truncated, info

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
