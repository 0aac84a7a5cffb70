"""The shipped turn sound is the one cardtable.web.turn_sound makes: short and quiet."""

from __future__ import annotations

import io
import struct
import wave
from pathlib import Path

from cardtable.web.turn_sound import RATE, VOLUME, main, turn_sound_wav

SHIPPED = Path(__file__).parents[2] / "src" / "cardtable" / "web" / "static" / "sounds" / "turn.wav"


def test_the_shipped_file_is_the_generated_one(tmp_path):
    assert SHIPPED.read_bytes() == turn_sound_wav()
    out = tmp_path / "turn.wav"
    assert main([str(out)]) == 0
    assert out.read_bytes() == SHIPPED.read_bytes()
    assert main([]) == 2


def test_the_sound_is_short_quiet_and_small():
    with wave.open(io.BytesIO(turn_sound_wav())) as wav:
        assert (wav.getnchannels(), wav.getsampwidth(), wav.getframerate()) == (1, 2, RATE)
        frames = wav.readframes(wav.getnframes())
        seconds = wav.getnframes() / RATE
    samples = struct.unpack(f"<{len(frames) // 2}h", frames)
    assert 0.2 <= seconds <= 0.3
    assert max(abs(s) for s in samples) <= VOLUME * 32767 + 1
    assert samples[0] == 0 and abs(samples[-1]) < 200  # faded in and out: no click
    assert len(SHIPPED.read_bytes()) < 10_000
