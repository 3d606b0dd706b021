"""Regressions found in review: time charged to the right seat, bots that misbehave in odd ways, bad records."""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

import chess
import pytest

from app.bots.contract import BotAgent
from app.games.rbc.players import ReconchessAgent, load_reconchess_player
from app.games.rbc.bots import RBCRandomBot
from app.cli import main
from app.engine.clock import TimeControl
from app.engine.core import Reason
from app.games.rbc.rules import ReconChess
from app.engine.record import GameRecord, GameSession, RecordError, replay
from app.hosting.match import run_match
from app.hosting.runner import run_game

BASE = '''
import time, chess
from reconchess import Player

class Base(Player):
    def handle_game_start(self, color, board, opponent_name): self.color = color
    def handle_opponent_move_result(self, captured_my_piece, capture_square): pass
    def choose_sense(self, sense_actions, move_actions, seconds_left): return sense_actions[0]
    def handle_sense_result(self, sense_result): pass
    def choose_move(self, move_actions, seconds_left): return None
    def handle_move_result(self, requested_move, taken_move, captured_opponent_piece, capture_square): pass
    def handle_game_end(self, winner_color, win_reason, game_history): pass
'''


def _bot(tmp_path: Path, name: str, body: str) -> str:
    """Write a bot file; the spec names its class (the file also holds the Base class)."""
    path = tmp_path / f"{name}.py"
    body = textwrap.dedent(body)
    path.write_text(BASE + body)
    class_name = re.search(r"^class (\w+)\(Base\)", body, re.M).group(1)  # type: ignore[union-attr]
    return f"{path}:{class_name}"


def _player(path: str):
    return load_reconchess_player(path)()


def test_slow_game_start_is_not_charged_to_white(tmp_path: Path) -> None:
    slow = _player(_bot(tmp_path, "slowstart", '''
        class SlowStart(Base):
            def handle_game_start(self, color, board, opponent_name): time.sleep(0.6)
    '''))
    agents = [BotAgent(RBCRandomBot(seed=1), "random"), ReconchessAgent(slow, "SlowStart")]
    record = run_game(ReconChess(), agents, TimeControl(30, 0), max_plies=2)
    assert record.entries[0].elapsed < 0.6  # less than the slow start alone: White's move is timed on its own


def test_move_results_are_heard_on_the_movers_own_time(tmp_path: Path) -> None:
    slow = _player(_bot(tmp_path, "slowresult", '''
        class SlowResult(Base):
            def handle_move_result(self, requested_move, taken_move, captured_opponent_piece, capture_square):
                time.sleep(0.4)
    '''))
    agents = [ReconchessAgent(slow, "SlowResult"), BotAgent(RBCRandomBot(seed=2), "random")]
    record = run_game(ReconChess(), agents, TimeControl(1.0, 0))
    assert record.result is not None
    # White spends 0.4 s per turn hearing its results and runs out; Black never waits on White's clock.
    assert (record.result.winner, record.result.reason) == (1, Reason.TIMEOUT)
    black_time = sum(e.elapsed for e in record.entries if e.seat == 1)
    assert black_time < 0.5
    assert replay(GameRecord.from_json(record.to_json())).game.outcome == record.result


def test_off_board_moves_and_odd_senses_forfeit_cleanly(tmp_path: Path) -> None:
    bad = _bot(tmp_path, "offboard", '''
        class OffBoard(Base):
            def choose_move(self, move_actions, seconds_left): return chess.Move(64, 0)
    ''')
    result = run_match("rbc", bad, "random", games=1, control=TimeControl(10, 0))
    assert result.games[0].reason == "forfeit" and "not a move on this board" in result.games[0].detail

    class Index:  # like numpy.int64: not an int, but usable as one
        def __init__(self, value: int) -> None:
            self.value = value

        def __index__(self) -> int:
            return self.value

    player = _player(_bot(tmp_path, "numpyish", '''
        class NumpyIsh(Base):
            pass
    '''))
    player.choose_sense = lambda sense_actions, move_actions, seconds_left: Index(36)
    agents = [ReconchessAgent(player, "NumpyIsh"), BotAgent(RBCRandomBot(seed=3), "random")]
    record = run_game(ReconChess(), agents, TimeControl(None, 0), max_plies=20)
    assert record.result is not None and record.result.reason is not Reason.FORFEIT
    assert record.entries[0].action == {"type": "sense", "square": "e5"}


