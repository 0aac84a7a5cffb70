"""A refused rules option names the option and its allowed values as fields of the
error reply (WebSocket ``configure`` and ``POST /api/rooms``), beside the usual code
and reason, and changes nothing."""

from __future__ import annotations

from .helpers import Client, client, create_room


def test_configure_refusal_carries_the_option_and_its_range(tmp_path):
    with client(tmp_path) as http:
        created = create_room(http, "skipbo", {"players": 3, "stock_size": 25}, name="Ann")
        code, host = created["code"], created["host_token"]
        with http.websocket_connect(f"/ws/{code}") as ws:
            ann = Client(ws, created["token"])
            welcome = ann.hello()
            version = welcome["version"]
            # Six players leave room for 22 stock cards each: the option refused is the
            # stock size, though the change asked for was the player count.
            ann.send({"type": "configure", "host_token": host, "options": {"players": 6}})
            error = ann.error()
            assert error["code"] == "bad_options"
            assert error["field"] == "stock_size"
            assert error["allowed"] == "null or an integer from 5 to 22"
            # The same for translation: a catalog key and its parameters.
            assert error["allowed_key"] == "allowed.optional_int"
            assert error["allowed_params"] == {"low": 5, "high": 22}
            assert error["version"] == version
            assert "'stock_size'" in error["reason"]  # the readable text is unchanged
            assert "value" not in error  # what was sent is not echoed
            ann.send({"type": "configure", "host_token": host, "options": {"teams": True}})
            error = ann.error()
            assert (error["field"], error["allowed"]) == ("teams", "team play needs 4 or 6 players")
            ann.send({"type": "configure", "host_token": host, "options": {"colour": 1}})
            error = ann.error()
            assert error["code"] == "bad_options" and error["field"] == "colour"
            assert error["allowed"].startswith("not an option; known: players, stock_size")
            assert error["allowed_key"] == "allowed.unknown"
            assert error["allowed_params"]["known"].startswith("players, stock_size")
            # Other refusals have no such fields.
            ann.send({"type": "start", "host_token": host})
            error = ann.error()
            assert error["code"] == "seats_free" and "field" not in error
            assert "allowed_key" not in error
            summary = http.get(f"/api/rooms/{code}").json()
            assert summary["version"] == version
            assert (summary["rules"]["players"], summary["rules"]["stock_size"]) == (3, 25)


def test_create_room_refusal_carries_the_option_and_its_range(tmp_path):
    with client(tmp_path) as http:
        body = {"game": "skipbo", "options": {"players": 5, "stock_size": 28}}
        response = http.post("/api/rooms", json=body)
        assert response.status_code == 400
        data = response.json()
        assert data["error"] == "bad_options"
        assert (data["field"], data["allowed"]) == ("stock_size", "null or an integer from 5 to 27")
        assert "'stock_size'" in data["reason"]
        response = http.post("/api/rooms", json={"game": "skyjo", "options": {"players": 1}})
        data = response.json()
        assert (data["error"], data["field"]) == ("bad_options", "players")
        assert data["allowed"] == "an integer from 2 to 8"
        assert (data["allowed_key"], data["allowed_params"]) == (
            "allowed.int",
            {"low": 2, "high": 8},
        )
        # A refusal of another kind carries none of an option's fields (a refused name
        # names its field, as every route refusing a name does).
        response = http.post("/api/rooms", json={"game": "skyjo", "name": "<b>"})
        assert response.json() == {**response.json(), "error": "bad_name", "field": "name"}
        assert set(response.json()) == {"error", "reason", "field"}
