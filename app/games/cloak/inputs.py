"""A person's input in Cloak and Dagger, read against the seat's view and private marks: clicks in the grids
(arranging, notes, guesses), clicks on squares (picking checkers to uncloak, dropping a pawn), pieces dragged,
and typed text. Each answers an action, a change of the seat's marks, or an :class:`InputError` saying why not.
"""

from __future__ import annotations

import re

import chess

from app.engine.core import Action
from app.games.cloak.rules import AnswerDraw, Arrange, Bonus, Guess, Move, Uncloak
from app.games.cloak.board_scene import castling_alias, move_targets, pieces
from app.games.cloak.checkers import CHECKERS
from app.games.cloak.commands import OFFER_DRAW, PHASE_HINTS, command
from app.games.cloak.grids import THEIRS, YOURS, clickable_guesses
from app.games.cloak.marks import CIRCLE, CROSS, CloakMarks, arrangement_problem, moment
from app.games.cloak.reading import (PIECES, bonus_pawn_moves, colour_of, drops, guess_moment, my_turn,
                                     own_checker_at, targets)
from app.games.cloak.sentences import ARTICLE, NAMES
from app.games.cloak.view import CloakView
from app.games.move_input import parse_move_text
from app.games.presenter import InputError, MarksChange
from app.games.scene import Cell, read_checker


def on_zone(marks: CloakMarks, view: CloakView, zone_id: str, index: int) -> Action | MarksChange:
    """A click on cell ``index`` of a grid: arranging in the own grid, a note (or in guess mode a guess) in the
    enemy's."""
    if view.seat is None:
        raise InputError("nobody is at the board")
    if zone_id in (THEIRS, YOURS):
        if not 0 <= index < len(PIECES) * len(CHECKERS):
            raise InputError("there is no such cell")
        row, column = divmod(index, len(CHECKERS))
        piece, checker = PIECES[row], CHECKERS[column]
        if zone_id == YOURS:
            if marks.draft_for(view) is not None:
                return _arrange_cell(marks, view, checker, piece)
            raise InputError("that grid shows your own checkers and what your opponent can tell about them")
        if marks.guessing(view):
            return _clicked_guess(view, checker, piece)
        cell = f"{checker}{piece}"
        following = {"": CIRCLE, CIRCLE: CROSS, CROSS: ""}[marks.grid.get(cell, "")]
        return marks.marked(cell, following)
    raise InputError("nothing there can be chosen now")


def _arrange_cell(marks: CloakMarks, view: CloakView, checker: int, piece: str) -> MarksChange:
    if marks.draft_for(view) is None:
        raise InputError("your arrangement is made and cannot change")
    draft = list(marks.draft)
    if draft[checker - 1] == piece:
        draft[checker - 1] = "."  # a second click on a placed piece takes it away
    else:
        if piece in "KQ" and piece in draft:
            draft[draft.index(piece)] = "."  # the one king (queen) moves to the checker clicked
        elif draft.count(piece) >= 2:
            raise InputError(f"both {NAMES[piece]}s are placed: click one of them to take it away first")
        draft[checker - 1] = piece
    return marks.change(draft="".join(draft))


def _clicked_guess(view: CloakView, checker: int, piece: str) -> Action:
    """A click in guess mode: the guess, unless the rules refuse it or it is surely wrong."""
    action = guess(view, checker, piece)
    if (checker, piece) not in clickable_guesses(view):
        raise InputError(f"no arrangement that fits what you have seen makes checker {checker} {ARTICLE[piece]}: "
                         f"that guess would be wrong (type {checker}={piece} to make it anyway)")
    return action


def guess(view: CloakView, checker: int, piece: str) -> Action:
    """The guess that the enemy's ``checker`` is ``piece``, if the rules allow it now."""
    if (checker, piece) not in {(int(c), str(p).upper()) for c, p in view.guessable()}:
        enemy = 1 - colour_of(view.seat)
        if checker not in view.cloaked.get(enemy, ()):
            raise InputError(f"checker {checker} is not a cloaked checker of your opponent's")
        raise InputError(f"you already know what checker {checker} is: guess another")
    return Guess(checker, piece)


