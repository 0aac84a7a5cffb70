"""The Skip-Bo table at every size (issue 36): mid-game, with discard piles of several
cards, every card and empty pile place lies inside its player's place, on the screen and
over no other pile, and the cards are as large as the targets ask; a discard pile of 12
cards fits its place at every size. The Skyjo table is measured the same way.

One room per setup, played by greedy bots and by the page's player (who discards at
once), stops on the player's turn, where nothing moves; the seated and the spectator
pages are then resized through the desktop sizes, and a phone (touch) opens the same
room; the twelve-card position is then drawn in the same pages. Each setup fails with
every case's violations, named. Screenshots of the cases that fail, and of a sample of
views, are kept in artifacts/screenshots (not committed)."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest

from cardtable.skipbo import SkipBoRules, SkipBoState

from .boardfit import measure
from .pages import PAGE_HOOKS, TIMEOUT, settle, skyjo_step, version, wait_change

PHONE = (375, 812)
DESKTOP = [(1280, 800), (1920, 1080), (2560, 1440)]
# The smallest card's width (px) at a size, by player count (issue 36's targets); the
# largest screen is held to the 1920x1080 ones.
TARGETS = {
    (1280, 800): {2: 60, 3: 60, 4: 60, 5: 50, 6: 50},
    (1920, 1080): {2: 76, 3: 76, 4: 76, 5: 64, 6: 64},
    (2560, 1440): {2: 76, 3: 76, 4: 76, 5: 64, 6: 64},
}
SETUPS = [(2, False), (3, False), (4, False), (5, False), (6, False), (4, True)]
# The views kept as screenshots whatever happens (artifacts/screenshots/fit-*.png).
SAMPLE = ("seated-1280x800", "watch-1920x1080", "seated-phone", "replay-1280x800")
# Before measuring: at least this many moves of the bots, and turns of the page's player.
BOT_MOVES = 24
OWN_TURNS = 4


def setup_id(setup: tuple[int, bool]) -> str:
    players, teams = setup
    return f"{players}{'-teams' if teams else ''}"


def post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        answer: dict[str, Any] = json.loads(response.read())
        return answer


def new_room(
    server: str, game: str, options: dict[str, Any], bot: str = "greedy"
) -> dict[str, Any]:
    """A room of ``game`` where Alice (seat 0, this test) plays against bots."""
    players = options["players"]
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": bot}] * (players - 1)
    created = post(
        f"{server}/api/rooms", {"game": game, "options": options, "seats": seats, "name": "Alice"}
    )
    created["name"] = "Alice"
    return created


def _context(browser: Any, size: tuple[int, int], phone: bool) -> Any:
    context = browser.new_context(
        viewport={"width": size[0], "height": size[1]},
        has_touch=phone,
        is_mobile=phone,
        locale="en",
        bypass_csp=True,
        reduced_motion="reduce",  # no card flies: nothing to wait for
    )
    context.add_init_script("localStorage.setItem('cardtable.lang', 'en')")
    context.add_init_script(PAGE_HOOKS)
    return context


@pytest.fixture(scope="module")
def desk(browser: Any) -> Iterator[Any]:
    context = _context(browser, DESKTOP[0], phone=False)
    yield context
    context.close()


@pytest.fixture(scope="module")
def phone(browser: Any) -> Iterator[Any]:
    context = _context(browser, PHONE, phone=True)
    yield context
    context.close()


def open_page(context: Any, server: str, room: dict[str, Any], seated: bool) -> Any:
    """A page of ``context`` at the room: Alice's seat, or watching."""
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    code = room["code"]
    if seated:
        page.goto(server + "/")
        page.wait_for_selector("body[data-ready='1']", timeout=TIMEOUT)
        keep = {k: room[k] for k in ("seat", "token", "host_token", "name")}
        page.evaluate(
            "([code, seat]) => localStorage.setItem('cardtable.room.' + code, seat)",
            [code, json.dumps(keep)],
        )
        page.goto(f"{server}/r/{code}")
    else:
        page.goto(f"{server}/r/{code}/watch")
    page.wait_for_selector("body[data-ready='1']", timeout=TIMEOUT)
    return page


