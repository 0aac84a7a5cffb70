"""Every lesson step over the engine: its position is a position of the game, the move it
teaches is legal there, any other legal move is refused with the step's explanation and
changes nothing, and every text of every step exists in the four languages."""

from __future__ import annotations

import re
from typing import Any

import pytest

from cardtable.core import IllegalMoveError
from cardtable.games import get_game
from cardtable.i18n import LANGUAGES, placeholders
from cardtable.lessons import (
    LESSONS,
    PROJECT_TRANSLATION,
    LessonError,
    Step,
    accepted_actions,
    lesson_of,
    run_step,
    start,
    text_keys,
)
from cardtable.web.catalogs import browser_catalog, lesson_catalog

STEPS = [
    pytest.param(game, number, step, id=f"{game}-{step.name}")
    for game, lesson in LESSONS.items()
    for number, step in enumerate(lesson.steps)
]

#: The rules of each sheet a lesson teaches (issue 31), by step name.
TAUGHT = {
    "skipbo": ["stock", "build", "wild", "discard", "refill", "complete", "team", "rounds"],
    "skyjo": ["setup", "take", "exchange", "discard", "column", "close", "doubling", "end"],
}


def test_each_lesson_teaches_each_rule_of_its_sheet_in_order():
    assert {game: [step.name for step in lesson.steps] for game, lesson in LESSONS.items()} == (
        TAUGHT
    )


@pytest.mark.parametrize(("game", "number", "step"), STEPS)
def test_the_position_is_a_position_of_the_game(game: str, number: int, step: Step):
    engine = get_game(game)
    state = engine.state_from_json(step.snapshot)  # the engine's reader refuses bad ones
    assert state.census() == engine.deck(state.rules)
    assert not state.is_over
    # Read back and written again, the snapshot is the engine's own.
    assert engine.state_from_json(state.to_json()) == state
    begun, _, _ = start(lesson_of(game), step)
    assert begun.current_player == step.learner


def _learner_path(game: str, number: int, step: Step) -> list[tuple[list[int], list[int]]]:
    """Each point where the learner moves: the moves made before it, and the accepted
    codes there (the script's next learner move)."""
    lesson = lesson_of(game)
    made: list[int] = []
    points = []
    while True:
        run = run_step(lesson, number, made)
        if run.done:
            return points
        expect = [e for e in step.script if not e.auto]
        accepted = accepted_actions(run.state, expect[len(made)])
        points.append((made[:], accepted))
        made.append(accepted[0])


@pytest.mark.parametrize(("game", "number", "step"), STEPS)
def test_the_taught_moves_are_legal_and_finish_the_step(game: str, number: int, step: Step):
    lesson = lesson_of(game)
    path = _learner_path(game, number, step)
    assert len(path) == step.learner_moves() >= 1
    for made, accepted in path:
        state = run_step(lesson, number, made).state
        assert accepted, f"nothing legal matches move {len(made)} of the script"
        assert set(accepted) <= set(state.legal_actions())
        assert state.current_player == step.learner
        for code in accepted:  # each accepted move is accepted, not only the first
            after = run_step(lesson, number, [*made, code])
            assert after.refused is None and after.made == len(made) + 1
    final = run_step(lesson, number, _taught(path))
    assert final.done and final.refused is None
    assert final.state.history[-len(final.outcomes) :] == [o.action for o in final.outcomes]


def _taught(path: list[tuple[list[int], list[int]]]) -> list[int]:
    made, accepted = path[-1]
    return [*made, accepted[0]]


def _wrong_moves(game: str, number: int, step: Step) -> list[tuple[list[int], int]]:
    lesson = lesson_of(game)
    wrong = []
    for made, accepted in _learner_path(game, number, step):
        state = run_step(lesson, number, made).state
        wrong += [(made, code) for code in state.legal_actions() if code not in accepted]
    return wrong


@pytest.mark.parametrize(("game", "number", "step"), STEPS)
def test_any_other_legal_move_is_refused_and_changes_nothing(game: str, number: int, step: Step):
    lesson = lesson_of(game)
    wrong = _wrong_moves(game, number, step)
    if step.free_choice:
        assert wrong == []  # the sheet leaves the choice: every legal move is right
        assert "wrong" not in text_keys(game, step)
        return
    assert wrong, "a step teaches a choice: some legal move must be wrong"
    assert "wrong" in text_keys(game, step)
    for made, code in wrong:
        before = run_step(lesson, number, made)
        refused = run_step(lesson, number, [*made, code])
        assert refused.refused == code and not refused.done
        assert refused.made == len(made)
        assert refused.state.to_json() == before.state.to_json()


@pytest.mark.parametrize(("game", "number", "step"), STEPS)
def test_an_illegal_move_gets_the_engine_s_refusal(game: str, number: int, step: Step):
    lesson = lesson_of(game)
    state = run_step(lesson, number, []).state
    illegal = next(c for c in range(state.game.num_actions) if not state.is_legal_action(c))
    with pytest.raises(IllegalMoveError) as caught:
        run_step(lesson, number, [illegal])
    assert caught.value.refusal is not None and caught.value.refusal.key.startswith("refusal.")


