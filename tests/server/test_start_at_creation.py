"""``POST /api/rooms`` with ``start``: the creator against bots lands at a running game
(a lesson's first real game, coached); a room where a person could still sit is refused
and nothing is created."""

from __future__ import annotations

from typing import Any

from .helpers import client, connect, is_move_event

AGAINST_THE_EASY_BOT = [{"kind": "human"}, {"kind": "bot", "bot": "naive"}]


def test_a_coached_game_against_a_bot_is_started_at_creation(tmp_path: Any) -> None:
    with client(tmp_path) as http:
        response = http.post(
            "/api/rooms",
            json={
                "game": "skyjo",
                "options": {"players": 2},
                "seats": AGAINST_THE_EASY_BOT,
                "name": "Ann",
                "table": {"coach": True},
                "start": True,
            },
        )
        assert response.status_code == 201, response.text
        created = response.json()
        summary = http.get(f"/api/rooms/{created['code']}").json()
        assert summary["status"] == "playing"
        assert summary["table"]["coach"] is True
        assert created["version"] == summary["version"] == created["room"]["version"]
        with connect(http, created["code"], created["token"]) as (ann,):
            ann.hello()
            ann.until(lambda m: m["type"] == "sync")
            assert ann.view is not None and ann.view["result"] is None
            # The set-up: Ann turns up a card of her grid, a move of a running game.
            ann.move(min(ann.view["legal_actions"]))
            moved = ann.until(lambda m: is_move_event(m) and m["outcome"]["seat"] == 0)
            assert moved["game_no"] == 1


def test_a_start_at_creation_with_a_free_human_seat_is_refused_and_creates_nothing(
    tmp_path: Any,
) -> None:
    with client(tmp_path) as http:
        table = http.app.state.table  # type: ignore[attr-defined]
        for seats, name, free in (
            ([{"kind": "human"}, {"kind": "human"}], "Ann", "[1]"),  # a friend's seat waits
            (AGAINST_THE_EASY_BOT, None, "[0]"),  # nobody named takes the human seat
        ):
            body: dict[str, Any] = {"game": "skipbo", "seats": seats, "start": True}
            if name is not None:
                body["name"] = name
            response = http.post("/api/rooms", json=body)
            assert response.status_code == 400
            assert response.json()["error"] == "seats_free"
            assert response.json()["reason"].endswith(f"seats {free} are free")
        assert table.rooms == {}
        # Without ``start`` the same room is created, in the lobby.
        response = http.post(
            "/api/rooms", json={"game": "skipbo", "seats": AGAINST_THE_EASY_BOT, "name": "Ann"}
        )
        assert response.status_code == 201
        assert response.json()["room"]["status"] == "lobby"
