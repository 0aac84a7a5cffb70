"""The judge's benchmark positions: blunders of known kinds, and strong players' moves.

Positions come from seeded games of ``hard`` in every seat (engine snapshots: the
state just before a decision). At each one a filter looks for a move of a kind a
strong player never makes; a position keeps one blunder (the first kind found), and
a game gives at most one blunder of each kind per round, so the set spreads over
many deals. Every position is a real state of the engine, replayable from its rules,
seed and moves (:attr:`Position.actions`).

Skyjo kinds (:data:`SKYJO_KINDS`):

- ``high_over_low``: a drawn card of 8 or more put over a face-up card of 0 or less
  (the column holding no other card of the drawn value, so nothing is completed);
- ``bury_low``: the discard taken (a card of 7 or more on the pile; the snapshot is
  taken after the take) and put over a face-up card of 0 or less, which goes to the
  discard pile for the next player;
- ``close_behind``: turning up the last face-down card, which closes the round, while
  the seat's face-up sum is 10 or more and at least 8 above the lowest rival's
  expected grid (its face-up sum and 5 for each of its face-down cards): the doubling.

Skip-Bo kinds (:data:`SKIPBO_KINDS`), 2 players, late in a round still open (no stock
above :data:`SKIPBO_LATE` cards, the mover's fitted chance to win between 0.2 and
0.8), each a move ``hard`` values at least :data:`SKIPBO_MARGIN` below its best. Each
kind is a move that costs the mover a stock card, or the opponent one, outright, and is
taken where that card weighs in the race (one stock card is worth less of the chance to
win the longer the stocks and the further behind the mover):

- ``discard_with_stock``: a discard (the one ``hard`` ranks best) while the stock top
  plays now at no cost (onto a building pile that then needs none of the opponent's
  cards in sight: their stock top, their discard piles' tops), the mover at most
  :data:`SKIPBO_BEHIND` stock cards behind: the stock card waits a turn, and the
  opponent may build past it meanwhile;
- ``bury_bridge``: a discard of a numbered card that covers the top of a discard pile
  the mover needs to reach the stock top, where the mover's cards in sight (hand,
  Skip-Bo cards, discard tops) bridge a building pile to the stock top but for at most
  one card, and the same card could go onto another discard pile burying nothing of it;
- ``wild_for_nothing``: a Skip-Bo card from the hand onto a building pile, the pile then
  needing neither stock top, while the stock top does not play yet but the mover's cards
  with that Skip-Bo card would bridge a pile to it this turn, and without it cannot;
- ``gift_stock``: a card from the hand that makes a building pile need the opponent's
  stock top (which no pile needed), their stock at most :data:`SKIPBO_SHORT` cards and
  their discard piles showing neither the card below it nor a Skip-Bo card, while the
  mover cannot reach its own stock top this turn and the play does not open it.

``strong_moves`` gives the moves of ``hard`` (or any bot) at every decision with a real
choice of whole seeded games, the false alarms' denominator.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ..bots import make_bot
from ..bots.review import has_choice
from ..bots.skipbo_hard_values import move_values
from ..bots.skipbo_value import win_chance
from ..core import GameState, Rng
from ..games import get_game
from ..skipbo.moves import DISCARD_BASE, STOCK_BASE
from ..skipbo.state import SkipBoState
from ..skyjo.moves import DISCARD_AND_REVEAL, EXCHANGE, TAKE_DISCARD
from ..skyjo.state import DRAWN, TAKEN, TURN, SkyjoState

SKYJO_KINDS = ("high_over_low", "bury_low", "close_behind")
SKIPBO_KINDS = ("discard_with_stock", "bury_bridge", "wild_for_nothing", "gift_stock")
KINDS = {"skyjo": SKYJO_KINDS, "skipbo": SKIPBO_KINDS}
SLOTS = 12
COLS = 4
#: Skip-Bo blunders are taken where no stock holds more than this many cards: earlier
#: in a round of 30-card stocks one stock card is worth 2 to 3 points of the chance to
#: win, so these moves cost less than the coach's threshold of 5 (measured by
#: ``python -m lab coach_judge skipbo --early``).
SKIPBO_LATE = 10
#: How far below its best move ``hard`` values a Skip-Bo blunder at least (its values
#: are plays' line values, a stock card about 1,000; a discard's score below the best).
SKIPBO_MARGIN = 1.0
#: ``discard_with_stock``: the most stock cards the mover may be behind the opponent.
SKIPBO_BEHIND = 2
#: ``gift_stock``: the most cards the opponent's stock may hold.
SKIPBO_SHORT = 5
_MASK = (1 << 63) - 1


@dataclass(frozen=True)
class Position:
    """One decision: the state before it (a snapshot of the engine), who moves, the
    move judged, and for a blunder its kind (``None``: a strong player's move)."""

    game: str
    seed: int
    actions: tuple[int, ...]
    """The moves of the game before the decision (the state replays from them)."""
    seat: int
    action: int
    kind: str | None

    def state(self, rules: Any = None) -> GameState[Any]:
        game = get_game(self.game)
        rules = rules or game.rules_from_json({})
        return game.replay(rules, self.seed, list(self.actions))


def _games(game_name: str, seed: int, bot: str = "hard") -> Iterator[tuple[int, GameState[Any]]]:
    """Seeded games of ``bot`` in every seat, move by move: (deal seed, state before
    each move), the state changed in place after each yield."""
    game = get_game(game_name)
    rules = game.rules_from_json({})
    deal = seed
    while True:
        state = game.new_state(rules, deal)
        bots = [make_bot(game_name, bot) for _ in range(state.num_players)]
        rng = Rng((deal * 7_919 + 1) & _MASK)
        while not state.is_over:
            yield deal, state
            seat = state.current_player
            assert seat is not None
            state.apply_action(bots[seat].choose(state, rng))
        deal += 1


def _column_mates(pos: int) -> list[int]:
    return [p for p in range(pos % COLS, SLOTS, COLS) if p != pos]


def _face_up_low(state: SkyjoState, seat: int, card: int) -> int | None:
    """A face-up place of ``seat`` holding 0 or less whose column holds no other
    ``card`` (so the exchange completes nothing), or None."""
    up = state.present[seat] & ~state.down[seat]
    for pos in range(SLOTS):
        if up >> pos & 1 and state.cards[seat * SLOTS + pos] <= 0:
            mates = [
                state.cards[seat * SLOTS + p]
                for p in _column_mates(pos)
                if state.present[seat] >> p & 1 and not state.down[seat] >> p & 1
            ]
            if card not in mates:
                return pos
    return None


def _expected_grid(state: SkyjoState, seat: int) -> int:
    return state.face_up_sum(seat) + 5 * (state.down[seat] & state.present[seat]).bit_count()


def _skyjo_blunder(state: SkyjoState) -> tuple[str, GameState[Any], int] | None:
    seat = state.player
    if state.phase == DRAWN and state.hand is not None and state.hand >= 8:
        down = state.down[seat] & state.present[seat]
        if down.bit_count() == 1 and state.closer is None:
            rivals = min(_expected_grid(state, s) for s in range(state.n) if s != seat)
            own = state.face_up_sum(seat)
            if own >= 10 and own >= rivals + 8:
                return "close_behind", state, DISCARD_AND_REVEAL + down.bit_length() - 1
        pos = _face_up_low(state, seat, state.hand)
        if pos is not None:
            return "high_over_low", state, EXCHANGE + pos
    if state.phase == TURN and state.discard and state.discard[-1] >= 7:
        pos = _face_up_low(state, seat, state.discard[-1])
        if pos is not None:
            taken = state.clone()
            taken.apply_action(TAKE_DISCARD)
            assert taken.phase == TAKEN
            return "bury_low", taken, EXCHANGE + pos
    return None


def _needs(state: SkipBoState) -> list[int]:
    return [len(pile) + 1 for pile in state.building]


def skipbo_blunder(
    state: SkipBoState, late: int = SKIPBO_LATE
) -> tuple[str, GameState[Any], int] | None:
    """A blunder of ``state``'s mover: a move of one of :data:`SKIPBO_KINDS` that
    ``hard`` values at least :data:`SKIPBO_MARGIN` below its best move (or not at all),
    in a round still open (the mover's fitted chance to win between 0.2 and 0.8)."""
    seat = state.current
    if max(len(stock) for stock in state.stocks) > late or state.n != 2:
        return None
    legal = state.legal_actions()
    if len(legal) < 2 or not 0.2 <= win_chance(state, seat) <= 0.8:
        return None
    values = move_values(state)
    if not values:
        return None
    best = max(values.values())
    for kind, action in _skipbo_kinds(state, seat, legal, values):
        if values.get(action, -math.inf) <= best - SKIPBO_MARGIN:
            return kind, state, action
    return None


def _missing(need: int, top: int, hand: list[int], tops: list[int | None]) -> int:
    """The cards of ``need`` up to ``top - 1`` (a building pile's run to the stock top)
    that ``hand`` (counts by card, Skip-Bo cards at 0) and the discard ``tops`` (each
    once) cannot give."""
    left = hand[:]
    spare = [t for t in tops if t is not None]
    missing = 0
    for card in range(need, top):
        if left[card]:
            left[card] -= 1
        elif card in spare:
            spare.remove(card)
        elif left[0]:
            left[0] -= 1
        elif 0 in spare:
            spare.remove(0)
        else:
            missing += 1
    return missing


def _reach(needs: list[int], top: int | None, hand: list[int], tops: list[int | None]) -> float:
    """The fewest cards the mover lacks to play the stock ``top`` this turn, over the
    building piles below it (0: it plays this turn; inf: no pile is below it)."""
    if top is None or top == 0:
        return 0.0 if top == 0 else math.inf
    runs = [_missing(need, top, hand, tops) for need in needs if need <= top]
    return float(min(runs)) if runs else math.inf


def _skipbo_kinds(
    state: SkipBoState, seat: int, legal: list[int], values: dict[int, float]
) -> Iterator[tuple[str, int]]:
    """Each kind's move in ``state``, if it has one, in the order of :data:`SKIPBO_KINDS`."""
    stock = state.stocks[seat]
    top = stock[-1] if stock else None
    needs = _needs(state)
    own_plays = top is not None and (top == 0 or top in needs)
    other = 1 - seat
    theirs = state.stocks[other][-1] if state.stocks[other] else None
    their_tops = {pile[-1] for pile in state.discards[other] if pile}
    in_sight = {theirs} | their_tops
    hand = state.hands[seat]
    tops: list[int | None] = [pile[-1] if pile else None for pile in state.discards[seat]]
    discards = [a for a in legal if DISCARD_BASE <= a < DISCARD_BASE + 52]
    free = own_plays and any(top in (0, need) and need + 1 not in in_sight for need in needs)
    close = len(stock) <= len(state.stocks[other]) + SKIPBO_BEHIND
    if free and close and discards:
        yield "discard_with_stock", max(discards, key=lambda a: (values.get(a, -1e18), -a))
    reach = _reach(needs, top, hand, tops)
    if not own_plays and reach <= 1 and discards:
        # A Skip-Bo card on a discard pile is still one to play: it buries nothing.
        numbers = [a for a in discards if a >= DISCARD_BASE + 4]
        yield from _bury_bridge(needs, top, hand, tops, numbers, reach)
    if not own_plays and reach == 0 and hand[0]:
        for action in legal:
            if action < 4:  # a Skip-Bo card from the hand onto building pile ``action``
                after = needs[:]
                after[action] += 1
                spent = hand[:]
                spent[0] -= 1
                if after[action] not in (top, theirs) and _reach(after, top, spent, tops) > 0:
                    yield "wild_for_nothing", action
                    break
    # A gift the opponent could make themselves (the card below their stock top or a
    # Skip-Bo card on their discard piles) gives nothing; nor does one on the mover's own
    # way to its stock this turn (the mover builds past the opponent's card).
    short = len(state.stocks[other]) <= SKIPBO_SHORT and reach >= 1
    bridged = theirs is None or bool(their_tops & {0, theirs - 1})
    if theirs is not None and theirs > 1 and theirs not in needs and short and not bridged:
        for action in legal:
            if 4 <= action < STOCK_BASE:
                card, pile = divmod(action, 4)
                if needs[pile] == card and card + 1 == theirs and top != card + 1:
                    yield "gift_stock", action
                    break


def _bury_bridge(
    needs: list[int],
    top: int | None,
    hand: list[int],
    tops: list[int | None],
    discards: list[int],
    reach: float,
) -> Iterator[tuple[str, int]]:
    """A discard that leaves the stock top further out of reach than the same card onto
    another discard pile would."""

    def reach_after(action: int) -> float:
        card, index = divmod(action - DISCARD_BASE, 4)
        left = hand[:]
        left[card] -= 1
        covered = tops[:]
        covered[index] = card
        return _reach(needs, top, left, covered)

    after = {action: reach_after(action) for action in discards}
    for action in discards:
        card = (action - DISCARD_BASE) // 4
        harmless = [
            other
            for other in discards
            if (other - DISCARD_BASE) // 4 == card and after[other] <= reach
        ]
        if after[action] > reach and harmless:
            yield "bury_bridge", action
            return


Finder = Callable[[Any], tuple[str, GameState[Any], int] | None]
_FINDERS: dict[str, Finder] = {"skyjo": _skyjo_blunder, "skipbo": skipbo_blunder}


def blunders(
    game_name: str, per_kind: int, seed: int = 0, late: int = SKIPBO_LATE
) -> list[Position]:
    """``per_kind`` blunders of each kind of ``game_name``, from seeded ``hard`` games
    (deal seeds from ``seed`` up), in the order found (Skip-Bo: where no stock holds
    more than ``late`` cards)."""
    finder = _FINDERS[game_name]
    if game_name == "skipbo":
        finder = functools.partial(skipbo_blunder, late=late)
    kinds = KINDS[game_name]
    found: dict[str, list[Position]] = {kind: [] for kind in kinds}
    taken: set[tuple[int, int, str]] = set()  # (deal, round, kind): one per round
    for deal, state in _games(game_name, seed):
        if all(len(items) >= per_kind for items in found.values()):
            break
        if deal > seed + 200 * per_kind:
            break  # a kind too rare to fill: return what was found
        seat = state.current_player
        if seat is None or not has_choice(state, seat):
            continue
        hit = finder(state)
        if hit is None:
            continue
        kind, snapshot, action = hit
        key = (deal, len(state.rounds()), kind)
        if key in taken or len(found[kind]) >= per_kind:
            continue
        if not has_choice(snapshot, seat):
            continue
        taken.add(key)
        found[kind].append(Position(game_name, deal, tuple(snapshot.history), seat, action, kind))
    return [position for kind in kinds for position in found[kind]]


def strong_moves(
    game_name: str, count: int, seed: int = 0, bot: str = "hard", every: int = 1
) -> list[Position]:
    """``count`` moves of ``bot`` (in every seat of seeded games, deal seeds from
    ``seed``) at decisions with a real choice, every ``every``-th such decision."""
    moves: list[Position] = []
    seen = 0
    game = get_game(game_name)
    rules = game.rules_from_json({})
    deal = seed
    while len(moves) < count:
        state = game.new_state(rules, deal)
        bots = [make_bot(game_name, bot) for _ in range(state.num_players)]
        rng = Rng((deal * 7_919 + 1) & _MASK)
        while not state.is_over and len(moves) < count:
            seat = state.current_player
            assert seat is not None
            action = bots[seat].choose(state, rng)
            if has_choice(state, seat):
                if seen % every == 0:
                    moves.append(
                        Position(game_name, deal, tuple(state.history), seat, action, None)
                    )
                seen += 1
            state.apply_action(action)
        deal += 1
    return moves


def random_game_decisions(game_name: str, count: int, seed: int = 0) -> list[Position]:
    """``count`` decisions of seat 0 playing random legal moves against ``hard`` (one
    seeded game after another), every decision with a real choice."""
    moves: list[Position] = []
    game = get_game(game_name)
    rules = game.rules_from_json({})
    deal = seed
    while len(moves) < count:
        state = game.new_state(rules, deal)
        hard = make_bot(game_name, "hard")
        rng = Rng((deal * 7_919 + 1) & _MASK)
        while not state.is_over and len(moves) < count:
            seat = state.current_player
            assert seat is not None
            if seat == 0:
                legal = state.legal_actions()
                action = legal[rng.below(len(legal))]
                if has_choice(state, seat):
                    moves.append(
                        Position(game_name, deal, tuple(state.history), seat, action, None)
                    )
            else:
                action = hard.choose(state, rng)
            state.apply_action(action)
        deal += 1
    return moves
