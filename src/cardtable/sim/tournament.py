"""Seeded tournaments between bots: one game at a time, aggregated per bot name.

``play_game`` is a pure function of its arguments (fresh bots, a game seed), so a
later ``--workers`` option can farm games out to processes without changing any
result: the numbers depend only on the game, rules, bot names, game count and seed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..bots import Bot, make_bot
from ..core import JSON, Game, Rng, RulesBase
from .seeding import derive_seed
from .stats import Estimate, Interval, mean_estimate, wilson_interval

# Bots draw from their own stream, never the deal's, so a bot's choices cannot
# change which cards are dealt.
_BOT_STREAM = 0xB07
# Game seeds are kept below 2**53 so that they survive JSON readers that use doubles.
_SEED_MASK = (1 << 53) - 1
DEFAULT_MAX_MOVES = 1_000_000


@dataclass(frozen=True, slots=True)
class GameRecord:
    """What one finished game leaves behind for the statistics."""

    seed: int
    bots: tuple[str, ...]
    winners: tuple[int, ...]
    scores: tuple[int, ...]
    round_points: tuple[tuple[int, ...], ...]
    moves: int
    turns: int
    blocked: bool

    @property
    def rounds(self) -> int:
        return len(self.round_points)

    def to_json(self) -> JSON:
        return {
            "seed": self.seed,
            "bots": list(self.bots),
            "winners": list(self.winners),
            "scores": list(self.scores),
            "round_points": [list(points) for points in self.round_points],
            "moves": self.moves,
            "turns": self.turns,
            "rounds": self.rounds,
            "blocked": self.blocked,
        }


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a tournament seeded with ``seed``."""
    return derive_seed(seed, index) & _SEED_MASK


def bot_rng(seed: int, seat: int) -> Rng:
    """The random stream of ``seat``'s bot in the game dealt from ``seed``."""
    return Rng(derive_seed(seed, _BOT_STREAM, seat))


def play_game(
    game: Game[Any],
    rules: RulesBase,
    bots: Sequence[Bot],
    seed: int,
    *,
    max_moves: int = DEFAULT_MAX_MOVES,
) -> GameRecord:
    """Play one game to the end, seat ``i`` moving with ``bots[i]``.

    Moves go through ``apply_action`` (the validating path): a bot that returns an
    illegal action is a bug and raises a :class:`~cardtable.core.CardtableError`.
    """
    state = game.new_state(rules, seed)
    if len(bots) != state.num_players:
        raise ValueError(f"{state.num_players} seats but {len(bots)} bots")
    rngs = [bot_rng(seed, seat) for seat in range(state.num_players)]
    moves = 0
    while (seat := state.current_player) is not None:
        if moves >= max_moves:
            raise RuntimeError(f"{game.name} seed {seed}: no end after {max_moves} moves")
        state.apply_action(bots[seat].choose(state, rngs[seat]))
        moves += 1
    result = state.result()
    if result is None:
        raise RuntimeError(f"{game.name} seed {seed}: no current player but no result")
    rounds = state.rounds()
    return GameRecord(
        seed=seed,
        bots=tuple(bot.name for bot in bots),
        winners=tuple(result.winners),
        scores=tuple(result.scores),
        round_points=tuple(tuple(r.points) for r in rounds),
        moves=moves,
        turns=sum(r.turns for r in rounds),
        blocked=result.blocked,
    )


@dataclass(frozen=True, slots=True)
class BotSummary:
    """One bot name's results over a tournament, pooled over the seats it occupies."""

    name: str
    seats: tuple[int, ...]
    games: int
    wins: int
    """Games in which at least one seat with this bot was among the winners."""
    win_rate: Interval
    points_per_round: Estimate
    """Mean over every (round, seat of this bot) pair of the points scored."""
    final_score: Estimate
    """Mean over every (game, seat of this bot) pair of the final score."""

    def to_json(self) -> JSON:
        return {
            "name": self.name,
            "seats": list(self.seats),
            "games": self.games,
            "wins": self.wins,
            "win_rate": self.win_rate.estimate,
            "win_rate_low": self.win_rate.low,
            "win_rate_high": self.win_rate.high,
            "points_per_round": self.points_per_round.mean,
            "points_per_round_stderr": self.points_per_round.stderr,
            "final_score": self.final_score.mean,
            "final_score_stderr": self.final_score.stderr,
        }


