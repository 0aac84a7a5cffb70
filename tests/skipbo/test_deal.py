from cardtable.skipbo import GAME, SkipBoRules


def test_same_seed_deals_the_same_game() -> None:
    rules = SkipBoRules(players=3)
    assert GAME.new_state(rules, 42) == GAME.new_state(rules, 42)
    assert GAME.new_state(rules, 42) != GAME.new_state(rules, 43)


def test_first_player_is_chosen_by_the_seed_unless_set() -> None:
    starters = {GAME.new_state(SkipBoRules(players=4), seed).current for seed in range(40)}
    assert starters == {0, 1, 2, 3}
    for seed in range(10):
        assert GAME.new_state(SkipBoRules(players=4, first_player=2), seed).current == 2


def test_the_first_player_draws_five_and_nobody_else_has_a_hand_yet() -> None:
    state = GAME.new_state(SkipBoRules(players=3, first_player=1), seed=5)
    assert state.hand_sizes == [0, 5, 0]
    assert len(state.draw) == 162 - 3 * 30 - 5


def test_each_stock_shows_its_top_card() -> None:
    state = GAME.new_state(SkipBoRules(players=2), seed=9)
    view = state.view(None)
    for seat, player in enumerate(view["players"]):
        assert player["stock_top"] == state.stocks[seat][-1]
        assert player["stock_size"] == 30
