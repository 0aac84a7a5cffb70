"""Property tests over random positions reached by random play."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.core import IllegalMoveError, Rng, play_random
from cardtable.skyjo import GAME, SkyjoRules, SkyjoState

from .helpers import face_down

RULES = st.builds(
    SkyjoRules,
    players=st.integers(2, 8),
    end_score=st.sampled_from([1, 30, 100]),
    rows_rule=st.booleans(),
    closer_starts_next=st.booleans(),
    closer_doubling=st.booleans(),
)
SETTINGS = settings(max_examples=40, deadline=None)


def random_play(rules: SkyjoRules, seed: int, steps: int) -> SkyjoState:
    state = GAME.new_state(rules, seed)
    play_random(state, Rng(seed + 1), steps)
    return state


positions = st.builds(random_play, RULES, st.integers(0, 2**32), st.integers(0, 400))


@SETTINGS
@given(RULES, st.integers(0, 2**32))
def test_always_150_cards(rules: SkyjoRules, seed: int) -> None:
    state = GAME.new_state(rules, seed)
    policy = Rng(seed)
    deck = GAME.deck(rules)
    for _ in range(300):
        assert state.census() == deck
        assert sum(state.census().values()) == 150
        if state.is_over:
            break
        legal = state.legal_actions()
        state.apply_action(legal[policy.below(len(legal))])


@SETTINGS
@given(positions)
def test_illegal_moves_change_nothing(state: SkyjoState) -> None:
    before = state.to_json()
    legal = set(state.legal_actions())
    for action in range(GAME.num_actions):
        if action in legal:
            continue
        with pytest.raises(IllegalMoveError) as error:
            state.apply_action(action)
        assert error.value.reason
        with pytest.raises(IllegalMoveError):
            state.apply(GAME.decode(action))
        assert state.to_json() == before


@SETTINGS
@given(positions)
def test_serialization_and_replay_round_trip(state: SkyjoState) -> None:
    text = json.dumps(state.to_json())
    restored = GAME.state_from_json(json.loads(text))
    assert restored == state and restored.to_json() == state.to_json()
    assert GAME.replay(state.rules, state.seed, state.history) == state
    clone = state.clone()
    assert clone == state
    if not clone.is_over:
        clone.apply_action(clone.legal_actions()[0])
        assert state.to_json() == json.loads(text)
        # the restored copy goes on exactly like the original
        restored.apply_action(restored.legal_actions()[0])
        assert restored == clone


@SETTINGS
@given(positions)
def test_views_never_show_a_face_down_card(state: SkyjoState) -> None:
    for seat in (None, *range(state.num_players)):
        view = state.view(seat)
        for owner in range(state.num_players):
            for pos in face_down(state, owner):
                assert view["grids"][owner][pos] is None
                assert view["status"][owner][pos] == "down"
        assert "draw" not in view


@SETTINGS
@given(positions, st.integers(0, 2**32))
def test_determinize_conserves_cards_and_keeps_what_is_seen(state: SkyjoState, seed: int) -> None:
    for seat in (None, *range(state.num_players)):
        other = state.determinize(seat, Rng(seed))
        assert other.census() == GAME.deck(state.rules)
        assert other.view(seat) == state.view(seat)
        assert other.legal_actions() == state.legal_actions()
        assert sorted(other.draw) == sorted(state.draw) or not state.reshuffled
