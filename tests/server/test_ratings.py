"""Ratings (docs/players.md#ratings): which games are rated, the model's numbers, and
rating a finished game exactly once, on SQLite and PostgreSQL, including the attacks of
the issue: a rated result replayed twice, one account in two seats of a rated table."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
import sqlalchemy as sa

from cardtable.games import get_game
from cardtable.server.ladder import (
    BOT_SEEDS,
    LADDERS,
    MAX_STAND_IN_MOVES,
    Ladder,
    Unrated,
    displayed,
    ladder_of,
    rate,
    seat_player,
    seed,
    verdict,
)
from cardtable.server.ratings.jobs import CATCH_UP_SECONDS, RECENT_SECONDS, GameRater
from cardtable.server.storage.store import Storage
from cardtable.server.storage.tables import games, rated_games, ratings, seat_claims, users

HUMAN = {"kind": "human", "bot": None, "name": "Ann", "taken": True}


def bot(name: str) -> dict[str, Any]:
    return {"kind": "bot", "bot": name, "name": None, "taken": False}


WON = {"winners": [0], "scores": [40, 90], "blocked": False}
THREE = {"winners": [0], "scores": [10, 20, 30], "blocked": False}


# --- which games are rated ------------------------------------------------------------
@pytest.mark.parametrize(
    ("game", "rules", "ladder"),
    [
        ("skyjo", {"players": 4}, "skyjo"),
        ("skyjo", {"players": 8}, "skyjo"),
        ("skyjo", {"players": 2, "end_score": 60}, None),
        ("skyjo", {"players": 3, "rows_rule": True}, None),
        ("skipbo", {"players": 2}, "skipbo"),
        ("skipbo", {"players": 6}, "skipbo"),
        ("skipbo", {"players": 4, "teams": True}, "skipbo-teams"),
        ("skipbo", {"players": 2, "stock_size": 5}, None),
        ("skipbo", {"players": 2, "edition": 1}, None),
        ("skipbo", {"players": 3, "rounds": True}, None),
        ("skipbo", {"players": 9}, None),  # not even valid rules
        ("chess", {"players": 2}, None),
    ],
)
def test_ladder_of_standard_rules_only(game, rules, ladder):
    assert ladder_of(game, stored_rules(game, rules)) == ladder


def test_a_record_without_edition_was_played_under_edition_1():
    assert ladder_of("skipbo", {"players": 2}) is None


def stored_rules(game: str, options: dict[str, Any]) -> dict[str, Any]:
    """Rules as a game's row stores them (every field), or as given when invalid."""
    try:
        stored: dict[str, Any] = get_game(game).rules_from_json(options).to_json()
    except (KeyError, ValueError):
        return options
    return stored


def test_verdict_rates_accounts_against_bot_levels():
    judged = verdict("skyjo", {"players": 2}, [HUMAN, bot("hard")], WON, {0: 7})
    assert (judged.ladder, judged.players, judged.reason) == ("skyjo", ("user:7", "bot:hard"), None)


def test_ladders_and_reasons_travel_as_the_protocol_s_words():
    """Enums in the server, the same strings in JSON (docs/protocol.md, ``rated``)."""
    assert [str(ladder) for ladder in LADDERS] == ["skyjo", "skipbo", "skipbo-teams"]
    teams = ladder_of("skipbo", stored_rules("skipbo", {"players": 4, "teams": True}))
    assert teams is Ladder.SKIPBO_TEAMS
    unrated = verdict("skyjo", {"players": 2}, [HUMAN, HUMAN], WON, {0: 7})
    assert unrated.reason is Unrated.GUEST_SEAT
    told = json.dumps({"ladder": teams, "reason": unrated.reason})
    assert json.loads(told) == {"ladder": "skipbo-teams", "reason": "guest_seat"}


def test_the_ladder_s_player_in_a_seat():
    assert seat_player(bot("hard"), None) == "bot:hard"
    assert seat_player(bot("greedy"), 7) == "bot:medium"  # a bot is its level, never a claim
    assert seat_player(bot("random"), None) is None  # a bot without a level
    assert seat_player(HUMAN, 7) == "user:7"
    assert seat_player(HUMAN, None) is None  # a guest


