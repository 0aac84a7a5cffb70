"""The host edits the rules options in the lobby; guests and spectators see them live."""

from __future__ import annotations

from typing import Any

from .pages import COUNT_HANDLED, TIMEOUT, create_table, new_page, no_horizontal_scroll, start

EDITABLE = ".lobby input[type=number], .lobby input[type=checkbox], .lobby select"
RANGE_MESSAGE = "Cards in each stock pile: a whole number from 5 to 30, or empty for auto"


def join(browser: Any, server: str, code: str, name: str, width: int = 1280) -> Any:
    page = new_page(browser, server, width=width)
    page.goto(f"{server}/r/{code}")
    page.wait_for_selector("#join", timeout=TIMEOUT)
    page.fill("#join-name", name)
    page.click("#join")
    # Seated: the join form is gone and the rules are shown read-only.
    page.wait_for_function(
        "!document.querySelector('#join') && document.querySelector('dl#lobby-options')",
        timeout=TIMEOUT,
    )
    return page


def set_option(page: Any, name: str, value: object) -> None:
    """Change one option like a user: type (or tick) it, then leave the field."""
    selector = f"#lobby-opt-{name}"
    if isinstance(value, bool):
        # A click, not set_checked: a refused change unticks the box again.
        if page.is_checked(selector) != value:
            page.click(selector)
    else:
        page.fill(selector, str(value))
        page.dispatch_event(selector, "change")


def shown(page: Any, name: str) -> str:
    """The value a guest reads for option ``name``."""
    text: str = page.inner_text(f'#lobby-options [data-option="{name}"] dd')
    return text


def wait_shown(page: Any, name: str, text: str) -> None:
    page.wait_for_function(
        """([name, text]) => {
          const dd = document.querySelector(`#lobby-options [data-option="${name}"] dd`);
          return dd !== null && dd.textContent === text;
        }""",
        arg=[name, text],
        timeout=TIMEOUT,
    )


def wait_value(page: Any, name: str, text: str) -> None:
    page.wait_for_function(
        """([name, text]) => {
          const input = document.querySelector(`#lobby-opt-${name}`);
          const busy = document.querySelector('#lobby-options[aria-busy="true"]');
          return input !== null && input.value === text && !busy;
        }""",
        arg=[name, text],
        timeout=TIMEOUT,
    )


def room_rules(page: Any, server: str, code: str) -> dict[str, Any]:
    response = page.request.get(f"{server}/api/rooms/{code}")
    assert response.ok
    rules: dict[str, Any] = response.json()["rules"]
    return rules


def test_host_changes_the_stock_size_a_guest_sees_it_and_the_game_uses_it(server, browser, shots):
    host = new_page(browser, server)
    code = create_table(host, "skipbo", "Alice", {"players": 2}, ["human"])
    guest = join(browser, server, code, "Bob")
    wait_shown(guest, "stock_size", "auto")
    # The guest reads the options but has nothing to edit.
    assert guest.locator(EDITABLE).count() == 0
    host.wait_for_selector("#lobby-opt-stock_size", timeout=TIMEOUT)
    assert host.get_attribute("#lobby-opt-stock_size", "max") == "30"  # the server's range
    set_option(host, "stock_size", 7)
    wait_shown(guest, "stock_size", "7")
    wait_value(host, "stock_size", "7")
    set_option(host, "rounds", True)
    wait_shown(guest, "rounds", "yes")
    assert room_rules(host, server, code)["stock_size"] == 7
    host.screenshot(path=shots / "lobby-options-host.png", full_page=True)
    guest.screenshot(path=shots / "lobby-options-guest.png", full_page=True)
    start(host)
    guest.wait_for_selector(".board", timeout=TIMEOUT)
    for page in (host, guest):
        # Nobody has moved yet (two humans): both stock piles hold the 7 cards dealt.
        page.wait_for_selector(".stockbox .pilename", timeout=TIMEOUT)
        counts = page.locator(".stockbox .pilename").all_inner_texts()
        assert counts == ["Stock pile · 7", "Stock pile · 7"], counts
    assert not host.errors and not guest.errors


