"""The Skip-Bo game state: dealing, turns, plays, discards, rounds and scoring.

Hands are kept as counts per card value (index 0 is the Skip-Bo card) because
the order of cards in a hand means nothing. Piles are lists with their top at
the end. A building pile of ``k`` cards always counts up to ``k``, so the
number it needs next is ``len(pile) + 1``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any, ClassVar, Self

from ..core import (
    JSON,
    Event,
    Game,
    Outcome,
    Refusal,
    Result,
    Rng,
    RoundResult,
)
from . import refusals
from .cards import BUILDING_PILES, DISCARD_PILES, HAND_SIZE, HIGHEST, new_deck
from .events import (
    Built,
    Discarded,
    Drew,
    GameEnded,
    PileCompleted,
    Reshuffled,
    RoundDealt,
    RoundEnded,
    StockEmptied,
    StockRevealed,
    TurnPassed,
    TurnStarted,
)
from .moves import (
    DISCARD_BASE,
    DISCARD_PLAY_BASE,
    END_TURN,
    MOVES,
    STOCK_BASE,
    Discard,
    EndTurn,
    Move,
    PlayFromDiscard,
    PlayFromHand,
    PlayFromStock,
)
from .position import SkipBoPosition
from .rules import SkipBoRules
from .snapshot import state_from_json
from .view import build_view, build_views

#: Sheet 003's draw for the deal ranks a Skip-Bo card, which may stand for a 12, highest.
CUT_RANK = [13, *range(1, 13)]


def cut_for_deal(players: int, rng: Rng) -> list[list[tuple[int, int]]]:
    """Sheet 003: from a shuffled deck each seat in turn turns up a card and the highest
    deals; seats tied for the highest turn up again from the same deck until one is
    highest. Each pass is a list of (seat, card); the highest of the last pass deals."""
    deck: list[int] = []
    contenders = list(range(players))
    passes: list[list[tuple[int, int]]] = []
    while len(contenders) > 1:
        if len(deck) < len(contenders):
            deck = new_deck()
            rng.shuffle(deck)
        draws = [(seat, deck.pop()) for seat in contenders]
        passes.append(draws)
        best = max(CUT_RANK[card] for _, card in draws)
        contenders = [seat for seat, card in draws if CUT_RANK[card] == best]
    return passes


def dealer_of(cut: list[list[tuple[int, int]]]) -> int:
    """The seat that won sheet 003's draw for the deal."""
    return max(cut[-1], key=lambda entry: CUT_RANK[entry[1]])[0]


def _codes_by_mask(base: int) -> list[tuple[int, ...]]:
    """For each 4-bit mask of building piles, the action codes ``base + pile``."""
    return [tuple(base + p for p in range(BUILDING_PILES) if mask >> p & 1) for mask in range(16)]


# Lookup tables for legal_actions, indexed by [card] or [partner][...] and a pile mask.
_FITS_TEMPLATE = [0b1111] + [0] * 13  # a Skip-Bo card fits every pile; index 13 catches 12+1
_HAND_PLAYS = [_codes_by_mask(card * 4) for card in range(13)]
_STOCK_PLAYS = [_codes_by_mask(STOCK_BASE + partner * 4) for partner in (0, 1)]
_DISCARD_PLAYS = [
    [_codes_by_mask(DISCARD_PLAY_BASE + partner * 16 + index * 4) for index in range(4)]
    for partner in (0, 1)
]
_DISCARDS = [
    [tuple(DISCARD_BASE + partner * 52 + card * 4 + d for d in range(4)) for card in range(13)]
    for partner in (0, 1)
]


