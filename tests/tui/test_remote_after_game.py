"""After a game at a room of a real table server: the review key asks the server, a
refusal is shown clearly, and the client follows the room's rematch through its lobby
into the new game (as a guest, and as the host holding the room's host token)."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets
from textual.pilot import Pilot

from cardtable.tui.app import ReviewScreen, TableApp, TextScreen, make_app
from cardtable.tui.lobby import LobbyScreen
from cardtable.tui.remote import RemoteGame, load_seat
from cardtable.tui.source import RefusedError

from ..live_server import running_server
from .helpers import keys_for, wait_for
from .test_remote import _host_starts, _post, _settle


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("tui-after-game")) as url:
        yield url


@pytest.fixture(scope="module")
def busy_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server that may work out no review at all: every review is refused as busy."""
    with running_server(tmp_path_factory.mktemp("tui-busy"), review_workers=0) as url:
        yield url


def _skipbo_room(base: str) -> dict[str, Any]:
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
    # Our seat starts every game: with stocks of 5 a bot that starts can win the new
    # game on its first turn, before the tests make their move in it.
    options = {"players": 2, "stock_size": 5, "first_player": 0}
    body = {"game": "skipbo", "options": options, "seats": seats}
    return _post(f"{base}/api/rooms", body)


async def _seated(
    base: str, created: dict[str, Any], store: Path, host_token: str | None = None
) -> RemoteGame:
    """Our client seated in the room, the game started by the host."""
    code = created["code"]
    source = await RemoteGame.join(
        f"{base}/r/{code}", name="Tui", host_token=host_token, store=store
    )
    starter = asyncio.create_task(_host_starts(base, code, created["host_token"]))
    await source.start(timeout=30)
    await starter
    return source


async def _play_to_end(pilot: Pilot[None], app: TableApp, rng: random.Random) -> None:
    """Play random legal moves of our seat by keys until the final scores are shown."""
    source = app.source
    for _ in range(3_000):
        await _settle(pilot, app, 30)
        if isinstance(app.screen, TextScreen):
            if app.screen.kind == "final":
                return
            await pilot.press("enter")
            continue
        view = source.view()
        if view["result"] is not None:
            await wait_for(pilot, lambda: isinstance(app.screen, TextScreen), "the final page")
            continue
        move = source.game.decode(rng.choice(view["legal_actions"]))
        assert isinstance(source, RemoteGame)
        version = source.version
        assert version is not None
        await pilot.press(*keys_for(app, move))
        assert source.version is not None and source.version > version, (move, app.message)
    raise AssertionError("the game did not end")


async def _ask(base: str, code: str, message: dict[str, Any], wanted: str) -> dict[str, Any]:
    """Send one message on a connection of our own; the first ``wanted`` answer or error."""
    url = base.replace("http", "ws", 1) + f"/ws/{code}"
    async with websockets.connect(url) as ws:
        await ws.send(json.dumps({"type": "hello", "token": message.get("token")}))
        await ws.send(json.dumps(message))
        async for raw in ws:
            answer: dict[str, Any] = json.loads(raw)
            if answer["type"] == "error" or (
                answer["type"] == wanted
                or (answer["type"] == "event" and answer.get("kind") == wanted)
            ):
                return answer
    raise AssertionError("no answer")


def _review_done(app: TableApp) -> bool:
    job = app.review_job
    return job is not None and not job.running


def test_the_review_key_asks_the_server(server: str, tmp_path: Path) -> None:
    created = _skipbo_room(server)

    async def go() -> None:
        source = await _seated(server, created, tmp_path / "s.json")
        app = make_app(source, "en")
        async with app.run_test(size=(80, 24)) as pilot:
            await _play_to_end(pilot, app, random.Random(5))
            page = app.screen.body.plain  # type: ignore[attr-defined]
            assert "v: review my moves" in page and "the host can start a rematch" in page
            await pilot.press("v")
            assert isinstance(app.screen, ReviewScreen)
            await wait_for(pilot, lambda: _review_done(app), "the server's review")
            job = app.review_job
            assert job is not None and job.error is None and job.result is not None
            review = job.result
            assert review["type"] == "review" and review["seat"] == 0
            assert review["game_no"] == 1 and review["measure"] == "win_chance"
            await wait_for(pilot, lambda: "decisions with a choice" in app.screen.body.plain, "")
            text = app.screen.body.plain
            assert f"{review['reviewed']} of your {review['decisions']} decisions" in text
            for number in review["worst"]:
                move = next(m for m in review["moves"] if m["number"] == number)
                assert f"Move {number}: {app.words.move(move['played_move'])}" in text
                assert f"Better: {app.words.move(move['best_move'])}" in text
                # The reason in the player's words: seats by their names here.
                assert f"Why: {app.words.reason(move['reason_parts'])}" in text
            if review["worst"]:
                assert "cost you about" in text
            else:
                assert "None of the reviewed moves" in text
            # The server keeps the review: asked again, it sends the same one.
            again = await _ask(
                server, created["code"], {"type": "review", "token": source.token}, "review"
            )
            assert again == review
        await source.close()

    asyncio.run(go())


