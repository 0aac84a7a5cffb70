"""A tiny game implementing the core protocol, so the sim layer is tested on its own.

"Race": seats take turns stepping a counter by 1 or 2 towards ``target``; a step of
1 lets the seat step again once (so turns and moves differ), and the state's Rng
sometimes adds a bonus point (so deals and bots' luck matter). The first seat to
reach ``target`` ends the round; each seat scores its counter. After ``rounds``
rounds the highest total wins (ties share the win). A round that runs past
``turn_limit`` turns ends the game as blocked, with no winner.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from typing import Any, ClassVar, Self

from cardtable.core import (
    JSON,
    Event,
    Game,
    GameState,
    Outcome,
    Result,
    Rng,
    RoundResult,
    RulesBase,
    SerializationError,
    check_int,
    check_optional_int,
)


@dataclasses.dataclass(frozen=True)
class RaceRules(RulesBase):
    game: ClassVar[str] = "race"

    players: int = 2
    target: int = 10
    rounds: int = 1
    turn_limit: int | None = None

    def validate(self) -> None:
        check_int("players", self.players, 2, 4)
        check_int("target", self.target, 1, 1000)
        check_int("rounds", self.rounds, 1, 10)
        check_optional_int("turn_limit", self.turn_limit, 1, 10_000)


@dataclasses.dataclass(frozen=True, slots=True)
class Step:
    size: int

    def __str__(self) -> str:
        return f"step {self.size}"

    def to_json(self) -> JSON:
        return {"size": self.size}


@dataclasses.dataclass(frozen=True, slots=True)
class Bonus(Event):
    seat: int


@dataclasses.dataclass(frozen=True, slots=True)
class RoundOver(Event):
    points: tuple[int, ...]


class RaceGame(Game[Step]):
    name = "race"
    title = "Race"
    rules_type = RaceRules

    @property
    def num_actions(self) -> int:
        return 2

    def encode(self, move: Step) -> int:
        return move.size - 1

    def decode(self, action: int) -> Step:
        self.check_action(action)
        return Step(action + 1)

    def new_state(self, rules: RulesBase, seed: int) -> RaceState:
        assert isinstance(rules, RaceRules)
        return RaceState(rules, seed)

    def state_from_json(self, data: JSON) -> RaceState:
        state = RaceState(RaceRules.from_json(data["rules"]), data["seed"])
        state.history = list(data["history"])
        state.counters = list(data["counters"])
        state.mover = data["mover"]
        state.steps_this_turn = data["steps_this_turn"]
        state.turns_this_round = data["turns_this_round"]
        state.finished = [RoundResult(tuple(r[0]), tuple(r[1]), r[2], r[3]) for r in data["rounds"]]
        state.rng = Rng.from_state(data["rng"])
        return state

    def move_from_json(self, data: object) -> Step:
        if not isinstance(data, dict) or data.get("size") not in (1, 2):
            raise SerializationError("a step is {'size': 1 or 2}")
        return Step(data["size"])

    def deck(self, rules: RulesBase) -> Counter[int]:
        return Counter()


class RaceState(GameState[Step]):
    game: ClassVar[Game[Any]] = RaceGame()

    def __init__(self, rules: RaceRules, seed: int) -> None:
        self.rules: RaceRules = rules
        self.seed = seed
        self.history = []
        self.rng = Rng(seed)
        self.counters = [0] * rules.players
        self.mover: int | None = self.rng.below(rules.players)
        self.steps_this_turn = 0
        self.turns_this_round = 0
        self.finished: list[RoundResult] = []

    @property
    def num_players(self) -> int:
        return self.rules.players

    @property
    def current_player(self) -> int | None:
        return self.mover

    def legal_actions(self) -> list[int]:
        return [] if self.mover is None else [0, 1]

    def explain_illegal(self, move: Step) -> str:
        return "the game is over" if self.mover is None else f"no such step: {move}"

    def apply_unchecked(self, action: int) -> Outcome[Step]:
        seat = self.mover
        assert seat is not None
        move = self.game.decode(action)
        self.history.append(action)
        events: list[Event] = []
        self.counters[seat] += move.size
        if self.rng.below(4) == 0:
            self.counters[seat] += 1
            events.append(Bonus(seat))
        self.steps_this_turn += 1
        if self.counters[seat] >= self.rules.target:
            self._end_round(seat, events, blocked=False)
        elif move.size == 2 or self.steps_this_turn == 2:
            self.turns_this_round += 1
            self.steps_this_turn = 0
            self.mover = (seat + 1) % self.num_players
            limit = self.rules.turn_limit
            if limit is not None and self.turns_this_round >= limit:
                self._end_round(None, events, blocked=True)
        return Outcome(seat, move, action, tuple(events))

    def _end_round(self, winner: int | None, events: list[Event], blocked: bool) -> None:
        turns = self.turns_this_round + (0 if blocked else 1)
        points = tuple(self.counters)
        winners = () if winner is None else (winner,)
        self.finished.append(RoundResult(points, winners, turns, blocked))
        events.append(RoundOver(points))
        self.counters = [0] * self.num_players
        self.steps_this_turn = self.turns_this_round = 0
        over = blocked or len(self.finished) == self.rules.rounds
        self.mover = None if over else self.rng.below(self.num_players)

    @property
    def is_over(self) -> bool:
        return self.mover is None

    def scores(self) -> tuple[int, ...]:
        return tuple(sum(r.points[seat] for r in self.finished) for seat in range(self.num_players))

    def result(self) -> Result | None:
        if self.mover is not None:
            return None
        scores = self.scores()
        if self.finished[-1].blocked:
            return Result((), scores, blocked=True)
        best = max(scores)
        return Result(tuple(s for s, v in enumerate(scores) if v == best), scores)

    def rounds(self) -> list[RoundResult]:
        return list(self.finished)

    def clone(self) -> Self:
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.history = list(self.history)
        other.counters = list(self.counters)
        other.finished = list(self.finished)
        other.rng = self.rng.clone()
        return other

    def to_json(self) -> JSON:
        return {
            "rules": self.rules.to_json(),
            "seed": self.seed,
            "history": list(self.history),
            "counters": list(self.counters),
            "mover": self.mover,
            "steps_this_turn": self.steps_this_turn,
            "turns_this_round": self.turns_this_round,
            "rounds": [
                [list(r.points), list(r.winners), r.turns, r.blocked] for r in self.finished
            ],
            "rng": self.rng.state,
        }

    def view(self, seat: int | None) -> JSON:
        data = self.to_json()
        del data["rng"]  # the future bonus draws are the only hidden information
        return data

    def determinize(self, seat: int | None, rng: Rng) -> Self:
        other = self.clone()
        other.rng = rng.spawn()
        return other

    def census(self) -> Counter[int]:
        return Counter()


RACE = RaceGame()


class GreedyRaceBot:
    """Always takes small steps: two steps of 1 per turn draw two bonus chances, not one."""

    name = "greedy"

    def choose(self, state: GameState[Any], rng: Rng) -> int:
        return 0
