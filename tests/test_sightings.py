"""No board shows as current an enemy piece that a later observation of the seat contradicts (issue 26, item 4).

Each square shows the latest thing the seat learned about it: a sensed or revealed piece, an enemy piece of
unknown type where the opponent captured one of the seat's pieces, or nothing once a later sense, a move of its
own or a capture says otherwise. What the seat learned before the opponent's latest move (that it knows of) is
drawn old: faded, under a grey label with its turn, its tooltip saying when it was seen. What it learned at or
after that move is current: it is still true.
"""

from __future__ import annotations

import random
from typing import Any

import chess
import pytest

from app.games.blind import rules as blind
from app.games.blind.rules import AnswerDraw, Attempt, AttemptResult, BlindChess, BlindChessView, PieceLost
from app.games.rbc.rules import (PASS, MoveAction, MoveResult, ReconChess, ReconChessView, Sense, SenseResult,
                                 TurnStarted)
from app.games.blind.presenter import blind_scene
from app.games.chess_kit import from_sq8, sq8, turn_number
from app.games.rbc.presenter import rbc_scene
from app.games.scene import BoardScene, unknown_piece

D5 = sq8(chess.D5)


def _rbc(*turns: tuple[str, str], fen: str = chess.STARTING_FEN) -> ReconChess:
    """An RBC game played turn by turn: (square to sense, move in UCI or "pass")."""
    game = ReconChess(fen=fen)
    for sense, move in turns:
        seat = game.to_move
        game.play(seat, Sense(chess.parse_square(sense)))
        game.play(seat, PASS if move == "pass" else MoveAction(chess.Move.from_uci(move)))
    return game


def _blind(*moves: str) -> BlindChess:
    game = BlindChess()
    for move in moves:
        game.play(game.to_move, Attempt(chess.Move.from_uci(move)))
    return game


def _old(scene: BoardScene) -> dict[tuple[int, int], str]:
    """The squares drawn as old sightings, with their marker's label."""
    return {cell: marker.label for marker in scene.markers if marker.kind == "seen_old" for cell in marker.squares}


def _rbc_scene_of(game: ReconChess, seat: int) -> BoardScene:
    return rbc_scene(ReconChessView.from_observations(game.observations(seat)))


# ---- the cases of the issue ------------------------------------------------------------------------------------

def test_rbc_a_pawn_sensed_taken_and_retaken_by_the_queen_is_an_unknown_piece_not_a_pawn() -> None:
    """Sense a pawn on d5, take it, the queen takes back: White's board and tooltip no longer say 'black pawn'."""
    game = _rbc(("e4", "e2e4"), ("e5", "d7d5"), ("d5", "e4d5"), ("d5", "d8d5"))
    assert game.board.piece_at(chess.D5) == chess.Piece.from_symbol("q")
    scene = _rbc_scene_of(game, 0)
    assert scene.pieces[D5] == unknown_piece(False) == "x"
    assert "pawn" not in scene.notes[D5] and "unknown type" in scene.notes[D5] and "turn 2" in scene.notes[D5]
    assert D5 not in _old(scene)  # learned at the start of this turn: the latest news, not old
    assert D5 in scene.last_seen  # never glides: the seat did not watch it come
    game.play(0, Sense(chess.H7))  # a sense elsewhere: the opponent has not moved since, it is still news
    assert D5 not in _old(_rbc_scene_of(game, 0))
    game.play(0, MoveAction(chess.Move.from_uci("a2a3")))
    game.play(1, Sense(chess.A2))
    game.play(1, PASS)  # the opponent has had a turn since: now the unknown piece is old news
    scene = _rbc_scene_of(game, 0)
    assert scene.pieces[D5] == "x" and D5 in _old(scene)
    assert _old(scene)[D5] == ""  # its turn is written once, by the red lost-piece marker ("t2") already there
    assert any(marker.kind == "lost" and marker.label == "t2" and D5 in marker.squares for marker in scene.markers)


def test_rbc_a_sense_is_old_news_once_the_opponent_has_moved_even_before_the_next_sense() -> None:
    """White senses the pawn on e7 and plays e4, Black plays e7-e5: at the start of White's turn 2, before it
    senses, e7 is drawn old (faded, turn 1), not as a pawn that is there now."""
    game = _rbc(("e7", "e2e4"), ("a1", "e7e5"))
    assert game.board.piece_at(chess.E7) is None
    scene = _rbc_scene_of(game, 0)
    e7 = sq8(chess.E7)
    assert scene.pieces[e7] == "p" and e7 in _old(scene) and scene.notes[e7] == "black pawn seen on e7 at turn 1"


