"""Game-independent simulation over the core protocol: tournaments, statistics, benchmarks.

Nothing here knows a game's rules; everything goes through :class:`~cardtable.core.Game`
and :class:`~cardtable.core.GameState`, so every engine gets these tools for free.
"""

from .bench import BenchReport, Throughput, run_bench
from .seeding import derive_seed
from .stats import Estimate, Interval, mean_estimate, wilson_interval
from .tournament import BotSummary, GameRecord, TournamentResult, play_game, run_tournament

__all__ = [
    "BenchReport",
    "BotSummary",
    "Estimate",
    "GameRecord",
    "Interval",
    "Throughput",
    "TournamentResult",
    "derive_seed",
    "mean_estimate",
    "play_game",
    "run_bench",
    "run_tournament",
    "wilson_interval",
]
