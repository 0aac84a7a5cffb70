"""The engine benchmark's figures as a rich table (``cardtable bench GAME``'s output).

The only bench module that imports rich: the command line imports it only to print.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.table import Table

from ..sim.report import rules_summary
from .engine import BenchReport


def print_bench(
    console: Console, title: str, report: BenchReport, defaults: dict[str, Any]
) -> None:
    load = "" if report.load_average is None else f", load average {report.load_average:.2f}"
    console.print(f"[bold]{title}[/bold] on one core, Python {report.python}{load}")
    console.print(f"Rules: {rules_summary(report.rules, defaults)}")
    table = Table()
    table.add_column("Measurement")
    table.add_column("Count", justify="right")
    table.add_column("Seconds", justify="right")
    table.add_column("Per second", justify="right")
    table.add_column("Per CPU second", justify="right")
    table.add_column("Games/s", justify="right")
    for row in report.rows:
        games = row.games_per_second
        table.add_row(
            row.name,
            f"{row.count:,} {row.unit}",
            f"{row.seconds:.2f}",
            f"{row.per_second:,.0f}",
            f"{row.per_cpu_second:,.0f}",
            "" if games is None else f"{games:,.1f}",
        )
    console.print(table)
