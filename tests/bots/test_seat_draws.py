"""Rollouts with a draw queue per seat: the same cards, each seat's draws fixed."""

from __future__ import annotations

from collections import Counter

from cardtable.bots.seat_draws import SeatDraws, skipbo_drawer, skyjo_drawer
from cardtable.bots.skipbo_hard import HardBot
from cardtable.bots.skyjo_hard import HardBot as SkyjoHardBot
from cardtable.core import Rng
from cardtable.games import get_game
from cardtable.skipbo.moves import DISCARD_BASE, STOCK_BASE
from cardtable.skipbo.state import SkipBoState
from cardtable.skyjo.moves import DRAW, TAKE_DISCARD
from cardtable.skyjo.state import TURN, SkyjoState


def _world(players: int, seed: int) -> SkipBoState:
    game = get_game("skipbo")
    state = game.new_state(game.rules_from_json({"players": players, "stock_size": 20}), seed)
    assert isinstance(state, SkipBoState)
    return state.determinize(state.current, Rng(seed + 100))


def _cards(state: SkipBoState) -> Counter[int]:
    cards: Counter[int] = Counter()
    for hand in state.hands:
        cards.update({card: count for card, count in enumerate(hand) if count})
    for pile in (*state.stocks, *state.building, *(p for d in state.discards for p in d)):
        cards.update(pile)
    cards.update(state.draw)
    cards.update(state.completed)
    return cards


def _hand(state: SkipBoState, seat: int) -> Counter[int]:
    return Counter({card: count for card, count in enumerate(state.hands[seat]) if count})


def test_each_seat_draws_its_own_queue_and_no_card_is_lost() -> None:
    draws_checked = reshuffled = 0
    for players, seed in ((2, 1), (3, 2), (2, 3)):
        state = _world(players, seed)
        everything = _cards(state)
        draws = SeatDraws(state, skipbo_drawer)
        rng = Rng(seed)
        hard = HardBot()
        while not state.is_over and len(state.history) < 3000:
            legal = state.legal_actions()
            action = legal[rng.below(len(legal))] if rng.below(3) == 0 else hard.choose(state, rng)
            seat = state.current
            drawer = (seat + 1) % state.n if action >= DISCARD_BASE else seat
            before = _hand(state, drawer)
            expected = list(draws.queues[drawer])
            # At most five cards are drawn: with five left, neither the pile nor the
            # queue runs out during this move.
            plenty = len(state.draw) >= 5 and len(expected) >= 5
            completed = len(state.completed)
            draws.advance(state, action)
            assert _cards(state) == everything
            reshuffled += len(state.completed) < completed  # only a reshuffle empties it
            if not plenty:
                continue
            after = _hand(state, drawer)
            if drawer == seat and action < STOCK_BASE:
                before.subtract({action // 4: 1})  # the hand card played
            drawn = +(after - before)
            count = sum(drawn.values())
            if count:
                # The drawer's new cards are the head of its queue.
                assert drawn == Counter(expected[:count])
                draws_checked += 1
    assert draws_checked > 50
    assert reshuffled  # the queues were cut again from a new pile, and nothing was lost


def test_a_seats_draws_do_not_depend_on_how_many_cards_the_others_drew() -> None:
    # The same re-deal, two first moves: one empties the hand (five cards drawn), one
    # does not. The opponent's refill at their turn is the same cards in both.
    world = _world(2, 4)
    seat = world.current
    # Give the seat 1, 2, 3, 4, 5 from the draw pile (its hand goes there instead).
    for card, count in enumerate(world.hands[seat]):
        world.draw += [card] * count
    for card in range(1, 6):
        world.draw.remove(card)
    world.hands[seat] = [0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0]
    assert world.building == [[], [], [], []]
    opponent = 1 - seat
    refills = []
    for plays in ((4, 8, 12, 16, 20), ()):  # play 1 to 5 from the hand onto pile 1, or not
        copy = world.clone()
        draws = SeatDraws(copy, skipbo_drawer)
        for play in plays:
            draws.advance(copy, play)
        discard = next(a for a in copy.legal_actions() if a >= DISCARD_BASE)
        opponent_before = _hand(copy, opponent)
        draws.advance(copy, discard)
        refills.append(_hand(copy, opponent) - opponent_before)
    assert sum(refills[0].values()) > 0
    assert refills[0] == refills[1]


def test_a_skyjo_player_who_takes_the_discard_leaves_the_next_draw_to_nobody_else() -> None:
    # Seat draws: whether the mover draws or takes the discard, the next player's
    # draw is the same card (with one shared pile it would be the mover's card).
    game = get_game("skyjo")
    state = game.new_state(game.rules_from_json({"players": 3}), 7)
    assert isinstance(state, SkyjoState)
    rng = Rng(1)
    while state.phase != TURN:
        legal = state.legal_actions()
        state.apply_action(legal[rng.below(len(legal))])
    world = state.determinize(state.player, Rng(2))
    hard = SkyjoHardBot()
    next_draws = []
    for first in (DRAW, TAKE_DISCARD):
        copy = world.clone()
        draws = SeatDraws(copy, skyjo_drawer)
        mover = copy.player
        draws.advance(copy, first)
        while copy.player == mover:  # finish the mover's turn as hard would
            draws.advance(copy, hard.choose(copy, rng))
        assert copy.phase == TURN
        draws.advance(copy, DRAW)
        next_draws.append(copy.hand)
    assert next_draws[0] == next_draws[1]
    # With one plain pile, the card the mover draws in one case is the next
    # player's draw in the other.
    plain = world.clone()
    plain.advance(TAKE_DISCARD)
    assert plain.draw[-1] == world.draw[-1]
