"""A checker for reach-ins: a module using another module's private (``_name``) names.

A name with a leading underscore is private to the module that defines it (and a
``_method`` to its class and subclasses). Another module that needs it should get a
public, documented seam instead (issue 21). The checker reads each file with
:mod:`ast` and reports, with file and line:

- ``from module import _name`` of a module of ours (``cardtable``, a relative import,
  or the lab's own modules);
- ``something._name`` where ``something`` is not the ``self`` or ``cls`` of a method
  and ``_name`` is not defined (assigned, or a ``def``/``class``) in the same file:
  ``other_module._TABLE``, ``state._hidden`` from a module that does not own the state.

Dunder names (``__init__``), the public API of named tuples (``_asdict``, ``_replace``)
and names of other packages listed in :data:`FOREIGN` are not reach-ins of ours.
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Iterator
from pathlib import Path

#: Private names of other packages that have no public spelling: argparse's type of
#: ``add_subparsers()``' result, which a function adding a subcommand must annotate.
FOREIGN = frozenset({"argparse._SubParsersAction"})
#: The public methods of named tuples, underscored only to keep clear of field names.
NAMED_TUPLE_API = frozenset({"_asdict", "_replace", "_fields", "_make"})


@dataclasses.dataclass(frozen=True, order=True)
class ReachIn:
    path: str
    line: int
    what: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.what}"


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _defined_names(tree: ast.AST, receivers: dict[int, set[str]]) -> set[str]:
    """Every name the file defines: functions, classes, assigned names, and attributes
    its methods set on ``self`` or ``cls`` (setting ``other._name`` defines nothing)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            found.add(node.id)
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.ctx, ast.Store)
            and isinstance(node.value, ast.Name)
            and node.value.id in receivers.get(id(node), ())
        ):
            found.add(node.attr)
    return found


def _own_receivers(tree: ast.AST) -> dict[int, set[str]]:
    """For each attribute node (by id) inside a method, the names ``self`` and ``cls``;
    elsewhere none: a module-level function's parameter named ``cls`` is not its own."""
    receivers: dict[int, set[str]] = {}

    def visit(node: ast.AST, in_class: bool, own: set[str]) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                visit(child, True, set())
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                visit(child, False, {"self", "cls"} if in_class else own)
            else:
                if isinstance(child, ast.Attribute):
                    receivers[id(child)] = own
                visit(child, in_class, own)

    visit(tree, False, set())
    return receivers


def _our_module(module: str | None, level: int, ours: frozenset[str]) -> bool:
    return level > 0 or (module is not None and module.split(".")[0] in ours)


#: The top-level packages whose private names are ours to keep private.
OURS = frozenset({"cardtable", "lab"})


def reach_ins(root: Path, ours: frozenset[str] = OURS) -> Iterator[ReachIn]:
    """Every reach-in of the Python files under ``root``, paths relative to it."""
    for path in sorted(root.rglob("*.py")):
        where = path.relative_to(root).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        receivers = _own_receivers(tree)
        defined = _defined_names(tree, receivers)
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and _our_module(node.module, node.level, ours):
                for alias in node.names:
                    if _private(alias.name):
                        source = "." * node.level + (node.module or "")
                        yield ReachIn(where, node.lineno, f"from {source} import {alias.name}")
            elif isinstance(node, ast.Attribute) and _private(node.attr):
                receiver = node.value
                if isinstance(receiver, ast.Name) and receiver.id in receivers.get(id(node), ()):
                    continue
                spelled = ast.unparse(node)
                if node.attr in defined or node.attr in NAMED_TUPLE_API or spelled in FOREIGN:
                    continue
                yield ReachIn(where, node.lineno, spelled)
