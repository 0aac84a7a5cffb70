"""The move advisor ranks every legal move; a move that wins at once comes first."""

from __future__ import annotations

from cardtable.bots.advisor import advise
from cardtable.bots.montecarlo import Budget
from cardtable.core import Rng
from cardtable.skyjo import GAME as SKYJO
from cardtable.skyjo import SkyjoRules

from ..skipbo.helpers import position

FEW = Budget(iterations=3, milliseconds=None)


def test_skipbo_immediate_win_ranks_first() -> None:
    # The last stock card (a 4) fits the pile 1-2-3: playing it wins the round.
    state = position(
        hands={0: [0, 3, 5, 7, 9]},
        stocks={0: [4], 1: [6, 6, 6]},
        building=[[1, 2, 3], [], [], []],
    )
    advice = advise(state, 0, FEW)
    assert sorted(a.action for a in advice) == sorted(state.legal_actions())
    best = advice[0]
    assert str(best.move) == "play stock to building pile 1"
    assert best.value == 1.0 and best.reason == "wins the round now"
    assert all(0.0 <= a.value <= 1.0 and a.reason for a in advice)


def test_skyjo_ranks_every_move_by_expected_points() -> None:
    state = SKYJO.new_state(SkyjoRules(players=3), 3)
    rng = Rng(0)
    while state.phase != 1:  # through set-up to the first turn
        legal = state.legal_actions()
        state.apply_action(legal[rng.below(len(legal))])
    state.apply_action(0)  # draw: now exchange or discard-and-reveal
    seat = state.current_player
    assert seat is not None
    advice = advise(state, seat, FEW)
    assert sorted(a.action for a in advice) == sorted(state.legal_actions())
    values = [a.value for a in advice]
    assert values == sorted(values)
    assert all(a.reason for a in advice)


def test_advice_depends_only_on_what_the_seat_sees() -> None:
    # Re-dealing every card the seat cannot see must not change a single figure.
    from cardtable.core import play_random
    from cardtable.skipbo import GAME as SKIPBO
    from cardtable.skipbo import SkipBoRules

    for game, rules in ((SKIPBO, SkipBoRules(players=3, stock_size=10)), (SKYJO, SkyjoRules())):
        state = game.new_state(rules, 11)
        play_random(state, Rng(11), 30)
        seat = state.current_player
        assert seat is not None
        redealt = state.determinize(seat, Rng(99))
        assert redealt.to_json() != state.to_json()
        assert advise(redealt, seat, FEW) == advise(state, seat, FEW)
