"""The post-game review in the terminal client, for a local game (worked out in a
worker thread with the server's budget)."""

from __future__ import annotations

import asyncio

from textual.containers import VerticalScroll

from cardtable.core import Rng
from cardtable.i18n import LANGUAGES
from cardtable.server.ops.config import ServerConfig
from cardtable.sim.judge import review_game
from cardtable.tui.app import ReviewJob, ReviewScreen, TextScreen
from cardtable.tui.source import LocalGame

from .helpers import local_app, play_to_end, settle, state_of, wait_for


def test_a_local_game_to_the_end_then_its_review() -> None:
    async def body() -> None:
        # Our seat plays the random bot's moves, so some of them clearly cost something.
        app = local_app("skipbo", {"players": 2, "stock_size": 5}, seed=5)
        async with app.run_test(size=(80, 24)) as pilot:
            await play_to_end(pilot, app, bot_name="random")
            assert isinstance(app.screen, TextScreen) and app.screen.kind == "final"
            page = app.screen.body.plain
            assert "v: review my moves" in page and "rematch" not in page  # local: no rematch
            await pilot.press("v")
            assert isinstance(app.screen, ReviewScreen)
            job = app.review_job
            assert job is not None and job.worker is not None
            await wait_for(pilot, lambda: not job.running, "the review")
            assert job.error is None and job.result is not None
            await wait_for(pilot, lambda: "Your costliest moves" in app.screen.body.plain, "page")
            text = app.screen.body.plain

            # The same review as the precise judge's, with the server's decisions and seed.
            state = state_of(app)
            expected = review_game(
                state.game,
                state.rules,
                state.seed,
                state.history,
                0,
                max_decisions=ServerConfig.review_decisions,
                rng=Rng(state.seed * 17),
            )
            worst = expected.worst()
            assert worst, "a random player's game should have a costly move"
            assert job.result["worst"] == [move.number for move in worst]
            assert f"{expected.reviewed} of your {expected.decisions} decisions" in text
            first = worst[0]
            played = app.words.move(state.game.decode(first.action).to_json())
            better = app.words.move(state.game.decode(first.best_action).to_json())
            assert f"Move {first.number}: {played}" in text
            assert f"cost you about {100 * first.cost:.1f}% of your chance to win" in text
            why = app.words.reason([part.to_json() for part in first.reason_parts])
            assert f"Better: {better}" in text and f"Why: {why}" in text

            # Escape goes back to the final scores; v again shows the kept review at once.
            await pilot.press("escape")
            assert isinstance(app.screen, TextScreen) and app.screen.kind == "final"
            await pilot.press("v")
            assert isinstance(app.screen, ReviewScreen) and app.review_job is job
            await pilot.press("escape", "escape")
            assert not isinstance(app.screen, TextScreen)
            await pilot.press("v")  # from the table too (the key is the app's)
            assert isinstance(app.screen, ReviewScreen)

    asyncio.run(body())


def test_the_reviewing_state_and_a_refusal_are_shown() -> None:
    app = local_app("skyjo", {"players": 2}, seed=3, lang="fr")
    app.review_job = ReviewJob(done=3, total=24)
    assert "Analyse de vos coups… 3 sur 24" in app.review_page().plain
    app.review_job = ReviewJob(error="x")
    assert app.review_page().plain.endswith("x")
    draws = {"key": "advice.skyjo.draws", "params": {}}
    page = app.review_text(_one_move_review(reason_parts=[draws]))
    text = page.plain
    assert "Coup 7 : prendre la carte de la défausse" in text
    assert "Ce coup vous a coûté environ 2,3 points." in text
    assert "Mieux : piocher" in text
    assert "Pourquoi : pioche une carte inconnue" in text  # the advisor's reason, in French
    assert "draws" not in text

    # A server sending only the English reason (an older one): no English line in French.
    assert "Pourquoi" not in app.review_text(_one_move_review()).plain


def _one_move_review(**move_fields: object) -> dict[str, object]:
    """A Skyjo review message with one costly move: taking the discard instead of drawing."""
    move = {
        "number": 7,
        "cost": 2.3,
        "played_move": {"type": "take_discard"},
        "best_move": {"type": "draw"},
        "reason": "draws an unknown card",
        **move_fields,
    }
    return {
        "measure": "round_points",
        "reviewed": 1,
        "decisions": 2,
        "best_moves": 0,
        "worst": [7],
        "moves": [move],
    }


def test_no_review_before_the_end() -> None:
    async def body() -> None:
        app = local_app("skyjo", {"players": 2}, seed=3)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            await pilot.press("v")
            assert app.message == "Only once the game is over."
            assert app.review_job is None and not isinstance(app.screen, TextScreen)
            await pilot.press("m")
            assert app.message.startswith("A rematch is for online tables")
            assert isinstance(app.source, LocalGame)
            await pilot.press("question_mark")
            help_page = app.screen.body.plain  # type: ignore[attr-defined]
            assert "review my moves" in help_page and "rematch" not in help_page

    asyncio.run(body())


def test_the_review_page_fits_80x24_in_every_language() -> None:
    moves = [
        {
            "number": n,
            "cost": 0.05,
            "played_move": {"type": "discard", "card": 11, "discard": 3, "partner": False},
            "best_move": {"type": "play_stock", "pile": 2, "partner": False},
            "reason": "plays the stock (4 left after it) and keeps the discard piles in order",
        }
        for n in range(1, 6)
    ]
    review = {
        "measure": "win_chance",
        "reviewed": 24,
        "decisions": 95,
        "best_moves": 19,
        "worst": [1, 2, 3, 4, 5],
        "moves": moves,
    }

    async def one(lang: str) -> None:
        app = local_app("skipbo", {"players": 2, "stock_size": 5}, seed=1, lang=lang)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            app.review_job = ReviewJob(result=review)
            app.push_screen(ReviewScreen(app.review_page, app.words("review.back")))
            await wait_for(pilot, lambda: isinstance(app.screen, ReviewScreen), "the page")
            await pilot.pause()
            keys = app.screen.query_one("#review-keys")
            scroll = app.screen.query_one(VerticalScroll)
            assert keys.region.bottom <= 23 and keys.region.height == 1, lang
            assert scroll.region.bottom <= keys.region.y, lang
            assert scroll.max_scroll_y > 0, lang  # five moves: the page scrolls
            await pilot.press("end")
            await wait_for(pilot, lambda: scroll.scroll_y == scroll.max_scroll_y, "scroll")
            assert len(app.words("review.back")) <= 72, lang

    for lang in LANGUAGES:
        asyncio.run(one(lang))
