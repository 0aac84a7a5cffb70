"""The layering of ``cardtable``, as data, and a checker that walks the import graph.

Every module's imports are read with :mod:`ast` (imports inside functions and under
``TYPE_CHECKING`` included: a lazy import is still a dependency), resolved to the
top-level unit of ``cardtable`` they reach (a subpackage such as ``bots`` or a module
such as ``games``), and compared with :data:`ALLOWED`. A unit missing from the table is
itself a violation, so a new package has to be placed in the layering on purpose.

docs/architecture.md describes the same table; ``tests/test_import_rules.py`` checks
that each unit of the table is named there.

Below the units, the modules themselves import in one direction: :func:`circles` finds
every import circle among the modules of the package (the strongly connected components
of the module-level import graph, lazy and ``TYPE_CHECKING`` imports included: a type
is a dependency too). And no module outgrows :data:`MAX_LINES` (:func:`oversized`).
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Collection, Iterator, Mapping
from pathlib import Path

#: The engines, each a pure rules package over the core.
ENGINES = frozenset({"skipbo", "skyjo"})
#: What every layer above the engines may use: the version string, argparse value
#: types, the settings, the catalogs (which word the core's refusals), the protocol's
#: statuses and the display names' rules.
LEAVES = frozenset({"__init__", "argtypes", "display_names", "i18n", "settings", "statuses"})
#: What every front end may use: everything below the front ends.
BELOW_FRONT_ENDS = (
    frozenset({"core", "games", "rules_options", "encoders", "bots", "sim", "fast", "lessons"})
    | ENGINES
    | LEAVES
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
    # What a seat sees as numbers: the RL envs' observations and the learned bots' input.
    "encoders": frozenset({"core"}) | ENGINES,
    "bots": frozenset({"core", "encoders"}) | ENGINES,
    "sim": frozenset({"core", "games", "bots", "argtypes", "fast"}) | ENGINES,
    # Lessons are data over the engines: positions, expected moves, catalog keys.
    "lessons": frozenset({"core", "games"}) | ENGINES,
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
    # ``cardtable fast warm``: every path that compiles a kernel, the vector envs included.
    "warmup": BELOW_FRONT_ENDS | {"rl"},
    "cli": None,
}


#: The server's own parts, bottom to top: each folder of ``server/`` (or module beside
#: them) -> the parts it may import. Leaves first: what every part may use and that
#: imports no other part. ``storage`` is the bottom of the data; the routes of a concept
#: live in its folder, over the shared HTTP machinery of ``edges``; ``app`` puts every
#: folder's routes together and ``command`` starts it.
SERVER_LEAVES = frozenset({"__init__", "errors", "tokens", "ladder", "name_skeletons"})
SERVER_ALLOWED: dict[str, frozenset[str] | None] = {
    "__init__": frozenset(),
    "errors": frozenset(),  # refused requests, with their status
    "tokens": frozenset(),  # seat and host tokens, room codes
    "ladder": frozenset(),  # which game is rated on which ladder, and how it rates
    "name_skeletons": frozenset(),  # names that look alike
    "ops": SERVER_LEAVES,  # settings, limits, logs, the collector, workers, metrics
    "storage": SERVER_LEAVES | {"ops"},  # the database: tables, queries, migrations
    "edges": SERVER_LEAVES | {"ops", "storage"},  # what every route shares, the guard
    "ratings": SERVER_LEAVES | {"ops", "storage"},  # rated games judged, profiles
    "rooms": SERVER_LEAVES | {"ops", "storage", "edges", "ratings"},
    "players": SERVER_LEAVES | {"ops", "storage", "edges", "ratings", "rooms"},
    "lobby": SERVER_LEAVES | {"ops", "storage", "edges", "ratings", "rooms", "players"},
    "lessons": SERVER_LEAVES | {"ops", "edges"},
    "app": None,
    "command": SERVER_LEAVES | {"ops"},  # ``cardtable serve`` imports the app lazily
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
            anchor = _anchor(here, node.level)
            if node.module:
                names.append((node.lineno, f"{anchor}.{node.module}"))
            else:  # ``from . import x``: each x is a module or a name of the package
                names.extend((node.lineno, f"{anchor}.{alias.name}") for alias in node.names)
    return names


def _anchor(here: str, level: int) -> str:
    """The package a relative import of ``level`` dots starts from, in package ``here``."""
    parts = here.split(".")
    return ".".join(parts[: len(parts) - (level - 1)])


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
            if not name.startswith(f"{package}."):
                continue
            rest = name.removeprefix(f"{package}.")
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


@dataclasses.dataclass(frozen=True)
class Circle:
    """Modules that import each other, directly or through one another."""

    modules: tuple[str, ...]  # sorted dotted names
    imports: tuple[str, ...]  # each import that closes it: ``file:line imports module``

    def __str__(self) -> str:
        return f"import circle among {', '.join(self.modules)}: {'; '.join(self.imports)}"


@dataclasses.dataclass(frozen=True)
class ModuleImport:
    file: str  # relative to the package root
    line: int
    target: str  # the dotted name of the module of the package it reaches


def module_names(root: Path, package: str = "cardtable") -> dict[str, Path]:
    """Every module of the package by dotted name (a package by its own name)."""
    return {
        _module_name(package, path.relative_to(root))[0]: path
        for path in sorted(root.rglob("*.py"))
    }


def module_imports(root: Path, package: str = "cardtable") -> dict[str, list[ModuleImport]]:
    """Each module of the package -> the imports by which it reaches its other modules.

    ``from x import y`` reaches ``x.y`` when that is a module, else ``x``; any other name
    is cut back to the longest module of the package it starts with. A package's
    ``__init__`` counts where it is named, not as the parent every import of one of its
    modules runs first: that is the package's own loading order, not a dependency.
    """
    modules = module_names(root, package)
    graph: dict[str, list[ModuleImport]] = {}
    for name, path in modules.items():
        relative = path.relative_to(root)
        found = graph[name] = []
        for line, imported in _reached_names(path, package, relative):
            target = _module_of(imported, modules)
            if target is None or target == name:
                continue
            reach = ModuleImport(str(relative), line, target)
            if reach not in found:  # ``from .x import a, b`` reaches x once
                found.append(reach)
    return graph


def _reached_names(path: Path, package: str, relative: Path) -> Iterator[tuple[int, str]]:
    """The dotted names an import reaches: ``from x import y`` gives ``x.y`` (a module,
    or else a name of ``x``), a plain ``import x.y`` gives ``x.y``."""
    module, is_package = _module_name(package, relative)
    here = module if is_package else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(filter(None, [_anchor(here, node.level), base]))
            for alias in node.names:
                yield node.lineno, f"{base}.{alias.name}"


def _module_of(name: str, modules: Collection[str]) -> str | None:
    """The longest module of ``modules`` that ``name`` is or starts with."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in modules:
            return candidate
        parts.pop()
    return None


