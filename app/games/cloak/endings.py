"""How a game of Cloak and Dagger ends besides a king's capture: check as the rules judge it, a side left
without moves, and too little material as judged from what both players were told (ruling CD6b)."""

from __future__ import annotations

from typing import Sequence

import chess

from app.engine.core import Outcome, Reason, Seat
from app.games.cloak.checkers import BLACK, PIECE_TYPES, SEAT_NAMES, WHITE, chess_colour
from app.games.cloak.deduction import Deduction, Tracker
from app.games.cloak.moves import Knowledge, attacked_by_visible
from app.games.cloak.view import CloakView


def in_visible_check(board: chess.Board, seat: Seat, known: Knowledge) -> bool:
    """Whether ``seat``'s king is in check as the rules judge it: uncloaked, and attacked by a visible enemy
    piece (``known`` is the seat's :class:`~app.games.cloak.moves.Knowledge`)."""
    return not known.king_cloaked and known.king_square is not None and attacked_by_visible(
        board, seat, known.king_square, known.visible_enemy)


def no_moves_outcome(board: chess.Board, seat: Seat, known: Knowledge) -> Outcome:
    """The end of a game whose ``seat`` must move and has no legal move: checkmate when its king is in check as
    the rules judge it, else a draw."""
    if in_visible_check(board, seat, known):
        return Outcome(1 - seat, Reason.NO_MOVES, f"{SEAT_NAMES[seat]} is checkmated")
    return Outcome(None, Reason.NO_MOVES, f"{SEAT_NAMES[seat]} has no legal move: a draw")


def publicly_insufficient(board: chess.Board, public: CloakView, trackers: Sequence[Tracker] | None = None) -> bool:
    """Whether neither side has mating material in *every* arrangement of the cloaked checkers that fits what
    both players have been told (``public``), with each side's king still on the board (ruling CD6b). Judging
    the true ``board`` alone would tell a player something about the enemy's untold identities by whether the
    game goes on. Pawns waiting to be dropped do not count (they are not on the board).

    Cheap when the game goes on for material: the true arrangements are among those that fit, so a true board
    with mating material settles it at once. Only a true board without any is tried with the other identities.
    ``trackers``: a deduction :class:`~app.games.cloak.deduction.Tracker` per side kept over the game (each reads
    only the moves new since its last use), else the public record is read afresh.
    """
    if not board.is_insufficient_material():
        return False
    probe = board.copy(stack=False)
    ways: list[list[list[tuple[chess.Square, chess.Piece]]]] = []
    for side in (WHITE, BLACK):
        on_board = {number: square for square, (colour, number) in public.checkers.items() if colour == side}
        cloaked = sorted(number for number in on_board if number in public.cloaked[side])
        if not cloaked:
            ways.append([[]])
            continue
        deduction = trackers[side].update(public) if trackers is not None else Deduction.about(public, side)
        fits = deduction.identities(cloaked, king_among=on_board)
        if not fits:  # evidence that contradicts itself (never in a game played by the rules): the true board
            ways.append([[]])
            continue
        ways.append([[(on_board[number], chess.Piece(PIECE_TYPES[piece], chess_colour(side)))
                      for number, piece in zip(cloaked, identities)] for identities in sorted(fits)])
    for white in ways[WHITE]:
        for black in ways[BLACK]:
            for square, piece in white + black:
                probe.set_piece_at(square, piece)
            if not probe.is_insufficient_material():
                return False
    return True
