from pathlib import Path

import pytest

from cardtable.sim.transcript import CASES, REGENERATE, GoldenCase, difference

GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize("case", CASES, ids=lambda case: case.filename)
def test_golden_transcript_is_unchanged(case: GoldenCase):
    diff = difference(case, GOLDEN)
    assert not diff, (
        f"{case.filename} no longer matches the engine. If an engine or bot changed on purpose, "
        f"run `{REGENERATE}` and review the diff; otherwise this is a regression:\n{diff}"
    )


def test_every_golden_file_has_a_case():
    stored = {path.name for path in GOLDEN.glob("*.txt")}
    assert stored == {case.filename for case in CASES}


def test_a_changed_transcript_shows_a_unified_diff(tmp_path: Path):
    case = next(case for case in CASES if case.game == "skyjo")
    stored = (GOLDEN / case.filename).read_text().splitlines(keepends=True)
    stored[5] = "2 seat 0: something else []\n"
    (tmp_path / case.filename).write_text("".join(stored))
    diff = difference(case, tmp_path)
    assert diff.startswith(f"--- {tmp_path / case.filename} (stored)")
    assert "\n-2 seat 0: something else []\n" in diff
    assert "\n+2 seat " in diff


def test_a_missing_transcript_is_a_difference(tmp_path: Path):
    assert difference(CASES[0], tmp_path).startswith("---")
