"""Masked PPO on the compiled vector envs: ``python -m cardtable.rl.train GAME FOLDER``.

Extra ``train`` (PyTorch for CPU). The learner plays one seat (drawn at every deal)
of ``--envs`` games on the batch engine against compiled bots; illegal actions are
masked out of the softmax, so it never plays one. Every ``--checkpoint-every``
updates the run writes its folder:

- ``config.json``: the run's settings (a resumed run reads them from here);
- ``checkpoint.pt``: network, optimizer, PyTorch's generator, update and step counts;
- ``log.csv``: one row per update (losses, entropy, reward per step) and, every
  ``--eval-every`` updates, the evaluation against the bots (:mod:`.evaluate`);
- ``policy.npz``: the latest weights for numpy (:mod:`cardtable.bots.learned_net`),
  ``best.npz``: those of the best evaluation so far.

Self-play league: ``--opponents "greedy;frozen" --league-every N [--league-pool K]``
gives the envs of the ``frozen`` group the learner's own K latest snapshots as
opponents (played in the kernel, :mod:`cardtable.fast.frozen_policy`); every N updates
the current weights replace the oldest snapshot. The snapshots are in the checkpoint.

Residual policy on ``hard``: ``--prior hard`` adds ``alpha`` times ``hard``'s
value of each legal move (the env's ``hard_priors``, :mod:`.policy_net`) to the
network's logits, so that the untrained policy plays ``hard``'s moves and PPO learns
corrections; the rollouts keep each step's prior rows for the learning epochs.

Reproducible and resumable: every segment of ``--checkpoint-every`` updates starts by
re-dealing all envs from a seed derived from the run's seed and the segment's number,
and the checkpoint is written at the segment's end, so a run killed and resumed
(the same command again) continues exactly as the uninterrupted run does (on the
same machine and PyTorch version, with the same ``--threads``).

Why PPO: docs/rl.md ("Training a learned bot").
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch

from ..bots.learned_net import PolicyWeights, blank_weights, save_weights
from ..games import get_game
from .evaluate import Evaluation, evaluate
from .gym_env import make_vector_env
from .policy_net import MASKED, PRIORS, PolicyNet, export_weights

LOG_FIELDS = (
    "update", "steps", "seconds", "reward_per_step", "policy_loss", "value_loss",
    "entropy", "eval_opponents", "eval_games", "eval_win_rate", "eval_points",
    "eval_opponent_points", "imitation_loss",
)  # fmt: skip
#: The bots a run may imitate (``--teacher``): the vector envs' ``teacher_actions``.
TEACHERS = ("", "hard")


@dataclass
class TrainConfig:
    game: str
    players: int = 4
    stock: int | None = None  # Skip-Bo's stock size (the rules' default when None)
    opponents: str = "greedy"
    reward: str = "score"
    reward_at: str = "round"
    envs: int = 256
    horizon: int = 64  # steps per env per update
    updates: int = 1000
    epochs: int = 4
    minibatch: int = 4096
    learning_rate: float = 3e-4
    gamma: float = 0.995
    lam: float = 0.95
    clip: float = 0.2
    entropy: float = 0.01
    value_coef: float = 0.5
    reward_scale: float = 0.05
    hidden: list[int] = field(default_factory=lambda: [256, 256])
    seed: int = 1
    threads: int = 1
    checkpoint_every: int = 10
    eval_every: int = 20
    eval_games: int = 512
    eval_opponents: str = "greedy"
    # Kickstarting: a cross-entropy term towards the teacher's move in every state the
    # learner visits, weighted teacher_coef at the start and fading linearly to 0 at
    # update teacher_updates (0: never fades).
    teacher: str = ""
    teacher_coef: float = 1.0
    teacher_updates: int = 0
    # Self-play league: the opponents "frozen" play snapshots of the learner, the
    # league_pool latest ones (env i of a group against snapshot i % league_pool); a
    # new snapshot of the current weights replaces the oldest every league_every updates.
    league_every: int = 0
    league_pool: int = 1
    # Residual policy: the logits add alpha times this bot's values of the moves.
    prior: str = ""

    def __post_init__(self) -> None:
        if self.prior not in PRIORS:
            raise SystemExit(f"--prior must be one of {', '.join(map(repr, PRIORS))}")
        if self.prior and self.league_every:
            raise SystemExit("--prior does not go with a league: the frozen opponents have none")
        if self.teacher not in TEACHERS:
            raise SystemExit(f"--teacher must be one of {', '.join(map(repr, TEACHERS))}")
        if self.teacher_coef < 0 or self.teacher_updates < 0:
            raise SystemExit("--teacher-coef and --teacher-updates must be at least 0")
        frozen = any("frozen" in group for group in self.opponents.split(";"))
        if frozen != (self.league_every > 0):
            raise SystemExit(
                "opponents 'frozen' (the learner's snapshots) need --league-every N > 0, "
                "and --league-every needs a group of opponents with 'frozen'"
            )
        if self.league_pool < 1:
            raise SystemExit("--league-pool must be at least 1")

    def teacher_weight(self, update: int) -> float:
        """The imitation term's weight at ``update`` (0 without a teacher)."""
        if not self.teacher:
            return 0.0
        if not self.teacher_updates:
            return self.teacher_coef
        return self.teacher_coef * max(0.0, 1.0 - update / self.teacher_updates)

    def rules(self) -> dict[str, Any]:
        rules: dict[str, Any] = {"players": self.players}
        if self.stock is not None:
            rules["stock_size"] = self.stock
        return rules

    def opponent_groups(self) -> list[str | list[str]]:
        """The opponents of each group of envs: ``"greedy;hard"`` plays half the envs
        against ``greedy`` and half against ``hard``; ``"greedy,hard"`` (three players)
        gives the two other seats one bot each."""
        return [_seat_bots(group) for group in self.opponents.split(";")]


