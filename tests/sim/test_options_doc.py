import dataclasses
from typing import ClassVar

from cardtable.core import RulesBase
from cardtable.sim.options_doc import OptionDoc, describe_options


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


def test_options_come_in_order_with_types_defaults_and_meanings():
    assert describe_options(DocumentedRules) == [
        OptionDoc("size", "int", 3, "how big the board is, continued on a second line."),
        OptionDoc("colour", "str", "red", "The colour of the first player."),
        OptionDoc("extras", "tuple[int, ...]", (), ""),
        OptionDoc("plain", "bool | None", None, ""),
    ]