def test_rbc_the_king_that_took_back_on_f7_is_not_shown_as_the_pawn_sensed_there() -> None:
    game = _rbc(("e4", "e2e4"), ("e5", "e7e5"), ("d3", "f1c4"), ("c6", "b8c6"), ("f7", "c4f7"), ("f2", "e8f7"))
    assert game.board.piece_at(chess.F7) == chess.Piece.from_symbol("k")
    scene = _rbc_scene_of(game, 0)
    assert scene.pieces[sq8(chess.F7)] == "x"
    assert scene.pieces[sq8(chess.E8)] == "k"  # what the latest sense showed, not contradicted by anything since


def test_rbc_an_older_sense_is_drawn_old_with_its_turn_and_said_so_in_words() -> None:
    game = _rbc(("e7", "e2e4"), ("e2", "a7a6"))
    game.play(0, Sense(chess.A2))  # turn 2: a sense of its own side
    scene = _rbc_scene_of(game, 0)
    old = _old(scene)
    window = next(marker for marker in scene.markers if marker.kind == "sense_old")
    assert window.label == "t1"
    for square, letter in (("d8", "q"), ("e8", "k"), ("f8", "b"), ("d7", "p"), ("e7", "p"), ("f7", "p")):
        cell = sq8(chess.parse_square(square))
        # Faded, under the dashed outline of the turn-1 sense that says its turn (no second label on the piece).
        assert scene.pieces[cell] == letter and old[cell] == "" and cell in window.squares
    assert scene.notes[sq8(chess.D8)] == "black queen seen on d8 at turn 1"
    game.play(0, MoveAction(chess.Move.from_uci("d2d3")))
    game.play(1, Sense(chess.E2))
    game.play(1, PASS)
    game.play(0, Sense(chess.D7))  # looks again: d7, e7 and the rest are news again, with no old label
    scene = _rbc_scene_of(game, 0)
    assert scene.pieces[sq8(chess.D7)] == "p" and sq8(chess.D7) not in _old(scene)
    assert sq8(chess.D7) not in scene.notes  # a current piece's tooltip is its name and the sense's turn


def test_rbc_a_sighting_the_seats_own_piece_crossed_or_stood_on_is_gone() -> None:
    fen = "4k3/8/8/n7/8/8/8/R3K3 w - - 0 1"
    a5 = sq8(chess.A5)
    crossed = _rbc(("a5", "e1e2"), ("e4", "a5c6"), fen=fen)
    crossed.play(0, Sense(chess.H8))
    assert _rbc_scene_of(crossed, 0).pieces[a5] == "n" and a5 in _old(_rbc_scene_of(crossed, 0))
    crossed.play(0, MoveAction(chess.Move.from_uci("a1a8")))  # the rook crosses a5: nothing stood there
    assert a5 not in _rbc_scene_of(crossed, 0).pieces
    stood = _rbc(("a5", "e1e2"), ("e4", "a5c6"), ("h8", "a1a5"), ("e4", "c6e5"), fen=fen)
    stood.play(0, Sense(chess.H8))
    stood.play(0, MoveAction(chess.Move.from_uci("a5a1")))  # the rook stood on a5, then left it
    assert a5 not in _rbc_scene_of(stood, 0).pieces


def test_rbc_a_pawn_capture_that_was_not_played_empties_its_square() -> None:
    # White senses the pawn on d5, Black moves it away; the capture e4xd5 finds nothing and is not played.
    game = _rbc(("e4", "e2e4"), ("e5", "d7d5"), ("d5", "pass"), ("e2", "d5d4"), ("h8", "e4d5"))
    assert game.observations(0)[-1].taken is None
    assert D5 not in _rbc_scene_of(game, 0).pieces


def test_rbc_a_pawn_taken_right_after_stepping_two_squares_leaves_both_squares_unknown() -> None:
    # It may have been taken en passant (the taker is then on d3, not d4): the seat cannot tell, so neither
    # square shows an enemy piece.
    game = _rbc(("h8", "a2a3"), ("a1", "e7e5"), ("h8", "a3a4"), ("a1", "e5e4"), ("h8", "d2d4"), ("a1", "e4d3"))
    assert game.board.piece_at(chess.D3) == chess.Piece.from_symbol("p") and game.board.piece_at(chess.D4) is None
    scene = _rbc_scene_of(game, 0)
    assert sq8(chess.D4) not in scene.pieces and sq8(chess.D3) not in scene.pieces


