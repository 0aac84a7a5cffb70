"""`make run` installs what the table runs, and that is enough to serve it.

A clean virtual environment gets the `run` extra only (what `make run` installs), then
starts `cardtable serve` on a free port and an SQLite file of its own: the page and the
API answer, the terminal client imports, and none of the development set (the trainer,
the test tools, the plotting, the compiled engines) is there.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from .live_server import free_port

ROOT = Path(__file__).resolve().parents[1]
#: Importable in the run set: the server, its bots' numpy, the compiled engines the
#: coach judges with, the terminal client.
RUN_SET = ("cardtable.server.app", "cardtable.online", "numpy", "numba", "textual", "uvicorn")
#: The development set, which `make run` must not install.
DEVELOPMENT_ONLY = (
    "torch",
    "pytest",
    "matplotlib",
    "playwright",
    "mypy",
    "hypothesis",
    "distributed",
)


def _pip_install(venv: Path) -> None:
    python = venv / "bin" / "python"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    done = subprocess.run(
        # No byte-compiling: it would cost most of the install's CPU, for one start.
        [
            str(python),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "--no-compile",
            "-e",
            f"{ROOT}[run]",
        ],
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    if (
        done.returncode != 0
        and "Could not find a version" in done.stderr
        and not os.environ.get("CI")
    ):  # CI reaches the package index: there the install set must install
        pytest.skip(f"no package index reachable: {done.stderr[-300:]}")
    assert done.returncode == 0, done.stderr[-2000:]


def _get(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=5) as answer:
        return answer.status, answer.read().decode("utf-8")


def test_the_run_set_serves_the_table_without_the_development_set(tmp_path):
    venv = tmp_path / "venv"
    _pip_install(venv)
    python = venv / "bin" / "python"
    names = RUN_SET + DEVELOPMENT_ONLY
    probe = (
        "import importlib.util, json; "
        f"print(json.dumps({{n: importlib.util.find_spec(n) is not None for n in {names!r}}}))"
    )
    found = subprocess.run(
        [str(python), "-c", probe], capture_output=True, text=True, check=True, timeout=60
    ).stdout
    present = {name for name in names if f'"{name}": true' in found}
    assert present == set(RUN_SET), found

    port = free_port()
    environment = {k: v for k, v in os.environ.items() if not k.startswith("CARDTABLE_")}
    log = tmp_path / "serve.log"
    with log.open("w") as output:
        server = subprocess.Popen(
            [
                str(venv / "bin" / "cardtable"),
                "serve",
                "--port",
                str(port),
                "--data",
                str(tmp_path / "data"),
            ],
            env=environment,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                status, page = _get(f"http://127.0.0.1:{port}/")
                break
            except (urllib.error.URLError, ConnectionError):
                assert server.poll() is None, log.read_text()
                assert time.monotonic() < deadline, "the table did not answer within 60 s"
                time.sleep(0.2)
        assert status == 200 and "<html" in page.lower()
        status, health = _get(f"http://127.0.0.1:{port}/health")
        assert status == 200 and '"status":"ok"' in health.replace(" ", "")
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert (tmp_path / "data").is_dir()  # the embedded SQLite database, where it was told