def test_a_busy_server_refuses_the_review_clearly(busy_server: str, tmp_path: Path) -> None:
    created = _skipbo_room(busy_server)

    async def go() -> None:
        source = await _seated(busy_server, created, tmp_path / "s.json")
        app = make_app(source, "en")
        async with app.run_test(size=(80, 24)) as pilot:
            await _play_to_end(pilot, app, random.Random(6))
            await pilot.press("v")
            await wait_for(pilot, lambda: _review_done(app), "the server's answer")
            busy = "A review is already being worked out: try again in a moment (v)."
            assert app.message == busy
            await wait_for(pilot, lambda: busy in app.screen.body.plain, "the refusal")
            # Escape, then v asks again (a refused review is not kept).
            await pilot.press("escape", "v")
            assert isinstance(app.screen, ReviewScreen)
            await wait_for(pilot, lambda: _review_done(app), "the second answer")
            assert app.message == busy
        await source.close()

    asyncio.run(go())


def test_a_guest_follows_the_hosts_rematch(server: str, tmp_path: Path) -> None:
    created = _skipbo_room(server)
    code = created["code"]
    host = {"host_token": created["host_token"]}

    async def go() -> None:
        source = await _seated(server, created, tmp_path / "s.json")
        app = make_app(source, "en")
        async with app.run_test(size=(80, 24)) as pilot:
            await _play_to_end(pilot, app, random.Random(7))
            await pilot.press("m")  # we are not the host
            assert app.message == "The host can start a rematch; you will follow it here."
            # The host offers a rematch: the room goes back to its lobby.
            answer = await _ask(server, code, {"type": "rematch", **host}, "room")
            assert answer["type"] == "event", answer
            await wait_for(pilot, lambda: app.message.startswith("Rematch: the room"), "lobby")
            # The room's lobby is shown, for a guest without the host's keys.
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            lobby = app.screen
            assert isinstance(lobby, LobbyScreen) and not lobby.host
            assert "Waiting for the host to start the game." in lobby.page().plain
            await pilot.press("right")  # a guest cannot change the rules
            assert lobby.message == "Only the host changes the rules." and not lobby.draft
            # Our old game can no longer be reviewed: the server refuses it.
            with pytest.raises(RefusedError) as refused:
                await source.review()
            assert refused.value.code == "not_finished"
            # The host starts the new game: we follow it, same seat.
            answer = await _ask(server, code, {"type": "start", **host}, "start")
            assert answer["type"] == "event", answer
            await wait_for(pilot, lambda: source.game_no == 2, "the new game")
            await wait_for(pilot, lambda: not isinstance(app.screen, TextScreen), "the table")
            assert app.message == "A new game: new deal, same seats."
            assert app.lobby_screen() is None
            assert source.seat == 0 and source.view()["seat"] == 0
            assert source.view()["result"] is None and app.review_job is None
            assert not any("won" in line for line in app.log_lines), app.log_lines
            # And we play it.
            await _settle(pilot, app, 30)
            view = source.view()
            move = source.game.decode(random.Random(1).choice(view["legal_actions"]))
            version = source.version
            assert version is not None
            await pilot.press(*keys_for(app, move))
            assert source.version is not None and source.version > version, app.message
        await source.close()

    asyncio.run(go())


def test_the_host_starts_a_rematch_from_the_final_scores(server: str, tmp_path: Path) -> None:
    created = _skipbo_room(server)
    store = tmp_path / "s.json"

    async def go() -> None:
        source = await _seated(server, created, store, host_token=created["host_token"])
        stored = load_seat(server, created["code"], store)
        assert stored is not None and stored["host_token"] == created["host_token"]
        app = make_app(source, "en")
        async with app.run_test(size=(80, 24)) as pilot:
            await _play_to_end(pilot, app, random.Random(8))
            page = app.screen.body.plain  # type: ignore[attr-defined]
            assert "m: rematch" in page
            await pilot.press("m")
            # The room goes back to its lobby, where the host may change the options.
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            assert source.lobby() is not None and source.game_no == 1
            await pilot.press("s")
            await wait_for(pilot, lambda: source.game_no == 2, "the new game")
            await wait_for(pilot, lambda: not isinstance(app.screen, TextScreen), "the table")
            await wait_for(pilot, lambda: app.message.startswith("A new game"), "the message")
            assert app.lobby_screen() is None
            assert source.seat == 0 and source.view()["result"] is None
            await _settle(pilot, app, 30)
            assert source.view()["legal_actions"] or source.view()["current"] != 0
        await source.close()
        # The stored seat keeps the host token: resuming the seat can start rematches too.
        again = await RemoteGame.join(f"{server}/r/{created['code']}", store=store)
        assert again.host_token == created["host_token"] and again.rematch_role() == "host"

    asyncio.run(go())
