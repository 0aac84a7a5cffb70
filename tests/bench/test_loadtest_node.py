"""`cardtable loadtest --client node`: the Node.js client of tools/loadclient against a
spawned server plays moves and sees no error. Skipped, with the reason, where `node` or
the client's package is missing (`npm ci --prefix tools/loadclient`; .ci/run installs
it): the tests download nothing. Not a timed pass/fail: the figures of real runs are in
docs/performance.md."""

from __future__ import annotations

import json
import shutil

import pytest

from cardtable.bench.loadtest_node import (
    NODE_SCRIPT,
    NodeClientError,
    node_client_problem,
    run_node_loadtest,
)
from cardtable.bench.loadtest_options import LoadOptions
from cardtable.cli import main

from .clients import PROBLEM, assert_two_rooms_played_cleanly, needs_node


@needs_node
def test_node_client_plays_two_rooms_without_errors(tmp_path, capsys):
    out = tmp_path / "report.json"
    argv = [
        "loadtest", "--client", "node", "--spawn", "--rooms", "2", "--seats", "4",
        "--duration", "3", "--rate", "4", "--json", str(out),
    ]  # fmt: skip
    assert main(argv) == 0
    report = json.loads(out.read_text())
    assert report["client"].startswith("node v")
    assert_two_rooms_played_cleanly(report)
    assert report["server_cpu_ms_per_move"] > 0
    printed = capsys.readouterr().out
    assert "latency (mover)" in printed and "server CPU per move" in printed
    assert printed.startswith("client ") and "node v" in printed.splitlines()[0]


@needs_node
def test_node_client_reports_refused_rooms_and_plays_the_others(tmp_path):
    from cardtable.bench.loadtest_server import spawned_server

    out = tmp_path / "report.json"
    with spawned_server(0, ["--rooms-per-client", "1"]) as (base, pid):
        argv = [
            "loadtest", "--client", "node", "--url", base, "--server-pid", str(pid),
            "--rooms", "3", "--seats", "2", "--duration", "1", "--rate", "2",
            "--json", str(out),
        ]  # fmt: skip
        assert main(argv) == 0
    report = json.loads(out.read_text())
    assert report["rooms_ready"] == 1 and report["connections"] == 2
    assert report["error_kinds"] == {"http_429": 2}
    assert report["moves_acked"] == report["moves_sent"] > 0


def test_without_node_or_its_package_the_client_says_what_to_install(tmp_path, monkeypatch):
    script = tmp_path / "loadtest.mjs"
    script.write_text("")
    monkeypatch.setenv("PATH", str(tmp_path))
    assert "`node` is not on the PATH" in str(node_client_problem(script))
    (tmp_path / "node").write_text("#!/bin/sh\n")
    (tmp_path / "node").chmod(0o755)
    assert f"npm ci --prefix {tmp_path}" in str(node_client_problem(script))
    assert "is missing" in str(node_client_problem(tmp_path / "elsewhere.mjs"))


def test_bot_rooms_are_refused_before_anything_runs(capsys):
    if PROBLEM is not None:
        pytest.skip(f"refused for another reason here: {PROBLEM}")
    argv = ["loadtest", "--client", "node", "--url", "http://127.0.0.1:9", "--bot-rooms", "1"]
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    assert "--bot-rooms is played by the Python client only" in capsys.readouterr().err


def test_the_script_is_where_the_command_looks_for_it():
    assert NODE_SCRIPT.is_file()
    assert (NODE_SCRIPT.parent / "package-lock.json").is_file()


def test_a_node_client_that_fails_is_an_error_not_a_traceback(tmp_path):
    """A client that exits with a failure (here a stand-in script that crashes) is a
    ``NodeClientError``, which the command prints as one ``error:`` line."""
    if shutil.which("node") is None:
        pytest.skip("`node` is not on the PATH")
    script = tmp_path / "loadtest.mjs"
    script.write_text('throw new Error("broken");\n')
    (tmp_path / "node_modules" / "ws").mkdir(parents=True)
    (tmp_path / "node_modules" / "ws" / "package.json").write_text("{}")
    with pytest.raises(NodeClientError, match="the Node client exited with status 1"):
        run_node_loadtest(LoadOptions(rooms=1, duration=1), script)
