"""``cardtable play --join``: the terminal client seated at a room of a real table server
(uvicorn on a free loopback port in a thread, temporary SQLite, bots without pause)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
import urllib.request
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets

from cardtable.games import get_game
from cardtable.tui.app import TableApp, TextScreen, make_app
from cardtable.tui.command import PlayError, check_mode
from cardtable.tui.remote import RemoteError, RemoteGame, load_seat, parse_target

from ..live_server import running_server
from .helpers import keys_for
from .test_command import parse


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("tui-server")) as url:
        yield url


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}, method="POST"
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        answer: dict[str, Any] = json.loads(response.read())
        return answer


async def _host_starts(base: str, code: str, host_token: str) -> None:
    """The host (a second client, with only the host token) starts the game."""
    url = base.replace("http", "ws", 1) + f"/ws/{code}"
    async with websockets.connect(url) as ws:
        await ws.send(json.dumps({"type": "hello"}))
        await ws.send(json.dumps({"type": "start", "host_token": host_token}))
        async for raw in ws:
            message = json.loads(raw)
            assert message["type"] != "error", message
            if message["type"] == "event" and message["kind"] == "start":
                return


def _skyjo_room(base: str) -> dict[str, Any]:
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "naive"}]
    body = {"game": "skyjo", "options": {"players": 3, "end_score": 40}, "seats": seats}
    return _post(f"{base}/api/rooms", body)


async def _settle(pilot: Any, app: TableApp, limit: float = 60.0) -> None:
    """Wait (real time: the server plays the bots) for our turn, a page or the end; the
    limit is generous, as under load the bots' worker processes (niced) wait for a CPU."""
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        await pilot.pause(0.01)
        if isinstance(app.screen, TextScreen):
            return
        view = app.source.view()
        if view["legal_actions"] or view["result"] is not None:
            return
    raise AssertionError("the table did not come back to us")


@contextlib.asynccontextmanager
async def seated_app(
    server: str, tmp_path: Path, lang: str
) -> AsyncIterator[tuple[RemoteGame, TableApp, Any]]:
    """Seated as Tui at a new Skyjo room whose host has started the game, in an app in
    ``lang`` that has drawn the table: (the source, the app, its pilot)."""
    created = _skyjo_room(server)
    code = created["code"]
    source = await RemoteGame.join(f"{server}/r/{code}", name="Tui", store=tmp_path / "s.json")
    starter = asyncio.create_task(_host_starts(server, code, created["host_token"]))
    await source.start(timeout=15)
    await starter
    app = make_app(source, lang)
    async with app.run_test(size=(80, 24)) as pilot:
        await _settle(pilot, app)
        yield source, app, pilot
    await source.close()


async def _play_moves(pilot: Any, app: TableApp, count: int, rng: random.Random) -> None:
    """Play ``count`` moves of our seat by keys, picked among the legal actions of our view."""
    source = app.source
    assert isinstance(source, RemoteGame)
    engine = get_game("skyjo")
    played = 0
    while played < count:
        await _settle(pilot, app)
        if isinstance(app.screen, TextScreen):
            await pilot.press("enter")
            continue
        view = source.view()
        if view["result"] is not None:
            return
        move = engine.decode(rng.choice(view["legal_actions"]))
        version = source.version
        assert version is not None
        await pilot.press(*keys_for(app, move))
        assert source.version is not None and source.version > version, (move, app.message)
        played += 1


def _room_version(base: str, code: str) -> int:
    with urllib.request.urlopen(f"{base}/api/rooms/{code}", timeout=10) as response:
        version: int = json.loads(response.read())["version"]
        return version


def test_targets_are_parsed() -> None:
    assert parse_target("http://127.0.0.1:8000/r/abcdef") == ("http://127.0.0.1:8000", "ABCDEF")
    assert parse_target("127.0.0.1:8000/K7QW3M") == ("http://127.0.0.1:8000", "K7QW3M")
    assert parse_target("https://t.example/r/K7QW3M/watch") == ("https://t.example", "K7QW3M")
    assert parse_target("ws://h:1/ws/K7QW3M") == ("http://h:1", "K7QW3M")
    for bad in ("ftp://h/r/K7QW3M", "127.0.0.1:8000", "h:1/a/b/c"):
        with pytest.raises(ValueError):
            parse_target(bad)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["skyjo", "--join", "h:1/K7QW3M"], "leave out GAME"),
        (["--join", "h:1/K7QW3M", "--bots", "easy"], "--bots applies to a local game"),
        (["--join", "h:1/K7QW3M", "--name", "A", "--token", "t"], "not both"),
        (["skyjo", "--name", "Ann"], "--name goes with --join"),
        ([], "give a GAME"),
    ],
)
def test_join_excludes_the_local_options(argv: list[str], message: str) -> None:
    with pytest.raises(PlayError, match=message):
        check_mode(parse(*argv))
    check_mode(parse("--join", "h:1/K7QW3M", "--name", "Ann"))


