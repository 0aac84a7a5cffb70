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
from .stats import (
    Estimate,
    Interval,
    cluster_interval,
    cluster_mean,
    mean_estimate,
    wilson_interval,
)

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
    #: Rounds of the game that ended blocked (a blocked single-round game counts one).
    blocked_rounds: int = 0

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
            "blocked_rounds": self.blocked_rounds,
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

    Every bot move is validated (``require_legal``): a bot that returns an illegal
    action is a bug and raises a :class:`~cardtable.core.CardtableError`. Moves are
    then applied on the fast path (``advance``): the record keeps no events.
    """
    state = game.new_state(rules, seed)
    if len(bots) != state.num_players:
        raise ValueError(f"{state.num_players} seats but {len(bots)} bots")
    rngs = [bot_rng(seed, seat) for seat in range(state.num_players)]
    moves = 0
    while (seat := state.current_player) is not None:
        if moves >= max_moves:
            raise RuntimeError(f"{game.name} seed {seed}: no end after {max_moves} moves")
        action = bots[seat].choose(state, rngs[seat])
        state.require_legal(action)
        state.advance(action)
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
        blocked_rounds=sum(1 for r in rounds if r.blocked),
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
    win_rate_by_deal: Interval
    """The win rate with a cluster-robust interval: the games of one deal (its seat
    rotations, in a paired tournament) are one cluster (:func:`cluster_interval`)."""
    points_per_round_by_deal: Estimate
    """``points_per_round`` with a cluster-robust standard error, deals as clusters
    (rounds of one game, and games of one deal, are not independent)."""
    deals: int
    """How many deals (clusters) the by-deal figures come from."""

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
            "deals": self.deals,
            "win_rate_by_deal_low": self.win_rate_by_deal.low,
            "win_rate_by_deal_high": self.win_rate_by_deal.high,
            "points_per_round_by_deal_stderr": self.points_per_round_by_deal.stderr,
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
    paired: bool = False

    @property
    def blocked_rounds(self) -> int:
        return sum(record.blocked_rounds for record in self.records)

    @property
    def total_rounds(self) -> int:
        return sum(record.rounds for record in self.records)

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
            "paired": self.paired,
            "bots": [summary.to_json() for summary in self.bots],
            "wins_per_seat": list(self.wins_per_seat),
            "moves": estimate(self.moves),
            "turns": estimate(self.turns),
            "rounds": estimate(self.rounds),
            "blocked": self.blocked,
            "blocked_rounds": self.blocked_rounds,
            "total_rounds": self.total_rounds,
            "records": [record.to_json() for record in self.records],
        }


def seat_assignment(bot_names: Sequence[str], seats: int) -> tuple[str, ...]:
    """Seat ``i`` gets ``bot_names[i % len(bot_names)]``."""
    if not bot_names:
        raise ValueError("at least one bot name is needed")
    return tuple(bot_names[seat % len(bot_names)] for seat in range(seats))


def paired_bots(seat_bots: Sequence[str], index: int, paired: bool) -> tuple[str, ...]:
    """The bots of game ``index``: with ``paired``, seats rotate by ``index % seats``."""
    if not paired:
        return tuple(seat_bots)
    n = len(seat_bots)
    shift = index % n
    return tuple(seat_bots[(seat + shift) % n] for seat in range(n))


def deal_seed(seed: int, index: int, seats: int, paired: bool) -> int:
    """The deal of game ``index``: with ``paired``, ``seats`` games in a row share one deal."""
    return game_seed(seed, index // seats if paired else index)


def _play_indexed(
    game: Game[Any],
    rules: RulesBase,
    seat_bots: tuple[str, ...],
    seed: int,
    paired: bool,
    indices: Sequence[int],
    max_moves: int = DEFAULT_MAX_MOVES,
    bot_factory: Callable[[str], Bot] | None = None,
) -> list[GameRecord]:
    """Play the games ``indices`` of a tournament; the unit of work of one process."""
    if bot_factory is None:

        def bot_factory(name: str) -> Bot:
            return make_bot(game.name, name)

    records = []
    seats = len(seat_bots)
    for index in indices:
        bots = [bot_factory(name) for name in paired_bots(seat_bots, index, paired)]
        dealt = deal_seed(seed, index, seats, paired)
        records.append(play_game(game, rules, bots, dealt, max_moves=max_moves))
    return records


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
    paired: bool = False,
    workers: int = 1,
    cluster: str | None = None,
) -> TournamentResult:
    """Play ``games`` seeded games and aggregate them per bot name.

    Bots are made afresh for every game so that no game depends on the ones before
    it. ``progress`` is called with the number of finished games (after each game
    with one worker, after each batch with several). ``bot_factory`` makes a bot
    from a name (default: the registry's ``make_bot``); with several workers it must
    be picklable (a module-level function). Raises ``KeyError`` for an unknown bot
    name before any game is played.

    With ``paired``, every deal is played once per seat rotation (``games`` must be a
    multiple of the number of seats), so each bot meets the same cards from every
    seat and the luck of the deal cancels. ``workers`` > 1 plays batches of games in
    separate processes; the records, and so every figure, are the same as with one
    worker, because each game depends only on its index. ``cluster`` (a Dask scheduler
    address such as ``tcp://host:8786``, extra ``cluster``) sends the batches to that
    cluster instead (``workers`` is then not used), with the same records again.
    """
    if games < 0:
        raise ValueError(f"games must be >= 0, got {games}")
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    factory = bot_factory
    if factory is None:

        def factory(name: str) -> Bot:
            return make_bot(game.name, name)

    seats = game.new_state(rules, game_seed(seed, 0)).num_players
    seat_bots = seat_assignment(bot_names, seats)
    if paired and games % seats:
        raise ValueError(
            f"paired games come in sets of {seats} (one per seat rotation); got {games}"
        )
    for name in dict.fromkeys(seat_bots):
        factory(name)
    records: list[GameRecord] = []
    if cluster is not None:
        import functools

        from .cluster import play_on_cluster

        work = functools.partial(
            _play_indexed, game, rules, seat_bots, seed, paired,
            max_moves=max_moves, bot_factory=bot_factory,
        )  # fmt: skip
        records = play_on_cluster(cluster, work, _batches(games, 8), progress)
    elif workers == 1 or games < 2:
        for index in range(games):
            records += _play_indexed(
                game, rules, seat_bots, seed, paired, [index], max_moves, bot_factory
            )
            if progress is not None:
                progress(index + 1)
    else:
        records = _play_parallel(
            game, rules, seat_bots, seed, paired, games, max_moves, bot_factory, workers, progress
        )
    return summarize(game.name, rules, seed, seat_bots, records, paired=paired)


def _batches(games: int, workers: int) -> list[list[int]]:
    """Game indices in batches: small ones keep the progress bar moving and the
    processes evenly loaded."""
    size = max(1, min(50, games // (workers * 8)))
    return [list(range(start, min(games, start + size))) for start in range(0, games, size)]


def _play_parallel(
    game: Game[Any],
    rules: RulesBase,
    seat_bots: tuple[str, ...],
    seed: int,
    paired: bool,
    games: int,
    max_moves: int,
    bot_factory: Callable[[str], Bot] | None,
    workers: int,
    progress: Callable[[int], None] | None,
) -> list[GameRecord]:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    batches = _batches(games, workers)
    results: dict[int, list[GameRecord]] = {}
    done = 0
    # Spawned (not forked) processes: no inherited threads or locks, same on every platform.
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        futures = {
            pool.submit(
                _play_indexed,
                game,
                rules,
                seat_bots,
                seed,
                paired,
                batch,
                max_moves,
                bot_factory,
            ): number
            for number, batch in enumerate(batches)
        }
        for future in as_completed(futures):
            results[futures[future]] = future.result()
            done += len(results[futures[future]])
            if progress is not None:
                progress(done)
    return [record for number in range(len(batches)) for record in results[number]]


def summarize(
    game_name: str,
    rules: RulesBase,
    seed: int,
    seat_bots: tuple[str, ...],
    records: Sequence[GameRecord],
    *,
    paired: bool = False,
) -> TournamentResult:
    """Aggregate finished games; separate from playing them so records can come from anywhere.

    Each record's own ``bots`` say who sat where, so rotated (paired) games pool
    correctly: a bot's figures cover every seat it occupied in every game.
    """
    summaries = []
    for name in dict.fromkeys(seat_bots):
        seats = tuple(
            seat
            for seat in range(len(seat_bots))
            if any(r.bots[seat] == name for r in records)
            or (not records and seat_bots[seat] == name)
        )
        mine = [tuple(s for s, bot in enumerate(r.bots) if bot == name) for r in records]
        won = [bool(set(own) & set(r.winners)) for r, own in zip(records, mine, strict=True)]
        wins = sum(won)
        # Per deal (the records of one deal seed): wins and games, points and rounds.
        deal_wins: dict[int, list[int]] = {}
        deal_points: dict[int, list[int]] = {}
        for r, own, w in zip(records, mine, won, strict=True):
            tally = deal_wins.setdefault(r.seed, [0, 0])
            tally[0] += w
            tally[1] += 1
            points = deal_points.setdefault(r.seed, [0, 0])
            for round_points in r.round_points:
                for seat in own:
                    points[0] += round_points[seat]
                    points[1] += 1
        summaries.append(
            BotSummary(
                name=name,
                seats=seats,
                games=len(records),
                wins=wins,
                win_rate=wilson_interval(wins, len(records)),
                points_per_round=mean_estimate(
                    [
                        points[seat]
                        for r, own in zip(records, mine, strict=True)
                        for points in r.round_points
                        for seat in own
                    ]
                ),
                final_score=mean_estimate(
                    [r.scores[seat] for r, own in zip(records, mine, strict=True) for seat in own]
                ),
                win_rate_by_deal=cluster_interval(
                    [(total, count) for total, count in deal_wins.values()]
                ),
                points_per_round_by_deal=cluster_mean(
                    [(total, count) for total, count in deal_points.values()]
                ),
                deals=len(deal_wins),
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
        paired=paired,
    )
