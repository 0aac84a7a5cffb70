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
  Under ``rows_rule`` a column that lost a row's card can no longer be
  completed: it is only summed (``hard`` does not build rows).
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
from collections.abc import Iterable
from typing import Any, NamedTuple

from ..core import GameState, Rng
from ..skyjo.cards import COLS, DECK_COUNTS, HIGHEST, LOWEST, MASK_POSITIONS, SLOTS
from ..skyjo.moves import DISCARD_AND_REVEAL, DRAW, EXCHANGE, TAKE_DISCARD
from ..skyjo.state import DRAWN, SETUP, TAKEN, TURN, SkyjoState

_VALUES = tuple(sorted(DECK_COUNTS))
#: The deck's count of each value, indexed by ``value - LOWEST``.
_DECK_COUNTS = tuple(DECK_COUNTS.get(v, 0) for v in range(LOWEST, HIGHEST + 1))
_SQRT2 = math.sqrt(2.0)
Cell = int | None  # a face-up value, GONE, or None for a face-down card
Column = tuple[Cell, Cell, Cell]
#: A cell of a column whose row left the grid (``rows_rule``): it holds no card, and
#: the column can no longer be completed.
GONE = -99


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


class _Spot(NamedTuple):
    """A present own position and what valuing a card there needs."""

    pos: int
    col: int
    row: int
    cells: Column  # its column now
    before: float  # the value of that column now
    deny: float | None  # denial of the face-up card there; None when face down
    closes: bool  # a card there ends the round (the last face-down one)


def _sum_in_order(values: Iterable[float]) -> float:
    """``values`` added one after the other, from the left.

    Not ``sum()``: from Python 3.12 on it compensates rounding errors, so the bot's
    choices in near ties would depend on the Python version, and the compiled bot
    (:mod:`cardtable.fast.skyjo_hard`) adds from the left as 3.11's ``sum`` does."""
    total = 0.0
    for value in values:
        total += value
    return total


def _with_card(cells: Column, row: int, card: int) -> Column:
    """``cells`` with ``card`` in ``row``."""
    if row == 0:
        return (card, cells[1], cells[2])
    if row == 1:
        return (cells[0], card, cells[2])
    return (cells[0], cells[1], card)


