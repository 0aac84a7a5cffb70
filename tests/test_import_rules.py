"""The layers import only downwards: engines only the core, the core nothing of ours,
front ends never each other (they meet only in ``online`` and ``cli``); within them the
modules import in one direction, and none is longer than ``MAX_LINES``."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import cardtable

from .import_rules import (
    ALLOWED,
    MAX_LINES,
    SERVER_ALLOWED,
    circles,
    oversized,
    violations,
)

PACKAGE_ROOT = Path(cardtable.__file__).parent
ARCHITECTURE = Path(__file__).parent.parent / "docs" / "architecture.md"


def test_the_package_keeps_its_layers():
    assert [str(v) for v in violations(PACKAGE_ROOT)] == []


def test_the_server_keeps_its_parts_in_order():
    server = PACKAGE_ROOT / "server"
    assert [str(v) for v in violations(server, "cardtable.server", SERVER_ALLOWED)] == []


def test_every_part_of_the_server_is_placed_and_says_what_lives_there():
    server = PACKAGE_ROOT / "server"
    folders = {p.name for p in server.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    parts = folders | {p.stem for p in server.glob("*.py")}
    assert parts - set(SERVER_ALLOWED) == set()
    for folder in folders:
        docstring = ast.get_docstring(ast.parse((server / folder / "__init__.py").read_text()))
        assert docstring and "may import" in docstring.lower(), folder


def test_a_wrong_import_inside_the_server_is_caught(tmp_path):
    server = (
        _tree(
            tmp_path,
            {
                "server/__init__.py": "",
                "server/storage/__init__.py": "",
                "server/storage/rooms.py": "from ..rooms.room import Room\n",  # upwards
                "server/rooms/__init__.py": "",
                "server/rooms/room.py": "from ..storage import rooms\nfrom ..ops import limits\n",
                "server/ops/__init__.py": "",
                "server/ops/limits.py": "from cardtable.server.players import accounts\n",
                "server/players/__init__.py": "",
                "server/players/accounts.py": "",
                "server/spare/__init__.py": "",
            },
        )
        / "server"
    )
    found = sorted(str(v) for v in violations(server, "cardtable.server", SERVER_ALLOWED))
    assert found == [
        "ops/limits.py:1: ops may not import players (cardtable.server.players)",
        "spare/__init__.py:1: spare may not import (a unit not in the table) ()",
        "storage/rooms.py:1: storage may not import rooms (cardtable.server.rooms.room)",
    ]


def test_the_documented_table_is_the_tested_one():
    """docs/architecture.md names every unit the test places, and no exception."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    table = text.partition("## What may import what")[2].partition("\n## ")[0]
    for unit in ALLOWED:
        assert f"`{unit}`" in table, unit
    for part in SERVER_ALLOWED:
        assert f"`server/{part}`" in table or part == "__init__", part
    assert "exception" not in table.lower()


def test_every_unit_of_the_package_is_placed_in_the_layering():
    units = {
        path.name
        for path in PACKAGE_ROOT.iterdir()
        if path.is_dir() and (path / "__init__.py").exists()
    }
    units |= {path.stem for path in PACKAGE_ROOT.glob("*.py")}
    assert units - set(ALLOWED) == set()


def _tree(root: Path, files: dict[str, str]) -> Path:
    package = root / "cardtable"
    for name, text in files.items():
        path = package / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return package


def test_wrong_imports_are_caught_with_their_file_and_line(tmp_path):
    package = _tree(
        tmp_path,
        {
            "__init__.py": '__version__ = "0"\n',
            "core/__init__.py": "from ..bots import Bot\n",
            "bots/__init__.py": "Bot = object\n",
            "skipbo/__init__.py": "",
            "skipbo/state.py": "import os\n\nimport cardtable.server.rooms\n",
            "server/__init__.py": "",
            "server/rooms.py": "from ..skipbo import state\n",
            "web/__init__.py": "",
            "tui/__init__.py": "",
            "tui/app.py": """\
                from __future__ import annotations


                def mount():
                    from ..web import routes  # a lazy import is a dependency too
                    return routes
                """,
            "cli.py": "from . import __version__\nfrom .tui import app\n",
            "stray/__init__.py": "",
        },
    )
    found = sorted(str(v) for v in violations(package))
    assert found == [
        "core/__init__.py:1: core may not import bots (cardtable.bots)",
        "skipbo/state.py:3: skipbo may not import server (cardtable.server.rooms)",
        "stray/__init__.py:1: stray may not import (a unit not in the table) ()",
        "tui/app.py:5: tui may not import web (cardtable.web)",
    ]


def test_front_ends_meet_only_where_they_are_put_together(tmp_path):
    package = _tree(
        tmp_path,
        {
            "server/app.py": "from ..web import routes\n",
            "web/options.py": "from ..server.names import MAX_NAME\n",
            "web/routes.py": "",
            "online.py": "from .server import app\nfrom .web import routes\n",
            "display_names.py": "",
            "tui/command.py": "from ..display_names import clean_name\n",
        },
    )
    found = sorted(str(v) for v in violations(package))
    assert found == [
        "server/app.py:1: server may not import web (cardtable.web)",
        "web/options.py:1: web may not import server (cardtable.server.names)",
    ]


def test_the_modules_of_the_package_import_in_one_direction():
    assert [str(circle) for circle in circles(PACKAGE_ROOT)] == []


def test_import_circles_are_caught_with_their_modules(tmp_path):
    package = _tree(
        tmp_path,
        {
            "__init__.py": "",
            "server/__init__.py": "",
            "server/rooms.py": "from .lobby import Lobby\nfrom . import chat\n",
            "server/lobby.py": """\
                from typing import TYPE_CHECKING

                if TYPE_CHECKING:  # a type is a dependency too
                    from .rooms import Room
                """,
            "server/chat.py": "import cardtable.server.rooms\n",
            "server/table.py": "from .rooms import Room\n",  # above the circle, not in it
            "skyjo/__init__.py": "from .game import GAME\n",
            "skyjo/game.py": "from .state import State\nGAME = 1\n",
            "skyjo/state.py": """\
                class State:
                    def view(self):
                        from cardtable.skyjo import view  # a lazy import is one too

                        return view.build(self)
                """,
            "skyjo/view.py": "from .state import State\n",
        },
    )
    found = circles(package)
    assert [circle.modules for circle in found] == [
        ("cardtable.server.chat", "cardtable.server.lobby", "cardtable.server.rooms"),
        ("cardtable.skyjo.state", "cardtable.skyjo.view"),
    ]
    assert str(found[1]) == (
        "import circle among cardtable.skyjo.state, cardtable.skyjo.view: "
        "skyjo/state.py:3 imports cardtable.skyjo.view; "
        "skyjo/view.py:1 imports cardtable.skyjo.state"
    )


def test_no_module_outgrows_the_limit():
    found = {item.module: item.lines for item in oversized(PACKAGE_ROOT)}
    assert found == {}, f"over {MAX_LINES} lines: {found}"


def test_oversized_modules_are_caught_with_their_length(tmp_path):
    package = _tree(
        tmp_path,
        {
            "server/storage.py": "x = 1\n" * (MAX_LINES + 1),
            "server/rooms.py": "x = 1\n" * MAX_LINES,
            "web/static/vendor/lib.py": "x = 1\n" * 900,  # another project's file
            "web/static/big.js": "x;\n" * 900,  # only Python modules count
        },
    )
    assert [str(item) for item in oversized(package)] == [
        f"server/storage.py: {MAX_LINES + 1} lines (at most {MAX_LINES})"
    ]
