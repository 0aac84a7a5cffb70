"""The ``learned`` bots: the shipped weights play legal, view-only, whole games (numpy only)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")

from cardtable.bots import make_bot  # noqa: E402
from cardtable.bots.learned import LearnedBot, shipped_weights, weights_path  # noqa: E402
from cardtable.bots.learned_net import load_weights, save_weights  # noqa: E402
from cardtable.bots.levels import resolve_bot  # noqa: E402
from cardtable.core import Rng  # noqa: E402
from cardtable.games import get_game  # noqa: E402
from cardtable.sim.tournament import run_tournament  # noqa: E402

#: The player counts the shipped weights were trained for.
TRAINED = {"skyjo": {"players": 4}, "skipbo": {"players": 2, "stock_size": 10}}


def _positions(game: str, options: dict[str, Any], seeds: range) -> list[Any]:
    """Positions along games of ``hard`` bots (every phase of the game)."""
    engine = get_game(game)
    rules = engine.rules_from_json(options)
    hard = make_bot(game, "hard")
    found = []
    for seed in seeds:
        state = engine.new_state(rules, seed)
        rng = Rng(seed)
        moves = 0
        while not state.is_over and moves < 400:
            if moves % 7 == 0:
                found.append(state.clone())
            state.advance(hard.choose(state, rng))
            moves += 1
    return found


@pytest.mark.parametrize("game", ["skyjo", "skipbo"])
def test_the_level_names_the_shipped_weights(game: str) -> None:
    assert resolve_bot(game, "learned") == "learned"
    weights = shipped_weights(game)
    assert weights.game == game
    assert weights.players == TRAINED[game]["players"]
    assert weights.num_actions == get_game(game).num_actions


@pytest.mark.parametrize("game", ["skyjo", "skipbo"])
def test_always_legal_and_view_only(game: str) -> None:
    """A legal move in every position, and the same move when every card the seat cannot
    see is re-dealt (the observation carries only the seat's view)."""
    bot = make_bot(game, "learned")
    for index, state in enumerate(_positions(game, TRAINED[game], range(3))):
        seat = state.current_player
        choice = bot.choose(state, Rng(index))
        assert choice in state.legal_actions()
        assert bot.choose(state.determinize(seat, Rng(index + 99)), Rng(5)) == choice


@pytest.mark.parametrize("game", ["skyjo", "skipbo"])
def test_plays_whole_games_through_sim(game: str) -> None:
    engine = get_game(game)
    rules = engine.rules_from_json(TRAINED[game])
    players = TRAINED[game]["players"]
    names = ["learned"] + ["greedy"] * (players - 1)
    result = run_tournament(engine, rules, names, players, seed=3, paired=True)
    assert result.bot("learned").games == players
    assert sum(bot.wins for bot in result.bots) >= players  # every game ended with a winner


def test_other_player_counts_play_hards_move() -> None:
    """Trained for four Skyjo players, it plays ``hard``'s move at three."""
    bot = make_bot("skyjo", "learned")
    hard = make_bot("skyjo", "hard")
    for index, state in enumerate(_positions("skyjo", {"players": 3}, range(2))):
        assert bot.choose(state, Rng(index)) == hard.choose(state, Rng(index))


def test_a_file_of_another_encoder_version_or_format_is_refused(tmp_path: Path) -> None:
    weights = load_weights(weights_path("skyjo"))
    path = tmp_path / "w.npz"
    save_weights(path, weights)
    with pytest.raises(ValueError, match="encoder version 1, this version encodes version 2"):
        load_weights(path, encoder_version=2)
    with np.load(path) as archive:
        arrays = {name: archive[name] for name in archive.files}
    meta = json.loads(str(arrays.pop("meta")))
    meta["format"] = 99
    np.savez(tmp_path / "old.npz", meta=np.array(json.dumps(meta)), **arrays)
    with pytest.raises(ValueError, match="weights format 99, this version reads 1"):
        load_weights(tmp_path / "old.npz")


def test_saved_weights_load_back_to_the_same_logits(tmp_path: Path) -> None:
    weights = load_weights(weights_path("skipbo"))
    save_weights(tmp_path / "again.npz", weights)
    again = load_weights(tmp_path / "again.npz")
    rng = np.random.default_rng(0)
    obs = rng.normal(size=(5, weights.obs_size))
    priors = -rng.exponential(2.0, size=(5, weights.num_actions))
    assert np.array_equal(weights.logits(obs, priors), again.logits(obs, priors))
    assert (again.prior, again.prior_scale) == (weights.prior, weights.prior_scale)
    assert again.info == weights.info


def test_no_legal_move_is_an_error_not_a_move() -> None:
    weights = load_weights(weights_path("skyjo"))
    with pytest.raises(ValueError, match="no legal action"):
        weights.best_action(np.zeros(weights.obs_size), np.zeros(weights.num_actions))
    bot = LearnedBot("skyjo", lambda: make_bot("skyjo", "hard"), weights=weights)
    assert bot.plays_itself(4) and not bot.plays_itself(2)
