"""The practice coach (table option ``coach``): its line after a clearly worse move, the
one take-back, what waits for it, what it refuses, and that nothing hidden leaks."""

from __future__ import annotations

import time
from typing import Any

import pytest
from starlette.testclient import TestClient

from cardtable.bots import coaching
from cardtable.bots.advisor import ReasonPart
from cardtable.core import Result, Rng
from cardtable.games import get_game
from cardtable.i18n import LANGUAGES, catalog
from cardtable.server.ladder import verdict
from cardtable.server.rooms import bot_seats, coach, seating
from cardtable.server.storage.records import FencedError
from cardtable.skipbo import events as skipbo_events
from cardtable.skyjo import events as skyjo_events
from cardtable.skyjo.moves import DRAW, EXCHANGE, TAKE_DISCARD

from ..coach_deals import JUDGE_SEED, SKYJO, practice_deal
from .helpers import TIMEOUT, Client, client, connect, is_move_event, start

ANN_AND_A_BOT = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]


def _create(http: TestClient, seats: list[dict[str, Any]], table: dict[str, Any]) -> Any:
    return http.post(
        "/api/rooms",
        json={"game": "skyjo", "options": SKYJO, "seats": seats, "name": "Ann", "table": table},
    )


def _play_setup(ann: Client) -> None:
    """From the start, Ann turns up positions 0 and 1; returns at her first turn."""
    ann.until(lambda m: m["type"] == "event" and m["kind"] == "start")
    while not (ann.view and ann.view["phase"] == "turn" and ann.my_turn()):
        if ann.my_turn():
            assert ann.view is not None
            ann.move(min(ann.view["legal_actions"]))
        ann.until(lambda m: is_move_event(m) or m["type"] == "sync")


def _until_my_turn(ann: Client) -> None:
    """Read the bot's moves until Ann is to move again."""
    ann.until(lambda m: is_move_event(m) and m["outcome"]["seat"] == 1)
    while not ann.my_turn():
        ann.until(is_move_event)


def _send(player: Client, kind: str, version: int | None = None, **more: Any) -> None:
    player.send(
        {
            "type": kind,
            "token": player.token,
            "version": player.version if version is None else version,
            **more,
        }
    )


def _judged(room: Any) -> None:
    """Wait until the coach has judged the last move (it runs in the bot pool)."""
    deadline = time.monotonic() + TIMEOUT
    while room.coach.judging is not None:
        assert time.monotonic() < deadline, "the coach never answered"
        time.sleep(0.01)


def _stored_actions(http: TestClient, code: str) -> list[int]:
    log = http.get(f"/api/rooms/{code}/games/1").json()
    return [move["action"] for move in log["moves"]]


