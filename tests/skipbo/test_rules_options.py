import json

import pytest

from cardtable.core import OptionError
from cardtable.skipbo import GAME, SkipBoRules
from cardtable.skipbo.cards import DECK_SIZE, deck_counts


def test_deck_has_162_cards_twelve_of_each_number_and_18_wild() -> None:
    deck = deck_counts()
    assert sum(deck.values()) == DECK_SIZE == 162
    assert deck[0] == 18
    assert all(deck[number] == 12 for number in range(1, 13))


@pytest.mark.parametrize(("players", "stock"), [(2, 30), (3, 30), (4, 30), (5, 20), (6, 20)])
def test_default_stock_size_follows_player_count(players: int, stock: int) -> None:
    state = GAME.new_state(SkipBoRules(players=players), seed=3)
    assert all(len(pile) == stock for pile in state.stocks)


@pytest.mark.parametrize("stock", [5, 10, 15, 30])
def test_short_games_deal_the_chosen_stock(stock: int) -> None:
    state = GAME.new_state(SkipBoRules(players=2, stock_size=stock), seed=3)
    assert [len(pile) for pile in state.stocks] == [stock, stock]


@pytest.mark.parametrize(
    ("options", "field", "allowed"),
    [
        ({"players": 1}, "players", "from 2 to 6"),
        ({"players": 7}, "players", "from 2 to 6"),
        ({"players": True}, "players", "from 2 to 6"),
        ({"stock_size": 4}, "stock_size", "from 5 to 30"),
        ({"stock_size": 31}, "stock_size", "from 5 to 30"),
        ({"players": 6, "stock_size": 25}, "stock_size", "from 5 to 22"),
        ({"players": 5, "stock_size": 28}, "stock_size", "from 5 to 27"),
        ({"players": 3, "teams": True}, "teams", "4 or 6 players"),
        ({"discard_to_partner": True}, "discard_to_partner", "teams=true"),
        ({"target": 0}, "target", "from 1 to"),
        ({"points_per_card": -1}, "points_per_card", "from 0 to"),
        ({"first_player": 2}, "first_player", "from 0 to 1"),
        ({"teams": "yes"}, "teams", "true or false"),
    ],
)
def test_bad_option_names_field_and_range(
    options: dict[str, object], field: str, allowed: str
) -> None:
    with pytest.raises(OptionError) as caught:
        SkipBoRules(**options)  # type: ignore[arg-type]
    assert caught.value.field == field
    assert allowed in str(caught.value)


def test_stock_too_large_for_the_deck_is_refused_with_its_limit() -> None:
    # 6 players x 23 cards + 6 hands of 5 would need 168 of the 162 cards.
    SkipBoRules(players=6, stock_size=22)
    with pytest.raises(OptionError, match="stock_size"):
        SkipBoRules(players=6, stock_size=23)


def test_rules_round_trip_through_json() -> None:
    rules = SkipBoRules(players=4, stock_size=15, teams=True, rounds=True, points_per_card=1)
    assert SkipBoRules.from_json(json.loads(json.dumps(rules.to_json()))) == rules


def test_unknown_option_is_named() -> None:
    with pytest.raises(OptionError) as caught:
        SkipBoRules.from_json({"players": 2, "jokers": 4})
    assert caught.value.field == "jokers"


def test_rules_are_frozen() -> None:
    rules = SkipBoRules()
    with pytest.raises(AttributeError):
        rules.players = 3  # type: ignore[misc]
