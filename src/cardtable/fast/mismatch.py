"""The first disagreement a cross-check finds between a batch engine and the reference."""

from __future__ import annotations

import dataclasses
from typing import Any


@dataclasses.dataclass(frozen=True)
class Mismatch:
    """The first difference found: the game's seed, the step (moves applied before
    the differing one, from 0) and what differs."""

    seed: int
    policy_seed: int
    step: int
    what: str
    reference: Any
    batch: Any
    actions: tuple[int, ...]

    def __str__(self) -> str:
        return (
            f"seed {self.seed} (policy seed {self.policy_seed}), step {self.step}: {self.what}: "
            f"reference {self.reference!r}, batch {self.batch!r}; "
            f"actions so far {list(self.actions[: self.step + 1])}"
        )


def mismatch(
    seed: int,
    policy_seed: int,
    step: int,
    what: str,
    reference: Any,
    batch: Any,
    actions: list[int],
    names: list[str],
) -> Mismatch:
    """A :class:`Mismatch`; two differing rows of fields (``what`` "state" or "deal")
    are narrowed to their first differing field, named by ``names``."""
    if what in ("state", "deal") and isinstance(reference, list) and isinstance(batch, list):
        # Name the first differing field instead of printing two long rows.
        for index, (ref, got) in enumerate(zip(reference, batch, strict=True)):
            if ref != got:
                what = f"{what}: {names[index]}"
                reference, batch = ref, got
                break
    return Mismatch(seed, policy_seed, step, what, reference, batch, tuple(actions))