class SkipBoState(SkipBoPosition):
    """A Skip-Bo game in progress (one round, or a match of rounds to a target)."""

    game: ClassVar[Game[Any]]

    # ------------------------------------------------------------------ setup
    @classmethod
    def new(cls, rules: SkipBoRules, seed: int) -> SkipBoState:
        state = cls.blank(rules, seed)
        n = rules.players
        if rules.first_player is not None:
            state.starter = rules.first_player
        elif rules.high_card_deal:
            state.cut = cut_for_deal(n, state.rng)
            state.starter = (dealer_of(state.cut) + 1) % n
        else:
            state.starter = state.rng.below(n)
        state._deal(None)
        return state

    @classmethod
    def blank(cls, rules: SkipBoRules, seed: int) -> SkipBoState:
        """A state of ``rules`` and ``seed`` with nothing dealt and no starter chosen:
        what :meth:`new` deals into, and what the snapshot reader
        (:mod:`cardtable.skipbo.snapshot`) fills from a stored position. Not a playable
        position by itself."""
        if not isinstance(rules, SkipBoRules):
            raise TypeError(f"Skip-Bo needs SkipBoRules, got {type(rules).__name__}")
        state = object.__new__(cls)
        n = rules.players
        state.rules = rules
        state.seed = seed
        state.rng = Rng(seed)
        state.history = []
        state.n = n
        state.partners = tuple(rules.partner(seat) for seat in range(n))
        state.hands = [[0] * 13 for _ in range(n)]
        state.hand_sizes = [0] * n
        state.stocks = [[] for _ in range(n)]
        state.discards = [[[] for _ in range(DISCARD_PILES)] for _ in range(n)]
        state.building = [[] for _ in range(BUILDING_PILES)]
        state.draw = []
        state.completed = []
        state.current = 0
        state.round_index = 0
        state.starter = 0
        state.turns = 0
        state.idle = 0
        state.built = False
        state.scores = [0] * n
        state.round_log = []
        state.final = None
        state.cut = []
        return state

    def _deal(self, events: list[Event] | None) -> None:
        n, size = self.n, self.rules.stock
        deck = new_deck()
        self.rng.shuffle(deck)
        self.stocks = [deck[seat * size : (seat + 1) * size] for seat in range(n)]
        self.draw = deck[n * size :]
        self.hands = [[0] * 13 for _ in range(n)]
        self.hand_sizes = [0] * n
        self.discards = [[[] for _ in range(DISCARD_PILES)] for _ in range(n)]
        self.building = [[] for _ in range(BUILDING_PILES)]
        self.completed = []
        self.turns = 0
        self.idle = 0
        self.built = False
        if events is not None:
            tops = tuple(stock[-1] for stock in self.stocks)
            events.append(RoundDealt(self.round_index + 1, self.starter, tops))
        self._begin_turn(self.starter, events)

    # ------------------------------------------------------------- protocol
    @property
    def num_players(self) -> int:
        return self.n

    @property
    def current_player(self) -> int | None:
        return None if self.final is not None else self.current

    @property
    def is_over(self) -> bool:
        return self.final is not None

    def result(self) -> Result | None:
        return self.final

    def rounds(self) -> list[RoundResult]:
        return list(self.round_log)

    def legal_actions(self) -> list[int]:
        if self.final is not None:
            return []
        seat = self.current
        hand = self.hands[seat]
        # fits[card]: bit mask of the building piles that take ``card`` now.
        fits = _FITS_TEMPLATE[:]
        for pile, building in enumerate(self.building):
            fits[len(building) + 1] |= 1 << pile
        actions: list[int] = []
        held = [card for card in range(13) if hand[card]]
        for card in held:
            if fits[card]:
                actions += _HAND_PLAYS[card][fits[card]]
        partner = self.partners[seat]
        owners = (seat,) if partner is None else (seat, partner)
        for offset, owner in enumerate(owners):
            stock = self.stocks[owner]
            if stock and fits[stock[-1]]:
                actions += _STOCK_PLAYS[offset][fits[stock[-1]]]
        for offset, owner in enumerate(owners):
            plays = _DISCARD_PLAYS[offset]
            for index, discard in enumerate(self.discards[owner]):
                if discard and fits[discard[-1]]:
                    actions += plays[index][fits[discard[-1]]]
        if held:
            for card in held:
                actions += _DISCARDS[0][card]
            if partner is not None and self.rules.discard_to_partner:
                for card in held:
                    actions += _DISCARDS[1][card]
        else:
            actions.append(END_TURN)
        return actions

    def is_legal_action(self, action: int) -> bool:
        if self.final is not None:
            return False
        seat = self.current
        if action < STOCK_BASE:
            card, pile = divmod(action, 4)
            return self.hands[seat][card] > 0 and (
                card == 0 or len(self.building[pile]) == card - 1
            )
        if action >= END_TURN:
            return action == END_TURN and not self.hand_sizes[seat]
        if action < DISCARD_PLAY_BASE:
            relative = action - STOCK_BASE
            owner = self._owner_or_none(seat, relative >= 4)
            if owner is None or not self.stocks[owner]:
                return False
            card = self.stocks[owner][-1]
            return card == 0 or len(self.building[relative & 3]) == card - 1
        if action < DISCARD_BASE:
            relative = action - DISCARD_PLAY_BASE
            owner = self._owner_or_none(seat, relative >= 16)
            index, pile = divmod(relative & 15, 4)
            if owner is None or not self.discards[owner][index]:
                return False
            card = self.discards[owner][index][-1]
            return card == 0 or len(self.building[pile]) == card - 1
        relative = action - DISCARD_BASE
        if relative >= 52 and not (self.rules.discard_to_partner and self.rules.teams):
            return False
        return self.hands[seat][(relative % 52) // 4] > 0

    def _owner_or_none(self, seat: int, partner: bool) -> int | None:
        return self.partners[seat] if partner else seat

    def apply_unchecked(self, action: int) -> Outcome[Move]:
        seat = self.current
        events: list[Event] = []
        self._play(action, events)
        return Outcome(seat, MOVES[action], action, tuple(events))

    def _play(self, action: int, events: list[Event] | None = None) -> None:
        """The move itself, shared by :meth:`apply_unchecked` and :meth:`advance`.

        ``events`` is None on the fast path: every event is then neither built nor
        kept, and nothing else differs.
        """
        seat = self.current
        self.history.append(action)
        if action < STOCK_BASE:
            card, pile = divmod(action, 4)
            self.hands[seat][card] -= 1
            self.hand_sizes[seat] -= 1
            self._build(seat, "hand", seat, card, pile, events)
            if not self.hand_sizes[seat]:
                self._draw(seat, HAND_SIZE, events)
        elif action < DISCARD_PLAY_BASE:
            relative = action - STOCK_BASE
            owner = self._owner(seat, relative >= 4)
            stock = self.stocks[owner]
            self._build(seat, "stock", owner, stock.pop(), relative & 3, events)
            if stock:
                if events is not None:
                    events.append(StockRevealed(owner, stock[-1], len(stock)))
            else:
                if events is not None:
                    events.append(StockEmptied(owner))
                team = self.rules.team(owner)
                if not any(self.stocks[member] for member in team):
                    self._end_round(team, "stock emptied", events)
        elif action < DISCARD_BASE:
            relative = action - DISCARD_PLAY_BASE
            owner = self._owner(seat, relative >= 16)
            index, pile = divmod(relative & 15, 4)
            card = self.discards[owner][index].pop()
            self._build(seat, "discard", owner, card, pile, events)
        elif action < END_TURN:
            relative = action - DISCARD_BASE
            owner = self._owner(seat, relative >= 52)
            card, index = divmod(relative % 52, 4)
            self.hands[seat][card] -= 1
            self.hand_sizes[seat] -= 1
            self.discards[owner][index].append(card)
            if events is not None:
                events.append(Discarded(seat, owner, card, index))
            self._end_turn(events)
        else:
            if events is not None:
                events.append(TurnPassed(seat))
            self._end_turn(events)
        if (
            not self.draw
            and not self.completed
            and self.final is None
            and self.rules.edition >= 2
            and not self.any_card_fits()
        ):
            self._end_round((), "no card fits", events)

    #: The fast path is the rule body itself with no events list (one call less a move).
    advance = _play

    def _owner(self, seat: int, partner: bool) -> int:
        if not partner:
            return seat
        owner = self.partners[seat]
        assert owner is not None
        return owner

    # ---------------------------------------------------------------- steps
    def _build(
        self, seat: int, source: str, owner: int, card: int, pile: int, events: list[Event] | None
    ) -> None:
        building = self.building[pile]
        building.append(card)
        self.built = True
        value = len(building)
        if events is not None:
            events.append(Built(seat, source, owner, card, pile, value))
        if value == HIGHEST:
            # A complete pile leaves the table at once, freeing its place.
            self.completed += building
            self.building[pile] = []
            if events is not None:
                events.append(PileCompleted(pile))

    def _draw(self, seat: int, count: int, events: list[Event] | None) -> None:
        hand = self.hands[seat]
        got = 0
        while got < count:
            if not self.draw:
                if not self.completed:
                    break
                # Completed piles are recycled only when a draw finds the draw pile empty.
                self.draw, self.completed = self.completed, []
                self.rng.shuffle(self.draw)
                if events is not None:
                    events.append(Reshuffled(len(self.draw)))
            hand[self.draw.pop()] += 1
            got += 1
        if got:
            self.hand_sizes[seat] += got
            if events is not None:
                events.append(Drew(seat, got))

    def _begin_turn(self, seat: int, events: list[Event] | None) -> None:
        self.current = seat
        self.turns += 1
        if events is not None:
            events.append(TurnStarted(seat, self.turns))
        missing = HAND_SIZE - self.hand_sizes[seat]
        if missing > 0:
            self._draw(seat, missing, events)

    def any_card_fits(self) -> bool:
        """Whether any seat holds a card that fits a building pile now: in hand, on top of
        its stock or on top of one of its discard piles (a Skip-Bo card fits every pile).

        With nothing left to draw or recycle, a state where none fits can never change
        again: no build can happen, so no pile completes and nothing reaches the draw; the
        cards within reach only shrink (a discard buries a top under a card that did not
        fit). The round is then blocked (docs/rules/skipbo.md, "End of a round").
        """
        wanted = {len(pile) + 1 for pile in self.building}
        for seat in range(self.n):
            hand = self.hands[seat]
            if hand[0] or any(hand[card] for card in wanted):
                return True
            stock = self.stocks[seat]
            if stock and (stock[-1] == 0 or stock[-1] in wanted):
                return True
            for pile in self.discards[seat]:
                if pile and (pile[-1] == 0 or pile[-1] in wanted):
                    return True
        return False

    def _end_turn(self, events: list[Event] | None) -> None:
        # A turn is idle when nothing was built and nothing is left to draw or recycle.
        if self.built or self.draw or self.completed:
            self.idle = 0
        else:
            self.idle += 1
        self.built = False
        if self.rules.edition == 1 and self.idle >= self.n:
            # Edition 1 called a round blocked after one idle turn per seat.
            self._end_round((), "no progress", events)
        elif self.idle >= self.rules.idle_limit and self.rules.edition >= 2:
            self._end_round((), "idle limit", events)
        elif self.turns >= self.rules.turn_limit:
            self._end_round((), "turn limit", events)
        else:
            self._begin_turn((self.current + 1) % self.n, events)

    def _end_round(self, winners: tuple[int, ...], reason: str, events: list[Event] | None) -> None:
        rules = self.rules
        points = [0] * self.n
        if winners:
            left = sum(len(self.stocks[s]) for s in range(self.n) if s not in winners)
            for seat in winners:
                points[seat] = rules.round_bonus + rules.points_per_card * left
        for seat in range(self.n):
            self.scores[seat] += points[seat]
        blocked = not winners
        self.round_log.append(RoundResult(tuple(points), winners, self.turns, blocked))
        if events is not None:
            events.append(
                RoundEnded(
                    self.round_index + 1,
                    winners,
                    tuple(points),
                    tuple(self.scores),
                    blocked,
                    reason,
                )
            )
        if not rules.rounds:
            self._finish(winners, tuple(points), blocked, events)
            return
        best = max(self.scores)
        if best >= rules.target:
            leaders = tuple(s for s in range(self.n) if self.scores[s] == best)
            self._finish(leaders, tuple(self.scores), False, events)
            return
        if rules.edition >= 2 and self.blocked_run() >= rules.blocked_limit:
            # The match stops on the points so far; the leaders win it if anyone scored.
            leaders = tuple(s for s in range(self.n) if best and self.scores[s] == best)
            self._finish(leaders, tuple(self.scores), True, events)
            return
        self.round_index += 1
        self.starter = (self.starter + 1) % self.n
        self._deal(events)

    def blocked_run(self) -> int:
        """How many rounds in a row, the last finished one included, ended blocked."""
        run = 0
        for entry in reversed(self.round_log):
            if not entry.blocked:
                break
            run += 1
        return run

    def _finish(
        self,
        winners: tuple[int, ...],
        scores: tuple[int, ...],
        blocked: bool,
        events: list[Event] | None,
    ) -> None:
        self.final = Result(winners, scores, blocked)
        if events is not None:
            events.append(GameEnded(winners, scores, blocked))

    # -------------------------------------------------------- explanations
    def explain_illegal(self, move: Move) -> str:
        return refusals.english(self.explain_illegal_parts(move))

    def explain_illegal_parts(self, move: Move) -> Refusal:
        if self.final is not None:
            return Refusal.of(refusals.GAME_OVER)
        seat = self.current
        hand = self.hands[seat]
        if getattr(move, "partner", False):
            if self.partners[seat] is None:
                return Refusal.of(refusals.PARTNER_SOLO)
            if isinstance(move, Discard) and not self.rules.discard_to_partner:
                return Refusal.of(refusals.PARTNER_DISCARD_OFF)
        owner = self._owner(seat, getattr(move, "partner", False))
        partner = owner != seat
        if isinstance(move, PlayFromHand):
            if not hand[move.card]:
                return refusals.no_card(move.card)
            return self._explain_fit(move.card, move.pile)
        if isinstance(move, PlayFromStock):
            stock = self.stocks[owner]
            if not stock:
                return Refusal.of(refusals.PARTNER_STOCK_EMPTY if partner else refusals.STOCK_EMPTY)
            return self._explain_fit(stock[-1], move.pile)
        if isinstance(move, PlayFromDiscard):
            pile = self.discards[owner][move.discard]
            if not pile:
                key = refusals.PARTNER_DISCARD_EMPTY if partner else refusals.DISCARD_EMPTY
                return Refusal.of(key, discard=move.discard + 1)
            return self._explain_fit(pile[-1], move.pile)
        if isinstance(move, Discard):
            if not self.hand_sizes[seat]:
                return Refusal.of(refusals.HAND_EMPTY)
            return refusals.no_card(move.card)
        assert isinstance(move, EndTurn)
        return Refusal.of(refusals.END_TURN)

    def _explain_fit(self, card: int, pile: int) -> Refusal:
        building = self.building[pile]
        if not building:
            return Refusal.of(refusals.EMPTY_PLACE, card=card)
        if card == 1 and all(self.building):
            return Refusal.of(refusals.PILES_IN_USE)
        return Refusal.of(refusals.PILE_NEEDS, pile=pile + 1, needed=len(building) + 1, card=card)

    # ----------------------------------------------------- copies and views
    def clone(self) -> Self:
        new = object.__new__(type(self))
        new.rules = self.rules
        new.seed = self.seed
        new.rng = self.rng.clone()
        new.history = self.history[:]
        new.n = self.n
        new.partners = self.partners
        new.hands = [hand[:] for hand in self.hands]
        new.hand_sizes = self.hand_sizes[:]
        new.stocks = [stock[:] for stock in self.stocks]
        new.discards = [[pile[:] for pile in piles] for piles in self.discards]
        new.building = [pile[:] for pile in self.building]
        new.draw = self.draw[:]
        new.completed = self.completed[:]
        new.current = self.current
        new.round_index = self.round_index
        new.starter = self.starter
        new.turns = self.turns
        new.idle = self.idle
        new.built = self.built
        new.scores = self.scores[:]
        new.round_log = self.round_log[:]
        new.final = self.final
        new.cut = self.cut
        return new

    def census(self) -> Counter[int]:
        counts: Counter[int] = Counter()
        for hand in self.hands:
            for card, count in enumerate(hand):
                if count:
                    counts[card] += count
        for stock in self.stocks:
            counts.update(stock)
        for piles in self.discards:
            for pile in piles:
                counts.update(pile)
        for pile in self.building:
            counts.update(pile)
        counts.update(self.draw)
        counts.update(self.completed)
        return counts

    def view(self, seat: int | None) -> JSON:
        return build_view(self, seat)

    def views(self, seats: Iterable[int | None]) -> dict[int | None, JSON]:
        return build_views(self, seats)

    def determinize(self, seat: int | None, rng: Rng) -> Self:
        new = self.clone()
        pool: list[int] = []
        for other in range(self.n):
            if other != seat:
                pool += self.hand_cards(other)
        for stock in self.stocks:
            pool += stock[:-1]
        pool += self.draw
        # Sorting first makes the re-deal a function of what the seat knows alone.
        pool.sort()
        rng.shuffle(pool)
        for other in range(self.n):
            if other != seat:
                hand = [0] * 13
                for _ in range(self.hand_sizes[other]):
                    hand[pool.pop()] += 1
                new.hands[other] = hand
        for owner, stock in enumerate(self.stocks):
            if stock:
                below = [pool.pop() for _ in range(len(stock) - 1)]
                new.stocks[owner] = [*below, stock[-1]]
        new.draw = pool
        # Future reshuffles must not be predictable from the real game's generator.
        new.rng = rng.spawn()
        return new

    # ------------------------------------------------------------ snapshots
    def to_json(self) -> JSON:
        return {
            "game": "skipbo",
            "rules": self.rules.to_json(),
            "seed": self.seed,
            "rng": str(self.rng.state),
            "history": self.history[:],
            "round": self.round_index,
            "starter": self.starter,
            "current": self.current,
            "turns": self.turns,
            "idle": self.idle,
            "built": self.built,
            "hands": [hand[:] for hand in self.hands],
            "stocks": [stock[:] for stock in self.stocks],
            "discards": [[pile[:] for pile in piles] for piles in self.discards],
            "building": [pile[:] for pile in self.building],
            "draw": self.draw[:],
            "completed": self.completed[:],
            "scores": self.scores[:],
            "round_log": [entry.to_json() for entry in self.round_log],
            "result": None if self.final is None else self.final.to_json(),
            "cut": [[list(entry) for entry in draws] for draws in self.cut],
        }

    @classmethod
    def from_json(cls, data: object) -> SkipBoState:
        return state_from_json(cls.blank, data)
