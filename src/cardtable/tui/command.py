"""``cardtable play``: the command-line side of the terminal client."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..i18n import LANGUAGES, default_language

USAGE_ERROR = 2


def add_play_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``play`` command to the ``cardtable`` sub-command parsers."""
    play: argparse.ArgumentParser = subparsers.add_parser(
        "play", help="play a game against bots in the terminal"
    )
    play.add_argument("game", metavar="GAME", choices=("skipbo", "skyjo"), help="skipbo, skyjo")
    play.add_argument("--players", type=int, help="number of seats (you are seat 1)")
    play.add_argument(
        "--bots",
        default="medium",
        help="comma-separated bot levels (easy, medium, hard, expert) or bot names, "
        "dealt round the other seats (medium)",
    )
    play.add_argument("--stock", type=int, help="Skip-Bo stock pile size")
    play.add_argument("--teams", action="store_true", help="Skip-Bo team play")
    play.add_argument("--rounds", action="store_true", help="Skip-Bo multi-round scoring")
    play.add_argument(
        "--lang", choices=LANGUAGES, help="language (default: from CARDTABLE_LANG or LANG)"
    )
    play.add_argument("--seed", type=int, help="seed of the deal (default: random)")
    play.add_argument(
        "--pause",
        type=float,
        default=0.8,
        help="seconds between two bot moves, so you can follow them (0.8)",
    )
    return play


class PlayError(Exception):
    """A mistake in the ``play`` command line."""


def build_local(args: argparse.Namespace) -> Any:
    """The :class:`LocalGame` described by ``args`` (raises :class:`PlayError`)."""
    import random

    from ..core import OptionError
    from ..games import get_game
    from .source import LocalGame, resolve_bot

    game = get_game(args.game)
    options: dict[str, object] = {}
    if args.players is not None:
        options["players"] = args.players
    skipbo_only = {"stock": "stock_size", "teams": "teams", "rounds": "rounds"}
    for flag, field in skipbo_only.items():
        value = getattr(args, flag)
        if value is None or value is False:
            continue
        if game.name != "skipbo":
            raise PlayError(f"--{flag} applies to Skip-Bo only")
        options[field] = value
    try:
        rules = game.rules_from_json(options)
    except OptionError as error:
        raise PlayError(str(error)) from error
    players: int = getattr(rules, "players", 2)
    tokens = [token.strip() for token in args.bots.split(",")]
    if not all(tokens):
        raise PlayError(f"--bots needs comma-separated levels or names, got {args.bots!r}")
    try:
        names = [resolve_bot(game.name, token) for token in tokens]
    except KeyError as error:
        raise PlayError(str(error.args[0])) from error
    bots = [names[index % len(names)] for index in range(players - 1)]
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    if args.pause < 0:
        raise PlayError("--pause must be 0 or more")
    return LocalGame(game, rules, seed, bots, pause=args.pause)


def run_play(args: argparse.Namespace) -> int:
    """Run the app; return the exit status."""
    try:
        from .app import make_app
    except ModuleNotFoundError as error:
        print(
            f"cardtable play: error: the terminal client needs the 'tui' extra ({error.name} "
            "is missing): pip install 'cardtable[tui]'",
            file=sys.stderr,
        )
        return USAGE_ERROR
    try:
        source = build_local(args)
    except PlayError as error:
        print(f"cardtable play: error: {error}", file=sys.stderr)
        return USAGE_ERROR
    lang = args.lang or default_language()
    make_app(source, lang).run()
    return 0
