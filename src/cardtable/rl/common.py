"""What the AEC and Gymnasium environments share: rules, encoders, masks, rewards, text."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Literal, Protocol

from ..core import JSON, Game, GameState, Result, RoundResult, RulesBase
from ..encoders.layout import Layout
from ..games import get_game

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

RewardKind = Literal["win", "score"]
RewardAt = Literal["game", "round"]
REWARD_KINDS = ("win", "score")
REWARD_AT = ("game", "round")
#: What the learner envs (single-agent and vector) do with an illegal action; the AEC
#: env has its own (it ends the game instead of paying a penalty).
LEARNER_ILLEGAL_MODES = ("raise", "penalty")
#: Skyjo counts points against a player (lower is better): its score rewards are negated.
LOWER_IS_BETTER = {"skyjo": True, "skipbo": False}


class Encoder(Protocol):
    game: str
    layout: Layout
    size: int

    def encode_list(self, view: JSON) -> list[float]: ...

    def encode(self, view: JSON) -> NDArray[np.float32]:
        """The reference encoding, from ``state.view(seat)``."""

    def encode_state(self, state: Any, seat: int) -> NDArray[np.float32]:
        """The same vector from the state's public fields, without building the view."""

    def encode_bytes(self, state: Any, seat: int) -> bytes | bytearray:
        """:meth:`encode_state` as the bytes of the float32 vector (a new object)."""


def resolve_rules(game: Game[Any], rules: RulesBase | Mapping[str, Any] | None) -> RulesBase:
    """A rules object from a rules object, a dict of options (validated) or None (defaults)."""
    if rules is None:
        return game.rules_type()
    if isinstance(rules, RulesBase):
        if not isinstance(rules, game.rules_type):
            raise TypeError(f"{game.title} needs {game.rules_type.__name__}, got {rules!r}")
        return rules
    return game.rules_from_json(dict(rules))


def make_encoder(game_name: str, rules: RulesBase) -> Encoder:
    if game_name == "skyjo":
        from ..encoders.skyjo_obs import SkyjoEncoder
        from ..skyjo.rules import SkyjoRules

        assert isinstance(rules, SkyjoRules)
        return SkyjoEncoder(rules)
    if game_name == "skipbo":
        from ..encoders.skipbo_obs import SkipBoEncoder
        from ..skipbo.rules import SkipBoRules

        assert isinstance(rules, SkipBoRules)
        return SkipBoEncoder(rules)
    raise KeyError(f"no observation encoder for {game_name!r}")


def load(
    game_name: str, rules: RulesBase | Mapping[str, Any] | None
) -> tuple[Game[Any], RulesBase, Encoder]:
    game = get_game(game_name)
    resolved = resolve_rules(game, rules)
    return game, resolved, make_encoder(game_name, resolved)


def check_reward_options(reward: str, reward_at: str) -> None:
    if reward not in REWARD_KINDS:
        raise ValueError(f"reward must be one of {', '.join(REWARD_KINDS)}, got {reward!r}")
    if reward_at not in REWARD_AT:
        raise ValueError(f"reward_at must be one of {', '.join(REWARD_AT)}, got {reward_at!r}")


def check_max_steps(max_steps: int | None) -> int | None:
    """``max_steps`` is None or a positive int."""
    if max_steps is None:
        return None
    if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1:
        raise ValueError(f"max_steps must be None or a positive integer, got {max_steps!r}")
    return max_steps


def check_seat_options(
    num_players: int, opponents: str | Sequence[str], seat: int | None, illegal: str
) -> list[str]:
    """Check a learner env's ``seat`` and ``illegal`` options; the opponents' bot names,
    one per other seat (``opponents``: one name for all, or one per other seat)."""
    if illegal not in LEARNER_ILLEGAL_MODES:
        raise ValueError(f"illegal must be 'raise' or 'penalty', got {illegal!r}")
    if seat is not None and not 0 <= seat < num_players:
        raise ValueError(f"seat must be None or 0..{num_players - 1}, got {seat!r}")
    others = num_players - 1
    names = [opponents] * others if isinstance(opponents, str) else list(opponents)
    if len(names) != others:
        raise ValueError(f"opponents: one bot name or {others} names, got {len(names)}")
    return names


def observation(encoder: Encoder, state: GameState[Any], seat: int) -> NDArray[np.float32]:
    """The observation of ``seat`` (what the environments use): read from the state's
    public fields, equal to :func:`view_observation` (tested)."""
    return encoder.encode_state(state, seat)


def view_observation(encoder: Encoder, state: GameState[Any], seat: int) -> NDArray[np.float32]:
    """The reference observation of ``seat``: only ``state.view(seat)`` is read."""
    return encoder.encode(state.view(seat))


def action_mask(state: GameState[Any], seat: int, num_actions: int) -> NDArray[np.int8]:
    """``state.action_mask()`` as int8 when ``seat`` is to move, else all zeros."""
    import numpy as np

    if state.current_player != seat:
        return np.zeros(num_actions, dtype=np.int8)
    mask = bytearray(num_actions)
    for action in state.legal_actions():
        mask[action] = 1
    return np.frombuffer(mask, dtype=np.int8)


