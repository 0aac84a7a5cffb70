"""The shared conformance checker over many seeds and every variant."""

import pytest

from cardtable.core import check_game
from cardtable.skipbo import GAME, SkipBoRules

VARIANTS = [
    SkipBoRules(players=2),
    SkipBoRules(players=3, stock_size=10),
    SkipBoRules(players=4, stock_size=15),
    SkipBoRules(players=5),
    SkipBoRules(players=6, stock_size=5),
    SkipBoRules(players=4, teams=True, stock_size=10),
    SkipBoRules(players=6, teams=True, stock_size=5, discard_to_partner=True),
    SkipBoRules(players=2, stock_size=5, rounds=True, target=50, first_player=1),
    SkipBoRules(players=4, teams=True, stock_size=5, rounds=True, target=60, points_per_card=1),
]


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda rules: str(rules.to_json()))
def test_random_games_pass_the_conformance_checker(rules: SkipBoRules) -> None:
    report = check_game(GAME, rules, range(6), deep_every=5, replay_every=100)
    assert report.games == 6
    assert report.moves > 0


def test_many_seeds_light_checks() -> None:
    report = check_game(
        GAME, SkipBoRules(players=2, stock_size=5), range(100, 140), deep_every=40, replay_every=500
    )
    assert report.games == 40