def test_blind_the_piece_that_took_yours_is_an_unknown_piece_and_old_reveals_are_drawn_old() -> None:
    game = _blind("e2e4", "d7d5", "e4d5", "d8d5")
    scene = blind_scene(BlindChessView.from_observations(game.observations(0)))
    assert scene.pieces[D5] == "x" and D5 not in _old(scene) and "unknown type" in scene.notes[D5]
    game = _blind("e2e4", "d7d5", "e4e5")  # e4-e5 reveals the pawn on d5 at turn 2
    view = BlindChessView.from_observations(game.observations(0))
    scene = blind_scene(view)
    assert scene.pieces[D5] == "p" and D5 not in _old(scene)
    assert any(marker.kind == "reveal" and marker.label == "t2" and D5 in marker.squares for marker in scene.markers)
    game.play(1, Attempt(chess.Move.from_uci("d5d4")))  # the opponent has moved: the pawn is old news
    scene = blind_scene(BlindChessView.from_observations(game.observations(0)))
    assert scene.pieces[D5] == "p" and _old(scene)[D5] == "t2"
    game.play(0, Attempt(chess.Move.from_uci("c2c4")))  # a move that reveals nothing: still old
    scene = blind_scene(BlindChessView.from_observations(game.observations(0)))
    assert scene.pieces[D5] == "p" and _old(scene)[D5] == "t2"
    assert scene.notes[D5] == "black pawn seen on d5 at turn 2"
    assert not any(marker.kind == "reveal" and D5 in marker.squares for marker in scene.markers)
    game.play(1, Attempt(chess.Move.from_uci("a7a6")))
    game.play(0, Attempt(chess.Move.from_uci("c4d5")))  # the capture fails: nothing stands on d5
    assert game.observations(0)[-1].success is False
    assert D5 not in blind_scene(BlindChessView.from_observations(game.observations(0))).pieces


def test_blind_a_reveal_is_old_news_after_a_failed_attempt_and_the_opponents_moves() -> None:
    """The pawn revealed on d5 at turn 2; White's turn-3 attempt fails (no reveal), Black moves twice: at turn 4
    the pawn is drawn old with its turn and no orange reveal outline."""
    game = _blind("e2e4", "d7d5", "e4e5", "a7a6", "e5d6")
    assert game.observations(0)[-1].success is False  # d6 is empty: the pawn's capture fails
    game.play(1, Attempt(chess.Move.from_uci("d5d4")))
    scene = blind_scene(BlindChessView.from_observations(game.observations(0)))
    assert game.board.piece_at(chess.D5) is None
    assert scene.pieces[D5] == "p" and _old(scene)[D5] == "t2"
    assert not any(marker.kind == "reveal" and D5 in marker.squares for marker in scene.markers)


# ---- over random games: every enemy piece shown is what stood there when the seat last looked -------------------

def _pair(entry: Any) -> tuple[chess.Board, chess.Board]:
    return entry if isinstance(entry, tuple) else (entry, entry)


def _rbc_looks(observations: list, boards: list, color: chess.Color) -> tuple[dict[int, tuple], int]:
    """Each square's latest observation by the seat: (true board then, ply, index), and the ply of the opponent's
    latest move the seat knows of (-1 if none; the turn before each of its turns, a pass counting as a move).

    An observation of a square says what stands on it: a sense; a move of its own (the squares it crossed,
    landed on or captured on; castling, the squares between king and rook); a pawn capture that was not played
    (its square); the opponent's capture of its piece (the square)."""
    looks: dict[int, tuple] = {}
    since = -1
    for index, (observation, entry) in enumerate(zip(observations, boards)):
        before, after = _pair(entry)
        if isinstance(observation, SenseResult):
            for square, _ in observation.window:
                looks[square] = (after, observation.ply, index)
        elif isinstance(observation, TurnStarted):
            if observation.ply:
                since = observation.ply - 1
            if observation.capture_square is not None:
                looks[observation.capture_square] = (after, observation.ply - 1, index)
        elif isinstance(observation, MoveResult):
            move = observation.taken
            squares = 0
            if move is not None:
                squares = chess.between(move.from_square, move.to_square) | chess.BB_SQUARES[move.to_square]
                if observation.capture_square is not None:
                    squares |= chess.BB_SQUARES[observation.capture_square]
                if before.is_castling(move):
                    rook = chess.square(7 if move.to_square > move.from_square else 0,
                                        chess.square_rank(move.from_square))
                    squares |= chess.between(move.from_square, rook)
            elif observation.requested is not None:
                asked = observation.requested
                if (before.piece_type_at(asked.from_square) == chess.PAWN
                        and chess.square_file(asked.from_square) != chess.square_file(asked.to_square)):
                    squares = chess.BB_SQUARES[asked.to_square]
            for square in chess.scan_forward(squares):
                looks[square] = (after, observation.ply, index)
    return looks, since


