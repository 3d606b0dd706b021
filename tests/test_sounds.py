"""Sounds: every cue has the project's own file, made by its recipe; a seat's cues are heard only while its person
is at the screen (never across the curtain); a resumed game does not replay its past; low time warns twice;
mute and volume are kept."""

from __future__ import annotations

import importlib.util
import wave
from pathlib import Path
from typing import Any

import pytest

from app.engine.clock import TimeControl
from app.ui.sounds import CUES, SOUND_DIR, SilentSink, Sounds


def test_every_cue_has_a_short_file_that_its_recipe_makes_again(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location("make_sounds", SOUND_DIR / "make_sounds.py")
    assert spec is not None and spec.loader is not None
    recipe = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(recipe)
    recipe.main(tmp_path)
    for cue in CUES:
        with wave.open(str(SOUND_DIR / f"{cue}.wav"), "rb") as sound:
            assert (sound.getnchannels(), sound.getsampwidth(), sound.getframerate()) == (1, 2, 22050)
            assert 0.05 < sound.getnframes() / 22050 <= 0.4
        assert (tmp_path / f"{cue}.wav").read_bytes() == (SOUND_DIR / f"{cue}.wav").read_bytes(), cue


def test_mute_and_volume_are_kept_and_silence_the_sink() -> None:
    played: list[tuple[str, float]] = []

    class Recording(SilentSink):
        def play(self, cue: str, volume: float) -> None:
            played.append((cue, volume))

    settings: dict[str, Any] = {}
    sounds = Sounds(Recording(), settings)
    sounds.set_volume(50)
    assert sounds.play("capture") and played == [("capture", 0.5)]
    sounds.set_muted(True)
    assert not sounds.play("move") and len(played) == 1
    again = Sounds(Recording(), settings)
    assert (again.volume, again.muted) == (50, True)
    assert not Sounds(Recording(), {"sound/volume": "loud"}).play("nothing such")


def _minit(window: Any, position: str | None = None) -> tuple[Any, list[tuple[int | None, str]]]:
    return _hot_seat(window, "minit", {"position": position} if position else {})


def _hot_seat(window: Any, key: str, options: dict[str, Any]) -> tuple[Any, list[tuple[int | None, str]]]:
    from app.ui.game_controller import GameController, SeatConfig
    controller = GameController(key, [SeatConfig("Ann"), SeatConfig("Bob")], TimeControl(60, 0), options,
                                parent=window)
    heard: list[tuple[int | None, str]] = []
    controller.soundCue.connect(lambda cue: heard.append((controller.screen_seat, cue)))
    window._install(controller)
    return controller, heard


def test_a_seat_hears_its_cues_only_when_its_person_is_at_the_screen(window: Any) -> None:
    from app.games.blind.rules import Attempt
    black_pawn_on_b3 = "rnbqkbnr/p1pppppp/8/8/8/1p6/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    controller, heard = _hot_seat(window, "blind", {"fen": black_pawn_on_b3})
    assert heard == []  # the curtain is up for White: nobody at the screen
    controller.lift_curtain()
    assert heard == [(0, "start")]
    controller.act(Attempt.parse("a2b3"))  # White takes the pawn on b3
    assert heard == [(0, "start"), (0, "capture")]  # Black's "captured" waits behind the curtain
    assert controller.curtain_for == 1
    controller.lift_curtain()
    assert heard[2:] == [(1, "start"), (1, "captured")]
    controller.resign()
    assert heard[-1] == (1, "end")


def test_without_a_curtain_the_people_hear_each_cue_once_together(window: Any) -> None:
    from app.games.minit.rules import MinitMove
    controller, heard = _minit(window, "1 W kqbnr ppppp ..... .p... PPPPP RNBQK")
    assert heard == [(0, "start")]  # nothing hidden, no curtain: the game starts at the screen, heard once
    controller.act(MinitMove.parse("a2-b3"))  # White takes the pawn on b3
    assert heard == [(0, "start"), (0, "capture")] and controller.screen_seat == 1  # not "captured" again
    controller.act(MinitMove.parse("a5-a4"))
    assert heard[2:] == [(1, "move")]
    controller.resign()
    assert heard[-1] == (0, "end")


def test_a_resumed_game_does_not_play_its_past_again(window: Any) -> None:
    from app.games.minit.rules import MinitMove
    from app.ui.game_controller import GameController
    controller, heard = _minit(window)
    controller.lift_curtain()
    controller.act(MinitMove.parse("b2-b3"))
    again = GameController.from_record(controller.session.snapshot(), parent=window)
    replayed: list[str] = []
    again.soundCue.connect(replayed.append)
    window._install(again)
    again.lift_curtain()
    assert replayed == []  # neither "start" nor the moves of before


def test_low_time_warns_under_30_and_again_under_10_seconds(window: Any) -> None:
    controller, heard = _minit(window)
    controller.lift_curtain()
    clock = controller.session.clock
    clock.charge(0, 25.0)  # 35 s left
    controller.clocks.tick()
    clock.charge(0, 6.0)  # 29 s
    controller.clocks.tick()
    controller.clocks.tick()
    clock.charge(0, 20.0)  # 9 s
    controller.clocks.tick()
    controller.clocks.tick()
    assert [cue for _, cue in heard].count("low_time") == 2


@pytest.mark.parametrize("key", ["telepathy", "splitbrain"])
def test_a_kit_team_game_cues_come_from_the_seats_own_observations(key: str) -> None:
    from app import games
    from app.games.presenter import presenter_for
    presenter = presenter_for(key)
    game = games.get(key).referee()()
    rules = __import__(f"app.games.{key}.rules", fromlist=["x"])
    if key == "telepathy":
        game.play(0, rules.Predict("N"))
        assert presenter.sounds(game.observations(0)[-2], 0) == ("card",)  # its own card, face down
    else:
        game.play(0, rules.PickPiece("b1"))
        assert presenter.sounds(game.observations(0)[-2], 0) == ("sense",)  # its own pick
        assert presenter.sounds(game.observations(1)[-1], 1) == ()  # the partner only hears nothing


def test_the_miniaudio_sink_mixes_cues_into_the_device() -> None:
    """On miniaudio's null backend (a device without a sound card, consuming samples at the real rate)."""
    import time
    miniaudio = pytest.importorskip("miniaudio")
    from app.ui.sounds import MiniaudioSink
    sink = MiniaudioSink(backends=[miniaudio.Backend.NULL])
    try:
        sink.play("move", 0.8)
        sink.play("capture", 0.5)  # overlapping: both are mixed in
        expected = sum(len(sink._samples[cue]) for cue in ("move", "capture"))
        deadline = time.monotonic() + 5
        while sink.frames_mixed < expected and time.monotonic() < deadline:
            time.sleep(0.02)
        assert sink.frames_mixed == expected
    finally:
        sink.close()


def test_looking_for_a_sound_device_prints_nothing_on_a_machine_without_one() -> None:
    """ALSA would print a dozen lines to the terminal where there is no sound card (as on this test machine):
    a missing card is no error for Sightline, which then plays silently."""
    import subprocess
    import sys
    script = "from app.ui.sounds import default_sink; print(type(default_sink()).__name__)"
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60,
                          cwd=str(__import__("pathlib").Path(__file__).resolve().parent.parent))
    assert done.returncode == 0, done.stderr
    assert "ALSA" not in done.stderr and done.stdout.strip() in ("MiniaudioSink", "QtSoundSink", "SilentSink")


