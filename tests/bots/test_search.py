"""The expert's search: paired comparisons, the conservative choice, budgets by name."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest

from cardtable.bots import make_bot
from cardtable.bots.montecarlo import Budget, Comparison, compare, improve
from cardtable.bots.registry import parse_bot_name
from cardtable.bots.skipbo_expert import SkipBoExpert, skipbo_progress
from cardtable.bots.skipbo_hard import (
    HARD_WEIGHTS,
    HardBot,
    PlanFollowingBot,
    PlanWeights,
    TurnPlanner,
    discard_options,
)
from cardtable.bots.skipbo_value import stock_cards_to_come, win_chance
from cardtable.core import Rng
from cardtable.games import get_game
from cardtable.skipbo.moves import DISCARD_BASE, DISCARD_PLAY_BASE, END_TURN, STOCK_BASE
from cardtable.skipbo.state import SkipBoState

from ..skipbo.helpers import position


def test_improve_keeps_the_baseline_unless_a_gain_is_clear() -> None:
    close = [Comparison(7, 0.4, 0.3, 12), Comparison(9, -1.0, 0.1, 12)]
    assert improve(3, close, z=2.5) == 3
    clear = [Comparison(7, 2.0, 0.5, 12), Comparison(8, 1.5, 0.1, 12)]
    # Both are clear; the larger gain wins.
    assert improve(3, clear, z=2.5) == 7
    assert improve(3, [Comparison(7, -5.0, 0.0, 12)], z=0.0) == 3
    assert improve(3, [], z=2.5) == 3


def _position(seed: int, moves: int) -> SkipBoState:
    game = get_game("skipbo")
    state = game.new_state(game.rules_from_json({"stock_size": 10}), seed)
    bots = [HardBot(), HardBot()]
    for _ in range(moves):
        state.apply_action(bots[state.current].choose(state, Rng(0)))
    assert isinstance(state, SkipBoState) and not state.is_over
    return state


@pytest.mark.parametrize("seat_draws", [False, True])
def test_compare_pairs_every_alternative_with_the_baseline_on_the_same_redeals(
    seat_draws: bool,
) -> None:
    state = _position(0, 4)
    expert = SkipBoExpert(Budget(iterations=6, milliseconds=None), seat_draws=seat_draws)
    baseline = HardBot().choose(state, Rng(0))
    before = state.to_json()
    results = expert.compare(state, baseline, Rng(5))
    assert state.to_json() == before
    assert results, "a position with a choice has alternatives"
    assert all(c.samples == 6 and c.action != baseline for c in results)
    assert len({c.action for c in results}) == len(results)
    assert [c.gain for c in results] == sorted((c.gain for c in results), reverse=True)
    # Deterministic, and blind to the real hidden cards.
    assert expert.compare(state, baseline, Rng(5)) == results
    redealt = state.determinize(state.current, Rng(77))
    assert expert.compare(redealt, baseline, Rng(5)) == results


def test_rivals_are_the_moves_hard_values_close_to_its_own() -> None:
    # Seed 0: at move 3 hard discards, at move 4 it plays; both have close rivals.
    discarding = _position(0, 3)
    baseline = HardBot().choose(discarding, Rng(0))
    assert baseline >= DISCARD_BASE
    legal = discarding.legal_actions()
    rivals = SkipBoExpert().rivals(discarding, baseline)
    assert rivals and baseline not in rivals and len(set(rivals)) == len(rivals)
    assert all(a in legal and a >= DISCARD_BASE for a in rivals)
    scores = dict((a, s) for s, a in discard_options(discarding, discarding.current, legal))
    assert all(scores[a] >= scores[baseline] - 0.5 for a in rivals)
    # A narrower margin keeps fewer (only exact ties at zero); a wider one more.
    exact = SkipBoExpert(dmargin=0.0).rivals(discarding, baseline)
    assert set(exact) <= set(rivals) and all(scores[a] == scores[baseline] for a in exact)
    assert set(rivals) <= set(SkipBoExpert(dmargin=50.0).rivals(discarding, baseline))

    playing = _position(0, 4)
    baseline = HardBot().choose(playing, Rng(0))
    assert baseline < DISCARD_BASE
    rivals = SkipBoExpert().rivals(playing, baseline)
    assert rivals and baseline not in rivals
    assert all(a in playing.legal_actions() and a < DISCARD_BASE for a in rivals)
    assert SkipBoExpert(margin=-1.0).rivals(playing, baseline) == []


def test_an_expert_that_never_trusts_the_search_plays_hards_moves() -> None:
    game = get_game("skipbo")
    state = game.new_state(game.rules_from_json({"stock_size": 6}), 4)
    expert = SkipBoExpert(Budget(iterations=3, milliseconds=None), z=float("inf"))
    hard = HardBot()
    while not state.is_over:
        move = hard.choose(state, Rng(0))
        assert expert.choose(state, Rng(0)) == move
        state.apply_action(move)


def test_equivalent_moves_differ_by_exactly_nothing_on_paired_redeals() -> None:
    # At the deal every building pile is empty: a 1 onto pile 1 or onto pile 2 are the
    # same move, so on shared re-deals their rollouts differ by nothing at all.
    game = get_game("skipbo")
    rules = game.rules_from_json({"stock_size": 10})
    state = next(
        s
        for seed in range(100)
        if isinstance(s := game.new_state(rules, seed), SkipBoState)
        and s.hands[s.current][1]
        and s.stocks[s.current][-1] not in (0, 1)
    )
    expert = SkipBoExpert(Budget(iterations=5, milliseconds=None))
    results = compare(
        state,
        state.current,
        4,  # a 1 from the hand onto building pile 1
        [5, 6],  # ... onto pile 2 or 3
        [PlanFollowingBot(), PlanFollowingBot()],
        skipbo_progress,
        expert._over,
        Budget(iterations=5, milliseconds=None),
        Rng(1),
    )
    assert [(c.gain, c.error, c.samples) for c in results] == [(0.0, 0.0, 5), (0.0, 0.0, 5)]
    assert improve(4, results, z=0.0) == 4


def test_one_iteration_never_leaves_hards_move() -> None:
    state = _position(0, 4)
    baseline = HardBot().choose(state, Rng(0))
    results = SkipBoExpert(Budget(iterations=1, milliseconds=None)).compare(state, baseline, Rng(2))
    assert results and all(c.samples == 1 and c.error == float("inf") for c in results)
    assert improve(baseline, results, z=0.5) == baseline


def test_plan_following_bot_starts_each_turn_as_hard_and_stays_legal() -> None:
    game = get_game("skipbo")
    for seed in range(6):
        state = game.new_state(game.rules_from_json({"stock_size": 8}), seed)
        bots = [PlanFollowingBot(), PlanFollowingBot()]
        turn = -1
        while not state.is_over:
            assert isinstance(state, SkipBoState)
            choice = bots[state.current].choose(state, Rng(0))
            assert state.is_legal_action(choice)
            if state.turns != turn:
                turn = state.turns
                assert choice == HardBot().choose(state, Rng(0))
            state.apply_action(choice)


def test_budget_in_the_bot_name() -> None:
    assert parse_bot_name("skipbo", "expert@16") == ("expert", 16)
    assert parse_bot_name("skyjo", "hard") == ("hard", None)
    bot: Any = make_bot("skyjo", "expert@3")
    assert bot.name == "expert@3" and bot.budget.iterations == 3
    for wrong, words in [
        ("hard@3", "takes no budget"),
        ("expert@0", "from 1 to"),
        ("expert@many", "whole number"),
        ("expert@²", "whole number"),
        ("expert@" + "9" * 5000, "from 1 to"),
        ("expert@", "whole number"),
        ("wizard@3", "unknown bot 'wizard'"),
    ]:
        with pytest.raises(KeyError, match=words):
            make_bot("skipbo", wrong)


def test_the_planned_line_says_whether_the_turn_is_planned_again() -> None:
    # 1 from hand, then the stock's 2: the stock play reveals a card, so plan again.
    stock_last = TurnPlanner(position(hands={0: [1, 5, 7, 9, 11]}, stocks={0: [2, 2], 1: [9]}), 0)
    stock_last.search()
    assert len(stock_last.best_line) == 2 and not stock_last.best_stops
    # 1 and 2 from hand and nothing else: the line is the whole turn, a discard follows.
    hand_only = TurnPlanner(position(hands={0: [1, 2, 7, 9, 11]}, stocks={0: [12, 12], 1: [9]}), 0)
    hand_only.search()
    assert len(hand_only.best_line) == 2 and hand_only.best_stops


def _decisions(bot: HardBot, games: int = 3) -> list[int]:
    """Every move ``bot`` makes in seat 0 of short games against ``hard``."""
    game = get_game("skipbo")
    rules = game.rules_from_json({"stock_size": 8})
    moves: list[int] = []
    for seed in range(games):
        state = game.new_state(rules, seed)
        bots = [bot, HardBot()]
        while not state.is_over:
            action = bots[state.current].choose(state, Rng(0))
            if state.current == 0:
                moves.append(action)
            state.apply_action(action)
    return moves


def test_hards_variants_are_made_through_its_planner_and_weights() -> None:
    """``hard`` is a TurnPlanner with HARD_WEIGHTS; a variant changes one of them and
    only then plays otherwise (the experiments of docs/bots.md build theirs so)."""
    baseline = _decisions(HardBot())
    assert _decisions(HardBot(weights=PlanWeights())) == baseline
    assert _decisions(HardBot(planner=TurnPlanner, weights=HARD_WEIGHTS)) == baseline
    assert _decisions(HardBot(weights=dataclasses.replace(HARD_WEIGHTS, gift=0.0))) != baseline

    class Careless(TurnPlanner):
        def danger(self) -> float:
            return 0.0

    careless = _decisions(HardBot(planner=Careless))
    assert careless != baseline
    # Without gifts weighed, the danger term is zero whatever it reads.
    assert careless == _decisions(HardBot(weights=dataclasses.replace(HARD_WEIGHTS, gift=0.0)))


def test_the_gift_table_weighs_only_the_gaps_it_lists() -> None:
    weights = PlanWeights(gift_by_gap=(1.0, 0.5))
    assert [weights.gift_chance(gap) for gap in (-1, 0, 1, 2)] == [0.0, 1.0, 0.5, 0.0]


@pytest.mark.parametrize(
    "options", [{"players": 2, "stock_size": 10}, {"players": 4, "teams": True, "stock_size": 8}]
)
def test_hard_with_a_memo_decides_exactly_as_without(options: dict[str, Any]) -> None:
    # One memo across many positions and their re-deals: a hit must give the move a
    # fresh search gives, whatever the hidden cards (which the key leaves out).
    game = get_game("skipbo")
    rules = game.rules_from_json(options)
    memo: dict[tuple[object, ...], Any] = {}
    remembering, fresh = HardBot(memo), HardBot()
    decisions = 0
    for seed in range(3):
        state = game.new_state(rules, seed)
        rng = Rng(seed)
        while not state.is_over and len(state.history) < 250:
            for world in (state, state.determinize(state.current, rng.spawn())):
                assert isinstance(world, SkipBoState)
                assert remembering.choose(world, Rng(0)) == fresh.choose(world, Rng(0))
                decisions += 1
            legal = state.legal_actions()
            # Mostly hard's moves, sometimes another, to reach varied positions.
            move = legal[rng.below(len(legal))] if rng.below(4) == 0 else fresh.choose(state, rng)
            state.apply_action(move)
    assert 0 < len(memo) < decisions


def _hard_positions(seeds: range, stock: int) -> Iterator[tuple[SkipBoState, int]]:
    """Every position of seeded ``hard`` games, with ``hard``'s move there."""
    game = get_game("skipbo")
    for seed in seeds:
        state = game.new_state(game.rules_from_json({"stock_size": stock}), seed)
        assert isinstance(state, SkipBoState)
        while not state.is_over:
            move = HardBot().choose(state, Rng(0))
            yield state, move
            state.apply_action(move)