def _seat_bots(names: str) -> str | list[str]:
    return names.split(",") if "," in names else names


def _frozen_option(opponents: str | list[str], pool: list[PolicyWeights]) -> dict[str, Any]:
    """The vector env's ``frozen`` option for a group whose opponents include ``frozen``."""
    return {"frozen": pool} if "frozen" in opponents else {}


def _blank_policy(config: TrainConfig, num_actions: int) -> PolicyWeights:
    """A network of the run's shape with every weight 0 (every legal move ties: it
    plays the lowest code), which the frozen seats hold until the first snapshot."""
    if config.game == "skyjo":
        from ..encoders.skyjo_obs import skyjo_layout as layout
    else:
        from ..encoders.skipbo_obs import skipbo_layout as layout
    widths = [layout(config.players).size, *config.hidden, num_actions]
    return blank_weights(config.game, config.players, encoder_version(config.game), widths)


def encoder_version(game: str) -> int:
    if game == "skyjo":
        from ..encoders.skyjo_obs import ENCODER_VERSION
    else:
        from ..encoders.skipbo_obs import ENCODER_VERSION
    return ENCODER_VERSION


def _normalizer(env: Any, seed: int, steps: int = 32) -> tuple[np.ndarray, np.ndarray]:
    """The mean and inverse spread of the observations under the uniform legal policy
    (fixed for the whole run: the weights carry them)."""
    rng = np.random.default_rng(seed)
    obs, infos = env.reset(seed=seed)
    seen = [obs]
    for _ in range(steps):
        masks = infos["action_mask"].astype(np.float64)
        noise = rng.random(masks.shape) * masks
        obs, _, _, _, infos = env.step(np.argmax(noise, axis=1))
        seen.append(obs)
    data = np.concatenate(seen).astype(np.float64)
    std = data.std(axis=0)
    inv_std = np.where(std > 1e-6, 1.0 / np.maximum(std, 1e-6), 1.0)
    return data.mean(axis=0), inv_std


