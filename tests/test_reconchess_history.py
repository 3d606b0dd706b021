"""Sightline records <-> reconchess GameHistory JSON (app.games.rbc.reconchess_history).

1. Games played in reconchess's LocalGame import, replay to the same result and
   export back to the very same file, byte for byte.
2. Games played in our engine export to files that reconchess's own
   ``GameHistory.from_file`` reads as expected, and that equal what LocalGame
   writes for the same senses and moves.
3. Resignations, flag falls and forfeits export with the documented reasons and
   import back to the same result.
4. Malformed input raises RecordError with a useful message, never anything else.
"""

from __future__ import annotations

import copy
import json
import random
import time
from pathlib import Path
from typing import Any, Callable, Iterator

import chess
import pytest
from reconchess import GameHistory, LocalGame, Player, Turn, WinReason, play_local_game, play_turn
from reconchess.bots.attacker_bot import AttackerBot
from reconchess.bots.random_bot import RandomBot

from app.engine.clock import TimeControl
from app.engine.core import Adjudication, Reason, Resign
from app.games.rbc.rules import BLACK_SEAT, WHITE_SEAT, MoveAction, MoveResult, ReconChess, Sense, SenseResult
from app.engine.record import Entry, GameRecord, GameSession, PlayerInfo, RecordError, replay
from app.games.rbc.reconchess_history import (STARTING_FEN, export_reconchess, history_to_record,
                                            record_to_history)

REASONS = {WinReason.KING_CAPTURE: Reason.KING_CAPTURE, WinReason.MOVE_LIMIT: Reason.MOVE_LIMIT,
           WinReason.TIMEOUT: Reason.TIMEOUT, WinReason.RESIGN: Reason.RESIGN}


# ---- reconchess players for the tests ---------------------------------------------------------------------

class BlindRandomBot(RandomBot):
    """RandomBot that sometimes does not sense (sense None: stored as null with an empty result)."""

    def choose_sense(self, sense_actions: list[int], move_actions: list[chess.Move],
                     seconds_left: float) -> int | None:
        return None if random.random() < 0.2 else random.choice(sense_actions)


class PassingBot(RandomBot):
    """Senses at random and always passes: the game ends by the reversible-move limit."""

    def choose_move(self, move_actions: list[chess.Move], seconds_left: float) -> chess.Move | None:
        return None


class SlowBot(RandomBot):
    """Plays random moves but is too slow on its third move (for a timeout in LocalGame)."""

    def __init__(self) -> None:
        self.moves = 0

    def choose_move(self, move_actions: list[chess.Move], seconds_left: float) -> chess.Move | None:
        self.moves += 1
        if self.moves == 3:
            time.sleep(0.25)
        return super().choose_move(move_actions, seconds_left)


def _local_game(white: Callable[[], Player], black: Callable[[], Player], seed: int, path: Path,
                game: LocalGame | None = None) -> tuple[bool | None, WinReason | None]:
    random.seed(seed)
    winner, reason, history = play_local_game(white(), black(),
                                              game=game or LocalGame(seconds_per_player=None))
    history.save(str(path))
    return winner, reason


def _check_round_trip(path: Path, winner: bool | None, reason: WinReason | None) -> GameRecord:
    """Import ``path``, check the record's result, export it back and compare with the original file."""
    record = history_to_record(path)
    assert record.variant == "rbc" and record.clock == TimeControl(None, 0)
    assert [player.kind for player in record.players] == ["bot", "bot"]
    assert all(entry.elapsed == 0 for entry in record.entries)
    replayed = replay(GameRecord.from_json(json.loads(json.dumps(record.to_json()))))
    outcome = replayed.game.outcome
    assert outcome is not None and outcome == record.result
    assert outcome.winner == (None if winner is None else (WHITE_SEAT if winner else BLACK_SEAT))
    assert reason is not None and outcome.reason is REASONS[reason]

    exported = path.with_name(path.stem + "-exported.json")
    export_reconchess(record, exported)
    with path.open() as original, exported.open() as ours:
        assert json.load(ours) == json.load(original)
    assert exported.read_text() == path.read_text()  # even the key order and spacing
    assert GameHistory.from_file(str(exported)) == GameHistory.from_file(str(path))
    return record


# ---- 1. reconchess -> Sightline -> reconchess ---------------------------------------------------------------

@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("white, black", [(RandomBot, RandomBot), (AttackerBot, RandomBot),
                                          (RandomBot, AttackerBot), (BlindRandomBot, AttackerBot)])
