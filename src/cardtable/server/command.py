"""``cardtable serve``: argparse wiring for the CLI."""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import logging
import signal
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..argtypes import non_negative_float, non_negative_int, positive_float, positive_int
from ..settings import default_data_dir, settings
from .ops.collector import (
    DEFAULT_FREEZE_SECONDS,
    DEFAULT_FULL_SECONDS,
    DEFAULT_THRESHOLDS,
    CollectorPolicy,
)
from .ops.config import ServerConfig
from .ops.logs import FORMATS
from .ops.logs import configure as configure_logging

if TYPE_CHECKING:
    from starlette.applications import Starlette


def _lease(text: str) -> float:
    value = non_negative_float(text)
    if value < 0.3:
        raise argparse.ArgumentTypeError(f"must be at least 0.3 seconds, got {text}")
    return value


_THRESHOLDS_TEXT = ",".join(map(str, DEFAULT_THRESHOLDS))


def _gc_thresholds(text: str) -> tuple[int, int, int]:
    parts = text.split(",")
    if len(parts) != 3 or not all(part.strip().isdigit() for part in parts):
        raise argparse.ArgumentTypeError(f"three whole numbers, as {_THRESHOLDS_TEXT}")
    first, second, third = (int(part) for part in parts)
    return first, second, third


