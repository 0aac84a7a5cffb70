"""Reading one played game (rules, seed, action codes) from the files cardtable writes.

Formats recognised by :func:`load_game_file`:

- a replay of the web table, ``GET /api/rooms/{code}/games/{n}`` (a JSON object with
  ``moves`` of ``{"action": ...}``; its seed is published once the game is over);
- a full snapshot, ``state.to_json()`` (``game``, ``rules``, ``seed``, ``history``),
  or the same with ``actions`` instead of ``history``;
- a golden transcript, ``tests/golden/*.txt`` (the moves are read back from their
  text, each matched against the legal moves of the position);
- the result of ``cardtable sim --json``: it keeps each game's seed and bots but not
  its moves, so game ``index`` is played again with the same bots and seed. That
  gives the same moves only while the bots have not changed; a game that does not
  end as recorded is refused.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..bots import make_bot
from ..core import CardtableError, Game, RulesBase
from ..games import game_names, get_game
from .tournament import bot_rng

_TRANSCRIPT_MOVE = re.compile(r"^(\d+) seat (\d+): (.*?) (\[.*\])$")


class GameFileError(ValueError):
    """A file that holds no game this module can read; the message says why."""


@dataclass(frozen=True)
class GameFile:
    game: Game[Any]
    rules: RulesBase
    seed: int
    actions: tuple[int, ...]
    players: tuple[str, ...]
    """A name per seat when the file has one (players or bots), else empty."""
    source: str
    """Which format it was read from, for people."""


def load_game_file(path: Path, index: int = 0) -> GameFile:
    """The game in ``path``; ``index`` picks a game of a ``sim --json`` file (0-based)."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise GameFileError(f"cannot read {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise GameFileError(f"{path} is not a text file (UTF-8)") from None
    stripped = text.lstrip()
    if stripped.startswith("#"):
        return parse_transcript(text)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise GameFileError(f"{path} is neither JSON nor a golden transcript ({error})") from None
    return parse_game_json(data, index)


def parse_game_json(data: object, index: int = 0) -> GameFile:
    if not isinstance(data, dict):
        raise GameFileError("a game file holds a JSON object")
    if "records" in data and "seat_bots" in data:
        return _sim_game(data, index)
    game = _game(data.get("game"))
    rules = _rules(game, data.get("rules"))
    seed = data.get("seed")
    if "moves" in data:
        if seed is None and data.get("finished") is False:
            raise GameFileError("this replay is of a game still being played: no seed yet")
        moves = data["moves"]
        if not isinstance(moves, list) or not all(isinstance(m, dict) for m in moves):
            raise GameFileError("'moves' must be a list of objects")
        actions: object = [move.get("action") for move in moves]
        seats = data.get("seats") or []
        if not isinstance(seats, list):
            raise GameFileError("'seats' must be a list")
        players = tuple(_seat_name(seat, i) for i, seat in enumerate(seats))
        source = "web table replay"
    elif "history" in data or "actions" in data:
        actions = data["history"] if "history" in data else data["actions"]
        players = ()
        source = "game snapshot"
    else:
        raise GameFileError("no moves: expected 'moves', 'history' or 'actions'")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise GameFileError("the game's 'seed' must be an integer")
    if not isinstance(actions, list) or not all(
        isinstance(a, int) and not isinstance(a, bool) for a in actions
    ):
        raise GameFileError("the actions must be a list of integer action codes")
    _check_replays(game, rules, seed, actions)
    return GameFile(game, rules, seed, tuple(actions), players, source)


def parse_transcript(text: str) -> GameFile:
    """A golden transcript: header lines, then ``N seat S: <move text> [events]`` lines."""
    lines = text.splitlines()
    titles = {get_game(name).title: get_game(name) for name in game_names()}
    first = lines[0] if lines else ""
    game = next((g for title, g in titles.items() if first.startswith(f"# {title} ")), None)
    if game is None:
        raise GameFileError("not a golden transcript: the first line names no known game")
    rules_line = next((line for line in lines if line.startswith("# rules ")), None)
    seed_line = next((line for line in lines if line.startswith("# seed ")), None)
    if rules_line is None or seed_line is None:
        raise GameFileError("a golden transcript needs its '# rules' and '# seed' lines")
    try:
        rules_data = json.loads(rules_line.removeprefix("# rules "))
        seed = int(seed_line.removeprefix("# seed ").split(";")[0])
    except (json.JSONDecodeError, ValueError) as error:
        raise GameFileError(f"unreadable transcript header ({error})") from None
    rules = _rules(game, rules_data)
    bots = seed_line.partition("; seats ")[2]
    state = game.new_state(rules, seed)
    actions: list[int] = []
    for line in lines:
        match = _TRANSCRIPT_MOVE.match(line)
        if match is None:
            continue
        number, seat, move_text = int(match[1]), int(match[2]), match[3]
        if number != len(actions) + 1 or seat != state.current_player:
            raise GameFileError(f"transcript line {number} is out of order")
        action = next((a for a in state.legal_actions() if str(game.decode(a)) == move_text), None)
        if action is None:
            raise GameFileError(f"move {number} ({move_text!r}) is not legal in the replayed game")
        state.apply_action(action)
        actions.append(action)
    players = tuple(name.strip() for name in bots.split(",")) if bots else ()
    return GameFile(game, rules, seed, tuple(actions), players, "golden transcript")


def _sim_game(data: dict[str, Any], index: int) -> GameFile:
    game = _game(data.get("game"))
    rules = _rules(game, data.get("rules"))
    records = data["records"]
    if not isinstance(records, list) or not records:
        raise GameFileError("this tournament file holds no games")
    if not 0 <= index < len(records):
        raise GameFileError(f"games run from 0 to {len(records) - 1}, not {index}")
    record = records[index]
    try:
        seed = int(record["seed"])
        if not isinstance(record["bots"], list):
            raise TypeError("'bots' must be a list of bot names")
        names = [str(name) for name in record["bots"]]
        bots = [make_bot(game.name, name) for name in names]
    except (KeyError, TypeError, ValueError) as error:
        raise GameFileError(f"game {index} of the file is unreadable ({error})") from None
    state = game.new_state(rules, seed)
    if len(bots) != state.num_players:
        raise GameFileError(f"game {index} has {len(bots)} bots for {state.num_players} seats")
    rngs = [bot_rng(seed, seat) for seat in range(state.num_players)]
    moves = record.get("moves")
    if not isinstance(moves, int) or isinstance(moves, bool) or moves < 0:
        raise GameFileError(
            f"game {index} of the file is unreadable ('moves' must be its number of moves)"
        )
    winners = record.get("winners", [])
    if not isinstance(winners, list):
        raise GameFileError(f"game {index} of the file is unreadable ('winners' must be a list)")
    while (seat := state.current_player) is not None:
        if len(state.history) > moves:
            break
        state.apply_action(bots[seat].choose(state, rngs[seat]))
    result = state.result()
    same = result is not None and len(state.history) == moves and list(result.winners) == winners
    if not same:
        raise GameFileError(
            f"game {index} does not end as recorded when played again: the bots "
            "have changed since the file was written (it keeps seeds, not moves)"
        )
    return GameFile(game, rules, seed, tuple(state.history), tuple(names), "tournament game")


def _game(name: object) -> Game[Any]:
    if not isinstance(name, str) or name not in game_names():
        raise GameFileError(f"unknown game {name!r}; known: {', '.join(game_names())}")
    return get_game(name)


def _rules(game: Game[Any], data: object) -> RulesBase:
    try:
        return game.rules_from_record(data if data is not None else {})
    except (CardtableError, TypeError, ValueError) as error:
        raise GameFileError(f"bad rules: {error}") from None


def _seat_name(seat: object, index: int) -> str:
    if isinstance(seat, dict):
        name = seat.get("name") or seat.get("bot")
        if isinstance(name, str) and name:
            return name
    return f"seat {index}"


def _check_replays(game: Game[Any], rules: RulesBase, seed: int, actions: Sequence[int]) -> None:
    state = game.new_state(rules, seed)
    for number, action in enumerate(actions, start=1):
        try:
            state.apply_action(action)
        except CardtableError as error:
            raise GameFileError(f"move {number} (action {action}) is not legal: {error}") from None