def test_local_games_round_trip(tmp_path: Path, seed: int, white: Callable[[], Player],
                                black: Callable[[], Player]) -> None:
    path = tmp_path / "game.json"
    winner, reason = _local_game(white, black, seed, path)
    record = _check_round_trip(path, winner, reason)
    data = json.loads(path.read_text())
    assert [player.name for player in record.players] == [data["white_name"], data["black_name"]]
    turns = len(data["senses"]["true"]) + len(data["senses"]["false"])
    assert len(record.entries) == 2 * turns


def test_move_limit_draw_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "draw.json"
    winner, reason = _local_game(PassingBot, PassingBot, 3, path)
    assert (winner, reason) == (None, WinReason.MOVE_LIMIT)
    record = _check_round_trip(path, winner, reason)
    assert record.options == {"draw_rule": "50-move"} and record.result is not None
    assert record.result.winner is None


def test_timeout_in_local_game_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "timeout.json"
    game = LocalGame(seconds_per_player=0.2, seconds_increment=0)
    winner, reason = _local_game(RandomBot, SlowBot, 5, path, game)
    assert (winner, reason) == (chess.WHITE, WinReason.TIMEOUT)
    record = _check_round_trip(path, winner, reason)
    assert record.entries[-1].action == {"type": "adjudication", "seat": BLACK_SEAT, "reason": "timeout"}


def test_resignation_after_sensing_in_local_game_round_trips(tmp_path: Path) -> None:
    random.seed(11)
    game = LocalGame(seconds_per_player=None)
    players = {chess.WHITE: RandomBot(), chess.BLACK: RandomBot()}
    game.store_players("Alice", "Bob")
    game.start()
    for _ in range(9):
        play_turn(game, players[game.turn], end_turn_last=True)
    assert not game.is_over() and game.turn == chess.BLACK
    game.sense(chess.D4)
    game.resign()  # Black resigns after sensing, before moving
    assert game.is_over()
    game.end()
    path = tmp_path / "resign.json"
    game.get_game_history().save(str(path))
    data = json.loads(path.read_text())
    assert len(data["senses"]["false"]) == len(data["requested_moves"]["false"]) + 1

    record = _check_round_trip(path, chess.WHITE, WinReason.RESIGN)
    assert [player.name for player in record.players] == ["Alice", "Bob"]
    assert record.entries[-2].action == {"type": "sense", "square": "d4"}
    assert (record.entries[-1].seat, record.entries[-1].action) == (BLACK_SEAT, {"type": "resign"})


# ---- 2. Sightline -> reconchess ---------------------------------------------------------------------------------

def _random_session(seed: int, session: GameSession | None = None, plies: int | None = None,
                    sense_none: float = 0.1) -> GameSession:
    """Random play from ``game.choices()``; a move onto the enemy king is always taken (games end quickly)."""
    rng = random.Random(seed)
    session = session or GameSession(ReconChess(), players=[PlayerInfo("Ann"), PlayerInfo("Bo", "bot", "random")])
    game = session.game
    assert isinstance(game, ReconChess)
    while not game.is_over and (plies is None or game.ply < plies):
        seat = game.to_move
        assert seat is not None
        choices = game.choices()
        square = None if rng.random() < sense_none else rng.choice(choices["sense_actions"])
        session.play(seat, Sense(square))
        actions = list(game.choices()["move_actions"])
        king = game.board.king(not game.board.turn)
        kills = [move for move in actions if move.to_square == king]
        move = kills[0] if kills else rng.choice(actions + [None])
        session.play(seat, MoveAction(move))
    return session


def _local_game_with_same_actions(record: GameRecord) -> GameHistory:
    """What LocalGame stores for the senses and moves of ``record`` (ended by the rules, not adjudicated)."""
    game = LocalGame(seconds_per_player=None)
    game.store_players(record.players[0].name, record.players[1].name)
    game.start()
    for entry in record.entries:
        action = entry.action
        assert entry.seat == (0 if game.turn else 1)
        if action["type"] == "sense":
            game.sense(None if action["square"] is None else chess.parse_square(action["square"]))
        else:
            game.move(None if action["move"] is None else chess.Move.from_uci(action["move"]))
            game.end_turn()
    assert game.is_over()
    game.end()
    history = game.get_game_history()
    assert history is not None
    return history


