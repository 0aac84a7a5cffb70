"""Option meanings come from the rules class itself, in both documentation styles."""

import dataclasses
from typing import ClassVar

from cardtable.core import RulesBase
from cardtable.rules_options import meanings


@dataclasses.dataclass(frozen=True)
class DocumentedRules(RulesBase):
    """Rules documented in both styles.

    - ``size``: how big the board is,
      continued on a second line.
    - ``colour``: overridden below by the attribute docstring.
    """

    game: ClassVar[str] = "documented"

    size: int = 3
    colour: str = "red"
    """The colour of the first player."""
    extras: tuple[int, ...] = dataclasses.field(default_factory=tuple)
    plain: bool | None = None


def test_meanings_read_bullets_and_attribute_docstrings_the_attribute_winning() -> None:
    assert meanings(DocumentedRules) == {
        "size": "how big the board is, continued on a second line.",
        "colour": "The colour of the first player.",
    }