@pytest.mark.parametrize(
    ("rules", "seats", "result", "claims", "reason"),
    [
        ({"players": 2, "end_score": 50}, [HUMAN, bot("hard")], WON, {0: 7}, "non_standard_rules"),
        ({"players": 2}, [HUMAN, bot("hard")], WON, {}, "guest_seat"),
        ({"players": 2}, [HUMAN, HUMAN], WON, {0: 7, 1: 7}, "same_player"),
        ({"players": 2}, [HUMAN, bot("random")], WON, {0: 7}, "unrated_bot"),
        # A level without a measured seed on the ladders (docs/bots.md, "Learned").
        ({"players": 2}, [HUMAN, bot("learned")], WON, {0: 7}, "unrated_bot"),
        ({"players": 2}, [bot("hard"), bot("greedy")], WON, {}, "no_account"),
        ({"players": 2}, [HUMAN, bot("hard")], {**WON, "blocked": True}, {0: 7}, "blocked"),
        ({"players": 2}, [HUMAN, bot("hard")], {**WON, "winners": []}, {0: 7}, "blocked"),
        ({"players": 2}, [HUMAN, bot("hard")], {**WON, "hinted": True}, {0: 7}, "hinted"),
    ],
)
def test_verdict_says_why_a_game_is_unrated(rules, seats, result, claims, reason):
    judged = verdict("skyjo", rules, seats, result, claims)
    assert (judged.ladder, judged.reason) == (None, reason)


def test_a_game_left_to_a_bot_stays_rated():
    """Leaving does not make a game unrated (issue 47, finding 2): it is rated, with the
    player who left last (below)."""
    result = {**WON, "stand_in_moves": {"0": MAX_STAND_IN_MOVES + 1}}
    judged = verdict("skyjo", {"players": 2}, [HUMAN, bot("hard")], result, {0: 7})
    assert (judged.ladder, judged.reason) == (Ladder.SKYJO, None)


def test_the_player_who_left_is_rated_last_even_where_the_bot_won_for_them():
    players = ("user:1", "user:2", "user:3")
    before = dict.fromkeys(players, (25.0, 25 / 3))
    # Seat 0 left after 6 moves; the bot that finished for it scored best.
    left = {"winners": [0], "scores": [12, 60, 101], "stand_in_moves": {"0": 6}}
    after = rate("skyjo", players, left, before)
    assert after["user:2"][0] > after["user:3"][0] > after["user:1"][0]
    assert after["user:1"][0] < 25.0  # leaving is a loss, never a gain
    # The same game without the absence: seat 0 won.
    stayed = rate("skyjo", players, {**left, "stand_in_moves": {}}, before)
    assert stayed["user:1"][0] > 25.0
    skipbo = rate(
        "skipbo",
        ("user:1", "user:2"),
        {"winners": [1], "stand_in_moves": {"1": 9}},
        dict.fromkeys(("user:1", "user:2"), (25.0, 25 / 3)),
    )
    assert skipbo["user:1"][0] > 25.0 > skipbo["user:2"][0]


def test_a_short_absence_is_forgiven():
    players = ("user:1", "user:2")
    before = dict.fromkeys(players, (25.0, 25 / 3))
    short = {**WON, "stand_in_moves": {"0": MAX_STAND_IN_MOVES}}
    assert verdict("skyjo", {"players": 2}, [HUMAN, HUMAN], short, {0: 7, 1: 8}).ladder
    assert rate("skyjo", players, short, before) == rate("skyjo", players, WON, before)


def test_a_team_whose_player_left_comes_last():
    players = ("user:1", "user:2", "user:3", "user:4")
    before = dict.fromkeys(players, (25.0, 25 / 3))
    # Seats 0 and 2 won, but seat 2 had left the game to a bot.
    after = rate("skipbo-teams", players, {"winners": [0, 2], "stand_in_moves": {"2": 7}}, before)
    assert after["user:2"][0] > 25 > after["user:1"][0]
    assert after["user:1"] == after["user:3"]


def test_displayed_scale_and_bot_seeds():
    assert displayed(25.0, 25 / 3) == (1500, 491)
    for ladder, levels in BOT_SEEDS.items():
        for level, points in levels.items():
            assert displayed(*seed(ladder, f"bot:{level}")) == (points, 59)
    assert BOT_SEEDS["skipbo"]["medium"] == 1500


# --- rating a game in the database ----------------------------------------------------
def _url(tmp_path, database: str | None) -> str:
    return database or f"sqlite+aiosqlite:///{tmp_path}/ratings.db"


