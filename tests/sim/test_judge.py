"""The coach's precise judge (cardtable.sim.judge): a sample of the blunder set is named,
strong players' moves are left alone, and nothing hidden reaches a verdict.

The whole set and its figures are ``python -m lab coach_judge GAME`` (docs/bots.md).
"""

from __future__ import annotations

import functools

import pytest

pytest.importorskip("numba")

from cardtable.bots.coaching import clearly_worse
from cardtable.bots.review import MEASURES
from cardtable.core import Rng
from cardtable.games import get_game
from cardtable.sim.judge import judge_position, review_game
from cardtable.sim.judge_blunders import (
    KINDS,
    Position,
    blunders,
    skipbo_blunder,
    strong_moves,
)
from cardtable.skipbo.state import SkipBoState

#: The sample: for each kind, the deal seed its blunder is found from (the first of the
#: kind from there, ``blunders(game, 1, seed)``). Each is a move the reference verdict
#: of ``python -m lab coach_judge`` (1,024 re-deals) also finds clearly worse: a third of
#: the Skip-Bo set costs less than the threshold by any measure (docs/bots.md).
SAMPLE = {
    "skyjo": {"high_over_low": 0, "bury_low": 0, "close_behind": 0},
    "skipbo": {"discard_with_stock": 0, "bury_bridge": 5, "wild_for_nothing": 0, "gift_stock": 0},
}


#: ``expert``'s moves (seat 0, ``hard`` elsewhere) from whole games of deal 20,000:
#: (game, deal seed, seat, move, the moves before it), the 9th, 17th and 25th decisions
#: of ``lab.coach_judge.expert_moves(game, 25, 20_000)``.
EXPERT_MOVES = (
    (
        "skyjo",
        20000,
        0,
        0,
        (
            23,
            17,
            20,
            16,
            22,
            24,
            20,
            15,
            0,
            9,
            0,
            36,
            0,
            26,
            0,
            2,
            1,
            2,
            0,
            2,
            1,
            2,
            0,
            28,
            0,
            3,
            1,
            8,
            0,
            30,
            0,
            4,
            0,
            37,
            0,
            3,
            0,
            28,
            0,
            36,
        ),
    ),
    (
        "skyjo",
        20000,
        0,
        0,
        (
            23,
            17,
            20,
            16,
            22,
            24,
            20,
            15,
            0,
            9,
            0,
            36,
            0,
            26,
            0,
            2,
            1,
            2,
            0,
            2,
            1,
            2,
            0,
            28,
            0,
            3,
            1,
            8,
            0,
            30,
            0,
            4,
            0,
            37,
            0,
            3,
            0,
            28,
            0,
            36,
            0,
            13,
            0,
            5,
            1,
            4,
            0,
            30,
            0,
            4,
            0,
            33,
            0,
            32,
            0,
            5,
            0,
            6,
            0,
            7,
            0,
            27,
            0,
            33,
            0,
            7,
            1,
            6,
            0,
            6,
            0,
            7,
        ),
    ),
    (
        "skyjo",
        20000,
        0,
        0,
        (
            23,
            17,
            20,
            16,
            22,
            24,
            20,
            15,
            0,
            9,
            0,
            36,
            0,
            26,
            0,
            2,
            1,
            2,
            0,
            2,
            1,
            2,
            0,
            28,
            0,
            3,
            1,
            8,
            0,
            30,
            0,
            4,
            0,
            37,
            0,
            3,
            0,
            28,
            0,
            36,
            0,
            13,
            0,
            5,
            1,
            4,
            0,
            30,
            0,
            4,
            0,
            33,
            0,
            32,
            0,
            5,
            0,
            6,
            0,
            7,
            0,
            27,
            0,
            33,
            0,
            7,
            1,
            6,
            0,
            6,
            0,
            7,
            0,
            8,
            0,
            10,
            1,
            10,
            0,
            37,
            0,
            34,
            0,
            37,
            0,
            7,
            1,
            13,
            0,
            13,
            0,
            13,
            0,
            35,
            0,
            34,
            0,
            10,
            0,
            8,
            1,
            11,
            0,
            35,
        ),
    ),
    ("skipbo", 20000, 0, 122, (120, 4, 8, 116, 120, 12, 125, 116, 125, 112, 121, 121, 126, 117)),
    (
        "skipbo",
        20000,
        0,
        53,
        (
            120,
            4,
            8,
            116,
            120,
            12,
            125,
            116,
            125,
            112,
            121,
            121,
            126,
            117,
            122,
            134,
            0,
            20,
            60,
            64,
            64,
            0,
            52,
        ),
    ),
    (
        "skipbo",
        20000,
        0,
        110,
        (
            120,
            4,
            8,
            116,
            120,
            12,
            125,
            116,
            125,
            112,
            121,
            121,
            126,
            117,
            122,
            134,
            0,
            20,
            60,
            64,
            64,
            0,
            52,
            53,
            9,
            100,
            13,
            0,
            52,
            1,
            61,
            61,
            61,
            1,
            53,
            53,
            143,
            1,
            53,
            125,
            139,
            131,
            135,
            127,
            105,
        ),
    ),
)


