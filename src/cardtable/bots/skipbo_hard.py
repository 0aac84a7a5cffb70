"""Skip-Bo ``naive`` and ``hard`` bots.

``naive`` is the reference player of the published comparisons: it makes any
legal play while one is left, then discards a random card.

``hard`` plans the whole turn. At every decision it searches the sequences of
plays open to it (hand cards, the own stock top and the tops of the own discard
piles onto the building piles, each discard pile revealing the card beneath),
ending a line when the stock is played (the next stock card is unknown) or the
hand is emptied (five unknown cards are drawn). Each end of a line is valued:
stock progress first, then emptying the hand, clearing discard piles, keeping
Skip-Bo cards, and what the building piles then offer the next players (a pile
that needs an opponent's stock top is a gift). It makes the first play of the
best line when that line beats stopping now, else it discards: Skip-Bo cards
last, onto the pile that keeps the discard piles in descending runs.

A frozen table is the exception: when nothing is left to draw and a whole round of
turns has passed without a build, every player's careful wait keeps it frozen until
the round is blocked with no winner (seen in team play, where all four ended their
turns beside a 12 that would have completed a pile). Then ``hard`` builds whenever it
can, the best build by its own valuation, since only a build can bring cards back.

Information: the bot reads its own hand, every stock's top card and size, every
discard pile and the building piles, all of which ``state.view(seat)`` shows.
It never reads a stock card below the top, another hand or the draw pile.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..core import GameState, Rng
from ..skipbo.moves import DISCARD_BASE, DISCARD_PLAY_BASE, END_TURN, STOCK_BASE
from ..skipbo.state import SkipBoState

_WILD = 0
_STOCK = -1  # source code of the stock in a planned play
_NODE_LIMIT = 1500


@dataclasses.dataclass(frozen=True)
class PlanWeights:
    """What ``hard``'s planner gives the end of a planned line (docs/bots.md).

    A line that plays the stock is worth ``stock_played``, one that empties the hand
    ``hand_emptied``; each Skip-Bo card it uses costs ``wild_used``, each card it plays
    from a discard pile or the hand earns ``from_discard`` or ``from_hand``. A building
    pile left ``gap`` cards short of an opponent's stock top costs ``gift`` times
    ``gift_by_gap[gap]`` (0: the stock top fits right now), the next player weighing
    most. :data:`HARD_WEIGHTS` are the ones ``hard`` plays with.
    """

    stock_played: float = 1000.0
    hand_emptied: float = 14.0
    wild_used: float = 9.0
    from_discard: float = 2.5
    from_hand: float = 1.0
    gift: float = 45.0
    gift_by_gap: tuple[float, ...] = (1.0, 0.45, 0.22, 0.1, 0.04)

    def gift_chance(self, gap: int) -> float:
        """The weight of a building pile ``gap`` cards short of a stock top (0 past the table)."""
        return self.gift_by_gap[gap] if 0 <= gap < len(self.gift_by_gap) else 0.0


#: The weights ``hard`` plays with.
HARD_WEIGHTS = PlanWeights()


class NaiveBot:
    """Plays any legal play until none is left, then discards a random card."""

    name = "naive"

    def choose(self, state: GameState[Any], rng: Rng) -> int:
        legal = state.legal_actions()
        plays = [a for a in legal if a < DISCARD_BASE]
        if plays:
            return plays[rng.below(len(plays))]
        if END_TURN in legal:
            return END_TURN
        return legal[rng.below(len(legal))]


def _nexts(state: SkipBoState) -> list[int]:
    """The number each building place needs next (1 for an empty place)."""
    return [len(pile) + 1 for pile in state.building]


class TurnPlanner:
    """Depth-first search over the plays of one turn, on an abstract copy of the position.

    ``TurnPlanner(state, seat, weights).search()`` returns the best line's value and its
    first play. A line's end is valued by :meth:`value`: the :class:`PlanWeights` of the
    plays made, minus :meth:`danger` (what the building piles then offer the opponents'
    stock tops), plus :meth:`prospects` (how close they come to the own stock top) when
    the line stops before the stock is played or the hand emptied. Subclasses may
    override :meth:`danger` and :meth:`prospects` (which read :attr:`nexts`, the number
    each building pile needs at the end of the line, and :attr:`threats`) and
    :meth:`record`, which sees every line end that beats the best so far (every line
    end when :attr:`sees_every_end` is set, as a planner that values each first play
    needs: stopping partway is otherwise recorded only when it is a new best). After the search,
    :attr:`best_line` holds the best line's plays and :attr:`best_stops` whether they are
    the whole turn (a discard follows) or end with cards revealed (a stock play, an
    emptied hand). A play is ``(source, card needed)``: the source is the stock (-1), a
    discard pile counted from 1, or a hand card as ``-2 - card``
    (:func:`plan_step_action` turns it into an action code).
    """

    sees_every_end = False

    def __init__(self, state: SkipBoState, seat: int, weights: PlanWeights = HARD_WEIGHTS) -> None:
        self.weights = weights
        self.hand = state.hands[seat][:]
        self.discards = state.discards[seat]
        self.depths = [len(pile) for pile in self.discards]
        stock = state.stocks[seat]
        self.stock_top = stock[-1] if stock else None
        self.stock_size = len(stock)
        self.nexts = _nexts(state)
        self.can_draw = bool(state.draw or state.completed)
        # Opponents' stock tops, the next player weighing most.
        self.threats: list[tuple[int, float]] = []
        n = state.n
        team = set(state.rules.team(seat))
        for step in range(1, n):
            other = (seat + step) % n
            if other in team or not state.stocks[other]:
                continue
            weight = 1.0 if not self.threats else 0.5
            self.threats.append((state.stocks[other][-1], weight))
        self.nodes = 0
        self.seen: set[tuple[object, ...]] = set()
        # danger() + prospects() depend only on the multiset of needs; searches revisit them often.
        self.outlook: dict[tuple[int, ...], tuple[float, float]] = {}
        self.best_score = -1e18
        self.best_first: tuple[int, int] | None = None
        # The plays of the best line so far, and whether they are all the turn's plays
        # (True: nothing is revealed, a discard follows; False: the line ends with a stock
        # play or an emptied hand, which reveals cards, so the turn is planned again).
        self.path: list[tuple[int, int]] = []
        self.best_line: tuple[tuple[int, int], ...] = ()
        self.best_stops = True

    # --- evaluation --------------------------------------------------------
    def danger(self) -> float:
        """What the building piles (:attr:`nexts`) offer the opponents' stock tops."""
        by_gap = self.weights.gift_by_gap
        size = len(by_gap)
        total = 0.0
        for top, weight in self.threats:
            if top == _WILD:
                continue
            worst = 0.0
            for need in self.nexts:
                gap = top - need
                if 0 <= gap < size:
                    worst = max(worst, by_gap[gap])
            total += weight * worst
        return self.weights.gift * total

    def prospects(self) -> float:
        """How close the building piles come to the own stock top (for the next turn)."""
        top = self.stock_top
        if top is None or top == _WILD:
            return 0.0
        best = min((top - need for need in self.nexts if need <= top), default=99)
        return {0: 6.0, 1: 3.0, 2: 1.5}.get(best, 0.0)

    def value(self, wilds: int, from_discard: int, from_hand: int, ended: int) -> float:
        """The value of the line's end: ``wilds`` Skip-Bo cards used, cards played from
        the discard piles and the hand, ``ended`` 1 with the stock played, 2 with the
        hand emptied, 0 stopping before."""
        return self._value(tuple(sorted(self.nexts)), wilds, from_discard, from_hand, ended)

    def _value(
        self, key: tuple[int, ...], wilds: int, from_discard: int, from_hand: int, ended: int
    ) -> float:
        outlook = self.outlook.get(key)
        if outlook is None:
            outlook = self.outlook[key] = (self.danger(), self.prospects())
        danger, prospects = outlook
        w = self.weights
        score = (
            -w.wild_used * wilds + w.from_discard * from_discard + w.from_hand * from_hand
        ) - danger
        if ended == 1:
            return w.stock_played + score
        if ended == 2:
            return score + w.hand_emptied
        return score + prospects

    # --- search --------------------------------------------------------------
    def search(self) -> tuple[float, tuple[int, int] | None]:
        """Best value of a line and its first play ``(source, need)``; None means stop now."""
        self._dfs(None, 0, 0, 0)
        return self.best_score, self.best_first

    def record(
        self, score: float, first: tuple[int, int] | None, last: tuple[int, int] | None = None
    ) -> None:
        """A line end valued ``score``: the line starts with ``first`` (None: stop now)
        and, unless it stops, ends with ``last``; keeps the best."""
        if score > self.best_score:
            self.best_score, self.best_first = score, first
            self.best_line = (*self.path, last) if last else tuple(self.path)
            self.best_stops = last is None

    def _dfs(self, first: tuple[int, int] | None, wilds: int, from_d: int, from_h: int) -> None:
        self.nodes += 1
        nexts = self.nexts
        ordered = tuple(sorted(nexts))
        score = self._value(ordered, wilds, from_d, from_h, 0)
        if score > self.best_score or self.sees_every_end:
            self.record(score, first)
        if self.nodes > _NODE_LIMIT:
            return
        key = (tuple(self.hand), ordered, tuple(self.depths))
        if key in self.seen:
            return
        self.seen.add(key)
        needs = sorted(set(ordered))
        stock = self.stock_top
        if stock is not None:
            for need in needs if stock == _WILD else ([stock] if stock in nexts else []):
                move = (_STOCK, need)
                self._play(need)
                score = self.value(wilds, from_d, from_h, 1)
                self._unplay(need)
                self.record(score, first or move, move)
        # Discard pile tops.
        for index in range(4):
            depth = self.depths[index]
            if not depth:
                continue
            card = self.discards[index][depth - 1]
            for need in needs if card == _WILD else ([card] if card in nexts else []):
                self.depths[index] -= 1
                self._play(need)
                self.path.append((index + 1, need))
                self._dfs(first or (index + 1, need), wilds + (card == _WILD), from_d + 1, from_h)
                self.path.pop()
                self._unplay(need)
                self.depths[index] += 1
        # Hand cards, numbered before wild. A numbered card fits only the piles that
        # need it, so the needs (ascending) are the numbered cards worth looking at.
        hand = self.hand
        for card in (*needs, _WILD):
            if not hand[card]:
                continue
            for need in needs if card == _WILD else (card,):
                hand[card] -= 1
                self._play(need)
                move = (-2 - card, need)
                if not any(hand) and self.can_draw:
                    score = self.value(wilds + (card == _WILD), from_d, from_h + 1, 2)
                    self.record(score, first or move, move)
                else:
                    self.path.append(move)
                    self._dfs(first or move, wilds + (card == _WILD), from_d, from_h + 1)
                    self.path.pop()
                self._unplay(need)
                hand[card] += 1

    def _play(self, need: int) -> None:
        nexts = self.nexts
        i = nexts.index(need)
        nexts[i] = 1 if need == 12 else need + 1

    def _unplay(self, need: int) -> None:
        nexts = self.nexts
        i = nexts.index(1 if need == 12 else need + 1)
        nexts[i] = need


