"""End of a round: last turns, the final reveal, and the reshuffle of the discard pile."""

from __future__ import annotations

from cardtable.skyjo import (
    CardRevealed,
    ColumnRemoved,
    DiscardAndReveal,
    DrawFromDeck,
    Exchange,
    FinalTurns,
    GameEnded,
    Reshuffled,
    RoundDealt,
    RoundEnded,
    TakeDiscard,
)

from .helpers import build, face_down, grid, of_type, play

ALMOST_DONE = grid("""
    1   2   3   4
    5   6   7   8
    9  10  11  *0
""")
SOME_DOWN = grid("1 * * *  * 2 * *  * * * 3")


def test_every_other_player_gets_exactly_one_more_turn() -> None:
    state = build(
        [SOME_DOWN, ALMOST_DONE, SOME_DOWN], player=1, draw_top=[12, 12, 12], end_score=1000
    )
    events = play(state, DrawFromDeck(), DiscardAndReveal(11))
    assert of_type(events, FinalTurns) == [FinalTurns(1)]
    assert state.closer == 1 and state.current_player == 2
    play(state, DrawFromDeck(), DiscardAndReveal(1))
    assert state.current_player == 0  # seat 0 still plays its last turn
    events = play(state, TakeDiscard(), Exchange(0))
    # After seat 0 the turn would come back to the closer: the round is over.
    (ended,) = of_type(events, RoundEnded)
    assert ended.round == 1 and ended.closer == 1
    assert state.round == 2 and state.closer is None
    assert [r.turns for r in state.rounds()] == [3]
    assert of_type(events, RoundDealt)[0].round == 2
    assert state.phase == 0 and state.current_player == 0  # set-up of round 2
    assert all(len(face_down(state, seat)) == 12 for seat in range(3))


def test_the_final_reveal_turns_every_card_up() -> None:
    state = build([ALMOST_DONE, SOME_DOWN], draw_top=[12, 12])
    events = play(state, DrawFromDeck(), DiscardAndReveal(11), DrawFromDeck(), DiscardAndReveal(1))
    revealed_after_last_turn = [e for e in of_type(events, CardRevealed)[2:] if e.seat == 1]
    assert sorted(e.pos for e in revealed_after_last_turn) == [2, 3, 4, 6, 7, 8, 9, 10]
    assert of_type(events, RoundEnded)


def test_a_player_revealing_all_during_the_last_turns_does_not_become_the_closer() -> None:
    state = build([ALMOST_DONE, ALMOST_DONE], draw_top=[12, 12])
    events = play(state, DrawFromDeck(), DiscardAndReveal(11), DrawFromDeck(), DiscardAndReveal(11))
    assert of_type(events, FinalTurns) == [FinalTurns(0)]
    assert of_type(events, RoundEnded)[0].closer == 0


def test_the_column_rule_applies_at_the_final_reveal() -> None:
    closer = grid("""
        3   .   .   .
        2   .   .   .
       *0   .   .   .
    """)
    other = grid("""
        1   .   4   .
        2   .  *4   .
       *6   .  *4   .
    """)
    state = build([closer, other], draw_top=[12, 12], end_score=1000)
    events = play(state, DrawFromDeck(), DiscardAndReveal(8), DrawFromDeck(), DiscardAndReveal(8))
    assert of_type(events, ColumnRemoved) == [ColumnRemoved(1, 2, 4)]
    # 3 + 2 + 0 = 5 for the closer, 1 + 2 + 6 = 9 for the other (the 4s left).
    assert state.rounds()[0].points == (5, 9)


def test_reshuffle_keeps_the_top_discard() -> None:
    state = build([SOME_DOWN, SOME_DOWN], draw_size=0, discard=[1, 2, 3, 4, 9])
    assert state.draw == []
    under = sorted(state.discard[:-1])
    events = play(state, DrawFromDeck())
    (reshuffled,) = of_type(events, Reshuffled)
    assert reshuffled.count == len(under)
    assert state.discard == [9]
    assert state.hand is not None
    assert sorted([*state.draw, state.hand]) == under
    assert state.census() == state.game.deck(state.rules)
    assert state.view(0)["reshuffled"] is True


def test_the_game_ends_only_after_the_round() -> None:
    state = build([ALMOST_DONE, SOME_DOWN], draw_top=[12, 12], totals=[99, 0])
    events = play(state, DrawFromDeck(), DiscardAndReveal(11))
    assert not state.is_over
    events = play(state, DrawFromDeck(), DiscardAndReveal(1))
    assert state.is_over and state.current_player is None
    (ended,) = of_type(events, GameEnded)
    result = state.result()
    assert result is not None
    assert result.winners == ended.winners == (1,)
