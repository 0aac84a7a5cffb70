import dataclasses

import pytest

from cardtable.core import OptionError, RulesBase, check_bool, check_int, check_optional_int


@dataclasses.dataclass(frozen=True)
class ToyRules(RulesBase):
    size: int = 3
    fast: bool = False
    limit: int | None = None

    def validate(self) -> None:
        check_int("size", self.size, 1, 9)
        check_bool("fast", self.fast)
        check_optional_int("limit", self.limit, 0, 5)


def test_bad_values_name_the_field_and_the_range() -> None:
    with pytest.raises(OptionError) as caught:
        ToyRules(size=10)
    assert caught.value.field == "size"
    assert str(caught.value) == "option 'size': an integer from 1 to 9 (got 10)"
    with pytest.raises(OptionError, match="'fast': true or false"):
        ToyRules(fast=1)  # type: ignore[arg-type]
    with pytest.raises(OptionError, match="'limit': null or an integer from 0 to 5"):
        ToyRules(limit=6)


def test_booleans_are_not_integers() -> None:
    with pytest.raises(OptionError):
        ToyRules(size=True)


def test_json_round_trip_and_unknown_keys() -> None:
    rules = ToyRules(size=4, fast=True, limit=2)
    assert ToyRules.from_json(rules.to_json()) == rules
    with pytest.raises(OptionError) as caught:
        ToyRules.from_json({"size": 4, "colour": "red"})
    assert caught.value.field == "colour"
    with pytest.raises(OptionError, match="rules"):
        ToyRules.from_json([1, 2])


def test_replace_validates_like_a_new_object() -> None:
    assert ToyRules().replace(size=5).size == 5
    with pytest.raises(OptionError):
        ToyRules().replace(size=0)
