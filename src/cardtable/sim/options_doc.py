"""What a game's rules options are: name, type, default and meaning, read off the dataclass.

The meaning comes from the rules class itself, so it cannot drift from the code:
either an attribute docstring (a string right after the field) or a bullet
``- ``name``: text`` in the class docstring. Both styles are in use.
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import itertools
import re
import textwrap
from dataclasses import dataclass

from ..core import RulesBase

_BULLET = re.compile(r"^-\s*``(\w+)``\s*:\s*(.*)$")


@dataclass(frozen=True, slots=True)
class OptionDoc:
    name: str
    type: str
    default: object
    meaning: str


def _attribute_docstrings(cls: type) -> dict[str, str]:
    docs: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        try:
            source = textwrap.dedent(inspect.getsource(klass))
        except (OSError, TypeError):  # built-ins and classes made at run time have no source
            continue
        tree = ast.parse(source)
        body = tree.body[0].body if tree.body and isinstance(tree.body[0], ast.ClassDef) else []
        for node, following in itertools.pairwise(body):
            if (
                isinstance(node, ast.AnnAssign)
                and isinstance(node.target, ast.Name)
                and isinstance(following, ast.Expr)
                and isinstance(following.value, ast.Constant)
                and isinstance(following.value.value, str)
            ):
                docs[node.target.id] = " ".join(following.value.value.split())
    return docs


def _docstring_bullets(cls: type) -> dict[str, str]:
    docs: dict[str, str] = {}
    current: str | None = None
    for line in inspect.cleandoc(cls.__doc__ or "").splitlines():
        match = _BULLET.match(line.strip())
        if match:
            current = match.group(1)
            docs[current] = match.group(2).strip()
        elif current is not None and line.startswith(" ") and line.strip():
            docs[current] += " " + line.strip()
        else:
            current = None
    return docs


def _type_name(annotation: object) -> str:
    if isinstance(annotation, str):  # modules with ``from __future__ import annotations``
        return annotation
    if isinstance(annotation, type):
        return annotation.__name__
    return str(annotation).replace("typing.", "")


def describe_options(rules_type: type[RulesBase]) -> list[OptionDoc]:
    """Every option of ``rules_type`` in declaration order."""
    meanings = {**_docstring_bullets(rules_type), **_attribute_docstrings(rules_type)}
    options = []
    for field in dataclasses.fields(rules_type):
        if field.default is not dataclasses.MISSING:
            default: object = field.default
        elif field.default_factory is not dataclasses.MISSING:
            default = field.default_factory()
        else:
            default = dataclasses.MISSING
        options.append(
            OptionDoc(field.name, _type_name(field.type), default, meanings.get(field.name, ""))
        )
    return options
