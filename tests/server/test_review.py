"""The ``review`` message: the move advisor's post-game review, for a seated player only."""

from __future__ import annotations

import contextlib
import random
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from cardtable.bots.advisor import ReasonPart, render_reason
from cardtable.core import Rng
from cardtable.games import get_game
from cardtable.server.rooms import bot_seats
from cardtable.sim.judge import review_game as judged_review

from .helpers import Client, client, connect, create_room, join, play_to_end, start

TWO_HUMANS = [{"kind": "human"}, {"kind": "human"}]
SMALL = {"review_decisions": 6}
# Ann starts: a game Bob won on his first turn would leave her no decision to review.
SHORT_SKIPBO = {"players": 2, "stock_size": 5, "first_player": 0}


def _review(player: Client, token: str | None = None) -> dict[str, Any]:
    player.send({"type": "review", "token": player.token if token is None else token})
    return player.until(lambda m: m["type"] in ("review", "error"))


def _hasty(seed: int) -> Any:
    """Skip-Bo: the stock first, then any building play, else a random discard: short
    games. (Skyjo: any legal move.)"""
    rng = random.Random(seed)

    def choose(legal: list[int]) -> int:
        stock = [a for a in legal if 52 <= a < 60]
        plays = [a for a in legal if a < 92]
        return stock[0] if stock else rng.choice(plays or legal)

    return choose


def _quiet(*clients: Client) -> None:
    """Everything sent to these clients so far has arrived (a ping is answered last)."""
    for each in clients:
        each.send({"type": "ping"})
        each.until(lambda m: m["type"] == "pong")


@dataclass
class Finished:
    """A room where Ann (seat 0) and Bob (seat 1) have just finished a game."""

    code: str
    host_token: str
    bob_token: str
    ann: Client
    bob: Client
    watchers: list[Client]


@contextlib.contextmanager
def _finished_game(
    http: Any, seed: int, game: str = "skipbo", options: dict[str, Any] | None = None,
    watchers: int = 0,
) -> Iterator[Finished]:  # fmt: skip
    """Two humans play a game to its end; a review is refused before and during it."""
    created = create_room(http, game, options or SHORT_SKIPBO, TWO_HUMANS, name="Ann")
    code = created["code"]
    bob = join(http, code, "Bob")
    tokens = [created["token"], bob["token"], *[None] * watchers]
    with connect(http, code, *tokens) as clients:
        for each in clients:
            each.hello()
        ann, bobc, spectators = clients[0], clients[1], clients[2:]
        assert _review(ann)["code"] == "not_finished"  # in the lobby
        start(ann, created["host_token"])
        ann.until(lambda m: m["type"] == "event" and m["kind"] == "start")
        assert _review(ann)["code"] == "not_finished"  # while playing
        play_to_end([ann, bobc], spectators, _hasty(seed))
        yield Finished(code, created["host_token"], bob["token"], ann, bobc, spectators)


@pytest.mark.parametrize(
    ("game", "options", "measure"),
    [
        ("skipbo", SHORT_SKIPBO, "win_chance"),
        ("skyjo", {"players": 2, "end_score": 10}, "round_points"),
    ],
)
def test_a_finished_game_is_reviewed_for_the_asker_only(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch, game: str, options: dict[str, Any], measure: str
) -> None:
    calls: list[int] = []
    real = bot_seats.judged_review

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(args[4])
        return real(*args, **kwargs)

    monkeypatch.setattr(bot_seats, "judged_review", counting)
    with client(tmp_path, **SMALL) as http, _finished_game(http, 3, game, options, 1) as done:
        ann, bobc, watcher, code = done.ann, done.bob, done.watchers[0], done.code
        room = http.app.state.table.rooms[code]  # type: ignore[attr-defined]
        version = room.version

        answer = _review(ann)
        assert answer["type"] == "review", answer
        assert answer["seat"] == 0 and answer["game_no"] == 1
        assert answer["measure"] == measure and answer["reviewed"] <= 6
        assert 0 < answer["reviewed"] <= answer["decisions"]

        # Exactly the precise judge's review of the logged game, move texts in JSON too.
        log = http.get(f"/api/rooms/{code}/games/1").json()
        engine = get_game(game)
        actions = [m["action"] for m in log["moves"]]
        expected = judged_review(
            engine, engine.rules_from_json(log["rules"]), log["seed"], actions, 0,
            max_decisions=6, rng=Rng(log["seed"] * 17),
        ).to_json()  # fmt: skip
        moves = answer.pop("moves")
        assert {k: v for k, v in answer.items() if k not in ("type", "game_no")} == {
            k: v for k, v in expected.items() if k != "moves"
        }
        assert [{k: m[k] for k in expected["moves"][0]} for m in moves] == expected["moves"]
        for move in moves:
            assert log["moves"][move["number"] - 1]["seat"] == 0  # Ann's own moves
            assert move["played_move"] == engine.decode(move["action"]).to_json()
            assert move["best_move"] == engine.decode(move["best_action"]).to_json()
            # Both reasons as catalog keys and parameters, which word the English texts.
            for field in ("reason", "played_reason"):
                parts = [ReasonPart.from_json(part) for part in move[f"{field}_parts"]]
                assert parts and all(p.key.startswith(f"advice.{game}.") for p in parts)
                assert render_reason(parts) == move[field]

        # Only Ann heard it; asking again answers from memory; nothing moved.
        _quiet(bobc, watcher)
        assert not any(m["type"] == "review" for m in bobc.messages + watcher.messages)
        again = _review(ann)
        assert again["moves"] == moves and calls == [0]
        assert _review(bobc)["seat"] == 1 and calls == [0, 1]
        assert room.version == version


