"""Hostile requests never get a 500 (issue 47, finding 14): numbers in paths and queries
are ASCII digits, bounded (a game number past a database INTEGER, ``²`` that
``str.isdigit`` takes and ``int`` refuses); a method no route takes is 405 with
``Allow``; and a Hypothesis property throws arbitrary text at every path and query
parameter and every JSON field of every route."""

from __future__ import annotations

import contextlib
import string
from collections.abc import Iterator
from typing import Any, get_args, get_origin
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import BaseModel
from starlette.routing import Route
from starlette.testclient import TestClient

from cardtable.online import create_app
from cardtable.server import lessons
from cardtable.server.lessons import StepRequest
from cardtable.server.lobby import public, quick_match
from cardtable.server.players.accounts import Claim, Credentials, Password
from cardtable.server.rooms.protocol import CreateRoom, JoinRoom, QuickMatch

from .helpers import config

ORIGIN = "http://testserver"
HUGE = ["99999999999999999999", str(2**63), str(2**31), "0" * 40 + "1"]
#: Superscript 2, circled 1, Arabic-Indic 1, full-width 1: `str.isdigit` takes them all.
NOT_ASCII = ["%C2%B2", "%E2%91%A0", "%D9%A1", "%EF%BC%91"]


@contextlib.contextmanager
def table(tmp_path: Any, db_url: str | None = None, **changes: Any) -> Iterator[TestClient]:
    app = create_app(config(tmp_path, db_url=db_url, **changes))
    with TestClient(app, headers={"Origin": ORIGIN}) as http:
        yield http


def played_room(http: TestClient) -> str:
    """A room whose game 1 has begun (started at creation: Ann against a bot)."""
    body = {
        "game": "skyjo",
        "options": {"players": 2},
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}],
        "name": "Ann",
        "start": True,
    }
    answer = http.post("/api/rooms", json=body)
    assert answer.status_code == 201, answer.text
    code: str = answer.json()["code"]
    return code


# --- numbers ----------------------------------------------------------------------------
@pytest.mark.parametrize("number", HUGE + NOT_ASCII + ["abc", "-1", "1.0", "+1", " 1"])
def test_a_game_number_that_is_no_small_ascii_number_is_no_game(tmp_path, database, number):
    with table(tmp_path, database) as http:
        code = played_room(http)
        assert http.get(f"/api/rooms/{code}/games/1").status_code == 200
        for path in (f"games/{number}", f"games/{number}/steps/0", f"games/1/steps/{number}"):
            answer = http.get(f"/api/rooms/{code}/{path}")
            assert answer.status_code == 404, (path, answer.text)
            assert answer.json()["error"] in ("no_game", "no_step")


@pytest.mark.parametrize("limit", NOT_ASCII + HUGE + ["0", "-1", "x"])
@pytest.mark.parametrize("path", ["/api/lobby", "/api/leaderboard/skyjo"])
def test_a_limit_in_other_digits_is_a_clear_400(tmp_path, path, limit):
    with table(tmp_path) as http:
        answer = http.get(f"{path}?limit={limit}")
        assert answer.status_code == 400, answer.text
        assert "limit" in answer.json()["reason"]
        assert http.get(f"{path}?limit=5").status_code == 200


@pytest.mark.parametrize("number", NOT_ASCII + HUGE + ["1000"])
def test_a_lesson_step_in_other_digits_is_a_clear_error(tmp_path, number):
    with table(tmp_path) as http:
        answer = http.post(f"/api/lessons/skyjo/steps/{number}", json={"moves": []})
        assert 400 <= answer.status_code < 500, answer.text
        assert "step" in answer.json()["reason"]
        assert http.post("/api/lessons/skyjo/steps/0", json={"moves": []}).status_code == 200