def test_stopping_is_a_rival_of_a_play_only_with_a_stop_margin() -> None:
    found = 0
    for state, baseline in _hard_positions(range(4), 10):
        # Plays from the hand or a discard pile (stock plays are never searched).
        if not (baseline < STOCK_BASE or DISCARD_PLAY_BASE <= baseline < DISCARD_BASE):
            continue
        legal = state.legal_actions()
        stop = END_TURN if END_TURN in legal else HardBot.discard(state, state.current, legal)
        assert all(a < DISCARD_BASE for a in SkipBoExpert().rivals(state, baseline))
        close = SkipBoExpert(smargin=3.0).rivals(state, baseline)
        assert [a for a in close if a >= DISCARD_BASE] in ([], [stop])
        found += stop in close
        # With an unbounded margin, stopping always is a rival.
        assert stop in SkipBoExpert(smargin=float("inf")).rivals(state, baseline)
    assert found


def test_the_fitted_value_is_added_only_to_unfinished_two_player_rollouts() -> None:
    start = _position(1, 2)
    end = start.clone()
    for _ in range(12):
        end.apply_action(HardBot().choose(end, Rng(0)))
    assert not end.is_over
    seat = start.current
    race = skipbo_progress(start, end, seat)
    assert SkipBoExpert(value=0.0, win=False)._outcome(start, end, seat) == race
    worth = stock_cards_to_come(end, seat) - stock_cards_to_come(end, 1 - seat)
    assert worth != 0
    valued = SkipBoExpert(value=0.5, win=False)._outcome(start, end, seat)
    assert valued == (race[0] + 0.5 * worth, race[1])
    # A finished round is scored as won or lost, whatever the piles offer.
    while not end.is_over:
        end.apply_action(HardBot().choose(end, Rng(0)))
    race = skipbo_progress(start, end, seat)
    assert SkipBoExpert(value=0.5, win=False)._outcome(start, end, seat) == race


def test_the_win_objective_scores_the_chance_to_win_and_a_finished_round_as_won_or_lost() -> None:
    start = _position(1, 2)
    end = start.clone()
    for _ in range(12):
        end.apply_action(HardBot().choose(end, Rng(0)))
    seat = start.current
    expert = SkipBoExpert(win=True)
    score, secondary = expert._outcome(start, end, seat)
    assert score == win_chance(end, seat) and 0.0 < score < 1.0
    assert secondary == skipbo_progress(start, end, seat)[1]
    while not end.is_over:
        end.apply_action(HardBot().choose(end, Rng(0)))
    won = float(seat in end.round_log[-1].winners)
    assert expert._outcome(start, end, seat) == (won, won)
