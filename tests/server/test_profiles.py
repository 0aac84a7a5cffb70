"""Players' profiles (``GET /api/players/{name}``) and the ``rated`` message: a rated
game against a bot shows in the player's counts, rating, history and recent games, and
the table is told the verdict and each seat's change; an unrated game says why; the
profile shows no secret and a private open table's code to its player only; unknown,
malformed and deleted names are refused alike; look-ups are limited per address."""

from __future__ import annotations

import json
import random
from typing import Any

from starlette.testclient import TestClient

from cardtable.server.ladder import BOT_SEEDS

from .helpers import Client, connect, create_room, join, play_to_end, start
from .test_accounts import browser, post, register, use_cookie


def profile(http: TestClient, name: str) -> dict[str, Any]:
    answer = http.get(f"/api/players/{name}")
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def verdict_of(client: Client) -> dict[str, Any]:
    """The ``rated`` message, whether read already (while following the game) or next."""
    told = [message for message in client.messages if message["type"] == "rated"]
    return told[-1] if told else client.until(lambda m: m["type"] == "rated")


def claimed_room(http: TestClient, csrf: str, seats: list[dict[str, Any]]) -> dict[str, Any]:
    created = create_room(http, "skyjo", {"players": len(seats)}, seats, name="Ann")
    claim = {"seats": [{"code": created["code"], "token": created["token"]}]}
    assert post(http, "claim", csrf, claim).json()["claimed"]
    return created


def test_a_rated_game_shows_on_the_profile_and_the_table_hears_the_verdict(tmp_path, database):
    with browser(tmp_path, database) as http:
        csrf = register(http)["csrf_token"]
        created = claimed_room(http, csrf, [{"kind": "human"}, {"kind": "bot", "bot": "hard"}])
        code = created["code"]
        with connect(http, code, created["token"]) as (ann,):
            ann.hello()
            start(ann, created["host_token"])
            play_to_end([ann], [], random.Random(5).choice)
            told = verdict_of(ann)
        assert told["rated"] is True and told["ladder"] == "skyjo" and told["reason"] is None
        assert told["game_no"] == 1 and told["version"] == ann.version
        assert [seat["seat"] for seat in told["seats"]] == [0, 1]
        ann_told, bot_told = told["seats"]
        assert ann_told["rating"] - ann_told["change"] == 1500
        assert bot_told["rating"] - bot_told["change"] == BOT_SEEDS["skyjo"]["hard"]
        assert ann_told["change"] != 0 and ann_told["plus_minus"] < 491
        # Whoever comes to the finished table later hears it too.
        with connect(http, code, None) as (watcher,):
            watcher.hello()
            assert verdict_of(watcher)["seats"] == told["seats"]

        mine = profile(http, "ANN")  # any case of the name
        result = http.get(f"/api/rooms/{code}/games/1").json()["result"]
        assert mine["name"] == "Ann" and mine["you"] is True
        (counts,) = mine["games"]
        won = 0 in result["winners"]
        assert counts["game"] == "skyjo" and counts["variant"] == "standard"
        assert counts["played"] == 1 and counts["won"] == int(won)
        assert counts["rounds"] == result["rounds"] >= 1
        assert counts["points_per_round"] == round(result["scores"][0] / result["rounds"], 1)
        (rating,) = mine["ratings"]
        assert rating["ladder"] == "skyjo" and rating["games"] == 1 and rating["rank"] is None
        assert rating["provisional"] is True  # fewer than min_games rated games
        shown = (rating["rating"], rating["plus_minus"])
        assert shown == (ann_told["rating"], ann_told["plus_minus"])
        history = rating["history"]
        assert [point["rating"] for point in history] == [1500, ann_told["rating"]]
        assert history[0]["plus_minus"] == 491 and history[1]["at"] is not None
        (recent,) = mine["recent"]
        assert recent["result"] == ("won" if won else "lost") and recent["rated"] is True
        assert recent["score"] == result["scores"][0]
        assert recent["rating_change"] == ann_told["change"]
        assert recent["replay"] == {"code": code, "game_no": 1}  # Ann's own table
        assert [(s["name"], s["kind"], s["you"], s["profile"]) for s in recent["seats"]] == [
            ("Ann", "human", True, "Ann"),
            (None, "bot", False, None),
        ]
        assert recent["seats"][1]["bot"] == "hard"

        # A stranger: the same counts and ratings, no code of the private table while open.
        use_cookie(http, None)
        theirs = profile(http, "ann")
        assert theirs["you"] is False and theirs["recent"][0]["replay"] is None
        assert theirs["games"] == mine["games"] and theirs["ratings"] == mine["ratings"]
        text = json.dumps(theirs)
        for secret in (code, created["token"], created["host_token"], "token", "seed", "hash"):
            assert secret not in text
        # Closed, its code opens nothing but the replays: anybody may have it.
        storage = http.app.state.table.storage  # type: ignore[attr-defined]
        room = http.app.state.table.rooms[code]  # type: ignore[attr-defined]
        http.portal.call(lambda: storage.update_room(code, room.epoch, status="closed"))
        assert profile(http, "ann")["recent"][0]["replay"] == {"code": code, "game_no": 1}