def add_serve_parser(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    serve = subparsers.add_parser("serve", help="run the online table (HTTP and WebSocket)")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    serve.add_argument("--port", type=int, default=8000, help="port (8000)")
    serve.add_argument(
        "--db",
        metavar="URL",
        help="database URL, e.g. postgresql+asyncpg://user:pw@host/db (default: "
        "$CARDTABLE_DB, which keeps a password off the command line, else SQLite in the "
        "data folder)",
    )
    serve.add_argument(
        "--data",
        type=Path,
        metavar="DIR",
        help=f"data folder for the SQLite file (default {default_data_dir()})",
    )
    serve.add_argument(
        "--migrate",
        action="store_true",
        help="upgrade a PostgreSQL schema older than this version's (stop the nodes "
        "running the old version first); without it such a start is refused",
    )
    serve.add_argument(
        "--node-id",
        metavar="NAME",
        help="this node's name in room leases (default: host name, process id and a random suffix)",
    )
    serve.add_argument(
        "--gc-thresholds",
        type=_gc_thresholds,
        default=DEFAULT_THRESHOLDS,
        metavar="N0,N1,N2",
        help=f"the garbage collector's thresholds ({_THRESHOLDS_TEXT}; Python's default is "
        "700,10,10)",
    )
    serve.add_argument(
        "--gc-freeze",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="keep what start-up made, and every --gc-freeze-seconds what survived, out "
        "of later garbage collections (on)",
    )
    serve.add_argument(
        "--gc-freeze-seconds",
        type=positive_float,
        default=DEFAULT_FREEZE_SECONDS,
        metavar="S",
        help=f"how often survivors are frozen ({DEFAULT_FREEZE_SECONDS:g})",
    )
    serve.add_argument(
        "--gc-full-seconds",
        type=non_negative_float,
        default=DEFAULT_FULL_SECONDS,
        metavar="S",
        help="how often the frozen objects are collected in full, freeing the reference "
        f"cycles among them; the one long pause (0: never) ({DEFAULT_FULL_SECONDS:g})",
    )
    serve.add_argument(
        "--log-format",
        choices=FORMATS,
        default="text",
        help="log lines as text with key=value fields, or one JSON object a line; lines "
        "about a room carry its code (room) and every line the node id (node) (text)",
    )
    serve.add_argument(
        "--log-level",
        choices=("debug", "info", "warning"),
        default="info",
        help="debug adds a line per move (info)",
    )
    serve.add_argument(
        "--lease-seconds",
        type=_lease,
        default=15.0,
        metavar="S",
        help="how long a room's lease lasts unrenewed: a dead node's rooms move to "
        "another node after about this long (15)",
    )
    serve.add_argument(
        "--bot-pause",
        type=non_negative_float,
        default=0.6,
        help="seconds a bot waits before moving (0.6)",
    )
    serve.add_argument(
        "--bot-processes",
        type=non_negative_int,
        default=None,
        metavar="N",
        help="worker processes for bots and hints (default: one per core; 0: threads of "
        "the server process, for a machine with one core)",
    )
    serve.add_argument(
        "--grace",
        type=non_negative_float,
        default=60.0,
        help="seconds before a disconnected player is replaced by a bot (60)",
    )
    serve.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="browser origin allowed to open WebSockets besides the server's own (repeatable)",
    )
    serve.add_argument(
        "--allowed-host",
        action="append",
        default=[],
        metavar="NAME",
        help="a host name the table answers to (repeatable; '*': any), against DNS "
        "rebinding; addresses always are (default: localhost and the --host name)",
    )
    serve.add_argument(
        "--room-ttl",
        type=non_negative_float,
        default=3600.0,
        help="seconds after which an unused room expires (3600)",
    )
    serve.add_argument(
        "--rooms-per-client",
        type=positive_int,
        default=20,
        metavar="N",
        help="live rooms one client address may have created (20)",
    )
    serve.add_argument(
        "--lookup-burst",
        type=positive_int,
        default=20,
        metavar="N",
        help="room codes that do not exist one client address may look up at once; then "
        "one every --lookup-miss-seconds, and 429 meanwhile (20)",
    )
    serve.add_argument(
        "--lookup-miss-seconds",
        type=positive_float,
        default=60.0,
        metavar="S",
        help="seconds for one more look-up of a code that does not exist, per address (60)",
    )
    serve.add_argument(
        "--lookup-cluster-misses",
        type=positive_int,
        default=35,
        metavar="N",
        help="on PostgreSQL, look-ups of codes that do not exist one client address may make "
        "on all the nodes together in 15 minutes; then every node answers it 429 (35)",
    )
    serve.add_argument(
        "--joins-per-address",
        type=positive_int,
        default=10,
        metavar="N",
        help="seats one client address may join at once (then one every 5 s); one more "
        "is refused with 429 too_many_requests (10)",
    )
    serve.add_argument(
        "--public-seats-per-address",
        type=positive_int,
        default=4,
        metavar="N",
        help="seats of public tables waiting to start that one client address may hold "
        "on this node; one more is refused with 429 too_many_seats (4)",
    )
    serve.add_argument(
        "--sockets-per-address",
        type=positive_int,
        default=100,
        metavar="N",
        help="open WebSockets one client address may hold on this node; one more is "
        "closed with 4029 too_many_sockets (100)",
    )
    serve.add_argument(
        "--max-sockets",
        type=positive_int,
        default=5000,
        metavar="N",
        help="open WebSockets on this node, under its open-file limit (ulimit -n); one "
        "more is closed with 1013 server_full (5000)",
    )
    serve.add_argument(
        "--hello-seconds",
        type=positive_float,
        default=5.0,
        metavar="S",
        help="seconds a new WebSocket has to send hello, else it is closed with 1008 (5)",
    )
    serve.add_argument(
        "--message-rate",
        type=positive_float,
        default=10.0,
        metavar="N",
        help="WebSocket messages a second one connection may send after its burst; "
        "faster ones get rate_limited and close 1008 (10)",
    )
    serve.add_argument(
        "--message-burst",
        type=positive_int,
        default=40,
        metavar="N",
        help="WebSocket messages one connection may send at once (40)",
    )
    serve.add_argument(
        "--commit-gather-ms",
        type=non_negative_float,
        default=2.0,
        metavar="MS",
        help="when the move writer was idle, wait this long for more moves to commit "
        "with the first: fewer commits under load, each move answered that much later "
        "(2; 0 commits each move at once)",
    )
    serve.add_argument(
        "--ws-deflate",
        action=argparse.BooleanOptionalAction,
        default=False,
        help="accept WebSocket permessage-deflate compression: a move's messages (about "
        "1 KB a seat) a third the size, for server CPU and about 190 KiB of memory per "
        "4-seat room (off)",
    )
    serve.add_argument(
        "--proxy-headers",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="take the client address and scheme from X-Forwarded-For/-Proto when the "
        "connection comes from a --forwarded-allow-ips address (on)",
    )
    serve.add_argument(
        "--forwarded-allow-ips",
        default=None,
        metavar="IPS",
        help="comma-separated proxy addresses or networks trusted for X-Forwarded-* "
        "('*' trusts all; default $FORWARDED_ALLOW_IPS, else 127.0.0.1,::1)",
    )


def allowed_hosts(given: list[str], bind: str) -> tuple[str, ...]:
    """The host names the table answers to: those ``given``, else ``localhost`` and the
    name it listens on (an address needs no listing, see :mod:`cardtable.server.edges.guard`)."""
    if given:
        return tuple(given)
    return ("localhost",) if bind in ("localhost", "") else ("localhost", bind)