def test_join_a_missing_room_is_an_error(server: str, tmp_path: Path) -> None:
    async def go() -> None:
        with pytest.raises(RemoteError, match="no live room"):
            await RemoteGame.join(f"{server}/r/ZZZZZZ", name="Ann", store=tmp_path / "s.json")

    asyncio.run(go())


def test_play_a_room_with_bots_refusal_drop_and_resume(server: str, tmp_path: Path) -> None:
    store = tmp_path / "seats.json"
    created = _skyjo_room(server)
    code = created["code"]

    async def go() -> None:
        source = await RemoteGame.join(f"{server}/r/{code}", name="Tui", store=store)
        assert source.seat == 0 and load_seat(server, code, store) is not None
        assert source.seat_labels() == ["", "greedy", "naive"]
        starter = asyncio.create_task(_host_starts(server, code, created["host_token"]))
        await source.start(timeout=15)
        await starter
        app = make_app(source, "en")
        rng = random.Random(3)
        async with app.run_test(size=(80, 24)) as pilot:
            await _settle(pilot, app)
            assert source.view()["phase"] == "setup"
            await pilot.press("d")  # drawing during the set-up: the engine refuses it
            assert app.message.startswith("Refused: ") and len(app.message) > 20, app.message
            await _play_moves(pilot, app, 3, rng)
            # Drop the socket: the source reconnects on its own and catches up.
            before = source.reconnects
            source.drop()
            deadline = time.monotonic() + 10
            while source.reconnects == before or not source.connected.is_set():
                assert time.monotonic() < deadline, "no reconnection"
                await pilot.pause(0.02)
            await _play_moves(pilot, app, 3, rng)
            await _settle(pilot, app)
            assert source.version == _room_version(server, code)  # nothing was missed
            lines = app.log_lines  # our moves and the bots' moves, from the server's outcomes
            assert sum(line.startswith("You:") for line in lines) >= 6, lines
            assert any(line.startswith("P2 greedy:") for line in lines), lines
        await source.close()
        # The stored token resumes the same seat (no name needed).
        again = await RemoteGame.join(f"{server}/r/{code}", store=store)
        await again.start(timeout=10)
        assert again.seat == 0 and again.view()["seat"] == 0
        await again.close()

    asyncio.run(go())


def test_the_command_explains_a_missing_room(
    server: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from cardtable.cli import main

    assert main(["play", "--join", f"{server}/r/ZZZZZZ", "--name", "Ann"]) == 1
    assert "no live room" in capsys.readouterr().err


def test_the_hint_key_asks_the_server(server: str, tmp_path: Path) -> None:
    engine = get_game("skyjo")

    async def go() -> None:
        async with seated_app(server, tmp_path, "en") as (source, app, pilot):
            hint = await source.hint()
            assert hint is not None and hint.by == "advisor" and hint.reason
            assert hint.reason_parts and app.words.reason(hint.reason_parts)
            assert engine.encode(engine.move_from_json(hint.move)) in source.view()["legal_actions"]
            await pilot.press("h")
            for _ in range(200):
                if app.message.startswith("Hint"):
                    break
                await pilot.pause(0.02)
            assert app.message.startswith("Hint (move advisor)"), app.message

    asyncio.run(go())


def test_a_refusal_from_the_server_is_told_in_german(server: str, tmp_path: Path) -> None:
    async def go() -> None:
        async with seated_app(server, tmp_path, "de") as (source, app, pilot):
            assert source.view()["phase"] == "setup"
            await pilot.press("d")  # drawing during the set-up: the engine refuses it
            assert app.message == (
                "Nicht erlaubt: die Runde hat noch nicht begonnen: "
                "alle decken zuerst zwei Karten auf"
            ), app.message

    asyncio.run(go())