def test_an_unrated_game_says_why_to_everyone_at_the_table(tmp_path):
    """Ann (an account) and Ben (a guest): unrated (``guest_seat``), no rating moves."""
    with browser(tmp_path) as http:
        csrf = register(http)["csrf_token"]
        created = claimed_room(http, csrf, [{"kind": "human"}, {"kind": "human"}])
        code = created["code"]
        http.cookies.clear()  # Ben's own browser: Ann's account already sits at this table
        ben = join(http, code, "Ben")
        with connect(http, code, created["token"], ben["token"]) as players:
            for player in players:
                player.hello()
            start(players[0], created["host_token"])
            play_to_end(players, [], random.Random(8).choice)
            for player in players:
                told = verdict_of(player)
                assert (told["rated"], told["ladder"]) == (False, None)
                assert told["reason"] == "guest_seat" and told["seats"] == []
        mine = profile(http, "Ann")
        assert mine["ratings"] == []
        (recent,) = mine["recent"]
        assert recent["rated"] is False and recent["unrated_reason"] == "guest_seat"
        assert recent["rating_change"] is None
        assert [seat["name"] for seat in recent["seats"]] == ["Ann", "Ben"]
        assert [seat["profile"] for seat in recent["seats"]] == ["Ann", None]  # Ben: a guest


def test_a_game_of_house_rules_counts_under_its_own_variant(tmp_path):
    with browser(tmp_path) as http:
        csrf = register(http)["csrf_token"]
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
        created = create_room(http, "skyjo", {"players": 2, "end_score": 20}, seats, name="Ann")
        claim = {"seats": [{"code": created["code"], "token": created["token"]}]}
        post(http, "claim", csrf, claim)
        with connect(http, created["code"], created["token"]) as (ann,):
            ann.hello()
            start(ann, created["host_token"])
            play_to_end([ann], [], random.Random(2).choice)
            assert verdict_of(ann)["reason"] == "non_standard_rules"
        (counts,) = profile(http, "Ann")["games"]
        assert (counts["game"], counts["variant"], counts["played"]) == ("skyjo", "custom", 1)


def test_unknown_malformed_and_deleted_names_are_refused_alike(tmp_path):
    with browser(tmp_path) as http:
        csrf = register(http, "Cleo")["csrf_token"]
        assert profile(http, "cleo")["name"] == "Cleo"
        post(http, "delete", csrf, {"password": "correct horse battery"})
        for name in ("Cleo", "Nobody", "<b>x", "a%20%20", "x" * 300, "Former player"):
            answer = http.get(f"/api/players/{name}")
            assert answer.status_code == 404, name
            body = answer.json()
            assert body["error"] == "no_player" and body["field"] == "name"


def test_profile_look_ups_are_limited_per_address(tmp_path):
    with browser(tmp_path) as http:
        register(http)
        answers = [http.get("/api/players/Ann").status_code for _ in range(40)]
        assert answers[0] == 200 and answers[-1] == 429
        refused = http.get("/api/players/Ann")
        assert refused.json()["error"] == "too_many_requests"
        assert refused.headers["Retry-After"] == "1"