async def _finished_game(
    storage: Storage,
    code: str,
    *,
    seats: list[dict[str, Any]],
    claims: dict[int, int],
    rules: dict[str, Any] | None = None,
    result: dict[str, Any] | None = None,
    game: str = "skyjo",
) -> None:
    async with storage._engine().begin() as connection:
        for user_id in sorted(set(claims.values())):
            exists = await connection.execute(sa.select(users.c.id).where(users.c.id == user_id))
            if exists.first() is None:
                await connection.execute(
                    users.insert().values(
                        id=user_id,
                        name=f"P{user_id}",
                        name_key=f"p{user_id}",
                        password_hash="x",
                        created_at=0.0,
                    )
                )
        await connection.execute(
            games.insert().values(
                room_code=code,
                game_no=1,
                game=game,
                rules=stored_rules(game, rules or {"players": len(seats)}),
                seats=seats,
                seed=1,
                result=WON if result is None else result,
                started_at=1.0,
                finished_at=2.0,
            )
        )
        for seat, user_id in claims.items():
            await connection.execute(
                seat_claims.insert().values(
                    room_code=code, seat=seat, user_id=user_id, claimed_at=1.0
                )
            )


def with_storage(
    tmp_path: Any, database: str | None, check: Callable[[Storage], Awaitable[None]]
) -> None:
    """Run ``check`` on a storage opened on the test's database, closed afterwards."""

    async def scenario() -> None:
        storage = Storage(_url(tmp_path, database), writer_thread=False)
        await storage.open()
        try:
            await check(storage)
        finally:
            await storage.close()

    asyncio.run(scenario())


async def _table(storage: Storage, table: sa.Table) -> list[tuple[Any, ...]]:
    async with storage._engine().connect() as connection:
        rows = await connection.execute(sa.select(table).order_by(*table.primary_key.columns))
        return [tuple(row) for row in rows]


def test_a_rated_game_moves_both_ratings_once(tmp_path, database):
    async def check(storage: Storage) -> None:
        await _finished_game(storage, "AAAAAA", seats=[HUMAN, bot("hard")], claims={0: 7})
        judged = await storage.rate_game("AAAAAA", 1, 10.0)
        assert judged is not None and judged.ladder == "skyjo"
        rows = {row.player: row for row in await storage.ladder_rows("skyjo", ["user:7"])}
        person = rows["user:7"]
        assert person.mu > 25 and person.sigma < 25 / 3
        assert (person.games, person.wins, person.name) == (1, 1, "P7")
        # user:7 is provisional (a first game): the bot's rating holds, the game counts.
        (hard,) = await storage.ladder_rows("skyjo", ["bot:hard"])
        assert (hard.mu, hard.sigma) == seed("skyjo", "bot:hard")
        assert (hard.games, hard.wins) == (1, 0)
        recorded = await storage.rated_game("AAAAAA", 1)
        assert recorded is not None and recorded["ladder"] == "skyjo"
        assert [c["player"] for c in recorded["changes"]] == ["bot:hard", "user:7"]
        # The same result again (replayed, or a second node): no effect at all.
        before = await _table(storage, ratings), await _table(storage, rated_games)
        assert await storage.rate_game("AAAAAA", 1, 20.0) is None
        assert (await _table(storage, ratings), await _table(storage, rated_games)) == before
        assert await storage.unjudged_games(0.0) == []
        # A deleted account's ratings go with it; the bots' stay.
        await storage.delete_user(7, "Former player")
        assert await storage.ladder_rows("skyjo", ["user:7", "bot:hard"]) == [hard]

    with_storage(tmp_path, database, check)


def test_a_player_without_a_rated_game_stands_at_their_seed(tmp_path, database):
    async def check(storage: Storage) -> None:
        await _finished_game(storage, "AAAAAA", seats=[HUMAN, bot("hard")], claims={0: 7})
        await storage.rate_game("AAAAAA", 1, 10.0)
        rows = await storage.ladder_rows("skyjo", ["user:7", "bot:hard"])
        players = ["user:7", "bot:hard", "bot:easy", "user:8"]
        standing = await storage.ratings_or_seeds("skyjo", players)
        assert sorted(standing) == sorted(players)
        assert [standing[row.player] for row in rows] == rows  # the rated: their rows
        easy, newcomer = standing["bot:easy"], standing["user:8"]
        assert ((easy.mu, easy.sigma), easy.games) == (seed("skyjo", "bot:easy"), 0)
        assert newcomer.shown() == displayed(*seed("skyjo", "user:8"))
        assert newcomer.shown()[0] == 1500 and easy.shown()[0] == BOT_SEEDS["skyjo"]["easy"]

    with_storage(tmp_path, database, check)


