"""Cloak and Dagger's board as a seat sees it: pieces and numbered checkers, the moves, drops and picks it may
make now, and the grids beside it (:mod:`app.games.cloak.grids`).

Pawns and uncloaked pieces are drawn as pieces; a cloaked checker is a numbered disc in its side's colour (a
checker token of :mod:`app.games.scene`), with the piece it stands for drawn faint inside only where the seat
knows it: always for its own checkers, for an enemy checker only once its identity was told to both.
"""

from __future__ import annotations

import chess

from app.games.chess_kit import sq8
from app.games.cloak.grids import zones
from app.games.cloak.marks import CloakMarks
from app.games.cloak.moves import legal_moves_on
from app.games.cloak.reading import (PIECES, bonus_pawn_moves, checker_number, colour_of, drops, identity, my_turn,
                                     piece_code, targets, tokens, uci_text)
from app.games.cloak.rules import CloakTruth
from app.games.cloak.view import CloakView, Dropped, Moved
from app.games.scene import BoardScene, Cell, MarkerSpec, checker_token


def pieces(marks: CloakMarks, view: CloakView) -> dict[Cell, str]:
    """The scene's pieces: what the seat sees, its own checkers showing the pieces its draft gives them while it
    arranges."""
    draft = marks.draft_for(view)
    shown_pieces: dict[Cell, str] = {}
    for square, token in tokens(view).items():
        shown = None
        if token.kind == "?":
            shown = identity(view, token.colour, checker_number(token))
            if shown is None and draft is not None and token.colour == colour_of(view.seat):
                letter = draft[checker_number(token) - 1]
                shown = letter if letter in PIECES else None
        shown_pieces[sq8(square)] = piece_code(token, shown)
    return shown_pieces


def scene(marks: CloakMarks, view: CloakView) -> BoardScene:
    """The board as the view's seat knows it, with what it may do now in its phase of the turn."""
    board = BoardScene(pieces=pieces(marks, view))
    if view.moves:
        board.last_move = _last_move(view.moves[-1].moved)
    mine = my_turn(view)
    if mine and view.phase == "arrange" and marks.draft_for(view) is not None:
        # A checker of the own back rank dragged onto another swaps the pieces the draft gives them.
        colour = colour_of(view.seat)
        back_rank = [sq8(square) for square, token in tokens(view).items()
                     if token.kind == "?" and token.colour == colour]
        board.targets = {cell: {other: [] for other in back_rank if other != cell} for cell in back_rank}
    elif mine and view.phase == "move":
        board.targets = move_targets(view)
    elif mine and view.phase == "bonus":
        drop_squares = tuple(sq8(chess.parse_square(name)) for name in drops(view))
        if marks.dropping(view):
            allowed = set(drop_squares)
            board.sense_window = lambda cell: [cell] if cell in allowed else []
            board.markers.append(MarkerSpec("sense", drop_squares, "drop"))
        else:
            board.targets = targets(bonus_pawn_moves(view))
            if drop_squares:
                board.markers.append(MarkerSpec("sense_old", drop_squares, "drop", 0.8))
    elif mine and view.phase == "uncloak":
        colour = colour_of(view.seat)
        own = {sq8(square) for square, token in view.board.items()
               if token.kind == "?" and token.colour == colour}
        board.sense_window = lambda cell: [cell] if cell in own else []
        picked = set(marks.pending_uncloak(view))
        squares = tuple(sq8(square) for square, token in view.board.items()
                        if token.kind == "?" and token.colour == colour and token.checker in picked)
        if squares:
            board.markers.append(MarkerSpec("reveal", squares, "uncloak"))
    board.zones = zones(marks, view)
    return board


def premove_scene(marks: CloakMarks, view: CloakView) -> BoardScene | None:
    """While the opponent acts (its move, guess, bonus or uncloaking): the seat's board with the regular moves
    it would have if its turn began now, to queue one."""
    if view.seat is None or view.outcome is not None or my_turn(view) or not view.own_arrangement \
            or view.phase == "arrange":
        return None
    board = scene(marks, view)
    moves = [move.uci() for move in legal_moves_on(view.position, view.seat, view.knowledge(view.seat))]
    board.targets = move_targets(view, moves)
    return board


def move_targets(view: CloakView, legal: list[str] | None = None) -> dict[Cell, dict[Cell, list[str]]]:
    """The moves of the view's list (or ``legal``), with each castling also offered as the king's two-square
    step (where that square is not already a move of the king's own)."""
    moves = [chess.Move.from_uci(move) for move in (view.legal_moves() if legal is None else legal)]
    found = targets(moves)
    for move in moves:
        alias = castling_alias(view, move, moves)
        if alias is not None:
            found[sq8(move.from_square)].setdefault(sq8(alias), [])
    return found


def castling_alias(view: CloakView, move: chess.Move, moves: list[chess.Move]) -> int | None:
    """For a castling (the king onto its own rook, as the view lists it among ``moves``), the square the king
    ends on, if dragging the king there means nothing else; else None."""
    colour = colour_of(view.seat)
    king, rook = view.board.get(move.from_square), view.board.get(move.to_square)
    if king is None or rook is None or king.colour != colour or rook.colour != colour:
        return None
    rank = chess.square_rank(move.from_square)
    end = chess.square(6 if move.to_square > move.from_square else 2, rank)
    if end == move.from_square:
        return None
    return None if chess.Move(move.from_square, end) in moves else end


def _last_move(moved: Moved | Dropped) -> tuple[Cell, Cell]:
    """The squares to light for a move (from and to) or a drop (its square alone)."""
    if isinstance(moved, Dropped):
        return sq8(moved.square), sq8(moved.square)
    return sq8(moved.from_square), sq8(moved.to_square)


def truth_pieces(truth: CloakTruth) -> dict[Cell, str]:
    """Every piece of a true position (``CloakChess.truth()``): pawns and uncloaked pieces as pieces, each
    cloaked checker as its numbered disc with the piece it stands for inside (only for a finished game or the
    replay's truth)."""
    board: chess.Board = truth.board
    found: dict[Cell, str] = {}
    for square, piece in board.piece_map().items():
        checker = truth.checkers.get(square)
        if checker is not None and checker[1] in truth.cloaked.get(checker[0], ()):
            found[sq8(square)] = checker_token(piece.color == chess.WHITE, checker[1], piece.symbol().upper())
        else:
            found[sq8(square)] = piece.symbol()
    return found


def truth_scene(truth: CloakTruth, last_move: chess.Move | str | None = None) -> BoardScene:
    """Every piece of a true position, with the move that led to it if given."""
    board = BoardScene(pieces=truth_pieces(truth))
    if last_move is not None:
        move = last_move if isinstance(last_move, chess.Move) else chess.Move.from_uci(uci_text(last_move))
        board.last_move = (sq8(move.from_square), sq8(move.to_square))
    return board
