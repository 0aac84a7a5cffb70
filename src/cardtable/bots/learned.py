"""The ``learned`` bots: a policy trained by self-play and against bots, played with numpy.

The weights ship in the package (``bots/weights/<game>_learned.npz``, written by the
trainer ``cardtable.rl.train``; their format: :mod:`.learned_net`). A decision encodes
the seat's observation exactly as the RL environments do
(:mod:`cardtable.encoders`: only what ``state.view(seat)`` shows), evaluates the
network and plays the legal move with the highest logit: no search, no randomness,
no PyTorch. A weights file is trained for one number of players; at another number
of players the bot plays the move of the bot it was measured against (``hard``),
which docs/bots.md states beside its figures.

Weights trained with a prior (``prior == "hard"``: the trainer's ``--prior hard``) add
``prior_scale`` times ``hard``'s valuation of each legal move to the network's logits,
as the vector env's ``hard_priors`` gives it in training: in Skyjo
:func:`cardtable.bots.skyjo_hard.move_values` (from what the seat sees; 0 in set-up),
in Skip-Bo :func:`cardtable.bots.skipbo_hard_values.prior_row` (its planner reads only
what the mover sees).

numpy (extras ``rl`` or ``fast``) is imported when the bot first chooses, so the
registry and every other bot still run on the standard library alone.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core import GameState, Rng
from .base import Bot

if TYPE_CHECKING:
    from .learned_net import PolicyWeights


def weights_path(game: str) -> Path:
    """Where the package keeps ``game``'s learned weights."""
    return Path(str(resources.files("cardtable.bots") / "weights" / f"{game}_learned.npz"))


@cache
def shipped_weights(game: str) -> PolicyWeights:
    """The package's weights for ``game``, loaded once per process."""
    try:
        from .learned_net import load_weights
    except ModuleNotFoundError as error:  # numpy
        raise RuntimeError(
            f"the learned bot needs numpy ({error.name} is missing): "
            "install cardtable[rl] or cardtable[fast]"
        ) from error
    return load_weights(weights_path(game), encoder_version=_encoder_version(game))


def _encoder_version(game: str) -> int:
    if game == "skyjo":
        from ..encoders.skyjo_obs import ENCODER_VERSION
    else:
        from ..encoders.skipbo_obs import ENCODER_VERSION
    return ENCODER_VERSION


def _encoder(game: str, rules: Any) -> Any:
    if game == "skyjo":
        from ..encoders.skyjo_obs import SkyjoEncoder

        return SkyjoEncoder(rules)
    from ..encoders.skipbo_obs import SkipBoEncoder

    return SkipBoEncoder(rules)


class LearnedBot:
    """Plays ``game`` with the shipped weights (``weights`` to play others, as the
    trainer's tests do); ``fallback`` makes the bot for player counts the weights were
    not trained for."""

    name = "learned"

    def __init__(
        self,
        game: str,
        fallback: Callable[[], Bot],
        weights: PolicyWeights | None = None,
    ) -> None:
        self.game = game
        self._weights = weights
        self._fallback_factory = fallback
        self._fallback: Bot | None = None
        # One encoder per rule set met (a bot seat keeps its table's rules).
        self._encoders: dict[str, Any] = {}

    @property
    def weights(self) -> PolicyWeights:
        if self._weights is None:
            self._weights = shipped_weights(self.game)
        return self._weights

    def plays_itself(self, players: int) -> bool:
        """Whether the weights were trained for ``players`` (else the fallback plays)."""
        return players == self.weights.players

    def choose(self, state: GameState[Any], rng: Rng) -> int:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        rules = state.rules
        if not self.plays_itself(rules.players):  # type: ignore[attr-defined]
            if self._fallback is None:
                self._fallback = self._fallback_factory()
            return self._fallback.choose(state, rng)
        import numpy as np

        key = repr(rules)
        encoder = self._encoders.get(key)
        if encoder is None:
            encoder = self._encoders[key] = _encoder(self.game, rules)
        seat = state.current_player
        assert seat is not None
        prior = self._prior(state) if self.weights.prior else None
        mask = np.zeros(self.weights.num_actions, dtype=np.int8)
        mask[legal] = 1
        return self.weights.best_action(encoder.encode_state(state, seat), mask, prior)

    def _prior(self, state: GameState[Any]) -> Any:
        """The prior row of the weights for ``state`` (float32, as ``hard_priors``)."""
        import numpy as np

        from ..skipbo.state import SkipBoState
        from ..skyjo.state import SkyjoState

        if self.weights.prior == "hard" and isinstance(state, SkipBoState):
            from .skipbo_hard_values import prior_row

            return prior_row(state, self.weights.num_actions)
        if self.weights.prior != "hard" or not isinstance(state, SkyjoState):
            raise ValueError(
                f"prior {self.weights.prior!r} for {self.game}: "
                "the learned bot knows the 'hard' prior only"
            )
        from .skyjo_hard import move_values

        values = move_values(state)
        prior = np.zeros(self.weights.num_actions, dtype=np.float32)
        if values:
            low = min(values.values())
            for code, value in values.items():
                prior[code] = -(value - low)
        return prior
