"""``cardtable play --user NAME``: the terminal client signs in (the password asked
without echo, the session kept in memory only), claims the seat it takes, shows the
player's rating in the lobby and at the table, and tells at the end whether the game
was rated and the new rating. Against a real table server."""

from __future__ import annotations

import asyncio
import json
import random
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets

from cardtable.tui.app import make_app
from cardtable.tui.command import PlayError, account_seat, check_mode, sign_in
from cardtable.tui.lobby import LobbyScreen
from cardtable.tui.remote import RemoteError, RemoteGame

from ..live_server import running_server
from .helpers import wait_for
from .test_command import parse

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(
        tmp_path_factory.mktemp("tui-signin"), password_memory_kib=64, password_time_cost=1
    ) as url:
        body = json.dumps({"name": "Tess", "password": PASSWORD}).encode()
        request = urllib.request.Request(
            f"{url}/api/account/register", body, {"Content-Type": "application/json"}
        )
        urllib.request.urlopen(request, timeout=10).close()
        yield url


@pytest.fixture
def typed(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The password "typed" at the prompt; the prompts asked, in order."""
    prompts: list[str] = []

    def getpass(prompt: str = "") -> str:
        prompts.append(prompt)
        return PASSWORD if len(prompts) == 1 else "not the password"

    monkeypatch.setattr("getpass.getpass", getpass)
    return prompts


async def _play_seat(base: str, code: str, token: str) -> None:
    """Our seat's moves, over a second connection of the seat (random legal moves): the
    app follows the game as it would the player's keys."""
    choose = random.Random(4).choice
    async with websockets.connect(base.replace("http", "ws", 1) + f"/ws/{code}") as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        async for raw in ws:
            message = json.loads(raw)
            if message["type"] == "rated":
                return
            view = message.get("view") if message["type"] in ("sync", "event") else None
            if view and view["result"] is None and view["legal_actions"]:
                move = {"type": "move", "token": token, "version": message["version"]}
                await ws.send(json.dumps({**move, "action": choose(view["legal_actions"])}))


def test_user_needs_an_online_table() -> None:
    with pytest.raises(PlayError, match="--user goes with --join or --host"):
        check_mode(parse("skyjo", "--user", "Tess"))
    check_mode(parse("--join", "localhost:1/ABCDEF", "--user", "Tess"))


def test_a_wrong_password_is_refused_in_words(server: str, typed: list[str]) -> None:
    async def go() -> None:
        await sign_in(server, "tess")  # the right one first: a name in any case
        with pytest.raises(RemoteError) as refused:
            await sign_in(server, "tess")
        assert refused.value.code == "bad_credentials"

    asyncio.run(go())
    assert typed == [f"Password for tess at {server}: "] * 2


def test_signed_in_the_rating_shows_and_a_rated_game_moves_it(
    server: str, tmp_path: Path, typed: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    async def go() -> None:
        session = await sign_in(server, "Tess")
        assert session.name == "Tess" and PASSWORD not in repr(session)
        assert "cardtable_session" not in repr(session)
        seats = [{"kind": "human"}, {"kind": "bot", "bot": "hard"}]
        source = await RemoteGame.create(
            server, "skyjo", {"players": 2}, seats, name="Tess", store=tmp_path / "s.json"
        )
        await account_seat(session, source)
        assert source.signed_in() == ("Tess", [])
        app = make_app(source, "en")
        async with app.run_test(size=(100, 30)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            lobby = app.screen
            assert isinstance(lobby, LobbyScreen)
            assert "Signed in as Tess · no Skyjo rating yet" in lobby.page().plain
            await pilot.press("s")  # the host starts
            await wait_for(pilot, lambda: app.lobby_screen() is None, "the table")
            await _play_seat(server, source.code, source.token)
            await wait_for(pilot, lambda: app.message.startswith("Rated game"), "the verdict")
            ((ladder, rating),) = [(e["ladder"], e) for e in source.ratings]
            assert ladder == "skyjo" and rating["games"] == 1 and rating["rating"] != 1500
            assert app.message.startswith(f"Rated game (Skyjo): You {rating['rating']} ± ")
            assert "P2 hard " in app.message  # the bot's new rating too
            shown = app.words.standing(*source.signed_in())
            plus_minus = rating["plus_minus"]
            assert shown == (
                f"Signed in as Tess · Skyjo rating {rating['rating']} ± {plus_minus} (provisional)"
            )
        # The profile says the same: the game is the account's, and rated.
        again = await asyncio.to_thread(session.ratings)
        assert [(e["ladder"], e["rating"]) for e in again] == [("skyjo", rating["rating"])]
        assert again[0]["provisional"] is True and again[0]["min_games"] > 1
        await source.close()

    asyncio.run(go())
    assert PASSWORD not in capsys.readouterr().out


def test_the_command_signs_in_takes_a_seat_as_the_account_and_signs_out(
    server: str, tmp_path: Path, typed: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``cardtable play --join LINK --user tess``: the new seat is named as the account,
    claimed for it, the app shows the standing; the session ends with the client."""
    from cardtable.tui import app as app_module
    from cardtable.tui.command import play_online
    from cardtable.tui.signin import TableSession

    monkeypatch.setenv("CARDTABLE_DATA", str(tmp_path))
    seats = [{"kind": "human"}, {"kind": "human"}]
    body = json.dumps({"game": "skyjo", "options": {"players": 2}, "seats": seats, "name": "Host"})
    request = urllib.request.Request(
        f"{server}/api/rooms", body.encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        code = json.loads(answer.read())["code"]
    seen: list[Any] = []

    class Shown:
        def __init__(self, source: RemoteGame, lang: str) -> None:
            self.source = source

        async def run_async(self) -> None:
            seen.append(self.source.signed_in())

    ended: list[str] = []
    sign_out = TableSession.sign_out

    def recorded(session: TableSession) -> None:
        ended.append(session.name)
        sign_out(session)

    monkeypatch.setattr(app_module, "make_app", Shown)
    monkeypatch.setattr(TableSession, "sign_out", recorded)
    args = parse("--join", f"{server}/r/{code}", "--user", "tess")
    asyncio.run(play_online(args, "en"))
    ((name, ratings),) = seen
    assert name == "Tess" and ended == ["Tess"]
    assert all(entry["ladder"] == "skyjo" for entry in ratings)  # this game's ladders only
    with urllib.request.urlopen(f"{server}/api/rooms/{code}", timeout=10) as answer:
        room = json.loads(answer.read())
    assert [seat["name"] for seat in room["seats"]] == ["Host", "Tess"]
