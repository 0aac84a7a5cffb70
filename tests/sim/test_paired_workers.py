"""Paired seeds, several workers, and the ladder's Bradley-Terry fit."""

from __future__ import annotations

import math

import pytest

from cardtable.sim.ladder import bradley_terry, run_ladder
from cardtable.sim.tournament import run_tournament

from .racegame import RACE, RaceRules
from .test_tournament import race_bot


def test_paired_games_rotate_seats_over_one_deal() -> None:
    result = run_tournament(
        RACE, RaceRules(players=3), ["greedy", "random"], 6, 2, paired=True, bot_factory=race_bot
    )
    records = result.records
    assert records[0].seed == records[1].seed == records[2].seed != records[3].seed
    assert [r.bots for r in records[:3]] == [
        ("greedy", "random", "greedy"),
        ("random", "greedy", "greedy"),
        ("greedy", "greedy", "random"),
    ]
    greedy = result.bot("greedy")
    assert greedy.seats == (0, 1, 2)
    assert greedy.wins == sum(1 for r in records if any(r.bots[s] == "greedy" for s in r.winners))
    assert result.to_json()["paired"] is True
    with pytest.raises(ValueError, match="sets of 3"):
        run_tournament(RACE, RaceRules(players=3), ["random"], 4, 0, paired=True)


def test_workers_give_the_same_result_as_one() -> None:
    rules = RaceRules(players=2, rounds=2)
    one = run_tournament(
        RACE, rules, ["greedy", "random"], 24, 5, paired=True, bot_factory=race_bot
    )
    seen: list[int] = []
    two = run_tournament(
        RACE,
        rules,
        ["greedy", "random"],
        24,
        5,
        paired=True,
        bot_factory=race_bot,
        workers=2,
        progress=seen.append,
    )
    assert two == one
    assert seen[-1] == 24 and seen == sorted(seen)


def test_bradley_terry_recovers_known_odds() -> None:
    # a beats b 3 times in 4: the fitted difference is log(3) (prior aside) on the natural scale.
    fitted = bradley_terry(["a", "b"], {(0, 1): 3000.0, (1, 0): 1000.0})
    assert fitted[0] == (0.0, 0.0)
    assert fitted[1][0] == pytest.approx(-math.log(3), abs=1e-3)
    # standard error of a log-odds from n games: 1 / sqrt(n p (1 - p))
    assert fitted[1][1] == pytest.approx(1 / math.sqrt(4001 * 0.75 * 0.25), rel=1e-2)


def test_ladder_fits_the_round_robin() -> None:
    result = run_ladder(RACE, RaceRules(), ["random", "greedy"], 20, 1, bot_factory=race_bot)
    ((a, b, wins_a, wins_b),) = result.pairs
    assert (a, b) == ("random", "greedy") and 0 < wins_a + wins_b <= 20
    ratings = {r.name: r for r in result.ratings}
    assert ratings["random"].rating == 0.0  # the first bot is the anchor
    greedy = ratings["greedy"]
    assert greedy.low < greedy.rating < greedy.high
    # The sign of the rating follows the head-to-head score.
    assert (greedy.rating > 0) == (wins_b > wins_a)
    assert [r.rating for r in result.ratings] == sorted(
        (r.rating for r in result.ratings), reverse=True
    )
