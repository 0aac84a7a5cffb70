"""CPU time to encode one table-server message holding a seat's view, json and orjson.

    python -m lab message_encoding --players 4 --positions 40 --seconds 2

The server encodes, for every move, one message per seat (each with its own view), so
this is the encoding part of a move's cost (docs/performance.md, The table server).
Both encoders must write the same text: the tool checks it on every message.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from cardtable.games import get_game


def _messages(name: str, players: int, positions: int) -> list[dict[str, Any]]:
    game = get_game(name)
    state = game.new_state(game.rules_from_json({"players": players}), 3)
    rng = random.Random(1)
    out = []
    for _ in range(positions):
        if state.is_over:
            break
        for seat in range(players):
            out.append({"type": "event", "version": 9, "kind": "move", "view": state.view(seat)})
        state.apply_action(rng.choice(state.legal_actions()))
    return out


def _cpu_per_call(
    encode: Callable[[Any], str], batch: list[dict[str, Any]], seconds: float
) -> float:
    start = time.process_time()
    calls = 0
    while True:
        for message in batch:
            encode(message)
        calls += len(batch)
        spent = time.process_time() - start
        if spent >= seconds:
            return spent / calls


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU seconds per timing")
    args = parser.parse_args(argv)
    import orjson

    def standard(data: Any) -> str:
        return json.dumps(data, separators=(",", ":"), ensure_ascii=False)

    def fast(data: Any) -> str:
        text: str = orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS).decode()
        return text

    for name in ("skyjo", "skipbo"):
        batch = _messages(name, args.players, args.positions)
        assert all(standard(m) == fast(m) for m in batch), "the encoders disagree"
        size = sum(len(standard(m)) for m in batch) / len(batch)
        timings = {
            label: _cpu_per_call(encode, batch, args.seconds)
            for label, encode in (("json", standard), ("orjson", fast))
        }
        print(
            f"{name}, {args.players} players: {len(batch)} messages of {size:.0f} bytes; "
            f"json {timings['json'] * 1e6:.1f} us CPU, orjson {timings['orjson'] * 1e6:.1f} us "
            f"({timings['json'] / timings['orjson']:.1f} times faster)"
        )
    return 0