def start(page: Any) -> None:
    page.wait_for_selector("#start:not([disabled])", timeout=TIMEOUT)
    page.click("#start")
    page.wait_for_selector(".board", timeout=TIMEOUT)


def own_turn(page: Any) -> None:
    """Wait for Alice's turn, with no card in flight."""
    page.wait_for_selector('.src-legal[data-id^="hand:"]', timeout=TIMEOUT)
    settle(page)


def discard_at_once(page: Any, seat: int, pile: int) -> None:
    """Alice ends her turn on her discard pile ``pile`` (the last card of her hand)."""
    before = version(page)
    page.locator('.src-legal[data-id^="hand:"]').last.click()
    page.locator(f'.tgt-legal[data-id="disc:{seat}:{pile}"]').click()
    wait_change(page, before)


def play_to_mid_game(page: Any) -> int:
    """Alice discards at once, onto her first pile every other turn and onto the others
    in turn, until the bots made BOT_MOVES moves and she had OWN_TURNS turns; returns
    the bots' moves (every move but hers between two of her turns)."""
    own_turn(page)
    first = int(version(page))
    turns = 0
    while True:
        bot_moves = int(version(page)) - first - turns
        if turns >= OWN_TURNS and bot_moves >= BOT_MOVES:
            return bot_moves
        assert turns < 30, "no mid-game after 30 turns"
        pile = 0 if turns % 2 == 0 else 1 + (turns // 2) % 3
        discard_at_once(page, 0, pile)
        turns += 1
        own_turn(page)


def resize(page: Any, size: tuple[int, int]) -> None:
    page.set_viewport_size({"width": size[0], "height": size[1]})
    # The resize event refits the board; two frames later it is drawn.
    page.evaluate("new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(ok)))")


def case(
    page: Any,
    shots: Any,
    label: str,
    results: dict[str, Any],
    target: int | None = None,
    first_screen: list[str] | None = None,
) -> None:
    """Measure the page as it is and keep the case's result under ``label`` (with a
    screenshot when something is wrong, and of a few views for a reviewer)."""
    found = measure(page, first_screen=first_screen)
    problems = list(found["violations"])
    smallest = found["smallest"]
    if target is not None and (smallest is None or smallest["width"] < target):
        problems.append(f"the smallest card, {smallest}, is under {target}px")
    if page.errors:
        problems.append(f"page errors: {page.errors}")
    if problems or (label.endswith(SAMPLE) and "drawn-out" not in label):
        page.screenshot(path=shots / f"fit-{label}.png")
    results[label] = {
        "smallest": smallest,
        "span": found["span"],
        "deepest": found["deepest"],
        "problems": problems,
    }


def measure_sizes(
    seated: Any,
    watcher: Any,
    shots: Any,
    name: str,
    players: int,
    results: dict[str, Any],
    targets: bool = True,
) -> None:
    for size in DESKTOP:
        for view, page in (("seated", seated), ("watch", watcher)):
            resize(page, size)
            target = TARGETS[size][players] if targets else None
            case(page, shots, f"{name}-{view}-{size[0]}x{size[1]}", results, target)


def measure_phone(
    seated: Any, watcher: Any, shots: Any, name: str, seat_count: int, results: dict[str, Any]
) -> None:
    """The phone: the first screen shows one's stock, discard piles, hand and the
    building piles; another player opened from its line fits the screen's width (the
    page may scroll down then: its cards stay readable)."""
    mine = ["stock:0", "disc:0:", "hand:", "build:"]
    for view, page, first in (("seated", seated, mine), ("watch", watcher, ["build:"])):
        page.evaluate("window.scrollTo(0, 0)")
        case(page, shots, f"{name}-{view}-phone", results, first_screen=first)
        toggles = page.locator("[data-seat].compact .seattoggle")
        if toggles.count():
            # The next player, opened and closed again (drawn when the click returns;
            # test_layout taps these lines).
            toggles.first.dispatch_event("click")
            page.wait_for_selector("[data-seat].compact.open", timeout=TIMEOUT)
            case(page, shots, f"{name}-{view}-phone-open", results, first_screen=[])
            toggles.first.dispatch_event("click")
            page.wait_for_function("!document.querySelector('[data-seat].compact.open')")


def report(results: dict[str, Any]) -> None:
    """Fail with every case's problems, named; print the smallest cards either way."""
    for label, result in results.items():
        smallest = result["smallest"]
        width = smallest and smallest["width"]
        print(
            f"{label}: smallest {width} ({smallest and smallest['name']}), cards over "
            f"{result['span']}% of the board, deepest pile {result['deepest']}"
        )
    failed = {label: r["problems"] for label, r in results.items() if r["problems"]}
    assert not failed, "\n".join(f"{label}: {'; '.join(p)}" for label, p in failed.items())


class Table:
    """A Skip-Bo room of a setup, on Alice's turn, open in four pages: seated and watching,
    on the desktop and on the phone."""

    def __init__(self, server: str, desk: Any, phone: Any, setup: tuple[int, bool]) -> None:
        players, teams = setup
        self.options: dict[str, Any] = {"players": players}
        if teams:
            self.options["teams"] = True
        self.room = new_room(server, "skipbo", self.options)
        self.seated = open_page(desk, server, self.room, seated=True)
        start(self.seated)
        self.bot_moves = play_to_mid_game(self.seated)
        self.watcher = open_page(desk, server, self.room, seated=False)
        self.phone_seated = open_page(phone, server, self.room, seated=True)
        self.phone_watcher = open_page(phone, server, self.room, seated=False)
        for page in self.pages():
            page.wait_for_selector(".board", timeout=TIMEOUT)

    def pages(self) -> list[Any]:
        return [self.seated, self.watcher, self.phone_seated, self.phone_watcher]


@pytest.fixture(scope="module")
def tables(server: str, desk: Any, phone: Any) -> Iterator[Any]:
    """A setup's table, made once for the module: the twelve-card case draws its position
    in the pages of the mid-game's room, where nothing moves until Alice does."""
    made: dict[tuple[int, bool], Table] = {}

    def table(setup: tuple[int, bool]) -> Table:
        if setup not in made:
            made[setup] = Table(server, desk, phone, setup)
        return made[setup]

    yield table
    for each in made.values():
        for page in each.pages():
            page.close()


def measure_replay(
    server: str, desk: Any, room: dict[str, Any], shots: Any, name: str, results: dict[str, Any]
) -> None:
    """The replay viewer draws the same board, at its last step, laid out the same way."""
    page = desk.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    page.goto(f"{server}/#/replay/{room['code']}/1")
    page.wait_for_selector(".replay .board", timeout=TIMEOUT)
    for size in DESKTOP[:2]:
        resize(page, size)
        case(page, shots, f"{name}-replay-{size[0]}x{size[1]}", results)
    page.close()


@pytest.mark.parametrize("setup", SETUPS, ids=setup_id)
def test_mid_game_every_pile_lies_in_its_place_at_every_size(server, desk, tables, shots, setup):
    table = tables(setup)
    assert table.bot_moves >= BOT_MOVES
    results: dict[str, Any] = {}
    name = f"skipbo-{setup_id(setup)}"
    players = setup[0]
    measure_sizes(table.seated, table.watcher, shots, name, players, results)
    measure_phone(table.phone_seated, table.phone_watcher, shots, name, players, results)
    measure_replay(server, desk, table.room, shots, name, results)
    report(results)


def piled_position(rules: SkipBoRules, drawn_out: bool = False) -> SkipBoState:
    """A position made with the snapshot API: a fresh deal whose draw pile gave 12 cards
    to Alice's first discard pile, 12 to the last pile of the player after her and 7 to
    another of hers (Alice to move). ``drawn_out``: the rest of the draw pile is set
    aside as well and nine turns went by without a build (the board says so)."""
    snapshot = SkipBoState.new(rules, 36).to_json()
    draw = snapshot["draw"]
    for seat, pile, count in ((0, 0, 12), (1, 3, 12), (0, 2, 7)):
        snapshot["discards"][seat][pile] = [draw.pop() for _ in range(count)]
    if drawn_out:
        snapshot["completed"] += draw
        snapshot["draw"] = []
        snapshot["idle"] = 9
    return SkipBoState.from_json(snapshot)


SHOW = """async ([view, code]) => {
    const room = await fetch("/api/rooms/" + code).then((r) => r.json());
    const handlers = (await shownPage()).room.conn.handlers;
    handlers.message({ type: "sync", room, game_no: room.game_no, view });
  }"""


@pytest.mark.parametrize("setup", [(2, False), (4, False), (6, False), (4, True)], ids=setup_id)
def test_a_discard_pile_of_twelve_cards_fits_its_place_at_every_size(tables, shots, setup):
    table = tables(setup)
    state = piled_position(SkipBoRules.from_json({**table.options, "first_player": 0}))
    for page in table.pages():
        view = state.view(0 if page in (table.seated, table.phone_seated) else None)
        page.evaluate(SHOW, [view, table.room["code"]])  # drawn when it returns
    results: dict[str, Any] = {}
    name = f"skipbo-12-{setup_id(setup)}"
    players = setup[0]
    # The deepest fan a page shows: the cards are still as large as the targets ask.
    measure_sizes(table.seated, table.watcher, shots, name, players, results)
    measure_phone(table.phone_seated, table.phone_watcher, shots, name, players, results)
    # On a phone, with the notice that nothing is left to draw as well.
    state = piled_position(
        SkipBoRules.from_json({**table.options, "first_player": 0}), drawn_out=True
    )
    for page in (table.phone_seated, table.phone_watcher):
        view = state.view(0 if page is table.phone_seated else None)
        page.evaluate(SHOW, [view, table.room["code"]])
        assert page.locator(".warning.idle").count() == 1
    name = f"skipbo-12-drawn-out-{setup_id(setup)}"
    measure_phone(table.phone_seated, table.phone_watcher, shots, name, players, results)
    report(results)


@pytest.mark.parametrize("players", [2, 5, 8])
def test_the_skyjo_table_passes_the_same_measurements(server, desk, phone, shots, players):
    room = new_room(server, "skyjo", {"players": players})
    seated = open_page(desk, server, room, seated=True)
    start(seated)
    for _ in range(4):  # the two cards of the set-up, then a turn
        seated.wait_for_selector(".src-legal, .tgt-legal", timeout=TIMEOUT)
        before = version(seated)
        skyjo_step(seated)
        assert version(seated) != before
    seated.wait_for_selector(".src-legal, .tgt-legal", timeout=TIMEOUT)
    settle(seated)
    watcher = open_page(desk, server, room, seated=False)
    watcher.wait_for_selector(".board", timeout=TIMEOUT)
    results: dict[str, Any] = {}
    name = f"skyjo-{players}"
    measure_sizes(seated, watcher, shots, name, players, results, targets=False)
    pages = [
        open_page(phone, server, room, seated=True),
        open_page(phone, server, room, seated=False),
    ]
    for page in pages:
        page.wait_for_selector(".board", timeout=TIMEOUT)
    for view, page, first in (
        ("seated", pages[0], ["cell:0:", "draw", "discard"]),
        ("watch", pages[1], ["draw"]),
    ):
        case(page, shots, f"{name}-{view}-phone", results, first_screen=first)
    for page in (seated, watcher, *pages):
        page.close()
    report(results)
