"""Driving the page like a player: create tables, click legal cards, read the state."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

from cardtable.i18n import catalog

# How long a page may take to show what a step waits for (ms). Generous: with two test
# workers, the server's bot threads and Chromium sharing two cores, a 15 s wait has
# timed out in CI and passed when run again; a page that is wrong fails either way.
TIMEOUT = 40_000
SHOTS = Path(__file__).parents[2] / "artifacts" / "screenshots"


#: The pages ask for reduced motion, so moves land at once: the tests play games, and
#: the cards' flights (about a third of a whole-game test's time, and CPU the other
#: workers' tests wait for) are tested where they are the subject, by test_motion and
#: test_patching's drag during a flight, which ask for ``motion="no-preference"``.
MOTION = "reduce"

#: What the tests reach in a page, added to each page they open (the shipped page has no
#: hooks for tests): ``pageModule(name)``, a module of the page as the page loaded it (at
#: its versioned address, so the very module, with its state), and ``shownPage()``, the
#: page the router shows (router.js): a room's ``room.conn``, a lesson's ``answer``.
PAGE_HOOKS = """
window.pageModule = (name) =>
  import(new URL(name, document.querySelector('script[src$="/js/app.js"]').src));
window.shownPage = async () => (await window.pageModule("router.js")).shownPage();
"""

#: In an async function evaluated in a page: the open room's connection (conn.js).
CONN = "(await shownPage()).room.conn"

#: The catalog keys the page looked up and did not find (evaluate it).
MISSING = "async () => (await pageModule('i18n.js')).missingKeys()"

#: Counts the messages the open room receives, by type, once handled (the room draws as
#: it handles one): ``window.handled`` (evaluate it, then wait on the count).
COUNT_HANDLED = """async () => {
  const handlers = (await shownPage()).room.conn.handlers;
  const deliver = handlers.message;
  window.handled = {};
  handlers.message = (m) => {
    deliver(m);
    window.handled[m.type] = (window.handled[m.type] || 0) + 1;
  };
}"""


def new_page(
    browser: Any,
    base: str,
    lang: str = "en",
    width: int = 1280,
    csp: bool = False,
    motion: str = MOTION,
) -> Any:
    """A page in a new context. Playwright's string waits evaluate text, which the page's
    Content-Security-Policy refuses: the CSP is bypassed unless ``csp`` (then wait with
    selectors only; test_delivery checks the page under its CSP). ``motion``: the
    ``prefers-reduced-motion`` the page sees (see :data:`MOTION`)."""
    context = browser.new_context(
        viewport={"width": width, "height": 900},
        locale=lang,
        bypass_csp=not csp,
        reduced_motion=motion,
    )
    context.add_init_script(f"localStorage.setItem('cardtable.lang', '{lang}')")
    context.add_init_script(PAGE_HOOKS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    page.goto(base + "/")
    page.wait_for_selector("body[data-ready='1']", timeout=TIMEOUT)
    page.wait_for_selector("#create", timeout=TIMEOUT)
    return page


# The two screens whole games are played on (issue 19): a 375x812 phone with touch, and
# a 1280x800 laptop with a mouse.
DEVICES = ["phone", "desktop"]
SCREENS = {"phone": (375, 812), "desktop": (1280, 800)}


def device_page(
    browser: Any, base: str, device: str, lang: str = "en", motion: str = MOTION
) -> Any:
    """A page on ``device`` ("phone": touch and a mobile viewport; "desktop": a mouse),
    under no CSP and with ``motion`` (see new_page); ``page.device`` names it."""
    width, height = SCREENS[device]
    phone = device == "phone"
    context = browser.new_context(
        viewport={"width": width, "height": height},
        has_touch=phone,
        is_mobile=phone,
        locale=lang,
        bypass_csp=True,
        reduced_motion=motion,
    )
    context.add_init_script(f"localStorage.setItem('cardtable.lang', '{lang}')")
    context.add_init_script(PAGE_HOOKS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    page.device = device
    page.goto(base + "/")
    page.wait_for_selector("body[data-ready='1']", timeout=TIMEOUT)
    page.wait_for_selector("#create", timeout=TIMEOUT)
    return page


# A short 2-player game of each game against the greedy bot, for whole-game tests. The
# page's player starts Skip-Bo (Skyjo's set-up always begins at seat 0): with stocks of 5
# a starting bot wins on its first turn about once in 200 games, before any move of ours.
SHORT_GAMES: dict[str, dict[str, Any]] = {
    "skyjo": {"players": 2, "end_score": 20},
    "skipbo": {"players": 2, "stock_size": 5, "first_player": 0},
}


def short_game(browser: Any, base: str, device: str, game: str) -> Any:
    """A page on ``device`` at a started short game of ``game`` (see SHORT_GAMES), once
    the player may move."""
    page = device_page(browser, base, device)
    create_table(page, game, "Alice", SHORT_GAMES[game], ["greedy"])
    start(page)
    page.wait_for_selector(".src-legal, .tgt-legal", timeout=TIMEOUT)
    return page


def rematch(page: Any) -> None:
    """From the final scores, the host's rematch: the same seats, started again (a short
    game may end, a bot winning, before a test has seen enough moves)."""
    page.click("#rematch")
    page.wait_for_function("document.body.dataset.page === 'lobby'", timeout=TIMEOUT)
    start(page)
    page.wait_for_selector(".src-legal, .tgt-legal", timeout=TIMEOUT)


def shots_dir() -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    return SHOTS


def create_table(page: Any, game: str, name: str, options: dict[str, Any], seats: list[str]) -> str:
    """Fill the home form; ``seats`` lists seats 2.. as 'human' or a bot name."""
    page.check(f"input[name=game][value={game}]")
    page.fill("#your-name", name)
    for option, value in options.items():
        selector = f"#opt-{option}"
        if isinstance(value, bool):
            page.set_checked(selector, value)
        else:
            page.fill(selector, str(value))
            page.dispatch_event(selector, "change")
    for index, kind in enumerate(seats, start=1):
        page.select_option(f"#seat-{index}", kind)
    page.click("#create")
    page.wait_for_selector("#room-code", timeout=TIMEOUT)
    code: str = page.inner_text("#room-code")
    return code


def start(page: Any) -> None:
    page.wait_for_selector("#start:not([disabled])", timeout=TIMEOUT)
    page.click("#start")
    page.wait_for_selector(".board", timeout=TIMEOUT)


def version(page: Any) -> str:
    """The version of the room the page shows ("" before its first message, or elsewhere)."""
    value: str = page.evaluate("async () => String((await shownPage())?.room?.conn?.version ?? '')")
    return value


def until(page: Any, script: str, arg: Any = None, timeout: float = TIMEOUT) -> None:
    """Wait until ``script``, a function evaluated in the page (async allowed, unlike
    in ``wait_for_function``), returns something true."""
    deadline = time.monotonic() + timeout / 1000
    while not page.evaluate(script, arg):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {script} ({arg})")
        page.wait_for_timeout(30)


#: The lesson's last answer drawn is for step ``step`` after ``made`` moves (evaluate it
#: with [step, made]; made null: any).
LESSON_AT = """async ([step, made]) => {
  const answer = (await shownPage())?.answer;
  return Boolean(answer && answer.step === step && (made === null || answer.made === made)
    && document.querySelector('.lessonpage .board'));
}"""

#: The lesson's step is done (evaluate it).
LESSON_DONE = "async () => Boolean((await shownPage())?.answer?.done)"


def over(page: Any) -> bool:
    return bool(page.locator(".match-summary").count())


def dismiss_round_summary(page: Any) -> bool:
    button = page.locator("#summary .continue")
    if button.count():
        button.first.click()
        return True
    return False


def ids(page: Any, selector: str) -> list[str]:
    found: list[str] = page.eval_on_selector_all(
        selector, "els => [...new Set(els.map(e => e.dataset.id))]"
    )
    return found


def click_id(page: Any, ident: str) -> None:
    page.locator(f'[data-id="{ident}"]').first.click()


def wait_change(page: Any, before: str, timeout: float = TIMEOUT / 1000) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if version(page) != before or over(page):
            return
        page.wait_for_timeout(30)
    page.screenshot(path=SHOTS / f"stuck-at-version-{before}.png", full_page=True)
    raise AssertionError(f"the table did not move on from version {before}")


def settle(page: Any) -> None:
    """Wait for card flights to land: a landing card is hidden and takes no pointer."""
    page.wait_for_function("!document.querySelector('.ghost, .landing')", timeout=TIMEOUT)


def skyjo_step(page: Any, drag: bool = False) -> bool:
    """One move if it is this page's turn; False when there is nothing to play."""
    settle(page)
    targets = ids(page, ".tgt-legal")
    sources = ids(page, ".src-legal")
    before = version(page)
    if drag and "held" in sources and targets:
        source = page.locator('[data-id="held"]').first.bounding_box()
        target = page.locator(f'[data-id="{targets[0]}"]').first.bounding_box()
        page.mouse.move(source["x"] + 10, source["y"] + 10)
        page.mouse.down()
        page.mouse.move(source["x"] + 30, source["y"] + 40, steps=4)
        page.mouse.move(target["x"] + 10, target["y"] + 10, steps=6)
        page.mouse.up()
    elif targets:
        down = ids(page, ".tgt-legal.down")  # turning cards up brings the round's end
        click_id(page, down[0] if down else targets[0])
    elif sources:
        click_id(page, "draw" if "draw" in sources else sources[0])
    else:
        return False
    wait_change(page, before)
    return True


