"""The trainer (masked PPO, extra ``train``): numpy inference equals PyTorch, a few
seconds of training beat random play, and a resumed run continues exactly."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("numba")

import numpy as np  # noqa: E402

from cardtable.bots.learned_net import load_weights  # noqa: E402
from cardtable.fast.skyjo_bots import TOURNAMENT_NAMES  # noqa: E402
from cardtable.rl.evaluate import Evaluation, evaluate  # noqa: E402
from cardtable.rl.gym_env import make_vector_env  # noqa: E402
from cardtable.rl.policy_net import MASKED, PolicyNet, export_weights  # noqa: E402
from cardtable.rl.train import TrainConfig, Trainer, parse_args  # noqa: E402
from cardtable.rl.training_plot import plot_training  # noqa: E402

#: A tiny setting: two-player Skyjo against the random bot, a small network.
TINY = {
    "players": 2,
    "opponents": "random",
    "eval_opponents": "random",
    "envs": 32,
    "horizon": 32,
    "hidden": [32, 32],
    "minibatch": 256,
    "learning_rate": 3e-3,
    "eval_games": 200,
    "threads": 1,
}


def _observations(game: str, players: int, steps: int = 40) -> tuple[np.ndarray, np.ndarray]:
    """Observations and masks along random legal play of the fast vector env."""
    env = make_vector_env(game, 16, engine="fast", rules={"players": players}, seat=None)
    rng = np.random.default_rng(2)
    obs, infos = env.reset(seed=4)
    seen, masks = [obs], [infos["action_mask"]]
    for _ in range(steps):
        noise = rng.random(infos["action_mask"].shape) * infos["action_mask"]
        obs, _, _, _, infos = env.step(np.argmax(noise, axis=1))
        seen.append(obs)
        masks.append(infos["action_mask"])
    return np.concatenate(seen), np.concatenate(masks)


@pytest.mark.parametrize(("game", "players"), [("skyjo", 4), ("skipbo", 2)])
def test_numpy_inference_equals_the_pytorch_policy(game: str, players: int) -> None:
    obs, masks = _observations(game, players)
    torch.manual_seed(0)
    mean = obs.mean(axis=0)
    inv_std = 1.0 / np.maximum(obs.std(axis=0), 1.0)
    net = PolicyNet(mean, inv_std, masks.shape[1], (64, 48))
    # Larger weights than the initial ones, so that the logits differ between moves.
    with torch.no_grad():
        net.policy.weight.normal_(0.0, 0.5)
    weights = export_weights(net, game=game, players=players, encoder_version=1, info={})
    with torch.no_grad():
        expected = net(torch.as_tensor(obs))[0].numpy()
        masked = net.masked_logits(torch.as_tensor(obs), torch.as_tensor(masks.astype(bool)))
    got = weights.logits(obs)
    assert got.shape == expected.shape
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-4)
    assert np.ptp(got, axis=1).min() > 0.01  # the logits do tell moves apart
    for row in range(obs.shape[0]):
        if not masks[row].any():
            continue
        choice = weights.best_action(obs[row], masks[row])
        assert masks[row, choice] == 1
        assert choice == int(torch.argmax(masked[row]))
    assert float(masked[~torch.as_tensor(masks.astype(bool))].max()) == MASKED


def test_a_few_seconds_of_training_beat_random_play(tmp_path: Path) -> None:
    """40 updates (40,960 steps, about 4 s of CPU) against the random bot, on 200 fixed
    deals with the same draws: the untrained network plays uniformly at random among
    the legal moves (its logits are nearly equal) and wins about half its games; the
    trained one, playing as it trains (drawing from its softmax), wins clearly more and
    scores at least 10 points a round fewer. (Its best moves are no measure here: an
    untrained network's fixed preferences already beat the random bot.)"""
    config = TrainConfig(game="skyjo", updates=40, eval_every=40, checkpoint_every=40, **TINY)
    trainer = Trainer(config, tmp_path / "run")

    def measured() -> Evaluation:
        return evaluate(
            trainer.weights(), "skyjo", config.rules(), "random", games=200, seed=5, sample_seed=6
        )

    before = measured()
    assert 0.4 <= before.win_rate <= 0.6
    rows = trainer.run(progress=False)
    after = measured()
    assert rows[-1]["steps"] == 40 * 32 * 32
    assert after.win_rate >= before.win_rate + 0.15
    assert after.learner_points <= before.learner_points - 10
    assert (tmp_path / "run" / "best.npz").exists()


def test_a_resumed_run_continues_as_the_uninterrupted_run(tmp_path: Path) -> None:
    settings = {**TINY, "envs": 8, "horizon": 16, "minibatch": 64, "eval_games": 16}
    whole = TrainConfig(game="skyjo", updates=4, checkpoint_every=2, eval_every=2, **settings)
    Trainer(whole, tmp_path / "whole").run(progress=False)
    first = TrainConfig(game="skyjo", updates=3, checkpoint_every=2, eval_every=2, **settings)
    Trainer(first, tmp_path / "parts").run(progress=False)
    # Killed after logging update 3 but before its segment's checkpoint (at update 4):
    # the checkpoint holds update 2, as the last one written before it.
    Trainer(
        TrainConfig(game="skyjo", updates=2, checkpoint_every=2, eval_every=2, **settings),
        tmp_path / "two",
    ).run(progress=False)
    (tmp_path / "two" / "checkpoint.pt").replace(tmp_path / "parts" / "checkpoint.pt")
    # The same command again with more updates: it resumes from the checkpoint.
    again, folder, _ = parse_args(["skyjo", str(tmp_path / "parts"), "--updates", "4"])
    assert again.updates == 4 and again.envs == 8
    Trainer(again, folder).run(progress=False)
    a = load_weights(tmp_path / "whole" / "policy.npz")
    b = load_weights(tmp_path / "parts" / "policy.npz")
    for (wa, ba), (wb, bb) in zip(a.layers, b.layers, strict=True):
        assert np.array_equal(wa, wb) and np.array_equal(ba, bb)

    def log(name: str) -> list[dict[str, str]]:
        with (tmp_path / name / "log.csv").open() as handle:
            return [
                {k: v for k, v in row.items() if k != "seconds"} for row in csv.DictReader(handle)
            ]

    assert log("whole") == log("parts")
    assert json.loads((tmp_path / "parts" / "config.json").read_text())["updates"] == 4
    # The curves of docs/rl.md are drawn from the log.
    plot_training(tmp_path / "parts", tmp_path / "curves.png")
    assert (tmp_path / "curves.png").read_bytes().startswith(b"\x89PNG")


def test_resuming_with_other_settings_is_refused(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps({"game": "skyjo", "envs": 8}))
    with pytest.raises(SystemExit, match=r"other settings \(envs\)"):
        parse_args(["skyjo", str(folder), "--envs", "16"])
    with pytest.raises(SystemExit, match="holds a skyjo run, not skipbo"):
        parse_args(["skipbo", str(folder)])


def test_groups_of_envs_meet_different_opponents(tmp_path: Path) -> None:
    """``--opponents "random;hard"``: half the envs against ``random``, half against
    ``hard`` (the compiled bots' codes in each group's env), trained together."""
    settings = {**TINY, "envs": 8, "horizon": 8, "minibatch": 32, "eval_games": 8}
    settings["opponents"] = "random;hard"
    config = TrainConfig(game="skyjo", updates=1, eval_every=1, checkpoint_every=1, **settings)
    trainer = Trainer(config, tmp_path / "run")
    assert [env.num_envs for env in trainer.envs] == [4, 4]
    rows = trainer.run(progress=False)
    assert rows[-1]["steps"] == 8 * 8
    for env, bot in zip(trainer.envs, ("random", "hard"), strict=True):
        opponents = [env.kinds[b, s] for b in range(4) for s in range(2) if s != env.seats[b]]
        assert set(opponents) == {TOURNAMENT_NAMES.index(bot)}
    with pytest.raises(SystemExit, match="does not split into 3 groups"):
        Trainer(TrainConfig(game="skyjo", envs=8, opponents="random;greedy;hard"), tmp_path / "x")


def test_a_league_run_plays_its_snapshots_and_resumes_exactly(tmp_path: Path) -> None:
    """``--opponents "random;frozen" --league-every 1 --league-pool 2``: half the envs
    play the learner's two latest snapshots (refreshed at every update), and a run
    resumed from its checkpoint holds the same league and ends as the whole run."""
    settings = {**TINY, "envs": 8, "horizon": 16, "minibatch": 64, "eval_games": 16}
    settings.update(opponents="random;frozen", league_every=1, league_pool=2)
    whole = Trainer(
        TrainConfig(game="skyjo", updates=4, checkpoint_every=2, eval_every=2, **settings),
        tmp_path / "whole",
    )
    assert [env.num_envs for env in whole.league_envs] == [4]
    whole_rows = whole.run(progress=False)
    # Snapshots of the weights after updates 2 and 3, taken before updates 3 and 4.
    assert [weights.info["update"] for weights in whole.league] == [2, 3]
    first = TrainConfig(game="skyjo", updates=2, checkpoint_every=2, eval_every=2, **settings)
    Trainer(first, tmp_path / "parts").run(progress=False)
    again, folder, _ = parse_args(["skyjo", str(tmp_path / "parts"), "--updates", "4"])
    resumed = Trainer(again, folder)
    assert [weights.info["update"] for weights in resumed.league] == [0, 1]
    resumed_rows = resumed.run(progress=False)
    for mine, theirs in zip(resumed.league, whole.league, strict=True):
        for (wa, ba), (wb, bb) in zip(mine.layers, theirs.layers, strict=True):
            assert np.array_equal(wa, wb) and np.array_equal(ba, bb)
    drop = ("seconds",)
    assert [{k: v for k, v in row.items() if k not in drop} for row in resumed_rows] == [
        {k: v for k, v in row.items() if k not in drop} for row in whole_rows[2:]
    ]
    a = load_weights(tmp_path / "whole" / "policy.npz")
    b = load_weights(tmp_path / "parts" / "policy.npz")
    for (wa, ba), (wb, bb) in zip(a.layers, b.layers, strict=True):
        assert np.array_equal(wa, wb) and np.array_equal(ba, bb)
    with pytest.raises(SystemExit, match="need --league-every N > 0"):
        TrainConfig(game="skyjo", opponents="greedy;frozen")
    with pytest.raises(SystemExit, match="--league-pool must be at least 1"):
        TrainConfig(game="skyjo", opponents="frozen", league_every=5, league_pool=0)
