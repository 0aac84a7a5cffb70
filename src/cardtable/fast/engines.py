"""Which games have a compiled batch engine, and how to make one."""

from __future__ import annotations

from typing import Any

from ..core import RulesBase

#: The random policy of game ``seed`` draws from ``Rng(seed ^ POLICY_SALT)`` in the
#: benchmark and the cross-check.
POLICY_SALT = 0x5EED_F00D_CAFE

#: Games with a batch engine in this package.
FAST_GAMES = ("skipbo", "skyjo")


def batch_engine(game_name: str, rules: RulesBase, size: int) -> Any:
    """A batch engine of ``size`` games of ``game_name`` under ``rules``.

    Raises KeyError for a game without one, and ModuleNotFoundError when the extra
    ``fast`` (numba) is not installed.
    """
    if game_name == "skyjo":
        from ..skyjo.rules import SkyjoRules
        from .skyjo_batch import SkyjoBatch

        if not isinstance(rules, SkyjoRules):
            raise TypeError(f"Skyjo needs SkyjoRules, got {type(rules).__name__}")
        return SkyjoBatch(rules, size)
    if game_name == "skipbo":
        from ..skipbo.rules import SkipBoRules
        from .skipbo_batch import SkipBoBatch

        if not isinstance(rules, SkipBoRules):
            raise TypeError(f"Skip-Bo needs SkipBoRules, got {type(rules).__name__}")
        return SkipBoBatch(rules, size)
    known = ", ".join(FAST_GAMES)
    raise KeyError(f"no compiled batch engine for {game_name!r} (engines: {known})")
