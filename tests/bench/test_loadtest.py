"""`cardtable loadtest` against a spawned server: it counts moves and sees no error.

Not a timed pass/fail: the figures of a real run are in docs/operations.md.
"""

from __future__ import annotations

import asyncio
import gc
import json
import re
import threading
import time
import urllib.error
import urllib.request
from typing import Any

import pytest

from cardtable.bench.loadtest import run_loadtest
from cardtable.bench.loadtest_options import LoadOptions
from cardtable.bench.loadtest_report import format_report
from cardtable.cli import main

from ..server.test_restart import Server
from .clients import CLIENTS, assert_two_rooms_played_cleanly


def test_loadtest_plays_two_rooms_without_errors(tmp_path, capsys):
    out = tmp_path / "report.json"
    argv = [
        "loadtest", "--spawn", "--rooms", "2", "--seats", "4", "--duration", "3",
        "--rate", "4", "--json", str(out),
    ]  # fmt: skip
    assert main(argv) == 0
    report = json.loads(out.read_text())
    assert_two_rooms_played_cleanly(report)
    assert report["cpu_s_during_play"]["server"] > 0
    printed = capsys.readouterr().out
    assert "latency (mover)" in printed and "lost moves" in printed


@pytest.mark.parametrize("client", CLIENTS)
def test_loadtest_rematches_finished_games(tmp_path, client):
    # A one-round two-player Skyjo game of random moves takes 54 to 210 moves (seeds 0
    # to 199); 16 moves a second for 15 seconds (8 per seat, under the server's rate
    # limit of 10 per connection) plays at least one to the end, then a rematch.
    out = tmp_path / "report.json"
    argv = [
        "loadtest", *client, "--spawn", "--rooms", "1", "--seats", "2", "--duration", "15",
        "--rate", "16", "--options", '{"end_score": 1}', "--no-compression",
        "--json", str(out),
    ]  # fmt: skip
    assert main(argv) == 0
    report = json.loads(out.read_text())
    assert report["moves_acked"] == report["moves_sent"] > 0
    if report["moves_acked"] >= 210:
        assert report["games_finished"] >= 1
    assert report["errors"] == 0, report["error_kinds"]
    assert report["lost_moves"] == 0


def test_a_server_that_refuses_rooms_is_reported_not_fatal(capsys):
    from cardtable.bench.loadtest_server import spawned_server

    with spawned_server(0, ["--rooms-per-client", "1"]) as (base, pid):
        report = main_report(["--url", base, "--server-pid", str(pid), "--rooms", "8"])
    assert report["rooms_ready"] == 1
    assert report["error_kinds"] == {"http_429": 7}
    told = capsys.readouterr().err.splitlines()
    assert len(told) == 6 and "more failures follow" in told[-1]


def main_report(extra):
    import argparse

    from cardtable.bench.loadtest_command import add_loadtest_arguments, run_loadtest_command

    parser = argparse.ArgumentParser()
    add_loadtest_arguments(parser)
    return run_loadtest_command(parser.parse_args(["--duration", "1", "--rate", "2", *extra]))


def test_loadtest_starts_bot_rooms_beside_the_human_rooms(tmp_path, capsys):
    out = tmp_path / "report.json"
    argv = [
        "loadtest", "--spawn", "--rooms", "1", "--seats", "2", "--duration", "4",
        "--bot-rooms", "2", "--bot", "greedy", "--json", str(out),
    ]  # fmt: skip
    assert main(argv) == 0
    report = json.loads(out.read_text())
    assert (report["bot_rooms"], report["bot_rooms_ready"], report["bot"]) == (2, 2, "greedy")
    assert report["bot_moves_during_play"] > 0  # the bots played while the humans did
    assert report["connections"] == 2  # the bot rooms hold no connection
    assert report["errors"] == 0, report["error_kinds"]
    assert re.search(r"^bot rooms +2 of 2 \(greedy\), \d+ bot moves during play$",
                     capsys.readouterr().out, re.MULTILINE)  # fmt: skip


def test_seats_reconnect_through_a_server_restart_and_lose_nothing(tmp_path):
    # The server is killed with SIGKILL mid-run and started again on the same port and
    # data: every seat reconnects with its last version (as the web page does), the
    # rooms play on, and no acknowledged move is missing from the stored logs.
    server = Server(tmp_path / "data")
    server.start()
    try:
        options = LoadOptions(
            url=server.base, rooms=2, seats=2, duration=9.0, rate=4.0, compression=False
        )
        reports: list[dict[str, Any]] = []

        def drive() -> None:
            reports.append(asyncio.run(run_loadtest(options)))

        runner = threading.Thread(target=drive)
        runner.start()
        deadline = time.monotonic() + 60
        while not _moves_committed(server) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _moves_committed(server), "the rooms never started playing"
        server.kill()
        server.start()
        runner.join(timeout=120)
        assert not runner.is_alive()
    finally:
        server.stop()
    (report,) = reports
    assert report["errors"] == 0, report["error_kinds"]
    assert report["lost_moves"] == 0
    assert sum(report["reconnects"].values()) >= 4  # every seat of both rooms
    assert report["moves_acked"] + report["moves_dropped_in_handover"] == report["moves_sent"]
    last_second = max(second["second"] for second in report["timeline"] if second["moves"])
    assert last_second >= 6  # moves were still acknowledged well after the restart
    assert "hand-overs" in format_report(report)


def _moves_committed(server: Server) -> bool:
    try:
        metrics = urllib.request.urlopen(server.base + "/metrics", timeout=2).read().decode()
    except (OSError, urllib.error.URLError):
        return False
    return any(
        line.startswith('cardtable_moves_total{by="human"} ') and float(line.split()[1]) >= 8
        for line in metrics.splitlines()
    )


def test_the_players_collector_leaves_the_setup_alone_during_play_only():
    # The players' own garbage collections are in the latencies they measure: what the
    # setup made is frozen for the play (no collection scans it) and given back after.
    from cardtable.bench.loadtest_server import spawned_server

    assert gc.get_freeze_count() == 0
    frozen_at_play: list[int] = []
    with spawned_server(2) as (base, pid):
        options = LoadOptions(url=base, server_pid=pid, rooms=2, seats=2, duration=1.0, rate=2.0)
        report = asyncio.run(
            run_loadtest(options, lambda: frozen_at_play.append(gc.get_freeze_count()))
        )
    assert frozen_at_play and frozen_at_play[0] > 0
    assert gc.get_freeze_count() == 0
    assert report["errors"] == 0, report["error_kinds"]
    assert report["moves_acked"] > 0
    assert report["play_started_unix"] > 0
