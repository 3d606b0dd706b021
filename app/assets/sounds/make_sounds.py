"""Sightline's sounds, synthesised: the recipe of every ``.wav`` file in this folder.

Run it to write them again (the files are committed, so nobody has to):

    python app/assets/sounds/make_sounds.py

Each sound is a few sine partials or a little filtered noise under an envelope, 16-bit mono at 22050 Hz, a fifth
of a second or less, so the whole set is small. The noise comes from a seeded generator: the files come out the
same byte for byte on every run. Nothing here is taken from another project.
"""

from __future__ import annotations

import math
import random
import struct
import wave
from pathlib import Path
from typing import Callable

RATE = 22050
HERE = Path(__file__).resolve().parent

Signal = Callable[[float], float]


def tone(frequency: float, decay: float, partials: tuple[tuple[float, float], ...] = ((1.0, 1.0),)) -> Signal:
    """Sine partials (multiple of ``frequency``, loudness) fading as ``exp(-t / decay)``."""
    def sample(t: float) -> float:
        return math.exp(-t / decay) * sum(level * math.sin(2 * math.pi * frequency * multiple * t)
                                          for multiple, level in partials)
    return sample


def glide(start: float, end: float, length: float, decay: float) -> Signal:
    """A sine sliding from ``start`` to ``end`` Hz over ``length`` seconds."""
    def sample(t: float) -> float:
        # the phase of a linear glide is the integral of its frequency
        phase = 2 * math.pi * (start * t + (end - start) * t * t / (2 * length))
        return math.exp(-t / decay) * math.sin(phase) * min(1.0, t / 0.005)
    return sample


def noise(decay: float, seed: int, smooth: float = 0.5) -> Signal:
    """Seeded noise, low-passed by ``smooth`` (0: white, near 1: dull), fading as ``exp(-t / decay)``."""
    rng = random.Random(seed)
    last = [0.0]

    def sample(t: float) -> float:
        last[0] = smooth * last[0] + (1 - smooth) * rng.uniform(-1.0, 1.0)
        return math.exp(-t / decay) * last[0]
    return sample


def at(offset: float, signal: Signal) -> Signal:
    """``signal`` starting ``offset`` seconds in."""
    return lambda t: signal(t - offset) if t >= offset else 0.0


def mix(*signals: Signal) -> Signal:
    return lambda t: sum(signal(t) for signal in signals)


_swish = noise(1.0, 3, 0.7)
_low = ((1.0, 0.7), (3.0, 0.25))

SOUNDS: dict[str, tuple[float, Signal]] = {
    # a wooden knock: a low partial, a hollow overtone, and a click of noise
    "move": (0.09, mix(tone(420, 0.018, ((1.0, 0.8), (2.76, 0.35), (5.4, 0.1))), noise(0.004, 1, 0.2))),
    # a heavier knock and a second, quieter one right after it
    "capture": (0.16, mix(tone(300, 0.025, ((1.0, 0.9), (2.76, 0.4))), noise(0.008, 2, 0.3),
                          at(0.05, tone(360, 0.02, ((1.0, 0.5), (2.76, 0.2)))))),
    # a falling tone: something of yours was taken
    "captured": (0.2, glide(520, 300, 0.2, 0.09)),
    # two short low pulses: the move did not go as asked
    "failed": (0.18, mix(tone(190, 0.03, _low), at(0.09, tone(170, 0.03, _low)))),
    # a soft rising chirp: a sense, a pick
    "sense": (0.12, glide(800, 1400, 0.12, 0.06)),
    # two bright notes: check
    "check": (0.16, mix(tone(880, 0.05, ((1.0, 0.6), (2.0, 0.2))), at(0.07, tone(1320, 0.05, ((1.0, 0.5),))))),
    # three short beeps: time is running low
    "low_time": (0.2, mix(*(at(0.07 * i, tone(1000, 0.015)) for i in range(3)))),
    # a rising triad: the game starts
    "start": (0.3, mix(*(at(0.08 * i, tone(f, 0.06, ((1.0, 0.6), (2.0, 0.15)))) for i, f in
                         enumerate((523.25, 659.25, 783.99))))),
    # a falling triad: the game is over
    "end": (0.36, mix(*(at(0.09 * i, tone(f, 0.08, ((1.0, 0.6), (2.0, 0.15)))) for i, f in
                        enumerate((783.99, 659.25, 523.25))))),
    # a swish of dull noise: a card played or drawn
    "card": (0.12, lambda t: math.sin(math.pi * min(1.0, t / 0.12)) * _swish(t)),
}


def render(length: float, signal: Signal, peak: float = 0.6) -> bytes:
    """16-bit little-endian samples of ``signal``, scaled to ``peak`` of full scale, faded out at the end."""
    count = int(length * RATE)
    values = [signal(i / RATE) for i in range(count)]
    top = max(1e-9, max(abs(value) for value in values))
    fade = int(0.01 * RATE)
    frames = bytearray()
    for i, value in enumerate(values):
        tail = min(1.0, (count - i) / fade)
        frames += struct.pack("<h", int(32767 * peak * tail * value / top))
    return bytes(frames)


def main(folder: Path = HERE) -> None:
    for name, (length, signal) in SOUNDS.items():
        with wave.open(str(folder / f"{name}.wav"), "wb") as out:
            out.setnchannels(1)
            out.setsampwidth(2)
            out.setframerate(RATE)
            out.writeframes(render(length, signal))


if __name__ == "__main__":
    main()
