"""Tournaments on a compiled batch engine (``cardtable sim --engine fast``).

:func:`run_fast_tournament` plays the games of :func:`cardtable.sim.tournament.run_tournament`
(same deals, same seat rotations, same bot streams) with the batch engine's compiled
bots, ``batch`` games per call, and summarizes them with the same
:func:`~cardtable.sim.tournament.summarize`: for a seed the records, and so every
figure, are those of the reference tournament (tested), many times faster. Only the
bots the batch engine has can play: ``random``, ``greedy`` and ``hard`` of both games,
``hard`` with the Python bot's default weights.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..core import Game, RulesBase
from .tournament import (
    DEFAULT_MAX_MOVES,
    GameRecord,
    TournamentResult,
    paired_bots,
    seat_assignment,
    summarize,
)

_MASK64 = (1 << 64) - 1
#: Rounds a game's record has room for at first (a game with more is played again with
#: room for all of them: every game is a pure function of its index).
_ROUNDS = 64


def fast_bot_names(game_name: str) -> tuple[str, ...]:
    """The bots the batch engine of ``game_name`` plays (KeyError: no batch engine)."""
    if game_name == "skyjo":
        from ..fast.skyjo_bots import TOURNAMENT_NAMES

        return TOURNAMENT_NAMES
    if game_name == "skipbo":
        from ..fast.skipbo_bots import TOURNAMENT_NAMES as SKIPBO_NAMES

        return SKIPBO_NAMES
    raise KeyError(f"no compiled batch engine for {game_name!r} (engines: skipbo, skyjo)")


Indices = np.ndarray[tuple[int], np.dtype[np.int64]]


def run_fast_tournament(
    game: Game[object],
    rules: RulesBase,
    bot_names: Sequence[str],
    games: int,
    seed: int,
    *,
    paired: bool = False,
    max_moves: int = DEFAULT_MAX_MOVES,
    batch: int = 4096,
    progress: Callable[[int], None] | None = None,
) -> TournamentResult:
    """``run_tournament(game, rules, bot_names, games, seed, paired=paired)`` on the
    batch engine. Raises KeyError for a game without one and ValueError for a bot it
    does not play, before any game is played."""
    known = fast_bot_names(game.name)
    if games < 0:
        raise ValueError(f"games must be >= 0, got {games}")
    seats = game.new_state(rules, 0).num_players
    seat_bots = seat_assignment(bot_names, seats)
    unknown = sorted(set(seat_bots) - set(known))
    if unknown:
        raise ValueError(
            f"--engine fast plays the bots {', '.join(known)} only, not {', '.join(unknown)}"
        )
    if paired and games % seats:
        raise ValueError(
            f"paired games come in sets of {seats} (one per seat rotation); got {games}"
        )
    records: list[GameRecord] = []
    for start in range(0, games, batch):
        indices = np.arange(start, min(games, start + batch), dtype=np.int64)
        records += play_records(game.name, rules, seat_bots, seed, indices, paired, max_moves)
        if progress is not None:
            progress(len(records))
    return summarize(game.name, rules, seed, seat_bots, records, paired=paired)


def play_records(
    game_name: str,
    rules: RulesBase,
    seat_bots: tuple[str, ...],
    seed: int,
    indices: Indices,
    paired: bool = False,
    max_moves: int = DEFAULT_MAX_MOVES,
) -> list[GameRecord]:
    """The records of games ``indices`` of the tournament ``seed``, one batch, each seat
    ``s`` played by the compiled bot ``seat_bots[s]`` (before rotation; every name one
    :func:`fast_bot_names` lists, one per seat)."""
    known = fast_bot_names(game_name)
    seats = rules.players  # type: ignore[attr-defined]  # both games' rules have it
    if len(seat_bots) != seats:
        # The kernels index the seats' arrays without bounds checks.
        raise ValueError(f"seat_bots: one bot per seat, {seats}, got {len(seat_bots)}")
    kinds = np.array([known.index(name) for name in seat_bots], dtype=np.int64)
    play = _play_skyjo if game_name == "skyjo" else _play_skipbo
    return play(rules, seat_bots, seed, indices, paired, kinds, max_moves)


#: The columns of each game's line in a batch's ``out``: Skyjo's deal, moves, turns,
#: rounds, seat rotation and blocked rounds; Skip-Bo's deal, moves and seat rotation.
_SKYJO_OUT = 6
_SKIPBO_OUT = 3


def _play_batch(
    make_engine: Callable[[], Any],
    play_games: Callable[..., None],
    out_columns: int,
    rounds_played: Callable[[Any, np.ndarray[Any, Any]], np.ndarray[Any, Any]],
    *,
    seed: int,
    indices: Indices,
    paired: bool,
    kinds: Indices,
    max_moves: int,
    extra: Callable[[Any], tuple[Any, ...]] = lambda engine: (),
) -> tuple[Any, np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """Play the games ``indices`` on a new batch engine with a game's compiled
    ``play_games``: the engine, each game's line of ``out`` and its points per round.
    A game with more rounds than the record has room for makes the batch play again
    with room for all of them (every game is a pure function of its index)."""
    size = len(indices)
    room = _ROUNDS
    while True:
        engine = make_engine()
        cfg = np.append(engine.cfg, max_moves)
        rngs = np.zeros(size * len(kinds), dtype=np.uint64)
        out = np.zeros((size, out_columns), dtype=np.int64)
        points = np.zeros((size, room, len(kinds)), dtype=np.int32)
        scratch = np.zeros(1, dtype=np.uint64)
        play_games(
            engine.st, cfg, np.uint64(seed & _MASK64), indices, paired, kinds, rngs, out,
            points, scratch, *extra(engine),
        )  # fmt: skip
        most = int(rounds_played(engine, out).max()) if size else 0
        if most <= room:
            return engine, out, points
        room = most


def _play_skyjo(
    rules: RulesBase,
    seat_bots: tuple[str, ...],
    seed: int,
    indices: Indices,
    paired: bool,
    kinds: Indices,
    max_moves: int,
) -> list[GameRecord]:
    from ..bots.skyjo_hard import HardBot
    from ..fast.skyjo_batch import SkyjoBatch
    from ..fast.skyjo_hard import hard_params, work_array
    from ..fast.skyjo_kernels import F_BLOCKED
    from ..fast.skyjo_tournament import play_games
    from ..skyjo.rules import SkyjoRules

    assert isinstance(rules, SkyjoRules)
    n = len(seat_bots)
    engine, out, points = _play_batch(
        lambda: SkyjoBatch(rules, len(indices)),
        play_games,
        _SKYJO_OUT,
        lambda engine, out: out[:, 3],
        seed=seed,
        indices=indices,
        paired=paired,
        kinds=kinds,
        max_moves=max_moves,
        extra=lambda engine: (hard_params(HardBot()), work_array()),
    )
    records = []
    # Read in bulk: the final totals (the scores; the lowest wins) and blocked flags.
    totals = engine.totals.tolist()
    blocked = engine.ints[:, F_BLOCKED].tolist()
    rotations = [paired_bots(seat_bots, shift, paired) for shift in range(n)]
    for i, row in enumerate(out.tolist()):
        deal, moves, turns, rounds, shift, blocked_rounds = row
        if moves < 0:
            raise RuntimeError(f"skyjo seed {deal}: no end after {max_moves} moves")
        scores = tuple(totals[i])
        low = min(scores)
        records.append(
            GameRecord(
                seed=deal,
                bots=rotations[shift],
                winners=tuple(seat for seat, score in enumerate(scores) if score == low),
                scores=scores,
                round_points=tuple(tuple(row) for row in points[i, :rounds].tolist()),
                moves=moves,
                turns=turns,
                blocked=bool(blocked[i]),
                blocked_rounds=blocked_rounds,
            )
        )
    return records


def _skipbo_hard_memory(engine: Any, rules: RulesBase) -> tuple[Any, ...]:
    """The arguments of Skip-Bo's ``play_games`` after ``scratch``: the legal list's
    room, and ``hard``'s weights, work arrays and one-game copy."""
    from ..bots.skipbo_hard import HARD_WEIGHTS
    from ..fast.skipbo_hard import HardWork, hard_params

    work = HardWork(rules)
    return (engine.scratch, hard_params(HARD_WEIGHTS), work.arrays, work.copy.st)


