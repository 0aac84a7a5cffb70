"""Game-independent simulation over the core protocol: tournaments, ladders, statistics.

Nothing here knows a game's rules; everything goes through :class:`~cardtable.core.Game`
and :class:`~cardtable.core.GameState`, so every engine gets these tools for free.
"""

from .seeding import derive_seed
from .stats import Estimate, Interval, mean_estimate, wilson_interval
from .tournament import BotSummary, GameRecord, TournamentResult, play_game, run_tournament

__all__ = [
    "BotSummary",
    "Estimate",
    "GameRecord",
    "Interval",
    "TournamentResult",
    "derive_seed",
    "mean_estimate",
    "play_game",
    "run_tournament",
    "wilson_interval",
]