def on_square(marks: CloakMarks, view: CloakView, square: Cell) -> Action | MarksChange:
    """A click on a square: a checker picked (or unpicked) to uncloak, or the square a pawn is dropped on."""
    if not my_turn(view):
        raise InputError("it is not your turn")
    target = chess.square(square[0], square[1])
    if view.phase == "uncloak":
        checker = own_checker_at(view, target)
        if checker is None:
            raise InputError("click one of your cloaked checkers to uncloak it")
        picked = set(marks.pending_uncloak(view)) ^ {checker}
        return marks.change(uncloak=tuple(sorted(picked)), uncloak_at=moment(view))
    if view.phase == "bonus" and marks.dropping(view):
        if chess.square_name(target) not in drops(view):
            raise InputError("a pawn can be dropped only on an empty square of your second rank")
        return Bonus(f"P@{chess.square_name(target)}")
    raise InputError("choose a move, not a square")


def on_move(marks: CloakMarks, view: CloakView, from_square: Cell, to_square: Cell,
            promotion: str | None) -> Action | MarksChange:
    """A piece dragged: two checkers' pieces swapped while arranging, else a regular or bonus move."""
    origin, target = chess.square(*from_square), chess.square(*to_square)
    draft = marks.draft_for(view)
    if view.phase == "arrange" and draft is not None:
        first, second = own_checker_at(view, origin), own_checker_at(view, target)
        if first is None or second is None:
            raise InputError("drag one of your checkers onto another of yours to swap their pieces")
        letters = list(draft)
        letters[first - 1], letters[second - 1] = letters[second - 1], letters[first - 1]
        return marks.change(draft="".join(letters))
    if not my_turn(view):
        raise InputError("it is not your turn")
    suffix = promotion.lower() if promotion else ""
    if view.phase == "move":
        wanted = chess.Move(origin, target).uci() + suffix
        moves = [chess.Move.from_uci(move) for move in view.legal_moves()]
        if wanted in [move.uci() for move in moves]:
            return Move(wanted)
        for move in moves:  # the king dragged to its castling square
            if move.from_square == origin and castling_alias(view, move, moves) == target:
                return Move(move.uci())
        raise InputError(f"{chess.square_name(origin)} cannot go to {chess.square_name(target)}")
    if view.phase == "bonus":
        wanted = chess.Move(origin, target).uci() + suffix
        if wanted not in [move.uci() for move in bonus_pawn_moves(view)]:
            raise InputError("a bonus move is a pawn's move or a drop")
        return Bonus(wanted)
    raise InputError(PHASE_HINTS.get(view.phase, "no move can be made now"))


