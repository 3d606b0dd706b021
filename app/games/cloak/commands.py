"""Cloak and Dagger's buttons and words of the moment: the commands a seat may use now (arranging, guessing,
the bonus, uncloaking, the draw offer, undoing a mark), what each does, and the prompt and typing hint of each
phase of a turn."""

from __future__ import annotations

from app.engine.core import Action
from app.games.cloak.rules import AnswerDraw, Arrange, Bonus, OfferDraw, Uncloak
from app.games.cloak.marks import STANDARD, CloakMarks, arrangement_problem, moment, random_arrangement
from app.games.cloak.reading import bonus_pawn_moves, colour_of, drops, guess_moment, my_turn
from app.games.cloak.sentences import SIDES
from app.games.cloak.view import CloakView
from app.games.presenter import Command, InputError, MarksChange

RANDOM_COMMAND, STANDARD_COMMAND, CONFIRM_COMMAND = "arrange-random", "arrange-standard", "arrange-confirm"
SKIP_COMMAND, DROP_COMMAND, END_COMMAND, UNCLOAK_COMMAND = "skip-bonus", "drop-pawn", "end-turn", "uncloak-end"
OFFER_DRAW, ACCEPT_DRAW, DECLINE_DRAW = "offer_draw", "accept_draw", "decline_draw"
"""The draw offer's commands (``offer_draw`` is also the window's menu item)."""
UNDO_COMMAND, REDO_COMMAND = "undo-mark", "redo-mark"
GUESS_COMMAND = "guess"
"""Turns the guess mode on ("Guess...") or off ("Cancel guess"): one button, so it stays where it is."""

ENTRY_HINTS = {"move": "Type a move (e2e4, Nf3, O-O) or a guess (3=N)",
               "answer_draw": "Type accept or decline",
               "bonus": "Type a pawn move (e4e5), a drop (P@c2) or skip",
               "uncloak": "Type checkers to uncloak (2 5), or end"}
PHASE_HINTS = {"arrange": "Waiting for the arrangements", "move": "Your move", "bonus": "Bonus move",
               "answer_draw": "Accept or decline the draw offer",
               "uncloak": "Uncloak checkers or end your turn", "over": "The game is over"}


def commands(marks: CloakMarks, view: CloakView) -> list[Command]:
    """The buttons of the moment: the arrangement's while the seat arranges, then the phase's, and the marks'
    undo and redo."""
    undo_redo = [Command(UNDO_COMMAND, "Undo mark", bool(marks.undo), anytime=True),
                 Command(REDO_COMMAND, "Redo mark", bool(marks.redo), anytime=True)]
    seat = view.seat
    if seat is None or (view.phase == "arrange" and not view.own_arrangement):
        ready = seat is not None and arrangement_problem(marks.draft) is None and my_turn(view)
        here = seat is not None and view.phase == "arrange"
        # Filling the draft changes only the seat's marks: it may be done while the other seat arranges.
        return [Command(RANDOM_COMMAND, "Random arrangement", here, anytime=True),
                Command(STANDARD_COMMAND, "Standard (RNBQKBNR)", here, anytime=True),
                Command(CONFIRM_COMMAND, "Confirm arrangement", ready)]
    mine = my_turn(view)
    if mine and view.phase == "bonus":
        drop = []
        if drops(view) and bonus_pawn_moves(view):
            label = "Move a pawn instead" if marks.dropping(view) else "Drop a pawn"
            drop = [Command(DROP_COMMAND, label, True)]
        return [*drop, Command(SKIP_COMMAND, "Skip bonus", True), *undo_redo]
    if mine and view.phase == "uncloak":
        picked = marks.pending_uncloak(view)
        label = f"Uncloak {', '.join(map(str, picked))} and end turn" if picked else "Uncloak and end turn"
        return [Command(UNCLOAK_COMMAND, label, bool(picked)), Command(END_COMMAND, "End turn", True), *undo_redo]
    if mine and view.phase == "answer_draw":
        return [Command(ACCEPT_DRAW, "Accept draw", True), Command(DECLINE_DRAW, "Decline draw", True), *undo_redo]
    offer = mine and view.phase == "move" and view.can_offer_draw()
    guess = Command(GUESS_COMMAND, "Cancel guess" if marks.guessing(view) else "Guess...", guess_moment(view))
    return [guess, Command(OFFER_DRAW, "Offer draw", offer), *undo_redo]