class Trainer:
    """One run in ``folder`` (new, or resumed from its checkpoint)."""

    def __init__(self, config: TrainConfig, folder: Path) -> None:
        self.config = config
        self.folder = folder
        torch.set_num_threads(config.threads)
        torch.manual_seed(config.seed)
        groups = config.opponent_groups()
        if config.envs % len(groups):
            raise SystemExit(f"--envs {config.envs} does not split into {len(groups)} groups")
        self.num_actions = get_game(config.game).num_actions
        # The frozen seats play a blank network until the learner's first snapshot
        # (the normalizer below samples the first group's envs before the net exists).
        blank = [_blank_policy(config, self.num_actions)] * config.league_pool
        self.envs: list[Any] = [
            make_vector_env(
                config.game,
                config.envs // len(groups),
                engine="fast",
                rules=config.rules(),
                opponents=opponents,
                seat=None,
                reward=config.reward,
                reward_at=config.reward_at,
                autoreset_mode="SameStep",
                **_frozen_option(opponents, blank),
            )
            for opponents in groups
        ]
        self.league_envs = [
            env for env, group in zip(self.envs, groups, strict=True) if "frozen" in group
        ]
        mean, inv_std = _normalizer(self.envs[0], config.seed)
        self.net = PolicyNet(mean, inv_std, self.num_actions, config.hidden, prior=config.prior)
        self.optimizer = torch.optim.Adam(self.net.parameters(), lr=config.learning_rate, eps=1e-5)
        self.update = 0
        self.steps = 0
        self.seconds = 0.0
        self.best = -np.inf
        #: The frozen opponents' snapshots, oldest first (the initial network's at first).
        self.league: list[PolicyWeights] = []
        if self.league_envs:
            self.league = [self.weights()] * config.league_pool
        checkpoint = folder / "checkpoint.pt"
        if checkpoint.exists():
            saved = torch.load(checkpoint, weights_only=False)
            self.net.load_state_dict(saved["net"])
            self.optimizer.load_state_dict(saved["optimizer"])
            torch.set_rng_state(saved["torch_rng"])
            self.update, self.steps = saved["update"], saved["steps"]
            self.seconds, self.best = saved["seconds"], saved["best"]
            self.league = saved.get("league", self.league)
        self._field_league()

    def _field_league(self) -> None:
        """The frozen seats play the league's snapshots from the next step on."""
        for env in self.league_envs:
            env.set_frozen(self.league)

    def _refresh_league(self) -> None:
        """Every ``league_every`` updates: the current weights replace the oldest snapshot."""
        every = self.config.league_every
        if self.league_envs and self.update > 0 and self.update % every == 0:
            self.league = [*self.league[1:], self.weights()]
            self._field_league()

    # --- one update ---------------------------------------------------------------
    def _rollout(self, obs: np.ndarray, masks: np.ndarray) -> tuple[Any, ...]:
        c = self.config
        t, n = c.horizon, c.envs
        all_obs = torch.zeros((t, n, obs.shape[1]))
        all_masks = torch.zeros((t, n, self.num_actions), dtype=torch.bool)
        actions = torch.zeros((t, n), dtype=torch.long)
        logps = torch.zeros((t, n))
        values = torch.zeros((t, n))
        rewards = torch.zeros((t, n))
        dones = torch.zeros((t, n))
        taught = c.teacher_weight(self.update) > 0
        labels = torch.full((t, n), -1, dtype=torch.long)
        priors = torch.zeros((t, n, self.num_actions) if c.prior else (0,))
        for step in range(t):
            if taught:
                labels[step] = torch.as_tensor(self._teacher_actions())
            o = torch.as_tensor(obs)
            m = torch.as_tensor(masks.astype(bool))
            p = self._priors()
            if p is not None:
                priors[step] = p
            with torch.no_grad():
                logits, value = self.net(o, p)
                log_probs = torch.log_softmax(logits.masked_fill(~m, MASKED), dim=-1)
                action = torch.multinomial(log_probs.exp(), 1).squeeze(-1)
            all_obs[step], all_masks[step], actions[step] = o, m, action
            logps[step] = log_probs.gather(1, action[:, None]).squeeze(-1)
            values[step] = value
            obs, reward, terminated, truncated, masks = self._step(action.numpy())
            rewards[step] = torch.as_tensor(reward * c.reward_scale, dtype=torch.float32)
            dones[step] = torch.as_tensor(terminated | truncated, dtype=torch.float32)
        with torch.no_grad():
            _, last_value = self.net(torch.as_tensor(obs), self._priors())
        advantages = torch.zeros((t, n))
        running = torch.zeros(n)
        for step in reversed(range(t)):
            following = last_value if step == t - 1 else values[step + 1]
            alive = 1.0 - dones[step]
            delta = rewards[step] + c.gamma * following * alive - values[step]
            running = delta + c.gamma * c.lam * alive * running
            advantages[step] = running
        returns = advantages + values
        batch = (all_obs, all_masks, actions, logps, advantages, returns, labels)
        flat: tuple[torch.Tensor | None, ...] = tuple(x.reshape(t * n, *x.shape[2:]) for x in batch)
        flat += (priors.reshape(t * n, -1) if c.prior else None,)
        return flat, obs, masks, float(rewards.mean()) / c.reward_scale

    def _step(self, actions: np.ndarray) -> tuple[np.ndarray, ...]:
        """Every group's envs step with their slice of ``actions``; the arrays joined."""
        size = self.config.envs // len(self.envs)
        parts = [
            env.step(actions[index * size : (index + 1) * size])
            for index, env in enumerate(self.envs)
        ]
        obs, reward, terminated, truncated = (
            np.concatenate([part[field] for part in parts]) for field in range(4)
        )
        masks = np.concatenate([part[4]["action_mask"] for part in parts])
        return obs, reward, terminated, truncated, masks

    def _priors(self) -> torch.Tensor | None:
        """The prior rows of every env now (``--prior``), else None."""
        if not self.config.prior:
            return None
        return torch.as_tensor(np.concatenate([env.hard_priors() for env in self.envs]))

    def _teacher_actions(self) -> np.ndarray:
        return np.concatenate([env.teacher_actions() for env in self.envs])

    def _reset(self, seed: int) -> tuple[np.ndarray, np.ndarray]:
        size = self.config.envs // len(self.envs)
        parts = [env.reset(seed=seed + index * size) for index, env in enumerate(self.envs)]
        obs = np.concatenate([part[0] for part in parts])
        return obs, np.concatenate([part[1]["action_mask"] for part in parts])

    def _learn(self, batch: tuple[Any, ...]) -> tuple[float, ...]:
        c = self.config
        obs, masks, actions, old_logps, advantages, returns, labels, priors = batch
        weight = c.teacher_weight(self.update)
        size = obs.shape[0]
        losses = [0.0, 0.0, 0.0, 0.0]
        count = 0
        for _ in range(c.epochs):
            order = torch.randperm(size)
            for start in range(0, size, c.minibatch):
                index = order[start : start + c.minibatch]
                logits, value = self.net(obs[index], None if priors is None else priors[index])
                log_probs = torch.log_softmax(logits.masked_fill(~masks[index], MASKED), dim=-1)
                logp = log_probs.gather(1, actions[index][:, None]).squeeze(-1)
                adv = advantages[index]
                adv = (adv - adv.mean()) / (adv.std() + 1e-8)
                ratio = torch.exp(logp - old_logps[index])
                clipped = torch.clamp(ratio, 1 - c.clip, 1 + c.clip)
                policy_loss = -torch.min(ratio * adv, clipped * adv).mean()
                value_loss = ((value - returns[index]) ** 2).mean()
                # The entropy over the legal moves (an illegal one has probability 0).
                entropy = -(log_probs.exp() * log_probs).sum(-1).mean()
                loss = policy_loss + c.value_coef * value_loss - c.entropy * entropy
                if weight > 0:
                    # Kickstarting (Schmitt et al. 2018): imitate the teacher's move where
                    # it had one, in the states the learner's own policy reached.
                    taught = labels[index]
                    known = taught >= 0
                    chosen = log_probs.gather(1, taught.clamp(min=0)[:, None]).squeeze(-1)
                    imitation = -(chosen * known).sum() / known.sum().clamp(min=1)
                    loss = loss + weight * imitation
                    losses[3] += float(imitation.detach())
                self.optimizer.zero_grad()
                loss.backward()
                torch.nn.utils.clip_grad_norm_(self.net.parameters(), 0.5)
                self.optimizer.step()
                losses[0] += float(policy_loss.detach())
                losses[1] += float(value_loss.detach())
                losses[2] += float(entropy.detach())
                count += 1
        return tuple(loss / count for loss in losses)

    # --- the run ------------------------------------------------------------------
    def weights(self) -> Any:
        c = self.config
        info = {"update": self.update, "steps": self.steps, "config": asdict(c)}
        return export_weights(
            self.net,
            game=c.game,
            players=c.players,
            encoder_version=encoder_version(c.game),
            info=info,
        )

    def evaluate(self) -> Evaluation:
        c = self.config
        return evaluate(
            self.weights(),
            c.game,
            c.rules(),
            _seat_bots(c.eval_opponents),
            games=c.eval_games,
            seed=c.seed * 7919 + 1,
        )

    def _save(self) -> None:
        state = {
            "net": self.net.state_dict(),
            "optimizer": self.optimizer.state_dict(),
            "torch_rng": torch.get_rng_state(),
            "update": self.update,
            "steps": self.steps,
            "seconds": self.seconds,
            "best": self.best,
            "league": self.league,
        }
        partial = self.folder / "checkpoint.pt.part"
        torch.save(state, partial)
        partial.replace(self.folder / "checkpoint.pt")
        save_weights(self.folder / "policy.npz", self.weights())

    def run(self, progress: bool = True) -> list[dict[str, Any]]:
        c = self.config
        self.folder.mkdir(parents=True, exist_ok=True)
        (self.folder / "config.json").write_text(json.dumps(asdict(c), indent=2) + "\n")
        log_path = self.folder / "log.csv"
        new_log = not log_path.exists() or self.update == 0
        if not new_log:
            _cut_log(log_path, self.update)
        rows: list[dict[str, Any]] = []
        with log_path.open("w" if new_log else "a", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=LOG_FIELDS)
            if new_log:
                writer.writeheader()
            while self.update < c.updates:
                segment = self.update // c.checkpoint_every
                obs, masks = self._reset(c.seed * 1_000_003 + segment * c.envs)
                end = min((segment + 1) * c.checkpoint_every, c.updates)
                while self.update < end:
                    started = time.process_time()
                    self._refresh_league()
                    batch, obs, masks, reward = self._rollout(obs, masks)
                    policy_loss, value_loss, entropy, imitation = self._learn(batch)
                    self.update += 1
                    self.steps += c.horizon * c.envs
                    self.seconds += time.process_time() - started
                    row: dict[str, Any] = {
                        "update": self.update,
                        "steps": self.steps,
                        "seconds": round(self.seconds, 1),
                        "reward_per_step": round(reward, 5),
                        "policy_loss": round(policy_loss, 5),
                        "value_loss": round(value_loss, 5),
                        "entropy": round(entropy, 4),
                    }
                    if c.teacher_weight(self.update - 1) > 0:
                        row["imitation_loss"] = round(imitation, 5)
                    if self.update % c.eval_every == 0 or self.update == c.updates:
                        result = self.evaluate()
                        row.update(
                            eval_opponents=c.eval_opponents,
                            eval_games=result.games,
                            eval_win_rate=round(result.win_rate, 4),
                            eval_points=round(result.learner_points, 3),
                            eval_opponent_points=round(result.opponent_points, 3),
                        )
                        # Higher is better: wins; fewer Skyjo points break ties.
                        score = result.win_rate - (
                            result.learner_points * 1e-4 if c.game == "skyjo" else 0.0
                        )
                        if score > self.best:
                            self.best = score
                            save_weights(self.folder / "best.npz", self.weights())
                    writer.writerow(row)
                    handle.flush()
                    rows.append(row)
                    if progress:
                        _show(row, c.updates)
                self._save()
        if progress:
            print(file=sys.stderr)
        return rows


