"""How long a player's profile takes to put together (a measurement, not a test): a
throwaway PostgreSQL migrated to the head holding ``--games`` finished Skyjo games, each
judged in ``rated_games`` and claimed by an account, ``--mine`` of them by one account
(rated, with its rating before and after), the others by a thousand other accounts;
then ``GET /api/players/{name}``'s work is timed ``--repeat`` times: the account's games
(one query), its ratings, and the counts, history and recent games made from them.

    .venv/bin/python -m tests.server.profile_measure --games 200000 --mine 1000
"""

from __future__ import annotations

import argparse
import asyncio
import time

import sqlalchemy as sa

from cardtable.server.ladder import user_player
from cardtable.server.ratings.profiles import game_counts, ladder_ratings, recent_games
from cardtable.server.storage.store import Storage

from .leaderboard_measure import plan, timed
from .postgres import throwaway_database

LOAD = [
    """INSERT INTO users (id, name, name_key, password_hash, created_at)
       VALUES (1, 'Ann', 'ann', 'x', 0)""",
    # A thousand other accounts, which claimed the other games' seats.
    """INSERT INTO users (id, name, name_key, password_hash, created_at)
       SELECT i, 'P' || i, 'p' || i, 'x', 0 FROM generate_series(2, 1001) AS i""",
    # Every game in a room of its own; the first :mine rooms' seat 0 is Ann's.
    """INSERT INTO games (room_code, game_no, game, rules, seats, seed, result, started_at,
                          finished_at)
       SELECT lpad(to_hex(i), 8, '0'), 1, 'skyjo', '{"players": 2}',
              '[{"kind": "human", "bot": null, "name": "Ann", "taken": true},
                {"kind": "bot", "bot": "hard", "name": null, "taken": false}]', i,
              json_build_object('winners', json_build_array(i % 2), 'scores',
                                json_build_array(40 + i % 60, 60 + i % 40), 'blocked', false,
                                'rounds', 3 + i % 4),
              i, i + 600
       FROM generate_series(1, :games) AS i""",
    """INSERT INTO seat_claims (room_code, seat, user_id, claimed_at)
       SELECT lpad(to_hex(i), 8, '0'), 0, CASE WHEN i <= :mine THEN 1 ELSE 2 + i % 1000 END, i
       FROM generate_series(1, :games) AS i""",
    """INSERT INTO rated_games (room_code, game_no, ladder, reason, changes, rated_at)
       SELECT lpad(to_hex(i), 8, '0'), 1, 'skyjo', NULL,
              json_build_array(
                json_build_object('player', 'user:1', 'before', json_build_array(25.0, 8.3),
                                  'after', json_build_array(25.2, 8.2)),
                json_build_object('player', 'bot:hard', 'before', json_build_array(32.0, 1.0),
                                  'after', json_build_array(31.9, 1.0))),
              i + 601
       FROM generate_series(1, :games) AS i""",
    """INSERT INTO ratings (ladder, player, user_id, mu, sigma, score, games, wins, updated_at)
       VALUES ('skyjo', 'user:1', 1, 27.0, 2.0, 23.0, :mine, :mine / 2, 0)""",
    "ANALYZE",
]


async def measure(url: str, games: int, mine: int, repeat: int) -> None:
    storage = Storage(url, migrate=True)
    await storage.open()
    try:
        start = time.perf_counter()
        async with storage._engine().begin() as connection:
            for statement in LOAD:
                await connection.execute(sa.text(statement), {"games": games, "mine": mine})
        took = time.perf_counter() - start
        print(f"loaded {games:,} games, {mine:,} of them Ann's, in {took:.0f} s")
        player = user_player(1)

        async def profile() -> None:
            played = await storage.played_games(1)
            rows = await storage.ratings_of(player)
            game_counts(played)
            ladder_ratings(rows, played, player, {})
            codes = sorted({game.room_code for game in played[:20]})
            recent_games(played, player, False, await storage.seat_accounts(codes))

        cases = [
            ("Ann's games (one query)", lambda: storage.played_games(1)),
            ("Ann's ratings", lambda: storage.ratings_of(player)),
            ("the whole profile", profile),
        ]
        print(f"\n| work | median ms | max ms ({repeat} runs) |\n|---|---|---|")
        for name, work in cases:
            median, worst = await timed(repeat, work)
            print(f"| {name} | {median:.1f} | {worst:.1f} |")
        print(
            "\nplan of Ann's games:\n"
            + await plan(
                storage,
                "SELECT g.room_code, g.game_no, g.result FROM seat_claims c"
                " JOIN games g ON g.room_code = c.room_code"
                " LEFT OUTER JOIN rated_games r ON r.room_code = g.room_code"
                " AND r.game_no = g.game_no LEFT OUTER JOIN rooms ON rooms.code = g.room_code"
                " WHERE c.user_id = 1 AND g.result IS NOT NULL AND g.finished_at IS NOT NULL"
                " ORDER BY g.finished_at DESC LIMIT 5000",
            )
        )
    finally:
        await storage.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--mine", type=int, default=1_000)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    with throwaway_database() as url:
        asyncio.run(measure(url, args.games, args.mine, args.repeat))


if __name__ == "__main__":
    main()
