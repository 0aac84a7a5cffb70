"""The layering of ``cardtable``, as data, and a checker that walks the import graph.

Every module's imports are read with :mod:`ast` (imports inside functions and under
``TYPE_CHECKING`` included: a lazy import is still a dependency), resolved to the
top-level unit of ``cardtable`` they reach (a subpackage such as ``bots`` or a module
such as ``games``), and compared with :data:`ALLOWED`. A unit missing from the table is
itself a violation, so a new package has to be placed in the layering on purpose.

docs/architecture.md describes the same table; ``tests/test_import_rules.py`` checks
that each unit of the table is named there.
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Mapping
from pathlib import Path

#: The engines, each a pure rules package over the core.
ENGINES = frozenset({"skipbo", "skyjo"})
#: What every layer above the engines may use: the version string, argparse value
#: types, the settings, the catalogs (which word the core's refusals), the protocol's
#: statuses and the display names' rules.
LEAVES = frozenset({"__init__", "argtypes", "display_names", "i18n", "settings", "statuses"})
#: What every front end may use: everything below the front ends.
BELOW_FRONT_ENDS = (
    frozenset({"core", "games", "rules_options", "bots", "sim", "fast"}) | ENGINES | LEAVES
)

#: Unit -> the units it may import. ``None`` means anything (the ``cardtable`` command).
#: There is no exception: a unit imports what its row names and nothing else.
ALLOWED: dict[str, frozenset[str] | None] = {
    "core": frozenset(),
    "__init__": frozenset(),
    "argtypes": frozenset(),
    "i18n": frozenset({"core"}),  # words the core's refusal keys
    "settings": frozenset(),
    "statuses": frozenset(),
    "display_names": frozenset(),
    "skipbo": frozenset({"core"}),
    "skyjo": frozenset({"core"}),
    # Compiled engines: the same rules as the pure engines, over the same core.
    "fast": frozenset({"core"}) | ENGINES,
    # The registry loads the engines by name (importlib), importing none of them.
    "games": frozenset({"core"}),
    "rules_options": frozenset({"core", "games"}),
    "bots": frozenset({"core"}) | ENGINES,
    "sim": frozenset({"core", "games", "bots", "argtypes", "fast"}) | ENGINES,
    # Front ends: each builds on the layers below and never on another front end...
    "server": BELOW_FRONT_ENDS,
    "web": BELOW_FRONT_ENDS,
    "tui": BELOW_FRONT_ENDS,
    "rl": BELOW_FRONT_ENDS,
    # The measuring clients import what they measure (the RL environments too) and the
    # server only over HTTP; only the ``cardtable`` command imports them.
    "bench": BELOW_FRONT_ENDS | {"rl"},
    # ...and meet only where they are put together: the online table (the server with
    # the web table) and the ``cardtable`` command (anything).
    "online": BELOW_FRONT_ENDS | {"server", "web"},
    "cli": None,
}


@dataclasses.dataclass(frozen=True)
class Violation:
    module: str  # path of the importing file, relative to the package root
    line: int
    source_unit: str
    target_unit: str
    imported: str

    def __str__(self) -> str:
        return (
            f"{self.module}:{self.line}: {self.source_unit} may not import "
            f"{self.target_unit} ({self.imported})"
        )


def unit_of(relative: Path) -> str:
    """The top-level unit a file belongs to: ``bots/advisor.py`` -> ``bots``."""
    parts = relative.with_suffix("").parts
    return parts[0]


def _module_name(package: str, relative: Path) -> tuple[str, bool]:
    parts = relative.with_suffix("").parts
    is_package = parts[-1] == "__init__"
    if is_package:
        parts = parts[:-1]
    return ".".join((package, *parts)), is_package


def imported_names(path: Path, package: str, relative: Path) -> list[tuple[int, str]]:
    """Every absolute module name ``path`` imports, with its line number."""
    module, is_package = _module_name(package, relative)
    here = module if is_package else module.rpartition(".")[0]
    names: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            names.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                names.append((node.lineno, node.module or ""))
                continue
            base = here.split(".")
            base = base[: len(base) - (node.level - 1)]
            anchor = ".".join(base)
            if node.module:
                names.append((node.lineno, f"{anchor}.{node.module}"))
            else:  # ``from . import x``: each x is a module or a name of the package
                names.extend((node.lineno, f"{anchor}.{alias.name}") for alias in node.names)
    return names


def violations(
    root: Path,
    package: str = "cardtable",
    allowed: Mapping[str, frozenset[str] | None] = ALLOWED,
) -> list[Violation]:
    """Every import under ``root`` (the package folder) that the layering forbids."""
    found: list[Violation] = []
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root)
        source = unit_of(relative)
        if source not in allowed:
            found.append(Violation(str(relative), 1, source, "(a unit not in the table)", ""))
            continue
        permitted = allowed[source]
        for line, name in imported_names(path, package, relative):
            head, _, rest = name.partition(".")
            if head != package:
                continue
            target = _target_unit(root, rest.partition(".")[0])
            if target == source or permitted is None or target in permitted:
                continue
            found.append(Violation(str(relative), line, source, target, name))
    return found


def _target_unit(root: Path, first: str) -> str:
    """``first`` if it is a subpackage or module of ``root``, else a name of its ``__init__``."""
    if first and ((root / first).is_dir() or (root / f"{first}.py").is_file()):
        return first
    return "__init__"
