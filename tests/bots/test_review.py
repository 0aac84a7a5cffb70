"""The post-game review: what each decision of a seat cost, by the move advisor."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from cardtable.bots import advisor, make_bot
from cardtable.bots.review import (
    has_choice,
    review_game,
    review_message,
    review_position,
    spread,
)
from cardtable.core import Rng
from cardtable.games import get_game
from cardtable.skipbo.moves import DISCARD_BASE, END_TURN
from cardtable.skyjo.moves import DISCARD_AND_REVEAL, EXCHANGE

from ..skipbo.helpers import position
from ..skyjo.helpers import build, grid, hidden

GREEDY_RANDOM = ["greedy", "random"]


def _played(game_name: str, options: dict[str, Any], seed: int, bots: list[str]) -> Any:
    game = get_game(game_name)
    rules = game.rules_from_json(options)
    state = game.new_state(rules, seed)
    players = [make_bot(game_name, bots[s % len(bots)]) for s in range(state.num_players)]
    rng = Rng(seed)
    while (seat := state.current_player) is not None:
        state.apply_action(players[seat].choose(state, rng))
    return game, rules, state


def _winning_position() -> Any:
    # The last stock card (a 4) fits the pile 1-2-3: playing it wins the round at once.
    return position(
        hands={0: [0, 3, 5, 7, 9]},
        stocks={0: [4], 1: [6, 6, 6]},
        building=[[1, 2, 3], [], [], []],
    )


def test_skipbo_a_discard_instead_of_the_winning_stock_play_costs_something() -> None:
    state = _winning_position()
    before = state.to_json()
    discard_9 = DISCARD_BASE + 9 * 4 + 0
    verdict = review_position(state, 0, discard_9, iterations=3, seed=1)
    assert verdict is not None
    assert verdict.played == "discard 9 to discard pile 1"
    assert verdict.best == "play stock to building pile 1"
    assert verdict.best_value == 1.0 and verdict.reason == "wins the round now"
    assert 0.0 < verdict.cost == pytest.approx(1.0 - verdict.played_value)
    assert verdict.number == len(state.history) + 1 and verdict.round == 1
    assert state.to_json() == before  # the review changes nothing

    # The best move costs nothing, and is its own best move.
    best = review_position(state, 0, verdict.best_action, iterations=3, seed=1)
    assert best is not None
    assert best.cost == 0.0 and best.best_action == best.action and best.best == best.played


def test_skyjo_covering_a_minus_two_with_a_twelve_costs_points() -> None:
    state = build(
        [grid("-2 0 1 * * * * * * * * *"), hidden()],
        phase="drawn",
        hand=12,
        discard=(7,),
    )
    cover = EXCHANGE + 0  # the 12 replaces the face-up -2: 14 points more on the grid
    # Skyjo round points vary a lot from one re-deal to the next: a loss is only
    # reported once it is clear, which takes many paired re-deals here.
    verdict = review_position(state, 0, cover, iterations=4, seed=2, confirm=64)
    assert verdict is not None
    assert verdict.played == "exchange with the card at row 1, column 1"
    assert verdict.played_reason == "replaces a -2 with the 12: +14 on the grid"
    assert verdict.cost > 2.0, verdict  # the 12 is often replaced later in the round
    assert verdict.played_value - verdict.best_value == pytest.approx(verdict.cost)
    assert verdict.samples == 64
    best = review_position(state, 0, verdict.best_action, iterations=4, seed=2, confirm=64)
    assert best is not None and best.cost == 0.0


def test_a_loss_that_is_not_clear_is_not_reported() -> None:
    # On a few paired re-deals the same bad Skyjo move cannot be told from noise:
    # it is then reported as costing nothing, with the played move shown as the best.
    state = build(
        [grid("-2 0 1 * * * * * * * * *"), hidden()],
        phase="drawn",
        hand=12,
        discard=(7,),
    )
    verdict = review_position(state, 0, EXCHANGE + 0, iterations=4, seed=2, confirm=16)
    assert verdict is not None
    assert verdict.cost == 0.0 and verdict.best_action == verdict.action


def test_decisions_without_a_real_choice_are_not_reviewed() -> None:
    # Skyjo set-up: twelve unknown cards to turn up.
    skyjo = get_game("skyjo").new_state(get_game("skyjo").rules_from_json({"players": 2}), 1)
    assert len(skyjo.legal_actions()) > 1 and not has_choice(skyjo, skyjo.current_player)
    # Skip-Bo: a 1 onto any of four empty building piles, or a discard onto any of
    # four empty discard piles, is one move each; a hand of two 1s has three moves.
    state = position(hands={0: [1, 1]}, stocks={0: [9, 9], 1: [9]})
    assert advisor.distinct_moves(state) == 2  # play a 1, discard a 1
    assert len(state.legal_actions()) == 8
    assert has_choice(state, 0) and not has_choice(state, 1)
    only_end = position(hands={0: []}, stocks={0: [9, 9], 1: [9]})
    assert only_end.legal_actions() == [END_TURN] and not has_choice(only_end, 0)
    assert review_position(skyjo, skyjo.current_player, skyjo.legal_actions()[0], 2, 0) is None


def test_a_review_is_deterministic_and_covers_every_decision_with_a_choice() -> None:
    game, rules, state = _played("skipbo", {"players": 2, "stock_size": 5}, 11, GREEDY_RANDOM)
    first = review_game(game, rules, state.seed, state.history, 1, iterations=2, rng=Rng(7))
    again = review_game(game, rules, state.seed, state.history, 1, iterations=2, rng=Rng(7))
    assert first == again
    assert first.measure == "win_chance" and first.seat == 1 and first.confirm == 8
    # Replaying, count the decisions of seat 1 with a choice: each one is reviewed.
    replay = game.new_state(rules, state.seed)
    numbers = []
    for action in state.history:
        if has_choice(replay, 1):
            numbers.append(len(replay.history) + 1)
        replay.apply_action(action)
    assert [move.number for move in first.moves] == numbers and first.decisions == len(numbers)
    for move in first.moves:
        assert state.history[move.number - 1] == move.action  # the move really played
        assert move.cost >= 0.0
        assert (move.cost == 0.0) == (move.best_action == move.action)
    assert first.total_cost == pytest.approx(sum(m.cost for m in first.moves))
    worst = first.worst(3)
    assert list(worst) == sorted(worst, key=lambda m: -m.cost) and all(m.cost > 0 for m in worst)
    data = first.to_json()
    assert data["reviewed"] == len(first.moves) and data["worst"] == [m.number for m in worst]


def test_max_decisions_keeps_each_decision_s_figures() -> None:
    game, rules, state = _played("skyjo", {"players": 2, "end_score": 20}, 3, ["greedy"])
    whole = review_game(game, rules, state.seed, state.history, 1, iterations=1, rng=Rng(3))
    part = review_game(
        game, rules, state.seed, state.history, 1, iterations=1, max_decisions=5, rng=Rng(3)
    )
    assert part.decisions == whole.decisions > 5 and part.reviewed == 5
    assert part.moves[0] == whole.moves[0] and part.moves[-1] == whole.moves[-1]
    by_number = {move.number: move for move in whole.moves}
    assert all(by_number[move.number] == move for move in part.moves)


def test_spread_picks_evenly_from_first_to_last() -> None:
    assert spread([1, 2, 3], None) == [1, 2, 3]
    assert spread(list(range(10)), 4) == [0, 3, 6, 9]
    assert spread(list(range(10)), 1) == [0]
    assert spread(list(range(3)), 5) == [0, 1, 2]


@pytest.mark.parametrize(
    ("game_name", "options", "seed"),
    [("skipbo", {"players": 3, "stock_size": 5}, 10), ("skyjo", {"players": 3}, 6)],
)
def test_the_review_of_a_seat_depends_only_on_what_it_saw(
    game_name: str, options: dict[str, Any], seed: int
) -> None:
    # At every decision of seat 1, re-dealing every card seat 1 could not see (the
    # other hands, the stocks under their tops, the draw pile, face-down cards)
    # leaves the verdict exactly as it was: hidden cards cannot shape the review.
    game, rules, state = _played(game_name, options, seed, GREEDY_RANDOM)
    replay = game.new_state(rules, state.seed)
    checked = decisions = 0
    for index, action in enumerate(state.history):
        if has_choice(replay, 1) and decisions % 3 == 0 and checked < 6:
            real = review_position(replay, 1, action, iterations=1, seed=index)
            redealt = replay.determinize(1, Rng(1000 + index))
            assert redealt.view(1) == replay.view(1)
            if redealt.to_json() != replay.to_json():
                checked += 1
            assert review_position(redealt, 1, action, iterations=1, seed=index) == real
        decisions += has_choice(replay, 1)
        replay.apply_action(action)
    assert checked >= 3


def test_the_advisor_is_never_given_the_real_position(monkeypatch: pytest.MonkeyPatch) -> None:
    from cardtable.bots import review

    game, rules, state = _played("skyjo", {"players": 2, "end_score": 20}, 8, ["greedy"])
    given: list[Any] = []
    real_advise = review.advise

    def recording(world: Any, seat: int, *args: Any, **kwargs: Any) -> Any:
        given.append(world)
        return real_advise(world, seat, *args, **kwargs)

    monkeypatch.setattr(review, "advise", recording)
    replay = game.new_state(rules, state.seed)
    for action in state.history[:60]:
        if has_choice(replay, 0):
            count = len(given)
            review.review_position(replay, 0, action, iterations=1, seed=0)
            assert len(given) > count
            for world in given[count:]:
                assert world is not replay and world.view(0) == replay.view(0)
        replay.apply_action(action)
    assert given


def test_bad_arguments_are_refused() -> None:
    game, rules, state = _played("skipbo", {"players": 2, "stock_size": 5}, 11, GREEDY_RANDOM)
    with pytest.raises(ValueError, match="seat"):
        review_game(game, rules, state.seed, state.history, 2)
    with pytest.raises(ValueError, match="iterations"):
        review_game(game, rules, state.seed, state.history, 0, iterations=0)
    winning = _winning_position()
    with pytest.raises(ValueError, match="not legal"):
        review_position(winning, 0, DISCARD_AND_REVEAL, iterations=1, seed=0)
    assert dataclasses.is_dataclass(review_game(game, rules, state.seed, [], 0))


def test_the_review_message_names_the_worst_moves_and_words_moves_as_engine_json() -> None:
    game, rules, state = _played("skipbo", {"players": 2, "stock_size": 5}, 11, GREEDY_RANDOM)
    review = review_game(game, rules, state.seed, state.history, 1, iterations=2, rng=Rng(7))
    message = review_message(game, review, 3)
    assert message["type"] == "review" and message["game_no"] == 3
    assert message["worst"] == [move.number for move in review.worst()]
    assert len(message["moves"]) == review.reviewed
    for move, reviewed in zip(message["moves"], review.moves, strict=True):
        assert move["played_move"] == game.decode(reviewed.action).to_json()
        assert move["best_move"] == game.decode(reviewed.best_action).to_json()
        assert {k: move[k] for k in reviewed.to_json()} == reviewed.to_json()