def serve_config(args: argparse.Namespace) -> ServerConfig:
    shared = settings()
    return ServerConfig(
        data_dir=args.data if args.data is not None else shared.data_dir(),
        db_url=args.db if args.db is not None else shared.db,
        migrate=args.migrate,
        node_id=args.node_id,
        lease_seconds=args.lease_seconds,
        commit_gather_seconds=args.commit_gather_ms / 1000,
        bot_pause=args.bot_pause,
        bot_processes=args.bot_processes,
        grace_seconds=args.grace,
        allowed_origins=tuple(args.allow_origin),
        allowed_hosts=allowed_hosts(args.allowed_host, args.host),
        room_ttl_seconds=args.room_ttl,
        rooms_per_client=args.rooms_per_client,
        lookup_burst=args.lookup_burst,
        lookup_miss_seconds=args.lookup_miss_seconds,
        lookup_cluster_misses=args.lookup_cluster_misses,
        rate_per_second=args.message_rate,
        rate_burst=args.message_burst,
        sockets_per_address=args.sockets_per_address,
        joins_burst=args.joins_per_address,
        public_seats_per_address=args.public_seats_per_address,
        max_sockets=args.max_sockets,
        hello_timeout=args.hello_seconds,
    )


def uvicorn_options(args: argparse.Namespace, config: ServerConfig) -> dict[str, Any]:
    """The keyword arguments ``run_serve`` gives ``uvicorn.run`` besides the app."""
    return {
        "host": args.host,
        "port": args.port,
        "ws_max_size": config.max_message_bytes,
        "log_level": "warning",
        "lifespan": "on",
        "ws_per_message_deflate": args.ws_deflate,
        "proxy_headers": args.proxy_headers,
        "forwarded_allow_ips": args.forwarded_allow_ips,
    }


def run_serve(args: argparse.Namespace, build_app: Callable[[ServerConfig], Starlette]) -> None:
    """Serve the app ``build_app`` makes of the configuration ``args`` describe (the
    ``cardtable`` command passes :func:`cardtable.online.create_app`: the server with the
    web table)."""
    import uvicorn

    from .ops.startup import StartupRefusedError

    config = serve_config(args)
    where = config.database_url().split("@")[-1]  # never the user and password
    # Rooms and connections are many small long-lived objects, which Python's default
    # thresholds scan again and again: see collector.py and docs/performance.md.
    collector = CollectorPolicy(
        args.gc_thresholds,
        args.gc_freeze_seconds if args.gc_freeze else 0.0,
        args.gc_full_seconds,
    )
    gc.set_threshold(*collector.thresholds)
    app = build_app(config)
    table = app.state.table
    log_level = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING}
    configure_logging(args.log_format, table.node_id, log_level[args.log_level])
    server = uvicorn.Server(uvicorn.Config(app, **uvicorn_options(args, config)))

    async def main() -> int:
        # The database is opened before the server listens, so a refusal (another
        # server on this SQLite file, a schema of another version) is one clear line
        # and exit status 1, not a traceback from the ASGI lifespan.
        try:
            await table.open()
        except StartupRefusedError as error:
            print(f"cardtable serve: refused to start: {error}", file=sys.stderr, flush=True)
            return 1
        print(
            f"cardtable table: open http://{args.host}:{args.port}/ (database: {where})", flush=True
        )
        collector.start()
        collecting = asyncio.create_task(collector.run())
        # SIGUSR1 drains the node for a rolling upgrade (operations.md): its rooms are
        # handed over, /health says draining; SIGTERM then stops it.
        draining: set[asyncio.Task[int]] = set()

        def drain() -> None:
            if not table.draining:
                task = asyncio.create_task(table.drain())
                draining.add(task)
                task.add_done_callback(draining.discard)

        loop = asyncio.get_running_loop()
        with contextlib.suppress(NotImplementedError, AttributeError):  # not on Windows
            loop.add_signal_handler(signal.SIGUSR1, drain)
        try:
            await server.serve()  # the app's lifespan closes the table when it stops
        finally:
            collecting.cancel()
            await table.close()  # unless the server never started (the port was taken)
        return 0 if server.started else 3

    with asyncio.Runner(loop_factory=server.config.get_loop_factory()) as runner:
        status = runner.run(main())
    if status:
        raise SystemExit(status)
