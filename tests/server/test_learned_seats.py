"""The ``learned`` level takes bot seats: whole games through the server, both games."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numpy")

from cardtable.games import get_game

from .helpers import client, connect, create_room, is_move_event, play_to_end, start


@pytest.mark.parametrize(
    ("game", "options"),
    [
        # The player counts the shipped weights were trained for (4 and 2).
        ("skyjo", {"players": 4, "end_score": 40}),
        ("skipbo", {"players": 2, "stock_size": 5}),
    ],
)
def test_learned_bots_play_whole_games_through_the_server(tmp_path, game, options) -> None:
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "learned"}] * (options["players"] - 1)
    rng = random.Random(9)
    with client(tmp_path) as http:
        created = create_room(http, game, options, seats, name="Alice")
        code = created["code"]
        room = http.get(f"/api/rooms/{code}").json()
        assert [seat.get("bot") for seat in room["seats"][1:]] == ["learned"] * (len(seats) - 1)
        with connect(http, code, created["token"], None) as (alice, spectator):
            alice.hello()
            spectator.hello()
            start(alice, created["host_token"])
            play_to_end([alice], [spectator], rng.choice)
            moves = [m for m in spectator.messages if is_move_event(m)]
            assert {m["outcome"]["seat"] for m in moves} == set(range(len(seats)))
        log = http.get(f"/api/rooms/{code}/games/1").json()
        assert log["finished"]
        engine = get_game(game)
        state = engine.replay(
            engine.rules_from_json(log["rules"]), log["seed"], [m["action"] for m in log["moves"]]
        )
        # The stored result is the engine's, with the count of rounds (profiles).
        stored = dict(log["result"])
        rounds = stored.pop("rounds")
        assert state.is_over and state.result().to_json() == stored
        assert rounds == len(state.rounds()) >= 1
