"""``cardtable learn GAME``: the command-line side of the terminal lessons
(:mod:`cardtable.tui.lesson`, loaded only when the command runs: Textual is an extra)."""

from __future__ import annotations

import argparse
import secrets
from typing import Any

from ..i18n import LANGUAGES, default_language
from ..lessons import LESSONS, lesson_of
from ..settings import default_data_dir

#: The easy level's bot (:mod:`cardtable.bots.levels`), for the first real game.
EASY_BOT = "naive"


def add_learn_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``learn`` command to the ``cardtable`` sub-command parsers."""
    learn: argparse.ArgumentParser = subparsers.add_parser(
        "learn",
        help="a guided lesson of GAME's rules in the terminal, one step per rule",
        description="A short guided lesson of GAME: one step per rule of its rule sheet, "
        "each a position to play on the table, in your language. It resumes where you "
        "left it (kept in lessons.json in the data folder); --restart starts it again. "
        "After the last step, p starts a real game against the easy bot.",
    )
    learn.add_argument("game", metavar="GAME", choices=sorted(LESSONS), help="skipbo, skyjo")
    learn.add_argument(
        "--lang", choices=LANGUAGES, help="language (default: from CARDTABLE_LANG or LANG)"
    )
    learn.add_argument("--restart", action="store_true", help="start the lesson again")
    return learn


def run_learn(args: argparse.Namespace) -> int:
    """``cardtable learn``: the lesson, then a real game if the learner asks for one."""
    from ..games import get_game
    from .app import make_app
    from .lesson import LessonSource, ProgressFile, lesson_app
    from .source import LocalGame

    lang = args.lang or default_language()
    lesson = lesson_of(args.game)
    store = ProgressFile(default_data_dir() / "lessons.json")
    step, moves = (0, []) if args.restart else store.place(args.game)
    source = LessonSource(lesson, step, moves, save=store.save)
    app = lesson_app(source, lang)
    app.run()
    if app.real_game:
        game = get_game(args.game)
        rules = game.rules_from_json({"players": 2})
        # The first real game, with the practice coach, as on the web page.
        real = LocalGame(game, rules, secrets.randbelow(2**31), [EASY_BOT], coach=True)
        make_app(real, lang).run()
    return 0
