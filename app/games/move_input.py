"""Moves typed on the keyboard: coordinates (``e2e4``, ``a2-a3``) or SAN (``Nf3``, ``exd5``, ``O-O``, ``e8=Q``).

Typed text is matched against the seat's own possible moves (the same targets
the board offers), never against the hidden position, so SAN works in the blind
games too: ``Nxd5`` is the knight move to d5 whatever stands there. No Qt here.

>>> pieces = {(6, 0): "N", (1, 0): "N", (4, 1): "P", (4, 0): "K", (7, 0): "R"}
>>> targets = {(6, 0): {(5, 2): [], (7, 2): []}, (1, 0): {(2, 2): [], (0, 2): []},
...            (4, 1): {(4, 2): [], (4, 3): []}, (4, 0): {(6, 0): []}}
>>> parse_move_text("Nf3", pieces, targets, 8, 8)
((6, 0), (5, 2), None)
>>> parse_move_text("e2-e4", pieces, targets, 8, 8)
((4, 1), (4, 3), None)
>>> parse_move_text("O-O", pieces, targets, 8, 8)
((4, 0), (6, 0), None)
>>> pawns = {(3, 3): "P", (4, 2): "P"}
>>> parse_move_text("e4", pawns, {(3, 3): {(4, 4): [], (3, 4): []}, (4, 2): {(4, 3): [], (3, 3): []}}, 8, 8)
((4, 2), (4, 3), None)
>>> parse_move_text("Qh5", pieces, targets, 8, 8)
Traceback (most recent call last):
...
app.games.move_input.MoveTextError: no queen of yours can go to h5
"""

from __future__ import annotations

import re
from typing import Mapping, Sequence


Cell = tuple[int, int]
Targets = Mapping[Cell, Mapping[Cell, Sequence[str]]]

_NAMES = {"K": "king", "Q": "queen", "R": "rook", "B": "bishop", "N": "knight", "P": "pawn"}
# The from-file of a disambiguated move is a board file (a-h), never "x": otherwise "Bxf7" reads as a bishop
# from an "x" file moving to f7 and no move matches.
_SAN = re.compile(r"^([KQRBN])?([a-h])?([1-9])?(x)?([a-z])([1-9])(?:=?([QRBNqrbn]))?$")
_COORDINATES = re.compile(r"^([a-z])([1-9])[-x:]?([a-z])([1-9])=?([qrbnk])?$")


class InputError(ValueError):
    """What a person typed or chose is not an action of this game now; the message says why, in the game's
    words, to be shown to the player."""


class MoveTextError(InputError):
    """Typed text that names no move (or several); the message says why, for the player."""


def _name(square: Cell) -> str:
    return "abcdefgh"[square[0]] + str(square[1] + 1)


def _promotion(choices: Sequence[str], wanted: str | None, automatic_queen: bool = False) -> str | None:
    """The promotion letter for a move whose possible promotions are ``choices``.

    ``automatic_queen``: the move takes a pawn to its last rank in a game where it always becomes a queen
    (MinitChess), so the board offers no choice, yet a typed ``=Q`` is right and must not be refused.
    """
    if not choices:
        if wanted and not (automatic_queen and wanted.upper() == "Q"):
            raise MoveTextError("pawns always become queens here" if automatic_queen
                                else "that move is not a promotion")
        return None
    if wanted is None:
        return "q" if "q" in choices else choices[0]
    if wanted.lower() not in choices:
        raise MoveTextError(f"cannot promote to {_NAMES[wanted.upper()]} here")
    return wanted.lower()


