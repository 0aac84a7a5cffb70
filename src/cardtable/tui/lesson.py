"""``cardtable learn GAME``: the guided lessons in the terminal, from the same lesson data
as the web page (:mod:`cardtable.lessons`, docs/lessons.md).

A :class:`LessonSource` is a game source over one lesson step: the table app draws its
view and sends its moves as for any game, and the source judges each by the engine and the
step's script (:func:`cardtable.lessons.run_step`). The app adds the step's panel (its
title, the sheet's sentence, what to do, the answer to the last move) and two keys: ``n``
for the next step, ``r`` to start the step again. Where the learner is, the step and the
moves made in it, is kept in ``lessons.json`` in the data folder, so the command resumes
there; after the last step, ``p`` starts a real game against the easy bot.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.widgets import Static

from ..core import JSON
from ..games import get_game
from ..i18n import FALLBACK, read_catalog
from ..lessons import (
    PROJECT_TRANSLATION,
    IllegalStepMoveError,
    Lesson,
    LessonError,
    StepRun,
    run_step,
    text_keys,
)
from .skipbo_app import SkipBoApp
from .skyjo_app import SkyjoApp
from .source import GameSource, MoveRefusedError, Notify, Update
from .table import TableApp, seat_names
from .words import Words

Save = Callable[[str, int, list[int]], None]


class LessonWords(Words):
    """The table's words, with the lessons' texts (``lesson.*``) in the same language."""

    def __init__(self, lang: str, game: str, names: Sequence[str]) -> None:
        super().__init__(lang, game, names)
        self.lessons = read_catalog(lang, f"lessons/{lang}.json")
        self.english = read_catalog(FALLBACK, f"lessons/{FALLBACK}.json")

    def __call__(self, key: str, **params: object) -> str:
        if key.startswith("lesson."):
            text = self.lessons.get(key, self.english.get(key, key))
            return text.format(**params) if params else text
        return super().__call__(key, **params)


class LessonSource(GameSource):
    """One step of a lesson at a time, judged by the engine and the step's script."""

    def __init__(
        self, lesson: Lesson, number: int = 0, moves: Sequence[int] = (), save: Save | None = None
    ) -> None:
        self.lesson = lesson
        self.game = get_game(lesson.game)
        self.save = save
        self._notify: Notify | None = None
        #: ("wrong" or "done", catalog key) of the answer to the last move, if any.
        self.feedback: tuple[str, str] | None = None
        self.number = 0
        self.moves: list[int] = []
        self.run_: StepRun = run_step(lesson, 0, [])
        self.seat = lesson.steps[0].learner
        try:
            self.go(number, list(moves))
        except (LessonError, IllegalStepMoveError):
            self.go(0)  # a kept place the lessons no longer have: start again

    @property
    def keys(self) -> dict[str, str]:
        return text_keys(self.lesson.game, self.lesson.steps[self.number])

    @property
    def last(self) -> bool:
        return self.number == len(self.lesson.steps) - 1

    def go(self, number: int, moves: list[int] | None = None) -> None:
        """Step ``number`` with ``moves`` made in it (none: from its start)."""
        made = moves or []
        self.run_ = run_step(self.lesson, number, made)
        self.number = number
        self.moves = made[: self.run_.made]
        self.seat = self.lesson.steps[number].learner
        self.feedback = ("done", self.keys["done"]) if self.run_.done else None
        self._kept()
        if self._notify is not None:
            self._notify(Update(self.view()))

    def _kept(self) -> None:
        if self.save is not None:
            self.save(self.lesson.game, self.number, self.moves)

    def view(self) -> JSON:
        return self.run_.state.view(self.seat)

    def seat_labels(self) -> list[str]:
        return [""] * self.run_.state.num_players

    async def run(self, notify: Notify) -> None:
        self._notify = notify
        notify(Update(self.view()))
        await asyncio.Event().wait()  # the lesson moves only when the learner does

    async def submit(self, move: Any) -> None:
        code = self.game.encode(move)
        try:
            run = run_step(self.lesson, self.number, [*self.moves, code])
        except IllegalStepMoveError as error:
            raise MoveRefusedError(error.reason, error.refusal, error.move) from error
        if run.refused is not None:
            self.feedback = ("wrong", self.keys["wrong"])
            return
        fresh = run.outcomes[len(self.run_.outcomes) :]
        self.run_ = run
        self.moves.append(code)
        self.feedback = ("done", self.keys["done"]) if run.done else None
        self._kept()
        if self._notify is not None:
            for outcome in fresh:
                self._notify(Update(self.view(), outcome.to_json()))


