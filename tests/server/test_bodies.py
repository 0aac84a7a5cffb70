"""A request body is read into its strict model within its limit: a body over the limit is
refused by its ``Content-Length`` before a byte is read, and a chunked one (no length) as
soon as its chunks pass the limit, its rest never read (issue 47, finding 13)."""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest
from starlette.requests import Request
from starlette.types import Message

from cardtable.server.app import create_app
from cardtable.server.edges.bodies import StrictModel, read_body
from cardtable.server.errors import ApiError

from .helpers import config

CHUNK = 1000


class Moves(StrictModel):
    moves: list[int]


class Chunks:
    """An ASGI ``receive`` of a body sent in chunks of :data:`CHUNK` bytes (``total`` in
    all), counting the chunks the server asked for."""

    def __init__(self, total: int, first: bytes = b"") -> None:
        self.body = first + b" " * (total - len(first))
        self.taken = 0

    async def __call__(self) -> Message:
        start = self.taken * CHUNK
        self.taken += 1
        chunk = self.body[start : start + CHUNK]
        return {"type": "http.request", "body": chunk, "more_body": start + CHUNK < len(self.body)}


def _scope(path: str, headers: dict[str, str]) -> dict[str, Any]:
    return {
        "type": "http",
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "server": ("testserver", 80),
        "client": ("127.0.0.1", 50000),
        "headers": [(k.lower().encode(), v.encode()) for k, v in headers.items()],
    }


def _read(chunks: Chunks, limit: int, headers: dict[str, str] | None = None) -> Moves:
    request = Request(_scope("/", headers or {}), chunks)
    return anyio.run(read_body, request, Moves, limit)


def test_a_chunked_body_over_the_limit_is_refused_as_soon_as_it_passes_it():
    chunks = Chunks(1_000_000)  # a megabyte, no Content-Length
    with pytest.raises(ApiError) as refused:
        _read(chunks, limit=4096)
    assert (refused.value.code, refused.value.status) == ("payload_too_large", 413)
    assert chunks.taken == 5  # 5,000 bytes read of the 1,000,000: the rest never was


def test_a_declared_length_over_the_limit_is_refused_before_a_byte_is_read():
    chunks = Chunks(5000)
    for length in ("4097", "9" * 40):
        with pytest.raises(ApiError) as refused:
            _read(chunks, limit=4096, headers={"Content-Length": length})
        assert refused.value.code == "payload_too_large"
    assert chunks.taken == 0


def test_a_body_of_exactly_the_limit_is_read_into_its_model():
    first = b'{"moves": [1, 2]}'
    assert _read(Chunks(4096, first), limit=4096).moves == [1, 2]
    with pytest.raises(ApiError) as refused:
        _read(Chunks(4096, b'{"moves": ["1"]}'), limit=4096)  # strict: no coercion
    assert refused.value.code == "bad_request"


def test_a_route_answers_a_chunked_body_over_its_limit_with_413(tmp_path):
    """Through the whole app (its guard, the route, the one exception handler): a lesson
    step's body holds 1,024 bytes at most."""
    app = create_app(config(tmp_path))
    chunks = Chunks(1_000_000, b'{"moves": [')
    sent: list[Message] = []

    async def send(message: Message) -> None:
        sent.append(message)

    scope = _scope(
        "/api/lessons/skyjo/steps/0",
        {"Host": "testserver", "Content-Type": "application/json"},
    )
    anyio.run(app, scope, chunks, send)
    assert sent[0]["status"] == 413
    assert json.loads(sent[1]["body"])["error"] == "payload_too_large"
    assert chunks.taken == 2
