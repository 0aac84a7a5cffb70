"""Refusals as catalog keys: each refusal's key and parameters, and its English text,
byte for byte the text the engine gave before refusals had keys."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from cardtable.core import Refusal, Rng
from cardtable.skipbo import (
    GAME,
    Discard,
    EndTurn,
    PlayFromDiscard,
    PlayFromHand,
    PlayFromStock,
    SkipBoRules,
    SkipBoState,
)
from cardtable.skipbo import refusals as r
from cardtable.skipbo.cards import with_article
from cardtable.skipbo.moves import Move

from ..refusal_check import check_refused
from .helpers import SB, filler, position

TEAMS = SkipBoRules(players=4, teams=True, discard_to_partner=False)


def _plain() -> SkipBoState:
    return position(hands={0: [SB, 3, 4, 11, 11]}, stocks={0: filler(5), 1: filler(5)})


def _built(*piles: list[int]) -> SkipBoState:
    return position(
        hands={0: [1, 4, 8, 11, 12]},
        stocks={0: filler(5), 1: filler(5)},
        building=[*piles, *([[]] * (4 - len(piles)))],
    )


def _team() -> SkipBoState:
    stocks = {0: filler(5), 1: filler(5), 2: [], 3: filler(5)}
    return position(TEAMS, hands={0: [3, 4, 6, 9, 11]}, stocks=stocks)


def _over() -> SkipBoState:
    state = GAME.new_state(SkipBoRules(players=2, stock_size=5), 0)
    rng = Rng(1)
    while not state.is_over:
        legal = state.legal_actions()
        state.advance(legal[rng.below(len(legal))])
    return state


CASES: list[tuple[Callable[[], SkipBoState], Move, str, Refusal]] = [
    (_over, EndTurn(), "the game is over", Refusal.of(r.GAME_OVER)),
    (
        _plain,
        PlayFromStock(0, partner=True),
        "a partner's cards can be played only in team play",
        Refusal.of(r.PARTNER_SOLO),
    ),
    (
        _team,
        Discard(3, 0, partner=True),
        "discards go onto your own discard piles (option discard_to_partner is off)",
        Refusal.of(r.PARTNER_DISCARD_OFF),
    ),
    (_plain, PlayFromHand(1, 0), "you hold no 1 card", Refusal.of(r.NO_CARD, value=1)),
    (_team, PlayFromHand(SB, 0), "you hold no Skip-Bo card", Refusal.of(r.NO_WILD)),
    (_team, Discard(12, 1), "you hold no 12 card", Refusal.of(r.NO_CARD, value=12)),
    (
        lambda: position(hands={0: [3]}, stocks={0: [], 1: filler(5)}),
        PlayFromStock(0),
        "your stock pile is empty",
        Refusal.of(r.STOCK_EMPTY),
    ),
    (
        _team,
        PlayFromStock(1, partner=True),
        "your partner's stock pile is empty",
        Refusal.of(r.PARTNER_STOCK_EMPTY),
    ),
    (
        _plain,
        PlayFromDiscard(2, 0),
        "your discard pile 3 is empty",
        Refusal.of(r.DISCARD_EMPTY, discard=3),
    ),
    (
        _team,
        PlayFromDiscard(1, 0, partner=True),
        "your partner's discard pile 2 is empty",
        Refusal.of(r.PARTNER_DISCARD_EMPTY, discard=2),
    ),
    (
        lambda: position(hands={0: []}, stocks={0: filler(5), 1: filler(5)}),
        Discard(4, 0),
        "your hand is empty: end the turn instead",
        Refusal.of(r.HAND_EMPTY),
    ),
    (
        _plain,
        EndTurn(),
        "a turn ends by discarding a card from your hand",
        Refusal.of(r.END_TURN),
    ),
    (
        _plain,
        PlayFromHand(3, 1),
        "an empty building place takes a 1 or a Skip-Bo card, not a 3",
        Refusal.of(r.EMPTY_PLACE, card=3),
    ),
    (
        _plain,
        PlayFromHand(11, 0),
        "an empty building place takes a 1 or a Skip-Bo card, not an 11",
        Refusal.of(r.EMPTY_PLACE, card=11),
    ),
    (
        lambda: _built([1], [1, 2], [1, 2, 3], [SB]),
        PlayFromHand(1, 2),
        "all four building piles are in use: a new one can start only when one is complete",
        Refusal.of(r.PILES_IN_USE),
    ),
    (
        lambda: _built([1]),
        PlayFromHand(4, 0),
        "building pile 1 needs a 2, not a 4",
        Refusal.of(r.PILE_NEEDS, pile=1, needed=2, card=4),
    ),
    (
        lambda: _built([], [1, 2, 3, 4, 5, 6, SB]),
        PlayFromHand(11, 1),
        "building pile 2 needs an 8, not an 11",
        Refusal.of(r.PILE_NEEDS, pile=2, needed=8, card=11),
    ),
]


@pytest.mark.parametrize(("make", "move", "english", "refusal"), CASES)
def test_each_refusal_has_its_key_and_its_english(
    make: Callable[[], SkipBoState], move: Move, english: str, refusal: Refusal
) -> None:
    check_refused(make(), move, english, refusal)


def test_the_cases_cover_every_refusal() -> None:
    keys = {refusal.key for *_, refusal in CASES}
    assert keys == {key for key in r.ENGLISH if not key.startswith("refusal.skipbo.card_")}


def _before(state: SkipBoState, move: Move) -> str:
    """The engine's explanation as it was written before refusals had keys."""
    if state.final is not None:
        return "the game is over"
    seat = state.current
    hand = state.hands[seat]
    if getattr(move, "partner", False):
        if state.partners[seat] is None:
            return "a partner's cards can be played only in team play"
        if isinstance(move, Discard) and not state.rules.discard_to_partner:
            return "discards go onto your own discard piles (option discard_to_partner is off)"
    owner = state._owner(seat, getattr(move, "partner", False))
    whose = "your partner's" if owner != seat else "your"
    plain = {card: "Skip-Bo card" if card == 0 else f"{card} card" for card in range(13)}

    def fit(card: int, pile: int) -> str:
        building = state.building[pile]
        played = with_article(card)
        if not building:
            return f"an empty building place takes a 1 or a Skip-Bo card, not {played}"
        if card == 1 and all(state.building):
            return (
                "all four building piles are in use: a new one can start only when one is complete"
            )
        return f"building pile {pile + 1} needs {with_article(len(building) + 1)}, not {played}"

    if isinstance(move, PlayFromHand):
        if not hand[move.card]:
            return f"you hold no {plain[move.card]}"
        return fit(move.card, move.pile)
    if isinstance(move, PlayFromStock):
        stock = state.stocks[owner]
        if not stock:
            return f"{whose} stock pile is empty"
        return fit(stock[-1], move.pile)
    if isinstance(move, PlayFromDiscard):
        discard = state.discards[owner][move.discard]
        if not discard:
            return f"{whose} discard pile {move.discard + 1} is empty"
        return fit(discard[-1], move.pile)
    if isinstance(move, Discard):
        if not state.hand_sizes[seat]:
            return "your hand is empty: end the turn instead"
        return f"you hold no {plain[move.card]}"
    assert isinstance(move, EndTurn)
    return "a turn ends by discarding a card from your hand"


@pytest.mark.parametrize(
    "rules",
    [
        SkipBoRules(players=2, stock_size=5),
        SkipBoRules(players=4, teams=True, discard_to_partner=True, stock_size=5),
        SkipBoRules(players=4, teams=True, discard_to_partner=False, stock_size=5),
    ],
    ids=["solo", "teams", "teams-own-discards"],
)
def test_random_positions_explain_every_move_as_before(rules: SkipBoRules) -> None:
    compared = 0
    for seed in range(2):
        state = GAME.new_state(rules, seed)
        rng = Rng(seed + 100)
        step = 0
        while True:
            if step % 4 == 0 or state.is_over:
                for action in range(GAME.num_actions):
                    move = GAME.decode(action)
                    assert state.explain_illegal(move) == _before(state, move), (seed, step, move)
                    compared += 1
            if state.is_over:
                break
            legal = state.legal_actions()
            state.advance(legal[rng.below(len(legal))])
            step += 1
    assert compared > 10_000
