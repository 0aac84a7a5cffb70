"""``GET /metrics``: the Prometheus text format, with counts that follow the table."""

from __future__ import annotations

import re

from .helpers import Client, client, create_room, is_move_event, join, start

SAMPLE = re.compile(r"^([a-z_]+)(\{[^}]*\})? (-?[0-9.e+]+|[+-]Inf|NaN)$")


def _scrape(http) -> dict[str, float]:
    response = http.get("/metrics")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/plain; version=0.0.4")
    samples = {}
    for line in response.text.splitlines():
        if line.startswith("#"):
            assert re.match(r"^# (HELP|TYPE) [a-z_]+ ", line), line
            continue
        match = SAMPLE.match(line)
        assert match, line
        samples[match.group(1) + (match.group(2) or "")] = float(match.group(3))
    return samples


def test_metrics_count_rooms_sockets_and_moves(tmp_path):
    with client(tmp_path) as http:
        before = _scrape(http)
        assert before['cardtable_rooms{status="lobby"}'] == 0
        assert before["cardtable_connections"] == 0
        assert before["cardtable_move_seconds_count"] == 0
        created = create_room(http, "skyjo", {"players": 2}, name="Ann")
        code = created["code"]
        ben = join(http, code, "Ben")
        with (
            http.websocket_connect(f"/ws/{code}") as wa,
            http.websocket_connect(f"/ws/{code}") as wb,
            http.websocket_connect(f"/ws/{code}") as ws,
        ):
            ann, bob, watcher = Client(wa, created["token"]), Client(wb, ben["token"]), Client(ws)
            for c in (ann, bob, watcher):
                c.hello()
            start(ann, created["host_token"])
            for c in (ann, bob):
                c.until(lambda m: m["type"] == "event" and m["kind"] == "start")
            moves = 0
            for _ in range(3):
                mover = ann if ann.my_turn() else bob
                mover.move(mover.view["legal_actions"][0])
                for c in (ann, bob):
                    c.until(is_move_event)
                moves += 1
            during = _scrape(http)
        after = _scrape(http)
    assert during['cardtable_rooms{status="playing"}'] == 1
    assert during["cardtable_connections"] == 3 and during["cardtable_player_connections"] == 2
    assert during['cardtable_moves_total{by="human"}'] == moves
    assert during["cardtable_move_seconds_count"] == moves
    assert during['cardtable_move_seconds_bucket{le="+Inf"}'] == moves
    assert during["cardtable_move_seconds_sum"] > 0
    assert during["cardtable_bot_queue_depth"] == 0
    assert during["cardtable_db_deadlocks_total"] == during["cardtable_db_lock_waits_total"] == 0
    assert after["cardtable_connections"] == 0


def test_the_standard_process_and_collector_metrics_come_with_ours(tmp_path):
    with client(tmp_path) as http:
        samples = _scrape(http)
    assert samples["process_resident_memory_bytes"] > 0
    assert samples["process_open_fds"] > 0
    assert samples['python_gc_collections_total{generation="0"}'] >= 0
    assert any(name.startswith("python_info{") for name in samples)


def test_two_tables_of_one_process_count_apart(tmp_path):
    """Each table has its own registry: one's moves never show in the other's scrape."""
    with client(tmp_path / "a") as first, client(tmp_path / "b") as second:
        first.app.state.table.metrics.moves["human"] += 2
        assert _scrape(first)['cardtable_moves_total{by="human"}'] == 2
        assert _scrape(second)['cardtable_moves_total{by="human"}'] == 0


def test_garbage_collections_are_timed_while_the_table_is_open(tmp_path):
    import gc

    with client(tmp_path) as http:
        before = _scrape(http)
        gc.collect()  # a full collection (generation 2)
        gc.collect(0)
        after = _scrape(http)
        table = http.app.state.table
        hook = table.metrics.gc._hook
        assert hook in gc.callbacks
    assert hook not in gc.callbacks  # closed: the process-wide hook is removed
    assert after['cardtable_gc_collections_total{generation="2"}'] >= (
        before['cardtable_gc_collections_total{generation="2"}'] + 1
    )
    assert (
        after["cardtable_gc_pause_seconds_count"] >= before["cardtable_gc_pause_seconds_count"] + 2
    )
    assert after["cardtable_gc_pause_seconds_sum"] > before["cardtable_gc_pause_seconds_sum"]
