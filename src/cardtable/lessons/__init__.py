"""Guided lessons (issue 31): for each game, one step per rule of its rule sheet, each a
position built with the engine's snapshot API, the move it teaches, and the sheet's
sentence, in every language of the catalogs (``cardtable/i18n/lessons``).

Lessons are data (:mod:`.skipbo`, :mod:`.skyjo`); :mod:`.runner` plays a step against the
engine. The server serves them (``/api/lessons``), the web page draws them on the real
table's board. docs/lessons.md says how a lesson is written.
"""

from __future__ import annotations

from .runner import IllegalStepMoveError, LessonError, StepRun, accepted_actions, run_step, start
from .skipbo import LESSON as SKIPBO_LESSON
from .skyjo import LESSON as SKYJO_LESSON
from .steps import PROJECT_TRANSLATION, Expect, Lesson, Step, text_keys

LESSONS: dict[str, Lesson] = {"skipbo": SKIPBO_LESSON, "skyjo": SKYJO_LESSON}


def lesson_of(game: str) -> Lesson:
    """The lesson of ``game``; :class:`LessonError` for a game without one."""
    found = LESSONS.get(game)
    if found is None:
        raise LessonError("game", f"game is one of {', '.join(LESSONS)}")
    return found


__all__ = [
    "LESSONS",
    "PROJECT_TRANSLATION",
    "Expect",
    "IllegalStepMoveError",
    "Lesson",
    "LessonError",
    "Step",
    "StepRun",
    "accepted_actions",
    "lesson_of",
    "run_step",
    "start",
    "text_keys",
]
