import pytest

from cardtable.bots import Bot, RandomBot
from cardtable.core import CardtableError, Rng
from cardtable.sim.tournament import (
    GameRecord,
    game_seed,
    play_game,
    run_tournament,
    seat_assignment,
)

from .racegame import RACE, GreedyRaceBot, RaceRules


def race_bot(name: str) -> Bot:
    bots: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyRaceBot}
    if name not in bots:
        raise KeyError(f"unknown bot {name!r}")
    return bots[name]()


def tournament(rules: RaceRules, names: list[str], games: int = 40, seed: int = 1):
    return run_tournament(RACE, rules, names, games, seed, bot_factory=race_bot)


def test_play_game_records_a_finished_game():
    record = play_game(RACE, RaceRules(players=3, rounds=2), [RandomBot()] * 3, seed=5)
    assert isinstance(record, GameRecord)
    assert record.bots == ("random",) * 3
    assert record.rounds == 2 and len(record.scores) == 3
    assert record.winners and not record.blocked
    # Every move is one step of at least 1, so a round of target 10 needs moves.
    assert record.moves >= 2 * 10 // 3
    # A turn has one or two moves.
    assert record.turns <= record.moves <= 2 * record.turns
    assert tuple(map(sum, zip(*record.round_points, strict=True))) == record.scores


def test_play_game_is_a_pure_function_of_its_arguments():
    rules = RaceRules(players=2, rounds=3)
    first = play_game(RACE, rules, [RandomBot(), RandomBot()], seed=9)
    again = play_game(RACE, rules, [RandomBot(), RandomBot()], seed=9)
    assert first == again
    assert play_game(RACE, rules, [RandomBot(), RandomBot()], seed=10) != first


def test_play_game_checks_seat_count_and_legality():
    with pytest.raises(ValueError, match="3 seats but 2 bots"):
        play_game(RACE, RaceRules(players=3), [RandomBot(), RandomBot()], seed=0)

    class Cheat:
        name = "cheat"

        def choose(self, state: object, rng: Rng) -> int:
            return 7

    with pytest.raises(CardtableError, match="action 7"):
        play_game(RACE, RaceRules(), [Cheat(), Cheat()], seed=0)


def test_play_game_stops_a_game_that_never_ends():
    with pytest.raises(RuntimeError, match="no end after 5 moves"):
        play_game(RACE, RaceRules(target=100), [RandomBot()] * 2, seed=0, max_moves=5)


def test_same_seed_same_result_and_other_seeds_differ():
    rules = RaceRules(players=2, rounds=2)
    first = tournament(rules, ["greedy", "random"], seed=3)
    assert tournament(rules, ["greedy", "random"], seed=3) == first
    assert first.to_json() == tournament(rules, ["greedy", "random"], seed=3).to_json()
    other = tournament(rules, ["greedy", "random"], seed=4)
    assert [r.seed for r in other.records] != [r.seed for r in first.records]
    assert other.to_json() != first.to_json()


def test_game_seeds_are_distinct_and_json_safe():
    seeds = [game_seed(0, k) for k in range(1000)]
    assert len(set(seeds)) == 1000
    assert all(0 <= s < 2**53 for s in seeds)
    assert game_seed(0, 1) != game_seed(1, 0)


def test_bots_are_assigned_round_robin_to_seats():
    assert seat_assignment(["a", "b"], 4) == ("a", "b", "a", "b")
    assert seat_assignment(["a", "b", "c"], 2) == ("a", "b")
    assert seat_assignment(["a"], 3) == ("a", "a", "a")
    result = tournament(RaceRules(players=3), ["greedy", "random"], games=5)
    assert result.seat_bots == ("greedy", "random", "greedy")
    assert all(r.bots == ("greedy", "random", "greedy") for r in result.records)
    assert result.bot("greedy").seats == (0, 2)
    assert result.bot("random").seats == (1,)
    with pytest.raises(ValueError):
        seat_assignment([], 2)


def test_aggregates_add_up():
    result = tournament(RaceRules(players=3, rounds=2), ["greedy", "random"], games=60)
    records = result.records
    assert result.games == 60
    assert sum(result.wins_per_seat) == sum(len(r.winners) for r in records)
    greedy, random = result.bot("greedy"), result.bot("random")
    assert greedy.wins == sum(1 for r in records if {0, 2} & set(r.winners))
    assert random.wins == result.wins_per_seat[1]
    # A win counts once per bot name even when both greedy seats share it.
    assert greedy.wins <= result.wins_per_seat[0] + result.wins_per_seat[2]
    assert greedy.win_rate.estimate == greedy.wins / 60
    assert greedy.win_rate.low <= greedy.win_rate.estimate <= greedy.win_rate.high
    assert greedy.points_per_round.n == 60 * 2 * 2
    assert random.points_per_round.n == 60 * 2 * 1
    expected = sum(p[1] for r in records for p in r.round_points) / (60 * 2)
    assert random.points_per_round.mean == pytest.approx(expected)
    assert result.moves.mean == pytest.approx(sum(r.moves for r in records) / 60)
    assert result.turns.mean == pytest.approx(sum(r.turns for r in records) / 60)
    assert result.rounds.mean == 2.0
    assert result.blocked == 0


