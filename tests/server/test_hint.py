"""The ``hint`` message: the move advisor for the seat to move, from what that seat sees."""

from __future__ import annotations

from typing import Any

import pytest

from cardtable.bots.advisor import ReasonPart, render_reason
from cardtable.games import get_game
from cardtable.i18n import LANGUAGES, catalog
from cardtable.server.rooms import bot_seats

from .helpers import Client, client, connect, create_room, join, start

TWO_HUMANS = [{"kind": "human"}, {"kind": "human"}]


def _is_start(message: dict[str, Any]) -> bool:
    return message["type"] == "event" and message["kind"] == "start"


def _hint(player: Client, version: int | None = None) -> dict[str, Any]:
    player.send(
        {
            "type": "hint",
            "token": player.token,
            "version": player.version if version is None else version,
        }
    )
    return player.until(lambda m: m["type"] in ("hint", "error"))


@pytest.mark.parametrize(
    ("game", "options", "measure"),
    [("skipbo", {"players": 2, "stock_size": 5}, "win_chance"), ("skyjo", {}, "round_points")],
)
def test_the_seat_to_move_gets_ranked_legal_moves(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch, game: str, options: dict[str, Any], measure: str
) -> None:
    given: list[Any] = []
    real_advise = bot_seats.advise

    def recording_advise(state: Any, seat: int, *args: Any) -> Any:
        given.append(state)
        return real_advise(state, seat, *args)

    monkeypatch.setattr(bot_seats, "advise", recording_advise)
    engine = get_game(game)
    with client(tmp_path, hint_milliseconds=50.0) as http:
        created = create_room(http, game, {"players": 2, **options}, TWO_HUMANS, name="Ann")
        bob = join(http, created["code"], "Bob")
        code = created["code"]
        with connect(http, code, created["token"], bob["token"], None) as (ann, bobc, spectator):
            for each in (ann, bobc, spectator):
                each.hello()
            start(ann, created["host_token"])
            for each in (ann, bobc, spectator):
                each.until(_is_start)
            room = http.app.state.table.rooms[code]  # type: ignore[attr-defined]
            mover, waiter = (ann, bobc) if room.state.current_player == 0 else (bobc, ann)
            history, version = list(room.state.history), room.version
            snapshot = room.state.to_json()

            answer = _hint(mover)
            assert answer["type"] == "hint", answer
            assert answer["version"] == version and answer["measure"] == measure
            moves = answer["moves"]
            assert 1 <= len(moves) <= 5
            assert set(moves[0]) == {"action", "move", "value", "reason", "reason_parts"}
            assert mover.view is not None
            legal = mover.view["legal_actions"]
            for item in moves:
                assert item["action"] in legal
                assert item["move"] == engine.decode(item["action"]).to_json()
                assert isinstance(item["value"], float) and item["reason"]
                # The reason as catalog keys and parameters, which word the English text.
                parts = [ReasonPart.from_json(part) for part in item["reason_parts"]]
                assert parts and all(part.key.startswith(f"advice.{game}.") for part in parts)
                assert render_reason(parts) == item["reason"]
                assert all(part.key in catalog(lang) for lang in LANGUAGES for part in parts)
            values = [item["value"] for item in moves]
            # Skip-Bo: a chance to win, best first; Skyjo: expected points, lowest first.
            assert values == sorted(values, reverse=measure == "win_chance")

            # The advisor never saw the real state: it got a re-deal of what the mover
            # cannot see, which shows the mover exactly the same view.
            assert len(given) == 1
            world = given[0]
            assert world is not room.state
            assert world.view(mover.seat) == room.state.view(mover.seat)
            assert world.to_json() != snapshot  # hidden cards re-dealt
            assert room.state.to_json() == snapshot and room.state.history == history
            assert room.version == version

            # Only to the asker: nobody else heard of it.
            waiter.send({"type": "ping"})
            waiter.until(lambda m: m["type"] == "pong")
            spectator.send({"type": "ping"})
            spectator.until(lambda m: m["type"] == "pong")
            assert not any(m["type"] == "hint" for m in waiter.messages + spectator.messages)

            # Refusals: not your turn, a stale version (then a sync), a spectator.
            assert _hint(waiter)["code"] == "not_your_turn"
            stale = _hint(mover, version - 1)
            assert stale["code"] == "stale_version"
            assert mover.until(lambda m: m["type"] == "sync")["version"] == version
            spectator.send({"type": "hint", "token": "x", "version": version})
            assert spectator.error()["code"] == "not_a_player"
            mover.send({"type": "hint", "token": waiter.token, "version": version})
            assert mover.error()["code"] == "bad_token"
            mover.send({"type": "hint", "token": mover.token, "version": version, "seat": 1})
            assert mover.error()["code"] == "bad_message"
            assert len(given) == 1 and room.version == version

            # The hint is playable as it stands.
            mover.send(
                {"type": "move", "token": mover.token, "version": version, "move": moves[0]["move"]}
            )
            event = mover.until(lambda m: m["type"] == "event" and m["kind"] == "move")
            assert event["outcome"]["action"] == moves[0]["action"]


def test_no_hint_before_the_start(tmp_path: Any) -> None:
    with client(tmp_path) as http:
        created = create_room(http, "skyjo", {"players": 2}, TWO_HUMANS, name="Ann")
        with http.websocket_connect(f"/ws/{created['code']}") as wa:
            ann = Client(wa, created["token"])
            ann.hello()
            assert _hint(ann)["code"] == "not_playing"


def test_a_failing_advisor_is_a_refusal_not_a_dropped_connection(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*args: Any) -> Any:
        raise RuntimeError("no advice today")

    monkeypatch.setattr(bot_seats, "advise", broken)
    with client(tmp_path) as http:
        created = create_room(http, "skyjo", {"players": 2}, TWO_HUMANS, name="Ann")
        bob = join(http, created["code"], "Bob")
        with (
            http.websocket_connect(f"/ws/{created['code']}") as wa,
            http.websocket_connect(f"/ws/{created['code']}") as wb,
        ):
            ann, bobc = Client(wa, created["token"]), Client(wb, bob["token"])
            ann.hello()
            bobc.hello()
            start(ann, created["host_token"])
            ann.until(_is_start)
            bobc.until(_is_start)
            room = http.app.state.table.rooms[created["code"]]  # type: ignore[attr-defined]
            mover = ann if room.state.current_player == 0 else bobc
            assert _hint(mover)["code"] == "no_hint"
            mover.send({"type": "ping"})
            assert mover.until(lambda m: m["type"] == "pong")["type"] == "pong"