# --- methods ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("method", "path", "allow"),
    [
        ("PUT", "/api/rooms", "POST"),
        ("GET", "/api/rooms", "POST"),
        ("DELETE", "/api/rooms/ABCDEF", "GET, HEAD"),
        ("TRACE", "/", "GET, HEAD"),
        ("PATCH", "/api/account/signin", "POST"),
        ("POST", "/api/lobby", "GET, HEAD"),
    ],
)
def test_a_method_no_route_takes_is_405_with_allow(tmp_path, method, path, allow):
    with table(tmp_path) as http:
        for headers in ({}, {"Content-Type": "application/json"}, {"Content-Type": "text/plain"}):
            answer = http.request(method, path, headers=headers)
            assert answer.status_code == 405, answer.text
            assert answer.headers["allow"] == allow
            if method != "HEAD":
                assert answer.json()["error"] == "method_not_allowed"
        # A path no route has is still 404, a route's own method still reaches it.
        assert http.request(method, "/api/nothing-here").status_code in (404, 415)


# --- the property: no input makes a 500 ---------------------------------------------
#: Each API route -> the body model of its JSON (None: no body read).
BODIES: dict[tuple[str, str], type[BaseModel] | None] = {
    ("/health", "GET"): None,
    ("/metrics", "GET"): None,
    ("/api/rooms", "POST"): CreateRoom,
    ("/api/rooms/{code}", "GET"): None,
    ("/api/rooms/{code}/join", "POST"): JoinRoom,
    ("/api/rooms/{code}/games", "GET"): None,
    ("/api/rooms/{code}/games/{n}", "GET"): None,
    ("/api/rooms/{code}/games/{n}/steps/{k}", "GET"): None,
    ("/api/account", "GET"): None,
    ("/api/account/register", "POST"): Credentials,
    ("/api/account/signin", "POST"): Credentials,
    ("/api/account/signout", "POST"): None,
    ("/api/account/signout-everywhere", "POST"): None,
    ("/api/account/claim", "POST"): Claim,
    ("/api/account/delete", "POST"): Password,
    ("/api/leaderboard/{ladder}", "GET"): None,
    ("/api/lobby", "GET"): None,
    ("/api/lessons/{game}", "GET"): None,
    ("/api/lessons/{game}/steps/{number}", "POST"): StepRequest,
    ("/api/players/{name}", "GET"): None,
    ("/api/quickmatch", "POST"): QuickMatch,
    ("/", "GET"): None,
    ("/r/{code}", "GET"): None,
    ("/r/{code}/watch", "GET"): None,
    ("/manifest.webmanifest", "GET"): None,
    ("/sw.js", "GET"): None,
    ("/offline", "GET"): None,
    ("/i18n/{lang}.json", "GET"): None,
    ("/api/web/games", "GET"): None,
}
#: A valid body of each route with one, for the fields not thrown at.
VALID = {
    CreateRoom: {"game": "skyjo", "options": {"players": 2}, "name": "Ann", "seats": None},
    JoinRoom: {"name": "Bob", "seat": 1},
    Credentials: {"name": "Ann", "password": "correct horse battery"},
    Claim: {"seats": [{"code": "ABCDEF", "token": "x"}]},
    Password: {"password": "correct horse battery"},
    StepRequest: {"moves": [0]},
    QuickMatch: {"game": "skyjo", "name": "Cy", "players": 2},
}
QUERY = ["limit", "game", "lang", "n"]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=40),
    st.sampled_from(["", "0", "²", "①", "99999999999999999999", "skyjo", "human", "bot"]),
)
json_values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)
#: Numbers that were trouble: digits ``str.isdigit`` takes and ``int`` does not (or
#: reads in another script), past a database INTEGER, and ordinary ones.
NUMBERS = [
    "²", "①", "\u0661", "\uff11", "99999999999999999999", str(2**63), str(2**31),
    "-1", "0", "1",
]  # fmt: skip
#: Texts that get past a route's first check, and other trouble.
WORDS = ["", " ", "..", "%", "/", "skyjo", "skipbo", "skipbo-teams", "en", "Ann", "\u3164"]
texts = st.one_of(
    st.sampled_from(NUMBERS),
    st.sampled_from(WORDS),
    st.text(max_size=40),
    st.text(alphabet=string.digits, min_size=1, max_size=30),
)
numbers = st.one_of(st.sampled_from(NUMBERS), texts)
#: Where a path's room code goes: the played room's code, or any text.
REAL_CODE = "\x00code"