def test_a_clearly_worse_move_gets_the_coach_s_line_and_one_take_back(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed, low = practice_deal()
    monkeypatch.setattr(seating, "new_seed", lambda: seed)
    monkeypatch.setattr(coach, "new_seed", lambda: JUDGE_SEED)
    judged: list[Any] = []
    real_judge = bot_seats.judge_position

    def recording(state: Any, *args: Any) -> Any:
        judged.append(state)
        return real_judge(state, *args)

    monkeypatch.setattr(bot_seats, "judge_position", recording)
    with client(tmp_path) as http:
        created = _create(http, ANN_AND_A_BOT, {"coach": True}).json()
        code = created["code"]
        assert http.get(f"/api/rooms/{code}").json()["table"]["coach"] is True
        with connect(http, code, created["token"], None) as (ann, spectator):
            ann.hello()
            spectator.hello()
            start(ann, created["host_token"])
            _play_setup(ann)
            room = http.app.state.table.rooms[code]  # type: ignore[attr-defined]

            # The best move: no line.
            before_take = room.state.clone()
            ann.move(TAKE_DISCARD)
            ann.until(is_move_event)
            _judged(room)
            # Only what the player saw went to the advisor: a re-deal of the rest.
            world = judged[-1]
            assert world.view(0) == before_take.view(0)
            assert world.to_json() != before_take.to_json()
            assert not any(m["type"] == "coach" for m in ann.messages)

            # A clearly worse move: the line, to the player alone; the bot waits.
            before = room.state.clone()
            before_view = ann.view
            ann.move(EXCHANGE + low)
            moved = ann.until(is_move_event)
            line = ann.until(lambda m: m["type"] == "coach")
            assert line["version"] == moved["version"] == room.version
            assert line["index"] == len(room.state.history) - 1
            assert line["measure"] == "round_points"
            assert line["cost"] >= coaching.CLEARLY_WORSE["round_points"]
            assert line["played_move"] == {"type": "exchange", "pos": low}
            assert line["best_move"] != line["played_move"]
            assert line["take_back"] is True and line["no_take_back"] is None
            parts = [ReasonPart.from_json(part) for part in line["reason_parts"]]
            assert parts and all(part.key in catalog(lang) for lang in LANGUAGES for part in parts)
            spectator.send({"type": "ping"})
            spectator.until(lambda m: m["type"] == "pong")
            assert not any(m["type"] == "coach" for m in spectator.messages)
            assert room.state.current_player == 1 and room.bots.task is None
            version = room.version

            # Refusals change nothing.
            _send(ann, "take_back", version - 1)
            assert ann.error()["code"] == "stale_version"
            ann.until(lambda m: m["type"] == "sync")
            spectator.send({"type": "take_back", "token": "x", "version": version})
            assert spectator.error()["code"] == "not_a_player"
            ann.send({"type": "take_back", "token": "nope", "version": version})
            assert ann.error()["code"] == "bad_token"
            _send(ann, "take_back", seat=0)
            assert ann.error()["code"] == "bad_message"
            assert room.version == version and len(room.state.history) == line["index"] + 1

            # The take-back: exactly the state before, in the stored log too.
            _send(ann, "take_back")
            notice = ann.until(lambda m: m["type"] == "took_back")
            assert notice == {"type": "took_back", "version": version + 1, "seat": 0,
                              "index": line["index"]}  # fmt: skip
            sync = ann.until(lambda m: m["type"] == "sync")
            assert sync["version"] == version + 1 and sync["view"] == before_view
            assert room.state.to_json() == before.to_json()
            assert _stored_actions(http, code) == room.state.history
            spectator.until(lambda m: m["type"] == "sync" and m["version"] == version + 1)

            # Once: a second take-back is refused, and so is one of the same decision.
            _send(ann, "take_back")
            assert ann.error()["code"] == "no_take_back"
            ann.move(EXCHANGE + low)
            again = ann.until(lambda m: m["type"] == "coach")
            assert again["take_back"] is False and again["no_take_back"] == "used"
            # The bot plays on, and no take-back reaches past it.
            _until_my_turn(ann)
            _send(ann, "take_back")
            assert ann.error()["code"] == "no_take_back"

            # The stored log is the game as it stands: a replay gives the live state.
            game = get_game("skyjo")
            replayed = game.new_state(game.rules_from_json(SKYJO), seed)
            for action in _stored_actions(http, code):
                replayed.apply_action(action)
            live = room.state.to_json()
            assert replayed.to_json() == live
            assert room.result_json(Result((0,), (0, 9)), 1)["coached"] is True
    # A restart replays the stored log: the same game; a page that last saw the move
    # taken back gets the whole state again, not events on top of it.
    with client(tmp_path) as http:
        room = http.app.state.table.rooms[code]  # type: ignore[attr-defined]
        assert room.state.to_json() == live
        with connect(http, code, created["token"]) as (ann,):
            ann.hello(last_version=version)
            assert ann.until(lambda m: m["type"] in ("sync", "event"))["type"] == "sync"


def test_take_backs_are_refused_when_they_would_leak_or_come_too_late(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every move is called clearly worse here: what is tested is the take-back's refusals.
    monkeypatch.setattr(coach, "clearly_worse", lambda measure, verdict: True)
    with client(tmp_path) as http:
        created = _create(http, ANN_AND_A_BOT, {"coach": True}).json()
        code = created["code"]
        with connect(http, code, created["token"]) as (ann,):
            ann.hello()
            start(ann, created["host_token"])
            _play_setup(ann)
            room = http.app.state.table.rooms[code]  # type: ignore[attr-defined]

            # Drawing showed a card: never taken back, and the line says why.
            ann.move(DRAW)
            ann.until(is_move_event)
            line = ann.until(lambda m: m["type"] == "coach")
            assert line["take_back"] is False and line["no_take_back"] == "revealed"
            snapshot, version = room.state.to_json(), room.version
            _send(ann, "take_back")
            refused = ann.error()
            assert refused["code"] == "no_take_back" and refused["no_take_back"] == "revealed"
            assert room.state.to_json() == snapshot and room.version == version

            # A move over a face-up card may be taken back, until the player keeps it.
            ann.move(EXCHANGE + 0)
            ann.until(is_move_event)
            assert ann.until(lambda m: m["type"] == "coach")["take_back"] is True
            _send(ann, "keep_move")
            _until_my_turn(ann)
            snapshot, version = room.state.to_json(), room.version
            _send(ann, "take_back")
            assert ann.error()["code"] == "no_take_back"
            assert room.state.to_json() == snapshot and room.version == version

            # Unanswered, an offer lapses after COACH_WAIT_SECONDS: the bot plays on.
            monkeypatch.setattr(coach, "COACH_WAIT_SECONDS", 0.2)
            ann.move(TAKE_DISCARD)
            ann.until(is_move_event)
            ann.move(EXCHANGE + 0)
            ann.until(is_move_event)
            assert ann.until(lambda m: m["type"] == "coach")["take_back"] is True
            _until_my_turn(ann)
            _send(ann, "take_back")
            assert ann.error()["code"] == "no_take_back"


def test_the_coach_is_for_one_person_against_bots_set_before_the_game(tmp_path: Any) -> None:
    two_people = [{"kind": "human"}, {"kind": "human"}]
    with client(tmp_path) as http:
        refused = _create(http, two_people, {"coach": True})
        assert refused.status_code == 400
        assert refused.json()["error"] == "bad_table_options"
        assert refused.json()["field"] == "coach"

        plain = _create(http, two_people, {}).json()
        with connect(http, plain["code"], plain["token"]) as (ann,):
            ann.hello()
            ann.send(
                {"type": "table", "host_token": plain["host_token"], "options": {"coach": True}}
            )
            error = ann.error()
            assert error["code"] == "bad_table_options" and error["field"] == "coach"
            assert error["allowed_key"] == "allowed.coach_seats"
            # At a table with another person there is nothing to take back, ever.
            _send(ann, "take_back")
            assert ann.error()["code"] == "no_coach"

        practice = _create(http, ANN_AND_A_BOT, {"coach": True}).json()
        with connect(http, practice["code"], practice["token"]) as (ann,):
            ann.hello()
            host = practice["host_token"]
            ann.send({"type": "configure", "host_token": host, "seats": two_people})
            error = ann.error()
            assert error["code"] == "bad_table_options" and error["field"] == "coach"
            start(ann, host)
            ann.until(lambda m: m["type"] == "event" and m["kind"] == "start")
            ann.send({"type": "table", "host_token": host, "options": {"coach": False}})
            assert ann.error()["field"] == "coach"
            room = http.app.state.table.rooms[practice["code"]]  # type: ignore[attr-defined]
            assert room.table_options.coach is True

        # Without the coach there is nothing to take back.
        bots = _create(http, ANN_AND_A_BOT, {}).json()
        with connect(http, bots["code"], bots["token"]) as (ann,):
            ann.hello()
            start(ann, bots["host_token"])
            _play_setup(ann)
            _send(ann, "take_back")
            assert ann.error()["code"] == "no_coach"
            _send(ann, "keep_move")
            assert ann.error()["code"] == "no_coach"


def test_a_coached_game_is_unrated() -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
    result = {"winners": [0], "scores": [10, 40], "blocked": False}
    assert verdict("skyjo", SKYJO, seats, result, {0: 7}).ladder == "skyjo"
    coached = verdict("skyjo", SKYJO, seats, {**result, "coached": True}, {0: 7})
    assert coached.ladder is None and coached.reason == "coached"


@pytest.mark.parametrize(
    ("name", "options", "shows"),
    [
        ("skyjo", SKYJO, skyjo_events.shows_hidden_card),
        ("skipbo", {"players": 2, "stock_size": 5}, skipbo_events.shows_hidden_card),
    ],
)
def test_a_move_said_to_show_nothing_hidden_looks_the_same_in_every_re_deal(
    name: str, options: dict[str, Any], shows: Any
) -> None:
    """The take-back's rule against leaks: when no event of a move shows its mover a
    hidden card, the mover's view after it is the same whatever the hidden cards were."""
    game = get_game(name)
    rules = game.rules_from_json(options)
    safe = unsafe = 0
    for seed in range(6):
        state = game.new_state(rules, seed)
        rng = Rng(seed)
        for _ in range(150):
            if state.is_over:
                break
            seat = state.current_player
            legal = state.legal_actions()
            action = legal[rng.next64() % len(legal)]
            after = state.clone()
            outcome = after.apply_action(action)
            if any(shows(event, seat) for event in outcome.events):
                unsafe += 1
            else:
                safe += 1
                for redeal in range(3):
                    world = state.determinize(seat, Rng(seed * 100 + redeal))
                    world.apply_action(action)
                    assert world.view(seat) == after.view(seat), (seed, outcome.to_json())
            state = after
    assert safe > 20 and unsafe > 20


def test_a_skip_bo_turn_ended_by_a_discard_is_taken_back_with_the_next_player_s_draw(
    tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every move is called clearly worse: what is tested is Skip-Bo's take-back.
    monkeypatch.setattr(coach, "clearly_worse", lambda measure, verdict: True)
    options = {"players": 2, "stock_size": 5, "first_player": 0}
    with client(tmp_path) as http:
        body = {"game": "skipbo", "options": options, "seats": ANN_AND_A_BOT, "name": "Ann"}
        created = http.post("/api/rooms", json={**body, "table": {"coach": True}}).json()
        code = created["code"]
        with connect(http, code, created["token"]) as (ann,):
            ann.hello()
            start(ann, created["host_token"])
            ann.until(lambda m: m["type"] == "event" and m["kind"] == "start")
            room = http.app.state.table.rooms[code]  # type: ignore[attr-defined]
            before, view = room.state.clone(), ann.view
            assert view is not None
            discard = max(view["legal_actions"])  # a discard: it ends the turn
            ann.move(discard)
            moved = ann.until(is_move_event)
            assert moved["outcome"]["events"][-1] == {"type": "Drew", "seat": 1, "count": 5}
            line = ann.until(lambda m: m["type"] == "coach")
            assert line["measure"] == "win_chance" and line["take_back"] is True
            assert room.state.current_player == 1  # the bot waits
            # The stored log changes only under the room's lease.
            storage, portal = room.table.storage, http.portal
            assert portal is not None
            with pytest.raises(FencedError):
                portal.call(storage.take_back_move, code, 1, 0, room.version + 1, room.epoch + 1)
            assert _stored_actions(http, code) == [discard]
            _send(ann, "take_back")
            sync = ann.until(lambda m: m["type"] == "sync")
            assert sync["view"] == view
            assert room.state.to_json() == before.to_json()
            assert _stored_actions(http, code) == []
