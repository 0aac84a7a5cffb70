"""Rewrite the golden transcripts in tests/golden, or check them with --check.

python scripts/golden.py          # rewrite every file (after a deliberate rules change)
python scripts/golden.py --check  # exit 1 with a unified diff if any file differs
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Run against this checkout's code even if another cardtable is installed.
sys.path.insert(0, str(ROOT / "src"))

from cardtable.sim.transcript import CASES, difference, write_all  # noqa: E402

GOLDEN = ROOT / "tests" / "golden"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of rewriting")
    args = parser.parse_args()
    if not args.check:
        for path in write_all(GOLDEN):
            print(f"wrote {path.relative_to(ROOT)}")
        return 0
    diffs = [diff for case in CASES if (diff := difference(case, GOLDEN))]
    for diff in diffs:
        sys.stdout.write(diff)
    print(f"{len(diffs)} of {len(CASES)} golden transcripts differ" if diffs else "all match")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
