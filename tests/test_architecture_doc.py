"""docs/architecture.md matches the tree: every package and module of ``cardtable`` is in
its map, every file it names exists, and every function the path of a move names exists,
so the page cannot silently go stale."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import cardtable

PACKAGE_ROOT = Path(cardtable.__file__).parent
REPOSITORY = PACKAGE_ROOT.parent.parent
TEXT = (REPOSITORY / "docs" / "architecture.md").read_text(encoding="utf-8")
#: The map at the top of the page: the first fenced block.
MAP = TEXT.split("```")[1]
#: Where a file the page names may be: it names files by their path from the repository,
#: from the package, or within the part of the package the sentence speaks of.
PLACES = [
    REPOSITORY,
    PACKAGE_ROOT,
    *(
        PACKAGE_ROOT / part
        for part in (
            "core",
            "skipbo",
            "skyjo",
            "fast",
            "encoders",
            "bots",
            "server",
            "server/rooms",
            "rl",
            "tui",
            "web",
        )
    ),
    PACKAGE_ROOT / "web" / "static",
    PACKAGE_ROOT / "web" / "static" / "js",
]


def _named_files(text: str) -> set[str]:
    """Every file or folder the page names in backticks (``server/app.py``, ``js/dom.js``,
    ``*_kernels.py``, ``static/vendor/``) and every module named in the map."""
    found = set(re.findall(r"`([\w./*-]+\.(?:py|js|md)|[\w./-]+/)`", text))
    # A name from the root (``/sw.js``) is an address the server answers, not a file.
    return {name for name in found if not name.startswith("/")} | set(
        re.findall(r"\b(\w+\.py)\b", MAP)
    )


def test_every_package_and_module_is_on_the_map():
    for path in sorted(PACKAGE_ROOT.iterdir()):
        if path.is_dir() and (path / "__init__.py").exists():
            assert f"\n  {path.name}/" in MAP, path.name
        elif path.suffix == ".py" and path.name != "__init__.py":
            assert f"\n  {path.name}" in MAP, path.name


def test_every_file_the_page_names_exists():
    names = _named_files(TEXT)
    assert {"server/rooms/room.py", "js/play.js", "*_kernels.py", "scripts/golden.py"} <= names
    missing = [
        name
        for name in sorted(names)
        if not any(any(place.glob(name.rstrip("/"))) for place in PLACES)
    ]
    assert missing == []


def _defined_names(path: Path) -> set[str]:
    """The functions and classes of a module, and its classes' methods as ``Class.method``."""
    names = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        if isinstance(node, ast.ClassDef):
            names |= {
                f"{node.name}.{item.name}"
                for item in node.body
                if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
            }
    return names


def test_the_path_of_a_move_names_real_functions():
    """Each row of the move's path names one module of the package and functions of it."""
    section = TEXT.partition("### A move from a click to the database and back")[2]
    rows = [
        line.split("|")[2:4]
        for line in section.partition("\n#")[0].splitlines()
        if line.startswith("| ") and not line.startswith("| step ")
    ]
    modules = set()
    for module_cell, functions_cell in rows:
        [module] = re.findall(r"`([\w/]+\.py)`", module_cell)
        modules.add(module)
        defined = _defined_names(PACKAGE_ROOT / module)
        named = re.findall(r"`([\w.]+)`", functions_cell)
        assert named, module
        assert [name for name in named if name not in defined] == [], module
    assert {
        "server/rooms/websocket.py",
        "server/rooms/protocol.py",
        "server/rooms/room.py",
        "server/storage/group_commit.py",
        "server/rooms/events.py",
        "server/rooms/connections.py",
        "core/game.py",
        "skipbo/view.py",
    } <= modules
