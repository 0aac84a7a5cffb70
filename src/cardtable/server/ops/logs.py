"""The server's log lines: plain text or one JSON object a line (``--log-format``).

Every record about a room carries its code and the node's id as fields (``room``,
``node``; see :func:`room_fields`), so a log search finds a room's whole story across
nodes. Only the fields named in :data:`FIELDS` are written: a record can never carry a
state, a view or a hand into the log, whatever a caller passes.
"""

from __future__ import annotations

import json
import logging
import time
from typing import Any, Protocol

#: The fields a record may add to its message, in the order they are written.
FIELDS = (
    "room", "node", "game", "game_no", "version", "seat", "by", "move", "epoch",
    "rooms", "status", "bot", "stand_in",
)  # fmt: skip
FORMATS = ("text", "json")


class _Room(Protocol):
    @property
    def code(self) -> str: ...


def room_fields(room: _Room, node: str, **more: Any) -> dict[str, Any]:
    """The ``extra`` of a log record about ``room`` on node ``node``."""
    return {"room": room.code, "node": node, **more}


def _fields(record: logging.LogRecord) -> dict[str, Any]:
    return {key: record.__dict__[key] for key in FIELDS if key in record.__dict__}


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time (UTC, ISO 8601), level, logger, message, fields."""

    def format(self, record: logging.LogRecord) -> str:
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
        line: dict[str, Any] = {
            "time": f"{stamp}.{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
            **_fields(record),
        }
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False, separators=(",", ":"), default=str)


class TextFormatter(logging.Formatter):
    """``time logger: message`` and the fields as ``key=value``."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        text = super().format(record)
        fields = _fields(record)
        if not fields:
            return text
        pairs = " ".join(
            f"{key}={json.dumps(value, separators=(',', ':'), default=str)}"
            if not isinstance(value, str) or not value or " " in value or '"' in value
            else f"{key}={value}"
            for key, value in fields.items()
        )
        head, newline, rest = text.partition("\n")  # a traceback stays below
        return f"{head} {pairs}{newline}{rest}"


class NodeFilter(logging.Filter):
    """Stamps every record of the server with the node's id (when it has none)."""

    def __init__(self, node: str) -> None:
        super().__init__()
        self.node = node

    def filter(self, record: logging.LogRecord) -> bool:
        if "node" not in record.__dict__:
            record.node = self.node
        return True


def configure(log_format: str, node: str, level: int = logging.INFO) -> logging.Handler:
    """Send the log to stderr in ``log_format`` (``text`` or ``json``), every line
    stamped with ``node``; returns the handler."""
    if log_format not in FORMATS:
        raise ValueError(f"the log format is one of {', '.join(FORMATS)}, not {log_format!r}")
    handler = logging.StreamHandler()
    handler.setFormatter(JsonFormatter() if log_format == "json" else TextFormatter())
    handler.addFilter(NodeFilter(node))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
    return handler
