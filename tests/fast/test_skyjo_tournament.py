"""Tournaments on the batch engine play the reference tournament's games, record for record."""

from __future__ import annotations

import json

import pytest

from cardtable.cli import main
from cardtable.sim.fast_tournament import run_fast_tournament
from cardtable.sim.tournament import run_tournament
from cardtable.skyjo import GAME, SkyjoRules

CASES = [
    (SkyjoRules(players=2), ["hard", "greedy"], True),
    (SkyjoRules(players=3, rows_rule=True, closer_starts_next=True), ["hard", "random"], False),
    (SkyjoRules(players=2), ["greedy", "random"], False),
    (SkyjoRules(players=3, rows_rule=True), ["greedy"], True),
    (SkyjoRules(players=4, closer_doubling=False), ["random", "greedy"], True),
    (SkyjoRules(players=5, closer_starts_next=True, turn_limit=100), ["greedy"], False),
    (SkyjoRules(players=8, end_score=40), ["greedy", "random", "greedy"], False),
]
IDS = [f"{rules.players}p-{'-'.join(bots)}-paired{int(paired)}" for rules, bots, paired in CASES]


def games_for(rules: SkyjoRules, count: int) -> int:
    return count - count % rules.players


@pytest.mark.parametrize(("rules", "bots", "paired"), CASES, ids=IDS)
def test_fast_tournament_records_equal_the_reference(rules, bots, paired) -> None:
    """Same deals, seats, bot streams and choices: every record is the reference's
    (winners, scores, every round's points, moves, turns, blocked)."""
    games = games_for(rules, 60)
    fast = run_fast_tournament(GAME, rules, bots, games, 7, paired=paired, batch=16)
    reference = run_tournament(GAME, rules, bots, games, 7, paired=paired)
    assert fast.records == reference.records
    assert fast.to_json() == reference.to_json()


@pytest.mark.crosscheck
@pytest.mark.parametrize(("rules", "bots", "paired"), CASES[:5], ids=IDS[:5])
def test_fast_tournament_equals_the_reference_over_many_games(rules, bots, paired) -> None:
    """10,000 games per set-up: the compiled greedy and hard bots choose as the Python
    ones, against each other and against random."""
    games = games_for(rules, 10_000)
    fast = run_fast_tournament(GAME, rules, bots, games, 11, paired=paired)
    reference = run_tournament(GAME, rules, bots, games, 11, paired=paired)
    for mine, theirs in zip(fast.records, reference.records, strict=True):
        assert mine == theirs, f"deal seed {theirs.seed}"


def test_rounds_cut_by_the_turn_limit_are_counted_as_the_reference_counts_them() -> None:
    rules = SkyjoRules(players=8, turn_limit=100)
    fast = run_fast_tournament(GAME, rules, ["greedy", "random"], 40, 3)
    reference = run_tournament(GAME, rules, ["greedy", "random"], 40, 3)
    assert fast.records == reference.records
    assert fast.blocked_rounds == reference.blocked_rounds > 0


def test_the_batch_size_does_not_change_any_game() -> None:
    rules = SkyjoRules(players=3)
    one = run_fast_tournament(GAME, rules, ["greedy", "random"], 30, 3, batch=4)
    two = run_fast_tournament(GAME, rules, ["greedy", "random"], 30, 3, batch=30)
    assert one.records == two.records
    assert run_fast_tournament(GAME, rules, ["greedy"], 30, 4).records != one.records


def test_a_game_with_more_rounds_than_the_first_room_is_recorded_whole(monkeypatch) -> None:
    """Room for 8 rounds at first; games to 300 between greedy bots last longer."""
    from cardtable.sim import fast_tournament

    monkeypatch.setattr(fast_tournament, "_ROUNDS", 8)
    rules = SkyjoRules(players=2, end_score=300)
    fast = run_fast_tournament(GAME, rules, ["greedy"], 4, 5)
    reference = run_tournament(GAME, rules, ["greedy"], 4, 5)
    assert fast.records == reference.records
    assert max(record.rounds for record in fast.records) > 8


@pytest.mark.parametrize("bots", ["greedy,random", "hard,greedy"])
def test_sim_engine_fast_prints_the_reference_result(capsys, tmp_path, bots) -> None:
    fast_path, reference_path = tmp_path / "fast.json", tmp_path / "reference.json"
    base = ["sim", "skyjo", "--bots", bots, "--games", "24", "--players", "3"]
    assert main([*base, "--engine", "fast", "--json", str(fast_path)]) == 0
    fast_out = capsys.readouterr().out
    assert main([*base, "--json", str(reference_path)]) == 0
    reference_out = capsys.readouterr().out
    assert json.loads(fast_path.read_text()) == json.loads(reference_path.read_text())
    assert fast_out == reference_out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["sim", "skyjo", "--engine", "fast", "--bots", "hard,expert"],
            "random, greedy, hard only, not expert",
        ),
        (
            ["sim", "skipbo", "--engine", "fast", "--bots", "hard,naive"],
            "random, greedy, hard only, not naive",
        ),
        (["sim", "skyjo", "--engine", "fast", "--workers", "2"], "leave out --workers"),
    ],
)
def test_sim_engine_fast_refuses_what_it_cannot_play(capsys, args, message) -> None:
    assert main(args) == 2
    assert message in capsys.readouterr().err


def test_play_records_needs_one_bot_per_seat() -> None:
    """The kernels do not check bounds: a short seat list is refused before them."""
    import numpy as np

    from cardtable.sim.fast_tournament import play_records

    with pytest.raises(ValueError, match="seat_bots: one bot per seat, 4, got 1"):
        play_records("skyjo", SkyjoRules(players=4), ("hard",), 0, np.arange(2))
