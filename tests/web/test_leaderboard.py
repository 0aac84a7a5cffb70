"""The leaderboard page in Chromium (#/leaderboard/{ladder}): the players in rank order
with the bot levels in their places, ratings written the language's way ("1 743 ± 59"
in French), the counted texts by CLDR's plural rules, the ladders' tabs, and an axe
audit that finds nothing serious."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from cardtable.server.ladder import MIN_GAMES, SCALE, score
from cardtable.web.catalogs import browser_catalog

from ..live_server import running_server
from .pages import TIMEOUT, new_page
from .test_accessibility import serious

#: A player rated 1,900 ± 60 after 12 rated Skip-Bo games: above every bot level (ranked
#: by the low end, 1,840, against the expert's 1,815 - 59).
MU, SIGMA = 25 + 400 / SCALE, 30 / SCALE


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    data = tmp_path_factory.mktemp("leaderboard-data")
    with running_server(data) as url:
        with sqlite3.connect(Path(data) / "cardtable.db") as db:
            db.execute(
                "INSERT INTO users (id, name, name_key, password_hash, created_at)"
                " VALUES (1, 'Zoé', 'zoé', 'x', 0)"
            )
            db.execute(
                "INSERT INTO ratings (ladder, player, user_id, mu, sigma, score, games, wins,"
                " updated_at) VALUES ('skipbo', 'user:1', 1, ?, ?, ?, 12, 9, 0)",
                (MU, SIGMA, score(MU, SIGMA)),
            )
        yield url


def board_rows(page) -> list[str]:
    page.wait_for_selector("#board tbody tr", timeout=TIMEOUT)
    return [text.replace("\t", " | ") for text in page.locator("#board tbody tr").all_inner_texts()]


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_players_and_bots_on_one_ladder(server, browser, lang):
    page = new_page(browser, server, lang=lang)
    words = browser_catalog(lang)
    page.click("#leaderboard-link")
    page.wait_for_selector("body[data-page='leaderboard'][data-ladder='skyjo']", timeout=TIMEOUT)
    page.click(f"nav.ladders a:text-is('{words['web.board.ladder_skipbo']}')")
    page.wait_for_selector("body[data-ladder='skipbo'] #board", timeout=TIMEOUT)
    rows = board_rows(page)
    assert len(rows) == 5  # Zoé, then the four levels
    assert rows[0].startswith("1 | Zoé | ") and rows[0].endswith(" | 12 | 9")
    assert re.search(r"1[\u202f\u00a0.]900 ± 60", rows[0]), rows[0]
    hard = page.inner_text("#board tr[data-bot='hard']")
    assert words["web.bot.hard"] in hard and re.search(r"1[\u202f\u00a0.]743 ± 59", hard), hard
    levels = page.locator("#board tr.bot").evaluate_all("rows => rows.map(r => r.dataset.bot)")
    assert levels == ["expert", "hard", "medium", "easy"]
    rules = page.inner_text("#board-rules")
    assert rules.startswith(words["web.board.min_games.other"].replace("{count}", str(MIN_GAMES)))
    assert page.inner_text("#board-you") == words["web.board.guest"]
    assert serious(page) == []
    page.click(f"nav.ladders a:text-is('{words['web.board.ladder_skipbo_teams']}')")
    page.wait_for_selector("body[data-ladder='skipbo-teams'] #board", timeout=TIMEOUT)
    assert len(board_rows(page)) == 4  # only the bots yet
    assert page.errors == []


def test_an_unknown_ladder_shows_the_first(server, browser):
    page = new_page(browser, server)
    page.goto(server + "/#/leaderboard/chess")
    page.wait_for_selector("body[data-ladder='skyjo'] #board", timeout=TIMEOUT)
    assert page.inner_text("h1") == browser_catalog("en")["web.board.title"]
