"""Real ``cardtable serve`` nodes on one PostgreSQL behind a real nginx running the
shipped configuration (deploy/nginx), for the cluster tests (here and in tests/web)."""

from __future__ import annotations

import contextlib
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ..live_server import free_port
from .postgres import REQUIRED

DEPLOY = Path(__file__).resolve().parents[2] / "deploy" / "nginx"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
LEASE = 2.0
STARTUP = 30.0


def nginx_or_skip() -> str:
    if not os.path.exists(NGINX):
        if REQUIRED or os.environ.get("CARDTABLE_NGINX_TESTS") == "required":
            pytest.fail("nginx is not installed (apt-get install nginx)", pytrace=False)
        pytest.skip("nginx is not installed")
    return NGINX


def health(port: int) -> dict[str, Any] | None:
    """A node's /health answer (whatever its status), or None when it does not answer."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as response:
            answer: dict[str, Any] = json.load(response)
            return answer
    except urllib.error.HTTPError as error:
        with contextlib.suppress(ValueError):
            failed: dict[str, Any] = json.load(error)
            return failed
        return None
    except (OSError, ValueError):
        return None


class Node:
    """One ``cardtable serve`` process (in a session of its own, with its bot workers)."""

    def __init__(self, url: str, name: str, port: int, lease: float = LEASE, *extra: str) -> None:
        self.url, self.name, self.port, self.lease = url, name, port, lease
        self.extra = list(extra)
        self.process: subprocess.Popen[bytes] | None = None
        self.generation = 0
        #: Where each process writes its output (``NAME-GENERATION.log``), if anywhere.
        self.log_dir: Path | None = None

    def start(self) -> None:
        self.generation += 1
        # The tests' players are programs that move as soon as they may, faster than the
        # per-connection limit made for people (see test_restart.py), so it is lifted; and
        # the routing test looks up codes no room has, so the look-up limit is too.
        command = [
            sys.executable, "-m", "cardtable.cli", "serve", "--db", self.url,
            "--port", str(self.port), "--node-id", self.node_id(),
            "--lease-seconds", str(self.lease),
            "--bot-pause", "0.02", "--grace", "600", "--bot-processes", "1",
            "--message-rate", "1000", "--message-burst", "1000",
            "--lookup-burst", "1000", "--lookup-cluster-misses", "100000", *self.extra,
        ]  # fmt: skip
        output: Any = subprocess.DEVNULL
        if self.log_dir is not None:
            output = open(self.log_dir / f"{self.node_id()}.log", "wb")  # noqa: SIM115
        try:
            self.process = subprocess.Popen(
                command, stdout=output, stderr=subprocess.STDOUT, start_new_session=True
            )
        finally:
            if output is not subprocess.DEVNULL:
                output.close()
        deadline = time.monotonic() + STARTUP
        while time.monotonic() < deadline:
            answer = health(self.port)
            if answer is not None and answer["status"] == "ok":
                return
            assert self.process.poll() is None, "node exited"
            time.sleep(0.05)
        raise AssertionError("node did not start")

    def node_id(self) -> str:
        """A restarted process is a new node: its id carries the generation."""
        return f"{self.name}-{self.generation}"

    def signal(self, number: int) -> None:
        assert self.process is not None
        os.killpg(self.process.pid, number)

    def kill(self) -> None:
        self.signal(signal.SIGKILL)  # the node and its bot workers
        assert self.process is not None
        self.process.wait()

    def terminate(self, timeout: float = 90.0) -> None:
        """SIGTERM to the node alone (it stops its workers and releases its leases)."""
        assert self.process is not None
        self.process.terminate()
        try:
            self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill()
            raise AssertionError(f"the node did not stop on SIGTERM:\n{self.log_tail()}") from None

    def log_tail(self, lines: int = 30) -> str:
        if self.log_dir is None:
            return "(no log)"
        path = self.log_dir / f"{self.node_id()}.log"
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.kill()

    def drain(self, timeout: float = 60.0) -> dict[str, Any]:
        """SIGUSR1 to the node (not its workers): it hands its rooms over; returns its
        /health once it says ``draining`` and holds no room."""
        assert self.process is not None
        self.process.send_signal(signal.SIGUSR1)
        deadline = time.monotonic() + timeout
        while True:
            answer = health(self.port)
            if answer is not None and answer["status"] == "draining" and answer["rooms"] == 0:
                return answer
            assert time.monotonic() < deadline, f"the node did not drain: {answer}"
            time.sleep(0.1)

    def restart(self) -> None:
        """A rolling upgrade's step: drain, stop with SIGTERM, start again."""
        self.drain()
        self.terminate()
        self.start()


