"""``cardtable serve``: argparse wiring for the CLI."""

from __future__ import annotations

import argparse
import gc
import logging
import sys
from pathlib import Path
from typing import Any

from ..argtypes import positive_int
from ..settings import default_data_dir, settings
from .config import ServerConfig


def _seconds(text: str) -> float:
    value = float(text)
    if not value >= 0:
        raise argparse.ArgumentTypeError(f"must be 0 or more, got {text}")
    return value


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
        "--bot-pause", type=_seconds, default=0.6, help="seconds a bot waits before moving (0.6)"
    )
    serve.add_argument(
        "--grace",
        type=_seconds,
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
        "--room-ttl",
        type=_seconds,
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
        "--ws-deflate",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="accept WebSocket permessage-deflate compression; off saves the server CPU "
        "and about 50 KiB of memory per connection for more bytes on the wire (on)",
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


def serve_config(args: argparse.Namespace) -> ServerConfig:
    shared = settings()
    return ServerConfig(
        data_dir=args.data if args.data is not None else shared.data_dir(),
        db_url=args.db if args.db is not None else shared.db,
        bot_pause=args.bot_pause,
        grace_seconds=args.grace,
        allowed_origins=tuple(args.allow_origin),
        room_ttl_seconds=args.room_ttl,
        rooms_per_client=args.rooms_per_client,
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


def run_serve(args: argparse.Namespace) -> None:
    import uvicorn

    from .app import create_app

    config = serve_config(args)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    where = config.database_url().split("@")[-1]  # never the user and password
    print(f"cardtable table: open http://{args.host}:{args.port}/ (database: {where})", flush=True)
    sys.stdout.flush()
    # Rooms, states and views are many small long-lived objects, so Python's default
    # collection thresholds run slow full collections often; rarer collections cut
    # the 500-room p99 move latency from about 170 ms to about 70 ms (operations.md).
    gc.set_threshold(50_000, 20, 1_000)
    uvicorn.run(create_app(config), **uvicorn_options(args, config))
