"""Residual policies on ``hard``'s values (``--prior hard``): the numpy weights add the
prior as PyTorch does, files keep it, a missing prior is an error, and the ``learned``
bot with such weights starts out playing ``hard``'s moves. (The compiled prior and the
trainer's runs: tests/fast/test_hard_prior.py, in the crosscheck tier.)"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("numba")

import numpy as np  # noqa: E402

from cardtable.bots.learned import LearnedBot, shipped_weights, weights_path  # noqa: E402
from cardtable.bots.learned_net import PolicyWeights, load_weights, save_weights  # noqa: E402
from cardtable.bots.skyjo_hard import HardBot, move_values  # noqa: E402
from cardtable.core import Rng  # noqa: E402
from cardtable.encoders.skyjo_obs import SkyjoEncoder  # noqa: E402
from cardtable.rl.gym_env import make_vector_env  # noqa: E402
from cardtable.rl.policy_net import PRIOR_SCALE, PolicyNet, export_weights  # noqa: E402
from cardtable.rl.train import TrainConfig  # noqa: E402
from cardtable.skyjo import GAME  # noqa: E402
from cardtable.skyjo.moves import NUM_ACTIONS  # noqa: E402
from cardtable.skyjo.rules import SkyjoRules  # noqa: E402
from cardtable.skyjo.state import SETUP  # noqa: E402

RULES = SkyjoRules(players=4)


def _net(obs: np.ndarray, prior: str = "hard", hidden: tuple[int, ...] = (64, 48)) -> PolicyNet:
    torch.manual_seed(0)
    inv_std = 1.0 / np.maximum(obs.std(axis=0), 1.0)
    return PolicyNet(obs.mean(axis=0), inv_std, NUM_ACTIONS, hidden, prior=prior)


def _export(net: PolicyNet) -> PolicyWeights:
    return export_weights(net, game="skyjo", players=4, encoder_version=1, info={})


def test_numpy_inference_adds_the_prior_as_pytorch_does() -> None:
    env = make_vector_env("skyjo", 16, engine="fast", rules={"players": 4}, seat=None)
    rng = np.random.default_rng(2)
    obs, infos = env.reset(seed=4)
    seen, masks = [obs], [infos["action_mask"]]
    for _ in range(30):
        noise = rng.random(infos["action_mask"].shape) * infos["action_mask"]
        obs, _, _, _, infos = env.step(np.argmax(noise, axis=1))
        seen.append(obs)
        masks.append(infos["action_mask"])
    all_obs, all_masks = np.concatenate(seen), np.concatenate(masks)
    # Rows shaped as hard_priors gives them: 0 at the best legal move, below 0 elsewhere.
    priors = (-rng.exponential(2.0, all_masks.shape) * all_masks).astype(np.float32)
    net = _net(all_obs)
    with torch.no_grad():
        net.policy.weight.normal_(0.0, 0.5)
        net.alpha.fill_(1.7)  # type: ignore[union-attr]
    weights = _export(net)
    assert weights.prior == "hard" and weights.prior_scale == pytest.approx(1.7)
    with torch.no_grad():
        expected = net(torch.as_tensor(all_obs), torch.as_tensor(priors))[0].numpy()
        masked = net.masked_logits(
            torch.as_tensor(all_obs),
            torch.as_tensor(all_masks.astype(bool)),
            torch.as_tensor(priors),
        )
        unprimed = net.policy(net.trunk((torch.as_tensor(all_obs) - net.mean) * net.inv_std))
    got = weights.logits(all_obs, priors)
    np.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-4)
    assert np.abs(expected - unprimed.numpy()).max() > 1.0  # the prior does count
    for row in range(all_obs.shape[0]):
        if all_masks[row].any():
            choice = weights.best_action(all_obs[row], all_masks[row], priors[row])
            assert choice == int(torch.argmax(masked[row]))


def test_a_prior_is_required_where_the_weights_have_one_and_refused_elsewhere() -> None:
    obs = np.random.default_rng(0).normal(size=(8, 191)).astype(np.float32)
    weights = _export(_net(obs))
    plain = _export(_net(obs, prior=""))
    row, mask = np.zeros(NUM_ACTIONS, dtype=np.float32), np.ones(NUM_ACTIONS)
    with pytest.raises(ValueError, match="add the prior 'hard' to their logits: give its rows"):
        weights.logits(obs)
    with pytest.raises(ValueError, match="add the prior 'hard'"):
        weights.best_action(obs[0], mask)
    with pytest.raises(ValueError, match="have no prior, but prior rows were given"):
        plain.best_action(obs[0], mask, row)
    with pytest.raises(ValueError, match="adds the prior 'hard': give its rows"):
        _net(obs)(torch.as_tensor(obs))
    with pytest.raises(ValueError, match="has no prior"):
        _net(obs, prior="")(torch.as_tensor(obs), torch.zeros((8, NUM_ACTIONS)))
    with pytest.raises(ValueError, match="prior must be one of"):
        _net(obs, prior="expert")
    with pytest.raises(SystemExit, match="--prior does not go with a league"):
        TrainConfig(game="skyjo", prior="hard", opponents="greedy;frozen", league_every=1)
    with pytest.raises(SystemExit, match="--prior must be one of"):
        TrainConfig(game="skyjo", prior="greedy")


def test_the_file_keeps_the_prior_and_older_files_have_none(tmp_path: Path) -> None:
    obs = np.random.default_rng(0).normal(size=(8, 191)).astype(np.float32)
    weights = _export(_net(obs))
    save_weights(tmp_path / "p.npz", weights)
    again = load_weights(tmp_path / "p.npz")
    assert (again.prior, again.prior_scale) == ("hard", PRIOR_SCALE)
    priors = np.full((8, NUM_ACTIONS), -0.5, dtype=np.float32)
    np.testing.assert_allclose(again.logits(obs, priors), weights.logits(obs, priors), atol=1e-5)
    # The shipped weights of both games are residual policies on hard's values.
    for game in ("skyjo", "skipbo"):
        shipped = shipped_weights(game)
        assert shipped.prior == "hard" and shipped.prior_scale > 0
        assert load_weights(weights_path(game)).prior == "hard"


def _positions(seeds: range) -> list[Any]:
    """Positions after set-up along games of ``hard`` bots, four players."""
    found = []
    hard = HardBot()
    for seed in seeds:
        state: Any = GAME.new_state(RULES, seed)
        rng = Rng(seed)
        moves = 0
        while not state.is_over:
            if state.phase != SETUP and moves % 3 == 0:
                found.append(state.clone())
            state.advance(hard.choose(state, rng))
            moves += 1
    return found


def test_the_learned_bot_with_an_untrained_prior_policy_plays_hards_moves() -> None:
    """A fresh residual policy (the trainer's initial network): with the head's logits
    at 0 its moves are ``hard``'s (up to values equal in float32, where the lowest code
    plays); with the head as initialized (logits about 0.01 apart) every move is within
    a small fraction of a point of ``hard``'s best, and nearly all are worth exactly as
    much (``hard``'s move or one of equal value: positions alike in a column are valued
    alike, and the head, not the lowest code, decides among them)."""
    positions = _positions(range(3))
    encoder = SkyjoEncoder(RULES)
    obs = np.stack([encoder.encode_state(s, s.player) for s in positions])
    net = _net(obs, hidden=(256, 256))
    initial = LearnedBot("skyjo", HardBot, _export(net))
    with torch.no_grad():
        net.policy.weight.zero_()
    flat = LearnedBot("skyjo", HardBot, _export(net))
    hard = HardBot()
    same = compared = 0
    for state in positions:
        values = move_values(state)
        if not values:
            continue
        best = min(values.values())
        expected = hard.choose(state, Rng(0))
        choice = flat.choose(state, Rng(0))
        assert choice == expected or np.float32(values[choice] - best) == 0.0
        near = initial.choose(state, Rng(0))
        assert values[near] - best < 0.1, (values[near], best)
        same += values[near] == best  # hard's move, or another move of equal value
        compared += 1
    assert compared > 200 and same >= 0.95 * compared, (same, compared)


def test_weights_with_an_unknown_prior_are_refused_by_the_bot() -> None:
    obs = np.random.default_rng(0).normal(size=(8, 191)).astype(np.float32)
    weights = dataclasses.replace(_export(_net(obs)), prior="expert")
    state: Any = GAME.new_state(RULES, 1)
    while state.phase == SETUP:
        state.advance(state.legal_actions()[0])
    with pytest.raises(ValueError, match="knows the 'hard' prior only"):
        LearnedBot("skyjo", HardBot, weights).choose(state, Rng(0))
