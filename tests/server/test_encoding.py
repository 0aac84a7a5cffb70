"""The server's messages are encoded by orjson when it is installed (the server extra
installs it): the same text the standard encoder writes, several times faster."""

from __future__ import annotations

import json
import random

from cardtable.games import get_game
from cardtable.server.connections import JSON_ENCODER, dumps


def _standard(data: object) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


def test_messages_encode_to_the_standard_text():
    assert JSON_ENCODER == "orjson"  # the dev install has the server extra
    rng = random.Random(4)
    for name in ("skyjo", "skipbo"):
        game = get_game(name)
        state = game.new_state(game.rules_from_json({"players": 3}), 11)
        for _ in range(60):
            if state.is_over:
                break
            for seat in (None, 0, 1, 2):
                message = {"type": "sync", "version": 3, "view": state.view(seat)}
                assert dumps(message) == _standard(message)
            state.apply_action(rng.choice(state.legal_actions()))
    odd = {"name": 'Zoë \u2028 \x07 "q" 🂡', "big": 2**70, "neg": -1, "f": 0.5, "n": None}
    assert dumps(odd) == _standard(odd)  # past 64 bits: the standard encoder's text
