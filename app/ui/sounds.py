"""Sounds: short cues for what happens in a game, played at the volume the player chose, or not at all.

A game's presenter says which cues an observation of a seat means (``sounds(observation, seat)``: "move",
"capture", "captured", "failed", "sense", "check", "card", "start", "end"); the game controller keeps them with
their seat and plays a seat's cues only while that seat's person is at the screen, so a sound never tells the
person at the screen what happened to someone else (a piece of the other player's taken, heard once that player
lifts the curtain). "low_time" comes from the clock. The files are the project's own, synthesised by
``app/assets/sounds/make_sounds.py``.

Playing goes to a *sink*: miniaudio on the system's default output, else Qt Multimedia's ``QSoundEffect`` where
this PySide6 has it, else nothing (no sound card: the menu says so). Tests put a recording sink in its place.

>>> sounds = Sounds(SilentSink(), settings={})
>>> sounds.play("move"), sounds.volume, sounds.muted
(True, 80, False)
>>> sounds.set_muted(True); sounds.play("move")
False
"""

from __future__ import annotations

import collections
import sys
from pathlib import Path
from typing import Any, MutableMapping, Protocol

from PySide6.QtCore import QUrl

__all__ = ["CUES", "SOUND_DIR", "LazySink", "MiniaudioSink", "QtSoundSink", "SilentSink", "SoundSink", "Sounds", "default_sink"]

CUES = ("move", "capture", "captured", "failed", "sense", "check", "card", "low_time", "start", "end")
"""Every cue a game or the clock can ask for; each has its ``<cue>.wav`` in :data:`SOUND_DIR`."""
SOUND_DIR = Path(__file__).resolve().parent.parent / "assets" / "sounds"
DEFAULT_VOLUME = 80


class SoundSink(Protocol):
    """Where cues are played: ``play(cue, volume)`` with ``volume`` from 0.0 to 1.0, returning at once."""

    @property
    def available(self) -> bool:
        """Whether this sink makes any sound (the menu tells the player when it cannot)."""

    def play(self, cue: str, volume: float) -> None: ...


class SilentSink:
    """Plays nothing: no sound system, or sound not wanted."""

    available = False

    def play(self, cue: str, volume: float) -> None:
        pass


class QtSoundSink:
    """Qt Multimedia's ``QSoundEffect``, one per cue, made the first time the cue plays (low latency: the file
    is decoded once and kept)."""

    available = True

    def __init__(self) -> None:
        from PySide6.QtMultimedia import QSoundEffect  # noqa: F401 - fails here, not on first play, if absent
        self._effects: dict[str, Any] = {}

    def play(self, cue: str, volume: float) -> None:
        from PySide6.QtMultimedia import QSoundEffect  # optional (see __init__)
        effect = self._effects.get(cue)
        if effect is None:
            effect = QSoundEffect()
            effect.setSource(QUrl.fromLocalFile(str(SOUND_DIR / f"{cue}.wav")))
            self._effects[cue] = effect
        effect.setVolume(volume)
        effect.play()


class MiniaudioSink:
    """miniaudio (a small, self-contained audio library with wheels for every desktop) playing through the
    system's default output: the cues are read once, and a mixer fed to the device adds each cue played to what
    is sounding, so cues overlap instead of cutting each other off. ``backends`` picks the audio system
    (miniaudio's null backend in tests: it consumes samples at the real rate without a sound card).
    Raises ``ImportError`` or miniaudio's error when there is no library or no device."""

    available = True
    RATE = 22050

    def __init__(self, backends: list[Any] | None = None) -> None:
        # Made after the window's first frame, which loads none of these (the start-up is over its budget);
        # miniaudio is optional (no wheel or no library: the next sink is tried); it and numpy take 0.4 s each
        import wave
        import miniaudio  # (as above)
        import numpy  # (as above)
        self._samples: dict[str, Any] = {}
        for cue in CUES:
            with wave.open(str(SOUND_DIR / f"{cue}.wav"), "rb") as sound:
                self._samples[cue] = numpy.frombuffer(sound.readframes(sound.getnframes()), dtype="<i2")
        self._queue: collections.deque[tuple[Any, float]] = collections.deque()
        self.frames_mixed = 0
        """Frames of cues (not silence) handed to the device so far (tests read it)."""
        self._device = miniaudio.PlaybackDevice(output_format=miniaudio.SampleFormat.SIGNED16, nchannels=1,
                                                sample_rate=self.RATE, backends=backends)
        mixer = self._mix()
        next(mixer)
        self._device.start(mixer)

    def _mix(self) -> Any:
        """The device's generator: asked for ``frames`` samples at a time, it answers with the cues sounding.

        It runs on miniaudio's audio thread and holds Python's lock while it runs, so it does no work per sample
        in Python: silence is one ready-made buffer, and cues are added with numpy."""
        import numpy  # not at the window's start (see __init__); loaded by then
        playing: list[list[Any]] = []  # [samples, position, volume]
        silence: dict[int, bytes] = {}
        frames = yield b""
        while True:
            while self._queue:  # cues played since the last call (appended by the window's thread)
                samples, volume = self._queue.popleft()
                playing.append([samples, 0, volume])
            if not playing:
                if frames not in silence:
                    silence[frames] = bytes(2 * frames)
                frames = yield silence[frames]
                continue
            out = numpy.zeros(frames, dtype=numpy.float32)
            for sound in playing:
                samples, start, volume = sound
                chunk = samples[start:start + frames]
                out[:len(chunk)] += chunk * volume
                sound[1] = start + len(chunk)
                self.frames_mixed += len(chunk)
            playing = [sound for sound in playing if sound[1] < len(sound[0])]
            frames = yield numpy.clip(out, -32768, 32767).astype("<i2").tobytes()

    def play(self, cue: str, volume: float) -> None:
        self._queue.append((self._samples[cue], volume))

    def close(self) -> None:
        self._device.close()


