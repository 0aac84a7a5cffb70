"""The Skyjo ``greedy`` bot: the one-move-lookahead baseline (and the search bots'
rollout policy).

It reads the state object for speed but only what its seat may see
(``state.view(seat)`` holds the same facts): its own face-up cards and which of
its positions are face down or removed, the discard pile, the card just drawn,
and the face-up cards and face-down counts of the other grids. It never reads a
face-down card or the draw pile.
"""

from __future__ import annotations

from typing import Any

from ..core import GameState, Rng
from ..skyjo.cards import COLS, MASK_POSITIONS, SLOTS
from ..skyjo.moves import DISCARD_AND_REVEAL, DRAW, EXCHANGE, TAKE_DISCARD
from ..skyjo.state import DRAWN, SETUP, TAKEN, TURN, SkyjoState

#: Expected value of an unseen card: the mean of the deck (760 / 150).
HIDDEN = 760 / 150

#: The two other positions of each position's column (rollouts call this often).
_COLUMN_MATES = tuple(
    tuple(p for p in range(pos % COLS, SLOTS, COLS) if p != pos) for pos in range(SLOTS)
)


class GreedyBot:
    """Lower the own grid's expected sum one move at a time.

    - Set-up: turn up two random cards.
    - Take the discard when putting it somewhere lowers the expected sum by at
      least ``take_gain`` (a known higher card, a face-down card when the discard
      is low, or a completed column); otherwise draw.
    - Keep a drawn card when it lowers the expected sum by more than
      ``keep_gain`` (replacing the highest known card or a face-down card),
      otherwise discard it and turn up a face-down card.
    - Avoid ending the round (turning up the last face-down card) when the own
      sum does not look the lowest, since the closer's score is then doubled.
    """

    name = "greedy"

    def __init__(self, take_gain: float = 2.5, keep_gain: float = 1.0) -> None:
        self.take_gain = take_gain
        self.keep_gain = keep_gain

    def choose(self, state: GameState[Any], rng: Rng) -> int:
        if not isinstance(state, SkyjoState):
            raise TypeError("GreedyBot plays Skyjo states only")
        legal = state.legal_actions()
        phase = state.phase
        if phase == SETUP or len(legal) == 1:
            return legal[rng.below(len(legal))]
        seat = state.player
        if phase == TURN:
            top = state.discard[-1]
            best, _ = self._best_exchange(state, seat, top)
            if best >= self.take_gain:
                return TAKE_DISCARD
            return DRAW
        card = state.hand
        assert card is not None
        best, action = self._best_exchange(state, seat, card)
        if phase == TAKEN:
            return action
        assert phase == DRAWN
        reveal_value, reveal = self._best_reveal(state, seat, rng)
        if reveal is None or best > max(self.keep_gain, reveal_value):
            return action
        return reveal

    # --- evaluation -------------------------------------------------------
    def _estimates(self, state: SkyjoState, seat: int) -> tuple[float, float]:
        """Own expected grid sum now, and the lowest expected sum of the others."""
        others = min(
            state.face_up_sum(other)
            + HIDDEN * (state.down[other] & state.present[other]).bit_count()
            for other in range(state.n)
            if other != seat
        )
        own = state.face_up_sum(seat) + HIDDEN * state.down[seat].bit_count()
        return own, others

    def _closing_penalty(self, state: SkyjoState, seat: int, own_after: float) -> float:
        """Cost of ending the round with an expected sum of ``own_after``."""
        if state.closer is not None:
            return 0.0
        _, others = self._estimates(state, seat)
        if own_after < others:
            return -2.0  # ending the round while ahead is good
        if state.rules.closer_doubling and own_after > 0:
            return own_after + 1.0
        return 0.0

    def _best_exchange(self, state: SkyjoState, seat: int, card: int) -> tuple[float, int]:
        """Best expected gain of putting ``card`` somewhere, and its action."""
        cards = state.cards
        base = seat * SLOTS
        present = state.present[seat]
        down = state.down[seat]
        closing = down.bit_count() == 1 and state.closer is None
        own = self._estimates(state, seat)[0] if closing else 0.0
        up = present & ~down
        best = -1e9
        best_action = -1
        for pos in MASK_POSITIONS[present]:
            hidden = down >> pos & 1
            old = HIDDEN if hidden else cards[base + pos]
            gain = old - card
            first, second = _COLUMN_MATES[pos]
            if up >> first & up >> second & 1:
                one, two = cards[base + first], cards[base + second]
                if one == two == card:
                    gain = old + 2 * card  # the whole column leaves the grid
                elif card > 0 and card in (one, two):
                    gain += 0.5  # a pair towards a column
            if closing and hidden:
                gain -= self._closing_penalty(state, seat, own - gain)
            if gain > best:
                best, best_action = gain, EXCHANGE + pos
        return best, best_action

    def _best_reveal(self, state: SkyjoState, seat: int, rng: Rng) -> tuple[float, int | None]:
        down = state.down[seat] & state.present[seat]
        if not down:
            return -1e9, None
        positions = MASK_POSITIONS[down]
        pos = positions[rng.below(len(positions))]
        value = 0.0
        if len(positions) == 1:
            own, _ = self._estimates(state, seat)
            value -= self._closing_penalty(state, seat, own)
        return value, DISCARD_AND_REVEAL + pos
