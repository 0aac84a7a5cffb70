"""The core conformance checker over many seeds, every player count and each option."""

from __future__ import annotations

import pytest

from cardtable.core import check_game
from cardtable.skyjo import GAME, SkyjoRules


@pytest.mark.slow
@pytest.mark.parametrize("players", range(2, 9))
def test_conformance_by_player_count(players: int) -> None:
    report = check_game(
        GAME, SkyjoRules(players=players), range(100, 106), deep_every=8, replay_every=200
    )
    assert report.games == 6


@pytest.mark.slow
@pytest.mark.parametrize(
    "options",
    [
        {"rows_rule": True},
        {"closer_starts_next": True},
        {"closer_doubling": False},
        {"end_score": 1},
        {"end_score": 200, "players": 3},
        {"rows_rule": True, "closer_starts_next": True, "closer_doubling": False, "players": 6},
    ],
    ids=lambda options: ",".join(f"{k}={v}" for k, v in options.items()),
)
def test_conformance_by_option(options: dict[str, object]) -> None:
    report = check_game(
        GAME,
        SkyjoRules(**options),
        range(200, 203),
        deep_every=5,
        replay_every=200,  # type: ignore[arg-type]
    )
    assert report.games == 3


@pytest.mark.slow
def test_conformance_every_move_deep() -> None:
    report = check_game(GAME, SkyjoRules(players=3), range(2), deep_every=1, replay_every=10)
    assert report.games == 2
