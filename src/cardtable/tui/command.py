"""``cardtable play``: the command-line side of the terminal client."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..core import JSON
from ..i18n import LANGUAGES, default_language
from ..statuses import SeatKind

USAGE_ERROR = 2
GAMES = ("skipbo", "skyjo")
TITLES = {"skipbo": "Skip-Bo", "skyjo": "Skyjo"}
#: Older, shorter flags kept working beside the ones named after the rules fields.
ALIASES: dict[str, tuple[str, ...]] = {"stock_size": ("--stock",)}


class GameHelp(argparse.Action):
    """``--help``: the usual help, then the rules options of GAME (given before ``--help``)
    or of every game: flag, allowed values, default and meaning, read off the rules."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, **kwargs)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: Any,
        option_string: str | None = None,
    ) -> None:
        from .options import options_table

        parser.print_help()
        game = getattr(namespace, "game", None)
        for name in [game] if game else GAMES:
            print()
            print(options_table(name))
        print(
            "\nYes/no options also take --no-NAME; --option NAME=VALUE takes true/false, "
            "a number or auto."
        )
        parser.exit()


def add_play_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add the ``play`` command to the ``cardtable`` sub-command parsers."""
    from .options import all_option_names, flag_help, option_specs

    play: argparse.ArgumentParser = subparsers.add_parser(
        "play",
        help="play a game against bots in the terminal, or at a room of a table server",
        description="Play GAME against bots here, host a room on a table server for "
        "friends with --host HOST:PORT, or take a seat at an online room with "
        "--join URL (the room's link, or HOST:PORT/CODE). `cardtable play GAME --help` "
        "lists the game's rules options.",
        add_help=False,
    )
    play.add_argument("-h", "--help", action=GameHelp, help="show this help and GAME's options")
    play.add_argument("game", metavar="GAME", nargs="?", choices=GAMES, help=", ".join(GAMES))
    play.add_argument(
        "--bots",
        help="comma-separated bot levels (easy, medium, hard, expert, learned) or bot names: "
        "dealt round the other seats (medium); with --host, one seat each, from the last, "
        "the other seats waiting for friends",
    )
    play.add_argument(
        "--lang", choices=LANGUAGES, help="language (default: from CARDTABLE_LANG or LANG)"
    )
    play.add_argument("--seed", type=int, help="seed of the deal (default: random)")
    play.add_argument(
        "--pause",
        type=float,
        help="seconds between two bot moves, so you can follow them (0.8)",
    )
    rules = play.add_argument_group(
        "rules options",
        "every option of the game's rules (see the lists below): as a flag, or "
        "--option NAME=VALUE; they also go with --host",
    )
    rules.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="any rules option; VALUE: true/false, a number, or auto",
    )
    by_name = {game: {spec.name: spec for spec in option_specs(game)} for game in GAMES}
    for name in all_option_names():
        specs = [by_name[game][name] for game in GAMES if name in by_name[game]]
        text = "; ".join(f"{TITLES[spec.game]}: {flag_help(spec)}" for spec in specs)
        flags = [specs[0].flag, *ALIASES.get(name, ())]
        if all(spec.kind == "bool" for spec in specs):
            rules.add_argument(
                *flags,
                dest=f"rule_{name}",
                action=argparse.BooleanOptionalAction,
                help=text,
            )
        else:
            metavar = "N|auto" if any(spec.optional for spec in specs) else "N"
            rules.add_argument(*flags, dest=f"rule_{name}", metavar=metavar, help=text)
    online = play.add_argument_group("online table")
    online.add_argument(
        "--host",
        metavar="SERVER",
        help="create a room for GAME on a running table server (HOST:PORT or its URL), "
        "take its first seat and host it: share the printed link, start the game with s",
    )
    online.add_argument(
        "--join",
        metavar="URL",
        help="take a seat at a room of a running server: its link "
        "(http://HOST:PORT/r/CODE) or HOST:PORT/CODE; instead of GAME and its options",
    )
    online.add_argument(
        "--name", help="display name for a new seat (with --join or --host; default: your login)"
    )
    online.add_argument(
        "--user",
        metavar="NAME",
        help="sign in to your account at the table (with --join or --host; the password "
        "is asked, never shown nor stored): the seat joins your history, the game may be "
        "rated, and your rating is shown",
    )
    online.add_argument(
        "--coach",
        action="store_true",
        default=None,
        help="the practice coach says when a move of yours was clearly worse and offers "
        "to take it back (u) or keep it (k); with --host every other seat must be a bot, "
        "and the game is unrated",
    )
    online.add_argument(
        "--token",
        help="seat token to resume a seat (with --join; by default the token stored "
        "when this machine joined the room)",
    )
    online.add_argument(
        "--host-token",
        help="the room's host token (with --join), to start the game or a rematch; "
        "kept with the seat for the next time",
    )
    return play


class PlayError(Exception):
    """A mistake in the ``play`` command line."""


def rules_options(args: argparse.Namespace, game_name: str) -> dict[str, object]:
    """The rules options given by flags and ``--option NAME=VALUE`` (raises :class:`PlayError`
    for an option of another game, a pair without ``=`` or an option given twice)."""
    from .options import all_option_names, option_specs, parse_value, spec_of

    title = TITLES[game_name]
    own = [spec.name for spec in option_specs(game_name)]
    options: dict[str, object] = {}
    for name in all_option_names():
        value = getattr(args, f"rule_{name}", None)
        if value is None:
            continue
        spec = spec_of(game_name, name)
        if spec is None:
            others = [TITLES[g] for g in GAMES if spec_of(g, name) is not None]
            raise PlayError(
                f"--{name.replace('_', '-')} applies to {' and '.join(others)} only; "
                f"{title}'s options: {', '.join(own)} (see cardtable play {game_name} --help)"
            )
        options[name] = value if isinstance(value, bool) else parse_value(spec, str(value))
    for pair in args.option:
        name, equals, text = pair.partition("=")
        name = name.strip().replace("-", "_")
        if not equals or not name:
            raise PlayError(f"--option needs NAME=VALUE, got {pair!r}")
        if name in options:
            raise PlayError(f"option {name!r} given twice")
        options[name] = parse_value(spec_of(game_name, name), text)
    return options


def build_rules(args: argparse.Namespace, game_name: str) -> Any:
    """The game and its rules from the command line; a refused option names itself."""
    from ..core import OptionError
    from ..games import get_game

    game = get_game(game_name)
    options = rules_options(args, game_name)
    try:
        return game, game.rules_from_json(options)
    except OptionError as error:
        raise PlayError(f"{error} (see cardtable play {game_name} --help)") from error
    except TypeError as error:
        raise PlayError(str(error)) from error


def bot_list(game_name: str, text: str | None, default: str | None) -> list[str]:
    """The bot names of ``--bots`` (levels resolved); [] when none is given nor defaulted."""
    from ..bots.levels import resolve_bot

    bots_text = default if text is None else text
    if bots_text is None:
        return []
    tokens = [token.strip() for token in bots_text.split(",")]
    if not all(tokens):
        raise PlayError(f"--bots needs comma-separated levels or names, got {bots_text!r}")
    try:
        return [resolve_bot(game_name, token) for token in tokens]
    except KeyError as error:
        raise PlayError(str(error.args[0])) from error


def build_local(args: argparse.Namespace) -> Any:
    """The :class:`LocalGame` described by ``args`` (raises :class:`PlayError`)."""
    import random

    from .source import LocalGame

    game, rules = build_rules(args, args.game)
    players: int = getattr(rules, "players", 2)
    names = bot_list(game.name, args.bots, "medium")
    bots = [names[index % len(names)] for index in range(players - 1)]
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    pause = 0.8 if args.pause is None else args.pause
    if pause < 0:
        raise PlayError("--pause must be 0 or more")
    return LocalGame(game, rules, seed, bots, pause=pause, coach=bool(args.coach))


def host_request(args: argparse.Namespace) -> tuple[str, JSON, list[JSON]]:
    """What ``--host`` asks the server for: the game, its options (checked here first, so
    a bad option creates no room) and the seats: ours first, bots from the last seat."""
    game, rules = build_rules(args, args.game)
    players: int = getattr(rules, "players", 2)
    bots = bot_list(game.name, args.bots, None)
    if len(bots) > players - 1:
        raise PlayError(f"{players} seats leave room for {players - 1} bots, not {len(bots)}")
    seats: list[JSON] = [{"kind": SeatKind.HUMAN.value}] * (players - len(bots))
    seats += [{"kind": SeatKind.BOT.value, "bot": bot} for bot in bots]
    return game.name, rules_options(args, args.game), seats


def default_name() -> str:
    """The login name when the server would take it as a display name, else "Host"."""
    import getpass

    from ..display_names import DisplayNameError, clean_name

    try:
        return clean_name(getpass.getuser())
    except (OSError, KeyError, DisplayNameError):
        return "Host"


LOCAL_ONLY = ("seed", "pause")


def _given_rules(args: argparse.Namespace) -> bool:
    from .options import all_option_names

    named = any(getattr(args, f"rule_{name}", None) is not None for name in all_option_names())
    return named or bool(args.option)


def check_mode(args: argparse.Namespace) -> None:
    """A local game takes GAME and its options; ``--host`` takes them too and creates a room;
    ``--join`` takes the game and options from the room."""
    online = [flag for flag in ("join", "host") if getattr(args, flag, None) is not None]
    if len(online) == 2:
        raise PlayError("--host creates a room and --join takes a seat in one: not both")
    if not online:
        if args.game is None:
            raise PlayError("give a GAME (skipbo or skyjo), or --join URL")
        for flag in ("name", "token", "host_token", "user"):
            if getattr(args, flag) is not None:
                raise PlayError(f"--{flag.replace('_', '-')} goes with --join or --host")
        return
    if online == ["host"]:
        if args.game is None:
            raise PlayError("--host needs the GAME of the new room (skipbo or skyjo)")
        for flag in (*LOCAL_ONLY, "token", "host_token"):
            if getattr(args, flag) is not None:
                option = flag.replace("_", "-")
                raise PlayError(f"--{option} does not go with --host (the server deals)")
        return
    if args.game is not None:
        raise PlayError("--join takes the game from the room; leave out GAME")
    if args.coach:
        raise PlayError("--join takes the coach from the room; its host sets it")
    for flag in ("bots", *LOCAL_ONLY):
        if getattr(args, flag) is not None:
            raise PlayError(f"--{flag} applies to a local game, not with --join")
    if _given_rules(args):
        raise PlayError("--join takes the rules from the room; its host changes them in the lobby")
    if args.name is not None and args.token is not None:
        raise PlayError("give --name for a new seat or --token to resume one, not both")


async def play_online(args: argparse.Namespace, lang: str) -> None:
    """Create (``--host``) or join the room, then run the app on the same event loop: it
    shows the lobby until the game starts."""
    import asyncio
    import contextlib

    from .app import make_app
    from .remote import RemoteError, RemoteGame, parse_target, server_base

    session = None
    if args.user is not None:
        try:
            base = server_base(args.host) if args.host is not None else parse_target(args.join)[0]
        except ValueError as error:
            raise RemoteError(str(error)) from None
        session = await sign_in(base, args.user)
    if args.host is not None:
        game, options, seats = host_request(args)
        source = await RemoteGame.create(
            args.host,
            game,
            options,
            seats,
            name=args.name or (session and session.name) or default_name(),
            table={"coach": True} if args.coach else None,
        )
        print(f"cardtable play: room {source.code} is open; friends join with")
        print(f"  cardtable play --join {source.join_url}")
        print(f"or open {source.join_url} in a browser.")
    else:
        source = await RemoteGame.join(
            args.join,
            name=args.name,
            token=args.token,
            host_token=args.host_token,
            default_name=None if session is None else session.name,
        )
    try:
        if session is not None:
            await account_seat(session, source)
        await make_app(source, lang).run_async()
    finally:
        await source.close()
        if session is not None:  # the session ends with the client (nothing kept of it)
            with contextlib.suppress(RemoteError):
                await asyncio.to_thread(session.sign_out)


async def sign_in(base: str, user: str) -> Any:
    """Ask the password (not echoed) and sign in; the session stays in memory only."""
    import asyncio
    import getpass

    from .signin import TableSession

    password = await asyncio.to_thread(getpass.getpass, f"Password for {user} at {base}: ")
    try:
        return await asyncio.to_thread(TableSession.sign_in, base, user, password)
    finally:
        del password


async def account_seat(session: Any, source: Any) -> None:
    """Claim the seat taken for the signed-in account, and read its ratings."""
    import asyncio

    from .signin import ladders_of

    await asyncio.to_thread(session.claim, source.code, source.token)
    ratings = await asyncio.to_thread(session.ratings)
    source.account_name = session.name
    source.ratings = ladders_of(source.game.name, ratings)


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
    online = args.join is not None or args.host is not None
    try:
        check_mode(args)
        if args.host is not None:
            host_request(args)  # every option checked before anything is sent
        source = None if online else build_local(args)
    except PlayError as error:
        print(f"cardtable play: error: {error}", file=sys.stderr)
        return USAGE_ERROR
    lang = args.lang or default_language()
    if source is None:
        import asyncio

        from .remote import RemoteError
        from .source import RefusedError

        try:
            asyncio.run(play_online(args, lang))
        except (RemoteError, RefusedError) as error:
            print(f"cardtable play: error: {error}", file=sys.stderr)
            return 1
        except KeyboardInterrupt:
            return 130
        return 0
    make_app(source, lang).run()
    return 0
