"""What the board shows for one seat: a plain description built from that seat's view only.

This module has no Qt: the game window turns a :class:`BoardScene` into calls on
the board widget. Because a scene is made from a seat's *view* (its observations),
a hidden enemy piece cannot reach the widget at all.

>>> from app.engine.rbc import ReconChess, ReconChessView
>>> scene = rbc_scene(ReconChessView.from_observations(ReconChess().observations(0)))
>>> len(scene.pieces), scene.pieces[(4, 0)], (4, 7) in scene.pieces
(16, 'K', False)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

import chess

Square = tuple[int, int]  # (file, rank), 0-based


@dataclass(frozen=True)
class MarkerSpec:
    """A highlighted group of squares: ``kind`` is sense, sense_old, reveal, lost or captured."""

    kind: str
    squares: tuple[Square, ...]
    label: str = ""
    opacity: float = 1.0


@dataclass
class BoardScene:
    files: int = 8
    ranks: int = 8
    pieces: dict[Square, str] = field(default_factory=dict)
    targets: dict[Square, dict[Square, list[str]]] = field(default_factory=dict)
    markers: list[MarkerSpec] = field(default_factory=list)
    last_move: tuple[Square, Square] | None = None
    sense_window: Callable[[Square], list[Square]] | None = None


def sq8(square: int) -> Square:
    return chess.square_file(square), chess.square_rank(square)


def from_sq8(square: Square) -> int:
    return chess.square(square[0], square[1])


def _targets(moves: Iterable[chess.Move]) -> dict[Square, dict[Square, list[str]]]:
    targets: dict[Square, dict[Square, list[str]]] = {}
    for move in moves:
        promotions = targets.setdefault(sq8(move.from_square), {}).setdefault(sq8(move.to_square), [])
        if move.promotion:
            letter = chess.piece_symbol(move.promotion)
            if letter not in promotions:
                promotions.append(letter)
    order = "qrbn"
    for destinations in targets.values():
        for promotions in destinations.values():
            promotions.sort(key=order.index)
    return targets


def rbc_window(square: Square) -> list[Square]:
    """The 3x3 sense window around ``square``, clipped at the edges."""
    from app.engine.rbc import SENSE_WINDOWS
    return [sq8(s) for s in SENSE_WINDOWS[from_sq8(square)]]


def rbc_scene(view: Any) -> BoardScene:
    """Own pieces, the latest sense (its enemy pieces and outline), older senses faded, capture squares."""
    scene = BoardScene()
    board: chess.Board = view.own_board
    scene.pieces = {sq8(square): piece.symbol() for square, piece in board.piece_map().items()}
    senses = list(view.senses)
    if senses:
        latest = senses[-1]
        for older in senses[-4:-1]:
            squares = tuple(sq8(square) for square, _ in older.window)
            if squares:
                scene.markers.append(MarkerSpec("sense_old", squares, f"t{older.ply // 2 + 1}", 0.5))
        squares = tuple(sq8(square) for square, _ in latest.window)
        if squares:
            scene.markers.append(MarkerSpec("sense", squares, f"t{latest.ply // 2 + 1}"))
        for square, piece in latest.window:
            # An own piece that has moved there since is what stands there now.
            if piece is not None and piece.color != view.color and sq8(square) not in scene.pieces:
                scene.pieces[sq8(square)] = piece.symbol()
    for ply, square in view.lost[-3:]:
        scene.markers.append(MarkerSpec("lost", (sq8(square),), f"t{ply // 2 + 1}"))
    for ply, square in view.captures[-3:]:
        scene.markers.append(MarkerSpec("captured", (sq8(square),), f"t{ply // 2 + 1}"))
    for result in reversed(view.moves):
        if result.taken is not None:
            scene.last_move = (sq8(result.taken.from_square), sq8(result.taken.to_square))
            break
    if view.phase == "move":
        scene.targets = _targets(view.move_actions())
    elif view.phase == "sense":
        scene.sense_window = rbc_window
    return scene


def blind_scene(view: Any) -> BoardScene:
    """Own pieces, the latest sighting of each enemy piece (with its turn), captures and losses."""
    scene = BoardScene()
    board: chess.Board = view.own_board
    scene.pieces = {sq8(square): piece.symbol() for square, piece in board.piece_map().items()}
    for square, reveal in view.believed().items():
        if sq8(square) not in scene.pieces:
            scene.pieces[sq8(square)] = reveal.piece.symbol()
            scene.markers.append(MarkerSpec("reveal", (sq8(square),), f"t{reveal.ply // 2 + 1}"))
    for capture in view.captures[-3:]:
        scene.markers.append(MarkerSpec("captured", (sq8(capture.square),), f"t{capture.ply // 2 + 1}"))
    if view.my_turn and view.phase == "move":
        scene.targets = _targets(view.attempts())
    return scene


def minit_scene(view: Any) -> BoardScene:
    """MinitChess is played in the open: the whole position."""
    from app.engine.minit import piece_letter
    scene = BoardScene(files=5, ranks=6)
    position = view.position
    for square, code in enumerate(position.board):
        if code:
            scene.pieces[(square % 5, square // 5)] = piece_letter(code)
    if view.moves:
        last = view.moves[-1]
        move = getattr(last, "move", last)  # the view keeps MovePlayed observations
        scene.last_move = ((move.from_square % 5, move.from_square // 5), (move.to_square % 5, move.to_square // 5))
    if view.my_turn and view.outcome is None:
        for move in view.legal_moves():
            destinations = scene.targets.setdefault((move.from_square % 5, move.from_square // 5), {})
            destinations[(move.to_square % 5, move.to_square // 5)] = []
    return scene


def truth_scene(variant: str, game: Any) -> BoardScene:
    """Every piece of the true position: only for a finished game (post-game review), never during play."""
    return position_scene(variant, game.position if variant == "minit" else game.board)


def position_scene(variant: str, position: Any) -> BoardScene:
    """Every piece of a true position (a ``chess.Board``, or a ``MinitPosition`` for MinitChess)."""
    if variant == "minit":
        from app.engine.minit import piece_letter
        scene = BoardScene(files=5, ranks=6)
        for square, code in enumerate(position.board):
            if code:
                scene.pieces[(square % 5, square // 5)] = piece_letter(code)
        return scene
    board: chess.Board = position
    return BoardScene(pieces={sq8(square): piece.symbol() for square, piece in board.piece_map().items()})


SCENES: dict[str, Callable[[Any], BoardScene]] = {"rbc": rbc_scene, "blind": blind_scene, "minit": minit_scene}