class LessonTable(TableApp):
    """The step's panel above the table, and the keys to move through the lesson."""

    CSS = (
        TableApp.CSS
        + """
    #lesson { height: auto; padding: 0 1; border-bottom: solid $primary-darken-2; }
    """
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "next_step", "lesson.ui.key_next"),
        Binding("r", "restart_step", "lesson.ui.key_again"),
        Binding("p", "play_real", "lesson.ui.key_play"),
    ]

    source: LessonSource

    def __init__(self, source: LessonSource, lang: str) -> None:
        # No round summaries: the step's panel says what the round's end did.
        super().__init__(source, lang, summaries=False)
        self.words = LessonWords(lang, source.game.name, seat_names(lang, source))
        #: Set when the learner, done with the lesson, asks for a real game (``p``).
        self.real_game = False

    def compose(self) -> ComposeResult:
        yield Static(id="lesson")
        yield from super().compose()

    def key_bar(self) -> Text:
        bar = super().key_bar()
        bar.append(" · " + self.words("lesson.ui.bar"))
        return bar

    def redraw(self) -> None:
        super().redraw()
        self.query_one("#lesson", Static).update(self.lesson_panel())

    def lesson_panel(self) -> Text:
        w, source = self.words, self.source
        keys = source.keys
        step = source.lesson.steps[source.number]
        total = len(source.lesson.steps)
        panel = Text(w(f"lesson.ui.lesson_{source.lesson.game}") + " · ", style="dim")
        panel.append(w("lesson.ui.step", n=source.number + 1, total=total) + "\n", style="dim")
        panel.append(w(keys["title"]) + "\n", style="bold")
        panel.append(f"“{w(keys['quote'])}”", style="italic")
        where = step.sources.get(self.lang, PROJECT_TRANSLATION)
        panel.append(
            "  "
            + (
                w("lesson.ui.translated")
                if where == PROJECT_TRANSLATION
                else w("lesson.ui.sheet", sheet=where)
            )
            + "\n",
            style="dim",
        )
        panel.append(w(keys["do"]) + "\n", style="bold")
        if source.feedback is not None:
            kind, key = source.feedback
            lead = w("lesson.ui.well_done" if kind == "done" else "lesson.ui.try_again")
            panel.append(f"{lead} {w(key)}\n", style="green" if kind == "done" else "yellow")
        if source.run_.done:
            nxt = "lesson.ui.tui_finished" if source.last else "lesson.ui.tui_next"
            panel.append(w(nxt), style="bold")
        return panel

    async def play(self, move: Any) -> bool:
        if self.source.run_.done:
            self.say(self.words("lesson.ui.tui_next"))
            return False
        played = await super().play(move)
        self.redraw()  # the panel answers the move, taught or not
        return played

    def action_next_step(self) -> None:
        source = self.source
        if not source.run_.done:
            self.say(self.words(source.keys["do"]))
        elif not source.last:
            source.go(source.number + 1)
            self.message = ""
            self.after_move(source.view())
            self.redraw()

    def action_restart_step(self) -> None:
        self.source.go(self.source.number)
        self.message = ""
        self.after_move(self.source.view())
        self.redraw()

    def action_play_real(self) -> None:
        if self.source.last and self.source.run_.done:
            self.real_game = True
            self.exit()
        else:
            self.say(self.words("lesson.ui.tui_play_later"))


class SkipBoLessonApp(LessonTable, SkipBoApp):
    """The Skip-Bo lesson: the Skip-Bo table's keys and board, with the step's panel."""


class SkyjoLessonApp(LessonTable, SkyjoApp):
    """The Skyjo lesson: the Skyjo table's keys and board, with the step's panel."""


def lesson_app(source: LessonSource, lang: str) -> LessonTable:
    if source.game.name == "skyjo":
        return SkyjoLessonApp(source, lang)
    return SkipBoLessonApp(source, lang)


class ProgressFile:
    """Where the learner is in each lesson: ``{game: {"step": n, "moves": [...]}}``."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def read(self) -> dict[str, Any]:
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def place(self, game: str) -> tuple[int, list[int]]:
        entry = self.read().get(game)
        if not isinstance(entry, dict):
            return 0, []
        step, moves = entry.get("step"), entry.get("moves")
        if not isinstance(step, int) or not isinstance(moves, list):
            return 0, []
        return step, [m for m in moves if isinstance(m, int) and not isinstance(m, bool)]

    def save(self, game: str, step: int, moves: list[int]) -> None:
        data = self.read()
        data[game] = {"step": step, "moves": moves}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.write_text(json.dumps(data), encoding="utf-8")