@pytest.mark.parametrize("seed", range(4))
def test_sightline_game_loads_in_reconchess(tmp_path: Path, seed: int) -> None:
    session = _random_session(seed)
    game = session.game
    assert isinstance(game, ReconChess)
    assert game.outcome is not None and game.outcome.reason is Reason.KING_CAPTURE
    path = tmp_path / "ours.json"
    export_reconchess(session.record, path)

    history = GameHistory.from_file(str(path))
    senses = {seat: [o for o in game.observations(seat) if isinstance(o, SenseResult)] for seat in (0, 1)}
    moves = {seat: [o for o in game.observations(seat) if isinstance(o, MoveResult)] for seat in (0, 1)}
    assert history.num_turns() == len(senses[0]) + len(senses[1])
    assert history.num_turns(chess.WHITE) == len(senses[0])
    assert history.get_white_player_name() == "Ann" and history.get_black_player_name() == "Bo"
    replayed = chess.Board()
    for turn in history.turns():
        seat = WHITE_SEAT if turn.color else BLACK_SEAT
        sensed, moved = senses[seat][turn.turn_number], moves[seat][turn.turn_number]
        assert history.sense(turn) == sensed.square
        assert history.sense_result(turn) == list(sensed.window)
        assert history.requested_move(turn) == moved.requested
        assert history.taken_move(turn) == moved.taken
        assert history.capture_square(turn) == moved.capture_square
        assert history.truth_fen_before_move(turn) == replayed.fen(en_passant="fen")
        replayed.push(moved.taken or chess.Move.null())
        assert history.truth_fen_after_move(turn) == replayed.fen(en_passant="fen")
        # what rc-replay reads for every turn
        assert history.has_sense(turn) and history.has_move(turn)
        if not history.is_first_turn(turn):
            history.truth_fen_after_move(turn.previous)
    assert replayed.fen() == game.board.fen()
    assert history.get_winner_color() == (game.outcome.winner == WHITE_SEAT)
    assert history.get_win_reason() is WinReason.KING_CAPTURE
    last = history.last_turn()
    assert history.taken_move(last) is not None and history.taken_move(last).to_square == history.capture_square(last)

    # exactly what LocalGame writes for the same senses and moves
    reference = tmp_path / "reference.json"
    _local_game_with_same_actions(session.record).save(str(reference))
    assert path.read_text() == reference.read_text()

    # and back again
    record = history_to_record(path)
    assert record.result is not None and (record.result.winner, record.result.reason) == (
        game.outcome.winner, game.outcome.reason)
    assert [entry.action for entry in record.entries] == [entry.action for entry in session.record.entries]


def test_record_to_history_replays_the_record() -> None:
    session = _random_session(1, plies=6)
    data = record_to_history(session.record)
    assert data["type"] == "GameHistory" and data["winner_color"] is None and data["win_reason"] is None
    assert list(data) == ["type", "white_name", "black_name", "senses", "sense_results", "requested_moves",
                          "taken_moves", "capture_squares", "fens_before_move", "fens_after_move",
                          "winner_color", "win_reason"]
    assert data["fens_before_move"]["true"][0] == STARTING_FEN
    assert len(data["senses"]["true"]) == len(data["senses"]["false"]) == 3

    broken = GameRecord.from_json(session.record.to_json())
    broken.entries[1] = Entry(WHITE_SEAT, {"type": "move", "move": "e2e5"})
    with pytest.raises(RecordError, match="action 2"):
        record_to_history(broken)

    odd_start = GameSession(ReconChess(fen="4k3/8/8/8/8/8/8/4K3 w - - 0 1"))
    with pytest.raises(RecordError, match="standard position"):
        record_to_history(odd_start.record)


# ---- 3. resignation, time, forfeit ------------------------------------------------------------------------------

def test_resigned_game_exports_and_imports(tmp_path: Path) -> None:
    session = _random_session(7, plies=8)
    session.play(WHITE_SEAT, Sense(chess.E5))
    session.play(WHITE_SEAT, Resign())
    path = tmp_path / "resign.json"
    export_reconchess(session.record, path)
    data = json.loads(path.read_text())
    assert data["winner_color"] is False
    assert data["win_reason"] == {"type": "WinReason", "value": "RESIGN"}
    assert len(data["senses"]["true"]) == 5 and len(data["requested_moves"]["true"]) == 4
    history = GameHistory.from_file(str(path))
    assert history.get_win_reason() is WinReason.RESIGN and history.get_winner_color() is chess.BLACK
    assert history.has_sense(Turn(chess.WHITE, 4)) and not history.has_move(Turn(chess.WHITE, 4))

    record = history_to_record(path)
    assert record.result is not None and (record.result.winner, record.result.reason) == (BLACK_SEAT, Reason.RESIGN)
    assert record.entries[-1].action == {"type": "resign"} and record.entries[-1].seat == WHITE_SEAT
    assert record_to_history(record) == data


