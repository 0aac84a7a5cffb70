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
        "play",
        help="play a game against bots in the terminal, or at a room of a table server",
        description="Play GAME against bots here, or take a seat at an online room with "
        "--join URL (the room's link, or HOST:PORT/CODE).",
    )
    play.add_argument(
        "game", metavar="GAME", nargs="?", choices=("skipbo", "skyjo"), help="skipbo, skyjo"
    )
    play.add_argument("--players", type=int, help="number of seats (you are seat 1)")
    play.add_argument(
        "--bots",
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
        help="seconds between two bot moves, so you can follow them (0.8)",
    )
    online = play.add_argument_group("online table")
    online.add_argument(
        "--join",
        metavar="URL",
        help="take a seat at a room of a running server: its link "
        "(http://HOST:PORT/r/CODE) or HOST:PORT/CODE; instead of GAME and its options",
    )
    online.add_argument("--name", help="display name for a new seat (with --join)")
    online.add_argument(
        "--token",
        help="seat token to resume a seat (with --join; by default the token stored "
        "when this machine joined the room)",
    )
    online.add_argument(
        "--host-token",
        help="the room's host token (with --join), to start a rematch from the final "
        "scores; kept with the seat for the next time",
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
    bots_text = "medium" if args.bots is None else args.bots
    tokens = [token.strip() for token in bots_text.split(",")]
    if not all(tokens):
        raise PlayError(f"--bots needs comma-separated levels or names, got {bots_text!r}")
    try:
        names = [resolve_bot(game.name, token) for token in tokens]
    except KeyError as error:
        raise PlayError(str(error.args[0])) from error
    bots = [names[index % len(names)] for index in range(players - 1)]
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    pause = 0.8 if args.pause is None else args.pause
    if pause < 0:
        raise PlayError("--pause must be 0 or more")
    return LocalGame(game, rules, seed, bots, pause=pause)


LOCAL_ONLY = ("players", "bots", "stock", "teams", "rounds", "seed", "pause")


def check_mode(args: argparse.Namespace) -> None:
    """``--join`` replaces GAME and the local-game options; they need each other otherwise."""
    if args.join is None:
        if args.game is None:
            raise PlayError("give a GAME (skipbo or skyjo), or --join URL")
        for flag in ("name", "token", "host_token"):
            if getattr(args, flag) is not None:
                raise PlayError(f"--{flag.replace('_', '-')} goes with --join")
        return
    if args.game is not None:
        raise PlayError("--join takes the game from the room; leave out GAME")
    for flag in LOCAL_ONLY:
        value = getattr(args, flag)
        if value is not None and value is not False:
            raise PlayError(f"--{flag} applies to a local game, not with --join")
    if args.name is not None and args.token is not None:
        raise PlayError("give --name for a new seat or --token to resume one, not both")


async def play_online(args: argparse.Namespace, lang: str) -> None:
    """Join the room, wait for its game to start, then run the app on the same event loop."""
    from .app import make_app
    from .remote import RemoteGame

    source = await RemoteGame.join(
        args.join, name=args.name, token=args.token, host_token=args.host_token
    )
    if source.room.get("status") == "lobby":
        print(f"cardtable play: room {source.code}: waiting for the host to start the game…")
    try:
        await source.start()
        await make_app(source, lang).run_async()
    finally:
        await source.close()


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
        check_mode(args)
        source = None if args.join is not None else build_local(args)
    except PlayError as error:
        print(f"cardtable play: error: {error}", file=sys.stderr)
        return USAGE_ERROR
    lang = args.lang or default_language()
    if source is None:
        import asyncio

        from .remote import RemoteError

        try:
            asyncio.run(play_online(args, lang))
        except RemoteError as error:
            print(f"cardtable play: error: {error}", file=sys.stderr)
            return 1
        except KeyboardInterrupt:
            return 130
        return 0
    make_app(source, lang).run()
    return 0