def nginx_conf(root: Path, port: int, nodes: list[Node], connections: int = 256) -> Path:
    """An nginx configuration around the shipped files, with the upstream of ``nodes``
    and room for ``connections`` connections (each proxied socket takes two).
    Every answer says which node served it (``X-Test-Upstream``, for the tests only)."""
    servers = "\n".join(
        f"        server 127.0.0.1:{node.port} max_fails=1 fail_timeout=2s;" for node in nodes
    )
    conf = root / "nginx.conf"
    conf.write_text(
        f"""
worker_processes 1;
pid {root}/nginx.pid;
error_log {root}/error.log warn;
events {{ worker_connections {connections}; }}
worker_rlimit_nofile {connections * 2 + 64};
http {{
    access_log off;
    client_body_temp_path {root}/body;
    proxy_temp_path {root}/proxy;
    fastcgi_temp_path {root}/fastcgi;
    uwsgi_temp_path {root}/uwsgi;
    scgi_temp_path {root}/scgi;
    include {DEPLOY}/cardtable-routing.conf;
    upstream cardtable {{
        hash $cardtable_room consistent;
{servers}
    }}
    server {{
        listen 127.0.0.1:{port};
        add_header X-Test-Upstream $upstream_addr always;
        include {DEPLOY}/cardtable-locations.conf;
    }}
}}
"""
    )
    return conf


class NginxCluster:
    """Nodes ``n1``, ``n2``... on ``postgres_url`` and nginx in front (``base``)."""

    def __init__(self, root: Path, postgres_url: str, count: int = 2, *extra: str) -> None:
        self.root = root
        self.nodes = [
            Node(postgres_url, f"n{i}", free_port(), LEASE, *extra) for i in range(1, count + 1)
        ]
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        self.proxy: subprocess.Popen[bytes] | None = None
        for node in self.nodes:
            node.log_dir = root

    def start(self) -> None:
        nginx = nginx_or_skip()
        for node in self.nodes:
            node.start()
        conf = nginx_conf(self.root, self.port, self.nodes)
        self.proxy = subprocess.Popen(
            [nginx, "-p", str(self.root), "-c", str(conf), "-g", "daemon off;"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + STARTUP
        while True:
            with contextlib.suppress(OSError):
                urllib.request.urlopen(self.base + "/health", timeout=1).close()
                break
            assert self.proxy.poll() is None, (self.root / "error.log").read_text()
            assert time.monotonic() < deadline, "nginx did not start"
            time.sleep(0.05)

    def stop(self) -> None:
        if self.proxy is not None:
            self.proxy.terminate()
            self.proxy.wait(timeout=10)
        for node in self.nodes:
            node.stop()

    def node_at(self, upstream: str) -> Node:
        """The node at nginx's ``$upstream_addr`` (the last one tried)."""
        port = int(upstream.rsplit(",", maxsplit=1)[-1].strip().rsplit(":", 1)[1])
        (node,) = [node for node in self.nodes if node.port == port]
        return node


@contextlib.contextmanager
def nginx_cluster(root: Path, postgres_url: str, *extra: str) -> Iterator[NginxCluster]:
    root.mkdir(parents=True, exist_ok=True)
    cluster = NginxCluster(root, postgres_url, 2, *extra)
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()


def http(base: str, path: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    """A request through nginx, retried while the room is being handed over (503)."""
    deadline = time.monotonic() + 60
    delay = 0.2
    while True:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            base + path, data, {"Content-Type": "application/json"} if data else {}
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                answer: dict[str, Any] = json.load(response)
                return answer
        except urllib.error.HTTPError as error:
            if error.code not in (502, 503, 504) or time.monotonic() > deadline:
                raise
        except OSError:
            if time.monotonic() > deadline:
                raise
        time.sleep(delay * random.uniform(0.5, 1.5))
        delay = min(delay * 2, 2.0)