def test_resignation_out_of_turn_exports(tmp_path: Path) -> None:
    session = _random_session(8, plies=5)
    session.play(BLACK_SEAT, Sense(None))
    session.play(WHITE_SEAT, Resign())  # White resigns while Black is to move
    data = record_to_history(session.record)
    assert data["winner_color"] is False and data["win_reason"]["value"] == "RESIGN"
    assert data["senses"]["false"][-1] is None and data["sense_results"]["false"][-1] == []
    record = history_to_record(data)
    assert record.result is not None and record.result.winner == BLACK_SEAT
    assert record_to_history(record) == data


@pytest.mark.parametrize("sensed", [False, True])
def test_timeout_exports_and_imports(tmp_path: Path, sensed: bool) -> None:
    now = [0.0]
    session = GameSession(ReconChess(), TimeControl(60, 0), time_source=lambda: now[0])
    _random_session(3, session, plies=6)
    if sensed:
        session.play(WHITE_SEAT, Sense(chess.C6))
    now[0] += 61
    assert session.check_time()
    assert session.record.result is not None and session.record.result.reason is Reason.TIMEOUT

    path = tmp_path / "timeout.json"
    export_reconchess(session.record, path)
    data = json.loads(path.read_text())
    assert data["winner_color"] is False and data["win_reason"] == {"type": "WinReason", "value": "TIMEOUT"}
    assert len(data["senses"]["true"]) == 3 + sensed and len(data["requested_moves"]["true"]) == 3
    history = GameHistory.from_file(str(path))
    assert history.get_win_reason() is WinReason.TIMEOUT and history.num_turns() == 6 + sensed

    record = history_to_record(path)
    assert record.result is not None and (record.result.winner, record.result.reason) == (BLACK_SEAT,
                                                                                          Reason.TIMEOUT)
    assert record.entries[-1].action == {"type": "adjudication", "seat": WHITE_SEAT, "reason": "timeout"}
    assert record_to_history(record) == data


def test_forfeit_exports_as_resignation_of_the_loser() -> None:
    session = _random_session(4, plies=4)
    session.adjudicate(Adjudication(WHITE_SEAT, Reason.FORFEIT, "the bot crashed"))
    data = record_to_history(session.record)
    assert data["winner_color"] is False and data["win_reason"] == {"type": "WinReason", "value": "RESIGN"}
    record = history_to_record(data)
    assert record.result is not None and (record.result.winner, record.result.reason) == (BLACK_SEAT,
                                                                                          Reason.RESIGN)


def test_aborted_and_unfinished_games_have_no_result() -> None:
    session = _random_session(5, plies=4)
    unfinished = record_to_history(session.record)
    session.adjudicate(Adjudication(BLACK_SEAT, Reason.ABORTED))
    aborted = record_to_history(session.record)
    assert unfinished == aborted and aborted["winner_color"] is None and aborted["win_reason"] is None
    record = history_to_record(aborted)
    assert record.result is None and len(record.entries) == 8


def test_game_without_draw_rule_imports_with_none() -> None:
    session = GameSession(ReconChess(draw_rule="none"))
    for ply, uci in enumerate(["g1f3", "g8f6", "f3g1", "f6g8"] * 26):
        session.play(ply % 2, Sense(None))
        session.play(ply % 2, MoveAction.parse(uci))
    session.play(BLACK_SEAT, Resign())
    data = record_to_history(session.record)
    record = history_to_record(data)
    assert record.options == {"draw_rule": "none"}
    assert record.result is not None and record.result.reason is Reason.RESIGN
    assert record_to_history(record) == data


# ---- 4. malformed input -----------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def good_history(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    path = tmp_path_factory.mktemp("history") / "good.json"
    _local_game(RandomBot, RandomBot, 2, path)  # a 46-turn king capture
    data: dict[str, Any] = json.loads(path.read_text())
    history_to_record(data)
    return data


def _mutated(data: dict[str, Any], change: Callable[[dict[str, Any]], None]) -> dict[str, Any]:
    copied = copy.deepcopy(data)
    change(copied)
    return copied