def test_refused_values_name_the_option_and_change_nothing(server, browser, shots):
    host = new_page(browser, server, width=375)
    code = create_table(host, "skipbo", "Alice", {"players": 2, "stock_size": 10}, ["greedy"])
    guest = new_page(browser, server)
    guest.goto(f"{server}/r/{code}/watch")
    wait_shown(guest, "stock_size", "10")
    # Outside the range the server gave the page: refused before anything is sent.
    set_option(host, "stock_size", 99)
    error = host.locator("#lobby-opt-stock_size-error")
    error.wait_for(timeout=TIMEOUT)
    assert error.inner_text() == RANGE_MESSAGE
    described = host.get_attribute("#lobby-opt-stock_size", "aria-describedby")
    assert described == "lobby-opt-stock_size-error"
    wait_value(host, "stock_size", "10")
    no_horizontal_scroll(host)
    # Six players: the two seats stay as they were, four new seats get the default bot.
    set_option(host, "players", 6)
    wait_shown(guest, "players", "6")
    host.wait_for_selector(".lobby .seats li:nth-child(6)", timeout=TIMEOUT)
    assert host.locator(".lobby .seats li").count() == 6
    guest.wait_for_function("document.querySelectorAll('.lobby .seats li').length === 6")
    assert host.locator("#lobby-opt-stock_size-error").count() == 0  # a good change clears it
    # Six players leave room for 22 stock cards each: the page has the server's range
    # for each player count and refuses 25 itself, naming that range.
    host.wait_for_function("document.querySelector('#lobby-opt-stock_size').max === '22'")
    set_option(host, "stock_size", 25)
    error.wait_for(timeout=TIMEOUT)
    assert error.inner_text() == RANGE_MESSAGE.replace("30", "22")
    wait_value(host, "stock_size", "10")
    # With three players 25 is fine; going back to six players is then refused by the
    # server, and the refusal is shown under the option it names (field), not under the
    # player count that was changed; nothing changes.
    set_option(host, "players", 3)
    wait_shown(guest, "players", "3")
    wait_value(host, "players", "3")
    set_option(host, "stock_size", 25)
    wait_shown(guest, "stock_size", "25")
    wait_value(host, "stock_size", "25")
    set_option(host, "players", 6)
    error.wait_for(timeout=TIMEOUT)
    text = error.inner_text()
    assert text.startswith("Cards in each stock pile: These options are not allowed"), text
    # What the option allows, from its catalog key (not the server's reason, which quotes
    # the option's name in the engine's English).
    assert "(null or an integer from 5 to 22)" in text and "Nothing was changed" in text, text
    assert "'stock_size'" not in text, text
    assert host.locator("#lobby-opt-players-error").count() == 0
    wait_value(host, "players", "3")
    wait_value(host, "stock_size", "25")
    assert host.locator("#toast").is_hidden()  # said once, under the option
    no_horizontal_scroll(host)
    host.screenshot(path=shots / "lobby-options-refused-375.png", full_page=True)
    # A rule between options: team play needs 4 or 6 players, so not with 3.
    set_option(host, "teams", True)
    teams_error = host.locator("#lobby-opt-teams-error")
    teams_error.wait_for(timeout=TIMEOUT)
    assert "team play needs 4 or 6 players" in teams_error.inner_text()
    host.wait_for_function("!document.querySelector('#lobby-opt-teams').checked")
    rules = room_rules(host, server, code)
    assert (rules["players"], rules["stock_size"], rules["teams"]) == (3, 25, False)
    assert shown(guest, "stock_size") == "25" and shown(guest, "teams") == "no"
    assert not host.errors and not guest.errors


