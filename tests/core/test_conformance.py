"""The conformance checker must catch each kind of broken engine.

Each test breaks one promise of the Skip-Bo engine (by patching one method) and
checks that the checker reports exactly that promise.
"""

from collections.abc import Callable
from typing import Any

import pytest

from cardtable.core import ConformanceError, check_game
from cardtable.skipbo import GAME, SkipBoRules, SkipBoState
from cardtable.skyjo import GAME as SKYJO
from cardtable.skyjo import SkyjoRules, SkyjoState

RULES = SkipBoRules(players=2, stock_size=5)


def run() -> None:
    check_game(GAME, RULES, range(2), deep_every=1, replay_every=5)


def test_the_real_engine_passes() -> None:
    report = check_game(GAME, RULES, range(2))
    assert report.games == 2


def patch(monkeypatch: pytest.MonkeyPatch, name: str, make: Callable[[Any], Any]) -> None:
    monkeypatch.setattr(SkipBoState, name, make(getattr(SkipBoState, name)))


def test_a_view_that_shows_the_draw_pile_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    def leaky(view: Any) -> Any:
        return lambda self, seat: {**view(self, seat), "next_card": self.draw[-1:]}

    patch(monkeypatch, "view", leaky)
    with pytest.raises(ConformanceError, match=r"view\(.*\) depends on cards"):
        run()


def test_a_view_that_shows_another_hand_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    def leaky(view: Any) -> Any:
        return lambda self, seat: {**view(self, seat), "hands": [h[:] for h in self.hands]}

    patch(monkeypatch, "view", leaky)
    with pytest.raises(ConformanceError, match="depends on cards"):
        run()


def test_views_that_show_a_hand_to_another_seat_are_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def leaky(views: Any) -> Any:
        def make(self: SkipBoState, seats: Any) -> Any:
            made = views(self, seats)
            return {seat: {**view, "hand": self.hands[0][:]} for seat, view in made.items()}

        return make

    patch(monkeypatch, "views", leaky)
    with pytest.raises(ConformanceError, match=r"views\(\) gives seat"):
        run()


def test_a_shallow_clone_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    def shallow(clone: Any) -> Any:
        def make(self: SkipBoState) -> SkipBoState:
            new = clone(self)
            new.hands = self.hands
            new.building = self.building
            new.history = self.history
            return new

        return make

    patch(monkeypatch, "clone", shallow)
    with pytest.raises(ConformanceError, match="clone changed the original"):
        run()


def test_a_mask_that_disagrees_with_the_legal_moves_is_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def lossy(legal_actions: Any) -> Any:
        return lambda self: legal_actions(self)[1:]

    patch(monkeypatch, "legal_actions", lossy)
    with pytest.raises(ConformanceError):
        run()


def test_a_lost_card_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    def losing(census: Any) -> Any:
        def count(self: SkipBoState) -> Any:
            counts = census(self)
            if self.history:
                counts[0] -= 1
            return counts

        return count

    patch(monkeypatch, "census", losing)
    with pytest.raises(ConformanceError, match="cards not conserved"):
        run()


def test_a_refused_move_that_changes_the_state_is_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def careless(explain: Any) -> Any:
        def reason(self: SkipBoState, move: Any) -> str:
            self.idle += 1
            return str(explain(self, move))

        return reason

    patch(monkeypatch, "explain_illegal", careless)
    with pytest.raises(ConformanceError, match="changed the state"):
        run()


def test_nondeterministic_play_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    import itertools

    counter = itertools.count()

    def drifting(deal: Any) -> Any:
        def make(self: SkipBoState, events: Any) -> None:
            self.rng.state ^= next(counter)
            deal(self, events)

        return make

    patch(monkeypatch, "_deal", drifting)
    with pytest.raises(ConformanceError, match=r"differ|reproducible|another state"):
        run()


def test_a_determinize_that_reads_hidden_cards_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    def peeking(determinize: Any) -> Any:
        def make(self: SkipBoState, seat: Any, rng: Any) -> SkipBoState:
            new = determinize(self, seat, rng)
            # Lets the real top of the draw pile through: a search bot would cheat.
            if self.draw and self.draw[-1] in new.draw:
                index = new.draw.index(self.draw[-1])
                new.draw[index], new.draw[-1] = new.draw[-1], new.draw[index]
            return new

        return make

    patch(monkeypatch, "determinize", peeking)
    with pytest.raises(ConformanceError, match=r"determinize\(.*\) depends on cards"):
        run()


# --- the fast move path (advance) -------------------------------------------------------


def test_a_fast_path_that_forgets_the_history_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    def forgetful(advance: Any) -> Any:
        def make(self: SkipBoState, action: int) -> None:
            advance(self, action)
            self.history.pop()

        return make

    patch(monkeypatch, "advance", forgetful)
    with pytest.raises(ConformanceError, match=r"advance\(.*\) reached another state"):
        run()


def test_a_fast_path_that_skips_an_unsnapshotted_count_is_caught(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``hand_sizes`` is not in the snapshot: only the field-by-field comparison sees it."""

    def careless(draw: Any) -> Any:
        def make(self: SkipBoState, seat: int, count: int, events: Any) -> None:
            before = self.hand_sizes[seat]
            draw(self, seat, count, events)
            if events is None and self.history:  # a move on the fast path, not the deal
                self.hand_sizes[seat] = before

        return make

    patch(monkeypatch, "_draw", careless)
    with pytest.raises(ConformanceError, match="fields differ: hand_sizes"):
        run()


def test_a_guard_around_a_state_change_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The mistake the ``events is None`` guards invite: a rule skipped with its event."""

    def guarded(check_column: Any) -> Any:
        def make(self: SkyjoState, seat: int, col: int, events: Any) -> None:
            if events is not None:
                check_column(self, seat, col, events)

        return make

    monkeypatch.setattr(SkyjoState, "_check_column", guarded(SkyjoState._check_column))
    with pytest.raises(ConformanceError, match=r"reached another state|left the one played"):
        check_game(SKYJO, SkyjoRules(players=2), range(20), deep_every=50, replay_every=500)
