"""The weights of a learned policy and their evaluation with numpy (no PyTorch).

A policy is a small multilayer perceptron over the observation vector of
``cardtable.encoders`` (the RL environments' vector): the observation is
normalized (``(obs - mean) * inv_std``, both fixed when training began), passes
through hidden layers with ``tanh`` and a last linear layer gives one logit per
action code. Illegal codes are masked out by the caller. The trainer
(``cardtable.rl.train``) writes the file; the ``learned`` bots read it.

The file is a NumPy ``.npz`` archive: the arrays ``mean``, ``inv_std``, ``w0``,
``b0``, ``w1``, ``b1``, ... (the last pair is the policy head) and ``meta``, a JSON
string with the format version (:data:`FORMAT`), the game, the number of players,
the observation encoder's version and how the weights were trained. A file of
another format or encoder version is refused with a message naming both.

A policy may add a prior to its logits: ``prior`` names it (``"hard"``: Skyjo's
``hard`` bot's value of each legal move, ``-(value - lowest value)``, 0 in set-up and
for a single legal move) and ``prior_scale`` is its weight, both in ``meta`` (a file
without them has no prior). Such weights need the prior's row for every observation.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

#: The version of the file's layout (the arrays and ``meta`` above).
FORMAT = 1


@dataclass(frozen=True)
class PolicyWeights:
    """A learned policy's arrays and what they were trained for."""

    game: str
    players: int
    encoder_version: int
    mean: NDArray[np.float64]
    inv_std: NDArray[np.float64]
    #: ``(weight, bias)`` per layer, input first: ``weight`` is ``(inputs, outputs)``.
    layers: tuple[tuple[NDArray[np.float64], NDArray[np.float64]], ...]
    info: dict[str, Any] = field(default_factory=dict)
    #: The prior added to the logits, ``prior_scale`` times its row ("": none).
    prior: str = ""
    prior_scale: float = 0.0

    @property
    def obs_size(self) -> int:
        return int(self.mean.shape[0])

    @property
    def num_actions(self) -> int:
        return int(self.layers[-1][1].shape[0])

    def logits(
        self, observations: NDArray[Any], priors: NDArray[Any] | None = None
    ) -> NDArray[np.float64]:
        """One row of logits per row of ``observations`` (shape ``(batch, obs_size)``);
        ``priors`` (shape ``(batch, num_actions)``) is required by weights with a prior
        and refused by weights without."""
        self._check_prior(priors)
        x = (np.asarray(observations, dtype=np.float64) - self.mean) * self.inv_std
        for weight, bias in self.layers[:-1]:
            x = np.tanh(x @ weight + bias)
        weight, bias = self.layers[-1]
        out: NDArray[np.float64] = x @ weight + bias
        if priors is not None:
            out = out + self.prior_scale * np.asarray(priors, dtype=np.float64)
        return out

    def _check_prior(self, priors: NDArray[Any] | None) -> None:
        if self.prior and priors is None:
            raise ValueError(
                f"these weights add the prior {self.prior!r} to their logits: give its rows"
            )
        if not self.prior and priors is not None:
            raise ValueError("these weights have no prior, but prior rows were given")

    def best_action(
        self, observation: NDArray[Any], mask: NDArray[Any], prior: NDArray[Any] | None = None
    ) -> int:
        """The legal action (``mask`` nonzero) with the highest logit; the lowest code
        among equal ones. ``prior``: the observation's prior row (weights with a prior)."""
        legal = np.asarray(mask).astype(bool)
        if not legal.any():
            raise ValueError("no legal action in the mask")
        priors = None if prior is None else np.asarray(prior).reshape(1, -1)
        logits = self.logits(np.asarray(observation).reshape(1, -1), priors)[0]
        return int(np.argmax(np.where(legal, logits, -np.inf)))


def blank_weights(
    game: str, players: int, encoder_version: int, widths: list[int]
) -> PolicyWeights:
    """A network of the layer widths ``widths`` (the observation's, the hidden layers',
    the actions') with every weight 0: all legal moves tie, so it plays the lowest code.
    What a frozen opponent holds before it is given a trained policy."""
    layers = tuple(
        (np.zeros((widths[i], widths[i + 1])), np.zeros(widths[i + 1]))
        for i in range(len(widths) - 1)
    )
    size = widths[0]
    return PolicyWeights(game, players, encoder_version, np.zeros(size), np.ones(size), layers)


def save_weights(path: Path, weights: PolicyWeights) -> None:
    meta = {
        "format": FORMAT,
        "game": weights.game,
        "players": weights.players,
        "encoder_version": weights.encoder_version,
        "info": weights.info,
        "prior": weights.prior,
        "prior_scale": weights.prior_scale,
    }
    arrays: dict[str, Any] = {
        "meta": np.array(json.dumps(meta, sort_keys=True)),
        "mean": weights.mean.astype(np.float32),
        "inv_std": weights.inv_std.astype(np.float32),
    }
    for index, (weight, bias) in enumerate(weights.layers):
        arrays[f"w{index}"] = weight.astype(np.float32)
        arrays[f"b{index}"] = bias.astype(np.float32)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        np.savez_compressed(handle, **arrays)


def load_weights(path: Path, *, encoder_version: int | None = None) -> PolicyWeights:
    """The weights in ``path``; raises ``ValueError`` for another format, or another
    encoder version than ``encoder_version`` when given."""
    with np.load(path, allow_pickle=False) as archive:
        meta = json.loads(str(archive["meta"]))
        if meta.get("format") != FORMAT:
            raise ValueError(
                f"{path.name}: weights format {meta.get('format')!r}, this version reads {FORMAT}"
            )
        if encoder_version is not None and meta["encoder_version"] != encoder_version:
            raise ValueError(
                f"{path.name}: trained on observation encoder version "
                f"{meta['encoder_version']}, this version encodes version {encoder_version}"
            )
        layers = []
        index = 0
        while f"w{index}" in archive:
            layers.append(
                (
                    archive[f"w{index}"].astype(np.float64),
                    archive[f"b{index}"].astype(np.float64),
                )
            )
            index += 1
        return PolicyWeights(
            game=meta["game"],
            players=int(meta["players"]),
            encoder_version=int(meta["encoder_version"]),
            mean=archive["mean"].astype(np.float64),
            inv_std=archive["inv_std"].astype(np.float64),
            layers=tuple(layers),
            info=dict(meta.get("info", {})),
            prior=str(meta.get("prior", "")),
            prior_scale=float(meta.get("prior_scale", 0.0)),
        )
