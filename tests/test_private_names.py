"""No module reaches into another's private names: what one needs of another is a
public, documented seam (the checker is ``tests/private_names.py``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import cardtable

from .private_names import reach_ins

PACKAGE_ROOT = Path(cardtable.__file__).parent
REPOSITORY = Path(__file__).parent.parent

#: Reach-ins still in the tree, by file and name: none. A new one fails the test.
KNOWN: set[tuple[str, str]] = set()


def test_the_package_reaches_into_no_private_name():
    found = {(reach.path, reach.what) for reach in reach_ins(PACKAGE_ROOT)}
    assert found - KNOWN == set()
    assert KNOWN - found == set(), "gone from the tree: remove it from KNOWN"


def test_the_lab_scripts_and_examples_reach_into_no_private_name():
    for folder in ("lab", "scripts", "examples"):
        assert [str(reach) for reach in reach_ins(REPOSITORY / folder)] == [], folder


def test_reach_ins_are_found_with_their_file_and_line(tmp_path):
    files = {
        "engine/state.py": """\
            class State:
                _hidden: int

                @classmethod
                def blank(cls):
                    state = cls.__new__(cls)
                    state._hidden = 0  # its own class: allowed
                    return state

                def _deal(self):
                    self._seen = self._hidden  # self: allowed
            """,
        "engine/snapshot.py": """\
            from .state import State, _table
            from collections import namedtuple


            def read(cls, data):
                state = cls._deal()  # a function's cls is not a method's
                state._hidden = data
                return namedtuple("P", "a")(1)._asdict()
            """,
        "bots/fast.py": """\
            import argparse

            from . import kernels as k


            def count(mask, parsers: argparse._SubParsersAction):
                return k._POP[mask]
            """,
    }
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    assert [str(reach) for reach in sorted(reach_ins(tmp_path))] == [
        "bots/fast.py:7: k._POP",
        "engine/snapshot.py:1: from .state import _table",
        "engine/snapshot.py:6: cls._deal",
        "engine/snapshot.py:7: state._hidden",
    ]
