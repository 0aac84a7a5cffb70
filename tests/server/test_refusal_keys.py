"""A refused move comes with its catalog key and parameters besides the English reason,
whether it was sent as an action code or as move JSON; other refusals have no key."""

from __future__ import annotations

import functools

from cardtable.core import Refusal
from cardtable.i18n import translate
from cardtable.i18n.refusals import render_refusal
from cardtable.skyjo.moves import DRAW, REVEAL

from .helpers import Client, client, create_room, is_move_event, join, start

SEATS = [{"kind": "human"}, {"kind": "human"}]


def _english(error: dict) -> str:
    refusal = Refusal.from_json({"key": error["reason_key"], "params": error["reason_params"]})
    return render_refusal(refusal, functools.partial(translate, "en"))


def test_an_illegal_move_carries_its_refusal_key_params_and_move(tmp_path):
    with client(tmp_path) as http:
        created = create_room(http, "skyjo", {"players": 2}, SEATS, name="Alice")
        bob = join(http, created["code"], "Bob")
        code = created["code"]
        with (
            http.websocket_connect(f"/ws/{code}") as wa,
            http.websocket_connect(f"/ws/{code}") as wb,
        ):
            alice, bobc = Client(wa, created["token"]), Client(wb, bob["token"])
            alice.hello()
            bobc.hello()
            start(alice, created["host_token"])
            alice.until(lambda m: m["type"] == "event" and m["kind"] == "start")
            version = alice.version

            # Drawing during the set-up, sent as an action code.
            alice.move(DRAW)
            error = alice.error()
            assert error["code"] == "illegal_move" and error["version"] == version
            assert error["reason_key"] == "refusal.skyjo.setup_first"
            assert error["reason_params"] == {}
            assert error["move"] == {"type": "draw"}
            assert error["reason"] == _english(error)
            assert error["reason"].startswith("the round has not started")

            # Turning a face-up card up again, sent as move JSON.
            alice.move(REVEAL + 3)
            alice.until(is_move_event)
            alice.send(
                {
                    "type": "move",
                    "token": created["token"],
                    "version": alice.version,
                    "move": {"type": "reveal", "pos": 3},
                }
            )
            error = alice.error()
            assert error["reason_key"] == "refusal.skyjo.face_up"
            assert error["reason_params"] == {"pos": 3, "row": 1, "col": 4}
            assert error["move"] == {"type": "reveal", "pos": 3}
            assert error["reason"] == "position 3 (row 1, column 4) is already face up"
            assert error["reason"] == _english(error)

            # Refusals that are not the engine's have no key: a move out of turn, a bad move.
            bobc.until(is_move_event)
            bobc.move(REVEAL + 5)
            error = bobc.error()
            assert error["code"] == "not_your_turn" and "reason_key" not in error
            alice.send(
                {
                    "type": "move",
                    "token": created["token"],
                    "version": alice.version,
                    "move": {"type": "fly"},
                }
            )
            error = alice.error()
            assert error["code"] == "bad_move" and "reason_key" not in error
            assert "move" not in error
