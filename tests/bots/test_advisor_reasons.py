"""The advisor's reasons: catalog keys with parameters, worded in all four languages.

The English text (``Advice.reason``) is rendered from the English catalog and must
read as it did before the reasons were structured; every key the advisor can
produce must exist in every catalog with the placeholders the advisor fills in.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cardtable.bots import make_bot
from cardtable.bots.advisor import (
    SEPARATOR_KEY,
    Advice,
    ReasonPart,
    advise,
    english_catalog,
    render_reason,
)
from cardtable.bots.montecarlo import Budget
from cardtable.core import GameState, Rng
from cardtable.games import get_game
from cardtable.i18n import LANGUAGES, catalog, placeholders, translate
from cardtable.skipbo.moves import Discard, EndTurn, PlayFromDiscard, PlayFromHand, PlayFromStock
from cardtable.skyjo.moves import DiscardAndReveal, DrawFromDeck, Exchange, Reveal, TakeDiscard

from ..skipbo.helpers import position
from ..skyjo.helpers import build, grid, hidden

ONE = Budget(iterations=1, milliseconds=None)
ADVISOR = Path(__file__).parents[2] / "src" / "cardtable" / "bots" / "advisor.py"


def _source_keys() -> set[str]:
    """Every message key written in the advisor's source."""
    return set(re.findall(r'"(advice\.[a-z_.]+[a-z_])"', ADVISOR.read_text(encoding="utf-8")))


# --- fixed positions: the English wording is the one of before ------------------
def _skipbo_discards() -> Any:
    return position(
        hands={0: [0, 5, 9, 9, 10]},
        stocks={0: [8, 6], 1: [3, 5]},
        building=[[1, 2, 3], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], [], []],
        discards={0: [[9, 7], [], [11], [0]]},
    )


def _skipbo_last_card() -> Any:
    return position(
        hands={0: [7]}, stocks={0: [9], 1: [8]}, building=[[1, 2, 3, 4, 5, 6], [], [], []]
    )


def _skipbo_opening() -> Any:
    return position(hands={0: [4, 9]}, stocks={0: [9, 5], 1: [6]}, building=[[1, 2, 3], [], [], []])


def _skipbo_stock() -> Any:
    return position(hands={0: [7, 9]}, stocks={0: [9, 4], 1: [6]}, building=[[1, 2, 3], [], [], []])


def _skipbo_empty_hand() -> Any:
    return position(hands={0: []}, stocks={0: [9, 5], 1: [6]}, building=[[1, 2, 3], [], [], []])


def _skipbo_winning() -> Any:
    return position(
        hands={0: [0, 3, 5, 7, 9]}, stocks={0: [4], 1: [6, 6, 6]}, building=[[1, 2, 3], [], [], []]
    )


def _skyjo_drawn_12() -> Any:
    return build([grid("-2 0 1 * * * * * * * * *"), hidden()], phase="drawn", hand=12, discard=(7,))


def _skyjo_column() -> Any:
    return build([grid("5 5 1 4  5 5 2 3  * 6 7 8"), hidden()], phase="taken", hand=5, discard=(7,))


def _skyjo_row() -> Any:
    grids = [grid("5 5 5 *  1 4 2 3  * 6 7 8"), hidden()]
    return build(grids, phase="taken", hand=5, discard=(7,), rows_rule=True)


def _skyjo_last_hidden() -> Any:
    return build([grid("4 5 1 4  5 5 2 3  * 6 7 8"), hidden()], phase="drawn", hand=3, discard=(7,))


def _skyjo_turn() -> Any:
    return build([grid("4 5 1 4  5 5 2 3  * 6 7 8"), hidden()], phase="turn", discard=(-1,))


def _skyjo_setup() -> Any:
    return build([hidden(), hidden()], phase="setup", starter=None)


FIXED: list[tuple[Callable[[], Any], Any, str]] = [
    (_skipbo_discards, PlayFromHand(0, 2), "uses a Skip-Bo card"),
    (_skipbo_discards, PlayFromDiscard(2, 1), "clears a discard pile top"),
    (_skipbo_discards, Discard(9, 0), "buries the 7 under a card it cannot follow"),
    (_skipbo_discards, Discard(0, 0), "gives up a Skip-Bo card"),
    (_skipbo_discards, Discard(5, 3), "buries the Skip-Bo card under a card it cannot follow"),
    (_skipbo_discards, Discard(5, 1), "starts a new discard pile"),
    (_skipbo_discards, Discard(10, 2), "keeps the discard pile in a descending run"),
    (
        _skipbo_last_card,
        PlayFromHand(7, 0),
        "plays from the hand, empties the hand: five new cards, lets seat 1 play their stock",
    ),
    (_skipbo_opening, PlayFromHand(4, 0), "plays from the hand, opens the way to the stock"),
    (_skipbo_stock, PlayFromStock(0), "plays the stock (1 left after it)"),
    (_skipbo_empty_hand, EndTurn(), "nothing left to play or discard"),
    (_skipbo_winning, PlayFromStock(0), "wins the round now"),
    (_skyjo_drawn_12, Exchange(0), "replaces a -2 with the 12: +14 on the grid"),
    (_skyjo_drawn_12, Exchange(3), "puts the 12 over a hidden card"),
    (_skyjo_drawn_12, DiscardAndReveal(3), "discards the card and turns up a hidden one"),
    (_skyjo_column, Exchange(8), "completes a column: three cards leave the grid"),
    (_skyjo_row, Exchange(3), "completes a row: four cards leave the grid"),
    (_skyjo_last_hidden, Exchange(8), "puts the 3 over a hidden card, ending the round"),
    (
        _skyjo_last_hidden,
        DiscardAndReveal(8),
        "discards the card and turns up a hidden one, ending the round",
    ),
    (_skyjo_last_hidden, Exchange(0), "replaces a 4 with the 3: -1 on the grid"),
    (_skyjo_turn, DrawFromDeck(), "draws an unknown card"),
    (_skyjo_turn, TakeDiscard(), "takes the -1 from the discard pile"),
    (_skyjo_setup, Reveal(5), "turns up a card"),
]


