"""The shared conformance checker over many seeds and every variant."""

from typing import Any

import pytest

from cardtable.bots import make_bot
from cardtable.core import GameState, Rng, check_game
from cardtable.skipbo import GAME, SkipBoRules

GREEDY = make_bot("skipbo", "greedy")


def mostly_greedy(state: GameState[Any], rng: Rng) -> int:
    """Greedy three times in four, else random: random play alone rarely wins a round."""
    if rng.below(4):
        return GREEDY.choose(state, rng)
    legal = state.legal_actions()
    return legal[rng.below(len(legal))]


VARIANTS = [
    SkipBoRules(players=2),
    SkipBoRules(players=3, stock_size=10),
    SkipBoRules(players=4, stock_size=15),
    SkipBoRules(players=5),
    SkipBoRules(players=6, stock_size=5),
    SkipBoRules(players=4, teams=True, stock_size=10),
    SkipBoRules(players=6, teams=True, stock_size=5, discard_to_partner=True),
]

MATCHES = [
    SkipBoRules(players=2, stock_size=5, rounds=True, target=100, first_player=1),
    SkipBoRules(players=3, stock_size=5, rounds=True, target=80),
    SkipBoRules(players=4, teams=True, stock_size=5, rounds=True, target=60, points_per_card=1),
]


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda rules: str(rules.to_json()))
def test_random_games_pass_the_conformance_checker(rules: SkipBoRules) -> None:
    report = check_game(GAME, rules, range(6), deep_every=5, replay_every=100)
    assert report.games == 6
    assert report.moves > 0


@pytest.mark.parametrize("rules", MATCHES, ids=lambda rules: str(rules.to_json()))
def test_multi_round_matches_pass_the_conformance_checker(rules: SkipBoRules) -> None:
    report = check_game(GAME, rules, range(4), deep_every=5, replay_every=100, policy=mostly_greedy)
    assert report.games == 4
    assert report.blocked == 0  # a match always ends with a winner


def test_many_seeds_light_checks() -> None:
    report = check_game(
        GAME, SkipBoRules(players=2, stock_size=5), range(100, 140), deep_every=40, replay_every=500
    )
    assert report.games == 40
