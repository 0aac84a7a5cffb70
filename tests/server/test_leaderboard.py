"""Rated games through the server, and ``GET /api/leaderboard/{ladder}``: a whole rated
game of a new account against a bot level moves the account's rating once (the bot's
holds: the account is provisional) and counts for both; the leaderboard lists
the bots' places and the signed-in player's own standing; its refusals name the field."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from cardtable.server.ladder import BOT_SEEDS, LADDERS, MIN_GAMES

from .helpers import connect, create_room, play_to_end, start
from .test_accounts import browser, post, register


def board(http: Any, ladder: str = "skyjo") -> dict[str, Any]:
    answer = http.get(f"/api/leaderboard/{ladder}")
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def bot_entry(body: dict[str, Any], level: str) -> dict[str, Any]:
    (entry,) = [bot for bot in body["bots"] if bot["level"] == level]
    return entry


def test_a_new_account_s_rated_game_against_a_bot_is_counted_once(tmp_path, database):
    with browser(tmp_path, database) as http:
        csrf = register(http)["csrf_token"]
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "hard"}]
        created = create_room(http, "skyjo", {"players": 2}, seats, name="Ann")
        code = created["code"]
        claim = {"seats": [{"code": code, "token": created["token"]}]}
        assert post(http, "claim", csrf, claim).json()["claimed"] == [{"code": code, "seat": 0}]
        before = board(http)
        assert bot_entry(before, "hard")["rating"] == BOT_SEEDS["skyjo"]["hard"]
        assert before["you"]["games"] == 0 and before["you"]["rank"] is None
        with connect(http, code, created["token"]) as (ann,):
            ann.hello()
            start(ann, created["host_token"])
            play_to_end([ann], [], random.Random(3).choice)
        deadline = time.monotonic() + 30
        # Each read of the answer sees the ratings as they are: wait for both to move.
        while not (after := board(http))["you"]["games"] or not bot_entry(after, "hard")["games"]:
            assert time.monotonic() < deadline, "the game was never rated"
            time.sleep(0.05)
        hard = bot_entry(after, "hard")
        # Ann is provisional: the bot's rating holds (docs/players.md#ratings).
        assert hard["games"] == 1 and hard["rating"] == BOT_SEEDS["skyjo"]["hard"]
        you = after["you"]
        assert you["name"] == "Ann" and you["games"] == 1
        assert you["rank"] is None and you["games_needed"] == MIN_GAMES - 1
        assert you["rating"] != 1500 and you["plus_minus"] < 491
        assert after["players"] == []  # listed after MIN_GAMES rated games
        # The result again (the catch-up of every sweep, another node): nothing changes.
        table = http.app.state.table  # type: ignore[attr-defined]
        assert http.portal.call(table.storage.rate_game, code, 1, time.time()) is None
        assert http.portal.call(table.rater.catch_up) == 0
        assert board(http) == after
        log = http.get(f"/api/rooms/{code}/games/1").json()
        assert "stand_in_moves" not in log["result"]  # Ann played every move herself


def test_a_guest_sees_the_bots_and_no_own_standing(tmp_path):
    with browser(tmp_path) as http:
        for ladder in LADDERS:
            body = board(http, ladder)
            assert body["ladder"] == ladder and body["min_games"] == MIN_GAMES
            assert body["players"] == [] and body["you"] is None
            assert [bot["level"] for bot in body["bots"]] == ["expert", "hard", "medium", "easy"]
            assert all(bot["place"] == 1 and bot["games"] == 0 for bot in body["bots"])
            assert {bot["level"]: bot["rating"] for bot in body["bots"]} == BOT_SEEDS[ladder]


@pytest.mark.parametrize("ladder", ["chess", "SKYJO", "skyjo-teams", "x" * 300])
def test_an_unknown_ladder_is_refused_naming_the_field(tmp_path, ladder):
    with browser(tmp_path) as http:
        answer = http.get(f"/api/leaderboard/{ladder}")
        assert answer.status_code == 404
        body = answer.json()
        assert body["error"] == "no_ladder" and body["field"] == "ladder"
        assert body["allowed"] == list(LADDERS)


@pytest.mark.parametrize("limit", ["0", "101", "-1", "ten", "1e2", "99999"])
def test_a_bad_limit_is_refused_naming_the_field(tmp_path, limit):
    with browser(tmp_path) as http:
        answer = http.get("/api/leaderboard/skyjo", params={"limit": limit})
        assert answer.status_code == 400
        assert answer.json()["field"] == "limit"


def test_leaderboard_look_ups_are_limited_per_address(tmp_path):
    with browser(tmp_path) as http:
        answers = [http.get("/api/leaderboard/skipbo").status_code for _ in range(40)]
        assert answers[0] == 200 and answers[-1] == 429
        refused = http.get("/api/leaderboard/skipbo")
        assert refused.json()["error"] == "too_many_requests"
        assert refused.headers["Retry-After"] == "1"


def test_a_game_left_to_a_bot_is_rated_with_its_leaver_last(tmp_path):
    """Ann starts a rated game and leaves: past the grace period a bot plays her seat to
    the end, more than a few moves. The game is rated, Ann last whatever the bot made of
    her cards: leaving never dodges a loss (issue 47, finding 2)."""
    with browser(tmp_path, grace_seconds=0.05) as http:
        csrf = register(http)["csrf_token"]
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
        created = create_room(http, "skyjo", {"players": 2}, seats, name="Ann")
        code = created["code"]
        post(http, "claim", csrf, {"seats": [{"code": code, "token": created["token"]}]})
        with connect(http, code, created["token"]) as (ann,):
            ann.hello()
            start(ann, created["host_token"])
            ann.until(lambda m: m["type"] == "event")
        storage = http.app.state.table.storage  # type: ignore[attr-defined]
        deadline = time.monotonic() + 60
        while (judged := http.portal.call(storage.rated_game, code, 1)) is None:
            assert time.monotonic() < deadline, "the game never ended"
            time.sleep(0.1)
        assert judged["ladder"] == "skyjo" and judged["reason"] is None
        log = http.get(f"/api/rooms/{code}/games/1").json()
        assert log["result"]["stand_in_moves"]["0"] > 5
        changes = {change["player"]: change for change in judged["changes"]}
        ann_change = changes[next(p for p in changes if p.startswith("user:"))]
        assert ann_change["after"][0] < ann_change["before"][0]  # rated last: a loss
        # Ann's first rated game: she is provisional, so the bot's rating holds
        # (docs/players.md#ratings, issue 47 finding 3).
        assert changes["bot:medium"]["after"] == changes["bot:medium"]["before"]
        body = board(http)
        assert body["you"]["games"] == 1 and bot_entry(body, "medium")["games"] == 1