Decision = tuple[int, "TurnPlanner | None"]
"""A move of ``hard``'s and the planner whose best line it starts (None for a discard)."""


def frozen(state: SkipBoState) -> bool:
    """Nothing is left to draw and a whole round of turns passed without a build."""
    return not state.draw and not state.completed and state.idle >= state.n


def position_key(state: SkipBoState) -> tuple[object, ...]:
    """Everything ``hard``'s decision reads, so that equal keys get equal decisions.

    The mover's hand and discard piles, the needs of the building piles, every
    stock's top (None when empty; the stocks' sizes and the other discard piles do
    not change the decision), whether cards can still be drawn, and on a frozen table
    (:func:`frozen`) the partner's discard piles, which its builds may use.
    """
    seat = state.current
    partner = state.partners[seat]
    still = frozen(state)
    return (
        seat,
        tuple(state.hands[seat]),
        tuple(tuple(pile) for pile in state.discards[seat]),
        tuple(len(pile) for pile in state.building),
        tuple(stock[-1] if stock else None for stock in state.stocks),
        bool(state.draw or state.completed),
        still,
        tuple(tuple(pile) for pile in state.discards[partner])
        if still and partner is not None
        else (),
    )


def plan_step_action(state: SkipBoState, first: tuple[int, int]) -> int:
    """The action code of one step of a plan: ``(source, card needed)`` played onto the
    building pile that needs that card now (the source is the stock, a discard pile
    counted from 1, or a hand card as ``-2 - card``)."""
    source, need = first
    pile = _nexts(state).index(need)
    if source == _STOCK:
        return STOCK_BASE + pile
    if source > 0:
        return DISCARD_PLAY_BASE + (source - 1) * 4 + pile
    card = -2 - source
    return card * 4 + pile


