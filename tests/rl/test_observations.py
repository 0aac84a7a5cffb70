"""Observations carry exactly the seat's view: re-dealing hidden cards changes nothing.

The environments encode from the state's public fields (``encode_state``); the
reference encodes ``state.view(seat)`` (``encode``). Both are tested for leaks, and
they must agree on every position tried.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from cardtable.bots import make_bot
from cardtable.core import GameState, Rng
from cardtable.encoders.skipbo_obs import SkipBoEncoder
from cardtable.encoders.skyjo_obs import SkyjoEncoder
from cardtable.games import get_game
from cardtable.rl.common import action_mask, make_encoder, observation, view_observation
from cardtable.skyjo.state import SkyjoState

CASES = [
    ("skyjo", {"players": 2}),
    ("skyjo", {"players": 4, "rows_rule": True, "end_score": 30}),
    ("skipbo", {"players": 2, "stock_size": 5}),
    ("skipbo", {"players": 4, "teams": True, "discard_to_partner": True, "stock_size": 5}),
    ("skipbo", {"players": 3, "rounds": True, "target": 40, "stock_size": 5}),
]


def positions(game_name: str, options: dict[str, Any], seed: int, limit: int = 400):
    """States along a game of greedy bots (random for variety every third move)."""
    game = get_game(game_name)
    rules = game.rules_from_json(options)
    state = game.new_state(rules, seed)
    greedy, rnd = make_bot(game_name, "greedy"), make_bot(game_name, "random")
    rng = Rng(seed)
    for index in range(limit):
        yield state
        if state.is_over:
            return
        bot = rnd if index % 3 == 0 else greedy
        state.apply_action(bot.choose(state, rng))


@pytest.mark.parametrize("encode", [observation, view_observation], ids=["state", "view"])
@pytest.mark.parametrize(("game_name", "options"), CASES)
def test_observation_unchanged_when_hidden_cards_are_redealt(game_name, options, encode) -> None:
    game = get_game(game_name)
    encoder = make_encoder(game_name, game.rules_from_json(options))
    rng = Rng(99)
    checked = 0
    for state in positions(game_name, options, seed=7):
        for seat in range(state.num_players):
            mine = encode(encoder, state, seat)
            for _ in range(2):
                other: GameState[Any] = state.determinize(seat, rng)
                np.testing.assert_array_equal(encode(encoder, other, seat), mine)
            checked += 1
    assert checked > 50


FAST_CASES = [
    *CASES,
    # 8 seats empty the draw pile: reshuffles (see the next test)
    ("skyjo", {"players": 8, "closer_starts_next": True, "closer_doubling": False}),
    ("skyjo", {"players": 2, "rows_rule": True, "end_score": 1}),
    ("skipbo", {"players": 6, "teams": True, "stock_size": 8}),
    ("skipbo", {"players": 2}),  # full 30-card stocks, long discard piles
    ("skipbo", {"players": 5, "rounds": True, "target": 100, "stock_size": 5}),
]


@pytest.mark.parametrize(("game_name", "options"), FAST_CASES)
def test_state_encoder_equals_the_view_encoder(game_name, options) -> None:
    """``encode_state`` gives exactly ``encode(state.view(seat))``, for every seat."""
    game = get_game(game_name)
    encoder = make_encoder(game_name, game.rules_from_json(options))
    checked = 0
    for seed in range(2):
        for state in positions(game_name, options, seed=seed, limit=350):
            for seat in range(state.num_players):
                fast = encoder.encode_state(state, seat)
                assert fast.dtype == np.float32 and fast.shape == (encoder.size,)
                reference = encoder.encode(state.view(seat))
                if not np.array_equal(fast, reference):  # pragma: no cover - diagnostics
                    slow, quick = encoder.layout.split(reference), encoder.layout.split(fast)
                    wrong = [name for name in slow if not np.array_equal(slow[name], quick[name])]
                    pytest.fail(f"fields differ at seed {seed}, seat {seat}: {wrong}")
                checked += 1
    assert checked > 100


def test_state_encoder_covers_the_rare_skyjo_fields() -> None:
    """The positions compared above include a reshuffle, removed lines, a closer."""
    seen = {"reshuffled": False, "closer": False, "removed": False, "taken": False}
    for game_name, options in FAST_CASES:
        if game_name != "skyjo":
            continue
        for seed in range(2):
            for state in positions(game_name, options, seed=seed, limit=350):
                seen["reshuffled"] |= state.reshuffled
                seen["closer"] |= state.closer is not None
                seen["removed"] |= any(p != 0xFFF for p in state.present)
                seen["taken"] |= state.phase == 3
    assert all(seen.values()), seen


def test_state_encoders_return_fresh_writable_arrays() -> None:
    for game_name, options in (("skyjo", {"players": 2}), ("skipbo", {"players": 2})):
        game = get_game(game_name)
        encoder = make_encoder(game_name, game.rules_from_json(options))
        state = game.new_state(encoder.rules, 1)  # type: ignore[attr-defined]
        first = encoder.encode_state(state, 0)
        second = encoder.encode_state(state, 0)
        assert first.flags.writeable and not np.shares_memory(first, second)
        first[:] = 99
        np.testing.assert_array_equal(second, encoder.encode(state.view(0)))


@pytest.mark.parametrize(("game_name", "options"), CASES)
def test_observation_fits_its_space_and_shape(game_name, options) -> None:
    game = get_game(game_name)
    encoder = make_encoder(game_name, game.rules_from_json(options))
    low, high = encoder.layout.bounds()
    for state in positions(game_name, options, seed=3):
        for seat in range(state.num_players):
            obs = observation(encoder, state, seat)
            assert obs.dtype == np.float32 and obs.shape == (encoder.size,)
            assert np.all(obs >= low) and np.all(obs <= high), encoder.layout.split(obs)


def test_redeal_does_change_hidden_cards() -> None:
    """The leak test is not vacuous: determinize really moves face-down cards."""
    game = get_game("skyjo")
    state = game.new_state(game.rules_from_json({"players": 2}), 5)
    other = state.determinize(0, Rng(1))
    assert (
        other.to_json()["grids"] != state.to_json()["grids"] or other.to_json() != state.to_json()
    )


def test_skyjo_fields_match_the_view() -> None:
    for state in positions("skyjo", {"players": 3}, seed=11, limit=150):
        rules = state.rules
        encoder = SkyjoEncoder(rules)  # type: ignore[arg-type]
        for seat in range(3):
            view = state.view(seat)
            fields = encoder.layout.split(encoder.encode(view))
            order = [(seat + k) % 3 for k in range(3)]
            grids = fields["grid_values"].reshape(3, 12)
            down = fields["grid_down"].reshape(3, 12)
            removed = fields["grid_removed"].reshape(3, 12)
            for k, owner in enumerate(order):
                for pos in range(12):
                    status = view["status"][owner][pos]
                    assert down[k, pos] == (status == "down")
                    assert removed[k, pos] == (status == "removed")
                    card = view["grids"][owner][pos]
                    assert grids[k, pos] == (0 if card is None else card)
            assert fields["totals"].tolist() == [view["totals"][o] for o in order]
            assert fields["draw_count"][0] == view["draw_count"]
            assert fields["discard_counts"].sum() == len(view["discard"])
            assert fields["held"][0] == (view["hand"] or 0)
            phase = ["setup", "turn", "drawn", "taken", "over"].index(view["phase"])
            assert fields["phase"].tolist() == [float(i == phase) for i in range(5)]
            if view["current_player"] is not None:
                assert fields["to_move"][(view["current_player"] - seat) % 3] == 1


def test_skipbo_fields_match_the_view() -> None:
    options = {"players": 4, "teams": True, "stock_size": 6}
    for state in positions("skipbo", options, seed=4, limit=300):
        encoder = SkipBoEncoder(state.rules)  # type: ignore[arg-type]
        for seat in range(4):
            view = state.view(seat)
            fields = encoder.layout.split(encoder.encode(view))
            order = [view["players"][(seat + k) % 4] for k in range(4)]
            hand = [view["hand"].count(card) for card in range(13)]
            assert fields["hand"].tolist() == hand
            assert fields["hand_sizes"].tolist() == [p["hand_size"] for p in order]
            assert fields["stock_sizes"].tolist() == [p["stock_size"] for p in order]
            tops = fields["stock_tops"].reshape(4, 14)
            for k, player in enumerate(order):
                top = player["stock_top"]
                assert tops[k].argmax() == (13 if top is None else top)
            assert fields["building_next"].tolist() == view["building_next"]
            assert fields["partner"][2] == 1  # partners sit opposite
            assert fields["draw_size"][0] == view["draw_size"]


def test_mask_is_the_engines_for_the_seat_to_move_only() -> None:
    for state in positions("skipbo", {"players": 2, "stock_size": 5}, seed=2, limit=60):
        if state.is_over:
            break
        current = state.current_player
        for seat in range(2):
            mask = action_mask(state, seat, 197)
            assert mask.dtype == np.int8
            expected = state.action_mask() if seat == current else [0] * 197
            assert mask.tolist() == expected


def test_skyjo_encoder_caches_follow_any_change_of_their_inputs() -> None:
    """One encoder fed positions of two games in turn, every seat, and states changed in
    place (the same lists, other contents): each vector equals the reference."""
    game = get_game("skyjo")
    rules = game.rules_from_json({"players": 3, "rows_rule": True})
    encoder = make_encoder("skyjo", rules)
    games = [game.new_state(rules, seed) for seed in (4, 5)]
    rng = Rng(9)
    for step in range(600):
        state = games[step % 2]
        for seat in (0, 2, 1):
            np.testing.assert_array_equal(
                encoder.encode_state(state, seat), encoder.encode(state.view(seat))
            )
        if state.is_over:
            games[step % 2] = state = game.new_state(rules, 100 + step)
        legal = state.legal_actions()
        state.advance(legal[rng.below(len(legal))])
    skyjo = games[0]
    assert isinstance(skyjo, SkyjoState)
    up = skyjo.present[1] & ~skyjo.down[1]
    assert up, "seat 1 has a face-up card"
    index = 12 + up.bit_length() - 1

    def replace_card(s: SkyjoState) -> None:
        s.cards[index] = 12 if s.cards[index] != 12 else -2

    before = encoder.encode_state(skyjo, 0)
    # In place, as no engine move does: a discarded card gone, a total changed, a
    # face-up card replaced. Each must show.
    for change in (
        lambda s: s.discard.pop(0),
        lambda s: s.totals.__setitem__(1, s.totals[1] + 7),
        replace_card,
    ):
        change(skyjo)
        after = encoder.encode_state(skyjo, 0)
        np.testing.assert_array_equal(after, encoder.encode(skyjo.view(0)))
        assert not np.array_equal(after, before)
        before = after


def test_skyjo_encoder_first_call_on_an_empty_discard_pile() -> None:
    game = get_game("skyjo")
    rules = game.rules_from_json({"players": 2})
    state = game.new_state(rules, 3)
    while state.legal_actions() != [0, 1]:  # set-up reveals until the first turn
        state.advance(state.legal_actions()[0])
    assert isinstance(state, SkyjoState) and len(state.discard) == 1
    state.advance(1)  # take the only card of the discard pile
    assert state.discard == []
    for seat in (0, 1):
        encoder = make_encoder("skyjo", rules)  # a fresh one: nothing cached
        np.testing.assert_array_equal(
            encoder.encode_state(state, seat), encoder.encode(state.view(seat))
        )