def parse_move_text(text: str, pieces: Mapping[Cell, str], targets: Targets, files: int,
                    ranks: int) -> tuple[Cell, Cell, str | None]:
    """(from, to, promotion letter or None) for ``text``; raises :class:`MoveTextError`.

    ``pieces`` are the letters on the seat's board (own pieces upper case for White),
    ``targets`` its possible moves: from -> to -> promotion letters.
    """
    raw = text.strip().rstrip("+#!?")
    if raw.lower().endswith("e.p."):  # "exd6 e.p.": en passant is a pawn capture like any other
        raw = raw[:-4].rstrip()
    if not raw:
        raise MoveTextError("type a move, for example e2e4 or Nf3")
    if not targets:
        raise MoveTextError("it is not your move")
    castle = raw.upper().replace("0", "O")
    if castle in ("O-O", "O-O-O"):
        return _castle(castle == "O-O", pieces, targets)
    match = _COORDINATES.match(raw.lower())
    if match:
        from_sq = (ord(match[1]) - 97, int(match[2]) - 1)
        to_sq = (ord(match[3]) - 97, int(match[4]) - 1)
        if from_sq[0] < files and from_sq[1] < ranks and to_sq[0] < files and to_sq[1] < ranks:
            destinations = targets.get(from_sq)
            if destinations is None:
                raise MoveTextError(f"nothing of yours can move from {_name(from_sq)}")
            if to_sq not in destinations:
                raise MoveTextError(f"{_name(from_sq)} cannot go to {_name(to_sq)}")
            return from_sq, to_sq, _promotion(destinations[to_sq], match[5],
                                              _reaches_last_rank(pieces.get(from_sq, ""), to_sq, ranks))
    match = _SAN.match(raw)
    if not match:
        raise MoveTextError(f"not a move: {raw!r} (type e2e4 or Nf3)")
    piece, from_file, from_rank, capture, to_file, to_rank, promotion = match.groups()
    piece = piece or "P"
    if piece == "P" and capture and not from_file:
        raise MoveTextError(f"say which pawn captures: for example {chr(ord(to_file) - 1) if to_file > 'a' else 'b'}"
                            f"x{to_file}{to_rank}")
    to_sq = (ord(to_file) - 97, int(to_rank) - 1)
    if not (to_sq[0] < files and 0 <= to_sq[1] < ranks):
        raise MoveTextError(f"{to_file}{to_rank} is not on the board")
    candidates = []
    for from_sq, destinations in targets.items():
        letter = pieces.get(from_sq, "")
        if letter.upper() != piece or to_sq not in destinations:
            continue
        if from_file and from_sq[0] != ord(from_file) - 97:
            continue
        if from_rank and from_sq[1] != int(from_rank) - 1:
            continue
        if piece == "P" and (from_sq[0] == to_sq[0]) == bool(capture):
            continue  # "e5" is a pawn push along the e-file, "dxe5" a capture: never the other way round
        candidates.append(from_sq)
    if not candidates:
        raise MoveTextError(f"no {_NAMES[piece]} of yours can go to {_name(to_sq)}")
    if len(candidates) > 1:
        raise MoveTextError("which one? " + " or ".join(f"{_name(c)}-{_name(to_sq)}" for c in sorted(candidates)))
    return candidates[0], to_sq, _promotion(targets[candidates[0]][to_sq], promotion,
                                            _reaches_last_rank(pieces.get(candidates[0], ""), to_sq, ranks))


def _reaches_last_rank(letter: str, to_sq: Cell, ranks: int) -> bool:
    """Whether a move of the piece ``letter`` to ``to_sq`` takes a pawn to its last rank."""
    return letter == "P" and to_sq[1] == ranks - 1 or letter == "p" and to_sq[1] == 0


def _castle(king_side: bool, pieces: Mapping[Cell, str], targets: Targets) -> tuple[Cell, Cell, None]:
    for from_sq, destinations in targets.items():
        if pieces.get(from_sq, "").upper() != "K":
            continue
        for to_sq in destinations:
            if to_sq[1] == from_sq[1] and to_sq[0] - from_sq[0] == (2 if king_side else -2):
                return from_sq, to_sq, None
    raise MoveTextError("you cannot castle that way now")


def parse_square_text(text: str, files: int, ranks: int) -> Cell:
    """A typed square (``d7``) as (file, rank); raises :class:`MoveTextError`.

    >>> parse_square_text("d7", 8, 8)
    (3, 6)
    """
    raw = text.strip().lower()
    match = re.match(r"^([a-z])([1-9])$", raw)
    if not match or ord(match[1]) - 97 >= files or int(match[2]) > ranks:
        raise MoveTextError(f"type a square to sense, for example d7 (not {text.strip()!r})")
    return ord(match[1]) - 97, int(match[2]) - 1
