"""Skyjo ``naive`` and ``hard`` bots.

``naive`` is the simple threshold player of the published comparisons: it picks
the draw source at random and keeps a card below 5 (over its highest face-up
card when that is higher, else over a random face-down card); a higher drawn card
is discarded and a random face-down card turned up. A card taken from the
discard pile must be kept; it then goes over the highest face-up card or a random
face-down card.

``hard`` plays for the lowest expected round score:

- **Card counting.** The cards nobody has seen are the deck minus every face-up
  grid card, the whole discard pile and the held card; their mean values every
  face-down card and their distribution every draw.
- **Expected value.** Each column is valued at its expected sum, less a bonus for
  a pair of equal positive cards that the unseen cards may still complete (three
  equal cards leave the grid). Drawing is valued as the expectation, over the
  unseen cards, of the best thing to do with the card; taking the discard is
  taken when it does better than that.
- **Column building.** Exchanges that complete a column, or build a pair of a
  high card that can still be completed, gain the pair bonus.
- **Going out.** Turning up the last face-down card ends the round: its value is
  the exact sum left against the opponents' visible totals plus their expected
  hidden cards and one more turn, with the doubling risk of the closer priced in.
- **Patience.** No rule forces the last face-down card up, so players who all
  fear the doubling could exchange face-up cards for ever. Past ``patience``
  turns per player in a round (a normal round takes about ten), the doubling risk
  counts half as much every ``fear_halving`` further turns per player, until the
  player whose going out looks best goes out.
- **Denial.** A discard that would let the next player complete a column or
  replace a high card cheaply costs a little.

Information: face-up cards of every grid, which positions are face down or
removed, the discard pile, the held card, the draw pile's size; exactly
``state.view(seat)``. It never reads a face-down card or the draw pile.
"""

from __future__ import annotations

import math
from typing import Any

from ..core import GameState, Rng
from ..skyjo.cards import COLS, DECK_COUNTS, MASK_POSITIONS, SLOTS
from ..skyjo.moves import DISCARD_AND_REVEAL, DRAW, EXCHANGE, TAKE_DISCARD
from ..skyjo.state import DRAWN, SETUP, TAKEN, TURN, SkyjoState

_VALUES = tuple(sorted(DECK_COUNTS))
Cell = int | None  # a face-up value, or None for a face-down card
Column = tuple[Cell, Cell, Cell]


class NaiveBot:
    """Random draw source; keeps a card below 5. See the module docstring."""

    name = "naive"

    def choose(self, state: GameState[Any], rng: Rng) -> int:
        if not isinstance(state, SkyjoState):
            raise TypeError("the Skyjo naive bot plays Skyjo states only")
        legal = state.legal_actions()
        phase = state.phase
        if phase == SETUP or len(legal) == 1:
            return legal[rng.below(len(legal))]
        if phase == TURN:
            return (DRAW, TAKE_DISCARD)[rng.below(2)]
        card = state.hand
        assert card is not None
        seat = state.player
        down = state.down[seat] & state.present[seat]
        up = state.present[seat] & ~state.down[seat]
        base = seat * SLOTS
        if card < 5 or phase == TAKEN:
            ups = MASK_POSITIONS[up]
            if ups:
                high = max(ups, key=lambda p: state.cards[base + p])
                if state.cards[base + high] > card:
                    return EXCHANGE + high
            downs = MASK_POSITIONS[down]
            if downs:
                return EXCHANGE + downs[rng.below(len(downs))]
            return EXCHANGE + ups[rng.below(len(ups))]
        downs = MASK_POSITIONS[down]
        return DISCARD_AND_REVEAL + downs[rng.below(len(downs))]