def test_a_split_brain_pair_settled_otherwise_sounds_changed_to_its_team_only() -> None:
    from app.games.presenter import presenter_for
    from app.games.splitbrain.rules import Moved
    presenter = presenter_for("splitbrain")
    settled = Moved(0, "b1c3", "by square", "", "N")
    assert presenter.sounds(settled, 1) == ("failed", "move")  # White's pair was no move: changed
    assert presenter.sounds(settled, 2) == ("move",)  # the opponents chose how; nothing changed for them
    assert presenter.sounds(settled._replace(how="as picked"), 1) == ("move",)


def test_rbc_at_one_computer_a_capture_is_heard_by_each_side_only_behind_its_own_curtain(window: Any) -> None:
    """White takes a pawn: White hears "capture" at once; Black's "captured" waits until Black lifts the curtain,
    and White, at the screen after the capture, never hears Black's cue."""
    import chess

    from app.games.rbc.rules import MoveAction, Sense
    from app.ui.game_controller import GameController, SeatConfig
    controller = GameController("rbc", [SeatConfig("Ann"), SeatConfig("Bob")], TimeControl(None, 0), parent=window)
    heard: list[tuple[int | None, str]] = []
    controller.soundCue.connect(lambda cue: heard.append((controller.screen_seat, cue)))
    window._install(controller)
    for seat, sense, move in ((0, chess.D7, "e2e4"), (1, chess.D2, "d7d5"), (0, chess.D6, "e4d5")):
        controller.lift_curtain()
        controller.act(Sense(sense))
        controller.act(MoveAction(chess.Move.from_uci(move)))
    assert (0, "capture") in heard and not any(cue == "captured" for _seat, cue in heard)
    controller.lift_curtain()  # Black
    assert heard[-1] == (1, "captured")
    assert [cue for seat, cue in heard if seat == 0].count("captured") == 0


def test_a_game_of_bots_alone_is_heard_from_the_seat_on_the_screen(window: Any) -> None:
    from app.games.minit.rules import MinitMove
    from app.ui.game_controller import GameController, SeatConfig
    from test_premove import StandInBot
    import app.ui.controller_bots as controller_bots
    original, controller_bots.BotSeat = controller_bots.BotSeat, StandInBot
    try:
        controller = GameController("minit", [SeatConfig("A", "random"), SeatConfig("B", "random")],
                                    TimeControl(None, 0), parent=window)
        heard: list[str] = []
        controller.soundCue.connect(heard.append)
        window._install(controller)
        controller._bot_answered(0, MinitMove.parse("b2-b3"))
    finally:
        controller_bots.BotSeat = original
    assert heard[:2] == ["start", "move"]
