"""The server under load, from outside: its HTTP API, its metrics, and a throwaway
``cardtable serve`` started for the test (``--spawn``)."""

from __future__ import annotations

import contextlib
import json
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def get_json(url: str, timeout: float = 10.0) -> Any:
    with urllib.request.urlopen(url, timeout=timeout) as response:
        return json.load(response)


def post_json(url: str, body: dict[str, Any], timeout: float = 30.0) -> Any:
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=timeout) as response:
        return json.load(response)


def bot_moves(url: str) -> int | None:
    """Bot moves the server committed so far (``/metrics``), None if unreadable."""
    try:
        with urllib.request.urlopen(f"{url.rstrip('/')}/metrics", timeout=10) as response:
            for line in response.read().decode().splitlines():
                if line.startswith('cardtable_moves_total{by="bot"} '):
                    return int(float(line.split()[1]))
    except (OSError, ValueError):
        return None
    return None


@contextlib.contextmanager
def spawned_server(rooms: int, extra: list[str] | None = None) -> Iterator[tuple[str, int]]:
    """A ``cardtable serve`` subprocess on a free loopback port with a temporary SQLite file.

    Yields its base URL and process id; stops it (SIGTERM, then SIGKILL) and removes the
    folder afterwards.
    """
    folder = Path(tempfile.mkdtemp(prefix="cardtable-loadtest-"))
    port = free_port()
    # Every load-test socket comes from 127.0.0.1: up to 8 seats a room, and spectators.
    sockets = str(8 * rooms + 100)
    command = [
        sys.executable, "-m", "cardtable.cli", "serve", "--port", str(port),
        "--data", str(folder), "--rooms-per-client", str(rooms + 10),
        "--sockets-per-address", sockets, "--max-sockets", sockets,
        "--joins-per-address", sockets, *(extra or []),
    ]  # fmt: skip
    log = (folder / "server.log").open("wb")
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            with contextlib.suppress(OSError, ValueError):
                if get_json(f"{base}/health", timeout=1).get("status") == "ok":
                    break
            if process.poll() is not None or time.monotonic() > deadline:
                log.flush()
                tail = (folder / "server.log").read_text(errors="replace")[-2000:]
                raise RuntimeError(f"the spawned server did not start:\n{tail}")
            time.sleep(0.1)
        yield base, process.pid
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        log.close()
        shutil.rmtree(folder, ignore_errors=True)