class _Model:
    """What one seat knows, and the values the decision needs."""

    def __init__(self, state: SkyjoState, seat: int, bot: HardBot) -> None:
        self.state = state
        self.seat = seat
        self.bot = bot
        counts = dict(DECK_COUNTS)
        for owner in range(state.n):
            base = owner * SLOTS
            for p in MASK_POSITIONS[state.present[owner] & ~state.down[owner]]:
                counts[state.cards[base + p]] -= 1
        for card in state.discard:
            counts[card] -= 1
        if state.hand is not None:
            counts[state.hand] -= 1
        total = sum(counts.values())
        self.pool = total
        self.probs = [(v, counts[v] / total) for v in _VALUES if counts[v] > 0] if total else []
        self.counts = counts
        self.mean = sum(v * p for v, p in self.probs) if total else 760 / 150
        self.var = sum(p * (v - self.mean) ** 2 for v, p in self.probs) if total else 15.0
        # The round continues after this move unless someone already closed it.
        self.future = state.closer is None
        self.columns: list[Column | None] = [self.column(seat, col) for col in range(COLS)]
        self.memo: dict[Column, float] = {}
        self.hidden = (state.down[seat] & state.present[seat]).bit_count()

    def column(self, owner: int, col: int) -> Column | None:
        state = self.state
        present, down = state.present[owner], state.down[owner]
        cells: list[Cell] = []
        for p in (col, col + COLS, col + 2 * COLS):
            if not present >> p & 1:
                return None
            cells.append(None if down >> p & 1 else state.cards[owner * SLOTS + p])
        return (cells[0], cells[1], cells[2])

    # --- values ------------------------------------------------------------
    def col_value(self, cells: Column) -> float:
        """Expected sum of a column, less the hope of completing a pair of high cards."""
        cached = self.memo.get(cells)
        if cached is not None:
            return cached
        known = [c for c in cells if c is not None]
        hidden = 3 - len(known)
        value = sum(known) + self.mean * hidden
        if hidden == 0 and known[0] == known[1] == known[2]:
            value = 0.0
        elif self.future and len(known) >= 2 and self.pool:
            for v in set(known):
                if v >= 1 and known.count(v) == 2:
                    third = (sum(known) - 2 * v) if hidden == 0 else self.mean
                    chances = self.bot.pair_draws * self.counts[v] / self.pool
                    value -= self.bot.pair_weight * (2 * v + third) * min(1.0, chances)
        self.memo[cells] = value
        return value

    def own_value(self) -> float:
        return sum(self.col_value(c) for c in self.columns if c is not None)

    def replaced(self, pos: int, card: Cell) -> tuple[int, Column]:
        col = pos % COLS
        cells = self.columns[col]
        assert cells is not None
        row = pos // COLS
        new = list(cells)
        new[row] = card
        return col, (new[0], new[1], new[2])

    def exact_sum_after(self, col: int, cells: Column) -> float:
        total = 0.0
        for c, column in enumerate(self.columns):
            if column is None:
                continue
            use = cells if c == col else column
            if use[0] == use[1] == use[2] and None not in use:
                continue
            total += sum(x for x in use if x is not None)
        return total

    def closing_value(self, score: float) -> float:
        """Value (lower is better) of ending the round with ``score`` as the closer."""
        state = self.state
        bot = self.bot
        p_lowest = 1.0
        nearest = math.inf
        for other in range(state.n):
            if other == self.seat:
                continue
            hidden = (state.down[other] & state.present[other]).bit_count()
            estimate = state.face_up_sum(other) + self.mean * hidden - bot.last_turn_gain
            spread = math.sqrt(hidden * self.var + bot.last_turn_spread)
            nearest = min(nearest, estimate)
            # P(other ends strictly above score), integer scores.
            z = (score + 0.5 - estimate) / spread
            p_lowest *= 0.5 * math.erfc(z / math.sqrt(2.0))
        value = score
        if state.rules.closer_doubling and score > 0:
            value += (1.0 - p_lowest) * score * bot.doubling_fear(state)
        return value - bot.close_weight * (nearest - score)

    def option_value(self, pos: int, card: int | None, now: float) -> float:
        """Change in own value when ``card`` goes to ``pos`` (None: the card there is revealed)."""
        state = self.state
        seat = self.seat
        face_down = bool(state.down[seat] >> pos & 1)
        closes = self.future and face_down and self.hidden == 1
        col, _ = self.replaced(pos, 0)
        before = self.col_value(self.columns[col])  # type: ignore[arg-type]
        if card is not None:
            _, cells = self.replaced(pos, card)
            if closes:
                return self.closing_value(self.exact_sum_after(col, cells)) - now
            return self.col_value(cells) - before
        total = 0.0
        for value, p in self.probs:
            _, cells = self.replaced(pos, value)
            if closes:
                total += p * (self.closing_value(self.exact_sum_after(col, cells)) - now)
            else:
                total += p * (self.col_value(cells) - before)
        return total - (self.bot.reveal_bonus if self.future else 0.0)

    def denial(self, card: int) -> float:
        """Cost of handing ``card`` to the next player on the discard pile."""
        if not self.future:
            return 0.0
        state = self.state
        other = (self.seat + 1) % state.n
        base = other * SLOTS
        up = state.present[other] & ~state.down[other]
        down = state.down[other] & state.present[other]
        best = 0.0
        if down:
            best = self.mean - card
        for p in MASK_POSITIONS[up]:
            best = max(best, state.cards[base + p] - card)
        for col in range(COLS):
            cells = self.column(other, col)
            if cells is None:
                continue
            known = [c for c in cells if c is not None]
            if card >= 1 and known.count(card) == 2:
                best = max(best, 3 * card)
        return self.bot.deny_weight * max(0.0, best - self.bot.deny_free)

    def options(self, card: int, drawn: bool, now: float) -> list[tuple[float, int]]:
        """Every (value change, action) for a held ``card``, best first."""
        state = self.state
        seat = self.seat
        base = seat * SLOTS
        ranked = []
        for pos in MASK_POSITIONS[state.present[seat]]:
            delta = self.option_value(pos, card, now)
            if not state.down[seat] >> pos & 1:
                delta += self.denial(state.cards[base + pos])
            ranked.append((delta, EXCHANGE + pos))
        if drawn:
            deny = self.denial(card)
            for pos in MASK_POSITIONS[state.down[seat] & state.present[seat]]:
                ranked.append((self.option_value(pos, None, now) + deny, DISCARD_AND_REVEAL + pos))
        ranked.sort()
        return ranked

    def best_with(self, card: int, drawn: bool, now: float) -> tuple[float, int]:
        """Best (value change, action) for a held ``card``; discarding needs ``drawn``."""
        return self.options(card, drawn, now)[0]


