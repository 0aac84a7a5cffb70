"""The rules that move a Skyjo position on (its fields: :mod:`.position`)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any, ClassVar, Self

from ..core import JSON, Event, Game, Outcome, Refusal, Result, Rng, RoundResult
from . import cards as layout
from . import refusals
from .events import (
    CardRevealed,
    ColumnRemoved,
    Discarded,
    Drew,
    Exchanged,
    FinalTurns,
    GameEnded,
    Reshuffled,
    RoundDealt,
    RoundEnded,
    RowRemoved,
    StarterChosen,
    TookDiscard,
    TurnLimitReached,
)
from .moves import (
    DISCARD_AND_REVEAL,
    DRAW,
    EXCHANGE,
    MOVES,
    NUM_ACTIONS,
    REVEAL,
    TAKE_DISCARD,
    DrawFromDeck,
    Exchange,
    Move,
    Reveal,
    TakeDiscard,
)
from .position import DRAWN, OVER, PHASES, SETUP, TAKEN, TURN, SkyjoPosition
from .rules import SkyjoRules
from .snapshot import state_to_json
from .view import seat_view, seat_views

# The phases are read by this module's name too (the bots, the RL encoders, the lab).
__all__ = ["DRAWN", "OVER", "PHASES", "SETUP", "TAKEN", "TURN", "SkyjoState"]

SLOTS = layout.SLOTS
_COLUMN_MASKS = layout.COLUMN_MASKS
_ROW_MASKS = layout.ROW_MASKS

# Legal action codes per bitmask, precomputed so legal_actions() is a lookup.
_EXCHANGES: tuple[list[int], ...] = tuple(
    [EXCHANGE + p for p in ps] for ps in layout.MASK_POSITIONS
)
_REVEALS: tuple[list[int], ...] = tuple([REVEAL + p for p in ps] for ps in layout.MASK_POSITIONS)
_DISCARD_REVEALS: tuple[list[int], ...] = tuple(
    [DISCARD_AND_REVEAL + p for p in ps] for ps in layout.MASK_POSITIONS
)
_TURN_ACTIONS = (DRAW, TAKE_DISCARD)


class SkyjoState(SkyjoPosition):
    """One Skyjo position. Build it with ``GAME.new_state(rules, seed)``."""

    game: ClassVar[Game[Any]]

    _rows: bool
    _limit: int

    # --- construction -----------------------------------------------------
    @classmethod
    def new(cls, rules: SkyjoRules, seed: int) -> Self:
        state = cls.blank(rules, seed)
        state.round = 0
        state.starter = None
        state.closer = None
        state.totals = [0] * rules.players
        state.finished = []
        state.closers = []
        state.doubled = []
        state._deal(None)
        return state

    @classmethod
    def blank(cls, rules: SkyjoRules, seed: int) -> Self:
        """A state of ``rules`` and ``seed`` with nothing dealt: what :meth:`new` deals
        into, and what the snapshot reader (:mod:`cardtable.skyjo.snapshot`) fills from a
        stored position. Not a playable position by itself."""
        state = cls.__new__(cls)
        state.rules = rules
        state.seed = seed
        state.history = []
        state.rng = Rng(seed)
        state.n = rules.players
        state._rows = rules.rows_rule
        state._limit = rules.turn_limit
        return state

    def _deal(self, events: list[Event] | None) -> None:
        """Shuffle the whole deck and deal a new round (set-up phase, seat 0 first)."""
        n = self.n
        deck = layout.new_deck()
        self.rng.shuffle(deck)
        dealt = SLOTS * n
        self.cards = deck[:dealt]
        self.discard = [deck[dealt]]
        self.draw = deck[dealt + 1 :]
        self.present = [layout.FULL] * n
        self.down = [layout.FULL] * n
        self.hand = None
        self.round += 1
        self.phase = SETUP
        self.player = 0
        self.closer = None
        self.turns = 0
        self.reshuffled = False
        if events is not None:
            events.append(RoundDealt(self.round, deck[dealt], len(self.draw)))

    # --- protocol: turn and moves --------------------------------------------
    @property
    def num_players(self) -> int:
        return self.n

    @property
    def current_player(self) -> int | None:
        return None if self.phase == OVER else self.player

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    def legal_actions(self) -> list[int]:
        phase = self.phase
        if phase == TURN:
            return list(_TURN_ACTIONS)
        seat = self.player
        if phase == DRAWN:
            return _EXCHANGES[self.present[seat]] + _DISCARD_REVEALS[self.down[seat]]
        if phase == TAKEN:
            return _EXCHANGES[self.present[seat]][:]
        if phase == SETUP:
            return _REVEALS[self.down[seat]][:]
        return []

    def is_legal_action(self, action: int) -> bool:
        """``action in self.legal_actions()`` in constant time (the same masks)."""
        phase = self.phase
        if phase == TURN:
            return action in _TURN_ACTIONS
        if phase == DRAWN:
            if EXCHANGE <= action < REVEAL:
                return bool(self.present[self.player] >> (action - EXCHANGE) & 1)
            if DISCARD_AND_REVEAL <= action < NUM_ACTIONS:
                return bool(self.down[self.player] >> (action - DISCARD_AND_REVEAL) & 1)
            return False
        if phase == TAKEN:
            return EXCHANGE <= action < REVEAL and bool(
                self.present[self.player] >> (action - EXCHANGE) & 1
            )
        if phase == SETUP:
            return REVEAL <= action < DISCARD_AND_REVEAL and bool(
                self.down[self.player] >> (action - REVEAL) & 1
            )
        return False

    def explain_illegal(self, move: Move) -> str:
        return refusals.english(self.explain_illegal_parts(move), str(move))

    def explain_illegal_parts(self, move: Move) -> Refusal:
        phase = self.phase
        if phase == OVER:
            return Refusal.of(refusals.GAME_OVER)
        if phase == SETUP:
            if not isinstance(move, Reveal):
                return Refusal.of(refusals.SETUP_FIRST)
        elif phase == TURN:
            if isinstance(move, Reveal):
                return Refusal.of(refusals.SETUP_ONLY)
            if not isinstance(move, DrawFromDeck | TakeDiscard):
                return Refusal.of(refusals.DRAW_FIRST)
        elif phase == DRAWN:
            if isinstance(move, DrawFromDeck | TakeDiscard):
                return Refusal.of(refusals.ALREADY_HOLDING)
            if isinstance(move, Reveal):
                return Refusal.of(refusals.DISCARD_TO_REVEAL)
        elif phase == TAKEN and not isinstance(move, Exchange):
            return Refusal.of(refusals.MUST_EXCHANGE)
        seat = self.player
        pos = getattr(move, "pos", None)
        if isinstance(pos, int) and 0 <= pos < SLOTS:
            if not self.present[seat] >> pos & 1:
                return refusals.at(refusals.EMPTY_POSITION, pos)
            if not self.down[seat] >> pos & 1:
                return refusals.at(refusals.FACE_UP, pos)
        return Refusal.of(refusals.NOT_LEGAL)

    def apply_unchecked(self, action: int) -> Outcome[Move]:
        seat = self.player
        events: list[Event] = []
        self._play(action, events)
        return Outcome(seat, MOVES[action], action, tuple(events))

    def _play(self, action: int, events: list[Event] | None = None) -> None:
        """The move itself, shared by :meth:`apply_unchecked` and :meth:`advance`.

        ``events`` is None on the fast path: every event is then neither built nor
        kept, and nothing else differs.
        """
        seat = self.player
        self.history.append(action)
        if action >= DISCARD_AND_REVEAL:
            card = self.hand
            assert card is not None
            self.hand = None
            self.discard.append(card)
            if events is not None:
                events.append(Discarded(seat, card))
            self._reveal(seat, action - DISCARD_AND_REVEAL, events)
            self._end_turn(seat, events)
        elif action >= REVEAL:
            self._reveal(seat, action - REVEAL, events)
            if self.down[seat].bit_count() == SLOTS - 2:
                if seat + 1 < self.n:
                    self.player = seat + 1
                else:
                    self._choose_starter(events)
        elif action >= EXCHANGE:
            self._exchange(seat, action - EXCHANGE, events)
            self._end_turn(seat, events)
        elif action == DRAW:
            if not self.draw:
                self._reshuffle(events)
            card = self.draw.pop()
            self.hand = card
            self.phase = DRAWN
            if events is not None:
                events.append(Drew(seat, card))
        else:
            card = self.discard.pop()
            self.hand = card
            self.phase = TAKEN
            if events is not None:
                events.append(TookDiscard(seat, card))

    #: The fast path is the rule body itself with no events list (one call less a move).
    advance = _play

    # --- the rules ------------------------------------------------------------
    def _reveal(self, seat: int, pos: int, events: list[Event] | None) -> None:
        self.down[seat] &= ~(1 << pos)
        if events is not None:
            events.append(CardRevealed(seat, pos, self.cards[seat * SLOTS + pos]))
        self._check_lines(seat, pos, events)

    def _exchange(self, seat: int, pos: int, events: list[Event] | None) -> None:
        card = self.hand
        assert card is not None
        index = seat * SLOTS + pos
        replaced = self.cards[index]
        was_up = not self.down[seat] >> pos & 1
        self.cards[index] = card
        self.down[seat] &= ~(1 << pos)
        self.hand = None
        self.discard.append(replaced)
        if events is not None:
            events.append(Exchanged(seat, pos, card, replaced, was_up))
        self._check_lines(seat, pos, events)

    def _check_lines(self, seat: int, pos: int, events: list[Event] | None) -> None:
        """Apply the column rule (and the rows option) to the lines through ``pos``."""
        self._check_column(seat, pos % layout.COLS, events)
        if self._rows:
            self._check_row(seat, pos // layout.COLS, events)

    def _check_column(self, seat: int, col: int, events: list[Event] | None) -> None:
        mask = _COLUMN_MASKS[col]
        present = self.present[seat]
        if present & mask != mask or self.down[seat] & mask:
            return
        cards = self.cards
        base = seat * SLOTS + col
        top, middle, bottom = cards[base], cards[base + layout.COLS], cards[base + 2 * layout.COLS]
        if top == middle == bottom:
            self.discard += (top, middle, bottom)
            self.present[seat] = present & ~mask
            if events is not None:
                events.append(ColumnRemoved(seat, col, top))

    def _check_row(self, seat: int, row: int, events: list[Event] | None) -> None:
        mask = _ROW_MASKS[row]
        present = self.present[seat]
        if present & mask != mask or self.down[seat] & mask:
            return
        base = seat * SLOTS + row * layout.COLS
        line = self.cards[base : base + layout.COLS]
        if line.count(line[0]) == layout.COLS:
            self.discard += line
            self.present[seat] = present & ~mask
            if events is not None:
                events.append(RowRemoved(seat, row, line[0]))

    def _reshuffle(self, events: list[Event] | None) -> None:
        """Keep the top discard; the rest of the discard pile, shuffled, is the new draw pile."""
        pile = self.discard[:-1]
        self.discard = self.discard[-1:]
        self.rng.shuffle(pile)
        self.draw = pile
        self.reshuffled = True
        if events is not None:
            events.append(Reshuffled(len(pile)))

    def _choose_starter(self, events: list[Event] | None) -> None:
        n = self.n
        sums = tuple(self.face_up_sum(seat) for seat in range(n))
        last = self.closers[-1] if self.closers else None
        if self.rules.closer_starts_next and last is not None:
            starter = last
            reason = "ended the previous round"
        else:
            first = 0 if self.starter is None else (self.starter + 1) % n
            starter = self._first_best(sums, first, max(sums))
            reason = "highest sum of the face-up cards"
        self.starter = starter
        self.player = starter
        self.phase = TURN
        if events is not None:
            events.append(StarterChosen(starter, sums, reason))

    def _first_best(self, sums: tuple[int, ...], first: int, best: int) -> int:
        n = self.n
        for i in range(n):
            seat = (first + i) % n
            if sums[seat] == best:
                return seat
        raise AssertionError("no seat has the best sum")

    def _end_turn(self, seat: int, events: list[Event] | None) -> None:
        self.turns += 1
        if self.closer is None and not self.down[seat]:
            self.closer = seat
            if events is not None:
                events.append(FinalTurns(seat))
        following = seat + 1
        if following == self.n:
            following = 0
        if following == self.closer:
            self._end_round(events)
        elif self.turns >= self._limit:
            if events is not None:
                events.append(TurnLimitReached(self.round, self.turns))
            self._end_round(events, limited=True)
        else:
            self.player = following
            self.phase = TURN

    def _end_round(self, events: list[Event] | None, limited: bool = False) -> None:
        """Reveal, remove lines, score. ``limited``: the round reached ``turn_limit``
        (there may be no closer yet; nobody is doubled; the round counts as blocked)."""
        n = self.n
        closer = self.closer
        assert closer is not None or limited
        for seat in range(n):
            if events is not None:
                hidden = self.down[seat] & self.present[seat]
                for pos in layout.MASK_POSITIONS[hidden]:
                    events.append(CardRevealed(seat, pos, self.cards[seat * SLOTS + pos]))
            self.down[seat] = 0
            for col in range(layout.COLS):
                self._check_column(seat, col, events)
            if self._rows:
                for row in range(layout.ROWS):
                    self._check_row(seat, row, events)
        raw = [self.grid_sum(seat) for seat in range(n)]
        points = raw[:]
        doubled = False
        if closer is not None and not limited and self.rules.closer_doubling:
            others = min(raw[seat] for seat in range(n) if seat != closer)
            doubled = raw[closer] > 0 and raw[closer] >= others
            if doubled:
                points[closer] *= 2
        for seat in range(n):
            self.totals[seat] += points[seat]
        low = min(points)
        self.finished.append(
            RoundResult(
                tuple(points),
                tuple(seat for seat in range(n) if points[seat] == low),
                self.turns,
                limited,
            )
        )
        self.closers.append(closer)
        self.doubled.append(doubled)
        totals = tuple(self.totals)
        if events is not None:
            events.append(RoundEnded(self.round, closer, tuple(points), totals, doubled))
        if max(totals) >= self.rules.end_score:
            self.phase = OVER
            if events is not None:
                result = self.result()
                assert result is not None
                events.append(GameEnded(result.winners, totals))
        else:
            self._deal(events)

    # --- protocol: end ------------------------------------------------------
    def result(self) -> Result | None:
        if self.phase != OVER:
            return None
        low = min(self.totals)
        winners = tuple(seat for seat in range(self.n) if self.totals[seat] == low)
        blocked = any(finished.blocked for finished in self.finished)
        return Result(winners, tuple(self.totals), blocked)

    def rounds(self) -> list[RoundResult]:
        return list(self.finished)

    # --- copies, snapshots, views -----------------------------------------------
    def clone(self) -> Self:
        other = self.__class__.__new__(self.__class__)
        other.__dict__.update(self.__dict__)
        other.history = self.history[:]
        other.rng = self.rng.clone()
        other.cards = self.cards[:]
        other.present = self.present[:]
        other.down = self.down[:]
        other.draw = self.draw[:]
        other.discard = self.discard[:]
        other.totals = self.totals[:]
        other.finished = self.finished[:]
        other.closers = self.closers[:]
        other.doubled = self.doubled[:]
        return other

    def to_json(self) -> JSON:
        return state_to_json(self)

    def view(self, seat: int | None) -> JSON:
        return seat_view(self, seat)

    def views(self, seats: Iterable[int | None]) -> dict[int | None, JSON]:
        return seat_views(self, seats)

    def determinize(self, seat: int | None, rng: Rng) -> Self:
        """Re-deal what nobody can see: face-down cards and the draw order.

        Face-down cards are unknown to every seat, their owner included. Before a
        reshuffle in this round the face-down cards and the draw pile come from
        one unknown pool and are re-dealt together; after a reshuffle the draw
        pile is made of known discards, so its cards are only re-ordered and the
        face-down cards are re-dealt among themselves. The future (next deals)
        is re-seeded from ``rng``.
        """
        other = self.clone()
        other.rng = Rng(rng.next64())
        if self.phase == OVER:
            return other
        slots = [
            seat_ * SLOTS + pos
            for seat_ in range(self.n)
            for pos in layout.MASK_POSITIONS[self.down[seat_] & self.present[seat_]]
        ]
        # Sorting first makes the re-deal a function of what the seat knows alone.
        hidden = sorted(other.cards[index] for index in slots)
        if self.reshuffled:
            rng.shuffle(hidden)
            other.draw.sort()
            rng.shuffle(other.draw)
        else:
            hidden += other.draw
            hidden.sort()
            rng.shuffle(hidden)
            other.draw = hidden[len(slots) :]
        for index, card in zip(slots, hidden, strict=False):
            other.cards[index] = card
        return other

    def census(self) -> Counter[int]:
        count: Counter[int] = Counter(self.draw)
        count.update(self.discard)
        if self.hand is not None:
            count[self.hand] += 1
        for seat in range(self.n):
            base = seat * SLOTS
            count.update(self.cards[base + p] for p in layout.MASK_POSITIONS[self.present[seat]])
        return count
