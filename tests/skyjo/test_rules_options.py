"""Rules options: defaults, ranges, JSON round trip."""

from __future__ import annotations

import pytest

from cardtable.core import OptionError
from cardtable.games import get_game
from cardtable.skyjo import GAME, NUM_ACTIONS, SkyjoRules


def test_defaults() -> None:
    rules = SkyjoRules()
    assert rules.to_json() == {
        "players": 4,
        "end_score": 100,
        "rows_rule": False,
        "closer_starts_next": False,
        "closer_doubling": True,
        "turn_limit": 1000,
    }
    assert rules.game == "skyjo"


@pytest.mark.parametrize(
    ("field", "value", "allowed"),
    [
        ("players", 1, "an integer from 2 to 8"),
        ("players", 9, "an integer from 2 to 8"),
        ("players", True, "an integer from 2 to 8"),
        ("end_score", 0, "an integer from 1 to 1000"),
        ("end_score", 1001, "an integer from 1 to 1000"),
        ("rows_rule", 1, "true or false"),
        ("closer_starts_next", "yes", "true or false"),
        ("closer_doubling", None, "true or false"),
        ("turn_limit", 99, "an integer from 100 to 1000000"),
        ("turn_limit", 1_000_001, "an integer from 100 to 1000000"),
        ("turn_limit", 500.0, "an integer from 100 to 1000000"),
    ],
)
def test_bad_option_names_field_and_range(field: str, value: object, allowed: str) -> None:
    with pytest.raises(OptionError) as error:
        SkyjoRules(**{field: value})
    assert error.value.field == field
    assert error.value.allowed == allowed
    assert str(error.value).startswith(f"option '{field}': {allowed}")


def test_rules_json_round_trip_and_unknown_option() -> None:
    rules = SkyjoRules(
        players=7, end_score=50, rows_rule=True, closer_starts_next=True, turn_limit=250
    )
    assert GAME.rules_from_json(rules.to_json()) == rules
    with pytest.raises(OptionError, match="not an option"):
        GAME.rules_from_json({"players": 3, "jokers": 2})


def test_registered_and_action_count_fixed() -> None:
    assert get_game("skyjo") is GAME
    assert GAME.num_actions == NUM_ACTIONS == 38
    for rules in (SkyjoRules(players=2), SkyjoRules(players=8, rows_rule=True)):
        state = GAME.new_state(rules, 1)
        assert len(state.action_mask()) == 38


def test_deck_is_the_published_150_cards() -> None:
    deck = GAME.deck(SkyjoRules())
    assert sum(deck.values()) == 150
    assert deck[-2] == 5 and deck[-1] == 10 and deck[0] == 15
    assert all(deck[value] == 10 for value in range(1, 13))
    assert set(deck) == set(range(-2, 13))