@functools.cache
def _found(game: str, seed: int) -> tuple[Position, ...]:
    return tuple(blunders(game, 1, seed))


def _blunders(game: str) -> tuple[Position, ...]:
    return tuple(
        next(p for p in _found(game, seed) if p.kind == kind) for kind, seed in SAMPLE[game].items()
    )


def _verdict(position: Position, seed: int = 7):  # type: ignore[no-untyped-def]
    verdict = judge_position(position.state(), position.seat, position.action, seed)
    assert verdict is not None
    return verdict


@pytest.mark.parametrize("game", sorted(KINDS))
def test_one_blunder_of_each_kind_is_named(game: str) -> None:
    found = _blunders(game)
    assert sorted(p.kind for p in found) == sorted(KINDS[game])
    for position in found:
        verdict = _verdict(position)
        assert clearly_worse(MEASURES[game], verdict), (position.kind, verdict)
        assert verdict.best_action != position.action


@pytest.mark.parametrize("game", sorted(KINDS))
def test_hards_moves_are_left_alone(game: str) -> None:
    for position in strong_moves(game, 4, 10_000, every=3):
        verdict = _verdict(position)
        assert not clearly_worse(MEASURES[game], verdict), verdict


@pytest.mark.parametrize("pin", EXPERT_MOVES, ids=lambda pin: f"{pin[0]}-{len(pin[4])}")
def test_experts_moves_are_left_alone(pin: tuple[str, int, int, int, tuple[int, ...]]) -> None:
    game, seed, seat, action, actions = pin
    verdict = _verdict(Position(game, seed, actions, seat, action, None))
    assert not clearly_worse(MEASURES[game], verdict), verdict


def _skipbo_sample(kind: str) -> tuple[Position, SkipBoState]:
    position = next(p for p in _blunders("skipbo") if p.kind == kind)
    state = position.state()
    assert isinstance(state, SkipBoState)
    return position, state


def test_a_discard_while_the_stock_plays_is_no_blunder_when_playing_it_gifts() -> None:
    """Playing the stock card must cost nothing for the discard to be a blunder: once
    the pile it plays on would then need the opponent's stock top, it is not one."""
    position, state = _skipbo_sample("discard_with_stock")
    assert skipbo_blunder(state) == ("discard_with_stock", state, position.action)
    top = state.stocks[position.seat][-1]
    needs = [len(pile) + 1 for pile in state.building]
    assert top != 0 and needs.count(top) == 1
    state.stocks[1 - position.seat][-1] = top + 1
    found = skipbo_blunder(state)
    assert found is None or found[0] != "discard_with_stock", found


def test_a_gift_is_no_blunder_when_the_opponent_shows_the_card_it_gives() -> None:
    """The opponent's stock top made playable is a gift only if they could not play up
    to it themselves: with the card below it on their discard pile, it is not one."""
    position, state = _skipbo_sample("gift_stock")
    assert skipbo_blunder(state) == ("gift_stock", state, position.action)
    other = 1 - position.seat
    below = state.stocks[other][-1] - 1
    state.discards[other][3].append(below)
    found = skipbo_blunder(state)
    assert found is None or found[0] != "gift_stock", found


def test_a_high_card_over_a_low_one_is_named_with_what_it_cost() -> None:
    """The issue's example: the reason names the card buried and the points."""
    position = _blunders("skyjo")[0]
    assert position.kind == "high_over_low"
    verdict = _verdict(position)
    assert verdict.cost >= 2.0
    assert verdict.played_reason.startswith("replaces a ")
    assert verdict.played_reason_parts[0].key == "advice.skyjo.replaces"


def test_a_verdict_is_the_same_for_a_seed_and_blind_to_hidden_cards() -> None:
    """Two states that look the same to the seat get the same verdict."""
    position = _blunders("skyjo")[0]
    state = position.state()
    other = state.determinize(position.seat, Rng(99))  # other hidden cards, same view
    first = judge_position(state, position.seat, position.action, 11)
    again = judge_position(state, position.seat, position.action, 11)
    seen = judge_position(other, position.seat, position.action, 11)
    assert first == again == seen


def test_a_skipbo_verdict_is_blind_to_the_opponents_hand() -> None:
    position = _blunders("skipbo")[0]
    state = position.state()
    assert isinstance(state, SkipBoState)
    other = state.determinize(position.seat, Rng(5))
    assert other.hands != state.hands or other.draw != state.draw
    first = judge_position(state, position.seat, position.action, 3)
    seen = judge_position(other, position.seat, position.action, 3)
    assert first == seen


def test_the_review_uses_the_judge() -> None:
    game = get_game("skyjo")
    position = _blunders("skyjo")[0]
    rules = game.rules_from_json({})
    actions = [*position.actions, position.action]
    # Two decisions spread over the game: the seat's first and its last, the blunder.
    review = review_game(game, rules, position.seed, actions, position.seat, max_decisions=2)
    assert review.reviewed == 2
    move = review.moves[-1]
    assert move.number == len(actions)
    assert move.cost >= 2.0 and review.worst()[0] == move
