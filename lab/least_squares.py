"""Least squares with an intercept, and its R², for the scripts that fit position values."""

from __future__ import annotations

import numpy as np


def fit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Intercept, then one weight per column of ``x``."""
    design = np.column_stack([np.ones(len(x)), x])
    coef: np.ndarray = np.linalg.lstsq(design, y, rcond=None)[0]
    return coef


def r2(coef: np.ndarray, x: np.ndarray, y: np.ndarray) -> float:
    """The share of ``y``'s variance that ``coef`` explains on ``x``."""
    predicted = np.column_stack([np.ones(len(x)), x]) @ coef
    return 1.0 - float(np.sum((y - predicted) ** 2) / np.sum((y - y.mean()) ** 2))
