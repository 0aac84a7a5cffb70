"""Rich tables for tournament and ladder results; the only sim module that imports rich."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from .stats import Estimate
from .tournament import TournamentResult


def _percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def _plus_minus(value: Estimate) -> str:
    return f"{value.mean:.2f} ± {value.stderr:.2f}"


def rules_summary(rules: dict[str, Any], defaults: dict[str, Any]) -> str:
    """The options that differ from the defaults, as ``name=value``; short to read."""
    changed = [f"{k}={_json_word(v)}" for k, v in rules.items() if defaults.get(k, v) != v]
    return ", ".join(changed) if changed else "defaults"


def _json_word(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def print_tournament(
    console: Console, title: str, result: TournamentResult, defaults: dict[str, Any]
) -> None:
    console.print(
        f"[bold]{title}[/bold]: {result.games} games, seed {result.seed}, "
        f"seats {', '.join(result.seat_bots)}"
    )
    console.print(f"Rules: {rules_summary(result.rules, defaults)}")
    table = Table(title=None)
    table.add_column("Bot")
    table.add_column("Seats")
    table.add_column("Wins", justify="right")
    table.add_column("Win rate", justify="right")
    table.add_column("95% CI", justify="right")
    if result.paired:
        # Games of one deal are not independent: the interval with deals as clusters.
        table.add_column("95% CI by deal", justify="right")
    table.add_column("Points/round ± se", justify="right")
    for bot in result.bots:
        by_deal = [f"{_percent(bot.win_rate_by_deal.low)}-{_percent(bot.win_rate_by_deal.high)}"]
        table.add_row(
            bot.name,
            ",".join(map(str, bot.seats)),
            f"{bot.wins}/{bot.games}",
            _percent(bot.win_rate.estimate),
            f"{_percent(bot.win_rate.low)}-{_percent(bot.win_rate.high)}",
            *(by_deal if result.paired else []),
            _plus_minus(bot.points_per_round_by_deal if result.paired else bot.points_per_round),
        )
    console.print(table)
    if result.paired:
        console.print(
            "95% CI by deal and ± se in a paired tournament: cluster-robust, each deal "
            "(its seat rotations) one cluster"
        )
    seats = ", ".join(f"{seat}: {wins}" for seat, wins in enumerate(result.wins_per_seat))
    console.print(f"Wins per seat: {seats}")
    console.print(
        f"Average game length: {result.moves.mean:.1f} moves, {result.turns.mean:.1f} turns"
    )
    console.print(
        f"Average rounds per game: {result.rounds.mean:.2f}; "
        f"blocked games: {result.blocked} of {result.games}; "
        f"blocked rounds: {result.blocked_rounds} of {result.total_rounds}"
    )


def print_ladder(console: Console, title: str, result: Any, defaults: dict[str, Any]) -> None:
    """A :class:`~cardtable.sim.ladder.LadderResult`: ratings, then every pair's score."""
    console.print(
        f"[bold]{title} ladder[/bold]: {result.games_per_pair} paired games per pair, "
        f"seed {result.seed}"
    )
    console.print(f"Rules: {rules_summary(result.rules, defaults)}")
    table = Table()
    table.add_column("Bot")
    table.add_column("Bradley-Terry rating (Elo scale)", justify="right")
    table.add_column("95% interval (deals as clusters)", justify="right")
    table.add_column("Wins", justify="right")
    for rating in result.ratings:
        anchored = rating.name == result.anchor
        table.add_row(
            rating.name,
            f"{rating.rating:+.0f}",
            "anchor, fixed at 0" if anchored else f"{rating.low:+.0f} to {rating.high:+.0f}",
            f"{rating.wins:g}/{rating.games}",
        )
    console.print(table)
    console.print(
        f"Ratings and intervals are relative to {result.anchor}, whose rating is fixed at 0."
    )
    for a, b, wins_a, wins_b in result.pairs:
        console.print(f"{a} vs {b}: {wins_a:g} - {wins_b:g}")
