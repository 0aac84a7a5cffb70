"""The fitted Skip-Bo position value the expert's rollouts can add at their horizon."""

from __future__ import annotations

from cardtable.bots import skipbo_value
from cardtable.bots.skipbo_value import (
    FEATURES,
    WIN,
    WIN_FEATURES,
    features,
    stock_cards_to_come,
    win_chance,
    win_features,
)
from cardtable.games import get_game
from cardtable.skipbo.state import SkipBoState


def _deal(seed: int = 3) -> SkipBoState:
    game = get_game("skipbo")
    state = game.new_state(game.rules_from_json({"stock_size": 10}), seed)
    assert isinstance(state, SkipBoState)
    return state


def test_one_weight_per_feature_and_an_intercept() -> None:
    state = _deal()
    assert len(features(state, 0)) == len(FEATURES)
    assert len(skipbo_value.MOVER) == len(skipbo_value.OTHER) == len(FEATURES) + 1


def test_the_stock_top_and_the_bridge_are_read_from_the_building_piles() -> None:
    state = _deal()
    seat = state.current
    state.building = [[], [], [], []]
    state.stocks[seat][-1] = 1  # fits an empty building pile now
    hot = features(state, seat)
    assert hot[FEATURES.index("top fits")] == 1.0
    assert hot[FEATURES.index("bridge short 0")] == 0.0  # nothing to bridge
    # A 4 over empty piles needs 1, 2 and 3: held numbers and Skip-Bo cards bridge it.
    state.stocks[seat][-1] = 4
    state.hands[seat] = [1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]  # a Skip-Bo card and a 2
    state.hand_sizes[seat] = 2
    state.discards[seat] = [[3], [], [], []]
    bridged = features(state, seat)
    assert bridged[FEATURES.index("top gap 3")] == 1.0
    assert bridged[FEATURES.index("bridge short 0")] == 1.0
    assert bridged[FEATURES.index("wilds in hand")] == 1.0
    state.discards[seat] = [[], [], [], []]
    assert features(state, seat)[FEATURES.index("bridge short 1")] == 1.0
    # The fitted value prefers the bridged position.
    state.discards[seat] = [[3], [], [], []]
    bridged_value = stock_cards_to_come(state, seat)
    state.discards[seat] = [[], [], [], []]
    assert bridged_value > stock_cards_to_come(state, seat)


def test_the_two_seats_win_chances_add_up_to_one() -> None:
    state = _deal()
    assert len(WIN) == len(WIN_FEATURES) == len(win_features(state, 0))
    assert win_features(state, 1) == [-f for f in win_features(state, 0)]
    assert abs(win_chance(state, 0) + win_chance(state, 1) - 1.0) < 1e-12


def test_a_card_of_lead_is_worth_more_as_the_stocks_run_down() -> None:
    state = _deal()
    seat = state.current
    other = 1 - seat
    level = win_chance(state, seat)
    state.stocks[other].append(state.stocks[other][-1])  # one card behind: the seat leads
    ahead_early = win_chance(state, seat)
    assert ahead_early > level
    del state.stocks[seat][:-2]
    del state.stocks[other][:-3]
    late_level = win_chance(state, seat)  # still one card ahead, with 2 against 3
    assert late_level > ahead_early
    state.stocks[other].pop()  # level at 2 each: the lead is gone
    assert win_chance(state, seat) < late_level
