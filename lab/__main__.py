"""``python -m lab NAME [ARGS]``: run one experiment tool; without a name, list them."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Sequence

#: Every tool, in the order of README.md (``least_squares`` is a helper of the fits).
TOOLS = (
    "bot_speed",
    "bot_sweep",
    "learned_moves",
    "imitation_probe",
    "hard_ablation",
    "expert_experiments",
    "skipbo_decision_screen",
    "skipbo_expert_fingerprint",
    "skipbo_leaf_fit",
    "skipbo_win_fit",
    "skipbo_round_ends",
    "skyjo_expert_experiments",
    "skyjo_decision_screen",
    "skyjo_hard_fingerprint",
    "skyjo_hard_weights",
    "skyjo_leaf_fit",
    "skyjo_rollout_cost",
    "coach_judge",
    "rl_rewards",
    "vector_env_speed",
    "compile_cost",
    "rlskyjo_yardstick",
    "web_bench",
    "message_encoding",
    "room_memory",
    "signin_timing",
)


def summary(name: str) -> str:
    """The first line of the tool's docstring."""
    doc = importlib.import_module(f"lab.{name}").__doc__ or ""
    return doc.strip().splitlines()[0] if doc.strip() else ""


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help", "list"):
        print("usage: python -m lab NAME [ARGS]   (python -m lab NAME --help for its flags)\n")
        for name in TOOLS:
            print(f"  {name:<26} {summary(name)}")
        return 0
    name, rest = args[0], args[1:]
    if name not in TOOLS:
        print(f"python -m lab: unknown tool {name!r}; known: {', '.join(TOOLS)}", file=sys.stderr)
        return 2
    sys.argv[0] = f"python -m lab {name}"  # argparse's prog in usage lines
    result = importlib.import_module(f"lab.{name}").main(rest)
    return result if isinstance(result, int) else 0


if __name__ == "__main__":
    sys.exit(main())
