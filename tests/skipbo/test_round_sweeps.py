"""Every finished round has a rightful end, and every game and match ends.

A round may end in exactly three ways: its winners emptied their stocks; it is blocked
in a state where nothing can be drawn and no seat holds a card that fits a building pile
(then nothing can ever be built again: tested here from random blocked positions); or a
documented house rule (``idle_limit``, ``turn_limit``) stopped it.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.bots import make_bot
from cardtable.core import Rng
from cardtable.skipbo import GAME, RoundEnded, SkipBoRules, SkipBoState, StockEmptied
from cardtable.skipbo.moves import DISCARD_BASE

from .helpers import position

BOTS = {name: make_bot("skipbo", name) for name in ("random", "greedy", "hard")}

#: Every kind of table: 2 to 6 players, teams, stocks from 5 to the largest, matches.
RULE_SETS = [
    SkipBoRules(players=2),
    SkipBoRules(players=2, stock_size=5),
    SkipBoRules(players=3, stock_size=12),
    SkipBoRules(players=4, stock_size=30),
    SkipBoRules(players=5, stock_size=27),
    SkipBoRules(players=6, stock_size=22),
    SkipBoRules(players=6),
    SkipBoRules(players=4, teams=True, stock_size=10),
    SkipBoRules(players=6, teams=True, stock_size=5, discard_to_partner=True),
    SkipBoRules(players=2, stock_size=5, rounds=True, target=150),
    SkipBoRules(players=3, stock_size=6, rounds=True, target=100, high_card_deal=True),
    SkipBoRules(players=4, teams=True, stock_size=5, rounds=True, target=60, points_per_card=1),
]
#: Safeguards low enough that the sweeps meet them too.
TIGHT = [
    SkipBoRules(players=4, stock_size=10, rounds=True, target=300, idle_limit=2, blocked_limit=2),
    SkipBoRules(players=3, stock_size=20, rounds=True, target=300, turn_limit=100),
]


def check_round_end(before: SkipBoState, action: int, ended: RoundEnded, emptied: set[int]) -> None:
    """``ended`` followed ``action`` from ``before``: its reason must hold there."""
    rules = before.rules
    if ended.winners:
        assert ended.reason == "stock emptied" and not ended.blocked
        for seat in ended.winners:
            assert seat in emptied or not before.stocks[seat], "a winner still holds stock"
        assert set(ended.winners) == set(rules.team(ended.winners[0]))
        return
    assert ended.blocked
    # Play the same move in a one-round copy, which stops where the round ended.
    probe = before.clone()
    probe.rules = rules.replace(rounds=False)
    probe.apply_action(action)
    assert probe.is_over
    if ended.reason == "no card fits":
        assert not probe.draw and not probe.completed
        assert not probe.any_card_fits()
    elif ended.reason == "idle limit":
        assert not probe.draw and not probe.completed
        assert probe.idle == rules.idle_limit
    else:
        assert ended.reason == "turn limit" and probe.turns >= rules.turn_limit


def play_checked(
    rules: SkipBoRules, seed: int, seats: list[str], budget: int = 400_000
) -> tuple[SkipBoState, Counter[str]]:
    """The game of ``seed`` played to its end, every round's end checked; with how many
    rounds ended for each reason."""
    reasons: Counter[str] = Counter()
    state = GAME.new_state(rules, seed)
    rng = Rng(seed)
    moves = 0
    while not state.is_over:
        assert moves < budget, f"seed {seed}: the game did not end in {budget} moves"
        action = BOTS[seats[state.current]].choose(state, rng)
        before = state.clone()
        outcome = state.apply_action(action)
        moves += 1
        emptied = {e.owner for e in outcome.events if isinstance(e, StockEmptied)}
        for event in outcome.events:
            if isinstance(event, RoundEnded):
                check_round_end(before, action, event, emptied)
                reasons[event.reason] += 1
    result = state.result()
    assert result is not None
    if rules.rounds and not result.blocked:
        assert max(result.scores) >= rules.target
    if rules.rounds and result.blocked:
        assert state.blocked_run() == rules.blocked_limit
    return state, reasons


@pytest.mark.parametrize("rules", RULE_SETS, ids=lambda rules: str(rules.to_json()))
@pytest.mark.parametrize("level", ["random", "greedy", "hard"])
def test_every_round_ends_rightfully_and_every_game_ends(rules: SkipBoRules, level: str) -> None:
    games = 3 if level == "hard" else 4
    for seed in range(games):
        play_checked(rules, seed, [level] * rules.players)


def test_mixed_tables_and_tight_safeguards_end_rightfully() -> None:
    reasons: Counter[str] = Counter()
    for rules in TIGHT:
        for seed in range(4):
            seats = ["random"] * rules.players
            reasons += play_checked(rules, seed, seats)[1]
    # Every way a round can end blocked was met, and checked.
    assert {"no card fits", "idle limit", "turn limit"} <= set(reasons)


def test_a_player_that_builds_wins_its_games_against_random() -> None:
    # Random players bury fitting cards until nothing fits; a player that builds does not.
    won = 0
    for seed in range(20):
        result = play_checked(SkipBoRules(players=2), seed, ["random", "greedy"])[0].result()
        assert result is not None
        won += bool(result.winners)
    assert won == 20


# --- A blocked position stays blocked ---------------------------------------------------


@st.composite
def blocked_positions(draw: st.DrawFn) -> SkipBoState:
    """A position with nothing to draw in which no seat holds a card that fits a pile."""
    players = draw(st.integers(2, 4))
    heights = draw(st.lists(st.integers(0, 11), min_size=4, max_size=4))
    building = [list(range(1, height + 1)) for height in heights]
    wanted = {height + 1 for height in heights}
    misfits = st.sampled_from([card for card in range(1, 13) if card not in wanted])
    hands = {seat: draw(st.lists(misfits, max_size=5)) for seat in range(players)}
    stocks = {seat: draw(st.lists(misfits, min_size=1, max_size=3)) for seat in range(players)}
    discards = {
        seat: [draw(st.lists(misfits, max_size=3)) for _ in range(4)] for seat in range(players)
    }
    rules = SkipBoRules(players=players, stock_size=5, edition=1, turn_limit=1_000_000)
    try:
        return position(
            rules,
            hands=hands,
            stocks=stocks,
            discards=discards,
            building=building,
            draw=[],
            completed=[],
        )
    except ValueError:  # more of one card than the deck holds
        return draw(st.nothing())


@settings(max_examples=150, deadline=None)
@given(blocked_positions(), st.lists(st.integers(0, 10_000), min_size=1, max_size=120))
def test_from_a_blocked_position_no_sequence_of_moves_ever_builds(
    state: SkipBoState, choices: list[int]
) -> None:
    # Edition 1 has no blocked check of its own, so the position can be followed on; its
    # idle count is reset each move to keep the round open however long the sequence.
    assert not state.any_card_fits()
    for choice in choices:
        legal = state.legal_actions()
        assert all(action >= DISCARD_BASE for action in legal), "a build became legal"
        state.idle = 0
        state.apply_action(legal[choice % len(legal)])
        assert not state.is_over
        assert not state.draw and not state.completed
        assert not state.any_card_fits()


@settings(max_examples=60, deadline=None)
@given(blocked_positions(), st.integers(0, 10_000))
def test_under_the_current_edition_a_blocked_position_ends_on_the_next_move(
    state: SkipBoState, choice: int
) -> None:
    state.rules = state.rules.replace(edition=2)
    legal = state.legal_actions()
    outcome = state.apply_action(legal[choice % len(legal)])
    ended = [event for event in outcome.events if isinstance(event, RoundEnded)]
    assert ended and ended[0].reason == "no card fits" and ended[0].blocked
    result = state.result()
    assert result is not None and result.winners == () and result.scores == (0,) * state.n
