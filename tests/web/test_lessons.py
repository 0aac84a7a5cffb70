"""The guided lessons in Chromium (issue 31): a whole Skip-Bo lesson and a whole Skyjo
lesson, each on a 375x812 touch phone (tapped) and at 1280x800 (clicked), every step's
taught move made on the real board, a wrong move answered with the step's explanation, the
last step starting a real game against an easy bot, with the coach; and a lesson resumed
after a reload."""

from __future__ import annotations

from typing import Any

import pytest

from cardtable.games import get_game
from cardtable.lessons import accepted_actions, lesson_of, run_step
from cardtable.web.catalogs import lesson_catalog, web_catalog

from .pages import DEVICES, LESSON_AT, LESSON_DONE, TIMEOUT, device_page, settle, until

#: Where a move starts and ends on the board, by the page's own mapping (skipbo.js, skyjo.js).
WHERE = """async (move) => {
  const lesson = (await shownPage()).answer;
  const game = await pageModule(lesson.game + ".js");
  return game.actionFor(move, lesson.seat, lesson.view);
}"""


def press(page: Any, selector: str) -> None:
    """A tap on the phone (touch events), a click at the desk (the mouse)."""
    settle(page)
    target = page.locator(selector).first
    if page.device == "phone":
        target.tap()
    else:
        target.click()


def wait_made(page: Any, step: int, made: int) -> None:
    until(page, LESSON_AT, [step, made])


def make(page: Any, game: str, code: int) -> None:
    """Make the move ``code`` on the board, as a player would: its source, then its target."""
    where = page.evaluate(WHERE, get_game(game).decode(code).to_json())
    if where["source"] is not None:
        press(page, f'[data-id="{where["source"]}"]')
    if where["target"] is not None:
        press(page, f'[data-id="{where["target"]}"]')


def open_lesson(page: Any, game: str) -> None:
    """From the home page: on the phone the Skip-Bo lesson from its lessons box and the
    Skyjo lesson through the top bar's menu ("Learn" does not fit in the bar there); at
    the desk the top bar's "Learn"; then the list of lessons."""
    if page.device == "phone" and game == "skipbo":
        press(page, f'.learnbox a[href="#/learn/{game}"]')
    else:
        if page.device == "phone":
            assert not page.locator("#learn-link").is_visible()
            press(page, "#nav-menu")
            page.wait_for_selector("#nav-menu[aria-expanded='true']", timeout=TIMEOUT)
        press(page, "#learn-link")
        page.wait_for_selector(f"#learn-{game}", timeout=TIMEOUT)
        if page.device == "phone":  # the page opened, the menu closed
            assert page.get_attribute("#nav-menu", "aria-expanded") == "false"
        press(page, f"#learn-{game}")
    wait_made(page, 0, 0)


def play_lesson(page: Any, game: str, wrong_at: str) -> None:
    """Every step of ``game``'s lesson, its taught moves made on the board; at step
    ``wrong_at`` a wrong move first, answered with the step's explanation."""
    lesson = lesson_of(game)
    words = lesson_catalog("en")
    for number, step in enumerate(lesson.steps):
        wait_made(page, number, 0)
        assert page.inner_text("#lesson-title") == words[f"lesson.{game}.{step.name}.title"]
        assert page.inner_text("#lesson-quote") == words[f"lesson.{game}.{step.name}.quote"]
        made: list[int] = []
        expects = [expect for expect in step.script if not expect.auto]
        for expect in expects:
            state = run_step(lesson, number, made).state
            taught = accepted_actions(state, expect)
            if step.name == wrong_at and not made:
                wrong = next(c for c in state.legal_actions() if c not in taught)
                make(page, game, wrong)
                page.wait_for_selector("#lesson-feedback.wrong", timeout=TIMEOUT)
                explanation = words[f"lesson.{game}.{step.name}.wrong"]
                assert explanation in page.inner_text("#lesson-feedback")
                wait_made(page, number, 0)
                press(page, "body")  # a wrong move selected nothing that stays
            make(page, game, taught[0])
            made.append(taught[0])
            wait_made(page, number, len(made))
        until(page, LESSON_DONE)
        page.wait_for_selector("#lesson-feedback.done", timeout=TIMEOUT)
        assert words[f"lesson.{game}.{step.name}.done"] in page.inner_text("#lesson-feedback")
        if number < len(lesson.steps) - 1:
            press(page, "#lesson-next")
    assert page.locator("#lesson-finished").is_visible()


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize(("game", "wrong_at"), [("skipbo", "wild"), ("skyjo", "take")])
def test_a_whole_lesson_then_a_real_game(browser, server, device, game, wrong_at):
    page = device_page(browser, server, device)
    open_lesson(page, game)
    play_lesson(page, game, wrong_at)
    assert lesson_catalog("en")["lesson.ui.coached"] in page.inner_text("#lesson-finished")
    press(page, "#lesson-play")
    # A real game, already started: the learner lands at the table, facing the easy bot,
    # with the practice coach on.
    page.wait_for_selector("body[data-page='table'] .board", timeout=TIMEOUT)
    assert page.locator("#start").count() == 0
    assert web_catalog("en")["web.bot.naive"] in page.inner_text(".roomhost")
    room = page.evaluate(
        "async () => (await fetch('/api/rooms/' + location.hash.split('/')[2])).json()"
    )
    assert room["status"] == "playing" and room["table"]["coach"] is True
    assert [seat.get("bot") for seat in room["seats"]] == [None, "naive"]
    assert page.errors == []
    page.context.close()


def test_a_lesson_resumes_after_a_reload_in_the_learner_s_language(browser, server):
    page = device_page(browser, server, "phone", lang="de")
    open_lesson(page, "skyjo")
    # The set-up: any two cards, then the next step's first move (take the discard).
    for _ in range(2):
        press(page, '.tgt-legal[data-id^="cell:0:"]')
        page.wait_for_timeout(50)
    until(page, LESSON_DONE)
    press(page, "#lesson-next")
    wait_made(page, 1, 0)
    press(page, '[data-id="discard"]')
    wait_made(page, 1, 1)
    page.reload()
    page.wait_for_selector("body[data-ready='1']", timeout=TIMEOUT)
    wait_made(page, 1, 1)
    words = lesson_catalog("de")
    assert page.inner_text("#lesson-title") == words["lesson.skyjo.take.title"]
    assert page.inner_text("#lesson-quote") == words["lesson.skyjo.take.quote"]
    assert page.locator('[data-id="held"]').count() == 1  # the -2 taken is still held
    # A kept place the lesson cannot replay (its steps changed since) starts that step again.
    page.evaluate(
        "localStorage.setItem('cardtable.lesson.skipbo',"
        " JSON.stringify({step: 2, moves: [150, 150], finished: false}))"
    )
    page.goto(server + "/#/learn/skipbo")
    wait_made(page, 2, 0)
    assert page.inner_text("#lesson-title") == words["lesson.skipbo.wild.title"]
    assert page.errors == []
    page.context.close()
