"""Provisional accounts (issue 47, finding 3; docs/players.md#ratings): a game against an
account with fewer than MIN_GAMES rated games on the ladder moves no established
player's rating, so throwaway accounts that lose on purpose feed nobody points; the
provisional account's own rating moves as always. On the model, and stored on SQLite
and PostgreSQL."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from cardtable.server.ladder import MIN_GAMES, is_provisional, rate, score, seed
from cardtable.server.ratings.profiles import ladder_ratings
from cardtable.server.storage.profiles import LadderRating
from cardtable.server.storage.store import Storage
from cardtable.server.storage.tables import ratings

from .test_ratings import HUMAN, _finished_game, with_storage

NEW = (25.0, 25 / 3)
OLD = (27.0, 2.0)  # an established account: a few dozen games behind it


def test_who_is_provisional():
    assert is_provisional("user:1", 0) and is_provisional("user:1", MIN_GAMES - 1)
    assert not is_provisional("user:1", MIN_GAMES)
    assert not is_provisional("bot:easy", 0)  # seeded from the tournaments


def test_a_fresh_account_losing_to_an_established_one_changes_nothing_for_it():
    before = {"user:1": OLD, "user:2": NEW}
    after = rate(
        "skyjo", ("user:1", "user:2"), {"winners": [0], "scores": [5, 90]}, before, {"user:2"}
    )
    assert after["user:1"] == OLD
    assert after["user:2"][0] < NEW[0] and after["user:2"][1] < NEW[1]


def test_two_established_players_still_move_each_other():
    before = {"user:1": OLD, "user:2": OLD}
    after = rate("skipbo", ("user:1", "user:2"), {"winners": [0]}, before, set())
    assert after["user:1"][0] > OLD[0] > after["user:2"][0]


def test_a_provisional_account_s_own_rating_moves_as_in_any_game():
    before = {"user:1": OLD, "user:2": NEW, "bot:hard": seed("skipbo", "bot:hard")}
    players = ("user:2", "user:1", "bot:hard")
    held = rate("skipbo", players, {"winners": [0]}, before, {"user:2"})
    plain = rate("skipbo", players, {"winners": [0]}, before)
    assert held["user:2"] == plain["user:2"] and held["user:2"][0] > NEW[0]


def test_established_players_are_rated_among_themselves_only():
    """A provisional seat is left out of the established players' game: two established
    players and a bot move as if the throwaway account had not sat at the table,
    wherever it finished."""
    hard = seed("skyjo", "bot:hard")
    before = {"user:1": OLD, "user:2": OLD, "user:3": NEW, "bot:hard": hard}
    players = ("user:3", "user:1", "bot:hard", "user:2")
    result = {"winners": [1], "scores": [95, 10, 20, 30]}
    after = rate("skyjo", players, result, before, {"user:3"})
    without = rate("skyjo", players[1:], {"winners": [0], "scores": [10, 20, 30]}, before, set())
    for player in ("user:1", "bot:hard", "user:2"):
        assert after[player] == pytest.approx(without[player])
    assert after["user:3"][0] < NEW[0]


def test_a_bot_level_gains_nothing_from_a_throwaway_s_losses():
    """Bots are established: losing to one on purpose with fresh accounts would lift its
    rating and so what beating it is worth."""
    hard = seed("skipbo", "bot:hard")
    before = {"user:9": NEW, "bot:hard": hard}
    after = rate("skipbo", ("user:9", "bot:hard"), {"winners": [1]}, before, {"user:9"})
    assert after["bot:hard"] == hard and after["user:9"][0] < NEW[0]


def test_a_team_with_a_provisional_partner_moves_no_established_rating():
    before = {"user:1": OLD, "user:2": OLD, "user:3": NEW, "user:4": OLD}
    players = ("user:1", "user:2", "user:3", "user:4")  # teams: seats 0+2 and 1+3
    after = rate("skipbo-teams", players, {"winners": [0, 2]}, before, {"user:3"})
    assert all(after[player] == OLD for player in ("user:1", "user:2", "user:4"))
    assert after["user:3"][0] > NEW[0]


# --- stored ------------------------------------------------------------------------------
async def _established(storage: Storage, user_id: int, ladder: str = "skyjo") -> None:
    """Give an account a rating row of MIN_GAMES rated games."""
    mu, sigma = OLD
    async with storage._engine().begin() as connection:
        await connection.execute(
            ratings.insert().values(
                ladder=ladder,
                player=f"user:{user_id}",
                user_id=user_id,
                mu=mu,
                sigma=sigma,
                score=score(mu, sigma),
                games=MIN_GAMES,
                wins=2,
                updated_at=0.0,
            )
        )


async def _rows(storage: Storage, *players: str) -> dict[str, tuple[float, float, int, int]]:
    async with storage._engine().connect() as connection:
        found = await connection.execute(
            sa.select(
                ratings.c.player, ratings.c.mu, ratings.c.sigma, ratings.c.games, ratings.c.wins
            ).where(ratings.c.player.in_(players))
        )
        return {row.player: (row.mu, row.sigma, row.games, row.wins) for row in found}


def test_a_stored_game_against_a_fresh_account_moves_only_the_fresh_account(tmp_path, database):
    async def check(storage: Storage) -> None:
        # user:7 (established) beats user:8's first account game.
        await _finished_game(storage, "AAAAAA", seats=[HUMAN, HUMAN], claims={0: 7, 1: 8})
        await _established(storage, 7)
        judged = await storage.rate_game("AAAAAA", 1, 10.0)
        assert judged is not None and judged.ladder == "skyjo"
        rows = await _rows(storage, "user:7", "user:8")
        assert rows["user:7"] == (*OLD, MIN_GAMES + 1, 3)  # the game counts, nothing moves
        mu, sigma, games, wins = rows["user:8"]
        assert mu < 25 and sigma < 25 / 3 and (games, wins) == (1, 0)
        recorded = await storage.rated_game("AAAAAA", 1)
        assert recorded is not None
        held = {c["player"]: c for c in recorded["changes"]}
        assert held["user:7"]["before"] == held["user:7"]["after"]
        assert (held["user:7"]["provisional"], held["user:8"]["provisional"]) == (False, True)

    with_storage(tmp_path, database, check)


def test_two_established_accounts_stored_move_each_other(tmp_path, database):
    async def check(storage: Storage) -> None:
        await _finished_game(storage, "BBBBBB", seats=[HUMAN, HUMAN], claims={0: 7, 1: 8})
        await _established(storage, 7)
        await _established(storage, 8)
        await storage.rate_game("BBBBBB", 1, 10.0)
        rows = await _rows(storage, "user:7", "user:8")
        assert rows["user:7"][0] > OLD[0] > rows["user:8"][0]

    with_storage(tmp_path, database, check)


def test_the_profile_says_provisional_until_min_games():
    rows = [
        LadderRating("skyjo", *OLD, MIN_GAMES - 1, 1),
        LadderRating("skipbo", *OLD, MIN_GAMES, 1),
    ]
    shown = ladder_ratings(rows, [], "user:1", {})
    assert [entry["provisional"] for entry in shown] == [True, False]