def parse_text(marks: CloakMarks, view: CloakView, text: str) -> Action:
    """Typed text: an arrangement (``RNBQKBNR``), an answer to a draw offer, a bonus (``P@c2``, ``skip``),
    checkers to uncloak (``2 5``, ``end``), a guess (``3=N``), castling (``O-O``) or a move (``e2e4``, ``Nf3``)."""
    words = text.strip()
    if not words:
        raise InputError("type a move, for example e2e4 or Nf3")
    if view.seat is not None and view.phase == "arrange" and not view.own_arrangement:
        letters = words.replace(" ", "").upper()
        problem = arrangement_problem(letters)
        if problem is not None:
            raise InputError(f"{problem} (type 8 letters such as RNBQKBNR)")
        return Arrange(letters)
    if not my_turn(view):
        raise InputError("it is not your turn")
    lower = words.lower()
    if view.phase == "answer_draw":
        if lower in ("accept", "yes", "accept draw"):
            return AnswerDraw(True)
        if lower in ("decline", "no", "decline draw"):
            return AnswerDraw(False)
        raise InputError("a draw was offered: type accept or decline")
    if view.phase == "move" and lower in ("draw", "offer draw"):
        result = command(marks, view, OFFER_DRAW)
        assert not isinstance(result, MarksChange)
        return result
    if view.phase == "bonus":
        if lower in ("skip", "pass", "none", "no"):
            return Bonus(None)
        drop = re.fullmatch(r"p?@([a-h][1-8])", lower)
        if drop:
            if drop.group(1) not in drops(view):
                raise InputError("a pawn can be dropped only on an empty square of your second rank, with a "
                                 "pawn of yours waiting")
            return Bonus(f"P@{drop.group(1)}")
    if view.phase == "uncloak":
        return _typed_uncloak(view, lower)
    typed_guess = re.fullmatch(r"(?:guess\s*)?(\d)\s*(?:=|is|:)?\s*([kqrbn])", lower)
    if typed_guess and view.phase == "move":
        checker, piece = int(typed_guess.group(1)), typed_guess.group(2).upper()
        if not guess_moment(view):
            raise InputError("a guess comes at the start of your turn, before you move, once a turn")
        return guess(view, checker, piece)
    if view.phase == "move" and words.upper().replace("0", "O") in ("O-O", "O-O-O"):
        return _castle(view, words.upper().replace("0", "O") == "O-O")
    # The moves of the phase, whether or not the board offers them just now (a drop chosen, say).
    open_moves = move_targets(view) if view.phase == "move" else targets(bonus_pawn_moves(view)) \
        if view.phase == "bonus" else {}
    if not open_moves:
        raise InputError(PHASE_HINTS.get(view.phase, "no move can be made now"))
    known = {cell: _letter_for_text(code) for cell, code in pieces(marks, view).items()}
    origin, target, promotion = parse_move_text(words, known, open_moves, 8, 8)
    action = on_move(marks, view, origin, target, promotion)
    if isinstance(action, MarksChange):  # not in these phases; said for the type checker
        raise InputError("type a move, not a mark")
    return action


def _typed_uncloak(view: CloakView, lower: str) -> Action:
    """The uncloaking typed (``2 5``, ``uncloak 2, 5``), or ending the turn (``end``)."""
    if lower in ("end", "done", "pass", "end turn"):
        return Uncloak(())
    numbers = re.findall(r"\d+", lower)
    if numbers and re.fullmatch(r"(uncloak\s*)?[\d\s,]+", lower):
        cloaked = set(view.cloaked.get(colour_of(view.seat), ()))
        chosen = tuple(sorted({int(n) for n in numbers}))
        if not set(chosen) <= cloaked:
            raise InputError("only your cloaked checkers can be uncloaked")
        return Uncloak(chosen)
    raise InputError("type the numbers of the checkers to uncloak (2 5), or end")


def _castle(view: CloakView, king_side: bool) -> Action:
    for move in view.legal_moves():
        parsed = chess.Move.from_uci(move)
        end = _castling_end(view, parsed)
        if end is not None and (end > parsed.from_square) == king_side:
            return Move(move)
    raise InputError("you cannot castle that way now")


def _castling_end(view: CloakView, move: chess.Move) -> int | None:
    """The rook's square of a castling move of the view's list (the king onto its own rook), else None."""
    colour = colour_of(view.seat)
    king, rook = view.board.get(move.from_square), view.board.get(move.to_square)
    if king is None or rook is None or king.colour != colour or rook.colour != colour:
        return None
    return int(move.to_square)


def _letter_for_text(code: str) -> str:
    """A piece code as the typed-move reader knows it: a checker as the piece it stands for (the seat's own, so
    ``Nf3`` finds its knight), a checker it does not know as nothing a move could be typed for."""
    checker = read_checker(code)
    if checker is None:
        return code
    if checker.piece is None:
        return "?"
    return checker.piece if checker.white else checker.piece.lower()
