"""The game log is kept as catalog keys and parameters: a change of language words every
line again, in the same order and with the same styling, with no English left."""

from __future__ import annotations

import re
from typing import Any

from cardtable.web.catalogs import browser_catalog

from .pages import (
    MISSING,
    SHORT_GAMES,
    TIMEOUT,
    create_table,
    new_page,
    play_until_over,
    skipbo_step,
    skyjo_step,
    start,
)

LINES = """() => [...document.querySelectorAll('.loglist li')]
  .map((li) => ({text: li.textContent, mine: li.classList.contains('mine')}))"""


def _template(text: str) -> str:
    """A catalog text as a pattern: any words stand for a placeholder."""
    return re.sub(r"\\\{\w+\\\}", ".+?", re.escape(text))


def log_patterns(lang: str) -> list[re.Pattern[str]]:
    """Every log line ``lang``'s catalog can make (a doubled Skyjo closer's sentence follows
    the round's points)."""
    texts = browser_catalog(lang)
    keys = [key for key in texts if key.startswith("web.log.")]
    patterns = [_template(texts[key]) for key in keys]
    patterns.append(
        _template(texts["web.log.skyjo.round_ended"])
        + " "
        + _template(texts["web.log.skyjo.doubled"])
    )
    return [re.compile(pattern) for pattern in patterns]


def worded_in(lines: list[str], lang: str) -> list[str]:
    """The lines that no line of ``lang``'s catalog makes."""
    patterns = log_patterns(lang)
    return [line for line in lines if not any(p.fullmatch(line) for p in patterns)]


def _switch(page: Any, lang: str) -> list[dict[str, Any]]:
    before = page.evaluate(LINES)
    page.select_option("#lang", lang)
    page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)
    page.wait_for_function(
        "first => document.querySelector('.loglist li').textContent !== first",
        arg=before[0]["text"],
        timeout=TIMEOUT,
    )
    lines: list[dict[str, Any]] = page.evaluate(LINES)
    return lines


def _check_switches(page: Any, english_names: list[str]) -> None:
    english = page.evaluate(LINES)
    assert len(english) > 5
    assert not worded_in([line["text"] for line in english], "en")
    for lang in ("fr", "de", "it"):
        lines = _switch(page, lang)
        texts = [line["text"] for line in lines]
        # The same lines, in the same order, with the same marks for our own moves.
        assert [line["mine"] for line in lines] == [line["mine"] for line in english], lang
        assert not worded_in(texts, lang), lang
        # No line is an English one, nor names a player the English way.
        assert not [text for text in texts if not worded_in([text], "en")], lang
        assert not [text for text in texts if any(name in text for name in english_names)], lang
    # Back in English: word for word the log we started with.
    assert _switch(page, "en") == english
    assert page.evaluate(MISSING) == []
    assert not page.errors


def test_a_skip_bo_log_is_worded_again_in_each_language(server, browser):
    page = new_page(browser, server)
    create_table(page, "skipbo", "Alice", SHORT_GAMES["skipbo"], ["greedy"])
    start(page)
    page.wait_for_selector(".src-legal", timeout=TIMEOUT)
    play_until_over([page], skipbo_step)
    page.locator("details.log").evaluate("d => d.open = true")
    texts = page.evaluate(LINES)
    assert texts[0]["text"].startswith("Game over: ")  # the newest line first
    _check_switches(page, ["Alice (you)", "Bot · medium"])


def test_a_skyjo_log_is_worded_again_in_each_language(server, browser):
    page = new_page(browser, server)
    create_table(page, "skyjo", "Alice", {"players": 2, "end_score": 1}, ["greedy"])
    start(page)
    page.wait_for_selector(".tgt-legal", timeout=TIMEOUT)
    play_until_over([page], skyjo_step)
    page.locator("details.log").evaluate("d => d.open = true")
    texts = [line["text"] for line in page.evaluate(LINES)]
    assert any(text.startswith("Round 1 is over: ") for text in texts)
    _check_switches(page, ["Alice (you)", "Bot · medium"])