def test_spectators_bad_tokens_and_bad_messages_are_refused(tmp_path: Any) -> None:
    with client(tmp_path, **SMALL) as http, _finished_game(http, 4, watchers=1) as done:
        ann, watcher = done.ann, done.watchers[0]
        room = http.app.state.table.rooms[done.code]  # type: ignore[attr-defined]
        version = room.version
        assert _review(watcher, "anything")["code"] == "not_a_player"
        assert _review(ann, done.bob_token)["code"] == "bad_token"
        ann.send({"type": "review", "token": ann.token, "seat": 1})
        assert ann.error()["code"] == "bad_message"
        ann.send({"type": "review"})
        assert ann.error()["code"] == "bad_message"
        assert room.advisor.reviews == {} and room.version == version
        # After the refusals the seat still gets its review.
        assert _review(ann)["type"] == "review"


def test_one_review_at_a_time_and_a_failure_is_a_refusal(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = threading.Event()
    entered = threading.Event()
    real = bot_seats.judged_review

    def slow(*args: Any, **kwargs: Any) -> Any:
        entered.set()
        assert release.wait(20), "the test never released the review"
        if args[4] == 0:
            raise RuntimeError("no review today")
        return real(*args, **kwargs)

    monkeypatch.setattr(bot_seats, "judged_review", slow)
    with client(tmp_path, **SMALL) as http, _finished_game(http, 5) as done:
        ann, bobc = done.ann, done.bob
        ann.send({"type": "review", "token": ann.token})
        assert entered.wait(20)
        assert _review(bobc)["code"] == "review_busy"  # Ann's is being worked out
        # Ann's connection is served while her review is worked out.
        ann.send({"type": "ping"})
        before_pong = []
        while (message := ann.next())["type"] != "pong":
            before_pong.append(message["type"])
        assert "review" not in before_pong and "error" not in before_pong
        release.set()
        assert ann.until(lambda m: m["type"] in ("review", "error"))["code"] == "no_review"
        _quiet(ann)  # the connection lives on
        assert _review(bobc)["type"] == "review"  # and the room is free again


def test_no_review_after_a_rematch(tmp_path: Any) -> None:
    with client(tmp_path, **SMALL) as http, _finished_game(http, 6) as done:
        assert _review(done.ann)["type"] == "review"
        done.ann.send({"type": "rematch", "host_token": done.host_token})
        done.ann.until(lambda m: m["type"] == "event" and m["room"]["status"] == "lobby")
        assert _review(done.ann)["code"] == "not_finished"


def test_bots_never_wait_behind_a_review(tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()
    entered = threading.Event()
    real = bot_seats.judged_review

    def held(*args: Any, **kwargs: Any) -> Any:
        entered.set()
        assert release.wait(30), "the test never released the review"
        return real(*args, **kwargs)

    monkeypatch.setattr(bot_seats, "judged_review", held)
    with client(tmp_path, bot_workers=1, **SMALL) as http, _finished_game(http, 3) as done:
        done.ann.send({"type": "review", "token": done.ann.token})
        assert entered.wait(20)
        # Another room's bots play a whole game on the single bot thread meanwhile.
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
        other = create_room(http, "skipbo", SHORT_SKIPBO, seats, name="C")
        with connect(http, other["code"], other["token"]) as (carol,):
            carol.hello()
            start(carol, other["host_token"])
            play_to_end([carol], [], _hasty(4))
            assert carol.view["result"] is not None
        release.set()
        assert done.ann.until(lambda m: m["type"] in ("review", "error"))["type"] == "review"