def _models(annotation: Any, in_list: bool = False) -> list[tuple[type[BaseModel], bool]]:
    """The body models inside a field's type, each with whether it sits in a list."""
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [(annotation, in_list)]
    listed = in_list or get_origin(annotation) is list
    return [found for arg in get_args(annotation) for found in _models(arg, listed)]


def field_paths(model: type[BaseModel]) -> list[tuple[str | int, ...]]:
    """Every field of a body model, nested models' and lists of them included."""
    paths: list[tuple[str | int, ...]] = []
    for name, field in model.model_fields.items():
        paths.append((name,))
        for inner, in_list in _models(field.annotation):
            for sub in field_paths(inner):
                paths.append((name, 0, *sub) if in_list else (name, *sub))
    return paths


def with_value(body: dict[str, Any], path: tuple[str | int, ...], value: Any) -> Any:
    """``body`` with ``value`` at ``path`` (the containers on the way made as needed)."""
    if not path:
        return value
    head, rest = path[0], path[1:]
    if isinstance(head, int):
        items = list(body) if isinstance(body, list) and body else [{}]
        items[0] = with_value(items[0] if isinstance(items[0], dict) else {}, rest, value)
        return items
    copy = dict(body) if isinstance(body, dict) else {}
    copy[head] = with_value(
        copy.get(head) or ({} if rest and isinstance(rest[0], str) else []), rest, value
    )
    return copy


#: The routes to draw from, those with path parameters three times (more to try).
ROUTES = [
    route
    for route in sorted(BODIES.items(), key=str)
    for _ in range(3 if "{" in route[0][0] else 1)
]


@st.composite
def requests(draw: st.DrawFn) -> tuple[str, str, dict[str, Any] | None, dict[str, str]]:
    (template, method), model = draw(st.sampled_from(ROUTES))
    path = template
    if "{code}" in path and draw(st.integers(0, 3)):  # the played room, mostly
        path = path.replace("{code}", REAL_CODE)
    for name in ("code", "n", "k", "ladder", "game", "number", "name", "lang"):
        if "{" + name + "}" in path:
            value = draw(numbers if name in ("n", "k", "number") else texts)
            path = path.replace("{" + name + "}", quote(value, safe=""), 1)
    query = draw(st.dictionaries(st.sampled_from(QUERY), texts, max_size=3))
    if draw(st.booleans()):
        query["limit"] = draw(numbers)
    body: dict[str, Any] | None = None
    if model is not None:
        body = dict(VALID[model])
        for field in draw(st.lists(st.sampled_from(field_paths(model)), max_size=2)):
            body = with_value(body, field, draw(json_values))
    return method, path, body, query


def test_every_route_is_in_the_property(tmp_path):
    app = create_app(config(tmp_path))
    routes = {
        (route.path, method)
        for route in app.routes
        if isinstance(route, Route)
        for method in route.methods or ()
        if method != "HEAD"
    }
    assert routes == set(BODIES)
    assert all(len(field_paths(model)) >= 1 for model in VALID)
    assert ("seats", 0, "kind") in field_paths(CreateRoom)


def test_no_path_query_or_field_makes_a_500(tmp_path, monkeypatch):
    for module in (lessons, public, quick_match):  # room for every example
        monkeypatch.setattr(module, "BURST", 10**6)
    limits = {
        "lookup_burst": 10**6,
        "rooms_per_client": 10**6,
        "register_per_address": 10**6,
        "signin_per_address": 10**6,
        "signin_per_name": 10**6,
        "session_reads_burst": 10**6,
    }
    with table(tmp_path, **limits) as http:
        code = played_room(http)

        @settings(
            max_examples=800,
            derandomize=True,
            deadline=None,
            database=None,
            suppress_health_check=[HealthCheck.too_slow],
        )
        @given(requests())
        def never_500(request: Any) -> None:
            method, path, body, query = request
            path = path.replace(REAL_CODE, code)
            answer = http.request(method, path, json=body, params=query)
            assert answer.status_code < 500, (method, path, body, query, answer.text)

        never_500()