def test_a_huge_error_message_does_not_stall_the_match(tmp_path: Path) -> None:
    noisy = _bot(tmp_path, "noisy", '''
        class Noisy(Base):
            def choose_move(self, move_actions, seconds_left): raise RuntimeError("x" * 300000)
    ''')
    result = run_match("rbc", noisy, "random", games=1, control=TimeControl(10, 0))
    game = result.games[0]
    assert game.reason == "forfeit" and len(game.detail) < 2100


def test_a_crash_after_the_result_keeps_the_result(tmp_path: Path) -> None:
    crash = _bot(tmp_path, "crashend", '''
        import os
        class CrashAtEnd(Base):
            def handle_game_end(self, winner_color, win_reason, game_history): os._exit(7)
    ''')
    result = run_match("rbc", "random", crash, games=1, control=TimeControl(None, 0), max_plies=4)
    assert (result.games[0].winner, result.games[0].reason) == (None, "turn_limit")


def test_two_bot_files_with_the_same_name_stay_two_bots(tmp_path: Path) -> None:
    for folder, name in (("a", "Alpha"), ("b", "Beta")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "bot.py").write_text(BASE + f"\nclass {name}(Base):\n    pass\n\n"
                                                  f"def get_player():\n    return {name}\n")
    assert load_reconchess_player(str(tmp_path / "a" / "bot.py")).__name__ == "Alpha"
    assert load_reconchess_player(str(tmp_path / "b" / "bot.py")).__name__ == "Beta"


def test_a_bot_that_exits_at_import_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "quitter.py"
    path.write_text("import sys\nsys.exit(3)\n")
    assert main(["match", "--white", str(path), "--black", "random", "--quiet"]) == 2
    assert "SystemExit" in capsys.readouterr().err


def test_paused_time_is_recorded_and_replays() -> None:
    now = [0.0]
    session = GameSession(ReconChess(), TimeControl(60, 0), time_source=lambda: now[0])
    now[0] = 10.0
    session.pause()
    now[0] = 100.0
    session.resume()
    now[0] = 105.0
    session.play(0, __import__("app.games.rbc.rules", fromlist=["Sense"]).Sense(None))
    assert session.record.entries[0].elapsed == 15.0
    assert replay(GameRecord.from_json(session.record.to_json())).remaining[0] == session.seconds_left(0) == 45.0


def test_bad_adjudication_seats_are_refused() -> None:
    record = run_game(ReconChess(), [BotAgent(RBCRandomBot(seed=1), "a"), BotAgent(RBCRandomBot(seed=2), "b")],
                      max_plies=2)
    data = record.to_json()
    for seat in (5, -1, 1.7, True):
        data["actions"][-1]["action"]["seat"] = seat
        with pytest.raises(RecordError, match="bad adjudication seat"):
            replay(GameRecord.from_json(json.loads(json.dumps(data))))


def test_a_game_decided_before_the_first_move_has_a_result() -> None:
    from app.games.blind.rules import BlindChess
    game = BlindChess(fen="4k3/8/8/8/8/8/8/4K3 w - - 0 1")  # bare kings: drawn at once (B5)
    session = GameSession(game, TimeControl(None, 0))
    assert game.outcome is not None and session.record.result == game.outcome
    assert chess.Move.from_uci("e2e4")  # (keeps the chess import honest)


def test_a_bot_that_never_releases_the_interpreter_is_stopped_from_outside(tmp_path: Path) -> None:
    hog = _bot(tmp_path, "gilhog", '''
        import re
        class GilHog(Base):
            def choose_sense(self, sense_actions, move_actions, seconds_left):
                re.match(r"(a+)+$", "a" * 60 + "b")  # backtracking inside C: the clock thread never runs
                return sense_actions[0]
    ''')
    result = run_match("rbc", hog, "random", games=1, control=TimeControl(1, 0), out_dir=str(tmp_path / "out"))
    game = result.games[0]
    # The bot runs in a process of its own: the referee stops it at its deadline and writes the record.
    assert (game.winner, game.reason) == (1, "timeout") and "GilHog ran out of time" in game.detail
    assert game.path is not None and json.loads(Path(game.path).read_text())["result"]["reason"] == "timeout"
