"""The move advisor: every legal move ranked, with an estimate and a short reason.

``advise(state, seat, budget)`` answers for the seat to move:

- Skip-Bo: the estimated probability that the seat (its team) wins the round
  after the move, from determinized rollouts with the ``hard`` bot (see
  :mod:`cardtable.bots.skipbo_expert`; unfinished rollouts are scored by the stocks
  left). Plays of the same card onto piles needing the same number are one move
  and share their estimate.
- Skyjo: the expected points of the seat in this round after the move (lower is
  better), from determinized rollouts to the end of the round.

A Skip-Bo move that ends the round with the seat among the winners is certain
and ranks first. Nothing here sees a card the seat cannot see: the advisor
works on ``state.determinize(seat, rng)`` from the start, so its checks, its
reasons and every rollout only know what the seat knows. (A Skyjo round ends
by turning up hidden cards, so no Skyjo move is ranked as a certain win.)

Reasons are structured: each is a sequence of :class:`ReasonPart` (a message key
under ``advice.`` of the translation catalogs in ``cardtable/i18n`` and its
integer parameters), so that a client can word it in its player's language.
``Advice.reason`` is the English wording, rendered from the English catalog
(``cardtable/i18n/en.json``): the catalogs are the one source of the wording.
Two parameter names have a meaning beyond a number: ``seat`` is a seat number
(a client shows the player's name; the English text says ``seat 1``) and
``delta`` a change of points, shown with its sign (``+3``, ``-7``).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from typing import Any

from ..core import JSON, GameState, Rng
from ..skipbo.moves import DISCARD_BASE, DISCARD_PLAY_BASE, END_TURN, STOCK_BASE
from ..skipbo.state import SkipBoState
from ..skyjo import cards as layout
from ..skyjo.moves import DISCARD_AND_REVEAL, DRAW, EXCHANGE, TAKE_DISCARD
from ..skyjo.state import SkyjoState
from . import skipbo_expert, skipbo_hard, skyjo_expert
from .montecarlo import Budget, evaluate

#: The catalog key of the text between two parts of a reason (", " in English).
SEPARATOR_KEY = "advice.separator"
#: Parameters holding a seat number: clients show the player's name instead.
SEAT_PARAMS = frozenset({"seat"})
#: Parameters holding a change of points: shown with their sign.
SIGNED_PARAMS = frozenset({"delta"})
#: The package whose ``en.json`` holds the English wording of the reasons.
CATALOG_PACKAGE = "cardtable.i18n"


@dataclass(frozen=True, slots=True)
class ReasonPart:
    """One clause of a reason: a catalog key (``advice.skipbo.*``, ``advice.skyjo.*``)
    and its parameters, all integers (cards, counts, seat numbers, points)."""

    key: str
    params: tuple[tuple[str, int], ...] = ()

    @classmethod
    def of(cls, key: str, **params: int) -> ReasonPart:
        return cls(key, tuple(sorted(params.items())))

    def to_json(self) -> JSON:
        return {"key": self.key, "params": dict(self.params)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ReasonPart:
        params = data.get("params") or {}
        return cls.of(str(data["key"]), **{str(k): int(v) for k, v in params.items()})


Reason = tuple[ReasonPart, ...]


@functools.cache
def english_catalog() -> dict[str, str]:
    """The English catalog (``cardtable/i18n/en.json``), read as package data."""
    text = resources.files(CATALOG_PACKAGE).joinpath("en.json").read_text(encoding="utf-8")
    data: dict[str, str] = json.loads(text)
    return data


def seat_word(seat: int) -> str:
    """How the English text names a seat: ``seat 1`` (seat numbers as the library's)."""
    return f"seat {seat}"


def reason_params(params: Iterable[tuple[str, int]], who: Callable[[int], str]) -> dict[str, str]:
    """A part's parameters as the texts its template takes: seats named by ``who``,
    changes of points signed, other numbers as they are."""
    shown = {}
    for name, value in params:
        if name in SEAT_PARAMS:
            shown[name] = who(value)
        elif name in SIGNED_PARAMS:
            shown[name] = f"{value:+d}"
        else:
            shown[name] = str(value)
    return shown


def render_reason(
    parts: Iterable[ReasonPart],
    translate: Callable[..., str] | None = None,
    who: Callable[[int], str] = seat_word,
) -> str:
    """The parts of a reason in words, joined by the catalog's separator.

    ``translate(key, **params)`` gives the text of a key with its placeholders
    filled in (default: the English catalog); ``who(seat)`` names a seat.
    """
    if translate is None:
        translate = _english
    return translate(SEPARATOR_KEY).join(
        translate(part.key, **reason_params(part.params, who)) for part in parts
    )


def _english(key: str, **params: str) -> str:
    return english_catalog()[key].format(**params)


@dataclass(frozen=True, slots=True)
class Advice:
    action: int
    move: str
    value: float
    """Skip-Bo: win probability; Skyjo: expected own round points."""
    samples: int
    reason_parts: Reason
    """Why, as catalog keys and parameters (see :class:`ReasonPart`)."""

    @property
    def reason(self) -> str:
        """Why, in English (from the English catalog)."""
        return render_reason(self.reason_parts)

    def to_json(self) -> JSON:
        return {
            "action": self.action,
            "move": self.move,
            "value": self.value,
            "samples": self.samples,
            "reason": self.reason,
            "reason_parts": [part.to_json() for part in self.reason_parts],
        }


def advise(
    state: GameState[Any],
    seat: int,
    budget: Budget | None = None,
    seed: int = 0,
    moves: Collection[int] | None = None,
) -> list[Advice]:
    """The legal moves of ``seat`` (who must be to move), best first.

    ``moves``: value only these legal actions (all of them compared on the same
    re-deals), e.g. to compare a played move with the best one again.
    """
    if state.current_player != seat:
        raise ValueError(f"seat {seat} is not to move")
    if moves is not None and not moves:
        raise ValueError("moves, when given, must name at least one action")
    if moves is not None and not all(state.is_legal_action(action) for action in moves):
        raise ValueError(f"not all of {sorted(moves)} are legal for seat {seat}")
    budget = budget or Budget(milliseconds=1000.0, minimum=2)
    rng = Rng(seed)
    # A re-deal of everything the seat cannot see: the real hidden cards never
    # reach the checks or the reasons below, whatever state the caller passes.
    known = state.determinize(seat, rng.spawn())
    if isinstance(known, SkipBoState):
        return _advise_skipbo(known, seat, budget, rng, moves)
    if isinstance(known, SkyjoState):
        return _advise_skyjo(known, seat, budget, rng, moves)
    raise TypeError(f"no advisor for {type(state).__name__}")


def distinct_moves(state: GameState[Any]) -> int:
    """How many legal moves the advisor tells apart (Skip-Bo plays of the same card onto
    piles needing the same number are one move; every other move counts on its own)."""
    legal = state.legal_actions()
    if isinstance(state, SkipBoState):
        return len({_skipbo_key(state, action) for action in legal})
    return len(legal)


def same_move(state: GameState[Any], first: int, second: int) -> bool:
    """Whether two legal actions are one move for the advisor (Skip-Bo plays of the same
    card onto piles needing the same number; discards onto piles holding the same cards)."""
    if first == second:
        return True
    if isinstance(state, SkipBoState):
        return _skipbo_key(state, first) == _skipbo_key(state, second)
    return False


def reason_for(state: GameState[Any], seat: int, action: int) -> Reason:
    """The advisor's reason for ``seat`` (to move) playing ``action`` in ``state``, from
    what ``seat`` can see alone (pass a re-deal for the seat, never the real cards)."""
    if isinstance(state, SkipBoState):
        if _wins_now(state, action, seat):
            return (_part("advice.skipbo.wins_round"),)
        return _skipbo_reason(state, seat, action)
    if isinstance(state, SkyjoState):
        return _skyjo_reason(state, seat, action)
    raise TypeError(f"no advisor for {type(state).__name__}")


# --- Skip-Bo ------------------------------------------------------------------
def _skipbo_key(state: SkipBoState, action: int) -> tuple[int, ...]:
    """Equal keys for moves with the same effect: the same card onto building piles
    needing the same number, or onto discard piles (of the same owner) holding the
    same cards."""
    nexts = [len(pile) + 1 for pile in state.building]
    if action < STOCK_BASE:
        return (action // 4, nexts[action % 4])
    if action < DISCARD_PLAY_BASE:
        relative = action - STOCK_BASE
        return (100 + relative // 4, nexts[relative % 4])
    if action < DISCARD_BASE:
        relative = action - DISCARD_PLAY_BASE
        return (200 + relative // 4, nexts[relative % 4])
    if action < END_TURN:
        partner, rest = divmod(action - DISCARD_BASE, 52)
        card, index = divmod(rest, 4)
        pile = state.discards[_discard_owner(state, partner)][index]
        return (1000 + 100 * partner + card, *pile)
    return (2000,)


def _discard_owner(state: SkipBoState, partner: int) -> int:
    """Whose discard piles a discard goes to: the mover's, or their partner's."""
    seat = state.current
    other = state.rules.partner(seat) if partner else None
    return seat if other is None else other


def _wins_now(state: GameState[Any], action: int, seat: int) -> bool:
    copy = state.clone()
    before = len(copy.rounds())
    copy.advance(action)  # known legal: the public fast path
    rounds = copy.rounds()
    return len(rounds) > before and seat in rounds[before].winners


def _advise_skipbo(
    state: SkipBoState, seat: int, budget: Budget, rng: Rng, moves: Collection[int] | None
) -> list[Advice]:
    legal = [a for a in state.legal_actions() if moves is None or a in moves]
    representative: dict[tuple[int, ...], int] = {}
    for action in legal:
        representative.setdefault(_skipbo_key(state, action), action)
    candidates = list(representative.values())
    memo: dict[tuple[object, ...], skipbo_hard.Decision] = {}
    policies = [skipbo_hard.HardBot(memo) for _ in range(state.n)]
    estimates = {
        e.action: e
        for e in evaluate(
            state,
            seat,
            candidates,
            policies,
            skipbo_expert.skipbo_outcome,
            skipbo_expert.skipbo_round_over,
            budget,
            rng,
        )
    }
    advice = []
    for action in legal:
        estimate = estimates[representative[_skipbo_key(state, action)]]
        wins = _wins_now(state, action, seat)
        advice.append(
            (
                not wins,
                Advice(
                    action,
                    str(state.game.decode(action)),
                    1.0 if wins else estimate.mean,
                    estimate.samples,
                    (_part("advice.skipbo.wins_round"),)
                    if wins
                    else _skipbo_reason(state, seat, action),
                ),
            )
        )
    advice.sort(key=lambda item: (item[0], -item[1].value, item[1].action))
    return [item[1] for item in advice]


def _part(key: str, **params: int) -> ReasonPart:
    return ReasonPart.of(key, **params)


def _skipbo_reason(state: SkipBoState, seat: int, action: int) -> Reason:
    if action == END_TURN:
        return (_part("advice.skipbo.end_turn"),)
    if action >= DISCARD_BASE:
        partner, rest = divmod(action - DISCARD_BASE, 52)
        card, index = divmod(rest, 4)
        pile = state.discards[_discard_owner(state, partner)][index]
        if not pile:
            return (_part("advice.skipbo.new_discard_pile"),)
        top = pile[-1]
        if top in (card, card + 1):
            return (_part("advice.skipbo.descending_run"),)
        if card == 0:
            return (_part("advice.skipbo.gives_up_wild"),)
        if top == 0:
            return (_part("advice.skipbo.buries_wild"),)
        return (_part("advice.skipbo.buries", card=top),)
    if STOCK_BASE <= action < DISCARD_PLAY_BASE:
        return (_part("advice.skipbo.plays_stock", left=len(state.stocks[seat]) - 1),)
    copy = state.clone()
    copy.advance(action)  # known legal: the public fast path
    parts = []
    if action < STOCK_BASE:
        parts.append(_part("advice.skipbo.uses_wild" if action < 4 else "advice.skipbo.plays_hand"))
        if copy.hand_sizes[seat] == HAND_REFILL and state.hand_sizes[seat] == 1:
            parts.append(_part("advice.skipbo.empties_hand"))
    else:
        parts.append(_part("advice.skipbo.clears_discard"))
    stock = state.stocks[seat]
    nexts = [len(pile) + 1 for pile in copy.building]
    if stock and stock[-1] in nexts:
        parts.append(_part("advice.skipbo.opens_stock"))
    for other in range(state.n):
        if other in state.rules.team(seat) or not copy.stocks[other]:
            continue
        if copy.stocks[other][-1] in nexts and state.stocks[other][-1] not in [
            len(pile) + 1 for pile in state.building
        ]:
            parts.append(_part("advice.skipbo.lets_play_stock", seat=other))
    return tuple(parts)


HAND_REFILL = 5


# --- Skyjo --------------------------------------------------------------------
def _advise_skyjo(
    state: SkyjoState, seat: int, budget: Budget, rng: Rng, moves: Collection[int] | None
) -> list[Advice]:
    legal = [a for a in state.legal_actions() if moves is None or a in moves]
    from .skyjo import GreedyBot

    policies = [GreedyBot() for _ in range(state.n)]
    estimates = evaluate(
        state,
        seat,
        legal,
        policies,
        skyjo_expert.skyjo_outcome,
        skyjo_expert.skyjo_round_over,
        budget,
        rng,
    )
    advice = [
        Advice(
            estimate.action,
            str(state.game.decode(estimate.action)),
            estimate.extra,
            estimate.samples,
            _skyjo_reason(state, seat, estimate.action),
        )
        for estimate in estimates
    ]
    advice.sort(key=lambda item: (item.value, item.action))
    return advice


def _skyjo_reason(state: SkyjoState, seat: int, action: int) -> Reason:
    if action == DRAW:
        return (_part("advice.skyjo.draws"),)
    if action == TAKE_DISCARD:
        return (_part("advice.skyjo.takes_discard", card=state.discard[-1]),)
    down = state.down[seat] & state.present[seat]
    last = down.bit_count() == 1 and state.closer is None
    ends = (_part("advice.skyjo.ends_round"),)
    if action >= DISCARD_AND_REVEAL:
        pos = action - DISCARD_AND_REVEAL
        text = (_part("advice.skyjo.discards_and_turns_up"),)
        return text + (ends if last and down >> pos & 1 else ())
    if EXCHANGE <= action < EXCHANGE + 12:
        pos = action - EXCHANGE
        card = state.hand
        assert card is not None
        copy = state.clone()
        copy.advance(action)  # known legal: the public fast path
        removed = state.present[seat].bit_count() - copy.present[seat].bit_count()
        if removed:
            # A column has three cards, a row (the rows variant) four; one card ends one line.
            if removed == layout.COLS:
                return (_part("advice.skyjo.completes_row"),)
            return (_part("advice.skyjo.completes_column"),)
        if state.down[seat] >> pos & 1:
            return (_part("advice.skyjo.over_hidden", card=card),) + (ends if last else ())
        old = state.cards[seat * 12 + pos]
        return (_part("advice.skyjo.replaces", old=old, card=card, delta=card - old),)
    return (_part("advice.skyjo.turns_up"),)
