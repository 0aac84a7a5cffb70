"""One refusal type for the whole server: its code carries its HTTP status, a limit's
refusal carries its ``Retry-After``, and the app's one exception handler answers any
route's refusal the same way (the routes hold no ``except`` of their own)."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from cardtable.server.edges.http import answer
from cardtable.server.errors import ApiError, RoomError, too_many

SERVER = Path(__file__).parents[2] / "src" / "cardtable" / "server"


def test_a_code_carries_its_status():
    assert ApiError("no_room", "gone").status == 404
    assert ApiError("name_taken", "taken").status == 409
    assert ApiError("bad_request", "bad").status == 400  # any code not listed
    assert ApiError("bad_game", "no lesson", status=404).status == 404
    assert RoomError("not_host", "no").status == 403  # a room's refusal is an ApiError


def test_a_limit_s_refusal_says_when_in_the_header_and_the_body():
    refusal = too_many("too_many_requests", "too many look-ups", 0.25)
    response = answer(refusal)
    assert response.status_code == 429
    assert response.headers["Retry-After"] == "1"  # at least a whole second
    assert json.loads(response.body) == {
        "retry_after": 1,
        "error": "too_many_requests",
        "reason": "too many look-ups; try again in 1 s",
    }
    assert (
        answer(too_many("too_many_attempts", "too many attempts", 41.2)).headers["Retry-After"]
        == "42"
    )


def test_a_refusal_that_means_in_a_moment_says_so_in_the_header_only():
    response = answer(ApiError("draining", "stopping"))
    assert (response.status_code, response.headers["Retry-After"]) == (503, "1")
    assert json.loads(response.body) == {"error": "draining", "reason": "stopping"}
    assert "retry-after" not in answer(ApiError("no_room", "gone")).headers


def _catches_refusals(handler: ast.ExceptHandler) -> bool:
    names = [handler.type] if handler.type is not None else []
    while names and isinstance(names[0], ast.Tuple):
        names = list(names[0].elts)
    return any(isinstance(n, ast.Name) and n.id in ("ApiError", "RoomError") for n in names)


def _routes_modules() -> list[Path]:
    return [
        path
        for path in SERVER.rglob("*.py")
        if "Route(" in path.read_text(encoding="utf-8") and path.name != "websocket.py"
    ]


@pytest.mark.parametrize("path", _routes_modules(), ids=lambda path: path.name)
def test_no_route_answers_a_refusal_by_hand(path):
    """A route that catches a refusal only to answer it duplicates the handler: it may
    catch one to act on it (count a missed look-up, try the next room), then raise it."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ExceptHandler) and _catches_refusals(node):
            assert any(isinstance(inner, ast.Raise) for inner in ast.walk(node)) or any(
                isinstance(inner, ast.Continue) for inner in ast.walk(node)
            ), f"{path.name}:{node.lineno} answers a refusal by hand"
