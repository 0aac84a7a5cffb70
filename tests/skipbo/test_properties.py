"""Property tests over random play: conservation, refusals, round trips, hidden cards."""

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.core import IllegalMoveError, Rng
from cardtable.skipbo import GAME, SkipBoRules
from cardtable.skipbo.cards import deck_counts

from .helpers import random_play

rules_strategy = st.one_of(
    st.builds(
        SkipBoRules,
        players=st.integers(2, 6),
        stock_size=st.sampled_from([5, 8, 12]),
        rounds=st.booleans(),
        target=st.sampled_from([30, 100]),
    ),
    st.builds(
        SkipBoRules,
        players=st.sampled_from([4, 6]),
        teams=st.just(True),
        discard_to_partner=st.booleans(),
        stock_size=st.sampled_from([5, 10]),
    ),
)


@settings(max_examples=40, deadline=None)
@given(rules_strategy, st.integers(0, 2**32), st.integers(0, 300))
def test_every_card_is_in_exactly_one_place(rules: SkipBoRules, seed: int, moves: int) -> None:
    state = random_play(rules, seed, moves)
    assert state.census() == deck_counts()
    assert sum(state.census().values()) == 162


@settings(max_examples=40, deadline=None)
@given(rules_strategy, st.integers(0, 2**32), st.integers(0, 300), st.integers(0, 196))
def test_illegal_moves_leave_the_state_unchanged(
    rules: SkipBoRules, seed: int, moves: int, action: int
) -> None:
    state = random_play(rules, seed, moves)
    if action in state.legal_actions():
        return
    before = state.to_json()
    try:
        state.apply_action(action)
    except IllegalMoveError as error:
        assert error.reason
    else:
        raise AssertionError(f"illegal action {action} accepted")
    assert state.to_json() == before


@settings(max_examples=30, deadline=None)
@given(rules_strategy, st.integers(0, 2**32), st.integers(0, 300))
def test_snapshot_and_replay_round_trip(rules: SkipBoRules, seed: int, moves: int) -> None:
    state = random_play(rules, seed, moves)
    restored = GAME.state_from_json(json.loads(json.dumps(state.to_json())))
    assert restored == state
    assert GAME.replay(state.rules, state.seed, state.history) == state
    # The restored state plays on exactly like the original.
    rng_a, rng_b = Rng(7), Rng(7)
    for _ in range(20):
        if state.is_over:
            break
        legal = state.legal_actions()
        assert restored.legal_actions() == legal
        choice = legal[rng_a.below(len(legal))]
        assert choice == legal[rng_b.below(len(legal))]
        state.apply_action(choice)
        restored.apply_action(choice)
    assert restored == state


@settings(max_examples=30, deadline=None)
@given(rules_strategy, st.integers(0, 2**32), st.integers(0, 300))
def test_views_do_not_change_when_hidden_cards_are_redealt(
    rules: SkipBoRules, seed: int, moves: int
) -> None:
    state = random_play(rules, seed, moves)
    for seat in (None, *range(rules.players)):
        other = state.determinize(seat, Rng(seed + 1))
        assert other.view(seat) == state.view(seat)
        assert other.census() == deck_counts()


def test_determinize_really_redeals_what_is_hidden() -> None:
    state = random_play(SkipBoRules(players=2), 5, 10)
    seat = state.current
    other = state.determinize(seat, Rng(99))
    assert other.hand_cards(seat) == state.hand_cards(seat)
    assert other.draw != state.draw
    assert [s[:-1] for s in other.stocks] != [s[:-1] for s in state.stocks]
    assert [s[-1] for s in other.stocks] == [s[-1] for s in state.stocks]