def _cut_log(path: Path, update: int) -> None:
    """Drop the rows after ``update``: a killed run logged updates its checkpoint does
    not hold, and the resumed run plays them again."""
    with path.open(newline="") as handle:
        rows = [row for row in csv.DictReader(handle) if int(row["update"]) <= update]
    with path.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=LOG_FIELDS)
        writer.writeheader()
        writer.writerows(rows)


def _show(row: dict[str, Any], updates: int) -> None:
    done = row["update"] / updates
    bar = "#" * int(30 * done) + "-" * (30 - int(30 * done))
    rate = row["steps"] / max(row["seconds"], 1e-9)
    text = f"\r[{bar}] {row['update']}/{updates} updates, {row['steps']:,} steps, {rate:,.0f}/s CPU"
    if "eval_win_rate" in row:
        text += (
            f"; vs {row['eval_opponents']}: {100 * row['eval_win_rate']:.1f}% wins, "
            f"{row['eval_points']:.2f} points against {row['eval_opponent_points']:.2f}\n"
        )
    print(text, end="", file=sys.stderr, flush=True)


def parse_args(argv: Sequence[str] | None) -> tuple[TrainConfig, Path, bool]:
    defaults = TrainConfig(game="skyjo")
    parser = argparse.ArgumentParser(
        prog="python -m cardtable.rl.train",
        description="Masked PPO on the compiled vector envs (resumes FOLDER's run if any).",
    )
    parser.add_argument("game", choices=("skyjo", "skipbo"))
    parser.add_argument("folder", type=Path)
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    for name, value in asdict(defaults).items():
        if name == "game":
            continue
        flag = "--" + name.replace("_", "-")
        if isinstance(value, list):
            parser.add_argument(flag, type=int, nargs="+", default=None)
        elif name == "stock":
            parser.add_argument(flag, type=int, default=None)
        else:
            parser.add_argument(flag, type=type(value), default=None)
    args = parser.parse_args(argv)
    folder: Path = args.folder
    saved = folder / "config.json"
    given = {
        name: getattr(args, name)
        for name in asdict(defaults)
        if name != "game" and getattr(args, name) is not None
    }
    if saved.exists():
        # A resumed run keeps its settings; only its length may change.
        config = TrainConfig(**json.loads(saved.read_text()))
        if config.game != args.game:
            raise SystemExit(f"{folder} holds a {config.game} run, not {args.game}")
        changed = sorted(k for k, v in given.items() if k != "updates" and getattr(config, k) != v)
        if changed:
            raise SystemExit(
                f"{folder} holds a run with other settings ({', '.join(changed)}): "
                "only --updates may change when resuming"
            )
        if "updates" in given:
            config.updates = given["updates"]
    else:
        config = TrainConfig(game=args.game, **given)
    return config, folder, not args.quiet


def main(argv: Sequence[str] | None = None) -> int:
    config, folder, progress = parse_args(argv)
    Trainer(config, folder).run(progress=progress)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
