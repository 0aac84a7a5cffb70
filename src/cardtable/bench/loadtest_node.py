"""``cardtable loadtest --client node``: the same load test played by the Node.js client
of ``tools/loadclient`` instead of this process.

The Python players cost about as much CPU a move as the server they measure (0.3 to 0.5
ms), so one core of them cannot drive a node of 2,000 rooms; the Node client speaks the
same protocol for about half of that (docs/performance.md). It runs as a child process that
writes the report's JSON, with the Python client's keys, which this command then prints
as usual. It lives in the source tree, not in the installed package: it needs
``node`` and its one package (``npm ci --prefix tools/loadclient``)."""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from .loadtest_options import LoadOptions

#: The client's script in a source checkout (src/cardtable/bench -> the repository).
NODE_SCRIPT = Path(__file__).resolve().parents[3] / "tools" / "loadclient" / "loadtest.mjs"


class NodeClientError(RuntimeError):
    """The Node client cannot run here; the message says what to install."""


def node_client_problem(script: Path = NODE_SCRIPT) -> str | None:
    """Why the Node client cannot run on this machine, or None when it can."""
    if shutil.which("node") is None:
        return "`node` is not on the PATH (Node.js 18.3 or newer)"
    if not script.is_file():
        return f"{script} is missing (it is in the source checkout, not in the package)"
    if not (script.parent / "node_modules" / "ws" / "package.json").is_file():
        return f"its package is not installed: npm ci --prefix {script.parent}"
    return None


def node_arguments(options: LoadOptions, report: Path, script: Path = NODE_SCRIPT) -> list[str]:
    """The command line that runs ``options`` with the Node client, its JSON to ``report``."""
    arguments = [
        "node", str(script), "--url", options.url, "--rooms", str(options.rooms),
        "--seats", str(options.seats), "--duration", str(options.duration),
        "--rate", str(options.rate), "--game", options.game,
        "--options", json.dumps(options.options), "--seed", str(options.seed),
        "--json", str(report), "--quiet",
    ]  # fmt: skip
    if options.server_pid is not None:
        arguments += ["--server-pid", str(options.server_pid)]
    if not options.compression:
        arguments.append("--no-compression")
    return arguments


def check_node_client(options: LoadOptions, script: Path = NODE_SCRIPT) -> None:
    """Raise :class:`NodeClientError` when the Node client cannot play ``options``
    here (checked before a server is spawned for it)."""
    problem = node_client_problem(script)
    if problem is not None:
        raise NodeClientError(problem)
    if options.bot_rooms:
        raise NodeClientError("--bot-rooms is played by the Python client only")


def run_node_loadtest(options: LoadOptions, script: Path = NODE_SCRIPT) -> dict[str, Any]:
    """Play the load test with the Node client; its report (the Python client's keys).
    Its failures as they happen go to this process's stderr."""
    check_node_client(options, script)
    with tempfile.TemporaryDirectory(prefix="cardtable-loadclient-") as folder:
        report = Path(folder) / "report.json"
        finished = subprocess.run(node_arguments(options, report, script), check=False)
        if finished.returncode != 0:
            raise NodeClientError(f"the Node client exited with status {finished.returncode}")
        loaded: dict[str, Any] = json.loads(report.read_text(encoding="utf-8"))
    return loaded