class HardBot:
    """Plans the turn by search, stock first; see the module docstring.

    ``memo``, when given, keeps each decision by :func:`position_key`, so that
    positions met again are not searched again. Monte-Carlo rollouts of close moves
    on the same re-deal meet the same positions often (more than half of the
    decisions of an ``expert`` search); the moves are the same with or without it.
    Bots sharing one memo must share the rules, and the memo grows with every new
    position, so it is meant for one search, not a whole game.

    ``planner`` and ``weights`` make variants of ``hard`` (the experiments of
    docs/bots.md): the :class:`TurnPlanner` subclass that plans each turn and the
    :class:`PlanWeights` it values lines with.
    """

    name = "hard"

    def __init__(
        self,
        memo: dict[tuple[object, ...], Decision] | None = None,
        *,
        planner: type[TurnPlanner] = TurnPlanner,
        weights: PlanWeights = HARD_WEIGHTS,
    ) -> None:
        self.memo = memo
        self.planner = planner
        self.weights = weights

    def choose(self, state: GameState[Any], rng: Rng) -> int:
        if not isinstance(state, SkipBoState):
            raise TypeError("the Skip-Bo hard bot plays Skip-Bo states only")
        return self._decide(state)[0]

    def _decide(self, state: SkipBoState) -> Decision:
        """The move, and the planner whose best line it starts (None for a discard)."""
        memo = self.memo
        if memo is None:
            return self._search(state)
        key = position_key(state)
        decision = memo.get(key)
        if decision is None:
            decision = memo[key] = self._search(state)
        return decision

    def _search(self, state: SkipBoState) -> Decision:
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0], None
        seat = state.current
        # A partner's stock (team play) is always worth playing.
        partner_stock = [a for a in legal if STOCK_BASE + 4 <= a < DISCARD_PLAY_BASE]
        if partner_stock:
            return partner_stock[0], None
        planner = self.planner(state, seat, self.weights)
        _, first = planner.search()
        if first is not None:
            action = plan_step_action(state, first)
            if action in legal:
                return action, planner
        if frozen(state):
            builds = [a for a in legal if a < DISCARD_BASE]
            if builds:
                return self.unfreeze(state, builds), None
        if END_TURN in legal:
            return END_TURN, None
        return self.discard(state, seat, legal), None

    def unfreeze(self, state: SkipBoState, builds: list[int]) -> int:
        """The build worth most to the mover by the planner's valuation of what follows."""
        seat = state.current
        best, best_value = builds[0], -1e18
        for action in builds:
            after = state.clone()
            after.advance(action)
            if after.is_over or after.current != seat:
                return action  # it ends the round (a stock emptied) or the turn
            value, _ = self.planner(after, seat, self.weights).search()
            if value > best_value:
                best, best_value = action, value
        return best

    @staticmethod
    def discard(state: SkipBoState, seat: int, legal: list[int]) -> int:
        ranked = discard_options(state, seat, legal)
        return ranked[0][1] if ranked else legal[-1]


