"""Piles drawn from a view made by the engine: a discard pile fans out its last six cards
with a count of those under them, so it never grows past that height; a building pile
topped by a Skip-Bo card shows, in sight, the value it stands for."""

from __future__ import annotations

from typing import Any

from cardtable.skipbo import SkipBoRules, SkipBoState
from cardtable.skipbo.view import build_view

from .pages import new_page

# Draws the board of `view` on the page (in place of what is there) and measures it.
DRAW = """([view]) => pageModule("skipbo.js").then((skipbo) => {
    const ctx = { me: 0, name: (s) => `P${s}`, presence: () => null, interactive: false,
                  compact: false, expanded: () => false, toggle: () => {} };
    const board = skipbo.render(view, ctx);
    board.style.setProperty("--s", "1");
    document.getElementById("app").replaceChildren(board);
    const height = (id) => board.querySelector(`[data-id="${id}"]`).getBoundingClientRect().height;
    const fan = (id) => {
      const el = board.querySelector(`[data-id="${id}"]`);
      const more = el.querySelector(".fanmore");
      return { cards: el.querySelectorAll(".fancard").length, more: more && more.textContent,
               height: height(id), label: el.getAttribute("aria-label") };
    };
    const badge = board.querySelector('[data-id="build:0"] .counts');
    const r = badge && badge.getBoundingClientRect();
    const seen = r && document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return { six: fan("disc:0:0"), ten: fan("disc:0:1"), one: fan("disc:0:2"),
             badge: badge && badge.textContent, badgeSeen: Boolean(seen && badge.contains(seen)) };
  })"""


def piled_view() -> dict[str, Any]:
    state = SkipBoState.new(SkipBoRules(players=2, stock_size=5), 3)
    state.discards[0][0] = [12, 11, 10, 9, 8, 7]
    state.discards[0][1] = [12, 11, 10, 9, 8, 7, 6, 5, 4, 3]
    state.discards[0][2] = [4]
    state.building[0] = [1, 2, 0]  # a Skip-Bo card standing for 3 on top
    view: dict[str, Any] = build_view(state, 0)
    return view


def test_discard_fans_are_bounded_and_a_wild_card_shows_its_value(server, browser):
    page = new_page(browser, server)
    drawn = page.evaluate(DRAW, [piled_view()])
    six, ten, one = drawn["six"], drawn["ten"], drawn["one"]
    assert (six["cards"], six["more"]) == (6, None)
    assert (ten["cards"], ten["more"]) == (6, "+4")
    assert abs(ten["height"] - six["height"]) < 1 and one["height"] < six["height"]
    # The pile's name still lists every card, the hidden ones too.
    assert ten["label"] == "Your discard pile 2: 12, 11, 10, 9, 8, 7, 6, 5, 4, 3; top 3"
    assert drawn["badge"] == "= 3" and drawn["badgeSeen"]
    assert not page.errors
    page.context.close()