def test_a_name_being_typed_to_join_survives_a_redraw(server, browser):
    host = new_page(browser, server)
    code = create_table(host, "skyjo", "Alice", {"players": 2}, ["human"])
    guest = new_page(browser, server)
    guest.goto(f"{server}/r/{code}")
    guest.wait_for_selector("#join", timeout=TIMEOUT)
    guest.click("#join-name")
    guest.keyboard.type("Bobby")
    guest.keyboard.press("ArrowLeft")  # the caret sits before the last letter
    guest.evaluate("window.typedInto = document.querySelector('#join-name')")
    guest.evaluate(COUNT_HANDLED)
    # A spectator arrives: the presence message redraws the guest's lobby mid-typing.
    spectator = new_page(browser, server)
    spectator.goto(f"{server}/r/{code}")
    guest.wait_for_function("window.handled.presence > 0", timeout=TIMEOUT)
    field = guest.evaluate(
        """() => {
          const input = document.querySelector('#join-name');
          return [input.value, document.activeElement === input, input.selectionStart,
                  input === window.typedInto];
        }"""
    )
    # The redraw patched the page: the very field, its text, focus and caret stayed.
    assert field == ["Bobby", True, 4, True]
    guest.keyboard.press("Backspace")
    guest.click("#join")
    host.wait_for_selector("#start:not([disabled])", timeout=TIMEOUT)
    assert "Boby" in host.inner_text(".seats")
    assert not guest.errors and not host.errors
    for page in (host, guest, spectator):
        page.context.close()


def test_keyboard_only_skyjo_options_for_a_seated_guest(server, browser):
    host = new_page(browser, server)
    code = create_table(host, "skyjo", "Alice", {"players": 2}, ["human"])
    guest = join(browser, server, code, "Bob", width=375)
    assert guest.locator(EDITABLE).count() == 0
    # Every control has a label; the end score is typed and committed with Enter.
    for name in ("players", "end_score", "rows_rule", "closer_starts_next", "closer_doubling"):
        assert host.locator(f"label[for=lobby-opt-{name}]").count() == 1, name
    host.focus("#lobby-opt-end_score")
    host.keyboard.press("Control+A")
    host.keyboard.type("50")
    host.keyboard.press("Enter")
    wait_shown(guest, "end_score", "50")
    host.focus("#lobby-opt-rows_rule")
    host.keyboard.press("Space")
    wait_shown(guest, "rows_rule", "yes")
    # Typing survives a redraw (a spectator arrives) and is sent on leaving the field.
    host.focus("#lobby-opt-end_score")
    host.keyboard.press("Control+A")
    host.keyboard.type("75")
    host.eval_on_selector("#lobby-opt-end_score", "input => { input.dataset.old = '1'; }")
    watcher = new_page(browser, server)
    watcher.goto(f"{server}/r/{code}/watch")
    host.wait_for_function(
        "document.querySelector('#lobby-opt-end_score').dataset.old === undefined", timeout=TIMEOUT
    )
    assert host.input_value("#lobby-opt-end_score") == "75"
    assert host.evaluate("document.activeElement.id") == "lobby-opt-end_score"
    assert shown(guest, "end_score") == "50"
    host.keyboard.press("Tab")
    wait_shown(guest, "end_score", "75")
    wait_shown(watcher, "end_score", "75")
    no_horizontal_scroll(guest)
    rules = room_rules(host, server, code)
    assert (rules["end_score"], rules["rows_rule"]) == (75, True)
    assert not host.errors and not guest.errors and not watcher.errors


def test_the_answer_to_a_change_does_not_wipe_what_the_host_typed_since(server, browser):
    host = new_page(browser, server)
    code = create_table(host, "skyjo", "Alice", {"players": 2}, ["human"])
    guest = join(browser, server, code, "Bob")
    # Hold what the server sends the host, so its answer comes after the host types on.
    host.evaluate(
        """async () => {
          const handlers = (await shownPage()).room.conn.handlers;
          const deliver = handlers.message;
          window.held = [];
          handlers.message = (m) => window.held.push(m);
          window.release = () => { handlers.message = deliver; window.held.forEach(deliver); };
        }"""
    )
    host.focus("#lobby-opt-end_score")
    host.keyboard.press("Control+A")
    host.keyboard.type("50")
    host.keyboard.press("Enter")
    wait_shown(guest, "end_score", "50")
    host.keyboard.press("Control+A")
    host.keyboard.type("75")
    host.evaluate("window.release()")
    host.wait_for_function(
        "!document.querySelector('#lobby-options[aria-busy=\"true\"]')", timeout=TIMEOUT
    )
    assert host.input_value("#lobby-opt-end_score") == "75"
    assert host.evaluate("document.activeElement.id") == "lobby-opt-end_score"
    host.keyboard.press("Tab")
    wait_shown(guest, "end_score", "75")
    assert room_rules(host, server, code)["end_score"] == 75
    assert not host.errors and not guest.errors


