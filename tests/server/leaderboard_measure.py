"""How long the leaderboard's queries take on a big ladder (a measurement, not a test):
a throwaway PostgreSQL migrated to the head, ``--players`` accounts rated on the
``skyjo`` ladder (ratings spread like a real ladder's, most with few games) and
``--games`` rows of ``rated_games``; then each query of ``GET /api/leaderboard/skyjo``
is timed ``--repeat`` times (the top 50, the bot levels' rows and places, a player's
own rank from the top, the middle and the bottom; and the sweep's look for unjudged
games among as many stored games, finished over 30 days), with the plans, and one
more game is rated on top of it all.

    .venv/bin/python -m tests.server.leaderboard_measure --players 100000 --games 1000000
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from collections.abc import Awaitable, Callable
from typing import Any

import sqlalchemy as sa

from cardtable.server.ladder import BOT_SEEDS, MIN_GAMES, bot_player, seed
from cardtable.server.ratings.jobs import CATCH_UP_SECONDS, RECENT_SECONDS
from cardtable.server.storage.store import Storage

from .postgres import throwaway_database

LOAD = [
    # Accounts, and their ratings: mu around 25, sigma shrinking with the games played.
    """INSERT INTO users (id, name, name_key, password_hash, created_at)
       SELECT i, 'P' || i, 'p' || i, 'x', 0 FROM generate_series(1, :players) AS i""",
    """INSERT INTO ratings (ladder, player, user_id, mu, sigma, score, games, wins, updated_at)
       SELECT 'skyjo', 'user:' || i, i, mu, sigma, mu - 2 * sigma, games, games / 3, 0
       FROM (
         SELECT i, games, 25 + 4 * (random() + random() + random() - 1.5) AS mu,
                greatest(0.8, 8.333 / sqrt(1 + games / 2.0)) AS sigma
         FROM (SELECT i, floor(power(random(), 3) * 200)::int AS games
               FROM generate_series(1, :players) AS i) AS counted
       ) AS rated""",
    # The rated games: room codes of six characters, four players' changes each.
    """INSERT INTO rated_games (room_code, game_no, ladder, reason, changes, rated_at)
       SELECT lpad(to_hex(i / 4), 6, '0'), i % 4 + 1, 'skyjo', NULL,
              json_build_array(
                json_build_object('player', 'user:' || (i % :players + 1),
                                  'before', json_build_array(25.0, 8.3),
                                  'after', json_build_array(25.9, 8.0)),
                json_build_object('player', 'bot:hard',
                                  'before', json_build_array(32.0, 1.0),
                                  'after', json_build_array(31.9, 1.0))),
              i
       FROM generate_series(1, :games) AS i""",
    # Their games, finished over the last 30 days (what the sweep's catch-up looks at).
    """INSERT INTO games (room_code, game_no, game, rules, seats, seed, result, started_at,
                          finished_at)
       SELECT lpad(to_hex(i / 4), 6, '0'), i % 4 + 1, 'skyjo', '{"players": 2}',
              '[{"kind": "human"}, {"kind": "bot", "bot": "hard"}]', i,
              '{"winners": [0], "scores": [50, 90], "blocked": false}',
              :now - 30 * 86400.0 * (1 - i::float / :games) - 600,
              :now - 30 * 86400.0 * (1 - i::float / :games)
       FROM generate_series(1, :games) AS i""",
    "ANALYZE",
]


async def timed(repeat: int, query: Callable[[], Awaitable[Any]]) -> tuple[float, float]:
    """Median and max milliseconds of ``repeat`` runs (after one to warm up)."""
    await query()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        await query()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), max(times)


async def plan(storage: Storage, sql: str, **params: Any) -> str:
    async with storage._engine().connect() as connection:
        rows = await connection.execute(
            sa.text("EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) " + sql), params
        )
        return "\n".join("    " + row[0] for row in rows)


async def measure(url: str, players: int, games: int, repeat: int) -> None:
    storage = Storage(url, migrate=True)
    await storage.open()
    try:
        start = time.perf_counter()
        async with storage._engine().begin() as connection:
            for statement in LOAD:
                params = {"players": players, "games": games, "now": time.time()}
                await connection.execute(sa.text(statement), params)
        loaded = time.perf_counter() - start
        print(f"loaded {players:,} players, {games:,} rated games in {loaded:.0f} s")
        levels = [bot_player(level) for level in BOT_SEEDS["skyjo"]]
        for bot in levels:
            mu, sigma = seed("skyjo", bot)
            async with storage._engine().begin() as connection:
                await connection.execute(
                    sa.text(
                        "INSERT INTO ratings VALUES ('skyjo', :p, NULL, :mu, :s, :score, 0, 0, 0)"
                    ),
                    {"p": bot, "mu": mu, "s": sigma, "score": mu - 2 * sigma},
                )
        listed = await storage.people_above("skyjo", MIN_GAMES, -1e9, 0.0)
        print(f"listed players (at least {MIN_GAMES} rated games): {listed:,}")
        cases: list[tuple[str, Callable[[], Awaitable[Any]]]] = [
            ("top 50", lambda: storage.top_players("skyjo", MIN_GAMES, 50)),
            ("the 4 bot levels' rows", lambda: storage.ladder_rows("skyjo", levels)),
            ("one account's row", lambda: storage.ladder_rows("skyjo", ["user:1"])),
        ]
        for where, (mu, sigma) in {
            "top": (40.0, 1.0),
            "middle": (25.0, 3.0),
            "bottom": (5.0, 8.0),
        }.items():
            cases.append(
                (
                    f"a rank near the {where}",
                    lambda mu=mu, sigma=sigma: storage.people_above("skyjo", MIN_GAMES, mu, sigma),
                )
            )
        for label, window in (("a day", CATCH_UP_SECONDS), ("15 minutes", RECENT_SECONDS)):
            cases.append(
                (
                    f"the sweep's catch-up, {label} (none unjudged)",
                    lambda window=window: storage.unjudged_games(time.time() - window),
                )
            )
        print(f"\n| query | median ms | max ms ({repeat} runs) |\n|---|---|---|")
        for name, query in cases:
            median, worst = await timed(repeat, query)
            print(f"| {name} | {median:.2f} | {worst:.2f} |")
        print("\nplans:")
        print(
            "  top 50:\n"
            + await plan(
                storage,
                "SELECT player, mu, sigma FROM ratings WHERE ladder = 'skyjo'"
                " AND user_id IS NOT NULL AND games >= :g ORDER BY score DESC, player LIMIT 50",
                g=MIN_GAMES,
            )
        )
        print(
            "  a rank near the bottom:\n"
            + await plan(
                storage,
                "SELECT count(*) FROM ratings WHERE ladder = 'skyjo' AND score > :s"
                " AND user_id IS NOT NULL AND games >= :g",
                s=5.0 - 16.0,
                g=MIN_GAMES,
            )
        )
        print(
            "  the sweep's catch-up, 15 minutes:\n"
            + await plan(
                storage,
                "SELECT g.room_code, g.game_no FROM games g LEFT OUTER JOIN rated_games r"
                " ON r.room_code = g.room_code AND r.game_no = g.game_no"
                " WHERE g.finished_at >= :since AND g.result IS NOT NULL"
                " AND r.room_code IS NULL ORDER BY g.finished_at LIMIT 500",
                since=time.time() - RECENT_SECONDS,
            )
        )
        # One more game rated on top of the million: the key's check and the updates.
        async with storage._engine().begin() as connection:
            await connection.execute(
                sa.text(
                    "INSERT INTO games VALUES ('ZZZZZZ', 1, 'skyjo', :rules, :seats, 1,"
                    " :result, 0, 1)"
                ),
                {
                    "rules": '{"players": 2, "end_score": 100, "rows_rule": false,'
                    ' "closer_starts_next": false, "closer_doubling": true, "turn_limit": 1000}',
                    "seats": '[{"kind": "human"}, {"kind": "bot", "bot": "hard"}]',
                    "result": '{"winners": [0], "scores": [50, 90], "blocked": false}',
                },
            )
            await connection.execute(sa.text("INSERT INTO seat_claims VALUES ('ZZZZZZ', 0, 1, 0)"))
        start = time.perf_counter()
        judged = await storage.rate_game("ZZZZZZ", 1, time.time())
        took = (time.perf_counter() - start) * 1000
        print(f"\nrating one more game: {took:.1f} ms ({judged})")
    finally:
        await storage.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()
    with throwaway_database() as url:
        asyncio.run(measure(url, args.players, args.games, args.repeat))


if __name__ == "__main__":
    main()
