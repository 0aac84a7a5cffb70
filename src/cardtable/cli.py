"""The ``cardtable`` command: tournaments, ladders, benchmarks, post-game reviews, rules
options, the web table (``serve``), the terminal client (``play``), the load test and a
demonstration.

Every user mistake (bad option, unknown bot, flag the game lacks) ends with a one-line
message on stderr and exit status 2, like argparse's own errors; never a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import io
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from . import __version__
from .argtypes import positive_float, positive_int
from .bench.engine import run_bench
from .bench.loadtest_command import add_loadtest_parser, run_loadtest_cli
from .bench.rl_envs import add_rl_bench_arguments
from .bots import bot_names
from .bots.registry import parse_bot_name
from .core import Game, OptionError, RulesBase
from .games import game_names, get_game
from .server.command import add_serve_parser, run_serve
from .sim.tournament import run_tournament
from .tui.command import add_play_parser, run_play
from .tui.learn_command import add_learn_parser, run_learn

USAGE_ERROR = 2
#: ``--json`` given without a file: print the JSON object on standard output.
STDOUT = Path("-")

# Shortcut flags and the rules fields they set, first match wins: ``--target`` is
# Skip-Bo's ``target`` and Skyjo's ``end_score``.
FLAG_FIELDS: dict[str, tuple[str, ...]] = {
    "players": ("players",),
    "stock": ("stock_size",),
    "teams": ("teams",),
    "rounds": ("rounds",),
    "target": ("target", "end_score"),
}


class UsageError(Exception):
    """A mistake in the command line; the message is shown as is."""


def _build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="cardtable", description="Rules engines, bots and tournaments for Skip-Bo and Skyjo."
    )
    parser.add_argument("--version", action="version", version=f"cardtable {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    sim = commands.add_parser("sim", help="play a seeded tournament between bots")
    sim.add_argument("game", metavar="GAME", choices=game_names(), help=", ".join(game_names()))
    _add_rules_flags(sim)
    sim.add_argument("--games", type=positive_int, default=100, help="games to play (100)")
    sim.add_argument(
        "--bots", default="random", help="comma-separated bot names, dealt round the seats"
    )
    sim.add_argument("--seed", type=int, default=0, help="tournament seed (0)")
    sim.add_argument("--json", type=Path, metavar="FILE", help="also write the result as JSON")
    _add_tournament_flags(sim)
    sim.add_argument("--plot", type=Path, metavar="FILE.png", help="plot win rates and scores")
    sim.add_argument(
        "--engine",
        choices=("reference", "fast"),
        default="reference",
        help="reference: the pure-Python engine and bots (default); fast: the compiled "
        "batch engine and its bots (extra 'fast'; random, greedy and hard), "
        "the same games",
    )

    ladder = commands.add_parser("ladder", help="round robin of bots with Bradley-Terry ratings")
    ladder.add_argument("game", metavar="GAME", choices=game_names(), help=", ".join(game_names()))
    _add_rules_flags(ladder)
    ladder.add_argument("--games", type=positive_int, default=100, help="games per pair (100)")
    ladder.add_argument("--bots", help="comma-separated bot names (default: every bot)")
    ladder.add_argument("--seed", type=int, default=0, help="ladder seed (0)")
    ladder.add_argument("--json", type=Path, metavar="FILE", help="also write the result as JSON")
    _add_tournament_flags(ladder)
    ladder.add_argument(
        "--engine",
        choices=("reference", "fast"),
        default="reference",
        help="reference: the pure-Python engine and bots (default); fast: the compiled "
        "batch engine and its bots (extra 'fast'; random, greedy and hard: "
        "the default bots then), the same games and ratings",
    )

    bench = commands.add_parser("bench", help="measure engine throughput on one core")
    bench.add_argument("game", metavar="GAME", choices=game_names(), help=", ".join(game_names()))
    _add_rules_flags(bench)
    bench.add_argument("--seconds", type=positive_float, default=5.0, help="total time budget (5)")
    bench.add_argument(
        "--games", type=positive_int, help="play exactly this many games per measurement"
    )
    bench.add_argument(
        "--json",
        type=Path,
        nargs="?",
        const=STDOUT,
        metavar="FILE",
        help="write the figures as JSON to FILE, or alone: print one JSON object instead "
        "of the table (moves_per_s, games_per_s, ... for random play)",
    )
    bench.add_argument(
        "--engine",
        choices=("reference", "fast"),
        default="reference",
        help="reference: the pure-Python engine (default); fast: the compiled batch "
        "engine (extra 'fast'): random play, then games of each compiled bot",
    )
    bench.add_argument(
        "--batch",
        type=positive_int,
        default=256,
        metavar="B",
        help="games stepped together with --engine fast (256)",
    )
    add_rl_bench_arguments(bench)

    commands.add_parser("demo", help="short demonstration tournaments of both games")

    rules = commands.add_parser(
        "rules", help="list a game's rules options, their allowed values and defaults"
    )
    rules.add_argument("game", metavar="GAME", choices=game_names(), help=", ".join(game_names()))
    rules.add_argument(
        "--markdown", action="store_true", help="the options table of docs/rules/GAME.md"
    )

    review = commands.add_parser(
        "review",
        help="post-game review: what each of a seat's moves cost, by the move advisor",
        description="Replay a recorded game and ask the move advisor about every decision "
        "a seat made with a choice. FILE: a web table replay "
        "(/api/rooms/CODE/games/N), a game snapshot, a golden transcript or a "
        "`cardtable sim --json` file (its game INDEX is played again with its bots).",
    )
    review.add_argument("file", metavar="FILE", type=Path, help="the game record")
    review.add_argument("--seat", type=int, required=True, help="the seat to review (0-based)")
    review.add_argument(
        "--game", type=int, default=0, metavar="INDEX", help="game of a sim --json file (0)"
    )
    review.add_argument(
        "--iterations", type=positive_int, default=8, help="advisor re-deals per decision (8)"
    )
    review.add_argument(
        "--confirm",
        type=positive_int,
        help="re-deals comparing the best and the played move again (4 x iterations)",
    )
    review.add_argument(
        "--max-decisions", type=positive_int, help="review at most this many, spread over the game"
    )
    review.add_argument("--seed", type=int, default=0, help="seed of the advisor's re-deals (0)")
    review.add_argument("--worst", type=positive_int, default=5, help="worst moves listed (5)")
    review.add_argument("--all", action="store_true", help="list every reviewed decision")
    review.add_argument("--plain", action="store_true", help="plain text lines, no table")
    review.add_argument("--json", type=Path, metavar="FILE", help="also write the review as JSON")
    fast = commands.add_parser(
        "fast",
        help="the compiled engines' kernels: compile them all ahead of first use",
        description="The compiled engines (extra 'fast') compile their kernels on first "
        "use and cache them; `warm` compiles every kernel of every game, bot and vector "
        "env now, so that later runs (tests, benchmarks, training) load them in seconds.",
    )
    fast_commands = fast.add_subparsers(dest="fast_command", required=True, metavar="ACTION")
    warm = fast_commands.add_parser("warm", help="compile every kernel into the cache now")
    warm.add_argument(
        "--game",
        action="append",
        choices=("skyjo", "skipbo"),
        help="warm this game only (repeatable; default: both)",
    )
    warm.add_argument(
        "--jobs",
        type=positive_int,
        help="games compiled at once, one process each (default: one per game, at most "
        "one per core)",
    )
    add_serve_parser(commands)
    add_loadtest_parser(commands)
    add_play_parser(commands)
    add_learn_parser(commands)
    return parser


def _add_tournament_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--workers", type=positive_int, default=1, help="processes (1)")
    parser.add_argument(
        "--cluster",
        metavar="ADDRESS",
        help="play the games on the Dask scheduler at ADDRESS (tcp://host:8786; extra "
        "'cluster'): the same results as on one core",
    )
    parser.add_argument(
        "--paired", action="store_true", help="play each deal once per seat rotation"
    )


def _add_rules_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("rules options")
    group.add_argument("--players", type=int, help="number of seats")
    group.add_argument("--stock", type=int, help="Skip-Bo stock pile size (stock_size)")
    group.add_argument("--teams", action="store_true", help="Skip-Bo team play")
    group.add_argument("--rounds", action="store_true", help="Skip-Bo multi-round scoring")
    group.add_argument(
        "--target", type=int, help="score that ends the game (Skip-Bo target, Skyjo end_score)"
    )
    group.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="any rules option; VALUE is read as JSON (true, 3, null), else as text",
    )


def _load_game(name: str) -> Game[Any]:
    try:
        return get_game(name)
    except ModuleNotFoundError as error:
        raise UsageError(f"the {name} engine is not available ({error})") from error


def build_rules(game: Game[Any], args: argparse.Namespace) -> RulesBase:
    """The rules object described by the shortcut flags and ``--option`` pairs."""
    fields = [field.name for field in dataclasses.fields(game.rules_type)]
    options: dict[str, object] = {}
    for flag, candidates in FLAG_FIELDS.items():
        value = getattr(args, flag)
        if value is None or value is False:  # flag not given
            continue
        field = next((name for name in candidates if name in fields), None)
        if field is None:
            raise UsageError(
                f"--{flag} does not apply to {game.title}: its rules have no "
                f"{' or '.join(candidates)} option (see `cardtable rules {game.name}`)"
            )
        options[field] = value
    for pair in args.option:
        key, equals, text = pair.partition("=")
        if not equals or not key:
            raise UsageError(f"--option needs KEY=VALUE, got {pair!r}")
        if key in options:
            raise UsageError(f"option {key!r} given twice")
        try:
            options[key] = json.loads(text)
        except json.JSONDecodeError:
            options[key] = text
    try:
        return game.rules_from_json(options)
    except OptionError as error:
        raise UsageError(str(error)) from error


def _check_bots(game: Game[Any], names: Sequence[str]) -> None:
    for name in names:
        try:
            parse_bot_name(game.name, name)
        except KeyError as error:
            raise UsageError(error.args[0]) from error


def _defaults(game: Game[Any]) -> dict[str, Any]:
    defaults = game.rules_type()
    return {field.name: getattr(defaults, field.name) for field in dataclasses.fields(defaults)}


def _console() -> Any:
    from rich.console import Console  # only the printing commands need rich

    return Console(highlight=False)


@contextlib.contextmanager
def _progress_bar(label: str, total: int) -> Iterator[Callable[[int], None] | None]:
    """A transient progress bar on stderr, only when a person is watching it."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import Progress

    with Progress(console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(label, total=total)
        yield lambda done: bar.update(task, completed=done)


def _write_json(path: Path, data: dict[str, Any]) -> None:
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


@contextlib.contextmanager
def _run_errors(extra: str, cluster: str | None) -> Iterator[None]:
    """What a tournament or a ladder raises, as usage errors: a missing extra (``fast``
    or ``cluster``), a ``--cluster`` address where no scheduler answers, a bad value."""
    try:
        yield
    except ModuleNotFoundError as error:
        message = f"needs the extra {extra}: pip install cardtable[{extra}] ({error})"
        raise UsageError(message) from error
    except (OSError, TimeoutError) as error:
        raise UsageError(f"--cluster {cluster}: no scheduler answered ({error})") from error
    except ValueError as error:
        raise UsageError(str(error)) from error


def _sim(args: argparse.Namespace) -> None:
    from .sim.report import print_tournament

    game = _load_game(args.game)
    rules = build_rules(game, args)
    names = [name.strip() for name in args.bots.split(",")]
    if not all(names):
        raise UsageError(f"--bots needs comma-separated names, got {args.bots!r}")
    _check_bots(game, names)
    if args.engine == "fast" and (args.workers != 1 or args.cluster is not None):
        raise UsageError("--engine fast plays on one core: leave out --workers and --cluster")
    extra = "fast" if args.engine == "fast" else "cluster"
    with (
        _progress_bar(f"{game.title}: playing", args.games) as progress,
        _run_errors(extra, args.cluster),
    ):
        try:
            if args.engine == "fast":
                from .sim.fast_tournament import run_fast_tournament

                result = run_fast_tournament(
                    game, rules, names, args.games, args.seed, progress=progress,
                    paired=args.paired,
                )  # fmt: skip
            else:
                result = run_tournament(
                    game, rules, names, args.games, args.seed, progress=progress,
                    paired=args.paired, workers=args.workers, cluster=args.cluster,
                )  # fmt: skip
        except KeyError as error:
            raise UsageError(str(error.args[0])) from error
    print_tournament(_console(), game.title, result, _defaults(game))
    if args.json is not None:
        _write_json(args.json, result.to_json())
    if args.plot is not None:
        from .sim.plot import plot_tournament

        plot_tournament(result, args.plot)


def _fast_bot_names(game_name: str) -> tuple[str, ...]:
    """The bots of ``game_name``'s batch engine, or a usage error (no extra, no engine)."""
    with _run_errors("fast", None):
        from .sim.fast_tournament import fast_bot_names

        try:
            return fast_bot_names(game_name)
        except KeyError as error:
            raise UsageError(str(error.args[0])) from error


def _ladder(args: argparse.Namespace) -> None:
    from .sim.ladder import run_ladder
    from .sim.report import print_ladder

    game = _load_game(args.game)
    rules = build_rules(game, args)
    fast = args.engine == "fast"
    if fast and (args.workers != 1 or args.cluster is not None):
        raise UsageError("--engine fast plays on one core: leave out --workers and --cluster")
    if args.bots is not None:
        names = args.bots.split(",")
    elif fast:
        names = list(_fast_bot_names(game.name))
    else:
        names = bot_names(game.name)
    _check_bots(game, names)
    total = args.games * len(names) * (len(names) - 1) // 2
    with (
        _progress_bar(f"{game.title}: ladder", total) as progress,
        _run_errors("fast" if fast else "cluster", args.cluster),
    ):
        try:
            result = run_ladder(
                game, rules, names, args.games, args.seed, workers=args.workers,
                progress=progress, cluster=args.cluster, engine=args.engine,
            )  # fmt: skip
        except KeyError as error:  # a game without a batch engine
            raise UsageError(str(error.args[0])) from error
    print_ladder(_console(), game.title, result, _defaults(game))
    if args.json is not None:
        _write_json(args.json, result.to_json())


def _bench(args: argparse.Namespace) -> None:
    from .bench.engine_table import print_bench

    game = _load_game(args.game)
    rules = build_rules(game, args)
    if args.rl:
        from .bench.rl_envs import rl_bench_command

        _check_bots(game, [args.rl_bots])
        try:
            if args.json == STDOUT:  # the JSON object alone, without the table
                with contextlib.redirect_stdout(io.StringIO()):
                    figures = rl_bench_command(game.name, game.title, rules, args)
            else:
                figures = rl_bench_command(game.name, game.title, rules, args)
        except ModuleNotFoundError as error:
            message = f"--rl needs the extra rl: pip install cardtable[rl] ({error})"
            raise UsageError(message) from error
        except ValueError as error:  # e.g. --engine fast for a game without a batch engine
            raise UsageError(str(error)) from error
        if args.json == STDOUT:
            print(json.dumps(figures))
        elif args.json is not None:
            _write_json(args.json, figures)
        return
    if args.engine == "fast":
        from .bench.fast_engine import run_fast_bench

        try:
            report = run_fast_bench(
                game.name, rules, seconds=args.seconds, games=args.games, batch=args.batch
            )
        except ModuleNotFoundError as error:
            message = f"--engine fast needs the extra fast: pip install cardtable[fast] ({error})"
            raise UsageError(message) from error
        except KeyError as error:
            raise UsageError(str(error.args[0])) from error
        figures = report.summary("fast", report.rows[0].name)
        title = f"{game.title} benchmark, compiled batch engine"
    else:
        report = run_bench(game, rules, seconds=args.seconds, games=args.games)
        # The reference row comparable with the batch engine's random play: the
        # random policy's legal-move generation and the unvalidated fast path.
        figures = report.summary("reference", "random, advance")
        title = f"{game.title} benchmark"
    if args.json == STDOUT:
        print(json.dumps(figures))
        return
    print_bench(_console(), title, report, _defaults(game))
    if args.json is not None:
        _write_json(args.json, figures)


def _demo(args: argparse.Namespace) -> None:
    from .sim.report import print_tournament

    console = _console()
    console.print("Two short tournaments between bots; `cardtable serve` opens the web table.")
    demos = [
        ("skipbo", {"players": 4, "teams": True}, ["greedy", "random"]),
        ("skyjo", {"players": 4}, ["greedy", "random"]),
    ]
    for name, options, wanted in demos:
        game = _load_game(name)
        # Before a game's greedy bot exists the demo still runs, with random bots.
        names = [bot if bot in bot_names(name) else "random" for bot in wanted]
        result = run_tournament(game, game.rules_from_json(options), names, 50, seed=0)
        console.print()
        print_tournament(console, game.title, result, _defaults(game))


def _rules(args: argparse.Namespace) -> None:
    """Every option of the game: the values the engine accepts (also per player count
    where its limits follow it), the default and the meaning, as JSON values."""
    from .rules_options import options_markdown, options_table

    game = _load_game(args.game)
    if args.markdown:
        print(options_markdown(game.name))
        return
    heading = (
        f"{game.title} rules options (--option NAME=VALUE with sim, ladder and bench; "
        "VALUE as JSON):"
    )
    print(options_table(game.name, heading, null="null", null_meaning="null (the rules choose)"))


def _review(args: argparse.Namespace) -> None:
    from .bots.review import review_game
    from .core import Rng
    from .sim.gamefile import GameFileError, load_game_file
    from .sim.review_report import print_review

    try:
        record = load_game_file(args.file, args.game)
    except GameFileError as error:
        raise UsageError(str(error)) from error
    players = record.game.new_state(record.rules, record.seed).num_players
    if not 0 <= args.seat < players:
        raise UsageError(f"--seat must be from 0 to {players - 1}, got {args.seat}")
    with _progress_bar(f"{record.game.title}: reviewing", 100) as bar:
        progress = None if bar is None else lambda done, total: bar(100 * done // total)
        review = review_game(
            record.game, record.rules, record.seed, record.actions, args.seat,
            iterations=args.iterations, confirm=args.confirm,
            max_decisions=args.max_decisions, rng=Rng(args.seed),
            progress=progress,
        )  # fmt: skip
    player = record.players[args.seat] if args.seat < len(record.players) else None
    print_review(_console(), record.game.title, review, player, args.worst, args.all, args.plain)
    if args.json is not None:
        _write_json(args.json, review.to_json(args.worst))


def _fast(args: argparse.Namespace) -> None:
    try:
        from .fast.compiled import cache_folder
        from .warmup import WARM_GAMES, WarmResult, warm
    except ModuleNotFoundError as error:
        raise UsageError(f"needs the extra fast: pip install cardtable[fast] ({error})") from error

    def done(result: WarmResult) -> None:
        print(
            f"{result.game}: ready in {result.seconds:.1f} s "
            f"({result.cpu_seconds:.1f} s of CPU in its process)",
            flush=True,
        )

    games = tuple(dict.fromkeys(args.game)) if args.game else WARM_GAMES
    warm(games, jobs=args.jobs, done=done)
    folder = cache_folder()
    print(f"kernels cached in {folder}" if folder else "no writable cache folder: nothing kept")


def _serve(args: argparse.Namespace) -> None:
    from .online import create_app  # the server with the web table (starlette: imported late)

    run_serve(args, create_app)


COMMANDS = {
    "sim": _sim,
    "bench": _bench,
    "demo": _demo,
    "rules": _rules,
    "review": _review,
    "ladder": _ladder,
    "serve": _serve,
    "fast": _fast,
    "loadtest": run_loadtest_cli,
}


def main(argv: Sequence[str] | None = None) -> int:
    parser = _build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:  # --help, --version and argparse's own usage errors
        return exit_.code if isinstance(exit_.code, int) else USAGE_ERROR
    if args.command == "play":
        return run_play(args)
    if args.command == "learn":
        return run_learn(args)
    try:
        COMMANDS[args.command](args)
    except UsageError as error:
        print(f"cardtable {args.command}: error: {error}", file=sys.stderr)
        return USAGE_ERROR
    return 0


if __name__ == "__main__":
    sys.exit(main())
