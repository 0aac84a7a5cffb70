"""Profiles and rated games in Chromium (issue 29): a player registers, signs out and
signs in on a second browser, and sees the same history on their profile; a rated
2-player Skyjo game against a bot (standard rules) ends with the verdict in the final
scores, and the player's rating changed on the leaderboard and on the profile (the
bot's holds: a new account is provisional, docs/players.md#ratings).

The games are played over the WebSocket with the seat token the page holds
(:mod:`.seatplay`): what is tested is what the pages show of them."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from cardtable.server.ladder import BOT_SEEDS
from cardtable.web.catalogs import web_catalog

from ..live_server import running_server
from .pages import TIMEOUT, create_table, device_page, new_page, no_horizontal_scroll, start
from .seatplay import play_seat_to_end, seat_token
from .test_accessibility import serious

PASSWORD = "correct horse battery"
ENGLISH = web_catalog("en")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    # A cheap password hash: what is tested is the pages, not Argon2's cost.
    with running_server(
        tmp_path_factory.mktemp("profile-data"), password_memory_kib=64, password_time_cost=1
    ) as url:
        yield url


def enter(page: Any, form: str, name: str) -> None:
    """Register or sign in (``form``) on the account page."""
    page.goto(page.url.split("#")[0] + "#/account")
    page.wait_for_selector(f"#{form}-form", timeout=TIMEOUT)
    page.fill(f"#{form}-name", name)
    page.fill(f"#{form}-password", PASSWORD)
    page.click(f"#{form}-button")
    page.wait_for_selector("#signed-in-as", timeout=TIMEOUT)


def open_profile(page: Any) -> None:
    """From the account page, "My profile"."""
    page.click("#profile-link")
    page.wait_for_selector("body[data-page='profile'] #profile-name", timeout=TIMEOUT)


def recent_rows(page: Any) -> list[str]:
    rows: list[str] = page.locator("#profile-recent tbody tr").all_inner_texts()
    return rows


def play_table(page: Any, base: str, options: dict[str, Any], bot: str) -> dict[str, Any]:
    """Create a Skyjo table against ``bot`` in the page, start it, and play its game to
    the end over the WebSocket; returns the verdict the table sent."""
    page.goto(base + "/#/")
    page.wait_for_selector("#create", timeout=TIMEOUT)
    code = create_table(page, "skyjo", page.player, options, [bot])
    start(page)
    return play_seat_to_end(base, code, seat_token(page, code))


def test_the_same_history_after_signing_in_on_another_browser(server, browser):
    first = new_page(browser, server)
    first.player = "Pia"
    # A guest's game (house rules, short): registering adds the seat to the account.
    told = play_table(first, server, {"players": 2, "end_score": 20}, "greedy")
    assert told["rated"] is False and told["reason"] == "non_standard_rules"
    first.wait_for_selector("#verdict.unrated", timeout=TIMEOUT)
    enter(first, "register", "Pia")
    open_profile(first)
    history = recent_rows(first)
    assert len(history) == 1 and "Pia" in history[0] and ENGLISH["web.bot.greedy"] in history[0]
    assert ENGLISH["web.profile.variant_custom"] in history[0]
    games = first.locator("#profile-games tbody tr").all_inner_texts()
    assert len(games) == 1 and re.match(r"Skyjo\s+house rules\s+1\s+[01]\s+-?\d", games[0])
    first.goto(server + "/#/account")
    first.click("#signout-button")
    first.wait_for_selector("body[data-account='guest']", timeout=TIMEOUT)

    second = device_page(browser, server, "phone")
    enter(second, "signin", "pia")
    open_profile(second)
    assert second.inner_text("#profile-name") == "Pia"
    assert recent_rows(second) == history
    no_horizontal_scroll(second)
    assert serious(second) == []
    # A name no account has: said so, in the page's words.
    second.goto(server + "/#/player/Nobody")
    second.wait_for_selector("body[data-page='profile'] .error", timeout=TIMEOUT)
    assert second.inner_text(".error") == ENGLISH["web.error.no_player"]
    assert first.errors == [] and second.errors == []
    first.context.close()
    second.context.close()


def test_a_rated_game_against_a_bot_moves_the_player_s_rating_on_the_leaderboard(server, browser):
    page = new_page(browser, server)
    page.player = "Rex"
    enter(page, "register", "Rex")
    page.goto(server + "/#/leaderboard/skyjo")
    page.wait_for_selector("#board tr[data-bot='hard']", timeout=TIMEOUT)
    seed = page.inner_text("#board tr[data-bot='hard']")
    assert "1,701 ± 59" in seed and ENGLISH["web.board.you_rating"][:4] not in page.inner_text(
        "#board-you"
    )

    # Standard rules, every seat an account or a bot of a level: a rated game.
    told = play_table(page, server, {"players": 2}, "hard")
    assert told["rated"] is True and told["ladder"] == "skyjo"
    ann, bot = told["seats"]
    page.wait_for_selector("#verdict.rated li[data-seat='1']", timeout=TIMEOUT)
    verdict = page.inner_text("#verdict")
    assert f"{ann['rating']:,} ± {ann['plus_minus']}" in verdict
    assert f"{bot['rating']:,} ± {bot['plus_minus']}" in verdict

    page.goto(server + "/#/leaderboard/skyjo")
    page.wait_for_selector("#board tr[data-bot='hard']", timeout=TIMEOUT)
    hard = page.inner_text("#board tr[data-bot='hard']")
    # Rex is provisional (a first rated game): the bot's rating holds.
    assert bot["rating"] == BOT_SEEDS["skyjo"]["hard"] and f"{bot['rating']:,} ± " in hard
    assert re.search(r"\t1\t[01]$", hard), hard  # one rated game
    mine = page.inner_text("#board-you")
    assert f"Your rating: {ann['rating']:,} ± {ann['plus_minus']}." in mine
    # The profile, from the leaderboard: the rating, its plot, the game and its change.
    page.click("#board-profile")
    page.wait_for_selector("svg.ratingplot[data-points='2']", timeout=TIMEOUT)
    card = page.inner_text(".ladderrating[data-ladder='skyjo']")
    assert f"{ann['rating']:,} ± {ann['plus_minus']}" in card
    assert ENGLISH["web.profile.provisional"] in card  # one rated game: provisional, said why
    assert page.locator(".ladderrating[data-ladder='skyjo'] .provisional-why").count() == 1
    change = page.inner_text("#profile-recent tbody tr td.change")
    assert change.replace("\u2212", "-") == f"{ann['change']:+d}".replace("+0", "0")
    assert page.locator("#profile-recent a.replaylink").count() == 1  # Rex's own table
    assert serious(page) == []
    assert page.errors == []
    page.context.close()
