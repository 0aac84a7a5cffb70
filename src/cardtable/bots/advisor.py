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
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from typing import Any

from ..core import JSON, GameState, Rng
from ..skipbo.moves import DISCARD_BASE, DISCARD_PLAY_BASE, END_TURN, STOCK_BASE
from ..skipbo.state import SkipBoState
from ..skyjo.moves import DISCARD_AND_REVEAL, DRAW, EXCHANGE, TAKE_DISCARD
from ..skyjo.state import SkyjoState
from . import skipbo_expert, skipbo_hard, skyjo_expert
from .montecarlo import Budget, evaluate


@dataclass(frozen=True, slots=True)
class Advice:
    action: int
    move: str
    value: float
    """Skip-Bo: win probability; Skyjo: expected own round points."""
    samples: int
    reason: str

    def to_json(self) -> JSON:
        return {
            "action": self.action,
            "move": self.move,
            "value": self.value,
            "samples": self.samples,
            "reason": self.reason,
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
    copy._apply(action)
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
    policies = [skipbo_hard.HardBot() for _ in range(state.n)]
    estimates = {
        e.action: e
        for e in evaluate(
            state,
            seat,
            candidates,
            policies,
            skipbo_expert._skipbo_outcome,
            skipbo_expert._skipbo_round_over,
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
                    "wins the round now" if wins else _skipbo_reason(state, seat, action),
                ),
            )
        )
    advice.sort(key=lambda item: (item[0], -item[1].value, item[1].action))
    return [item[1] for item in advice]


def _skipbo_reason(state: SkipBoState, seat: int, action: int) -> str:
    if action == END_TURN:
        return "nothing left to play or discard"
    if action >= DISCARD_BASE:
        partner, rest = divmod(action - DISCARD_BASE, 52)
        card, index = divmod(rest, 4)
        pile = state.discards[_discard_owner(state, partner)][index]
        if not pile:
            return "starts a new discard pile"
        top = pile[-1]
        if top in (card, card + 1):
            return "keeps the discard pile in a descending run"
        if card == 0:
            return "gives up a Skip-Bo card"
        return f"buries the {top or 'Skip-Bo card'} under a card it cannot follow"
    if STOCK_BASE <= action < DISCARD_PLAY_BASE:
        return f"plays the stock ({len(state.stocks[seat]) - 1} left after it)"
    copy = state.clone()
    copy._apply(action)
    parts = []
    if action < STOCK_BASE:
        parts.append("uses a Skip-Bo card" if action < 4 else "plays from the hand")
        if copy.hand_sizes[seat] == HAND_REFILL and state.hand_sizes[seat] == 1:
            parts.append("empties the hand: five new cards")
    else:
        parts.append("clears a discard pile top")
    stock = state.stocks[seat]
    nexts = [len(pile) + 1 for pile in copy.building]
    if stock and stock[-1] in nexts:
        parts.append("opens the way to the stock")
    for other in range(state.n):
        if other in state.rules.team(seat) or not copy.stocks[other]:
            continue
        if copy.stocks[other][-1] in nexts and state.stocks[other][-1] not in [
            len(pile) + 1 for pile in state.building
        ]:
            parts.append(f"lets seat {other} play their stock")
    return ", ".join(parts)


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
        skyjo_expert._skyjo_outcome,
        skyjo_expert._skyjo_round_over,
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


def _skyjo_reason(state: SkyjoState, seat: int, action: int) -> str:
    if action == DRAW:
        return "draws an unknown card"
    if action == TAKE_DISCARD:
        return f"takes the {state.discard[-1]} from the discard pile"
    down = state.down[seat] & state.present[seat]
    last = down.bit_count() == 1 and state.closer is None
    if action >= DISCARD_AND_REVEAL:
        pos = action - DISCARD_AND_REVEAL
        text = "discards the card and turns up a hidden one"
        return text + (", ending the round" if last and down >> pos & 1 else "")
    if EXCHANGE <= action < EXCHANGE + 12:
        pos = action - EXCHANGE
        card = state.hand
        assert card is not None
        copy = state.clone()
        copy._apply(action)
        if copy.present[seat].bit_count() < state.present[seat].bit_count():
            return "completes a column: three cards leave the grid"
        if state.down[seat] >> pos & 1:
            text = f"puts the {card} over a hidden card"
            return text + (", ending the round" if last else "")
        old = state.cards[seat * 12 + pos]
        return f"replaces a {old} with the {card} ({card - old:+d} points)"
    return "turns up a card"