def discard_options(state: SkipBoState, seat: int, legal: list[int]) -> list[tuple[float, int]]:
    """The legal discards worth considering, best first, with the hard bot's scores.

    Skip-Bo cards are kept while a numbered card can go instead; a discard keeps
    the piles in descending runs (the card just below the top, or equal to it),
    uses an empty pile while another empty one remains, and buries a low top only
    as a last resort.
    """
    hand = state.hands[seat]
    piles = state.discards[seat]
    stock = state.stocks[seat]
    stock_top = stock[-1] if stock else None
    empties = sum(1 for pile in piles if not pile)
    numbers = [card for card in range(1, 13) if hand[card]]
    candidates = numbers or [_WILD]
    allowed = set(legal)
    ranked: list[tuple[float, int]] = []
    for card in candidates:
        for index, pile in enumerate(piles):
            action = DISCARD_BASE + card * 4 + index
            if action not in allowed:
                continue
            score = 0.05 * card  # rather part with high cards
            if hand[card] > 1:
                score += 0.6  # duplicates are the cheapest to give up
            if card == stock_top:
                score -= 0.4
            if not pile:
                score += 1.5 if empties > 1 else 0.3
            else:
                top = pile[-1]
                if top == card:
                    score += 2.2
                elif top == card + 1:
                    score += 3.0
                elif top == _WILD:
                    score -= 6.0
                elif top > card:
                    score += 1.0 - 0.25 * (top - card - 1)
                else:
                    # Burying a lower card breaks the run; worse the closer it is to use.
                    score -= 2.0 + 0.15 * (12 - top) + (3.0 if top == stock_top else 0.0)
                score -= 0.05 * len(pile)
            ranked.append((score, action))
    ranked.sort(key=lambda item: (-item[0], item[1]))
    return ranked


