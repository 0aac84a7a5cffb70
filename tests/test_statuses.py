"""Room statuses and seat kinds are compared as ``RoomStatus`` and ``SeatKind`` members,
never as bare strings: a typo in a member is a name error, in a string a comparison
that is never true."""

from __future__ import annotations

import ast
from pathlib import Path

import cardtable
from cardtable.statuses import RoomStatus, SeatKind

PACKAGE_ROOT = Path(cardtable.__file__).parent
WORDS = {member.value for member in (*RoomStatus, *SeatKind)}
#: Comparisons of these words that are not ours: Gymnasium's render mode "human".
FOREIGN = {"render_mode"}
#: Left as they are: none.
KNOWN: set[tuple[str, str]] = set()


def bare_comparisons(root: Path) -> set[tuple[str, str]]:
    """Every comparison with a status or seat-kind word spelled as a string literal."""
    found = set()
    for path in sorted(root.rglob("*.py")):
        if path.name == "statuses.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Compare):
                continue
            sides = [node.left, *node.comparators]
            if any(isinstance(s, ast.Attribute) and s.attr in FOREIGN for s in sides):
                continue
            literals = [
                element
                for side in sides
                for element in (side.elts if isinstance(side, ast.Tuple | ast.Set) else [side])
            ]
            if any(isinstance(e, ast.Constant) and e.value in WORDS for e in literals):
                found.add((path.relative_to(root).as_posix(), ast.unparse(node)))
    return found


def test_statuses_are_compared_as_members():
    assert {"lobby", "playing", "finished", "human", "bot"} == WORDS
    found = bare_comparisons(PACKAGE_ROOT)
    assert found - KNOWN == set()
    assert KNOWN - found == set(), "gone from the tree: remove it from KNOWN"


def test_a_bare_status_is_found(tmp_path):
    (tmp_path / "room.py").write_text(
        "def ready(room, seat, env):\n"
        "    if env.render_mode == 'human':\n"  # Gymnasium's word, not ours
        "        return None\n"
        "    return room.status == 'lobby' and seat['kind'] in ('human', 'robot')\n",
        encoding="utf-8",
    )
    assert bare_comparisons(tmp_path) == {
        ("room.py", "room.status == 'lobby'"),
        ("room.py", "seat['kind'] in ('human', 'robot')"),
    }
