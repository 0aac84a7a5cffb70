"""Skyjo ``hard``'s fast paths against a straightforward reference of the same formulas.

``_reference_ranked`` is the bot as it was written before its per-model caches
(every option valued from scratch, the unseen cards counted in a dict); the
cached bot must rank every move of seeded games exactly the same, values included.
"""

from __future__ import annotations

import math
from collections import Counter

import pytest

from cardtable.bots.skyjo_hard import HardBot, _Model
from cardtable.sim.tournament import bot_rng
from cardtable.skyjo import GAME, SkyjoRules
from cardtable.skyjo.cards import COLS, DECK_COUNTS, LOWEST, MASK_POSITIONS, SLOTS
from cardtable.skyjo.moves import DISCARD_AND_REVEAL, DRAW, EXCHANGE, TAKE_DISCARD
from cardtable.skyjo.state import DRAWN, SETUP, TURN, SkyjoState

Column = tuple[int | None, int | None, int | None]


def _reference_ranked(bot: HardBot, state: SkyjoState) -> list[tuple[float, int]]:
    """``bot.ranked(state)`` computed the long way."""
    seat = state.player
    counts = dict(DECK_COUNTS)
    for owner in range(state.n):
        for p in MASK_POSITIONS[state.present[owner] & ~state.down[owner]]:
            counts[state.cards[owner * SLOTS + p]] -= 1
    for card in [*state.discard, *([] if state.hand is None else [state.hand])]:
        counts[card] -= 1
    pool = sum(counts.values())
    probs = [(v, counts[v] / pool) for v in sorted(counts) if counts[v] > 0] if pool else []
    mean = sum(v * p for v, p in probs) if pool else 760 / 150
    var = sum(p * (v - mean) ** 2 for v, p in probs) if pool else 15.0
    future = state.closer is None
    hidden_own = (state.down[seat] & state.present[seat]).bit_count()

    def column(owner: int, col: int) -> Column | None:
        cells: list[int | None] = []
        for p in (col, col + COLS, col + 2 * COLS):
            if not state.present[owner] >> p & 1:
                return None
            cells.append(None if state.down[owner] >> p & 1 else state.cards[owner * SLOTS + p])
        return (cells[0], cells[1], cells[2])

    columns = [column(seat, col) for col in range(COLS)]

    def col_value(cells: Column) -> float:
        known = [c for c in cells if c is not None]
        hidden = 3 - len(known)
        value = sum(known) + mean * hidden
        if hidden == 0 and known[0] == known[1] == known[2]:
            return 0.0
        if future and len(known) >= 2 and pool:
            for v in set(known):
                if v >= 1 and known.count(v) == 2:
                    third = (sum(known) - 2 * v) if hidden == 0 else mean
                    chances = bot.pair_draws * counts[v] / pool
                    value -= bot.pair_weight * (2 * v + third) * min(1.0, chances)
        return value

    now = sum(col_value(c) for c in columns if c is not None)

    def replaced(pos: int, card: int) -> tuple[int, Column]:
        cells = columns[pos % COLS]
        assert cells is not None
        new = list(cells)
        new[pos // COLS] = card
        return pos % COLS, (new[0], new[1], new[2])

    def exact_sum_after(col: int, cells: Column) -> float:
        total = 0.0
        for c, old in enumerate(columns):
            use = cells if c == col else old
            if use is not None and not (use[0] == use[1] == use[2] and None not in use):
                total += sum(x for x in use if x is not None)
        return total

    def closing_value(score: float) -> float:
        p_lowest, nearest = 1.0, math.inf
        for other in range(state.n):
            if other != seat:
                hidden = (state.down[other] & state.present[other]).bit_count()
                estimate = state.face_up_sum(other) + mean * hidden - bot.last_turn_gain
                spread = math.sqrt(hidden * var + bot.last_turn_spread)
                nearest = min(nearest, estimate)
                p_lowest *= 0.5 * math.erfc((score + 0.5 - estimate) / spread / math.sqrt(2.0))
        value = score
        if state.rules.closer_doubling and score > 0:
            value += (1.0 - p_lowest) * score * bot.doubling_fear(state)
        return value - bot.close_weight * (nearest - score)

    def option_value(pos: int, card: int | None) -> float:
        closes = future and bool(state.down[seat] >> pos & 1) and hidden_own == 1
        col = pos % COLS
        before = col_value(columns[col])  # type: ignore[arg-type]
        outcomes = [(card, 1.0)] if card is not None else probs
        total = 0.0
        for value, p in outcomes:
            _, cells = replaced(pos, value)
            if closes:
                total += p * (closing_value(exact_sum_after(col, cells)) - now)
            else:
                total += p * (col_value(cells) - before)
        return total if card is not None else total - (bot.reveal_bonus if future else 0.0)

    def denial(card: int) -> float:
        if not future:
            return 0.0
        other = (seat + 1) % state.n
        best = mean - card if state.down[other] & state.present[other] else 0.0
        for p in MASK_POSITIONS[state.present[other] & ~state.down[other]]:
            best = max(best, state.cards[other * SLOTS + p] - card)
        for col in range(COLS):
            cells = column(other, col)
            if cells is not None and card >= 1 and cells.count(card) == 2:
                best = max(best, 3 * card)
        return bot.deny_weight * max(0.0, best - bot.deny_free)

    def options(card: int, drawn: bool) -> list[tuple[float, int]]:
        ranked = []
        for pos in MASK_POSITIONS[state.present[seat]]:
            delta = option_value(pos, card)
            if not state.down[seat] >> pos & 1:
                delta += denial(state.cards[seat * SLOTS + pos])
            ranked.append((delta, EXCHANGE + pos))
        if drawn:
            for pos in MASK_POSITIONS[state.down[seat] & state.present[seat]]:
                ranked.append((option_value(pos, None) + denial(card), DISCARD_AND_REVEAL + pos))
        return sorted(ranked)

    if state.phase == TURN:
        take = options(state.discard[-1], False)[0][0]
        draw = 0.0
        for value, p in probs:
            draw += p * options(value, True)[0][0]
        return sorted([(take + bot.take_margin, TAKE_DISCARD), (draw, DRAW)])
    assert state.hand is not None
    return options(state.hand, state.phase == DRAWN)


def _positions(players: int, seed: int, **options: bool) -> list[SkyjoState]:
    """Every position after set-up with a choice, in one seeded game of ``hard`` players."""
    state = GAME.new_state(SkyjoRules(players=players, end_score=25, **options), seed)
    assert isinstance(state, SkyjoState)
    bots = [HardBot() for _ in range(players)]
    rngs = [bot_rng(seed, s) for s in range(players)]
    positions = []
    while not state.is_over:
        if state.phase != SETUP and len(state.legal_actions()) > 1:
            positions.append(state.clone())
        state.apply_action(bots[state.player].choose(state, rngs[state.player]))
    return positions


BOTS = {
    "default": HardBot(),
    "other weights": HardBot(
        pair_weight=0.5, deny_weight=0.4, deny_free=0.0, close_weight=0.0, patience=3.0
    ),
}


@pytest.mark.parametrize(("players", "seed"), [(2, 1), (3, 2), (4, 3)])
@pytest.mark.parametrize("name", sorted(BOTS))
def test_ranked_equals_the_reference(players: int, seed: int, name: str) -> None:
    bot = BOTS[name]
    positions = _positions(players, seed)
    assert {p.phase for p in positions} >= {TURN, DRAWN}
    assert any(p.closer is not None for p in positions)  # final turns are covered
    for state in positions:
        assert bot.ranked(state) == _reference_ranked(bot, state)


def test_ranked_equals_the_reference_without_doubling() -> None:
    bot = HardBot()
    for state in _positions(3, 4, closer_doubling=False)[::3]:
        assert bot.ranked(state) == _reference_ranked(bot, state)


@pytest.mark.parametrize(("players", "seed"), [(2, 5), (4, 6)])
def test_unseen_counts_equal_a_recount_of_the_view(players: int, seed: int) -> None:
    for state in _positions(players, seed)[::5]:
        seat = state.player
        view = state.view(seat)
        seen = Counter(c for grid in view["grids"] for c in grid if c is not None)
        seen.update(view["discard"])
        if view["hand"] is not None:
            seen[view["hand"]] += 1
        model = _Model(state, seat, HardBot())
        assert {v: model.counts[v - LOWEST] for v in DECK_COUNTS} == {
            v: DECK_COUNTS[v] - seen[v] for v in DECK_COUNTS
        }
        assert model.pool == view["draw_count"] + sum(
            (state.down[o] & state.present[o]).bit_count() for o in range(state.n)
        )
