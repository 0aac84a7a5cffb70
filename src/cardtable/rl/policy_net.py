"""The learner's network in PyTorch (extra ``train``) and its export to numpy weights.

One trunk of ``tanh`` layers over the normalized observation, a policy head (one
logit per action code; illegal codes are masked to ``-inf`` before the softmax) and
a value head. Only the trunk and the policy head are exported
(:func:`export_weights`): the ``learned`` bots evaluate them with numpy
(:class:`cardtable.bots.learned_net.PolicyWeights`), and a test requires the two
to give the same logits.

With a prior (``prior="hard"``: ``hard`` values every legal move, see
:meth:`cardtable.rl.fast_vector.FastVectorEnv.hard_priors`) the policy is
residual: ``logits = head(features) + alpha * prior``, ``alpha`` one learned scalar
(:data:`PRIOR_SCALE` at first). With the head's small initial logits the untrained
policy's best move is the prior's, and training learns corrections to it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import torch
from numpy.typing import NDArray
from torch import nn

from ..bots.learned_net import PolicyWeights

#: The logit of an illegal action: far below any real logit, finite so that a row
#: whose every action were masked still gives numbers (it never happens in the envs).
MASKED = -1e9
#: The priors a policy may add to its logits (``""``: none).
PRIORS = ("", "hard")
#: The prior's initial weight ``alpha``: a prior gap of 0.25 points outweighs the
#: untrained head's logits (about 0.01 apart), so the untrained policy plays the prior's
#: best move, and moves within a fraction of a point of it are still tried.
PRIOR_SCALE = 4.0


class PolicyNet(nn.Module):
    """Logits and value for a batch of observations."""

    mean: torch.Tensor
    inv_std: torch.Tensor

    def __init__(
        self,
        mean: NDArray[Any],
        inv_std: NDArray[Any],
        num_actions: int,
        hidden: Sequence[int] = (256, 256),
        prior: str = "",
    ) -> None:
        super().__init__()
        if prior not in PRIORS:
            raise ValueError(f"prior must be one of {', '.join(map(repr, PRIORS))}, not {prior!r}")
        self.prior = prior
        self.register_buffer("mean", torch.as_tensor(np.asarray(mean, dtype=np.float32)))
        self.register_buffer("inv_std", torch.as_tensor(np.asarray(inv_std, dtype=np.float32)))
        layers: list[nn.Module] = []
        width = int(mean.shape[0])
        for size in hidden:
            linear = nn.Linear(width, size)
            nn.init.orthogonal_(linear.weight, gain=float(np.sqrt(2)))
            nn.init.zeros_(linear.bias)
            layers += [linear, nn.Tanh()]
            width = size
        self.trunk = nn.Sequential(*layers)
        self.policy = nn.Linear(width, num_actions)
        # Small initial logits: the untrained policy is close to uniform over the legal moves.
        nn.init.orthogonal_(self.policy.weight, gain=0.01)
        nn.init.zeros_(self.policy.bias)
        self.value = nn.Linear(width, 1)
        nn.init.orthogonal_(self.value.weight, gain=1.0)
        nn.init.zeros_(self.value.bias)
        # The prior's weight (made last: a policy without a prior draws the same
        # initial weights as before it existed).
        self.alpha = nn.Parameter(torch.tensor(PRIOR_SCALE)) if prior else None

    def forward(
        self, obs: torch.Tensor, prior: torch.Tensor | None = None
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """Logits and values; ``prior`` (one row per observation, as ``hard_priors``)
        is required by a policy with a prior and refused by one without."""
        features = self.trunk((obs - self.mean) * self.inv_std)
        logits = self.policy(features)
        if self.alpha is not None:
            if prior is None:
                raise ValueError(f"this policy adds the prior {self.prior!r}: give its rows")
            logits = logits + self.alpha * prior
        elif prior is not None:
            raise ValueError("this policy has no prior, but prior rows were given")
        return logits, self.value(features).squeeze(-1)

    def masked_logits(
        self, obs: torch.Tensor, mask: torch.Tensor, prior: torch.Tensor | None = None
    ) -> torch.Tensor:
        logits: torch.Tensor = self(obs, prior)[0]
        return logits.masked_fill(~mask, MASKED)


def export_weights(
    net: PolicyNet, *, game: str, players: int, encoder_version: int, info: dict[str, Any]
) -> PolicyWeights:
    """The trunk and policy head of ``net`` as numpy weights (``weight`` transposed to
    ``(inputs, outputs)``)."""
    linears = [module for module in net.trunk if isinstance(module, nn.Linear)]
    linears.append(net.policy)
    layers = tuple(
        (
            linear.weight.detach().cpu().numpy().astype(np.float64).T.copy(),
            linear.bias.detach().cpu().numpy().astype(np.float64),
        )
        for linear in linears
    )
    mean = net.mean.detach().cpu().numpy().astype(np.float64)
    inv_std = net.inv_std.detach().cpu().numpy().astype(np.float64)
    return PolicyWeights(
        game=game,
        players=players,
        encoder_version=encoder_version,
        mean=mean,
        inv_std=inv_std,
        layers=layers,
        info=info,
        prior=net.prior,
        prior_scale=0.0 if net.alpha is None else float(net.alpha.detach()),
    )