_RAYS = {chess.ROOK: ((0, 1), (0, -1), (1, 0), (-1, 0)), chess.BISHOP: ((1, 1), (1, -1), (-1, 1), (-1, -1))}
_RAYS[chess.QUEEN] = _RAYS[chess.ROOK] + _RAYS[chess.BISHOP]


def _ray_squares(board: chess.Board, origin: int, steps: tuple) -> int:
    """The squares along each line from ``origin`` up to and with the first piece."""
    found = 0
    for df, dr in steps:
        file, rank = chess.square_file(origin) + df, chess.square_rank(origin) + dr
        while 0 <= file < 8 and 0 <= rank < 8:
            square = chess.square(file, rank)
            found |= chess.BB_SQUARES[square]
            if board.occupied & chess.BB_SQUARES[square]:
                break
            file, rank = file + df, rank + dr
    return found


def _blind_looks(observations: list, boards: list, color: chess.Color) -> tuple[dict[int, tuple], int]:
    """As :func:`_rbc_looks` for Blind Chess: a successful move looks at the squares it crossed, landed or captured
    on and every square where rule B4 would have revealed an enemy piece (along its lines up to the first piece,
    around a king, a pawn's diagonals and the square in front of it); a failed pawn capture at its square; a lost
    piece at its square. The ply returned is the opponent's latest move the seat knows of: the turn before each of
    its turns (begun or skipped; a failed attempt counts), or the move that took one of its pieces."""
    looks: dict[int, tuple] = {}
    since = -1
    for index, (observation, entry) in enumerate(zip(observations, boards)):
        before, after = _pair(entry)
        if isinstance(observation, (blind.TurnStarted, blind.TurnSkipped)) and observation.ply:
            since = max(since, observation.ply - 1)
        elif isinstance(observation, PieceLost):
            since = max(since, observation.ply)
            looks[observation.square] = (after, observation.ply, index)
        elif isinstance(observation, AttemptResult):
            move = observation.move
            piece_type = before.piece_type_at(move.from_square)
            diagonal = chess.square_file(move.from_square) != chess.square_file(move.to_square)
            if not observation.success:
                if piece_type == chess.PAWN and diagonal:
                    looks[move.to_square] = (after, observation.ply, index)
                continue
            squares = chess.between(move.from_square, move.to_square) | chess.BB_SQUARES[move.to_square]
            if observation.capture is not None:
                squares |= chess.BB_SQUARES[observation.capture[1]]
            if piece_type == chess.KING:
                squares |= chess.BB_KING_ATTACKS[move.from_square]
                if before.is_castling(move):
                    rook = chess.square(7 if move.to_square > move.from_square else 0,
                                        chess.square_rank(move.from_square))
                    squares |= chess.between(move.from_square, rook) | _ray_squares(before, rook, _RAYS[chess.ROOK])
            elif piece_type in _RAYS:
                squares |= _ray_squares(before, move.from_square, _RAYS[piece_type])
            elif piece_type == chess.PAWN:
                squares |= chess.BB_PAWN_ATTACKS[color][move.from_square]
                if not diagonal:
                    ahead = move.to_square + (8 if color == chess.WHITE else -8)
                    if 0 <= ahead < 64:
                        squares |= chess.BB_SQUARES[ahead]
            for square in chess.scan_forward(squares):
                looks[square] = (after, observation.ply, index)
    return looks, since