class MaskBytes:
    """The action mask of a seat as ``num_actions`` bytes (0 or 1), from the engine.

    The bytes for the agent to move are built from ``state.legal_actions()`` and kept
    per tuple of legal actions (at most ``limit`` tuples, then the cache starts over), so
    a position whose legal actions were seen before costs one tuple and one lookup.
    Equal to :func:`action_mask` (tested).
    """

    def __init__(self, num_actions: int, limit: int = 1 << 13) -> None:
        self.num_actions = num_actions
        self.limit = limit
        self.zeros = bytes(num_actions)
        self._cache: dict[tuple[int, ...], bytes] = {}
        self._arrays: dict[bytes, NDArray[np.int8]] = {}

    def __call__(self, state: GameState[Any], seat: int) -> bytes:
        if state.current_player != seat:
            return self.zeros
        legal = tuple(state.legal_actions())
        mask = self._cache.get(legal)
        if mask is None:
            buffer = bytearray(self.num_actions)
            for action in legal:
                buffer[action] = 1
            mask = bytes(buffer)
            if len(self._cache) >= self.limit:
                self._cache.clear()
            self._cache[legal] = mask
        return mask

    def array(self, state: GameState[Any], seat: int) -> NDArray[np.int8]:
        """The mask as a new int8 array: a copy of a read-only one kept per distinct mask
        (copying an array costs less than making one from bytes)."""
        mask = self(state, seat)
        kept = self._arrays.get(mask)
        if kept is None:
            import numpy as np

            kept = np.frombuffer(mask, np.int8)
            if len(self._arrays) >= self.limit:
                self._arrays.clear()
            self._arrays[mask] = kept
        return kept.copy()


def _win_loss(winners: tuple[int, ...], players: int) -> list[float]:
    if not winners or len(winners) == players:
        return [0.0] * players
    return [1.0 if seat in winners else -1.0 for seat in range(players)]


class RewardRule:
    """Rewards per seat for what happened since the last call (rounds finished, game end)."""

    def __init__(self, game_name: str, players: int, reward: str, reward_at: str) -> None:
        check_reward_options(reward, reward_at)
        self.players = players
        self.reward = reward
        self.reward_at = reward_at
        self.sign = -1.0 if LOWER_IS_BETTER.get(game_name, False) else 1.0

    def round_rewards(self, finished: RoundResult) -> list[float]:
        if self.reward == "win":
            return _win_loss(finished.winners, self.players)
        return [self.sign * points for points in finished.points]

    def game_rewards(self, result: Result) -> list[float]:
        if self.reward == "win":
            return _win_loss(result.winners, self.players)
        return [self.sign * score for score in result.scores]

    def earned(self, state: GameState[Any], rounds_before: int) -> tuple[list[float] | None, int]:
        """Rewards per seat earned by the move just applied, or None when it paid nothing
        (most moves), and the new number of finished rounds."""
        if self.reward_at == "round":
            rounds = state.rounds()
            count = len(rounds)
            if count == rounds_before:
                return None, count
            total = [0.0] * self.players
            for finished in rounds[rounds_before:]:
                for seat, value in enumerate(self.round_rewards(finished)):
                    total[seat] += value
            return total, count
        if not state.is_over:
            return None, rounds_before
        result = state.result()
        assert result is not None
        return self.game_rewards(result), len(state.rounds())

    def after_move(self, state: GameState[Any], rounds_before: int) -> tuple[list[float], int]:
        """Like :meth:`earned`, with a list of zeros when nothing was paid."""
        rewards, rounds = self.earned(state, rounds_before)
        return ([0.0] * self.players if rewards is None else rewards), rounds


def render_text(state: GameState[Any]) -> str:
    """A plain-text picture of the position as a spectator sees it."""
    view = state.view(None)
    if view["game"] == "skyjo":
        return _skyjo_text(view)
    return _skipbo_text(view)


def _skyjo_text(view: JSON) -> str:
    lines = [
        f"Skyjo round {view['round']}, phase {view['phase']}, "
        f"to move: {view['current_player']}, draw pile {view['draw_count']}, "
        f"discard top {view['discard_top']}, held {view['hand']}"
    ]
    for seat, (grid, status) in enumerate(zip(view["grids"], view["status"], strict=True)):
        cells = [
            "  ." if state == "removed" else "  #" if card is None else f"{card:3d}"
            for card, state in zip(grid, status, strict=True)
        ]
        rows = [" ".join(cells[row * 4 : row * 4 + 4]) for row in range(3)]
        closer = " (closer)" if view["closer"] == seat else ""
        lines.append(f"seat {seat}: total {view['totals'][seat]}{closer}")
        lines += [f"   {row}" for row in rows]
    if view["result"] is not None:
        lines.append(f"over: winners {view['result']['winners']}")
    return "\n".join(lines)


def _skipbo_text(view: JSON) -> str:
    building = " ".join(f"[{len(pile)}]" for pile in view["building"])
    lines = [
        f"Skip-Bo round {view['round']}, turn {view['turn']}, to move: {view['current']}, "
        f"draw pile {view['draw_size']}, building {building}"
    ]
    for player in view["players"]:
        discards = " ".join(
            "-" if not pile else ",".join("S" if c == 0 else str(c) for c in pile[-3:])
            for pile in player["discards"]
        )
        top = player["stock_top"]
        lines.append(
            f"seat {player['seat']}: stock {player['stock_size']} "
            f"(top {'-' if top is None else 'S' if top == 0 else top}), "
            f"hand {player['hand_size']}, discards {discards}, score {player['score']}"
        )
    if view["result"] is not None:
        lines.append(f"over: winners {view['result']['winners']}")
    return "\n".join(lines)
