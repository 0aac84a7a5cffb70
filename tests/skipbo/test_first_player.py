"""Who starts: drawn by lot, a chosen seat, or sheet 003's draw for the deal."""

import json

import pytest

from cardtable.core import OptionError
from cardtable.skipbo import GAME, PlayFromStock, SkipBoRules
from cardtable.skipbo.state import CUT_RANK, dealer_of

from .helpers import filler, position

CUT = SkipBoRules(players=4, high_card_deal=True)


def test_by_default_the_seed_draws_the_first_seat() -> None:
    starters = {GAME.new_state(SkipBoRules(players=4), seed).current for seed in range(40)}
    assert starters == {0, 1, 2, 3}
    assert (
        GAME.new_state(SkipBoRules(players=4), 9).current
        == GAME.new_state(SkipBoRules(players=4), 9).current
    )


def test_a_chosen_seat_starts() -> None:
    for seat in range(3):
        state = GAME.new_state(SkipBoRules(players=3, first_player=seat), 5)
        assert state.current == seat
        assert state.view(None)["dealer"] is None and state.view(None)["cut"] == []


def test_the_highest_card_deals_and_the_seat_on_its_left_starts() -> None:
    for seed in range(30):
        state = GAME.new_state(CUT, seed)
        first = state.cut[0]
        assert [seat for seat, _ in first] == [0, 1, 2, 3]  # everyone turns up a card
        dealer = dealer_of(state.cut)
        last = state.cut[-1]
        best = max(CUT_RANK[card] for _, card in last)
        assert [seat for seat, card in last if CUT_RANK[card] == best] == [dealer]
        assert state.current == (dealer + 1) % 4
        view = state.view(2)
        assert view["dealer"] == dealer
        assert view["cut"] == [[list(entry) for entry in draws] for draws in state.cut]


def test_a_skip_bo_card_is_the_highest_in_the_draw() -> None:
    assert CUT_RANK[0] > max(CUT_RANK[1:])
    assert dealer_of([[(0, 12), (1, 0), (2, 11)]]) == 1


def test_seats_tied_for_the_highest_turn_up_again() -> None:
    tied = next(state for seed in range(2000) if len((state := GAME.new_state(CUT, seed)).cut) > 1)
    for earlier, later in zip(tied.cut, tied.cut[1:], strict=False):
        best = max(CUT_RANK[card] for _, card in earlier)
        again = [seat for seat, card in earlier if CUT_RANK[card] == best]
        assert len(again) > 1
        assert [seat for seat, _ in later] == again


def test_the_deal_moves_clockwise_each_round() -> None:
    rules = SkipBoRules(players=3, rounds=True, target=500, stock_size=10, high_card_deal=True)
    state = position(
        rules,
        current=1,
        hands={1: [5, 5, 5, 5, 5]},
        stocks={0: filler(10), 1: [1], 2: filler(9)},
        starter=1,
    )
    assert state.view(None)["dealer"] == 0
    state.apply(PlayFromStock(0))
    assert state.round_index == 1
    assert state.current == 2
    assert state.view(None)["dealer"] == 1


def test_the_draw_for_the_deal_is_part_of_the_snapshot_and_the_replay() -> None:
    state = GAME.new_state(CUT, 11)
    restored = GAME.state_from_json(json.loads(json.dumps(state.to_json())))
    assert restored.cut == state.cut and restored == state
    assert GAME.replay(CUT, 11, []) == state


def test_a_draw_for_the_deal_with_a_chosen_seat_is_refused() -> None:
    with pytest.raises(OptionError) as caught:
        SkipBoRules(players=4, first_player=2, high_card_deal=True)
    assert caught.value.field == "high_card_deal"
    assert "first_player=null" in str(caught.value)