# One outcome holding every kind of event the log words, for both games.
EVENTS = {
    "skyjo": [
        {"type": "RoundDealt", "round": 2},
        {"type": "CardRevealed", "seat": 0, "pos": 5, "card": 7},
        {"type": "StarterChosen", "seat": 1},
        {"type": "Drew", "seat": 0, "card": -2},
        {"type": "TookDiscard", "seat": 0, "card": 3},
        {"type": "Exchanged", "seat": 0, "pos": 11, "card": 3, "replaced": 12},
        {"type": "Discarded", "seat": 0, "card": 9},
        {"type": "ColumnRemoved", "seat": 0, "col": 2, "card": 4},
        {"type": "RowRemoved", "seat": 1, "row": 1, "card": 4},
        {"type": "Reshuffled", "count": 40},
        {"type": "FinalTurns", "closer": 1},
        {"type": "TurnLimitReached", "round": 2, "turns": 100},
        {"type": "RoundEnded", "round": 2, "points": [12, 30], "closer": 1, "doubled": True},
        {"type": "RoundEnded", "round": 3, "points": [5, 8], "closer": None, "doubled": False},
        {"type": "GameEnded", "winners": [0]},
    ],
    "skipbo": [
        {"type": "RoundDealt", "round": 1, "starter": 1},
        {"type": "TurnStarted", "seat": 0},
        {"type": "Drew", "seat": 0, "count": 5},
        {"type": "Reshuffled", "count": 60},
        *(
            {"type": "Built", "seat": 0, "owner": owner, "source": source, "card": 0}
            | {"pile": 1, "value": 4}
            for source in ("hand", "stock", "discard")
            for owner in (0, 2)
        ),
        {"type": "PileCompleted", "pile": 3},
        {"type": "StockRevealed", "owner": 1, "card": 0, "remaining": 4},
        {"type": "StockEmptied", "owner": 1},
        {"type": "Discarded", "seat": 0, "owner": 2, "card": 0, "discard": 1},
        {"type": "TurnPassed", "seat": 0},
        {"type": "RoundEnded", "round": 1, "blocked": False, "winners": [0, 2]},
        {"type": "RoundEnded", "round": 2, "blocked": True, "winners": []},
        {
            "type": "RoundEnded",
            "round": 3,
            "blocked": True,
            "winners": [],
            "reason": "no card fits",
        },
        {"type": "RoundEnded", "round": 4, "blocked": True, "winners": [], "reason": "idle limit"},
        {"type": "GameEnded", "blocked": True, "winners": [1]},
        {"type": "GameEnded", "blocked": False, "winners": [0, 2]},
        {"type": "GameEnded", "blocked": True, "winners": []},
    ],
}
# A view's draw for the deal (Skip-Bo, sheet 003): a first pass tied at 12, then a second.
CUT = [[[0, 7], [1, 12], [2, 12]], [[1, 3], [2, 0]]]
WORDS = """([game, events, cut]) => Promise.all([
    pageModule("words.js"), pageModule(game + ".js")])
  .then(([m, g]) => {
  const lines = m.describe(game, {seat: 0, events});
  const opening = g.openingLines({cut});
  const name = (seat) => `P${seat}`;
  const keys = [...opening, ...lines].flatMap((l) => l.parts.map((p) => p.key));
  // The lines worded otherwise for the reader whose things they are about ("Your ...").
  const worded = (part, me) => m.lineText({seat: 0, parts: [part]}, name, me);
  const own = lines.flatMap((l) => l.parts)
    .filter((p) => [0, 1, 2, 3].some((me) => worded(p, me) !== worded(p, null))).map((p) => p.key);
  return {keys, own, texts: lines.map((l) => m.lineText(l, name)),
          opening: opening.map((l) => m.lineText(l, name))};
})"""


def test_every_kind_of_log_line_is_kept_as_keys_and_worded_in_each_language(server, browser):
    page = new_page(browser, server)
    used: set[str] = set()
    for lang in ("en", "fr", "de", "it"):
        if lang != "en":
            page.select_option("#lang", lang)
            page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)
        wild = browser_catalog(lang)["web.card.wild"]
        for game, events in EVENTS.items():
            shown = page.evaluate(WORDS, [game, events, CUT])
            used |= set(shown["keys"])
            # A line about the reader's own things is worded by its "_you" form.
            own = {key for key in shown["keys"] if f"{key}_you" in browser_catalog(lang)}
            assert set(shown["own"]) == own, (lang, game)
            used |= {f"{key}_you" for key in own}
            texts = shown["texts"]
            assert len(texts) == len(events) - (game == "skipbo"), (lang, game)  # no TurnStarted
            assert not worded_in(texts, lang), (lang, game)
            if lang != "en":
                assert not [text for text in texts if not worded_in([text], "en")], (lang, game)
            # Names and cards are worded too: seats by name (several as the language lists
            # them), the wild card by its name.
            both = {"en": "P0 and P2", "fr": "P0 et P2", "de": "P0 und P2", "it": "P0 e P2"}
            assert (both[lang] if game == "skipbo" else "P0") in texts[
                -2 if game == "skipbo" else -1
            ]
            words = browser_catalog(lang)
            if game == "skipbo":
                draws = f"P0 7, P1 12, P2 12; {words['web.skipbo.cut_then']} P1 3, P2 {wild}"
                assert shown["opening"] == [words["web.log.skipbo.cut"].format(draws=draws)]
            else:
                assert shown["opening"] == []
            if game == "skipbo":
                assert all(wild in text for text in texts[3:9]), (lang, texts[3:9])
            else:
                assert texts[-3].endswith(
                    browser_catalog(lang)["web.log.skyjo.doubled"].replace("{name}", "P1")
                )
    # Every log text of the catalog is one the page uses (a counted text by its forms).
    logs = {key for key in browser_catalog("en") if key.startswith("web.log.")}
    plural = {key.rsplit(".", 1)[0] for key in logs if key.endswith(".other")}
    assert used == {key for key in logs if key.rsplit(".", 1)[0] not in plural} | plural
    assert page.evaluate(MISSING) == []
    assert not page.errors