def _play_skipbo(
    rules: RulesBase,
    seat_bots: tuple[str, ...],
    seed: int,
    indices: Indices,
    paired: bool,
    kinds: Indices,
    max_moves: int,
) -> list[GameRecord]:
    from ..fast import skipbo_kernels as k
    from ..fast.skipbo_batch import SkipBoBatch
    from ..fast.skipbo_tournament import play_games
    from ..skipbo.rules import SkipBoRules

    assert isinstance(rules, SkipBoRules)
    n = len(seat_bots)
    engine, out, points = _play_batch(
        lambda: SkipBoBatch(rules, len(indices)),
        play_games,
        _SKIPBO_OUT,
        lambda engine, out: engine.ints[:, k.F_ROUNDS_DONE],
        seed=seed,
        indices=indices,
        paired=paired,
        kinds=kinds,
        max_moves=max_moves,
        extra=lambda engine: _skipbo_hard_memory(engine, rules),
    )
    rotations = [paired_bots(seat_bots, shift, paired) for shift in range(n)]
    ints = engine.ints.tolist()
    records = []
    for i, (deal, moves, shift) in enumerate(out.tolist()):
        if moves < 0:
            raise RuntimeError(f"skipbo seed {deal}: no end after {max_moves} moves")
        result = engine.result(i)
        assert result is not None
        rounds = ints[i][k.F_ROUNDS_DONE]
        records.append(
            GameRecord(
                seed=deal,
                bots=rotations[shift],
                winners=result.winners,
                scores=result.scores,
                round_points=tuple(tuple(row) for row in points[i, :rounds].tolist()),
                moves=moves,
                turns=ints[i][k.F_ALL_TURNS],
                blocked=result.blocked,
                blocked_rounds=ints[i][k.F_BLOCKED_ROUNDS],
            )
        )
    return records
