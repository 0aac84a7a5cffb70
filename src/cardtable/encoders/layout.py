"""Fixed observation layouts: named fields, their lengths and their ranges.

A layout is a list of :class:`Field`; an encoder writes the fields in order into one
flat float32 vector. The same table gives the Box bounds, the slices used to read a
field back (:meth:`Layout.split`) and the documentation in docs/rl.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray


@dataclass(frozen=True, slots=True)
class Field:
    """``size`` consecutive entries, each within ``[low, high]``."""

    name: str
    size: int
    low: float
    high: float
    doc: str


@dataclass(frozen=True)
class Layout:
    """The fields of one game's observation for one number of players."""

    fields: tuple[Field, ...]

    @property
    def size(self) -> int:
        return sum(field.size for field in self.fields)

    def slices(self) -> dict[str, slice]:
        out: dict[str, slice] = {}
        start = 0
        for field in self.fields:
            out[field.name] = slice(start, start + field.size)
            start += field.size
        return out

    def bounds(self) -> tuple[NDArray[np.float32], NDArray[np.float32]]:
        import numpy as np

        low = np.concatenate([np.full(f.size, f.low, dtype=np.float32) for f in self.fields])
        high = np.concatenate([np.full(f.size, f.high, dtype=np.float32) for f in self.fields])
        return low, high

    def split(self, observation: NDArray[np.float32]) -> dict[str, NDArray[np.float32]]:
        """The observation cut into its named fields (views, not copies)."""
        return {name: observation[part] for name, part in self.slices().items()}
