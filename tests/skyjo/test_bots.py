"""The greedy bot: legal, decides from its seat's view only, and clearly beats random."""

from __future__ import annotations

from statistics import mean

from cardtable.bots import bot_names, make_bot
from cardtable.bots.skyjo import GreedyBot
from cardtable.core import Rng
from cardtable.skyjo import GAME, Exchange, SkyjoRules, SkyjoState, TakeDiscard

from .helpers import build, grid


def test_registered() -> None:
    assert {"greedy", "random"} <= set(bot_names("skyjo"))
    assert make_bot("skyjo", "greedy").name == "greedy"


def play_game(names: list[str], seed: int, players: int = 4) -> SkyjoState:
    bots = [make_bot("skyjo", names[seat % len(names)]) for seat in range(players)]
    state = GAME.new_state(SkyjoRules(players=players), seed)
    rng = Rng(seed + 7)
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        action = bots[seat].choose(state, rng)
        assert action in state.legal_actions()
        state.apply_action(action)
    return state


def test_greedy_clearly_beats_random() -> None:
    points: dict[str, list[int]] = {"greedy": [], "random": []}
    wins = {"greedy": 0, "random": 0}
    for seed in range(30):
        state = play_game(["greedy", "random"], seed)
        for result in state.rounds():
            for seat, value in enumerate(result.points):
                points["greedy" if seat % 2 == 0 else "random"].append(value)
        final = state.result()
        assert final is not None
        for seat in final.winners:
            wins["greedy" if seat % 2 == 0 else "random"] += 1
    assert mean(points["random"]) > 30
    assert mean(points["greedy"]) < mean(points["random"]) / 2
    assert wins["greedy"] > 25


def test_greedy_decides_only_from_what_its_seat_sees() -> None:
    bot = GreedyBot()
    for seed in range(6):
        state = GAME.new_state(SkyjoRules(players=3), seed)
        policy = Rng(seed)
        while not state.is_over:
            seat = state.current_player
            assert seat is not None
            redealt = state.determinize(seat, Rng(seed * 1000 + len(state.history)))
            choice = bot.choose(state, Rng(len(state.history)))
            assert bot.choose(redealt, Rng(len(state.history))) == choice
            legal = state.legal_actions()
            state.apply_action(legal[policy.below(len(legal))])


def test_greedy_takes_a_discard_that_lowers_a_known_card() -> None:
    mine = grid("12 * * *  * 3 * *  * * * *")
    state = build([mine, grid("1 * * *  * 2 * *  * * * *")], discard=[1])
    bot = GreedyBot()
    assert GAME.decode(bot.choose(state, Rng(0))) == TakeDiscard()
    state.apply(TakeDiscard())
    assert GAME.decode(bot.choose(state, Rng(0))) == Exchange(0)


def test_greedy_completes_a_column() -> None:
    mine = grid("8 * * *  8 3 * *  2 * * *")
    state = build([mine, grid("1 * * *  * 2 * *  * * * *")], discard=[8])
    bot = GreedyBot()
    assert GAME.decode(bot.choose(state, Rng(0))) == TakeDiscard()
    state.apply(TakeDiscard())
    assert GAME.decode(bot.choose(state, Rng(0))) == Exchange(8)