def skipbo_step(page: Any) -> bool:
    """Play onto a building pile if any source allows it, else discard a hand card."""
    sources = ids(page, ".src-legal")
    if not sources:
        return False
    before = version(page)
    order = sorted(
        (s for s in sources if s != "endturn"),
        key=lambda s: (not s.startswith("stock"), not s.startswith("disc"), s),
    )
    for source in order:
        click_id(page, source)
        builds = ids(page, '.tgt-legal[data-id^="build:"]')
        if builds:
            click_id(page, builds[0])
            wait_change(page, before)
            return True
    hand = [s for s in order if s.startswith("hand:")]
    if hand:
        if not page.locator(f'[data-id="{hand[-1]}"].selected').count():
            click_id(page, hand[-1])
        targets = ids(page, '.tgt-legal[data-id^="disc:"]')
        click_id(page, targets[0])
    else:
        click_id(page, "endturn")
    wait_change(page, before)
    return True


def play_until_over(pages: list[Any], step: Any, limit: int = 600, every: Any = None) -> int:
    """Let each page play when it may, until every page shows the final scores."""
    moves = 0
    while not all(over(page) for page in pages):
        acted = False
        for page in pages:
            if over(page):
                continue
            if dismiss_round_summary(page):
                acted = True
                continue
            if step(page):
                moves += 1
                acted = True
                if every is not None:
                    every(page, moves)
        if not acted:
            pages[0].wait_for_timeout(40)
        assert moves < limit, "the game did not end"
    return moves


def no_horizontal_scroll(page: Any) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    inner = page.evaluate("window.innerWidth")
    assert width <= inner, f"page is {width}px wide in a {inner}px window"


def reason_pattern(lang: str, sentence: str, parts: list[dict[str, Any]]) -> re.Pattern[str]:
    """The reason of ``parts`` worded from ``lang``'s catalog inside ``sentence`` (the key
    with {reason}), any value standing for the placeholders (seats become names)."""
    texts = catalog(lang)
    words = [re.sub(r"\\\{\w+\\\}", ".+?", re.escape(texts[part["key"]])) for part in parts]
    reason = re.escape(texts["advice.separator"]).join(words)
    before, after = sentence.split("{reason}")
    return re.compile(re.escape(before) + reason + re.escape(after) + "$")


def toast_shows(page: Any, text: str) -> str:
    """Wait until the toast shows ``text``; returns what it shows."""
    page.wait_for_function(
        "text => !document.querySelector('#toast').hidden"
        " && document.querySelector('#toast').textContent === text",
        arg=text,
        timeout=TIMEOUT,
    )
    shown: str = page.inner_text("#toast")
    return shown
