"""The web table's turn sound, ``static/sounds/turn.wav``: a soft two-note chime (E5
then A5, 0.26 s, 16 kHz mono) written with the standard library, so the shipped file
can be made again and checked (``python -m cardtable.web.turn_sound FILE``)."""

from __future__ import annotations

import io
import math
import struct
import sys
import wave
from pathlib import Path

RATE = 16_000
NOTES = ((659.25, 0.11), (880.0, 0.15))  # (Hz, seconds)
VOLUME = 0.35
FADE = 0.012  # seconds of fade in and out of each note (no click)


def turn_sound_wav() -> bytes:
    """The chime as a WAV file's bytes (the same bytes on every run)."""
    samples: list[int] = []
    for frequency, seconds in NOTES:
        count = round(seconds * RATE)
        fade = round(FADE * RATE)
        for i in range(count):
            envelope = min(1.0, i / fade, (count - 1 - i) / fade) * math.exp(-3.0 * i / count)
            value = VOLUME * envelope * math.sin(2 * math.pi * frequency * i / RATE)
            samples.append(round(value * 32767))
    out = io.BytesIO()
    with wave.open(out, "wb") as wav:
        wav.setnchannels(1)
        wav.setsampwidth(2)
        wav.setframerate(RATE)
        wav.writeframes(struct.pack(f"<{len(samples)}h", *samples))
    return out.getvalue()


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m cardtable.web.turn_sound FILE", file=sys.stderr)
        return 2
    Path(argv[0]).write_bytes(turn_sound_wav())
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