def test_bad_requests_name_what_was_wrong():
    lesson = lesson_of("skyjo")
    with pytest.raises(LessonError) as unknown:
        lesson_of("chess")
    assert unknown.value.field == "game" and "skipbo, skyjo" in unknown.value.reason
    with pytest.raises(LessonError) as past:
        run_step(lesson, len(lesson.steps), [])
    assert past.value.field == "step" and f"0 to {len(lesson.steps) - 1}" in past.value.reason
    with pytest.raises(LessonError) as too_many:
        run_step(lesson, 1, [1, 2, 3])
    assert too_many.value.field == "moves"
    for bad in (-1, 38, True, "1"):
        with pytest.raises(LessonError) as code:
            run_step(lesson, 1, [bad])  # type: ignore[list-item]
        assert code.value.field == "moves"


@pytest.mark.parametrize(("game", "number", "step"), STEPS)
def test_the_learner_sees_only_what_their_seat_may_see(game: str, number: int, step: Step):
    run = run_step(lesson_of(game), number, [])
    view: dict[str, Any] = run.state.view(step.learner)
    text = repr(view)
    assert "draw" not in view or not isinstance(view["draw"], list)
    if game == "skipbo":
        assert "hands" not in view and "stocks" not in view
        assert all(set(p) >= {"stock_top", "stock_size"} for p in view["players"])
    else:
        hidden = [
            cell
            for grid, status in zip(view["grids"], view["status"], strict=True)
            for cell, seen in zip(grid, status, strict=True)
            if seen != "up"
        ]
        assert hidden == [None] * len(hidden)
    assert "rng" not in text and "seed" not in view


def test_every_text_exists_in_every_language():
    english = lesson_catalog("en")
    used = {"lesson.ui.nav"}
    for game, lesson in LESSONS.items():
        for step in lesson.steps:
            keys = text_keys(game, step).values()
            used |= set(keys)
            for lang in LANGUAGES:
                assert all(lesson_catalog(lang).get(key, "").strip() for key in keys), (lang, step)
                assert lang in step.sources
                source = step.sources[lang]
                assert source == PROJECT_TRANSLATION or source.isdigit()
    for lang in LANGUAGES:
        words = lesson_catalog(lang)
        assert set(words) == set(english), lang
        assert all(key.startswith("lesson.") for key in words)
        for key, text in english.items():
            assert placeholders(words[key]) == placeholders(text), (lang, key)
        assert set(words.items()) <= set(browser_catalog(lang).items())
    # No step text is left over from a step that is gone.
    step_keys = {key for key in english if not key.startswith("lesson.ui.")}
    assert step_keys <= used


def test_a_quote_differs_by_language_and_is_the_sheet_s_own():
    # Each language quotes its own sheet: the same sentence in English in two catalogs
    # would be a missing translation.
    for game, lesson in LESSONS.items():
        for step in lesson.steps:
            key = f"lesson.{game}.{step.name}.quote"
            quotes = {lesson_catalog(lang)[key] for lang in LANGUAGES}
            assert len(quotes) == len(LANGUAGES), key


def test_every_lesson_key_the_page_uses_exists():
    from pathlib import Path

    import cardtable

    scripts = Path(cardtable.__file__).parent / "web" / "static" / "js"
    text = "\n".join(path.read_text(encoding="utf-8") for path in scripts.glob("*.js"))
    used = set(re.findall(r'"(lesson\.[a-z0-9_.]*[a-z0-9_])"', text))
    assert {"lesson.ui.nav", "lesson.ui.play_real", "lesson.ui.step"} <= used
    english = lesson_catalog("en")
    assert sorted(used - set(english)) == []
    # The lessons' names are looked up by game: each game has one.
    assert "`lesson.ui.lesson_${game}`" in text
    assert all(f"lesson.ui.lesson_{game}" in english for game in LESSONS)


def _finished(game: str, name: str) -> dict[str, Any]:
    lesson = lesson_of(game)
    number = next(i for i, step in enumerate(lesson.steps) if step.name == name)
    step = lesson.steps[number]
    path = _learner_path(game, number, step)
    run = run_step(lesson, number, _taught(path))
    assert run.done
    view: dict[str, Any] = run.state.view(step.learner)
    return view


def test_the_numbers_the_texts_give_are_the_engine_s():
    # The "done" texts name what the engine did: they must stay true to the positions.
    english = lesson_catalog("en")
    rounds = _finished("skipbo", "rounds")["rounds"]
    assert rounds[0]["points"] == [50, 0] and "50 points" in english["lesson.skipbo.rounds.done"]
    column = _finished("skyjo", "column")
    assert column["status"][0][1::4] == ["removed"] * 3  # the second column left the grid
    close = _finished("skyjo", "close")["rounds"][0]
    assert close["points"] == [6, 50] and not close["doubled"]
    doubling = _finished("skyjo", "doubling")["rounds"][0]
    assert doubling["points"][0] == 74 and doubling["doubled"]
    assert "37" in english["lesson.skyjo.doubling.done"]
    end = _finished("skyjo", "end")
    assert end["result"]["winners"] == [0] and end["totals"][1] >= 100
