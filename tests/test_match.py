"""Headless matches, hosted reconchess players, failing bots and the command line."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import chess
import pytest

from app.hosting.agents import BotSpec
from app.bots.contract import BotAgent, BotError
from app.games.rbc.players import ReconchessAgent, load_reconchess_player
from app.games.rbc.bots import RBCAttackerBot, RBCRandomBot
from app.cli import main
from app.engine.clock import TimeControl
from app.engine.core import Reason
from app.games.rbc.rules import ReconChess
from app.engine.record import load_record
from app.hosting.match import format_table, run_match
from app.hosting.runner import run_game

BOTS = Path(__file__).parent / "bots" / "misbehaving.py"
MISBEHAVING = f"{BOTS}"


def test_builtin_bots_finish_games_and_records_replay(tmp_path: Path) -> None:
    result = run_match("rbc", "attacker", "random", games=6, seed=3, control=TimeControl(None, 0),
                       swap_colors=True, jobs=2, out_dir=str(tmp_path))
    assert len(result.games) == 6
    assert [game.seats for game in result.games] == [("attacker", "random"), ("random", "attacker")] * 3
    for game in result.games:
        assert game.reason in {"king_capture", "move_limit"}
        replayed = load_record(game.path)  # type: ignore[arg-type]
        assert replayed.game.outcome is not None and replayed.game.outcome.winner == game.winner
    wins, draws, losses = result.score("attacker")
    assert wins + draws + losses == 6 and wins >= 4  # the rush beats a random mover
    table = format_table(result)
    assert "attacker wins" in table and "mean plies per game" in table


def test_matches_are_repeatable_from_the_seed() -> None:
    first = run_match("rbc", "random", "random", games=3, seed=11, control=TimeControl(None, 0))
    second = run_match("rbc", "random", "random", games=3, seed=11, control=TimeControl(None, 0))
    assert [(g.winner, g.reason, g.plies) for g in first.games] == [(g.winner, g.reason, g.plies)
                                                                   for g in second.games]


@pytest.mark.parametrize("module", ["reconchess.bots.random_bot", "reconchess.bots.attacker_bot",
                                    "reconchess.bots.random_bot:RandomBot"])
def test_reconchess_bots_play_in_our_engine(module: str) -> None:
    result = run_match("rbc", module, "random", games=2, seed=5, control=TimeControl(60, 1), swap_colors=True)
    for game in result.games:
        assert game.reason in {"king_capture", "move_limit"}, game.detail


def test_reconchess_player_sees_exactly_the_reconchess_call_sequence() -> None:
    calls: list[tuple] = []

    from reconchess import Player

    class Spy(Player):
        def handle_game_start(self, color, board, opponent_name):
            calls.append(("start", color, board.fen(), opponent_name))

        def handle_opponent_move_result(self, captured_my_piece, capture_square):
            calls.append(("opponent", captured_my_piece, capture_square))

        def choose_sense(self, sense_actions, move_actions, seconds_left):
            calls.append(("choose_sense", len(sense_actions), len(move_actions), seconds_left > 0))
            return chess.E7

        def handle_sense_result(self, sense_result):
            calls.append(("sense", len(sense_result)))

        def choose_move(self, move_actions, seconds_left):
            calls.append(("choose_move", len(move_actions)))
            return chess.Move.from_uci("b1c3") if len(calls) < 8 else move_actions[0]

        def handle_move_result(self, requested_move, taken_move, captured_opponent_piece, capture_square):
            calls.append(("move", requested_move, taken_move))

        def handle_game_end(self, winner_color, win_reason, game_history):
            calls.append(("end", winner_color, win_reason.name if win_reason else None, game_history.num_turns()))

    agents = [ReconchessAgent(Spy(), "Spy"), BotAgent(RBCAttackerBot(seed=1), "attacker")]
    record = run_game(ReconChess(), agents, TimeControl(30, 0))
    assert calls[0] == ("start", chess.WHITE, chess.STARTING_FEN, "attacker")
    assert [c[0] for c in calls[1:7]] == ["opponent", "choose_sense", "sense", "choose_move", "move", "opponent"]
    assert calls[2] == ("choose_sense", 64, 34, True)  # 20 moves + 14 pawn diagonals
    assert calls[3] == ("sense", 9)
    assert calls[5] == ("move", chess.Move.from_uci("b1c3"), chess.Move.from_uci("b1c3"))
    assert calls[-1][0] == "end"
    assert record.result is not None and calls[-1][3] > 0


@pytest.mark.parametrize("cls, reason, words", [
    ("RaisingBot", "forfeit", "deliberate failure"),
    ("IllegalMoveBot", "forfeit", "not among"),
    ("NotAMoveBot", "forfeit", "not a chess.Move"),
    ("SlowBot", "timeout", "ran out of time"),
    ("SpinningBot", "timeout", "ran out of time"),
    ("ExitingBot", "forfeit", "crashed its worker process"),
])
def test_a_misbehaving_bot_loses_and_the_match_goes_on(cls: str, reason: str, words: str, tmp_path: Path) -> None:
    result = run_match("rbc", f"{MISBEHAVING}:{cls}", "random", games=2, seed=1, control=TimeControl(1.5, 0),
                       swap_colors=True, jobs=2, out_dir=str(tmp_path))
    assert len(result.games) == 2
    for game in result.games:
        loser = 0 if game.seats[0].endswith(cls) else 1
        assert game.reason == reason, game.detail
        assert game.winner == 1 - loser
        assert words in game.detail
        if game.path:
            record = json.loads(Path(game.path).read_text())
            assert record["result"]["reason"] == reason


def test_load_player_semantics() -> None:
    assert load_reconchess_player(MISBEHAVING).__name__ == "PassingBot"  # get_player() decides
    assert load_reconchess_player(f"{MISBEHAVING}:SlowBot").__name__ == "SlowBot"
    assert load_reconchess_player("reconchess.bots.random_bot").__name__ == "RandomBot"
    with pytest.raises(BotError, match="no such bot file"):
        load_reconchess_player("no/such/bot.py")
    with pytest.raises(BotError, match="cannot import"):
        load_reconchess_player("no_such_module_xyz:Bot")
    with pytest.raises(BotError, match="no reconchess Player subclass"):
        load_reconchess_player("reconchess.bots.random_bot:Nope")


def test_builtin_bot_specs() -> None:
    assert isinstance(BotSpec("random", "rbc").create(1), BotAgent)
    agent = BotSpec("sightline:attacker:hard", "rbc").create(1)
    assert isinstance(agent, BotAgent) and agent.bot.level == "hard"
    with pytest.raises(BotError, match="no built-in rbc bot"):
        BotSpec("sightline:nobody", "rbc").create(1)
    with pytest.raises(BotError, match="unknown level"):
        BotSpec("sightline:random:expert", "rbc").create(1)


def test_random_bot_plays_only_its_move_actions() -> None:
    bot = RBCRandomBot(seed=4)
    agents = [BotAgent(bot, "random"), BotAgent(RBCRandomBot(seed=5), "random")]
    record = run_game(ReconChess(), agents)
    assert record.result is not None and record.result.reason in (Reason.KING_CAPTURE, Reason.MOVE_LIMIT)


@pytest.mark.skipif(not (os.environ.get("STOCKFISH_EXECUTABLE") or shutil.which("stockfish")
                         or os.path.exists("/usr/games/stockfish")), reason="Stockfish is not installed")
def test_troutbot_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    path = os.environ.get("STOCKFISH_EXECUTABLE") or shutil.which("stockfish") or "/usr/games/stockfish"
    monkeypatch.setenv("STOCKFISH_EXECUTABLE", path)
    # Eight plies of one game: Stockfish thinks half a second a move inside TroutBot (its own setting), so a whole
    # game took more than ten seconds of the suite; eight plies show it load, sense, move and be told.
    result = run_match("rbc", "reconchess.bots.trout_bot", "random", games=1, seed=2, control=TimeControl(120, 0),
                       max_plies=8)
    assert len(result.games) == 1
    for game in result.games:
        assert game.reason == "king_capture" or (game.reason == "turn_limit" and game.plies == 8), game.detail


def test_cli_match_export_import(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "games"
    assert main(["match", "--white", "attacker", "--black", "random", "--games", "2", "--untimed",
                 "--swap-colors", "--out", str(out), "--quiet"]) == 0
    printed = capsys.readouterr().out
    assert "attacker vs random: 2 games" in printed
    record = out / "game-0001.json"
    history = tmp_path / "history.json"
    assert main(["export", "--format", "reconchess", str(record), str(history)]) == 0
    from reconchess import GameHistory
    assert GameHistory.from_file(str(history)).num_turns() > 0
    back = tmp_path / "back.json"
    assert main(["import", str(history), str(back)]) == 0
    assert load_record(back).game.outcome == load_record(record).game.outcome


def test_cli_reports_bad_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "--white", "nobody_bot_xyz", "--black", "random", "--quiet"]) == 2
    assert "cannot" in capsys.readouterr().err
    assert main(["match", "--white", "random", "--black", "random", "--time", "fast"]) == 2
    assert "bad time control" in capsys.readouterr().err
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": "sightline-record", "version": 1, "variant": "rbc", "actions": [')
    assert main(["export", str(broken), str(tmp_path / "out.json")]) == 1
    assert "not valid JSON" in capsys.readouterr().err
    assert main(["import", str(tmp_path / "missing.json"), str(tmp_path / "x.json")]) == 1


def test_players_of_other_programs_are_hosted_by_the_games_definition() -> None:
    from app import games
    from app.games.rbc.players import RECONCHESS_PLAYERS
    assert [game.key for game in games.all() if game.foreign_players] == ["rbc"]
    assert games.get("rbc").foreign_players() is RECONCHESS_PLAYERS
    assert type(RECONCHESS_PLAYERS.host(object(), "Spy")) is ReconchessAgent
    assert BotSpec("reconchess.bots.random_bot", "rbc").bot_class()[0].__name__ == "RandomBot"
    with pytest.raises(BotError, match="'reconchess.bots.random_bot' is not a built-in minit bot"):
        BotSpec("reconchess.bots.random_bot", "minit").bot_class()