def command(marks: CloakMarks, view: CloakView, command_id: str) -> Action | MarksChange:
    """What a button does: an action, or the seat's marks changed."""
    if command_id in (UNDO_COMMAND, REDO_COMMAND):
        return _undo_or_redo(marks, command_id == UNDO_COMMAND)
    if command_id in (RANDOM_COMMAND, STANDARD_COMMAND, CONFIRM_COMMAND):
        if marks.draft_for(view) is None or view.phase != "arrange":
            raise InputError("your arrangement is made and cannot change")
        if command_id == RANDOM_COMMAND:
            return marks.change(draft=random_arrangement())
        if command_id == STANDARD_COMMAND:
            return marks.change(draft=STANDARD)
        problem = arrangement_problem(marks.draft)
        if problem is not None:
            raise InputError(problem)
        return Arrange(marks.draft)
    if not my_turn(view):
        raise InputError("it is not your turn")
    if command_id == GUESS_COMMAND and view.phase == "move":
        if not guess_moment(view):
            raise InputError("a guess comes at the start of your turn, before you move, once a turn")
        return marks.change(guessing_at=-1 if marks.guessing(view) else moment(view))
    if command_id == OFFER_DRAW and view.phase == "move":
        if not view.can_offer_draw():
            raise InputError("a draw may be offered once a turn")
        return OfferDraw()
    if command_id in (ACCEPT_DRAW, DECLINE_DRAW) and view.phase == "answer_draw":
        return AnswerDraw(command_id == ACCEPT_DRAW)
    if command_id == SKIP_COMMAND and view.phase == "bonus":
        return Bonus(None)
    if command_id == DROP_COMMAND and view.phase == "bonus":
        if not drops(view):
            raise InputError("no pawn of yours can be dropped now")
        return marks.change(dropping_at=-1 if marks.dropping(view) else moment(view))
    if command_id == END_COMMAND and view.phase == "uncloak":
        return Uncloak(())
    if command_id == UNCLOAK_COMMAND and view.phase == "uncloak":
        picked = marks.pending_uncloak(view)
        if not picked:
            raise InputError("click the checkers to uncloak first")
        return Uncloak(picked)
    raise InputError(f"this game has no command {command_id[:20]!r} now")


def _undo_or_redo(marks: CloakMarks, undo: bool) -> MarksChange:
    """The grid with its last change undone (or the last undone change made again)."""
    if undo:
        if not marks.undo:
            raise InputError("there is no mark to undo")
        cell, before, after = marks.undo[-1]
        grid = dict(marks.grid)
        grid.pop(cell, None)
        if before:
            grid[cell] = before
        return marks.change(grid=grid, undo=marks.undo[:-1], redo=marks.redo + ((cell, before, after),))
    if not marks.redo:
        raise InputError("there is no mark to redo")
    cell, before, after = marks.redo[-1]
    grid = dict(marks.grid)
    grid.pop(cell, None)
    if after:
        grid[cell] = after
    return marks.change(grid=grid, undo=marks.undo + ((cell, before, after),), redo=marks.redo[:-1])


def prompt(marks: CloakMarks, view: CloakView) -> str:
    """What the seat is asked to do now, in its phase of the turn."""
    if view.phase == "arrange" and not view.own_arrangement:
        problem = arrangement_problem(marks.draft)
        if problem is None:
            return "Your arrangement is ready: Confirm arrangement (kept secret)"
        if marks.draft == "." * 8:
            return ("Arrange your pieces in secret: click the grid (a piece's row, a checker's column), "
                    "or Random arrangement")
        return f"Arrange your pieces: {problem}"
    if view.phase == "move":
        if marks.guessing(view):
            return "Click the cell of the checker and piece you guess, or Cancel guess"
        if guess_moment(view):
            return "Your move, or Guess... before moving"
        return "Your move"
    if view.phase == "bonus":
        if marks.dropping(view):
            return "Bonus move: click a marked square to drop your pawn there (or Skip bonus)"
        if drops(view):
            return "Bonus move: move a pawn, or Drop a pawn on a marked square (or Skip bonus)"
        return "Bonus move: move a pawn (or Skip bonus)"
    if view.phase == "answer_draw":
        return f"{SIDES[1 - colour_of(view.seat)]} offers a draw: Accept draw or Decline draw"
    if view.phase == "uncloak":
        picked = marks.pending_uncloak(view)
        if picked:
            return f"Uncloak {', '.join(map(str, picked))}: press Uncloak and end turn (or click to change)"
        return "Click your checkers to uncloak them, or End turn"
    return PHASE_HINTS.get(view.phase, "Your move")


def entry_hint(view: CloakView, otherwise: str) -> str:
    """The typing field's hint of the phase (``otherwise`` when it is not the seat's turn)."""
    if view.phase == "arrange" and not view.own_arrangement:
        return "Type your arrangement, 8 letters (RNBQKBNR)"
    return ENTRY_HINTS.get(view.phase, otherwise) if my_turn(view) else otherwise
