"""Names nobody can lean on (issue 47): no invisible character in an account's name or
a guest's (finding 10). Every way a name reaches the server is tried: registering,
creating a room with a name, joining one, "Play now". A refused name changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from .helpers import create_room
from .test_accounts import SECRET, browser, whoami

#: Names that show as another, or as nothing at all.
INVISIBLE = ["Ace\u3164", "\u3164", "\u115f\u1160", "A\uffa0ce", "Ace\u200b", "\u2060"]


def refused(answer: Any, error: str = "bad_name") -> dict[str, Any]:
    assert answer.status_code == 400, answer.text
    body: dict[str, Any] = answer.json()
    assert body["error"] == error
    return body


def try_every_way(http: Any, name: str) -> list[Any]:
    """The answers to ``name`` as an account's, a creator's, a guest's, a quick match's."""
    code = create_room(http, "skyjo", {"players": 2})["code"]
    answers = [
        http.post("/api/account/register", json={"name": name, "password": SECRET}),
        http.post("/api/rooms", json={"game": "skyjo", "options": {}, "name": name}),
        http.post(f"/api/rooms/{code}/join", json={"name": name}),
        http.post("/api/quickmatch", json={"game": "skyjo", "name": name}),
    ]
    room = http.get(f"/api/rooms/{code}").json()
    assert not any(seat["taken"] for seat in room["seats"]), "a refused name took a seat"
    assert whoami(http) == {"signed_in": False}
    lobby = http.get("/api/lobby").json()
    assert lobby["open"] == lobby["playing"] == []
    return answers


@pytest.mark.parametrize("name", INVISIBLE)
def test_invisible_characters_are_refused_for_accounts_and_guests(tmp_path, name):
    with browser(tmp_path) as http:
        for answer in try_every_way(http, name):
            body = refused(answer)
            assert "invisible" in body["reason"]
            assert "reason_key" not in body  # the name rule the page shows says it


# --- finding 11: the table's own labels are nobody's name ------------------------------
#: The labels as the clients show them, and their look-alikes (U+A78F and U+1427 look
#: like the middle dot; a zero like an O; punctuation and spacing changed).
IMPERSONATIONS = [
    "Former player",
    "FORMER PLAYER",
    "Forrner player",
    "Former_player",
    "Ancien joueur",
    "Ehemaliger Spieler",
    "Ex giocatore",
    "Bot \ua78f hard",
    "B0t \ua78f medium",
    "Bot.hard",
    "Bot - Experte",
    "Robot \ua78f moyen",
    "bot greedy",
    "Robot hard",
]


@pytest.mark.parametrize("name", IMPERSONATIONS)
def test_bot_and_former_player_labels_and_look_alikes_are_refused(tmp_path, name):
    with browser(tmp_path) as http:
        answers = try_every_way(http, name)
    for answer in answers:
        body = refused(answer)
        assert "may not look like" in body["reason"]
        # The page says which label, in its language (the name rule alone would not).
        assert body["reason_key"] == "web.name.reserved" and body["field"] == "name"
        assert body["reason_params"]["label"] in body["reason"]


def test_a_name_that_only_begins_like_a_label_is_taken(tmp_path):
    with browser(tmp_path) as http:
        code = create_room(http, "skyjo", {"players": 3})["code"]
        for name in ("Bot principiante", "Botanist", "Former"):
            assert http.post(f"/api/rooms/{code}/join", json={"name": name}).status_code == 200
            http.cookies.clear()
            assert (
                http.post(
                    "/api/account/register", json={"name": name, "password": SECRET}
                ).status_code
                == 201
            )


def test_guest_names_get_the_mixed_script_check(tmp_path):
    with browser(tmp_path) as http:
        answers = try_every_way(http, "Bot \u1427 hard")  # Canadian syllabics among Latin
        for answer in answers:
            body = refused(answer)
            assert "one script" in body["reason"]
            assert body["reason_key"] == "web.name.mixed_scripts"
            assert body["reason_params"] == {"scripts": "Canadian Aboriginal, Latin"}
        assert refused(answers[0])["scripts"] == ["CANADIAN_ABORIGINAL", "LATIN"]
        # A guest may still write in any one script, or mix them as people do.
        code = create_room(http, "skyjo", {"players": 3})["code"]
        for name in ("Анна", "山田たろう"):
            assert http.post(f"/api/rooms/{code}/join", json={"name": name}).status_code == 200


def test_every_label_the_clients_give_a_bot_is_reserved():
    from cardtable.i18n import LANGUAGES, catalog, read_catalog
    from cardtable.server.name_skeletons import reserved_label
    from cardtable.server.players.accounts import NEUTRAL_NAME

    assert reserved_label(NEUTRAL_NAME) == "Former player"
    for lang in LANGUAGES:
        for key, text in read_catalog(lang, f"web/{lang}.json").items():
            if key.startswith("web.bot."):
                assert reserved_label(text) is not None
                bot = key.removeprefix("web.bot.")
                shown = catalog(lang)["lobby.seat_bot"].format(bot=bot)
                assert reserved_label(shown) is not None
    assert reserved_label("Bob") is None and reserved_label("Botanist") is None


# --- finding 15: a name's key fits its column, on both databases ------------------------
LIGATURE = "\ufdfa"  # one letter, 18 in NFKC


def test_the_bound_is_the_column_s():
    from cardtable.display_names import MAX_KEY, name_key
    from cardtable.server.storage.tables import NAME_KEY_LENGTH, users

    assert MAX_KEY == NAME_KEY_LENGTH == users.c.name_key.type.length
    assert len(name_key(LIGATURE * 6)) > MAX_KEY >= len(name_key(LIGATURE * 5))


def test_a_name_whose_key_outgrows_the_column_is_a_bad_name(tmp_path, database):
    with browser(tmp_path, database) as http:
        for name in (LIGATURE * 6, LIGATURE * 5 + "1234567"):  # 108 and 97
            answer = http.post("/api/account/register", json={"name": name, "password": SECRET})
            body = refused(answer)
            assert body["field"] == "name" and "at most 96" in body["reason"]
            assert http.post(
                "/api/account/signin", json={"name": name, "password": SECRET}
            ).status_code in (400, 401)
            assert http.get(f"/api/players/{name}").status_code in (400, 404)
            code = create_room(http, "skyjo", {"players": 2})["code"]
            refused(http.post(f"/api/rooms/{code}/join", json={"name": name}))
            assert whoami(http) == {"signed_in": False}
        # Five of them (90 in NFKC) is a name, on either database.
        answer = http.post("/api/account/register", json={"name": LIGATURE * 5, "password": SECRET})
        assert answer.status_code == 201, answer.text
        assert http.get(f"/api/players/{LIGATURE * 5}").status_code == 200
