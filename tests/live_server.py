"""A real table server on a free loopback port, in a thread, for end-to-end tests."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextlib.contextmanager
def running_server(
    data_dir: Path, *, port: int | None = None, version: str | None = None, **settings: Any
) -> Iterator[str]:
    """Serve the app with test-friendly settings (no bot pause, no rate limit); yield its URL.
    ``port``: a given one (a server started again at the same address); ``version``: the
    web table's assets under another version than their digest (a new deployment)."""
    import uvicorn

    from cardtable.online import create_app
    from cardtable.server.app import create_app as create_server_app
    from cardtable.server.ops.config import ServerConfig
    from cardtable.web import web_routes

    options: dict[str, Any] = {
        "bot_pause": 0.0,
        "grace_seconds": 600.0,
        "rate_per_second": 1000.0,
        "rate_burst": 1000,
        "session_reads_burst": 1000,
        "joins_burst": 1000,
        "public_seats_per_address": 1000,
        "sweep_seconds": 3600.0,
        # The workers run niced (WORKER_NICENESS) and the suite keeps both cores busy with
        # browsers: a coach's verdict that takes a second alone took over 20 s there once.
        # No test of this server is about the timeout (test_bot_workers sets its own).
        "bot_timeout": 120.0,
    }
    options.update(settings)
    config = ServerConfig(data_dir=data_dir, **options)
    app = (
        create_app(config)
        if version is None
        else create_server_app(config, front=web_routes(version))
    )
    port = port or free_port()
    server = uvicorn.Server(
        uvicorn.Config(
            app,
            host="127.0.0.1",
            port=port,
            log_level="warning",
            lifespan="on",
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the table server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