def _set(key: str, color: str, index: int, value: Any) -> Callable[[dict[str, Any]], None]:
    def change(data: dict[str, Any]) -> None:
        data[key][color][index] = value
    return change


def _other_taken(data: dict[str, Any]) -> None:
    move = chess.Move.from_uci(data["taken_moves"]["true"][2]["value"])
    data["taken_moves"]["true"][2] = {"type": "Move", "value": chess.Move(move.to_square, move.from_square).uci()}


def _truncate_turns(data: dict[str, Any]) -> None:
    for key in ("requested_moves", "taken_moves", "capture_squares", "fens_before_move", "fens_after_move"):
        del data[key]["true"][3:]


def _drop_black_turns(data: dict[str, Any]) -> None:
    for key in ("senses", "sense_results", "requested_moves", "taken_moves", "capture_squares",
                "fens_before_move", "fens_after_move"):
        del data[key]["false"][-2:]


MUTATIONS: list[tuple[str, Callable[[dict[str, Any]], None], str]] = [
    ("wrong type", lambda d: d.update(type="Game"), "'type' is 'Game'"),
    ("missing key", lambda d: d.pop("taken_moves"), "missing taken_moves"),
    ("taken move altered", _other_taken, r"Turn\(WHITE, 2\): the requested move .* took"),
    ("taken move not a move", _set("taken_moves", "true", 1, {"type": "Move", "value": "zz"}),
     r"Turn\(WHITE, 1\): bad taken_moves entry: not a move"),
    ("FEN altered", _set("fens_after_move", "false", 4, STARTING_FEN),
     r"Turn\(BLACK, 4\): the position after the move is"),
    ("FEN before altered", _set("fens_before_move", "true", 5, "8/8/8/8/8/8/8/8 w - - 0 1"),
     r"Turn\(WHITE, 5\): the position before the move"),
    ("capture altered", _set("capture_squares", "false", 0, 12), r"Turn\(BLACK, 0\): the capture square is e2"),
    ("sense result altered", _set("sense_results", "true", 3, []), r"Turn\(WHITE, 3\): the sense result"),
    ("sense not a square", _set("senses", "false", 2, True), r"Turn\(BLACK, 2\): bad senses entry"),
    ("requested move not allowed", _set("requested_moves", "true", 0, {"type": "Move", "value": "e2e5"}),
     r"Turn\(WHITE, 0\): move e2e5 does not replay"),
    ("lists of unequal length", lambda d: d["taken_moves"]["false"].pop(), "Black has .* requested moves but"),
    ("missing moves mid-game", _truncate_turns, r"Turn\(WHITE, 3\) has a sense but no move"),
    ("turns do not alternate", _drop_black_turns, "the turns do not alternate: White has 23 turns and Black 21"),
    ("not the standard start", _set("fens_before_move", "true", 0, "4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
     "standard starting position"),
    ("TURN_LIMIT", lambda d: d.update(winner_color=None, win_reason={"type": "WinReason", "value": "TURN_LIMIT"}),
     "full-turn limit"),
    ("unknown reason", lambda d: d.update(win_reason={"type": "WinReason", "value": "BOREDOM"}), "BOREDOM"),
    ("winner flipped", lambda d: d.update(winner_color=not d["winner_color"]), "ends by KING_CAPTURE"),
    ("claims a timeout", lambda d: d.update(win_reason={"type": "WinReason", "value": "TIMEOUT"}),
     "cannot be reproduced"),
    ("game continues after the end", lambda d: d.update(win_reason=None, winner_color=None),
     "records no result"),
    ("bad name", lambda d: d.update(white_name=3), "'white_name'"),
    ("per-colour value not an object", lambda d: d.update(senses=[]), "'senses' must be an object"),
]


@pytest.mark.parametrize("change, message", [(change, message) for _, change, message in MUTATIONS],
                         ids=[name for name, _, _ in MUTATIONS])
def test_malformed_histories_raise_record_error(good_history: dict[str, Any],
                                                change: Callable[[dict[str, Any]], None], message: str) -> None:
    with pytest.raises(RecordError, match=message):
        history_to_record(_mutated(good_history, change))


def test_unreadable_files_raise_record_error(tmp_path: Path, good_history: dict[str, Any]) -> None:
    text = json.dumps(good_history)
    truncated = tmp_path / "truncated.json"
    truncated.write_text(text[: len(text) // 2])
    with pytest.raises(RecordError, match="not valid JSON .*truncated"):
        history_to_record(truncated)
    garbage = tmp_path / "garbage.json"
    garbage.write_text("this is not json")
    with pytest.raises(RecordError, match="not valid JSON"):
        history_to_record(str(garbage))
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(RecordError, match="not a text file"):
        history_to_record(binary)
    with pytest.raises(RecordError, match="cannot read"):
        history_to_record(tmp_path / "missing.json")
    listing = tmp_path / "list.json"
    listing.write_text("[1, 2, 3]")
    with pytest.raises(RecordError, match="not a JSON object"):
        history_to_record(listing)
    record = tmp_path / "record.json"
    record.write_text(json.dumps(history_to_record(good_history).to_json()))
    with pytest.raises(RecordError, match="not a reconchess game history"):
        history_to_record(record)


def test_a_history_with_a_byte_order_mark_imports_as_a_record_loads(tmp_path: Path,
                                                                     good_history: dict[str, Any]) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(good_history).encode("utf-8"))
    assert history_to_record(path).entries == history_to_record(good_history).entries


@pytest.mark.parametrize("text", ['{"type": "GameHistory", "white_name": ' + "9" * 5000 + "}",
                                  '{"type": "GameHistory", "senses": NaN}'])
def test_numbers_json_cannot_hold_are_named(tmp_path: Path, text: str) -> None:
    path = tmp_path / "numbers.json"
    path.write_text(text)
    with pytest.raises(RecordError, match="not a plain JSON number, or one too long to read") as refused:
        history_to_record(path)
    assert len(str(refused.value)) < 300


def test_a_huge_value_in_a_history_is_named_briefly(good_history: dict[str, Any]) -> None:
    with pytest.raises(RecordError, match="bad senses entry: not a square") as refused:
        history_to_record(_mutated(good_history, _set("senses", "true", 0, 10 ** 5000)))
    assert len(str(refused.value)) < 300


def test_a_history_too_long_for_a_record_is_refused_before_replaying(good_history: dict[str, Any]) -> None:
    turns = 12_600  # each colour: a sense and a move per turn, 50,400 steps in all
    long = copy.deepcopy(good_history)
    for key, value in (("senses", 0), ("sense_results", []), ("requested_moves", None), ("taken_moves", None),
                       ("capture_squares", None), ("fens_before_move", STARTING_FEN),
                       ("fens_after_move", STARTING_FEN)):
        long[key] = {"true": [value] * turns, "false": [value] * turns}
    long["winner_color"], long["win_reason"] = None, None
    with pytest.raises(RecordError, match="would hold 50401 steps, and a record may hold at most 50000"):
        history_to_record(long)


def test_a_fifo_is_refused_without_waiting(tmp_path: Path) -> None:
    import os
    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs here")
    fifo = tmp_path / "history.json"
    os.mkfifo(fifo)
    with pytest.raises(RecordError, match="not a regular file"):
        history_to_record(fifo)


def _junk(rng: random.Random) -> Any:
    return rng.choice([None, True, 7, -1, 64, 2.5, "e4", "", [], {}, [1, None], {"type": "Move", "value": "a1a1"},
                       {"type": "Piece", "value": "x"}, {"type": "Move", "value": "P@e4"},
                       {"type": "WinReason", "value": 3}, [[0, {"type": "Piece"}]], {"true": [], "false": []}])


def _random_mutations(data: dict[str, Any], rng: random.Random) -> Iterator[dict[str, Any]]:
    """Replace or delete one value anywhere in the history."""
    for _ in range(400):
        copied = copy.deepcopy(data)
        parent: Any = copied
        key: Any = None
        while True:
            keys = list(parent) if isinstance(parent, dict) else list(range(len(parent)))
            if not keys:
                break
            key = rng.choice(keys)
            child = parent[key]
            if not isinstance(child, (dict, list)) or not child or rng.random() < 0.25:
                break
            parent = child
        if key is None:
            continue
        if isinstance(parent, list) and rng.random() < 0.3:
            del parent[key]
        else:
            parent[key] = _junk(rng)
        yield copied


def test_random_corruptions_raise_only_record_error(good_history: dict[str, Any]) -> None:
    rng = random.Random(1234)
    failures = 0
    for mutated in _random_mutations(good_history, rng):
        try:
            history_to_record(mutated)
        except RecordError as error:
            assert str(error)
            failures += 1
    assert failures > 300