class _Model:
    """What one seat knows, and the values the decision needs.

    Everything that does not depend on the card being valued is worked out once per
    model and kept: the value of each own column, the denial of each card, the value
    of turning up each face-down card, and the opponents' estimates for going out.
    """

    def __init__(self, state: SkyjoState, seat: int, bot: HardBot) -> None:
        self.state = state
        self.seat = seat
        self.bot = bot
        # counts[value - LOWEST]: how many cards of each value nobody has seen.
        counts = list(_DECK_COUNTS)
        cards = state.cards
        for owner in range(state.n):
            base = owner * SLOTS
            for p in MASK_POSITIONS[state.present[owner] & ~state.down[owner]]:
                counts[cards[base + p] - LOWEST] -= 1
        for card in state.discard:
            counts[card - LOWEST] -= 1
        if state.hand is not None:
            counts[state.hand - LOWEST] -= 1
        total = sum(counts)
        self.pool = total
        self.probs = (
            [(v, counts[v - LOWEST] / total) for v in _VALUES if counts[v - LOWEST] > 0]
            if total
            else []
        )
        self.counts = counts
        self.mean = _sum_in_order(v * p for v, p in self.probs) if total else 760 / 150
        self.var = _sum_in_order(p * (v - self.mean) ** 2 for v, p in self.probs) if total else 15.0
        # The round continues after this move unless someone already closed it.
        self.future = state.closer is None
        self.columns: list[Column | None] = [self.column(seat, col) for col in range(COLS)]
        self.memo: dict[Column, float] = {}
        self.hidden = (state.down[seat] & state.present[seat]).bit_count()
        self.now = self.own_value()
        # Filled on first use: denial per card, reveal value per column, closing
        # value per score, and the opponents' (estimate, spread) with the nearest.
        self.denials: dict[int, float] = {}
        self.reveals: dict[Column, float] = {}
        self.closings: dict[float, float] = {}
        self.rivals: list[tuple[float, float]] | None = None
        self.nearest = math.inf
        self.best_reveal: float | None = None
        # The next player's grid, for the denial of a discard: face-up cards, whether
        # any is face down, and the values on exactly two face-up cards of a column.
        other = (seat + 1) % state.n
        other_base = other * SLOTS
        self.next_up = [
            cards[other_base + p] for p in MASK_POSITIONS[state.present[other] & ~state.down[other]]
        ]
        self.next_down = bool(state.down[other] & state.present[other])
        self.next_pairs: set[int] = set()
        for col in range(COLS):
            cells = self.column(other, col)
            if cells is not None and GONE not in cells:
                self.next_pairs.update(v for v in cells if v is not None and cells.count(v) == 2)
        # Every present own position, with what valuing a card there needs.
        down = state.down[seat]
        base = seat * SLOTS
        self.spots: list[_Spot] = []
        for pos in MASK_POSITIONS[state.present[seat]]:
            col = pos % COLS
            cells = self.columns[col]
            assert cells is not None
            face_down = bool(down >> pos & 1)
            self.spots.append(
                _Spot(
                    pos,
                    col,
                    pos // COLS,
                    cells,
                    self.col_value(cells),
                    None if face_down else self.denial(cards[base + pos]),
                    self.future and face_down and self.hidden == 1,
                )
            )
        # A column is valued as a multiset of cells, so spots whose columns hold the
        # same cells and that replace the same card value every card alike: the best
        # value of a card needs one of them only.
        alike: dict[tuple[Column, Cell], _Spot] = {}
        for spot in self.spots:
            alike.setdefault((spot.cells, spot.cells[spot.row]), spot)
        self.distinct_spots = list(alike.values())

    def column(self, owner: int, col: int) -> Column | None:
        """The column's cells, or None when the column left the grid."""
        state = self.state
        present, down = state.present[owner], state.down[owner]
        cells: list[Cell] = []
        for p in (col, col + COLS, col + 2 * COLS):
            if not present >> p & 1:
                cells.append(GONE)
            else:
                cells.append(None if down >> p & 1 else state.cards[owner * SLOTS + p])
        if cells.count(GONE) == 3:
            return None
        return (cells[0], cells[1], cells[2])

    # --- values ------------------------------------------------------------
    def col_value(self, cells: Column) -> float:
        """Expected sum of a column, less the hope of completing a pair of high cards."""
        cached = self.memo.get(cells)
        if cached is not None:
            return cached
        a, b, c = cells
        hidden = (a is None) + (b is None) + (c is None)
        if GONE in cells:
            # A row left (rows_rule): what is left of the column can only be summed.
            value = sum(x for x in cells if x is not None and x != GONE) + self.mean * hidden
            self.memo[cells] = value
            return value
        total = (a or 0) + (b or 0) + (c or 0)  # the face-up cards
        value = total + self.mean * hidden
        if hidden <= 1:
            # The value on exactly two face-up cells, if any (three alike come first).
            pair = a if a in (b, c) else b if b == c else None
            if hidden == 0 and a == b == c:
                value = 0.0
            elif pair is not None and pair >= 1 and self.future and self.pool:
                third = (total - 2 * pair) if hidden == 0 else self.mean
                chances = self.bot.pair_draws * self.counts[pair - LOWEST] / self.pool
                value -= self.bot.pair_weight * (2 * pair + third) * min(1.0, chances)
        self.memo[cells] = value
        return value

    def own_value(self) -> float:
        return _sum_in_order(self.col_value(c) for c in self.columns if c is not None)

    def exact_sum_after(self, col: int, cells: Column) -> float:
        total = 0.0
        for c, column in enumerate(self.columns):
            if column is None:
                continue
            use = cells if c == col else column
            if use[0] == use[1] == use[2] and None not in use:
                continue
            total += sum(x for x in use if x is not None and x != GONE)
        return total

    def closing_value(self, score: float) -> float:
        """Value (lower is better) of ending the round with ``score`` as the closer."""
        cached = self.closings.get(score)
        if cached is not None:
            return cached
        state = self.state
        bot = self.bot
        rivals = self.rivals
        if rivals is None:
            rivals = self.rivals = []
            for other in range(state.n):
                if other == self.seat:
                    continue
                hidden = (state.down[other] & state.present[other]).bit_count()
                estimate = state.face_up_sum(other) + self.mean * hidden - bot.last_turn_gain
                spread = math.sqrt(hidden * self.var + bot.last_turn_spread)
                self.nearest = min(self.nearest, estimate)
                rivals.append((estimate, spread))
        p_lowest = 1.0
        for estimate, spread in rivals:
            # P(other ends strictly above score), integer scores.
            z = (score + 0.5 - estimate) / spread
            p_lowest *= 0.5 * math.erfc(z / _SQRT2)
        value = score
        if state.rules.closer_doubling and score > 0:
            value += (1.0 - p_lowest) * score * bot.doubling_fear(state)
        value -= bot.close_weight * (self.nearest - score)
        self.closings[score] = value
        return value

    def exchange_value(self, spot: _Spot, card: int) -> float:
        """Change in own value when ``card`` goes to ``spot``, plus the denial of the
        face-up card it replaces there (that card goes on the discard pile)."""
        _, col, row, cells, before, deny, closes = spot
        after = _with_card(cells, row, card)
        if closes:
            return self.closing_value(self.exact_sum_after(col, after)) - self.now
        delta = self.col_value(after) - before
        return delta if deny is None else delta + deny

    def reveal_value(self, spot: _Spot) -> float:
        """Expected change in own value when the face-down card at ``spot`` is turned up.

        It depends on the column alone (the order of its cells does not matter, and
        a spot where the round ends is the only face-down card), so it is kept per
        column contents."""
        _, col, row, cells, before, _, closes = spot
        cached = self.reveals.get(cells)
        if cached is not None:
            return cached
        total = 0.0
        for value, p in self.probs:
            after = _with_card(cells, row, value)
            if closes:
                total += p * (self.closing_value(self.exact_sum_after(col, after)) - self.now)
            else:
                total += p * (self.col_value(after) - before)
        total -= self.bot.reveal_bonus if self.future else 0.0
        self.reveals[cells] = total
        return total

    def denial(self, card: int) -> float:
        """Cost of handing ``card`` to the next player on the discard pile."""
        if not self.future:
            return 0.0
        cached = self.denials.get(card)
        if cached is not None:
            return cached
        best = self.mean - card if self.next_down else 0.0
        for up in self.next_up:
            best = max(best, up - card)
        if card >= 1 and card in self.next_pairs:
            best = max(best, 3 * card)
        value = self.bot.deny_weight * max(0.0, best - self.bot.deny_free)
        self.denials[card] = value
        return value

    def options(self, card: int, drawn: bool) -> list[tuple[float, int]]:
        """Every (value change, action) for a held ``card``, best first."""
        ranked = [(self.exchange_value(spot, card), EXCHANGE + spot.pos) for spot in self.spots]
        if drawn:
            deny = self.denial(card)
            for spot in self.spots:
                if spot.deny is None:  # face down
                    ranked.append((self.reveal_value(spot) + deny, DISCARD_AND_REVEAL + spot.pos))
        ranked.sort()
        return ranked

    def best_with(self, card: int, drawn: bool) -> float:
        """Value change of the best of :meth:`options` (discarding needs ``drawn``)."""
        best = min(self.exchange_value(spot, card) for spot in self.distinct_spots)
        if drawn:
            if self.best_reveal is None:
                reveals = [
                    self.reveal_value(spot) for spot in self.distinct_spots if spot.deny is None
                ]
                self.best_reveal = min(reveals, default=math.inf)
            best = min(best, self.best_reveal + self.denial(card))
        return best


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
        model = _Model(state, state.player, self)
        phase = state.phase
        if phase == TURN:
            take = model.best_with(state.discard[-1], False)
            draw = 0.0
            for value, p in model.probs:
                draw += p * model.best_with(value, True)
            return sorted([(take + self.take_margin, TAKE_DISCARD), (draw, DRAW)])
        card = state.hand
        assert card is not None
        return model.options(card, phase == DRAWN)


def move_values(state: SkyjoState, bot: HardBot | None = None) -> dict[int, float]:
    """``hard``'s value of each legal move of the seat to move (lower is better), as
    :meth:`HardBot.ranked` gives them; empty in set-up and where a single move is legal,
    where ``hard`` values nothing (it moves at random, or has no choice)."""
    if state.phase == SETUP or state.is_over or len(state.legal_actions()) < 2:
        return {}
    return {action: value for value, action in (bot or HardBot()).ranked(state)}


def grid_value(state: SkyjoState, seat: int, bot: HardBot | None = None) -> float:
    """``hard``'s value of ``seat``'s grid: the expected sum of its columns, less the
    hope of completing pairs of high cards (lower is better), from what the seat sees."""
    return _Model(state, seat, bot or HardBot()).now
