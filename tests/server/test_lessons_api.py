"""``/api/lessons``: a lesson's outline, and a step played over HTTP: the taught move is
accepted, another legal move is refused with the step's explanation and the position as it
was, an illegal one gets the engine's refusal, a bad game, step or body names its field;
only the learner's view leaves the server; requests are limited per address."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from cardtable.lessons import LESSONS
from cardtable.online import create_app
from cardtable.server import lessons

from .helpers import config

ORIGIN = "http://testserver"


@pytest.fixture
def http(tmp_path) -> Iterator[TestClient]:
    with TestClient(create_app(config(tmp_path)), headers={"Origin": ORIGIN}) as client:
        yield client


def play(http: TestClient, game: str, step: int, moves: list[Any]) -> Any:
    return http.post(f"/api/lessons/{game}/steps/{step}", json={"moves": moves})


def test_the_outline_names_each_step_and_its_texts(http: TestClient):
    for game, lesson in LESSONS.items():
        answer = http.get(f"/api/lessons/{game}")
        assert answer.status_code == 200, answer.text
        steps = answer.json()["steps"]
        assert [s["name"] for s in steps] == [s.name for s in lesson.steps]
        first = steps[0]
        assert first["texts"]["quote"] == f"lesson.{game}.{first['name']}.quote"
        assert set(first["sources"]) == {"en", "fr", "de", "it"}
        # The outline holds no position: the positions' hidden cards stay on the server.
        assert "snapshot" not in answer.text and "draw" not in answer.text


def test_a_step_accepts_the_taught_move_and_refuses_another(http: TestClient):
    # Skyjo, "take": take the -2 from the discard pile (code 1), then exchange it with the 10.
    start = play(http, "skyjo", 1, []).json()
    assert start["made"] == 0 and not start["done"] and start["refused"] is None
    assert start["seat"] == 0 and start["view"]["legal_actions"] == [0, 1]
    assert start["view"]["discard_top"] == -2
    refused = play(http, "skyjo", 1, [0])  # drawing is legal, but not what is taught
    assert refused.status_code == 200
    body = refused.json()
    assert body["refused"] == {"action": 0, "reason_key": "lesson.skyjo.take.wrong"}
    assert body["made"] == 0 and body["view"] == start["view"]  # nothing changed
    taken = play(http, "skyjo", 1, [1]).json()
    assert taken["made"] == 1 and taken["view"]["hand"] == -2 and not taken["done"]
    done = play(http, "skyjo", 1, [1, 2]).json()
    assert done["done"] and done["view"]["grids"][0][0] == -2
    assert [o["move"]["type"] for o in done["outcomes"]] == ["take_discard", "exchange"]


def test_the_other_seats_scripted_moves_are_made_and_seen(http: TestClient):
    # Skyjo, "close": the learner closes; the other player's last turn follows, then the
    # round is scored.
    done = play(http, "skyjo", 5, [1, 13]).json()
    assert done["done"]
    assert [o["seat"] for o in done["outcomes"]] == [0, 0, 1, 1]
    assert done["view"]["rounds"][0]["points"] == [6, 50]


def test_only_the_learner_s_view_is_sent(http: TestClient):
    body = play(http, "skipbo", 0, []).json()
    view = body["view"]
    assert view["seat"] == 0 and len(view["hand"]) == 5
    assert "hands" not in view and "draw" not in view and "rng" not in str(body)
    assert view["players"][1]["hand_size"] == 5 and "hand" not in view["players"][1]


def test_an_illegal_move_gets_the_engine_s_refusal(http: TestClient):
    answer = play(http, "skipbo", 1, [8, 8])  # the 2 on pile 1, then another 2: none left
    assert answer.status_code == 400
    body = answer.json()
    assert body["error"] == "illegal_move" and body["made"] == 1
    assert body["reason_key"].startswith("refusal.skipbo.")
    assert body["move"] == {"type": "play_hand", "card": 2, "pile": 0}


@pytest.mark.parametrize(
    ("path", "moves", "status", "field"),
    [
        ("/api/lessons/chess/steps/0", [], 404, "game"),
        ("/api/lessons/skyjo/steps/8", [], 400, "step"),
        ("/api/lessons/skyjo/steps/-1", [], 400, "step"),
        ("/api/lessons/skyjo/steps/x", [], 400, "step"),
        ("/api/lessons/skyjo/steps/1", [1, 2, 3], 400, "moves"),
        ("/api/lessons/skyjo/steps/1", [99], 400, "moves"),
    ],
)
def test_bad_requests_name_the_field(http: TestClient, path, moves, status, field):
    answer = http.post(path, json={"moves": moves})
    assert answer.status_code == status, answer.text
    assert answer.json()["field"] == field
    assert http.get("/api/lessons/chess").json()["field"] == "game"


def test_a_malformed_body_is_refused(http: TestClient):
    for body in ({"moves": "1"}, {"moves": [True]}, {"moves": [], "extra": 1}):
        answer = http.post("/api/lessons/skyjo/steps/1", json=body)
        assert answer.status_code == 400 and answer.json()["error"] == "bad_request"
    answer = http.post(
        "/api/lessons/skyjo/steps/1",
        content="x" * 2000,
        headers={"Content-Type": "application/json"},
    )
    assert answer.status_code == 413
    # A state change from another site is refused before the lesson (server/edges/guard.py).
    foreign = http.post(
        "/api/lessons/skyjo/steps/1", json={"moves": []}, headers={"Origin": "http://evil.test"}
    )
    assert foreign.status_code == 403


def test_lesson_requests_are_limited_per_address(tmp_path, monkeypatch):
    monkeypatch.setattr(lessons, "BURST", 3)
    with TestClient(create_app(config(tmp_path)), headers={"Origin": ORIGIN}) as http:
        answers = [http.get("/api/lessons/skyjo").status_code for _ in range(5)]
        refused = play(http, "skyjo", 1, [])
    assert answers[:3] == [200, 200, 200] and 429 in answers[3:]
    assert refused.status_code == 429 and refused.json()["error"] == "too_many_requests"
