"""``cardtable learn``: the lessons in the terminal, from the web's lesson data: a step
played by keys (a wrong move answered with the step's explanation, the taught one
accepted), the next step, a lesson resumed from the progress file, a whole lesson ending
in the offer of a real game, and the command's refusal of an unknown game."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Awaitable, Callable

from cardtable.cli import main
from cardtable.games import get_game
from cardtable.lessons import accepted_actions, lesson_of, run_step
from cardtable.tui.lesson import LessonSource, ProgressFile, lesson_app
from cardtable.web.catalogs import lesson_catalog


def run(test: Callable[..., Awaitable[None]]) -> Callable[..., None]:
    """A plain test function running the coroutine ``test`` with its fixtures."""

    @functools.wraps(test)
    def wrapper(*args: object, **fixtures: object) -> None:
        asyncio.run(test(*args, **fixtures))  # type: ignore[arg-type]

    return wrapper


def panel(app: object) -> str:
    return app.query_one("#lesson").render().plain  # type: ignore[attr-defined, no-any-return]


@run
async def test_a_step_by_keys_then_the_next(tmp_path) -> None:
    store = ProgressFile(tmp_path / "lessons.json")
    source = LessonSource(lesson_of("skyjo"), 1, save=store.save)  # "take": the -2
    app = lesson_app(source, "fr")
    words = lesson_catalog("fr")
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        assert words["lesson.skyjo.take.quote"] in panel(app)
        assert "Fiche de règles 004" in panel(app)
        await pilot.press("d")  # drawing is legal, but not what this step teaches
        await pilot.pause()
        assert words["lesson.skyjo.take.wrong"] in panel(app)
        assert source.view()["hand"] is None and source.moves == []
        await pilot.press("t", "enter")  # take the -2, put it where the 10 is (row 1, col 1)
        await pilot.pause()
        assert source.run_.done and words["lesson.skyjo.take.done"] in panel(app)
        assert source.view()["grids"][0][0] == -2
        assert store.place("skyjo") == (1, [1, 2])
        await pilot.press("n")
        await pilot.pause()
        assert source.number == 2 and words["lesson.skyjo.exchange.title"] in panel(app)
        assert store.place("skyjo") == (2, [])


def test_a_lesson_resumes_where_it_was_left(tmp_path) -> None:
    store = ProgressFile(tmp_path / "lessons.json")
    LessonSource(lesson_of("skipbo"), 1, [8], save=store.save)  # "build": the 2 played
    again = LessonSource(lesson_of("skipbo"), *store.place("skipbo"))
    assert (again.number, again.moves) == (1, [8])
    assert again.view()["building"][0] == [1, 2]
    # A place the lesson does not have (an old file) starts the lesson again.
    assert LessonSource(lesson_of("skipbo"), 40, [1]).number == 0
    store.path.write_text("not json", encoding="utf-8")
    assert store.place("skipbo") == (0, [])


@run
async def test_a_whole_lesson_ends_in_the_offer_of_a_real_game(tmp_path) -> None:
    lesson = lesson_of("skipbo")
    source = LessonSource(lesson)
    app = lesson_app(source, "en")
    engine = get_game("skipbo")
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.pause()
        for number, step in enumerate(lesson.steps):
            assert source.number == number
            for expect in (e for e in step.script if not e.auto):
                state = run_step(lesson, number, source.moves).state
                assert await app.play(engine.decode(accepted_actions(state, expect)[0]))
            await pilot.pause()
            assert source.run_.done
            await pilot.press("p" if number == len(lesson.steps) - 1 else "n")
            await pilot.pause()
    assert app.real_game  # the command then starts a game against the easy bot


def test_the_command_refuses_an_unknown_game(capsys) -> None:
    assert main(["learn", "chess"]) == 2
    assert "invalid choice" in capsys.readouterr().err