@dataclass(frozen=True)
class TournamentResult:
    game: str
    rules: JSON
    seed: int
    seat_bots: tuple[str, ...]
    bots: tuple[BotSummary, ...]
    wins_per_seat: tuple[int, ...]
    moves: Estimate
    turns: Estimate
    rounds: Estimate
    blocked: int
    records: tuple[GameRecord, ...]

    @property
    def games(self) -> int:
        return len(self.records)

    def bot(self, name: str) -> BotSummary:
        for summary in self.bots:
            if summary.name == name:
                return summary
        raise KeyError(name)

    def to_json(self) -> JSON:
        def estimate(value: Estimate) -> JSON:
            return {"mean": value.mean, "stderr": value.stderr}

        return {
            "game": self.game,
            "rules": self.rules,
            "seed": self.seed,
            "games": self.games,
            "seat_bots": list(self.seat_bots),
            "bots": [summary.to_json() for summary in self.bots],
            "wins_per_seat": list(self.wins_per_seat),
            "moves": estimate(self.moves),
            "turns": estimate(self.turns),
            "rounds": estimate(self.rounds),
            "blocked": self.blocked,
            "records": [record.to_json() for record in self.records],
        }


def seat_assignment(bot_names: Sequence[str], seats: int) -> tuple[str, ...]:
    """Seat ``i`` gets ``bot_names[i % len(bot_names)]``."""
    if not bot_names:
        raise ValueError("at least one bot name is needed")
    return tuple(bot_names[seat % len(bot_names)] for seat in range(seats))


def run_tournament(
    game: Game[Any],
    rules: RulesBase,
    bot_names: Sequence[str],
    games: int,
    seed: int,
    *,
    max_moves: int = DEFAULT_MAX_MOVES,
    progress: Callable[[int], None] | None = None,
    bot_factory: Callable[[str], Bot] | None = None,
) -> TournamentResult:
    """Play ``games`` seeded games and aggregate them per bot name.

    Bots are made afresh for every game so that no game depends on the ones before
    it. ``progress`` is called with the number of finished games after each game.
    ``bot_factory`` makes a bot from a name (default: the registry's ``make_bot``).
    Raises ``KeyError`` for an unknown bot name before any game is played.
    """
    if bot_factory is None:

        def bot_factory(name: str) -> Bot:
            return make_bot(game.name, name)

    if games < 0:
        raise ValueError(f"games must be >= 0, got {games}")
    seats = game.new_state(rules, game_seed(seed, 0)).num_players
    seat_bots = seat_assignment(bot_names, seats)
    for name in dict.fromkeys(seat_bots):
        bot_factory(name)
    records = []
    for index in range(games):
        bots = [bot_factory(name) for name in seat_bots]
        records.append(play_game(game, rules, bots, game_seed(seed, index), max_moves=max_moves))
        if progress is not None:
            progress(index + 1)
    return summarize(game.name, rules, seed, seat_bots, records)


def summarize(
    game_name: str,
    rules: RulesBase,
    seed: int,
    seat_bots: tuple[str, ...],
    records: Sequence[GameRecord],
) -> TournamentResult:
    """Aggregate finished games; separate from playing them so records can come from anywhere."""
    summaries = []
    for name in dict.fromkeys(seat_bots):
        seats = tuple(seat for seat, bot in enumerate(seat_bots) if bot == name)
        wins = sum(1 for r in records if any(seat in r.winners for seat in seats))
        summaries.append(
            BotSummary(
                name=name,
                seats=seats,
                games=len(records),
                wins=wins,
                win_rate=wilson_interval(wins, len(records)),
                points_per_round=mean_estimate(
                    [points[seat] for r in records for points in r.round_points for seat in seats]
                ),
                final_score=mean_estimate([r.scores[seat] for r in records for seat in seats]),
            )
        )
    wins_per_seat = tuple(
        sum(1 for r in records if seat in r.winners) for seat in range(len(seat_bots))
    )
    return TournamentResult(
        game=game_name,
        rules=rules.to_json(),
        seed=seed,
        seat_bots=seat_bots,
        bots=tuple(summaries),
        wins_per_seat=wins_per_seat,
        moves=mean_estimate([r.moves for r in records]),
        turns=mean_estimate([r.turns for r in records]),
        rounds=mean_estimate([r.rounds for r in records]),
        blocked=sum(1 for r in records if r.blocked),
        records=tuple(records),
    )
