"""The vector envs' teacher (``teacher_actions``): the move ``hard`` would play in
each learner seat, as the Python ``HardBot`` chooses it, and asking changes nothing.

In the ``crosscheck`` tier (``make crosscheck``): each game's teacher kernel compiles
``hard`` once more, 45 s of CPU apiece, for a term only the trainer's ``--teacher``
runs use."""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("gymnasium")
pytest.importorskip("numba")

import numpy as np

from cardtable.bots.skipbo_hard import HardBot as SkipBoHard
from cardtable.bots.skyjo_hard import HardBot as SkyjoHard
from cardtable.core import Rng
from cardtable.rl.gym_env import make_vector_env
from cardtable.skyjo.state import SETUP

pytestmark = pytest.mark.crosscheck

CASES = [
    ("skyjo", {"players": 3}, "greedy", SkyjoHard),
    ("skipbo", {"players": 2, "stock_size": 10}, "greedy", SkipBoHard),
    # The envs whose opponents are hard already hold its weights: the teacher shares them.
    ("skipbo", {"players": 3, "stock_size": 5}, "hard", SkipBoHard),
]


def _in_setup(game: str, state: Any) -> bool:
    return game == "skyjo" and state.phase == SETUP


@pytest.mark.parametrize(("game", "rules", "opponents", "bot"), CASES)
def test_teacher_actions_are_hard_bots_choices(game, rules, opponents, bot) -> None:
    options: dict[str, Any] = {"rules": rules, "opponents": opponents, "seat": None}
    fast = make_vector_env(game, 6, engine="fast", autoreset_mode="SameStep", **options)
    reference = make_vector_env(game, 6, autoreset_mode="SameStep", **options)
    _, infos = fast.reset(seed=11)
    reference.reset(seed=11)
    rng = np.random.default_rng(3)
    compared = 0
    for _ in range(50):
        before = [array.copy() for array in fast.batch.st]
        taught = fast.teacher_actions()
        assert all(np.array_equal(a, b) for a, b in zip(before, fast.batch.st, strict=True))
        masks = infos["action_mask"]
        for index, env in enumerate(reference.envs):
            state = env.game_state
            if _in_setup(game, state):
                assert taught[index] == -1  # hard reveals at random there: no label
                continue
            assert taught[index] >= 0 and masks[index, taught[index]] == 1
            assert taught[index] == bot().choose(state, Rng(0)), index
            compared += 1
        actions = (rng.random(masks.shape) * masks).argmax(axis=1)
        _, _, _, _, infos = fast.step(actions)
        reference.step(actions)
    assert compared > 200


def test_the_teacher_answers_minus_one_where_the_learner_is_not_to_move() -> None:
    """A finished episode (autoreset disabled) has nobody to move: -1 there, a legal
    move of the learner in every other env."""
    env = make_vector_env("skyjo", 4, engine="fast", opponents="random", autoreset_mode="Disabled")
    _, infos = env.reset(seed=1)
    rng = np.random.default_rng(0)
    ended = np.zeros(4, dtype=bool)
    while not ended.any():
        masks = infos["action_mask"]
        actions = (rng.random(masks.shape) * masks).argmax(axis=1)
        _, _, terminated, truncated, infos = env.step(actions)
        ended = terminated | truncated
    taught = env.teacher_actions()
    for index in range(4):
        if ended[index] or env.batch.phase[index] == SETUP:
            assert taught[index] == -1
        else:
            assert infos["action_mask"][index, taught[index]] == 1


def _agreement(trainer, env, steps: int = 30) -> float:
    """How often the learner's best move is ``hard``'s, along the learner's own play."""
    weights = trainer.weights()
    obs, infos = env.reset(seed=77)
    same = total = 0
    for _ in range(steps):
        masks = infos["action_mask"]
        taught = env.teacher_actions()
        mine = np.array([weights.best_action(o, m) for o, m in zip(obs, masks, strict=True)])
        labelled = taught >= 0  # not Skyjo's set-up, where hard reveals at random
        same += int((mine == taught)[labelled].sum())
        total += int(labelled.sum())
        obs, _, _, _, infos = env.step(mine)
    return same / total


def test_kickstarting_teaches_hards_moves(tmp_path) -> None:
    """30 updates with the imitation term alone weighing (no reward to learn from in
    so few steps): the learner's best move agrees with ``hard``'s far more often than
    the untrained network's did, and the log records the term."""
    torch = pytest.importorskip("torch")
    from cardtable.rl.train import TrainConfig, Trainer

    torch.manual_seed(0)
    config = TrainConfig(
        game="skyjo", players=2, opponents="greedy", envs=32, horizon=32, hidden=[64, 64],
        minibatch=256, learning_rate=3e-3, updates=30, eval_every=30, checkpoint_every=30,
        eval_games=16, teacher="hard", teacher_coef=5.0, teacher_updates=60,
    )  # fmt: skip
    trainer = Trainer(config, tmp_path / "run")
    probe = make_vector_env("skyjo", 16, engine="fast", rules={"players": 2}, opponents="greedy")
    before = _agreement(trainer, probe)
    rows = trainer.run(progress=False)
    after = _agreement(trainer, probe)
    assert after >= before + 0.25 and after >= 0.6, (before, after)
    assert rows[0]["imitation_loss"] > rows[-1]["imitation_loss"] > 0
    with pytest.raises(SystemExit, match="--teacher must be one of"):
        TrainConfig(game="skyjo", teacher="expert")


def test_the_imitation_probe_reports_agreement_and_the_copys_result(capsys) -> None:
    """``python -m lab imitation_probe`` on a few thousand states: every epoch's
    agreement, then the copy's games (the teacher kernels compile here too)."""
    pytest.importorskip("torch")
    from lab import imitation_probe

    imitation_probe.main(["skyjo", "--samples", "4096", "--epochs", "2", "--hidden", "32",
                          "--envs", "64", "--games", "8"])  # fmt: skip
    out = capsys.readouterr().out
    assert "4,096 states" in out
    assert out.count("held-out agreement with hard") == 2
    assert "the copy against greedy:" in out and "(8 games)" in out