_ALSA_QUIET: list[Any] = []  # the no-op error handler given to ALSA, kept alive as long as the process


def _quiet_alsa() -> None:
    """ALSA (under miniaudio on Linux) prints a dozen lines to the terminal when a machine has no sound card; a
    missing card is no error for Sightline (the window plays silently), so its messages are not printed."""
    if _ALSA_QUIET or not sys.platform.startswith("linux"):
        return
    import ctypes  # Linux only, and after the window's first frame (see MiniaudioSink)
    try:
        asound = ctypes.cdll.LoadLibrary("libasound.so.2")
    except OSError:
        return  # no ALSA: nothing to quieten
    handler_type = ctypes.CFUNCTYPE(None, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_int,
                                    ctypes.c_char_p)
    handler = handler_type(lambda *_args: None)
    asound.snd_lib_error_set_handler(handler)
    _ALSA_QUIET.append(handler)


def default_sink() -> SoundSink:
    """miniaudio on the system's output, else Qt Multimedia where this PySide6 has it, else a silent sink (no
    sound library, no sound card)."""
    _quiet_alsa()
    try:
        return MiniaudioSink()
    except Exception:  # noqa: BLE001 - no library or no device: try the next way, never fail the window
        pass
    try:
        return QtSoundSink()
    except ImportError:
        return SilentSink()


class LazySink:
    """:func:`default_sink`, made when first needed: the window's first frame does not wait for the sound
    system to load."""

    def __init__(self) -> None:
        self._sink: SoundSink | None = None

    _shared: SoundSink | None = None
    """One sink for the whole process: every window plays through the same device."""

    @property
    def sink(self) -> SoundSink:
        if self._sink is None:
            if LazySink._shared is None:
                LazySink._shared = default_sink()
            self._sink = LazySink._shared
        return self._sink

    @property
    def available(self) -> bool:
        return self.sink.available

    def play(self, cue: str, volume: float) -> None:
        self.sink.play(cue, volume)


class Sounds:
    """The player's sound settings (volume 0-100, muted) kept in ``settings`` (QSettings in the app; a dict in
    tests), and the sink that plays."""

    def __init__(self, sink: SoundSink, settings: MutableMapping[str, Any] | Any) -> None:
        self.sink = sink
        self._settings = settings
        self.volume = _whole(self._read("sound/volume", DEFAULT_VOLUME), DEFAULT_VOLUME)
        self.muted = str(self._read("sound/muted", "false")).lower() in ("true", "1")

    def _read(self, key: str, default: Any) -> Any:
        if isinstance(self._settings, MutableMapping):
            return self._settings.get(key, default)
        return self._settings.value(key, default)

    def _write(self, key: str, value: Any) -> None:
        if isinstance(self._settings, MutableMapping):
            self._settings[key] = value
        else:
            self._settings.setValue(key, value)

    def set_volume(self, volume: int) -> None:
        self.volume = max(0, min(100, int(volume)))
        self._write("sound/volume", self.volume)

    def set_muted(self, muted: bool) -> None:
        self.muted = bool(muted)
        self._write("sound/muted", "true" if self.muted else "false")

    def play(self, cue: str) -> bool:
        """Play ``cue`` unless muted or at volume 0 (or not a cue); True when it went to the sink."""
        if self.muted or self.volume <= 0 or cue not in CUES:
            return False
        self.sink.play(cue, self.volume / 100)
        return True


def _whole(value: Any, default: int) -> int:
    try:
        return max(0, min(100, int(value)))
    except (TypeError, ValueError):
        return default
