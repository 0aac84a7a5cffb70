"""naive, hard and expert bots of both games: registered, legal, deterministic, view-only."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.bots import bot_names, make_bot
from cardtable.bots.expert import SkipBoExpert, SkyjoExpert
from cardtable.bots.levels import LEVELS, resolve_bot
from cardtable.bots.montecarlo import Budget
from cardtable.core import GameState, Rng
from cardtable.games import get_game
from cardtable.sim.tournament import run_tournament
from cardtable.skyjo.state import SkyjoState

RULES = {"skipbo": {"players": 2, "stock_size": 10}, "skyjo": {"players": 3}}
FAST = ("naive", "hard")


def new_state(game: str, seed: int, **options: Any) -> GameState[Any]:
    engine = get_game(game)
    return engine.new_state(engine.rules_from_json({**RULES[game], **options}), seed)


def random_position(game: str, seed: int, moves: int) -> GameState[Any]:
    """The position after ``moves`` random moves (or the last before the end)."""
    state = new_state(game, seed)
    rng = Rng(seed)
    for _ in range(moves):
        legal = state.legal_actions()
        if not legal:
            break
        following = state.clone()
        following.apply_action(legal[rng.below(len(legal))])
        if following.is_over:
            break
        state = following
    return state


@pytest.mark.parametrize("game", ["skipbo", "skyjo"])
def test_registered_with_levels(game: str) -> None:
    assert {"naive", "greedy", "hard", "expert", "random"} <= set(bot_names(game))
    for level, name in LEVELS.items():
        assert resolve_bot(game, level) == name
        assert make_bot(game, resolve_bot(game, level)).name == name
    assert resolve_bot(game, "random") == "random"  # a bot's own name is taken as it is
    with pytest.raises(KeyError, match=r"'grandmaster'.*known: easy, medium, hard, expert"):
        resolve_bot(game, "grandmaster")


@settings(max_examples=40, deadline=None)
@given(
    game=st.sampled_from(["skipbo", "skyjo"]),
    name=st.sampled_from(FAST),
    seed=st.integers(0, 10_000),
    moves=st.integers(0, 250),
)
def test_fast_bots_always_choose_a_legal_move(game: str, name: str, seed: int, moves: int) -> None:
    state = random_position(game, seed, moves)
    bot = make_bot(game, name)
    assert bot.choose(state, Rng(seed)) in state.legal_actions()


@pytest.mark.parametrize("game", ["skipbo", "skyjo"])
@pytest.mark.parametrize("name", FAST)
def test_deterministic_for_a_seed_and_view_only(game: str, name: str) -> None:
    """Same seed, same choice; re-dealing what the seat cannot see changes nothing."""
    bot = make_bot(game, name)
    for seed in range(3):
        state = new_state(game, seed)
        players = [make_bot(game, "greedy") for _ in range(state.num_players)]
        rng = Rng(seed)
        while not state.is_over and len(state.history) < 400:
            seat = state.current_player
            assert seat is not None
            count = len(state.history)
            choice = bot.choose(state, Rng(count))
            assert choice in state.legal_actions()
            assert bot.choose(state, Rng(count)) == choice
            redealt = state.determinize(seat, Rng(seed * 7919 + count))
            assert bot.choose(redealt, Rng(count)) == choice
            state.apply_action(players[seat].choose(state, rng))


@pytest.mark.parametrize("game", ["skipbo", "skyjo"])
def test_expert_is_legal_deterministic_and_view_only(game: str) -> None:
    if game == "skipbo":
        bot: Any = SkipBoExpert(Budget(iterations=2, milliseconds=None))
    else:
        bot = SkyjoExpert(Budget(iterations=3, milliseconds=None))
    state = random_position(game, 5, 30)
    seat = state.current_player
    assert seat is not None
    choice = bot.choose(state, Rng(1))
    assert choice in state.legal_actions()
    assert bot.choose(state, Rng(1)) == choice
    assert bot.choose(state.determinize(seat, Rng(99)), Rng(1)) == choice


@pytest.mark.parametrize("game", ["skipbo", "skyjo"])
def test_smoke_tournament_hard_beats_random(game: str) -> None:
    engine = get_game(game)
    rules = engine.rules_from_json(
        {"players": 2, "stock_size": 5} if game == "skipbo" else {"players": 2}
    )
    result = run_tournament(engine, rules, ["hard", "random"], 12, seed=4, paired=True)
    assert result.bot("hard").wins >= 10


def test_four_skyjo_hard_bots_go_out_instead_of_waiting_for_ever() -> None:
    # Seed 1: all four reach one face-down card each, and each fears the closer's
    # doubling; before the patience term they exchanged face-up cards for ever.
    game = get_game("skyjo")
    state = game.new_state(game.rules_from_json({"players": 4}), 1)
    bots = [make_bot("skyjo", "hard") for _ in range(4)]
    rng = Rng(1)
    moves = 0
    while not state.is_over and moves < 5000:
        seat = state.current_player
        assert seat is not None
        state.apply_action(bots[seat].choose(state, rng))
        moves += 1
    assert state.is_over
    longest = max(round_.turns for round_ in state.rounds())
    assert longest <= 4 * 30  # patience 20 turns per player, then the fear halves every 2


def test_skyjo_hard_fears_the_doubling_fully_in_a_normal_round_only() -> None:
    from cardtable.bots.skyjo_hard import HardBot

    game = get_game("skyjo")
    state = game.new_state(game.rules_from_json({"players": 4}), 1)
    bot = HardBot()
    assert isinstance(state, SkyjoState)
    state.turns = 4 * 20
    assert bot.doubling_fear(state) == 1.0
    state.turns = 4 * 22
    assert bot.doubling_fear(state) == pytest.approx(0.5)
    state.turns = 4 * 30
    assert bot.doubling_fear(state) == pytest.approx(0.5**5)


def test_skyjo_hard_plays_on_after_a_row_leaves_its_grid() -> None:
    # rows_rule, seed 2: a row of four equal cards leaves a grid; hard once crashed
    # there, taking every column with a missing cell for a removed column.
    from cardtable.bots.skyjo_hard import HardBot
    from cardtable.skyjo.cards import ROW_MASKS

    game = get_game("skyjo")
    state = game.new_state(game.rules_from_json({"players": 2, "rows_rule": True}), 2)
    assert isinstance(state, SkyjoState)
    bot = HardBot()
    rng = Rng(2)
    rows_gone = 0
    while not state.is_over:
        action = bot.choose(state, rng)
        assert action in state.legal_actions()
        state.advance(action)
        rows_gone = max(
            rows_gone,
            sum(
                1
                for present in state.present
                for mask in ROW_MASKS
                if present and not present & mask
            ),
        )
    assert rows_gone >= 1
