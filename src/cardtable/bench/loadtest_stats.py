"""What the load test counts while it runs, and the latency figures made of it."""

from __future__ import annotations

import dataclasses
import sys
from collections import Counter
from typing import Any

#: Failures told on stderr as they happen; the report counts them all.
NOTES_SHOWN = 5


def percentile(values: list[float], fraction: float) -> float | None:
    """The nearest-rank percentile of ``values`` (None when empty)."""
    if not values:
        return None
    ordered = sorted(values)
    rank = max(1, min(len(ordered), int(-(-fraction * len(ordered) // 1))))
    return ordered[rank - 1]


def timeline(times: list[tuple[float, float]], start: float) -> list[dict[str, Any]]:
    """Per second of play: moves sent that second, their p50/p99/max mover latency (ms)."""
    seconds: dict[int, list[float]] = {}
    for sent, latency in times:
        seconds.setdefault(int(sent - start), []).append(latency)
    rows = []
    for second in sorted(seconds):
        summary = latency_summary(seconds[second])
        rows.append(
            {
                "second": second,
                "moves": summary["count"],
                "p50_ms": summary["p50_ms"],
                "p99_ms": summary["p99_ms"],
                "max_ms": summary["max_ms"],
            }
        )
    return rows


def latency_summary(seconds: list[float]) -> dict[str, float | int | None]:
    def ms(value: float | None) -> float | None:
        return None if value is None else round(value * 1000, 2)

    return {
        "count": len(seconds),
        "p50_ms": ms(percentile(seconds, 0.50)),
        "p95_ms": ms(percentile(seconds, 0.95)),
        "p99_ms": ms(percentile(seconds, 0.99)),
        "max_ms": ms(max(seconds) if seconds else None),
    }


@dataclasses.dataclass
class Stats:
    mover_latency: list[float] = dataclasses.field(default_factory=list)
    #: (send time, mover latency) of every acknowledged move, for the timeline.
    mover_times: list[tuple[float, float]] = dataclasses.field(default_factory=list)
    all_latency: list[float] = dataclasses.field(default_factory=list)
    errors: Counter[str] = dataclasses.field(default_factory=Counter)
    moves_sent: int = 0
    moves_acked: int = 0
    games_finished: int = 0
    rss_samples: list[int] = dataclasses.field(default_factory=list)
    #: Reconnections by the close code that caused them (``"none"``: no close frame).
    reconnects: Counter[str] = dataclasses.field(default_factory=Counter)
    #: Hand-over notices received (``room_moved``, ``room_elsewhere``, ``draining``).
    handover_notices: Counter[str] = dataclasses.field(default_factory=Counter)
    #: Moves sent but never acknowledged because their connection moved before the
    #: server committed them (the new node's catch-up did not hold them): not lost, as
    #: nobody was told they were played, and the room moves on.
    moves_dropped_in_handover: int = 0

    notes: int = 0

    def error(self, kind: str) -> None:
        self.errors[kind] += 1

    def note(self, text: str) -> None:
        """Tell the first few failures on stderr as they happen (the counts are in the report)."""
        self.notes += 1
        if self.notes <= NOTES_SHOWN:
            print(f"cardtable loadtest: {text}", file=sys.stderr)
        elif self.notes == NOTES_SHOWN + 1:
            print("cardtable loadtest: more failures follow; see the report", file=sys.stderr)