class HardBot:
    """Expected value with card counting, column building and timed going out."""

    name = "hard"

    def __init__(
        self,
        *,
        pair_weight: float = 0.8,
        pair_draws: float = 3.0,
        reveal_bonus: float = 1.0,
        deny_weight: float = 0.15,
        deny_free: float = 2.0,
        close_weight: float = 0.15,
        last_turn_gain: float = 2.0,
        last_turn_spread: float = 6.0,
        take_margin: float = 0.0,
        patience: float = 20.0,
        fear_halving: float = 2.0,
    ) -> None:
        self.pair_weight = pair_weight
        self.pair_draws = pair_draws
        self.reveal_bonus = reveal_bonus
        self.deny_weight = deny_weight
        self.deny_free = deny_free
        self.close_weight = close_weight
        self.last_turn_gain = last_turn_gain
        self.last_turn_spread = last_turn_spread
        self.take_margin = take_margin
        self.patience = patience
        self.fear_halving = fear_halving

    def doubling_fear(self, state: SkyjoState) -> float:
        """How much the closer's doubling risk counts: fully, until a round drags on."""
        overdue = state.turns / state.n - self.patience
        return 1.0 if overdue <= 0 else 0.5 ** (overdue / self.fear_halving)

    def choose(self, state: GameState[Any], rng: Rng) -> int:
        if not isinstance(state, SkyjoState):
            raise TypeError("the Skyjo hard bot plays Skyjo states only")
        legal = state.legal_actions()
        if state.phase == SETUP or len(legal) == 1:
            return legal[rng.below(len(legal))]
        return self.ranked(state)[0][1]

    def ranked(self, state: SkyjoState) -> list[tuple[float, int]]:
        """Legal moves after set-up with their value change (lower is better), best first."""
        seat = state.player
        model = _Model(state, seat, self)
        now = model.own_value()
        phase = state.phase
        if phase == TURN:
            take, _ = model.best_with(state.discard[-1], False, now)
            draw = 0.0
            for value, p in model.probs:
                draw += p * model.best_with(value, True, now)[0]
            return sorted([(take + self.take_margin, TAKE_DISCARD), (draw, DRAW)])
        card = state.hand
        assert card is not None
        return model.options(card, phase == DRAWN, now)
