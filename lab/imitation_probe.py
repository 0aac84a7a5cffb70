"""How well the trainer's network can copy ``hard``, and how strong the copy plays.

    python -m lab imitation_probe skyjo --samples 1000000 --epochs 8
    python -m lab imitation_probe skipbo --samples 1000000 --epochs 6

Behaviour cloning on the compiled vector envs (extra ``train``): ``--samples`` states
(Skyjo's set-up left out: ``hard`` reveals at random there) where the learner's seat
follows ``hard`` (``teacher_actions``) with a random legal move
one time in ten (so that states off ``hard``'s path are seen too), each labelled with
``hard``'s move; the trainer's network (``--hidden``, ``tanh``) fitted by cross-entropy
over the legal moves (Adam, ``1e-3``, minibatches of 4,096). Prints each epoch's
training loss and the agreement with ``hard`` on a held-out random twentieth of them,
then the copy's result against the target's opponents (Skyjo: 4 players with three
``greedy``; Skip-Bo: 2 players, stock 30, against ``hard``) on ``--games`` deals. A copy
that agrees with ``hard`` everywhere would play as ``hard`` does; the gap says what the
network and the observation miss (docs/bots.md, "Learned").
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from typing import Any

import numpy as np

SETTINGS: dict[str, tuple[dict[str, Any], str]] = {
    "skyjo": ({"players": 4}, "greedy"),
    "skipbo": ({"players": 2, "stock_size": 30}, "hard"),
}


def collect(game: str, samples: int, envs: int, seed: int) -> tuple[Any, Any, Any]:
    """Observations, masks and ``hard``'s moves along ``hard``'s play (10% random); the
    states where ``hard`` gives no label (Skyjo's set-up, where it reveals at random)
    are played at random and not kept."""
    from cardtable.rl.gym_env import make_vector_env

    rules, opponents = SETTINGS[game]
    env: Any = make_vector_env(
        game, envs, engine="fast", rules=rules, opponents=opponents, seat=None,
        autoreset_mode="SameStep",
    )  # fmt: skip
    obs, infos = env.reset(seed=seed)
    masks = infos["action_mask"]
    rng = np.random.default_rng(seed)
    seen: list[np.ndarray] = []
    allowed: list[np.ndarray] = []
    taught: list[np.ndarray] = []
    kept = 0
    while kept < samples:
        teacher = env.teacher_actions()
        labelled = teacher >= 0
        seen.append(obs[labelled])
        allowed.append(masks[labelled].astype(bool))
        taught.append(teacher[labelled])
        kept += int(labelled.sum())
        wander = (rng.random(masks.shape) * masks).argmax(axis=1)
        actions = np.where((rng.random(envs) < 0.1) | ~labelled, wander, teacher)
        obs, _, _, _, infos = env.step(actions)
        masks = infos["action_mask"]
    parts = (np.concatenate(seen), np.concatenate(allowed), np.concatenate(taught))
    return parts[0][:samples], parts[1][:samples], parts[2][:samples]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game", choices=sorted(SETTINGS))
    parser.add_argument("--samples", type=int, default=1_000_000)
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--hidden", type=int, nargs="+", default=[256, 256])
    parser.add_argument("--envs", type=int, default=256)
    parser.add_argument("--games", type=int, default=1000, help="deals the copy plays (1000)")
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args(argv)

    import torch

    from cardtable.games import get_game
    from cardtable.rl.evaluate import evaluate
    from cardtable.rl.policy_net import MASKED, PolicyNet, export_weights
    from cardtable.rl.train import encoder_version

    torch.set_num_threads(1)
    torch.manual_seed(0)
    started = time.process_time()
    obs_np, masks_np, taught_np = collect(args.game, args.samples, args.envs, args.seed)
    print(f"{len(obs_np):,} states in {time.process_time() - started:.1f} s of CPU", flush=True)
    std = obs_np.std(axis=0)
    inv_std = np.where(std > 1e-6, 1.0 / np.maximum(std, 1e-6), 1.0)
    net = PolicyNet(obs_np.mean(axis=0), inv_std, get_game(args.game).num_actions, args.hidden)
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
    obs, masks = torch.as_tensor(obs_np), torch.as_tensor(masks_np)
    taught = torch.as_tensor(taught_np)
    # A random twentieth of the states, held out: not the first games of each env.
    shuffled = torch.randperm(len(obs))
    held_out, trained = shuffled[: len(obs) // 20], shuffled[len(obs) // 20 :]
    for epoch in range(args.epochs):
        order = trained[torch.randperm(len(trained))]
        total = 0.0
        batches = 0
        for start in range(0, len(order), 4096):
            index = order[start : start + 4096]
            logits = net(obs[index])[0].masked_fill(~masks[index], MASKED)
            loss = torch.nn.functional.cross_entropy(logits, taught[index])
            optimizer.zero_grad()
            loss.backward()  # type: ignore[no-untyped-call]  # torch leaves it unannotated
            optimizer.step()
            total += float(loss.detach())
            batches += 1
        with torch.no_grad():
            logits = net(obs[held_out])[0].masked_fill(~masks[held_out], MASKED)
            agree = float((logits.argmax(dim=1) == taught[held_out]).float().mean())
        print(
            f"epoch {epoch + 1}: loss {total / batches:.4f}, held-out agreement with hard "
            f"{100 * agree:.1f}% ({time.process_time() - started:.0f} s of CPU)",
            flush=True,
        )
    rules, opponents = SETTINGS[args.game]
    version = encoder_version(args.game)
    weights = export_weights(
        net, game=args.game, players=rules["players"], encoder_version=version, info={}
    )
    result = evaluate(weights, args.game, rules, opponents, games=args.games, seed=99)
    print(
        f"the copy against {opponents}: {100 * result.win_rate:.1f}% wins, "
        f"{result.learner_points:.2f} points a round against {result.opponent_points:.2f} "
        f"({args.games} games)"
    )


if __name__ == "__main__":
    main()