def _check_scene(scene: BoardScene, looks: dict[int, tuple], since: int, truth_now: chess.Board | None,
                 color: chess.Color) -> int:
    """Own pieces are the true ones; each enemy piece shown is what stood on its square when the seat last looked
    at it (any enemy piece for an unknown one); it is drawn current if and only if that look came at or after the
    opponent's latest move the seat knows of (``since``), and then it is still what stands there now; otherwise it
    is drawn old with that turn in its words. Returns how many enemy pieces were shown."""
    if truth_now is not None:  # (a captured king is not told: the game just ends)
        own = {sq8(square): piece.symbol() for square, piece in truth_now.piece_map().items()
               if piece.color == color}
        assert {cell: code for cell, code in scene.pieces.items() if code.isupper() == color} == own
    old = _old(scene)
    shown = 0
    for cell, code in scene.pieces.items():
        if code.isupper() == color:
            continue
        shown += 1
        square = from_sq8(cell)
        assert square in looks, f"{code} on {chess.square_name(square)} was never looked at"
        board, ply, index = looks[square]
        truth = board.piece_at(square)
        assert truth is not None and truth.color != color, \
            f"{code} on {chess.square_name(square)}, but nothing of the enemy's stood there at ply {ply}"
        if code != unknown_piece(not color):
            assert truth.symbol() == code, f"{code} on {chess.square_name(square)}, {truth.symbol()} at ply {ply}"
        if cell in old:
            assert ply < since, f"{code} on {chess.square_name(square)} from ply {ply} drawn old, opponent: {since}"
            assert f"at turn {turn_number(ply)}" in scene.notes[cell]
        else:
            assert ply >= since, f"{code} on {chess.square_name(square)} from ply {ply} drawn as current, " \
                                 f"though the opponent moved at ply {since}"
            if truth_now is not None:  # nothing has moved it since: it is still there
                now = truth_now.piece_at(square)
                assert now is not None and now.color != color and code in (now.symbol(), unknown_piece(not color)), \
                    f"{code} on {chess.square_name(square)} drawn as current, but {now} stands there"
    return shown


def _rbc_action(game: ReconChess, rng: random.Random) -> Any:
    if game.phase == "sense":
        return Sense(rng.randrange(64))
    actions = game.move_actions()
    # Captures and pawn moves first, now and then: more pieces meet, more squares are taken and taken back.
    eager = [move for move in actions if game.board.piece_at(move.to_square) is not None
             or game.board.piece_type_at(move.from_square) == chess.PAWN]
    if eager and rng.random() < 0.5:
        return MoveAction(rng.choice(eager))
    return PASS if rng.random() < 0.05 or not actions else MoveAction(rng.choice(actions))


def _blind_action(game: BlindChess, rng: random.Random) -> Any:
    if game.phase == "answer_draw":
        return AnswerDraw(False)
    attempts = game.choices()["attempts"]
    eager = [move for move in attempts if game.board.piece_at(move.to_square) is not None]
    return Attempt(rng.choice(eager if eager and rng.random() < 0.4 else attempts))


@pytest.mark.parametrize("seed", range(8))
@pytest.mark.parametrize("key", ["rbc", "blind"])
def test_no_board_shows_as_current_a_piece_a_later_observation_contradicts(key: str, seed: int) -> None:
    rng = random.Random(seed)
    if key == "rbc":
        game: Any = ReconChess()
        act, looks_of, view_type, scene_of = _rbc_action, _rbc_looks, ReconChessView, rbc_scene
    else:
        game = BlindChess()
        act, looks_of, view_type, scene_of = _blind_action, _blind_looks, BlindChessView, blind_scene
    boards: list[list[Any]] = [[game.truth()] * len(game.observations(seat)) for seat in (0, 1)]
    shown = unknown = old = 0
    while game.outcome is None and game.ply < 200:
        before = game.truth()
        game.play(game.to_move, act(game, rng))
        after = game.truth()
        for seat in (0, 1):
            observations = game.observations(seat)
            boards[seat].extend([(before, after)] * (len(observations) - len(boards[seat])))
            color = seat == 0
            looks, since = looks_of(observations, boards[seat], color)
            scene = scene_of(view_type.from_observations(observations))
            shown += _check_scene(scene, looks, since, after if game.outcome is None else None, color)
            unknown += sum(code == unknown_piece(not color) for code in scene.pieces.values())
            old += len(_old(scene))
    assert shown > 50 and unknown > 0 and old > 0  # the check had something to check


# ---- the window --------------------------------------------------------------------------------------------------

