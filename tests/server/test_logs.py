"""Structured logs: every record about a room carries the room's code and the node's id,
as fields of a JSON line (``--log-format json``) or ``key=value`` text; a move's record
names the move as chosen and never what is hidden (the seed that deals the cards, the
tokens)."""

from __future__ import annotations

import asyncio
import json
import logging

import pytest

from cardtable.server.ops.config import ServerConfig
from cardtable.server.ops.logs import FIELDS, JsonFormatter, TextFormatter, configure
from cardtable.server.rooms.protocol import SeatSpec
from cardtable.server.rooms.table import Table
from cardtable.statuses import SeatKind

from .test_command import _parse

BASE_KEYS = {"time", "level", "logger", "message"}


def _play(tmp_path) -> tuple[str, dict[str, str], int]:
    """A Skyjo game, a human against a bot, played to its end in process."""

    async def scenario() -> tuple[str, dict[str, str], int]:
        table = Table(
            ServerConfig(
                data_dir=tmp_path, node_id="node-7", bot_pause=0.0, bot_processes=0,
                grace_seconds=600.0, sweep_seconds=3600.0,
            )
        )  # fmt: skip
        await table.open()
        try:
            specs = [SeatSpec(kind=SeatKind.HUMAN), SeatSpec(kind=SeatKind.BOT, bot="greedy")]
            created = await table.create_room(
                "skyjo", {"players": 2, "end_score": 10}, specs, "Ann", "198.51.100.1"
            )
            code = created["code"]
            room = table.rooms[code]
            await room.lobby.start(created["host_token"])
            seed = room.seed
            assert seed is not None
            for _ in range(2000):
                state = room.state
                assert state is not None
                if state.is_over:
                    break
                if state.current_player == 0:
                    await room.play(
                        0, created["token"], room.version, state.legal_actions()[0], None
                    )
                else:
                    await asyncio.sleep(0.01)  # the bot's turn
            assert room.state is not None and room.state.is_over
            secrets = {"token": created["token"], "host": created["host_token"]}
            return code, secrets, seed
        finally:
            await table.close()

    return asyncio.run(scenario())


def test_a_move_is_logged_with_its_room_and_node_and_nothing_hidden(tmp_path, caplog):
    caplog.set_level(logging.DEBUG, logger="cardtable.server")
    code, secrets, seed = _play(tmp_path)
    records = [r for r in caplog.records if r.name == "cardtable.server"]
    moves = [r for r in records if r.getMessage() == f"room {code}: move"]
    assert {r.by for r in moves} == {"human", "bot"}  # type: ignore[attr-defined]
    versions = [r.version for r in moves]  # type: ignore[attr-defined]
    assert versions == sorted(versions) and len(versions) == len(set(versions))
    formatter = JsonFormatter()
    for record in moves:
        line = json.loads(formatter.format(record))
        assert line["room"] == code and line["node"] == "node-7"
        assert set(line) == BASE_KEYS | {"room", "node", "game_no", "version", "seat", "by", "move"}
        assert line["level"] == "debug" and line["seat"] in (0, 1)
        # The move as chosen: a type and positions, never a card's value.
        assert set(line["move"]) <= {"type", "pos", "source", "target", "card", "pile"}
    # Every record about the room names it and the node; the story is all there.
    about = [r for r in records if f"room {code}" in r.getMessage()]
    for record in about:
        assert record.room == code and record.node == "node-7"  # type: ignore[attr-defined]
    said = [r.getMessage().split(": ", 1)[1] for r in about if r not in moves]
    assert said[:2] == ["created", "game 1 started"] and "game 1 over" in said
    # Nothing hidden anywhere in the log: the seed deals every card, the tokens hold seats.
    text = TextFormatter()
    for record in records:
        for shown in (formatter.format(record), text.format(record)):
            assert str(seed) not in shown
            assert all(secret not in shown for secret in secrets.values())


def test_text_lines_carry_the_fields_as_key_value():
    record = logging.LogRecord("cardtable.server", logging.INFO, __file__, 1, "room %s: created",
                               ("ABCDEF",), None)  # fmt: skip
    record.room, record.node, record.game = "ABCDEF", "cards1-42-9f3a1c", "skyjo"
    record.hand = [12, 12, 12]  # not a field: never written
    line = TextFormatter().format(record)
    assert line.endswith("cardtable.server: room ABCDEF: created room=ABCDEF "
                         "node=cards1-42-9f3a1c game=skyjo")  # fmt: skip
    assert "hand" not in json.loads(JsonFormatter().format(record))
    assert "12" not in line.split("created", 1)[1]
    assert "hand" not in FIELDS


def test_serve_writes_json_lines_stamped_with_the_node(capsys):
    args = _parse("--log-format", "json")
    assert args.log_format == "json" and args.log_level == "info"
    handler = configure(args.log_format, "node-9")
    try:
        logging.getLogger("cardtable.server").info("node up")
        logging.getLogger("cardtable.server").debug("not shown at info")
    finally:
        logging.getLogger().removeHandler(handler)
    (line,) = capsys.readouterr().err.splitlines()
    assert json.loads(line) | {"time": None} == {
        "time": None, "level": "info", "logger": "cardtable.server", "message": "node up",
        "node": "node-9",
    }  # fmt: skip
    with pytest.raises(ValueError, match="text, json"):
        configure("xml", "node-9")
    with pytest.raises(SystemExit):
        _parse("--log-format", "xml")