def test_the_home_page_gives_the_same_message_and_keeps_the_form_back(server, browser):
    page = new_page(browser, server)
    page.check("input[name=game][value=skipbo]")
    page.fill("#your-name", "Alice")
    page.fill("#opt-stock_size", "99")
    page.dispatch_event("#opt-stock_size", "change")
    message = page.eval_on_selector("#opt-stock_size", "input => input.validationMessage")
    assert message == RANGE_MESSAGE
    page.click("#create")  # the browser refuses the form with that message
    page.fill("#opt-stock_size", "12")
    page.dispatch_event("#opt-stock_size", "change")
    assert page.eval_on_selector("#opt-stock_size", "input => input.validity.valid")
    page.click("#create")
    page.wait_for_selector("#lobby-opt-stock_size", timeout=TIMEOUT)
    assert page.input_value("#lobby-opt-stock_size") == "12"
    assert not page.errors


def switch_language(page: Any, lang: str) -> None:
    page.select_option("#lang", lang)
    page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)


def test_refusals_and_toasts_follow_a_change_of_language(server, browser):
    host = new_page(browser, server)
    options = {"players": 3, "stock_size": 25}
    code = create_table(host, "skipbo", "Alice", options, ["human", "human"])
    # Refused by the page itself (out of range), then worded again in French.
    set_option(host, "stock_size", 99)
    error = host.locator("#lobby-opt-stock_size-error")
    error.wait_for(timeout=TIMEOUT)
    assert error.inner_text() == RANGE_MESSAGE
    switch_language(host, "fr")
    host.wait_for_function(
        "document.querySelector('#lobby-opt-stock_size-error').textContent.startsWith('Cartes')"
    )
    assert error.inner_text() == (
        "Cartes dans chaque talon : un nombre entier de 5 à 30, ou vide pour auto"
    )
    switch_language(host, "en")
    # Refused by the server (six players leave room for 22 stock cards each).
    set_option(host, "players", 6)
    host.wait_for_function(
        "(document.querySelector('#lobby-opt-stock_size-error') || {}).textContent"
        "?.includes('Nothing was changed')",
        timeout=TIMEOUT,
    )
    assert error.inner_text().startswith("Cards in each stock pile: These options are not allowed")
    switch_language(host, "de")
    host.wait_for_function(
        "document.querySelector('#lobby-opt-stock_size-error').textContent.includes('geändert')"
    )
    text = error.inner_text()
    assert "Nothing" not in text and "not allowed" not in text, text
    # A toast made from an error code: a guest's refused name, then in Italian.
    guest = new_page(browser, server)
    guest.goto(f"{server}/r/{code}")
    guest.wait_for_selector("#join", timeout=TIMEOUT)
    guest.fill("#join-name", "<Bob>")
    guest.click("#join")
    toast = guest.locator("#toast")
    toast.wait_for(state="visible", timeout=TIMEOUT)
    assert toast.inner_text().startswith("Please enter a name"), toast.inner_text()
    switch_language(guest, "it")
    guest.wait_for_function("!document.querySelector('#toast').textContent.startsWith('Please')")
    assert not toast.inner_text().startswith("Please"), toast.inner_text()
    assert not host.errors and not guest.errors


def test_the_host_removes_a_waiting_guest_who_then_watches(server, browser):
    host = new_page(browser, server)
    code = create_table(host, "skyjo", "Hostess", {"players": 2}, ["human"])
    guest = join(browser, server, code, "Stranger")
    remove = host.get_by_role("button", name="Remove Stranger from the table")
    remove.wait_for(timeout=TIMEOUT)
    remove.click()
    guest.get_by_text("The host removed you from this table.").wait_for(timeout=TIMEOUT)
    # A spectator now, with the free seat offered again; the host waits for a player.
    guest.wait_for_selector("#join", timeout=TIMEOUT)
    host.wait_for_selector("#start[disabled]", timeout=TIMEOUT)
    assert host.get_by_role("button", name="Remove Stranger from the table").count() == 0
    stored = guest.evaluate(f"localStorage.getItem('cardtable.room.{code}')")
    assert stored is None or "token" not in stored
    assert not host.errors and not guest.errors