def test_the_window_shows_and_says_an_unknown_piece_and_an_old_sighting(window, qtbot, tmp_path) -> None:
    """The d5 game played in a hot-seat window: White's board draws an unknown piece on d5 whose tooltip says so,
    and, after White senses elsewhere, the pieces of the older sense faded, with their turn."""
    from PySide6.QtCore import Qt

    from app.engine.clock import TimeControl
    from app.ui.new_game_dialog import NewGame

    window.start(NewGame("rbc", False, "random", "medium", 0, TimeControl(600, 5), "50-move"))
    controller = window.controller

    def turn(sense: str, move: str) -> None:
        if controller.curtain_for is not None:
            qtbot.keyClick(window.curtain, Qt.Key.Key_Space)
        window.board.senseRequested.emit(sq8(chess.parse_square(sense)))
        uci = chess.Move.from_uci(move)
        window.board.moveRequested.emit(sq8(uci.from_square), sq8(uci.to_square), None)

    for sense, move in (("e4", "e2e4"), ("e5", "d7d5"), ("d5", "e4d5"), ("d5", "d8d5")):
        turn(sense, move)
    qtbot.keyClick(window.curtain, Qt.Key.Key_Space)
    assert controller.screen_seat == 0
    board = window.board
    assert board.pieces()[D5] == "x"
    tip = board.describe_square(D5)  # the text of the square's tooltip
    assert tip.startswith("black piece of unknown type on d5: it captured your piece there at turn 2")
    assert "black pawn" not in tip and "piece lost (t2)" in tip
    window.grab().save(str(tmp_path / "unknown.png"))

    window.board.senseRequested.emit(sq8(chess.H7))  # White senses elsewhere; Black has not moved since
    assert board.describe_square(sq8(chess.G7)) == "g7: black pawn; sensed (t3)"
    assert not any(marker.kind == "seen_old" and D5 in marker.squares for marker in board.markers())
    window.board.moveRequested.emit(sq8(chess.A2), sq8(chess.A3), None)
    turn("a1", "a7a6")  # Black has moved: what White learned before is old news, though it has not sensed yet
    qtbot.keyClick(window.curtain, Qt.Key.Key_Space)
    assert controller.screen_seat == 0
    g7 = sq8(chess.G7)
    assert board.describe_square(g7) == "black pawn seen on g7 at turn 3; sensed (t3)"
    assert any(marker.kind == "seen_old" and D5 in marker.squares and g7 in marker.squares
               for marker in board.markers())
    window.grab().save(str(tmp_path / "old.png"))


def test_an_old_sighting_is_painted_faded_under_its_turn(qtbot) -> None:
    from PySide6.QtGui import QColor

    from app.ui.board_widget import BoardWidget
    game = _rbc(("e7", "e2e4"), ("e2", "a7a6"))
    game.play(0, Sense(chess.A2))
    scene = _rbc_scene_of(game, 0)
    board = BoardWidget()
    qtbot.addWidget(board)
    board.resize(480, 480)
    board.set_scene(scene)
    e8 = sq8(chess.E8)
    assert board.describe_square(e8) == "black king seen on e8 at turn 1; sensed earlier (t1)"
    faded = board.grab().toImage()
    board.set_markers([marker for marker in scene.markers if marker.kind != "seen_old"])
    plain = board.grab().toImage()
    rect = board._geometry().square_rect(e8)
    differ = sum(QColor(faded.pixel(x, y)) != QColor(plain.pixel(x, y))
                 for x in range(rect.left(), rect.right(), 3) for y in range(rect.top(), rect.bottom(), 3))
    assert differ > 50  # the king is drawn fainter, with a grey "t1" in the corner


def test_a_board_image_of_the_seats_view_draws_the_unknown_piece_and_fades_old_sightings() -> None:
    """An exported image of White's view in the d5 game stays python-chess's board (no turn labels in its
    squares), with the unknown piece as a disc with a question mark and the older sense's pieces veiled."""
    from app.exports import scene_svg
    game = _rbc(("e7", "e2e4"), ("e5", "d7d5"), ("d5", "e4d5"), ("d5", "d8d5"))
    game.play(0, Sense(chess.G4))
    svg = scene_svg(_rbc_scene_of(game, 0))
    assert svg.count('class="unknown-piece"') == 1 and ">?</text>" in svg
    # d8 e8 f8 d7 e7 f7 seen at turn 1 (the taker on d5 is news: Black has not moved since it took)
    assert svg.count('class="old-sighting"') == 6
    assert "marker-label" not in svg and ">t1<" not in svg
