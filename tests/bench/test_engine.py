from cardtable.bench.engine import run_bench

from ..sim.racegame import RACE, GreedyRaceBot, RaceRules


def test_bench_runs_and_reports_positive_figures():
    report = run_bench(
        RACE, RaceRules(players=3), seconds=0.2, bot_factory=lambda _: GreedyRaceBot()
    )
    names = [row.name for row in report.rows]
    assert names == [
        "random, apply_action",
        "random, apply_unchecked",
        "random, advance",
        "greedy, apply_action",
        "clone",
        "view",
    ]
    for row in report.rows:
        assert row.count > 0 and row.seconds > 0 and row.per_second > 0
        assert row.cpu_seconds > 0 and row.per_cpu_second > 0
    for name in names[:4]:
        games_per_second = report.row(name).games_per_second
        assert games_per_second is not None and games_per_second > 0
    assert report.to_json()["rows"][0]["per_second"] > 0


def test_bench_with_a_fixed_number_of_games_and_no_greedy_bot():
    def no_greedy(name: str) -> GreedyRaceBot:
        raise KeyError(name)

    report = run_bench(RACE, RaceRules(), games=3, bot_factory=no_greedy)
    assert [row.name for row in report.rows] == [
        "random, apply_action",
        "random, apply_unchecked",
        "random, advance",
        "clone",
        "view",
    ]
    assert report.row("random, apply_action").games == 3
    assert report.row("random, apply_unchecked").games == 3
    assert report.row("random, advance").games == 3