def test_blocked_games_are_counted_and_have_no_winner():
    result = tournament(RaceRules(target=1000, turn_limit=3), ["random"], games=10)
    assert result.blocked == 10
    assert result.bot("random").wins == 0
    assert result.wins_per_seat == (0, 0)
    assert all(r.blocked and not r.winners for r in result.records)


def test_unknown_bot_fails_before_any_game():
    calls: list[int] = []
    with pytest.raises(KeyError, match="nobody"):
        run_tournament(
            RACE,
            RaceRules(),
            ["random", "nobody"],
            5,
            0,
            bot_factory=race_bot,
            progress=calls.append,
        )
    assert calls == []


def test_progress_is_reported_per_game():
    calls: list[int] = []
    run_tournament(RACE, RaceRules(), ["random"], 3, 0, bot_factory=race_bot, progress=calls.append)
    assert calls == [1, 2, 3]


def test_zero_games_gives_empty_statistics():
    result = tournament(RaceRules(), ["random"], games=0)
    assert result.games == 0 and result.bot("random").wins == 0
    assert (result.bot("random").win_rate.low, result.bot("random").win_rate.high) == (0.0, 1.0)


def test_paired_tournaments_report_intervals_with_deals_as_clusters():
    from cardtable.sim.stats import cluster_interval, cluster_mean
    from cardtable.skyjo import GAME as SKYJO
    from cardtable.skyjo import SkyjoRules

    result = run_tournament(SKYJO, SkyjoRules(players=2), ["greedy", "random"], 40, 2, paired=True)
    greedy = result.bot("greedy")
    assert greedy.deals == 20
    deals: dict[int, list[int]] = {}
    points: dict[int, list[int]] = {}
    for record in result.records:
        seat = record.bots.index("greedy")
        tally = deals.setdefault(record.seed, [0, 0])
        tally[0] += seat in record.winners
        tally[1] += 1
        total = points.setdefault(record.seed, [0, 0])
        total[0] += sum(p[seat] for p in record.round_points)
        total[1] += record.rounds
    assert all(count == 2 for _, count in deals.values())
    assert greedy.win_rate_by_deal == cluster_interval([tuple(v) for v in deals.values()])
    assert greedy.points_per_round_by_deal == cluster_mean([tuple(v) for v in points.values()])
    assert greedy.points_per_round_by_deal.mean == pytest.approx(greedy.points_per_round.mean)
    data = greedy.to_json()
    assert data["deals"] == 20
    assert data["win_rate_by_deal_low"] <= data["win_rate"] <= data["win_rate_by_deal_high"]


def test_the_ladder_says_plainly_which_bot_is_the_fixed_anchor(capsys):
    from cardtable.cli import main
    from cardtable.sim.ladder import run_ladder
    from cardtable.skyjo import GAME as SKYJO
    from cardtable.skyjo import SkyjoRules

    result = run_ladder(SKYJO, SkyjoRules(players=2), ["random", "greedy"], 8, 1)
    anchor = next(r for r in result.ratings if r.name == "random")
    assert result.to_json()["anchor"] == "random"
    assert (anchor.rating, anchor.low, anchor.high) == (0.0, 0.0, 0.0)
    assert (
        main(["ladder", "skyjo", "--players", "2", "--bots", "random,greedy", "--games", "4"]) == 0
    )
    out = capsys.readouterr().out
    assert "anchor, fixed at 0" in out and "relative to random" in out


def test_blocked_rounds_are_counted_beside_blocked_games() -> None:
    from cardtable.skipbo import GAME as SKIPBO
    from cardtable.skipbo import SkipBoRules

    # Random players bury every card that fits: these 2-player games end blocked.
    blocked = run_tournament(SKIPBO, SkipBoRules(players=2), ["random"], 4, 1)
    assert blocked.blocked == 4 and blocked.blocked_rounds == 4 and blocked.total_rounds == 4
    # A match of rounds: three blocked rounds in a row end it on the points so far.
    rules = SkipBoRules(players=3, stock_size=6, rounds=True, target=100)
    match = run_tournament(SKIPBO, rules, ["random"], 6, 1)
    assert match.blocked_rounds == sum(record.blocked_rounds for record in match.records)
    assert match.blocked_rounds > 0
    assert match.to_json()["blocked_rounds"] == match.blocked_rounds
    for record in match.records:
        assert record.to_json()["blocked_rounds"] == record.blocked_rounds <= record.rounds
