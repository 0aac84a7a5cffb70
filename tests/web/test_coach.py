"""The practice coach in the browser: on a phone, a deliberately bad move gets the
coach's line with a take-back, the move taken back may not be taken back again, and
the line is worded in the page's language; the blunders any player would name get the
coach's line (a drawn 12 over a face-up 0 in Skyjo, a discard while the stock card
plays in Skip-Bo); the home page's form offers the coach while every other seat is a
bot."""

from __future__ import annotations

from typing import Any

import pytest

from cardtable.server.rooms import coach, seating
from cardtable.web.catalogs import web_catalog

from ..coach_deals import (
    JUDGE_SEED,
    SKIPBO,
    discard_while_the_stock_plays_deal,
    practice_deal,
    twelve_over_a_zero_deal,
)
from ..live_server import running_server
from .pages import TIMEOUT, click_id, create_table, device_page, settle, start, version, wait_change


def _play(page: Any, ident: str) -> None:
    settle(page)
    before = version(page)
    click_id(page, ident)
    wait_change(page, before)


def test_a_bad_move_gets_the_coach_s_line_and_one_take_back(
    browser: Any, shots: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The deal and the coach's random choices are fixed (the server runs in this
    # process): the coach is silent when Alice takes the discard and speaks when she
    # puts it over the lower of her two face-up cards.
    seed, low = practice_deal()
    monkeypatch.setattr(seating, "new_seed", lambda: seed)
    monkeypatch.setattr(coach, "new_seed", lambda: JUDGE_SEED)
    with running_server(tmp_path / "data") as url:
        page = device_page(browser, url, "phone")
        create_table(page, "skyjo", "Alice", {"players": 2}, ["greedy"])
        before = version(page)
        page.check("#table-coach")
        wait_change(page, before)
        start(page)
        for pos in (0, 1):  # the set-up: Alice turns up her first two cards
            page.wait_for_selector(f'[data-id="cell:0:{pos}"].tgt-legal', timeout=TIMEOUT)
            _play(page, f"cell:0:{pos}")
        page.wait_for_selector('[data-id="discard"].src-legal', timeout=TIMEOUT)
        _play(page, "discard")
        bad = f"cell:0:{low}"
        page.wait_for_selector(f'[data-id="{bad}"].tgt-legal', timeout=TIMEOUT)
        _play(page, bad)

        page.wait_for_selector("#coach-take-back", timeout=TIMEOUT)
        line = page.inner_text("#coach-line")
        assert "Coach" in line and "point" in line and "Better:" in line and "Why:" in line, line
        assert "The bots wait" in page.inner_text("#turnbar")
        settle(page)
        page.screenshot(path=shots / "coach-phone.png", full_page=True)
        before = version(page)
        page.click("#coach-take-back")
        wait_change(page, before)
        page.wait_for_selector("#coach-line", state="detached", timeout=TIMEOUT)
        # Back to holding the card taken, the same decision to make again.
        page.wait_for_selector(f'[data-id="{bad}"].tgt-legal', timeout=TIMEOUT)

        _play(page, bad)
        page.wait_for_selector("#coach-no-take-back", timeout=TIMEOUT)
        assert "already took back" in page.inner_text("#coach-line")
        assert page.locator("#coach-take-back").count() == 0
        # In the player's language: the page words the line again in French.
        page.select_option("#lang", "fr")
        page.wait_for_function(
            "document.querySelector('#coach-no-take-back')?.textContent.startsWith('Vous avez')",
            timeout=TIMEOUT,
        )
        assert "Mieux" in page.inner_text("#coach-line")
        assert not page.errors


def _coached_table(page: Any, game: str, options: dict[str, Any]) -> None:
    create_table(page, game, "Alice", options, ["greedy"])
    before = version(page)
    page.check("#table-coach")
    wait_change(page, before)
    start(page)


def _coach_line(page: Any) -> str:
    page.wait_for_selector("#coach-line", timeout=TIMEOUT)
    line: str = page.inner_text("#coach-line")
    return line


def test_a_drawn_12_over_a_face_up_0_gets_the_coach_s_line(
    browser: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed, zero, other = twelve_over_a_zero_deal()
    monkeypatch.setattr(seating, "new_seed", lambda: seed)
    monkeypatch.setattr(coach, "new_seed", lambda: JUDGE_SEED)
    with running_server(tmp_path / "data") as url:
        page = device_page(browser, url, "desktop")
        _coached_table(page, "skyjo", {"players": 2})
        for pos in (zero, other):  # the set-up: the 0 and a card of another column
            page.wait_for_selector(f'[data-id="cell:0:{pos}"].tgt-legal', timeout=TIMEOUT)
            _play(page, f"cell:0:{pos}")
        page.wait_for_selector('[data-id="draw"].src-legal', timeout=TIMEOUT)
        _play(page, "draw")  # the coach is silent on the draw (the deal is chosen so)
        page.wait_for_selector(f'[data-id="cell:0:{zero}"].tgt-legal', timeout=TIMEOUT)
        _play(page, f"cell:0:{zero}")

        line = _coach_line(page)
        assert "Coach" in line and "point" in line, line
        assert "Better: discard the drawn card" in line, line
        assert not page.errors


def test_a_discard_while_the_stock_card_plays_gets_the_coach_s_line(
    browser: Any, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    seed, card = discard_while_the_stock_plays_deal()
    monkeypatch.setattr(seating, "new_seed", lambda: seed)
    monkeypatch.setattr(coach, "new_seed", lambda: JUDGE_SEED)
    with running_server(tmp_path / "data") as url:
        page = device_page(browser, url, "desktop")
        _coached_table(page, "skipbo", SKIPBO)
        page.wait_for_selector('[data-id="stock:0"].src-legal', timeout=TIMEOUT)
        settle(page)
        click_id(page, f"hand:{card}")
        page.wait_for_selector('[data-id="disc:0:0"].tgt-legal', timeout=TIMEOUT)
        _play(page, "disc:0:0")

        line = _coach_line(page)
        assert "Coach" in line and "chance to win" in line and "Better:" in line, line
        assert "stock" in line.split("Better:", 1)[1], line
        assert not page.errors


def test_the_home_form_offers_the_coach_while_every_other_seat_is_a_bot(
    browser: Any, server: str
) -> None:
    page = device_page(browser, server, "desktop", lang="de")
    page.check("input[name=game][value=skipbo]")
    page.fill("#your-name", "Ann")
    page.check("#create-coach")
    # A friend's seat: no coach (it is for one person against bots), and the page says why.
    page.select_option("#seat-1", "human")
    page.wait_for_selector("#create-coach[disabled]:not(:checked)", timeout=TIMEOUT)
    assert (
        page.inner_text("#create-coach-hint").strip()
        == web_catalog("de")["web.home.coach_bots_only"]
    )
    page.select_option("#seat-1", "naive")
    page.wait_for_selector("#create-coach:not([disabled]):checked", timeout=TIMEOUT)
    assert page.locator("#create-coach-hint").count() == 0
    page.click("#create")
    page.wait_for_selector("#table-coach:checked", timeout=TIMEOUT)
    room = page.evaluate(
        "async () => (await fetch('/api/rooms/' + location.hash.split('/')[2])).json()"
    )
    assert room["table"]["coach"] is True and room["status"] == "lobby"
    assert not page.errors
    page.context.close()
