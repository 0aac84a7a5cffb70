"""``cardtable loadtest``: its flags, and the run they describe printed as a table."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import sys
from pathlib import Path
from typing import Any

from ..argtypes import non_negative_int, positive_float, positive_int
from .loadtest import run_loadtest, run_on_uvloop
from .loadtest_node import NodeClientError, check_node_client, run_node_loadtest
from .loadtest_options import LoadOptions
from .loadtest_report import format_report
from .loadtest_server import spawned_server


def _json_object(text: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise argparse.ArgumentTypeError(f"not JSON: {error}") from None
    if not isinstance(value, dict):
        raise argparse.ArgumentTypeError("must be a JSON object")
    return value


def add_loadtest_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--rooms", type=positive_int, default=10, help="rooms to drive (10)")
    parser.add_argument("--seats", type=positive_int, default=4, help="human seats per room (4)")
    parser.add_argument(
        "--url", default="http://127.0.0.1:8000", help="server base URL (http://127.0.0.1:8000)"
    )
    parser.add_argument(
        "--duration", type=positive_float, default=30.0, help="seconds of play (30)"
    )
    parser.add_argument(
        "--rate",
        type=positive_float,
        default=1.0,
        help="moves per second per room (1.0); the server closes a connection that sends "
        "more than 10 a second",
    )
    parser.add_argument("--game", choices=("skyjo", "skipbo"), default="skyjo", help="(skyjo)")
    parser.add_argument(
        "--options", type=_json_object, default={}, metavar="JSON", help="extra rules options"
    )
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--server-pid", type=int, metavar="PID", help="server process whose memory to report"
    )
    where.add_argument(
        "--spawn",
        action="store_true",
        help="start a server on a free port with a temporary SQLite file (ignores --url)",
    )
    parser.add_argument(
        "--no-compression",
        dest="compression",
        action="store_false",
        help="do not offer permessage-deflate (browsers do offer it)",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the players' choices (0)")
    parser.add_argument(
        "--bot-rooms",
        type=non_negative_int,
        default=0,
        metavar="N",
        help="also start N rooms with a bot in every seat, playing beside the human rooms (0)",
    )
    parser.add_argument(
        "--bot",
        default="expert",
        metavar="LEVEL[,LEVEL...]",
        help="the bot of those rooms; several levels are taken in turn by the rooms (expert)",
    )
    parser.add_argument(
        "--client",
        choices=("python", "node"),
        default="python",
        help="who plays the rooms: this process (python), or the Node.js client of "
        "tools/loadclient, which costs less CPU a move than the server (node: needs "
        "`npm ci --prefix tools/loadclient`; no --bot-rooms, no reconnection) (python)",
    )
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the report as JSON")


def _raise_file_limit(connections: int) -> None:
    """Let this process hold ``connections`` sockets (the soft limit is often 1024)."""
    import resource

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = connections + 256
    if soft != resource.RLIM_INFINITY and soft < wanted:
        new = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (new, hard))


def run_loadtest_command(args: argparse.Namespace) -> dict[str, Any]:
    """Run the load test the arguments describe, print the table, write ``--json``."""
    _raise_file_limit(args.rooms * args.seats + args.bot_rooms)
    options = LoadOptions(
        url=args.url,
        rooms=args.rooms,
        seats=args.seats,
        duration=args.duration,
        rate=args.rate,
        game=args.game,
        options=args.options,
        server_pid=args.server_pid,
        compression=args.compression,
        seed=args.seed,
        bot_rooms=args.bot_rooms,
        bot=args.bot,
    )
    if args.client == "node":
        check_node_client(options)
    with contextlib.ExitStack() as stack:
        if args.spawn:
            url, pid = stack.enter_context(spawned_server(args.rooms + args.bot_rooms))
            options = dataclasses.replace(options, url=url, server_pid=pid)
        if args.client == "node":
            report = run_node_loadtest(options)
        else:
            report = run_on_uvloop(run_loadtest(options))
    print(format_report(report), flush=True)
    if args.json is not None:
        args.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return report


def add_loadtest_parser(
    subparsers: argparse._SubParsersAction[argparse.ArgumentParser],
) -> None:
    """The ``cardtable loadtest`` subcommand and its flags."""
    loadtest = subparsers.add_parser(
        "loadtest", help="drive many rooms of scripted players against a table server"
    )
    add_loadtest_arguments(loadtest)


def run_loadtest_cli(args: argparse.Namespace) -> None:
    """The CLI's entry: run the load test; the report is printed (and written by ``--json``)."""
    try:
        run_loadtest_command(args)
    except NodeClientError as error:
        print(f"cardtable loadtest: error: {error}", file=sys.stderr)
        raise SystemExit(2) from None
