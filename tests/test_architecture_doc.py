"""docs/architecture.md matches the tree: every package and module of ``cardtable`` is in
its map, and every file it names exists, so the map cannot silently go stale."""

from __future__ import annotations

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
    *(PACKAGE_ROOT / part for part in ("core", "skipbo", "skyjo", "fast", "tui", "web")),
    PACKAGE_ROOT / "web" / "static",
    PACKAGE_ROOT / "web" / "static" / "js",
]


def _named_files(text: str) -> set[str]:
    """Every file or folder the page names in backticks (``server/app.py``, ``js/dom.js``,
    ``*_kernels.py``, ``static/vendor/``) and every module named in the map."""
    found = set(re.findall(r"`([\w./*-]+\.(?:py|js|md)|[\w./-]+/)`", text))
    return found | set(re.findall(r"\b(\w+\.py)\b", MAP))


def test_every_package_and_module_is_on_the_map():
    for path in sorted(PACKAGE_ROOT.iterdir()):
        if path.is_dir() and (path / "__init__.py").exists():
            assert f"\n  {path.name}/" in MAP, path.name
        elif path.suffix == ".py" and path.name != "__init__.py":
            assert f"\n  {path.name}" in MAP, path.name


def test_every_file_the_page_names_exists():
    names = _named_files(TEXT)
    assert {"server/rooms.py", "js/play.js", "*_kernels.py", "scripts/golden.py"} <= names
    missing = [
        name
        for name in sorted(names)
        if not any(any(place.glob(name.rstrip("/"))) for place in PLACES)
    ]
    assert missing == []