def _advice_for(state: GameState[Any], move: Any) -> Advice:
    seat = state.current_player
    assert seat is not None
    action = state.game.encode(move)
    (advice,) = advise(state, seat, ONE, seed=3, moves=(action,))
    assert advice.action == action
    return advice


@pytest.mark.parametrize(("make", "move", "english"), FIXED, ids=[e for _, _, e in FIXED])
def test_the_english_reason_reads_as_before(make: Any, move: Any, english: str) -> None:
    advice = _advice_for(make(), move)
    assert advice.reason == english
    assert render_reason(advice.reason_parts) == english
    data = advice.to_json()
    assert data["reason"] == english
    parts = [ReasonPart.from_json(part) for part in data["reason_parts"]]
    assert tuple(parts) == advice.reason_parts


def test_a_seat_is_a_number_that_clients_name() -> None:
    advice = _advice_for(_skipbo_last_card(), PlayFromHand(7, 0))
    assert advice.reason_parts[-1].to_json() == {
        "key": "advice.skipbo.lets_play_stock",
        "params": {"seat": 1},
    }
    french = render_reason(
        advice.reason_parts,
        functools.partial(translate, "fr"),
        lambda seat: ["Ann", "Bob"][seat],
    )
    assert french == (
        "joue une carte de la main, vide la main : cinq nouvelles cartes, "
        "permet à Bob de jouer son talon"
    )


def test_a_change_of_points_keeps_its_sign_in_every_language() -> None:
    parts = _advice_for(_skyjo_drawn_12(), Exchange(0)).reason_parts
    assert parts == (ReasonPart.of("advice.skyjo.replaces", old=-2, card=12, delta=14),)
    for lang in LANGUAGES:
        text = render_reason(parts, functools.partial(translate, lang))
        assert "+14" in text and "-2" in text and "12" in text, (lang, text)


# --- every key, every catalog ------------------------------------------------------
def test_every_advice_key_is_in_the_four_catalogs_with_the_same_placeholders() -> None:
    keys = _source_keys() | {SEPARATOR_KEY}
    assert len(keys) > 20
    english = catalog("en")
    assert english_catalog() == english  # the advisor reads the same English catalog
    for lang in LANGUAGES:
        texts = catalog(lang)
        for key in keys:
            assert key in texts, (lang, key)
            assert texts[key], (lang, key)
            assert placeholders(texts[key]) == placeholders(english[key]), (lang, key)
        # No catalog holds an advice key the advisor never produces.
        assert {key for key in texts if key.startswith("advice.")} == keys, lang


def _positions() -> Any:
    """Positions of both games along games played by a mix of bots."""
    settings = [
        ("skipbo", {"players": 2, "stock_size": 5}, 3, 9),
        ("skipbo", {"players": 4, "teams": True, "stock_size": 5}, 2, 11),
        ("skyjo", {"players": 2}, 3, 5),
        ("skyjo", {"players": 3, "rows_rule": True}, 2, 7),
    ]
    for name, options, seeds, every in settings:
        game = get_game(name)
        bots = [make_bot(name, "greedy"), make_bot(name, "random")]
        for seed in range(seeds):
            state = game.new_state(game.rules_from_json(options), seed)
            rng = Rng(seed)
            step = 0
            while not state.is_over and step < 240:
                if step % every == every - 1:
                    yield state
                state.apply_action(bots[step % 2].choose(state, rng))
                step += 1


def _check_parts(parts: tuple[ReasonPart, ...]) -> None:
    assert parts
    for part in parts:
        names = {name for name, _ in part.params}
        for lang in LANGUAGES:
            text = catalog(lang)[part.key]
            assert placeholders(text) == names, (lang, part.key, names)
            assert all(isinstance(value, int) for _, value in part.params)
    for lang in LANGUAGES:
        words = render_reason(parts, functools.partial(translate, lang), lambda s: f"P{s}")
        assert "{" not in words and "advice." not in words, (lang, words)


def test_walked_positions_give_only_known_keys_with_their_placeholders() -> None:
    seen: set[str] = set()
    positions = 0
    for state in _positions():
        seat = state.current_player
        assert seat is not None
        for advice in advise(state, seat, ONE, seed=positions):
            _check_parts(advice.reason_parts)
            assert advice.reason == render_reason(advice.reason_parts)
            seen.update(part.key for part in advice.reason_parts)
        positions += 1
    assert positions > 40
    for make, move, _ in FIXED:
        parts = _advice_for(make(), move).reason_parts
        _check_parts(parts)
        seen.update(part.key for part in parts)
    # The walk and the fixed positions reach every key the advisor's source names.
    assert seen == _source_keys() - {SEPARATOR_KEY}