def circles(root: Path, package: str = "cardtable") -> list[Circle]:
    """Every import circle among the modules under ``root``, by module name."""
    graph = module_imports(root, package)
    found = []
    for component in _strongly_connected(
        {name: {i.target for i in imports} for name, imports in graph.items()}
    ):
        if len(component) < 2:
            continue
        members = set(component)
        closing = tuple(
            f"{i.file}:{i.line} imports {i.target}"
            for name in sorted(members)
            for i in graph[name]
            if i.target in members
        )
        found.append(Circle(tuple(sorted(members)), closing))
    return sorted(found, key=lambda circle: circle.modules)


def _strongly_connected(graph: Mapping[str, Collection[str]]) -> list[list[str]]:
    """Tarjan's strongly connected components of ``graph`` (node -> its successors)."""
    index: dict[str, int] = {}
    lowest: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = lowest[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for successor in sorted(graph.get(node, ())):
            if successor not in index:
                visit(successor)
                lowest[node] = min(lowest[node], lowest[successor])
            elif successor in on_stack:
                lowest[node] = min(lowest[node], index[successor])
        if lowest[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            components.append(component)

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return components


#: The longest a module of the package may be: past it, a module has more than one job.
MAX_LINES = 700


@dataclasses.dataclass(frozen=True)
class Oversized:
    module: str  # relative to the package root
    lines: int
    limit: int

    def __str__(self) -> str:
        return f"{self.module}: {self.lines} lines (at most {self.limit})"


def oversized(root: Path, limit: int = MAX_LINES) -> list[Oversized]:
    """Every Python module under ``root`` longer than ``limit`` lines, vendored code aside
    (a ``vendor`` folder holds other projects' files, kept as they ship)."""
    found = []
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root)
        if "vendor" in relative.parts:
            continue
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > limit:
            found.append(Oversized(str(relative), lines, limit))
    return found
