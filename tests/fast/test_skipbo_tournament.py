"""Skip-Bo tournaments on the batch engine play the reference tournament's games, record
for record (the compiled greedy bot chooses as the Python one)."""

from __future__ import annotations

import json

import pytest

from cardtable.cli import main
from cardtable.sim.fast_tournament import run_fast_tournament
from cardtable.sim.tournament import run_tournament
from cardtable.skipbo import GAME, SkipBoRules

TEAMS_MATCH = SkipBoRules(
    players=4, teams=True, discard_to_partner=True, stock_size=8, rounds=True, target=150
)
SIX_MATCH = SkipBoRules(players=6, stock_size=5, rounds=True, target=60, turn_limit=100)
CASES = [
    (SkipBoRules(), ["greedy", "random"], False),
    (SkipBoRules(players=3, stock_size=10, high_card_deal=True), ["greedy"], True),
    (TEAMS_MATCH, ["random", "greedy"], True),
    (SIX_MATCH, ["greedy"], False),
    (SkipBoRules(players=5, stock_size=6, idle_limit=2, edition=1), ["greedy", "random"], False),
]
IDS = ["2p", "3p-cut-paired", "4p-teams-match-paired", "6p-match-limit", "5p-edition1"]


def games_for(rules: SkipBoRules, count: int) -> int:
    return count - count % rules.players


@pytest.mark.parametrize(("rules", "bots", "paired"), CASES, ids=IDS)
def test_fast_tournament_records_equal_the_reference(rules, bots, paired) -> None:
    """Same deals, seats, bot streams and choices: every record is the reference's
    (winners, scores, every round's points, moves, turns, blocked rounds)."""
    games = games_for(rules, 24)
    fast = run_fast_tournament(GAME, rules, bots, games, 7, paired=paired, batch=10)
    reference = run_tournament(GAME, rules, bots, games, 7, paired=paired)
    assert fast.records == reference.records
    assert fast.to_json() == reference.to_json()


@pytest.mark.crosscheck
def test_fast_tournament_equals_the_reference_over_many_games() -> None:
    rules = SkipBoRules(players=4, teams=True, stock_size=10)
    fast = run_fast_tournament(GAME, rules, ["greedy", "random"], 2000, 11, paired=True)
    reference = run_tournament(GAME, rules, ["greedy", "random"], 2000, 11, paired=True)
    for mine, theirs in zip(fast.records, reference.records, strict=True):
        assert mine == theirs, f"deal seed {theirs.seed}"


def test_a_match_with_more_rounds_than_the_first_room_is_recorded_whole(monkeypatch) -> None:
    from cardtable.sim import fast_tournament

    monkeypatch.setattr(fast_tournament, "_ROUNDS", 2)
    rules = SkipBoRules(players=2, stock_size=5, rounds=True, target=100)
    fast = run_fast_tournament(GAME, rules, ["greedy", "random"], 6, 5)
    reference = run_tournament(GAME, rules, ["greedy", "random"], 6, 5)
    assert fast.records == reference.records
    assert max(record.rounds for record in fast.records) > 2


def test_sim_engine_fast_prints_the_reference_result(capsys, tmp_path) -> None:
    fast_path, reference_path = tmp_path / "fast.json", tmp_path / "reference.json"
    base = ["sim", "skipbo", "--bots", "greedy,random", "--games", "20", "--players", "4"]
    base += ["--teams"]
    assert main([*base, "--engine", "fast", "--json", str(fast_path)]) == 0
    fast_out = capsys.readouterr().out
    assert main([*base, "--json", str(reference_path)]) == 0
    reference_out = capsys.readouterr().out
    assert json.loads(fast_path.read_text()) == json.loads(reference_path.read_text())
    assert fast_out == reference_out
