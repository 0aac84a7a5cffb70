"""A conformance checker that every game must pass.

Plays random games to the end and, after moves, checks what the protocol
promises: clones equal and independent, JSON snapshots round trip, the action
mask equals the legal moves, moves decode and encode back, an illegal action is
refused and changes nothing, replaying the history gives the same state, views
are JSON-safe and leak nothing a seat may not see, ``determinize`` depends on
nothing the seat cannot see, cards are conserved, and the game ends.

The fast move path (``advance``, which builds no events) must reach exactly the
state ``apply_unchecked`` reaches: after every move of every game a copy played with
``advance`` alone is compared with the checked game, by snapshot and field by
field (a field the snapshot leaves out, such as a cached count, is compared too).

The leak check is generic: a seat's view must not change when everything that
seat cannot see is re-dealt (``determinize``). A view that showed a hidden card
would change with the re-deal.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from .errors import IllegalMoveError
from .game import Game, GameState
from .options import RulesBase
from .rng import Rng


class ConformanceError(AssertionError):
    """A protocol promise broken; the message names the game, seed and move."""


@dataclass
class ConformanceReport:
    games: int = 0
    moves: int = 0
    longest: int = 0
    blocked: int = 0
    winners: dict[int, int] = field(default_factory=dict)


def _fail(where: str, what: str) -> None:
    raise ConformanceError(f"{where}: {what}")


_MISSING = object()


def fast_path_difference(fast: GameState[Any], slow: GameState[Any]) -> str | None:
    """How a state reached by ``advance`` differs from one reached by
    ``apply_unchecked``, or None."""
    if fast.to_json() != slow.to_json():
        return "its snapshot differs"
    # Fields left out of the snapshot (derived counts, caches) must agree as well.
    fields = getattr(fast, "__dict__", None)
    others = getattr(slow, "__dict__", None)
    if fields != others:
        assert fields is not None and others is not None
        names = sorted(
            name
            for name in fields.keys() | others.keys()
            if fields.get(name, _MISSING) != others.get(name, _MISSING)
        )
        return f"fields differ: {', '.join(names)}"
    return None


def check_state(state: GameState[Any], where: str, rng: Rng, deep: bool = True) -> None:
    """Check every per-position promise on ``state``."""
    game = state.game
    if state.census() != game.deck(state.rules):
        _fail(where, f"cards not conserved: {state.census()} != {game.deck(state.rules)}")

    legal = state.legal_actions()
    if legal != sorted(set(legal)):
        _fail(where, "legal_actions must be ascending and free of duplicates")
    mask = state.action_mask()
    if len(mask) != game.num_actions or [a for a, bit in enumerate(mask) if bit] != legal:
        _fail(where, "action mask differs from legal actions")
    if state.is_over != (not legal):
        _fail(where, "a game is over exactly when no move is legal")
    if state.is_over != (state.result() is not None):
        _fail(where, "result() must be set exactly when the game is over")
    if state.is_over != (state.current_player is None):
        _fail(where, "current_player must be None exactly when the game is over")
    if [a for a in range(game.num_actions) if state.is_legal_action(a)] != legal:
        _fail(where, "is_legal_action disagrees with legal_actions")
    for action, move in zip(legal, state.legal_moves(), strict=True):
        if game.encode(move) != action or game.decode(action) != move:
            _fail(where, f"encode/decode round trip broken for action {action}")

    clone = state.clone()
    if clone != state:
        _fail(where, "clone differs from the original")
    snapshot = state.to_json()
    text = json.dumps(snapshot)
    restored = game.state_from_json(json.loads(text))
    if restored != state or restored.to_json() != snapshot:
        _fail(where, "JSON snapshot does not round trip")

    illegal = [a for a in range(game.num_actions) if not mask[a]]
    if illegal:
        action = illegal[rng.below(len(illegal))]
        try:
            state.apply_action(action)
        except IllegalMoveError as error:
            if not error.reason:
                _fail(where, "an illegal move must say why")
        else:
            _fail(where, f"illegal action {action} was accepted")
        if state.to_json() != snapshot:
            _fail(where, f"refused action {action} changed the state")

    if legal:
        probe = state.clone()
        action = legal[rng.below(len(legal))]
        probe.apply_action(action)
        if state.to_json() != snapshot:
            _fail(where, "a move on a clone changed the original")
        fast = state.clone()
        fast.advance(action)
        difference = fast_path_difference(fast, probe)
        if difference is not None:
            _fail(
                where, f"advance({action}) reached another state than apply_unchecked: {difference}"
            )

    seats: list[int | None] = [None, *range(state.num_players)]
    for seat in seats:
        view = state.view(seat)
        json.dumps(view)
        if not deep:
            continue
        other = state.determinize(seat, rng.spawn())
        if other.census() != game.deck(state.rules):
            _fail(where, f"determinize({seat}) does not conserve cards")
        if other.view(seat) != view:
            _fail(where, f"view({seat}) depends on cards that seat cannot see")
        probe_seed = rng.next64()
        if other.determinize(seat, Rng(probe_seed)) != state.determinize(seat, Rng(probe_seed)):
            _fail(where, f"determinize({seat}) depends on cards that seat cannot see")
        if other.legal_actions() != legal and seat == state.current_player:
            _fail(where, f"determinize({seat}) changed the mover's legal moves")
    # The server sends the views of all seats at once: each must be the seat's view.
    together = state.views(seats)
    for seat in seats:
        if together.get(seat) != state.view(seat):
            _fail(where, f"views() gives seat {seat} another view than view({seat})")


def check_game(
    game: Game[Any],
    rules: RulesBase,
    seeds: Iterable[int],
    *,
    max_moves: int = 100_000,
    deep_every: int = 1,
    replay_every: int = 50,
    policy: Callable[[GameState[Any], Rng], int] | None = None,
) -> ConformanceReport:
    """Play one game per seed under ``rules``, checking every promise.

    Moves are chosen uniformly at random unless a ``policy`` (state, rng) -> action
    is given, e.g. to reach the end of long multi-round matches sooner.
    ``deep_every`` spaces the costly determinize/leak checks; ``replay_every``
    spaces the replay-from-log checks (the final position is always replayed).
    """
    report = ConformanceReport()
    for seed in seeds:
        state = game.new_state(rules, seed)
        again = game.new_state(rules, seed)
        if again != state:
            _fail(f"{game.name} seed {seed}", "two deals from one seed differ")
        # The same game played on the fast path alone (no Outcome, no events).
        fast = game.new_state(rules, seed)
        chooser = Rng(seed ^ 0x5EED)
        moves = 0
        while True:
            where = f"{game.name} {rules.to_json()} seed {seed} move {moves}"
            check_state(state, where, chooser, deep=moves % deep_every == 0)
            if moves % replay_every == 0 and state.replayed() != state:
                _fail(where, "replaying the history gives another state")
            if state.is_over:
                break
            if moves >= max_moves:
                _fail(where, f"game did not end within {max_moves} moves")
            legal = state.legal_actions()
            if policy is None:
                action = legal[chooser.below(len(legal))]
            else:
                action = policy(state.clone(), chooser)
            state.apply_action(action)
            again.apply_action(action)
            fast.advance(action)
            moves += 1
            difference = fast_path_difference(fast, state)
            if difference is not None:
                _fail(
                    f"{game.name} {rules.to_json()} seed {seed} move {moves}",
                    "the game played with advance() left the one played with "
                    f"apply_unchecked: {difference}",
                )
        if state.replayed() != state or again != state:
            _fail(f"{game.name} seed {seed}", "final state not reproducible from its log")
        result = state.result()
        assert result is not None
        report.games += 1
        report.moves += moves
        report.longest = max(report.longest, moves)
        report.blocked += result.blocked
        for seat in result.winners:
            report.winners[seat] = report.winners.get(seat, 0) + 1
    return report
