"""A human who drops is played by a bot after the grace period and can reclaim the seat."""

from __future__ import annotations

from .helpers import Client, client, create_room, is_move_event, start


def test_dropped_human_is_replaced_by_a_bot_and_reclaims_the_seat(tmp_path):
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
    with client(tmp_path, grace_seconds=0.2, bot_pause=0.02) as http:
        created = create_room(http, "skyjo", {"players": 2, "end_score": 200}, seats, name="Ann")
        code = created["code"]
        room = http.app.state.table.rooms[code]
        with http.websocket_connect(f"/ws/{code}") as ws:
            spectator = Client(ws)
            spectator.hello()
            with http.websocket_connect(f"/ws/{code}") as wa:
                ann = Client(wa, created["token"])
                ann.hello()
                start(ann, created["host_token"])
                ann.until(lambda m: m["type"] == "event" and m["kind"] == "start")
                assert ann.my_turn()
            # Ann is gone during her set-up: nobody moves for her until the grace period ends.
            away = spectator.until(lambda m: m["type"] == "presence" and m["seats"][0]["away"])
            assert away["seats"][0]["connected"] is False
            moved = spectator.until(lambda m: is_move_event(m) and m["outcome"]["seat"] == 0)
            assert moved["index"] == 0  # the stand-in bot made Ann's first move
            for _ in range(6):  # the game goes on with the bot in her seat
                spectator.until(is_move_event)
            # Ann comes back with her token and reclaims the seat.
            with http.websocket_connect(f"/ws/{code}") as wa2:
                back = Client(wa2, created["token"])
                welcome = back.hello(last_version=ann.version)
                assert welcome["seat"] == 0
                assert room.bot_for(0) is None and 0 not in room.away
                back.until(lambda m: m["type"] == "presence" and not m["seats"][0]["away"])
                # Catch up, then wait for her turn: the bot no longer plays it, she does.
                while not back.my_turn():
                    back.next()
                version = back.version
                back.move(back.view["legal_actions"][0])
                event = back.until(is_move_event)
                assert event["version"] == version + 1 and event["outcome"]["seat"] == 0
