"""The fast move path ``advance``: the same states as ``apply_unchecked``, without move records."""

from __future__ import annotations

import sys
from typing import Any

import pytest

from cardtable.core import Event, GameState, Outcome, Rng, RulesBase
from cardtable.core.conformance import fast_path_difference
from cardtable.skipbo import GAME as SKIPBO
from cardtable.skipbo import SkipBoRules
from cardtable.skyjo import GAME as SKYJO
from cardtable.skyjo import SkyjoRules

from ..sim.racegame import RACE, RaceRules

CASES: list[tuple[Any, RulesBase]] = [
    (SKYJO, SkyjoRules()),
    (SKYJO, SkyjoRules(players=2, rows_rule=True, closer_starts_next=True)),
    (SKYJO, SkyjoRules(players=6, closer_doubling=False, end_score=60)),
    (SKIPBO, SkipBoRules(players=2, stock_size=5)),
    (SKIPBO, SkipBoRules(players=4, teams=True, stock_size=5, discard_to_partner=True)),
    (SKIPBO, SkipBoRules(players=3, stock_size=5, rounds=True, target=80)),
]


def ids(case: tuple[Any, RulesBase]) -> str:
    return f"{case[0].name}-{case[1].to_json()}"


@pytest.mark.parametrize("case", CASES, ids=ids)
def test_advance_and_apply_reach_the_same_state_after_every_move(
    case: tuple[Any, RulesBase],
) -> None:
    game, rules = case
    for seed in range(4):
        slow: GameState[Any] = game.new_state(rules, seed)
        fast: GameState[Any] = game.new_state(rules, seed)
        rng = Rng(seed)
        moves = 0
        while not slow.is_over and moves < 4000:
            legal = slow.legal_actions()
            action = legal[rng.below(len(legal))]
            slow.apply_unchecked(action)
            fast.advance(action)
            moves += 1
            assert fast_path_difference(fast, slow) is None, (seed, moves)
        assert fast.is_over == slow.is_over
        assert fast.replayed() == fast


def test_the_protocol_default_applies_the_move_for_a_game_without_its_own() -> None:
    slow = RACE.new_state(RaceRules(players=3), 5)
    fast = RACE.new_state(RaceRules(players=3), 5)
    rng = Rng(1)
    while not slow.is_over:
        action = slow.legal_actions()[rng.below(2)]
        slow.apply_unchecked(action)
        fast.advance(action)
        assert fast == slow


@pytest.mark.parametrize("game", [SKYJO, SKIPBO], ids=lambda game: game.name)
def test_advance_builds_no_outcome_and_no_event(game: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[type] = []
    engine = sys.modules[type(game.new_state(game.rules_type(), 0)).__module__]
    for name, value in vars(engine).copy().items():
        if isinstance(value, type) and (issubclass(value, Event) or value is Outcome):

            def counting(*args: Any, cls: type = value) -> Any:
                built.append(cls)
                return cls(*args)

            monkeypatch.setattr(engine, name, counting)
    rules = game.rules_type(players=3)
    state = game.new_state(rules, 3)
    rng = Rng(3)
    for _ in range(600):
        legal = state.legal_actions()
        if not legal:
            break
        state.advance(legal[rng.below(len(legal))])
    assert built == []
    # The counter works: the recording path builds both.
    probe = game.new_state(rules, 3)
    probe.apply_unchecked(probe.legal_actions()[0])
    assert Outcome in built
    assert any(issubclass(cls, Event) for cls in built)
