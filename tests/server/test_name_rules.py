"""Names nobody can lean on (issue 47): no invisible character in an account's name or
a guest's (finding 10). Every way a name reaches the server is tried: registering,
creating a room with a name, joining one, "Play now". A refused name changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import create_room
from .test_accounts import SECRET, browser, whoami

#: Names that show as another, or as nothing at all.
INVISIBLE = ["Ace\u3164", "\u3164", "\u115f\u1160", "A\uffa0ce", "Ace\u200b", "\u2060"]


def refused(answer: Any, error: str = "bad_name") -> dict[str, Any]:
    assert answer.status_code == 400, answer.text
    body: dict[str, Any] = answer.json()
    assert body["error"] == error
    return body


def try_every_way(http: Any, name: str) -> list[Any]:
    """The answers to ``name`` as an account's, a creator's, a guest's, a quick match's."""
    code = create_room(http, "skyjo", {"players": 2})["code"]
    answers = [
        http.post("/api/account/register", json={"name": name, "password": SECRET}),
        http.post("/api/rooms", json={"game": "skyjo", "options": {}, "name": name}),
        http.post(f"/api/rooms/{code}/join", json={"name": name}),
        http.post("/api/quickmatch", json={"game": "skyjo", "name": name}),
    ]
    room = http.get(f"/api/rooms/{code}").json()
    assert not any(seat["taken"] for seat in room["seats"]), "a refused name took a seat"
    assert whoami(http) == {"signed_in": False}
    lobby = http.get("/api/lobby").json()
    assert lobby["open"] == lobby["playing"] == []
    return answers


@pytest.mark.parametrize("name", INVISIBLE)
def test_invisible_characters_are_refused_for_accounts_and_guests(tmp_path, name):
    with browser(tmp_path) as http:
        for answer in try_every_way(http, name):
            assert "invisible" in refused(answer)["reason"]
