"""``cardtable play GAME --host SERVER``: the terminal client creates a room on a real table
server, waits in its lobby, changes the options there (a refusal shown under its option),
starts the game with a second client seated, plays it to the end, and offers a rematch
that goes back to the lobby."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.pilot import Pilot

from cardtable.bots import bot_names
from cardtable.cli import main
from cardtable.tui.app import TableApp, TextScreen, make_app
from cardtable.tui.command import host_request
from cardtable.tui.lobby import LobbyScreen
from cardtable.tui.remote import RemoteError, RemoteGame, load_seat
from cardtable.tui.source import MoveRefusedError, Update

from ..live_server import running_server
from .helpers import wait_for
from .test_command import parse
from .test_remote import _host_starts, _post
from .test_remote_after_game import _ask, _play_to_end


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("tui-host")) as url:
        yield url


def _rooms(base: str) -> int:
    with urllib.request.urlopen(f"{base}/health", timeout=10) as response:
        count: int = json.loads(response.read())["rooms"]
        return count


async def _host(base: str, store: Path, *argv: str) -> RemoteGame:
    """What ``cardtable play ARGV --host BASE`` creates, seated as Ann."""
    game, options, seats = host_request(parse(*argv, "--host", base))
    return await RemoteGame.create(base, game, options, seats, name="Ann", store=store)


class Guest:
    """A second client at the room (no app): it records its updates and plays its seat
    with random legal moves of its own view."""

    def __init__(self, source: RemoteGame) -> None:
        self.source = source
        self.updates: list[Update] = []
        self.task = asyncio.create_task(source.run(self.updates.append))
        self.rng = random.Random(11)

    async def play(self, game_no: int) -> None:
        source = self.source
        while True:
            await asyncio.sleep(0.01)
            if source.game_no != game_no or source._view is None:
                continue
            view = source.view()
            if view["result"] is not None:
                return
            if view["legal_actions"] and view["seat"] == source.seat:
                move = source.game.decode(self.rng.choice(view["legal_actions"]))
                with contextlib.suppress(MoveRefusedError):  # a version behind: look again
                    await source.submit(move)

    async def close(self) -> None:
        await self.source.close()
        self.task.cancel()
        with pytest.raises((asyncio.CancelledError, RemoteError)):
            await self.task


def _lobby(app: TableApp) -> LobbyScreen:
    screen = app.screen
    assert isinstance(screen, LobbyScreen), screen
    return screen


def _row(lobby: LobbyScreen, name: str) -> int:
    return [spec.name for spec in lobby.specs].index(name)


async def _to_row(pilot: Pilot[None], lobby: LobbyScreen, name: str) -> None:
    while lobby.cursor != _row(lobby, name):
        await pilot.press("down")


def _lines_after(page: str, label: str) -> list[str]:
    lines = page.splitlines()
    index = next(i for i, line in enumerate(lines) if line.strip("▶ ").startswith(label))
    return lines[index:]


def test_host_a_room_play_it_with_a_friend_and_rematch(server: str, tmp_path: Path) -> None:
    store = tmp_path / "seats.json"

    async def go() -> None:
        host = await _host(server, store, "skyjo", "--players", "2", "--end-score", "30")
        assert host.seat == 0 and host.rematch_role() == "host"
        assert host.room["rules"]["end_score"] == 30 and host.room["status"] == "lobby"
        stored = load_seat(server, host.code, store)
        assert stored is not None and stored["host_token"] == host.host_token
        link = host.link()
        assert link == f"{server}/r/{host.code}"
        app = make_app(host, "en")
        async with app.run_test(size=(100, 40)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            lobby = _lobby(app)
            page = lobby.page().plain
            assert f"Link for your friends: {link}" in page
            assert f"cardtable play --join {link}" in page
            assert "1. Ann (you)" in page and "2. waiting for a player" in page
            assert "Waiting for 1 more player to join." in page  # CLDR plural, no "(s)"
            # Starting with a free seat: the server refuses, the lobby says why.
            await pilot.press("s")
            await wait_for(pilot, lambda: "still waiting" in lobby.message, "the refusal")
            assert lobby.message == "Some seats are still waiting for players."

            # A friend joins by the link: the host sees them.
            guest = Guest(await RemoteGame.join(link, name="Ben", store=tmp_path / "b.json"))
            await wait_for(pilot, lambda: "2. Ben" in lobby.page().plain, "Ben in the lobby")
            assert "Everyone is here: press s to start the game." in lobby.page().plain
            await wait_for(pilot, lambda: any(u.room for u in guest.updates), "the guest's lobby")

            # The host changes options: the guest sees each change.
            await _to_row(pilot, lobby, "end_score")
            await pilot.press("2", "5", "enter")
            await wait_for(
                pilot, lambda: guest.source.room["rules"]["end_score"] == 25, "end_score 25"
            )
            await wait_for(pilot, lambda: not lobby.draft, "the change accepted")
            await _to_row(pilot, lobby, "rows_rule")
            await pilot.press("right")
            await wait_for(
                pilot, lambda: guest.source.room["rules"]["rows_rule"] is True, "rows rule"
            )
            # A refused option: the server names it, the lobby shows it under the option.
            await _to_row(pilot, lobby, "end_score")
            await pilot.press("5", "0", "0", "0", "enter")
            await wait_for(pilot, lambda: "end_score" in lobby.errors, "the refusal")
            below = _lines_after(lobby.page().plain, "Game ends at (points)")
            assert "5000" in below[0].split(), below[0]
            assert below[1].strip() == (
                "Refused by the table (an integer from 1 to 1000). Nothing was changed (u undoes)."
            )
            assert guest.source.room["rules"]["end_score"] == 25  # nothing changed
            await pilot.press("s")  # not with a refused change pending
            assert lobby.message.startswith("Some changes are not accepted yet")
            await pilot.press("u")
            assert not lobby.draft and not lobby.errors
            assert "25" in _lines_after(lobby.page().plain, "Game ends at")[0].split()

            # Start, and play the game to the end (the guest plays its seat meanwhile).
            guest_plays = asyncio.create_task(guest.play(1))
            await pilot.press("s")
            await wait_for(pilot, lambda: app.lobby_screen() is None, "the table")
            assert host.view()["rules"]["end_score"] == 25
            assert host.view()["rules"]["rows_rule"] is True
            assert guest.source.view()["rules"]["end_score"] == 25
            await _play_to_end(pilot, app, random.Random(4))
            await guest_plays
            assert host.view()["result"] is not None
            assert guest.source.view()["result"] == host.view()["result"]

            # A rematch goes back to the lobby: the options may change before the start.
            await pilot.press("m")
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            lobby = _lobby(app)
            await wait_for(pilot, lambda: any(u.lobby for u in guest.updates), "guest's lobby")
            await _to_row(pilot, lobby, "closer_doubling")
            await pilot.press("enter")  # yes/no: enter switches it
            await wait_for(
                pilot,
                lambda: guest.source.room["rules"]["closer_doubling"] is False,
                "closer doubling off",
            )
            await wait_for(pilot, lambda: not lobby.draft, "the change accepted")
            guest_plays = asyncio.create_task(guest.play(2))
            await pilot.press("s")
            await wait_for(pilot, lambda: host.game_no == 2 and guest.source.game_no == 2, "2")
            await wait_for(pilot, lambda: app.lobby_screen() is None, "the table")
            assert not isinstance(app.screen, TextScreen)
            assert host.view()["rules"]["closer_doubling"] is False
            assert any(u.new_game for u in guest.updates)
            guest_plays.cancel()
        await guest.close()
        await host.close()

    asyncio.run(go())


def test_a_refused_option_names_its_field_in_the_lobby(server: str, tmp_path: Path) -> None:
    """Skip-Bo team play needs 4 or 6 players: fewer players are refused on 'teams'."""

    async def go() -> None:
        host = await _host(
            server, tmp_path / "s.json", "skipbo", "--players", "4", "--teams", "--bots", "easy"
        )
        assert [seat["kind"] for seat in host.room["seats"]] == ["human", "human", "human", "bot"]
        app = make_app(host, "fr")
        async with app.run_test(size=(100, 40)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            lobby = _lobby(app)
            assert "4. robot naive" in lobby.page().plain
            assert lobby.cursor == _row(lobby, "players")
            await pilot.press("right")  # team play: 5 players is skipped
            await wait_for(pilot, lambda: host.room["rules"]["players"] == 6, "6 players")
            await wait_for(pilot, lambda: len(host.room["seats"]) == 6, "6 seats")
            await pilot.press("left")
            await wait_for(pilot, lambda: host.room["rules"]["players"] == 4, "4 players")
            await pilot.press("left")  # 3 players
            await wait_for(pilot, lambda: "teams" in lobby.errors, "the refusal")
            assert lobby.draft == {"players": 3}
            below = _lines_after(lobby.page().plain, "Par équipes")
            assert below[1].strip() == (
                "Refusé par la table (le jeu par équipes demande 4 ou 6 joueurs)."
                " Rien n'a changé (u annule)."
            )
            assert host.room["rules"]["players"] == 4
            # Without team play, three players are accepted, one seat fewer.
            await _to_row(pilot, lobby, "teams")
            await pilot.press("enter")
            await wait_for(pilot, lambda: not lobby.draft and not lobby.errors, "accepted")
            assert host.room["rules"]["players"] == 3 and not host.room["rules"]["teams"]
            assert len(host.room["seats"]) == 3
            # A whole number steps within the range the engine allows for 3 players.
            await _to_row(pilot, lobby, "stock_size")
            await pilot.press("left")  # auto: from the top of the range
            await wait_for(pilot, lambda: host.room["rules"]["stock_size"] == 30, "stock 30")
            await pilot.press("right")  # never past the top
            assert lobby.draft == {} and host.room["rules"]["stock_size"] == 30
            await pilot.press("delete")  # back to auto
            await wait_for(pilot, lambda: host.room["rules"]["stock_size"] is None, "auto")
        await host.close()

    asyncio.run(go())


def test_the_host_makes_a_free_seat_a_bot_and_back_from_the_lobby(
    server: str, tmp_path: Path
) -> None:
    async def go() -> None:
        host = await _host(server, tmp_path / "s.json", "skyjo", "--players", "3")
        kinds = [seat["kind"] for seat in host.room["seats"]]
        assert kinds == ["human", "human", "human"]
        app = make_app(host, "de")
        async with app.run_test(size=(100, 40)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            lobby = _lobby(app)
            await pilot.press("tab")  # the arrows now act on the seats
            assert lobby.section == "seats"
            assert "▶ 1. Ann (du)" in lobby.page().plain
            await pilot.press("right")  # our own seat stays ours
            assert lobby.message == "Hier sitzt Ann: nur ein freier Platz kann ein Bot werden."
            assert host.room["seats"][0]["kind"] == "human"
            await pilot.press("down", "down", "right")  # seat 3: the first bot
            first = bot_names("skyjo")[0]
            await wait_for(pilot, lambda: host.room["seats"][2]["kind"] == "bot", "a bot")
            assert host.room["seats"][2]["bot"] == first
            assert f"▶ 3. Bot {first}" in lobby.page().plain
            await pilot.press("left")  # and back to a player's seat
            await wait_for(pilot, lambda: host.room["seats"][2]["kind"] == "human", "human")
            await pilot.press("left")  # backwards from a player's seat: the last bot
            await wait_for(pilot, lambda: host.room["seats"][2]["kind"] == "bot", "a bot")
            assert host.room["seats"][2]["bot"] == bot_names("skyjo")[-1]
            assert [seat["kind"] for seat in host.room["seats"][:2]] == ["human", "human"]
            await pilot.press("up", "right", "right")  # seat 2, twice before any answer
            second = bot_names("skyjo")[1]
            await wait_for(pilot, lambda: host.room["seats"][1].get("bot") == second, "bot 2")
            await wait_for(pilot, lambda: lobby.pending_seats is None, "the answers")
            assert host.room["seats"][1]["bot"] == second
            await pilot.press("down")
            await pilot.press("5")  # numbers are for the rules
            assert "tab" in lobby.message.lower()
            await pilot.press("tab", "right")  # back on the rules: one player more
            assert lobby.section == "options" and lobby.specs[lobby.cursor].name == "players"
            await wait_for(pilot, lambda: len(host.room["seats"]) == 4, "4 seats")
            assert host.room["seats"][2]["kind"] == "bot"
        await host.close()

    asyncio.run(go())


def test_lobby_requests_wait_for_the_connection_and_go_one_at_a_time(
    server: str, tmp_path: Path
) -> None:
    """The lobby shows before the WebSocket is open: a host's change made then waits
    for it instead of being refused, and two changes at once are both answered."""

    async def go() -> None:
        host = await _host(server, tmp_path / "s.json", "skyjo", "--players", "2")
        assert not host.connected.is_set()
        early = asyncio.create_task(host.configure({"end_score": 40}))
        await asyncio.sleep(0.3)
        assert not early.done()  # waiting for the connection, not refused
        following = Guest(host)  # runs the connection
        await asyncio.wait_for(early, 20)
        assert host.room["rules"]["end_score"] == 40
        both = asyncio.gather(
            host.configure({"end_score": 60}), host.configure(seats=[{"kind": "human"}] * 2)
        )
        await asyncio.wait_for(both, 20)
        assert host.room["rules"]["end_score"] == 60
        await following.close()

    asyncio.run(go())


def test_the_command_refuses_a_bad_option_before_creating_a_room(
    server: str, capsys: pytest.CaptureFixture[str]
) -> None:
    before = _rooms(server)
    assert main(["play", "skyjo", "--host", server, "--end-score", "0", "--name", "Ann"]) == 2
    err = capsys.readouterr().err
    assert "option 'end_score': an integer from 1 to 1000 (got 0)" in err
    assert _rooms(server) == before
    assert main(["play", "skyjo", "--host", "127.0.0.1:1", "--name", "Ann"]) == 1
    assert "cannot reach" in capsys.readouterr().err


def test_a_guest_waits_in_the_lobby_and_sees_the_hosts_changes(server: str, tmp_path: Path) -> None:
    """``--join`` before the game: the guest's app shows the lobby, follows the options
    the host (another client) changes there, and goes to the table at the start."""
    seats = [{"kind": "human"}, {"kind": "human"}]
    created = _post(
        f"{server}/api/rooms",
        {"game": "skyjo", "options": {"players": 2}, "seats": seats, "name": "Ann"},
    )
    code, host_token = created["code"], created["host_token"]

    async def go() -> None:
        guest = await RemoteGame.join(f"{server}/r/{code}", name="Ben", store=tmp_path / "s.json")
        app = make_app(guest, "de")
        async with app.run_test(size=(100, 40)) as pilot:
            await wait_for(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            lobby = _lobby(app)
            await wait_for(pilot, lambda: "2. Ben (du)" in lobby.page().plain, "our seat")
            page = lobby.page().plain
            assert "Warte, bis der Gastgeber das Spiel startet." in page
            assert "1. Ann (nicht verbunden)" in page, page
            configure = {"type": "configure", "host_token": host_token}
            answer = await _ask(server, code, {**configure, "options": {"end_score": 50}}, "room")
            assert answer["type"] == "event", answer
            await wait_for(
                pilot, lambda: "50" in _lines_after(lobby.page().plain, "Spielende")[0], "50"
            )
            await pilot.press("right")  # only the host changes the rules
            assert lobby.message == "Nur der Gastgeber ändert die Regeln."
            await _host_starts(server, code, host_token)
            await wait_for(pilot, lambda: app.lobby_screen() is None, "the table")
            assert guest.view()["rules"]["end_score"] == 50 and guest.view()["seat"] == 1
        await guest.close()

    asyncio.run(go())