def test_unrated_games_change_no_rating(tmp_path, database):
    async def check(storage: Storage) -> None:
        await _finished_game(
            storage,
            "BBBBBB",
            seats=[HUMAN, bot("hard")],
            claims={0: 7},
            rules={"players": 2, "end_score": 50},
        )
        await _finished_game(storage, "CCCCCC", seats=[HUMAN, HUMAN], claims={0: 7, 1: 7})
        assert sorted(await storage.unjudged_games(0.0)) == [("BBBBBB", 1), ("CCCCCC", 1)]
        nonstandard = await storage.rate_game("BBBBBB", 1, 10.0)
        twice = await storage.rate_game("CCCCCC", 1, 10.0)
        assert nonstandard is not None and nonstandard.reason == "non_standard_rules"
        assert twice is not None and twice.reason == "same_player"
        assert await _table(storage, ratings) == []
        recorded = await storage.rated_game("CCCCCC", 1)
        assert recorded == {"ladder": None, "reason": "same_player", "changes": []}
        assert await storage.unjudged_games(0.0) == []

    with_storage(tmp_path, database, check)


def test_an_unfinished_game_is_not_judged(tmp_path, database):
    async def check(storage: Storage) -> None:
        await _finished_game(storage, "DDDDDD", seats=[HUMAN, bot("hard")], claims={0: 7})
        async with storage._engine().begin() as connection:
            await connection.execute(games.update().values(result=None, finished_at=None))
        assert await storage.rate_game("DDDDDD", 1, 10.0) is None
        assert await storage.rated_game("DDDDDD", 1) is None  # it can be rated later

    with_storage(tmp_path, database, check)


def test_racing_attempts_rate_a_game_once(tmp_path, database):
    """Two attempts at once (two nodes on PostgreSQL, two connections on SQLite): the
    key decides, one applies the game and the other changes nothing."""

    async def scenario() -> None:
        url = _url(tmp_path, database)
        first = Storage(url, writer_thread=False)
        await first.open()
        second = first
        if database is not None:
            second = Storage(url, writer_thread=False)
            await second.open()
        try:
            seats = [HUMAN, bot("greedy"), HUMAN]
            codes = [f"RACE{index:02d}" for index in range(5)]
            for code in codes:
                await _finished_game(first, code, seats=seats, claims={0: 7, 2: 8}, result=THREE)
            attempts = [s.rate_game(code, 1, 10.0) for code in codes for s in (first, second)]
            judged = await asyncio.gather(*attempts)
            assert sum(1 for j in judged if j is not None) == len(codes)
            players = ["user:7", "user:8", "bot:medium"]
            rows = {row.player: row for row in await first.ladder_rows("skyjo", players)}
            assert {p: (r.games, r.wins) for p, r in rows.items()} == {
                "user:7": (5, 5),
                "user:8": (5, 0),
                "bot:medium": (5, 0),
            }
        finally:
            if second is not first:
                await second.close()
            await first.close()

    asyncio.run(scenario())


def test_a_game_its_node_did_not_rate_is_caught_up_once(tmp_path, database):
    """The node that ended the game stopped before rating it: any node's sweep does."""

    async def check(storage: Storage) -> None:
        await _finished_game(storage, "EEEEEE", seats=[HUMAN, bot("hard")], claims={0: 7})
        rater = GameRater(storage, "node-test", clock=lambda: 1.0 + CATCH_UP_SECONDS)
        assert await rater.catch_up() == 1
        recorded = await storage.rated_game("EEEEEE", 1)
        assert recorded is not None and recorded["ladder"] == "skyjo"
        assert await rater.catch_up() == 0
        # After its first look a node looks back a quarter of an hour only.
        await _finished_game(storage, "FFFFFF", seats=[HUMAN, bot("hard")], claims={0: 7})
        assert await rater.catch_up() == 0
        recent = GameRater(storage, "node-test", clock=lambda: 1.0 + RECENT_SECONDS)
        assert await recent.catch_up() == 1

    with_storage(tmp_path, database, check)


def test_teams_rise_and_fall_together():
    players = ("user:1", "user:2", "user:3", "user:4")
    before = dict.fromkeys(players, (25.0, 25 / 3))
    after = rate("skipbo-teams", players, {"winners": [0, 2]}, before)
    assert after["user:1"] == after["user:3"] and after["user:2"] == after["user:4"]
    assert after["user:1"][0] > 25 > after["user:2"][0]