class PlanFollowingBot(HardBot):
    """``hard`` that plays out its planned line instead of planning again after each play.

    A line stops where cards would be revealed (a stock play, an emptied hand), so
    nothing new is known until it ends and following it is what planning again
    would mostly choose. About as strong as ``hard`` (50.0% of 1,000 paired games
    against it at stock 20 and at stock 30) and several times cheaper, which is
    what Monte-Carlo rollouts need.
    """

    name = "hard-plan"

    def __init__(self, memo: dict[tuple[object, ...], Decision] | None = None) -> None:
        super().__init__(memo)
        self._state: SkipBoState | None = None
        self._expected = -1
        self._plan: list[tuple[int, int]] = []
        self._stops = False

    def choose(self, state: GameState[Any], rng: Rng) -> int:
        if not isinstance(state, SkipBoState):
            raise TypeError("the Skip-Bo hard bot plays Skip-Bo states only")
        if self._state is state and self._expected == len(state.history):
            if self._plan:
                action = plan_step_action(state, self._plan.pop(0))
                if state.is_legal_action(action):
                    self._expected += 1
                    return action
            elif self._stops:
                self._state = None
                legal = state.legal_actions()
                return END_TURN if END_TURN in legal else self.discard(state, state.current, legal)
        action, planner = self._decide(state)
        self._state = None
        if planner is not None:
            self._state = state
            self._expected = len(state.history) + 1
            self._plan = list(planner.best_line[1:])
            self._stops = planner.best_stops
        return action
