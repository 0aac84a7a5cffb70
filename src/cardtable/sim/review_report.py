"""Printing a post-game review (``cardtable review``): rich tables or plain lines."""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.table import Table

from ..bots.review import Review, ReviewedMove, amount_text, cost_text, value_text


def counted(count: int, one: str, other: str) -> str:
    """``count`` with its noun, by English's CLDR rule (the report is English only)."""
    return f"{count} {one if count == 1 else other}"


def review_heading(title: str, review: Review, player: str | None) -> list[str]:
    who = f"seat {review.seat}" + (f" ({player})" if player else "")
    lines = [
        f"{title} review of {who}: "
        f"{counted(review.decisions, 'decision', 'decisions')} with a choice, "
        f"{review.reviewed} reviewed "
        f"({counted(review.iterations, 'advisor re-deal', 'advisor re-deals')} each, "
        f"{review.confirm} to confirm a loss)",
    ]
    if review.moves:
        unit = " of win chance" if review.measure == "win_chance" else ""
        lines.append(
            f"Best move played: {review.best_moves} of {review.reviewed}. "
            f"Total cost: {amount_text(review.measure, review.total_cost)}{unit}, "
            f"{amount_text(review.measure, review.average_cost)} per decision."
        )
    return lines


def move_lines(review: Review, move: ReviewedMove) -> list[str]:
    """One reviewed decision in words (plain output)."""
    head = f"Move {move.number} (round {move.round}): {move.played}"
    if move.cost == 0.0:
        return [f"{head}: the best move ({value_text(review.measure, move.played_value)})"]
    return [
        f"{head}: this move cost you {cost_text(review.measure, move.cost)} "
        f"({value_text(review.measure, move.played_value)})",
        f"    better: {move.best} ({value_text(review.measure, move.best_value)}): {move.reason}",
    ]


def print_review(
    console: Console,
    title: str,
    review: Review,
    player: str | None = None,
    worst: int = 5,
    every: bool = False,
    plain: bool = False,
) -> None:
    lines = review_heading(title, review, player)
    shown = review.moves if every else review.worst(worst)
    if plain:
        for line in lines:
            print(line)
        if not every:
            print(f"Worst moves: {len(shown)}" if shown else "No move cost anything.")
        for move in shown:
            for line in move_lines(review, move):
                print(line)
        return
    console.print(f"[bold]{lines[0]}[/bold]")
    for line in lines[1:]:
        console.print(line)
    if not shown:
        console.print("No move cost anything." if review.moves else "Nothing to review.")
        return
    console.print(_table(review, shown, "Every reviewed decision" if every else "Worst moves"))


def _table(review: Review, moves: Sequence[ReviewedMove], title: str) -> Table:
    table = Table(title=title, title_justify="left")
    table.add_column("Move", justify="right")
    table.add_column("Played")
    table.add_column("Cost", justify="right")
    table.add_column("Better move")
    table.add_column("Why")
    for move in moves:
        best = move.cost == 0.0
        table.add_row(
            str(move.number),
            move.played,
            "best" if best else amount_text(review.measure, move.cost),
            "" if best else move.best,
            "" if best else move.reason,
        )
    return table