def test_skyjo_ranks_every_seat_by_its_score():
    players = ("user:1", "user:2", "user:3")
    before = dict.fromkeys(players, (25.0, 25 / 3))
    result = {"winners": [2], "scores": [60, 101, 12]}
    after = rate("skyjo", players, result, before)
    assert after["user:3"][0] > after["user:1"][0] > after["user:2"][0]
    tied = rate("skyjo", players, {"winners": [2], "scores": [60, 60, 12]}, before)
    assert tied["user:1"] == tied["user:2"]


# --- one player in several seats (issue 47, finding 4) --------------------------------
MEDIUMS_AND_ANN = ("user:1", "bot:medium", "bot:medium", "bot:medium")


def _before(ladder: str, players: tuple[str, ...]) -> dict[str, tuple[float, float]]:
    return {player: seed(ladder, player) for player in players}


@pytest.mark.parametrize("bots", [2, 3])
def test_several_seats_of_one_level_do_not_depend_on_the_seat_order(bots):
    players = MEDIUMS_AND_ANN[: bots + 1]
    before = _before("skyjo", players)
    # Ann wins; one medium seat is second, the others last: in every seat order.
    finishes = []
    for second in range(1, bots + 1):
        scores = [10] + [90] * bots
        scores[second] = 20
        finishes.append(rate("skyjo", players, {"winners": [0], "scores": scores}, before))
    assert all(after == pytest.approx(finishes[0]) for after in finishes[1:])


def test_every_seat_of_a_level_counts():
    # The same game with the two medium seats as two players of medium's rating: the
    # level moves by the sum of their changes and learns from both.
    before = _before("skyjo", ("user:1", "bot:medium"))
    result = {"winners": [0], "scores": [10, 20, 90]}
    together = rate("skyjo", ("user:1", "bot:medium", "bot:medium"), result, before)
    apart = rate(
        "skyjo",
        ("user:1", "bot:medium", "bot:twin"),
        result,
        {**before, "bot:twin": before["bot:medium"]},
    )
    mu = before["bot:medium"][0]
    assert together["bot:medium"][0] == pytest.approx(
        mu + (apart["bot:medium"][0] - mu) + (apart["bot:twin"][0] - mu)
    )
    assert together["bot:medium"][1] < min(apart["bot:medium"][1], apart["bot:twin"][1])
    assert together["user:1"] == pytest.approx(apart["user:1"])


def test_seats_of_one_level_that_win_and_lose_cancel_out_in_part():
    players = ("bot:medium", "user:1", "bot:medium")
    before = _before("skipbo", players)
    first = rate("skipbo", players, {"winners": [0]}, before)
    last = rate("skipbo", players, {"winners": [2]}, before)
    assert first == pytest.approx(last)
    # One medium seat won, one lost with Ann: a smaller move than a lone medium's win.
    lone = rate("skipbo", players[:2], {"winners": [0]}, _before("skipbo", players[:2]))
    assert before["bot:medium"][0] < first["bot:medium"][0] < lone["bot:medium"][0]


def test_skipbo_with_three_mediums_sums_three_losses():
    players = MEDIUMS_AND_ANN
    before = _before("skipbo", players)
    after = rate("skipbo", players, {"winners": [0]}, before)
    one = rate("skipbo", players[:2], {"winners": [0]}, _before("skipbo", players[:2]))
    assert after["bot:medium"][0] < one["bot:medium"][0] < before["bot:medium"][0]


def test_a_stored_game_with_two_seats_of_one_level_is_rated_the_same_in_either_order(
    tmp_path, database
):
    async def check(storage: Storage) -> None:
        results = []
        for code, winner in (("GGGGGG", 1), ("HHHHHH", 2)):
            if results:  # start again from the seeds: a fresh ladder each time
                async with storage._engine().begin() as connection:
                    await connection.execute(ratings.delete())
            seats = [HUMAN, bot("greedy"), bot("greedy")]
            scores = [50, 50, 50]
            scores[winner] = 5
            won = {"winners": [winner], "scores": scores, "blocked": False}
            await _finished_game(storage, code, seats=seats, claims={0: 7}, result=won)
            judged = await storage.rate_game(code, 1, 10.0)
            assert judged is not None and judged.players.count("bot:medium") == 2
            (medium,) = await storage.ladder_rows("skyjo", ["bot:medium"])
            results.append((medium.mu, medium.sigma, medium.games, medium.wins))
        assert results[0] == pytest.approx(results[1])
        assert results[0][2:] == (1, 1)

    with_storage(tmp_path, database, check)
