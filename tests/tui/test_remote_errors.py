"""The terminal client words a server's error by its code in the player's language (the
server's English reason only for a code it does not know), and its own refusals too."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from cardtable.i18n import translate
from cardtable.tui.remote import RemoteGame
from cardtable.tui.source import MoveRefusedError
from cardtable.tui.words import Words

from .test_remote import _settle, seated_app, server  # noqa: F401


def test_a_stale_version_from_the_server_is_told_in_french(server: str, tmp_path: Path) -> None:  # noqa: F811
    async def go() -> None:
        async with seated_app(server, tmp_path, "fr") as (source, app, pilot):
            assert source.view()["phase"] == "setup" and source.version is not None
            # Our turn (the bots wait for us): a move sent for an older version is refused
            # with stale_version, and the server's English reason is not shown.
            real = source.version
            source.version -= 1
            await pilot.press("enter")  # turn up the card under the cursor
            for _ in range(200):
                if app.message:
                    break
                await pilot.pause(0.02)
            assert app.message == "Refusé : la table a changé : la revoici", app.message
            # The sync that follows the error puts us back at the table's version (the
            # error is told first, so wait for it): the move goes.
            for _ in range(500):
                if source.version >= real:
                    break
                await pilot.pause(0.02)
            assert source.version >= real
            await _settle(pilot, app)
            version = source.version
            await pilot.press("enter")
            for _ in range(200):
                if source.version != version:
                    break
                await pilot.pause(0.02)
            assert source.version != version and app.message == "", app.message

    asyncio.run(go())


def test_the_client_s_own_refusals_have_codes_worded_in_italian() -> None:
    room = {"game": "skyjo", "seats": [], "rules": {}}
    source = RemoteGame("http://127.0.0.1:1", "ABCDEF", room, 0, "token")

    async def go() -> MoveRefusedError:
        with pytest.raises(MoveRefusedError) as caught:
            await source._request("move", {})
        return caught.value

    refused = asyncio.run(go())
    assert refused.code == "not_connected" and refused.reason.startswith("not connected")
    words = Words("it", "skyjo", ["Tu"])
    assert words.error(refused.code, refused.reason) == (
        "non connesso al tavolo; nuovo tentativo in corso"
    )


@pytest.mark.parametrize("lang", ["en", "fr", "de", "it"])
def test_a_code_is_worded_and_an_unknown_one_falls_back_to_english(lang: str) -> None:
    words = Words(lang, "skyjo", ["A", "B"])
    assert words.error("not_your_turn", "it is seat 1's turn") == translate(
        lang, "error.not_your_turn"
    )
    assert words.error("brand_new", "a reason in English") == "a reason in English"
    assert words.error(None, "the table did not answer") == "the table did not answer"
    allowed = words.allowed("allowed.int", {"low": 2, "high": 8}, "an integer from 2 to 8")
    assert allowed == translate(lang, "allowed.int", low=2, high=8)
    assert "8" in allowed and (lang == "en" or "integer" not in allowed)
    assert words.allowed(None, {}, "true or false") == "true or false"
