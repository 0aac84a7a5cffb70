"""Round scores, the closer's doubling, totals and the end of the game."""

from __future__ import annotations

from cardtable.core import Event
from cardtable.skyjo import DiscardAndReveal, DrawFromDeck, RoundEnded, SkyjoState

from .helpers import build, grid, of_type, play


def score_round(
    closer: str, other: str, totals: list[int] | None = None, **options: object
) -> tuple[SkyjoState, RoundEnded]:
    """Seat 0 ends the round by turning up position 8; seat 1 then turns up its position 8.

    Grids hold one column (the others were removed) so the sums are easy to read.
    """
    state = build(
        [grid(closer), grid(other)],
        draw_top=[12, 12],
        totals=totals,
        **options,  # type: ignore[arg-type]
    )
    events: list[Event] = play(
        state, DrawFromDeck(), DiscardAndReveal(8), DrawFromDeck(), DiscardAndReveal(8)
    )
    (ended,) = of_type(events, RoundEnded)
    return state, ended


def column(top: int, middle: int, hidden: int) -> str:
    return f"{top} . . .  {middle} . . .  *{hidden} . . ."


def test_closer_doubled_on_a_tie() -> None:
    state, ended = score_round(column(3, 2, 0), column(4, 1, 0))  # 5 against 5
    assert ended.points == (10, 5) and ended.doubled
    assert state.totals == [10, 5]
    assert state.rounds()[0].winners == (1,)


def test_closer_doubled_when_higher() -> None:
    _, ended = score_round(column(9, 2, 0), column(4, 1, 0))  # 11 against 5
    assert ended.points == (22, 5) and ended.doubled


def test_closer_not_doubled_when_strictly_lowest() -> None:
    state, ended = score_round(column(3, 2, 0), column(4, 1, 1))  # 5 against 6
    assert ended.points == (5, 6) and not ended.doubled
    assert state.rounds()[0].winners == (0,)


def test_closer_never_doubled_at_zero() -> None:
    _, ended = score_round(column(2, -2, 0), column(0, -1, 0))  # 0 against -1
    assert ended.points == (0, -1) and not ended.doubled


def test_closer_never_doubled_when_negative() -> None:
    _, ended = score_round(column(-2, -1, 0), column(-2, -2, -1))  # -3 against -5
    assert ended.points == (-3, -5) and not ended.doubled


def test_doubling_option_off() -> None:
    _, ended = score_round(column(9, 2, 0), column(4, 1, 0), closer_doubling=False)
    assert ended.points == (11, 5) and not ended.doubled


def test_negative_round_scores_lower_the_totals() -> None:
    state, ended = score_round(column(-2, -1, 0), column(-2, -2, -1), totals=[2, 3])
    assert ended.totals == (-1, -2)
    assert state.totals == [-1, -2]


def test_game_ends_at_100_and_lowest_total_wins() -> None:
    state, _ = score_round(column(3, 2, 0), column(4, 1, 1), totals=[90, 95])  # +5, +6
    assert state.is_over
    result = state.result()
    assert result is not None
    assert result.scores == (95, 101) and result.winners == (0,)


def test_game_goes_on_below_the_end_score() -> None:
    state, _ = score_round(column(3, 2, 0), column(4, 1, 1), totals=[90, 93])  # 95, 99
    assert not state.is_over and state.round == 2 and state.result() is None


def test_tied_lowest_totals_share_the_win() -> None:
    state, _ = score_round(column(3, 2, 0), column(4, 1, 0), totals=[95, 100])  # +10, +5
    result = state.result()
    assert result is not None
    assert result.scores == (105, 105) and result.winners == (0, 1)


def test_end_score_option() -> None:
    state, _ = score_round(column(3, 2, 0), column(4, 1, 1), end_score=6)  # 5, 6
    assert state.is_over
