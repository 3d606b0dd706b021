"""Parade Chess Solitaire as a person meets it.

The board shows the pieces; a piece that some piece of the other colour attacks can be dragged (or clicked, then
its square clicked) to any empty square that same piece attacks: the board offers exactly those. Beside the board
stand the hand pile (face down, with its count), the face-up pile of the cards turned so far (the deal's eight, then
every added piece) and the buttons: add the next piece (offered only while every unseen piece would fit: PA2b),
undo and redo. The window also gives undo and redo to Ctrl+Z and Ctrl+Y, and asks for a hint (see
:mod:`app.games.parade.solitaire`).

>>> from app.games.parade.rules import ParadeChess, ParadeView
>>> game = ParadeChess.dealt(["9H", "10H", "KS", "10C", "8S", "8H", "10D", "9S"] + ["8D", "QS", "KH", "QH", "9C",
...                          "9D", "8C", "10S"], deal=7)
>>> view = ParadeView.from_observations(game.observations(0))
>>> PRESENTER.prompt(view)
'Deal 7: 8 cards left. Drag a piece to a square that a piece of the other colour attacks, or add a piece'
>>> PRESENTER.parse_text(view, "f3-g2")
ParadeMove(frm='f3', to='g2')
>>> PRESENTER.parse_text(view, "c1-c2")
Traceback (most recent call last):
...
app.games.move_input.InputError: no black piece attacks both c1 and c2 (from c1 it may go to e1, b2, f4, c5, e5)
"""

from __future__ import annotations

from functools import singledispatch
from typing import TYPE_CHECKING, Any, Mapping

import chess

from app.games.chess_kit import chess_targets, from_sq8, outcome_sentence, sq8
from app.games.kit_cards import card_face, card_piece, card_words
from app.games.parade import DEFINITION
from app.games.parade.rules import (DEALT, HAND, Added, Dealt, Ended, Moved, ParadeAdd, ParadeMove, ParadeTruth, Rewound,
                                    add_square, components, legal_moves)
from app.games.parade.solitaire import SOLITAIRE
from app.games.patience.undo import Redo, Undo
from app.games.presenter import Command, InputError, PresenterBase
from app.games.scene import BoardScene, Card, Cell, CardRowZone, MarkerSpec, PileZone, piece_words

if TYPE_CHECKING:
    from app.engine.core import Action, Seat

__all__ = ["PRESENTER", "ParadePresenter", "describe", "move_words"]


def _name(card: str) -> str:
    piece = card_piece(card)
    assert piece is not None
    return piece_words(piece.symbol())


def move_words(o: Moved) -> str:
    """``f3-g2`` (the score sheet's words for a move)."""
    return f"{chess.square_name(o.frm)}-{chess.square_name(o.to)}"


@singledispatch
def describe(observation: object, seat: Seat) -> str | None:
    """One line of the log, in plain words (None: not worth a line); one function per kind of observation."""
    return None


@describe.register(Dealt)
def _dealt(o: Dealt, seat: Seat) -> str | None:
    return (f"Deal {o.deal}: {', '.join(card_face(card) for _, card in o.placed)} dealt onto the board; "
            f"{o.pile} cards in the hand pile, face down.")


@describe.register(Moved)
def _moved(o: Moved, seat: Seat) -> str | None:
    left = f"{o.left} card{'s' if o.left != 1 else ''} left" if o.left or not o.overtime else \
        f"no card left, {o.overtime} extra move{'s' if o.overtime != 1 else ''} (score -{o.overtime})"
    return (f"The {_name(o.card)} goes from {chess.square_name(o.frm)} to {chess.square_name(o.to)}, moved by the "
            f"{_name(o.mover_card)} on {chess.square_name(o.mover)} ({left}).")


@describe.register(Added)
def _added(o: Added, seat: Seat) -> str | None:
    return f"Turned the {card_words(o.card)}: added on {chess.square_name(o.square)} ({o.left} cards left)."


@describe.register(Rewound)
def _rewound(o: Rewound, seat: Seat) -> str | None:
    return f"{'Undone' if o.undone else 'Redone'}: {o.left} cards left."


@describe.register(Ended)
def _ended(o: Ended, seat: Seat) -> str | None:
    if o.score is not None:
        return f"Won: {o.outcome.detail}."
    return outcome_sentence(o.outcome, seat)


def _scene(placed: Mapping[int, str], seen: list[str], left: int) -> BoardScene:
    scene = BoardScene(pieces={sq8(square): _piece_symbol(card) for square, card in placed.items()})
    added = len(seen) - DEALT
    face_down = max(0, HAND - left - added)  # cards spent on moves, unseen
    scene.zones.append(PileZone(id="pile", place="right", label="Pile", count=left))
    scene.zones.append(PileZone(id="spent", place="right", label="Spent", count=face_down, beside=True))
    scene.zones.append(CardRowZone(id="dealt", place="below", label="Dealt, then added" if added else "Dealt",
                                   cards=tuple(Card.parse(card) for card in seen)))
    return scene


def _piece_symbol(card: str) -> str:
    piece = card_piece(card)
    assert piece is not None
    return piece.symbol()


class ParadePresenter(PresenterBase):
    """Drag (or click) a piece to a square a piece of the other colour attacks; buttons add a piece, undo, redo.
    ``solitaire`` is the door the window and ``sightline solve`` use for deal numbers, hints and the solver."""

    key = DEFINITION.key
    solitaire = SOLITAIRE
    entry_text = "Type a move (f3-g2), add, undo or redo"

    # -- drawing ------------------------------------------------------------------------------------------------
    def scene(self, view: Any) -> BoardScene:
        scene = _scene(view.placed, view.seen, view.left)
        last = view.line[-1] if view.line else None
        if isinstance(last, Moved):
            scene.last_move = (sq8(last.frm), sq8(last.to))
        elif isinstance(last, Added):
            scene.last_move = (sq8(last.square), sq8(last.square))
        if view.my_turn:
            moves = view.moves()
            scene.targets = chess_targets(chess.Move(frm, to) for frm, targets in moves.items() for to in targets)
            if moves:
                scene.markers.append(MarkerSpec("sense", tuple(sq8(square) for square in moves), opacity=0.35))
            for frm, targets in moves.items():
                movers = sorted({mover for mover in targets.values()})
                scene.notes[sq8(frm)] = (f"{_name(view.placed[frm])}: can be moved by "
                                         f"{', '.join(chess.square_name(m) for m in movers)}")
        return scene

    def truth_scene(self, truth: Any, last_move: Any = None) -> BoardScene:
        """The true position: the board and the turned cards; the pile's order is never drawn (G2)."""
        if not isinstance(truth, ParadeTruth):
            return BoardScene()
        scene = _scene(dict(truth.placed), list(truth.seen), len(truth.pile) - truth.used)
        if truth.last is not None:
            scene.last_move = (sq8(truth.last[0]), sq8(truth.last[1]))
        return scene

    # -- words --------------------------------------------------------------------------------------------------
    def describe(self, observation: Any, seat: Seat) -> str | None:
        return describe(observation, seat)

    def sounds(self, observation: Any, seat: Seat) -> tuple[str, ...]:
        if isinstance(observation, Moved):
            return ("move",)
        if isinstance(observation, Added):
            return ("card",)
        if isinstance(observation, Rewound):
            return ("move",)
        if isinstance(observation, Ended):
            return ("end",) if observation.score is not None else ("failed",)
        return super().sounds(observation, seat)

    def move_list(self, view: Any) -> list[str]:
        """One line per card spent, the current line only (what was undone is gone from it): ``1. f3-g2``,
        ``2. +8♦ g4``; the moves made with no card left are numbered on."""
        lines = []
        for number, o in enumerate(view.line, 1):
            if isinstance(o, Moved):
                lines.append(f"{number}. {move_words(o)}")
            elif isinstance(o, Added):
                lines.append(f"{number}. +{card_face(o.card)} {chess.square_name(o.square)}")
        return lines

    def prompt(self, view: Any) -> str:
        if view.outcome is not None:
            return f"Deal {view.deal}: " + ("won, " + str(view.final_score) + " points" if view.final_score is not None
                                             else "the game is over")
        groups = components(view.placed)
        cards = (f"{view.left} card{'s' if view.left != 1 else ''} left" if view.left
                 else f"no card left, each move costs a point (score {view.score})")
        how = "Drag a piece to a square that a piece of the other colour attacks"
        if view.can_add():
            how += ", or add a piece"
        if not view.moves() and not view.can_add():
            how = "Nothing can move: undo, or give up (Game > Resign)"
        head = f"Deal {view.deal}: {cards}"
        if groups > 1 and len(view.line) > 0:
            head += f", {groups} groups"
        return f"{head}. {how}"

    def entry_hint(self, view: Any) -> str:
        return self.entry_text

    def describe_action(self, action: Mapping[str, Any]) -> str:
        """Parade's actions in words.

        >>> PRESENTER.describe_action({"type": "move", "frm": "f3", "to": "g2"})
        'move the piece on f3 to g2'
        >>> PRESENTER.describe_action({"type": "add"})
        'add the next piece'
        """
        kind = action.get("type")
        if kind == "move" and isinstance(action.get("frm"), str) and isinstance(action.get("to"), str):
            return f"move the piece on {str(action['frm'])[:4]} to {str(action['to'])[:4]}"
        if kind == "add":
            return "add the next piece"
        if kind in ("undo", "redo"):
            return f"{kind} the last move"
        return super().describe_action(action)

    # -- input --------------------------------------------------------------------------------------------------
    def commands(self, view: Any) -> list[Command]:
        """Add a piece, Undo, Redo (each enabled when it may be used)."""
        if view.outcome is not None:
            return []
        add_label = "Add a piece" if view.left else "Add a piece (no card left)"
        return [Command("add", add_label, view.can_add()),
                Command("undo", "Undo", view.can_undo),
                Command("redo", "Redo", view.can_redo)]

    def command(self, view: Any, command_id: str) -> Action:
        self._playing(view)
        if command_id == "add":
            return self._add(view)
        if command_id == "undo":
            if not view.can_undo:
                raise InputError("there is nothing to undo (a card once turned up stays seen)")
            return Undo()
        if command_id == "redo":
            if not view.can_redo:
                raise InputError("there is nothing to redo")
            return Redo()
        raise InputError(f"this game has no command {command_id[:20]!r}")

    def _add(self, view: Any) -> Action:
        if not view.left:
            raise InputError("no card is left to add a piece: only moves now")
        if not view.can_add():
            unfit = [card for card in view.unseen() if add_square(view.placed, card) is None]
            raise InputError(f"the {card_words(unfit[0]) if unfit else 'next piece'} might come next and would not "
                             "fit before h8, so no more pieces may be added")
        return ParadeAdd()

    @staticmethod
    def _playing(view: Any) -> None:
        if view.outcome is not None:
            raise InputError("the game is over")

    def on_move(self, view: Any, from_square: Cell, to_square: Cell, promotion: str | None) -> Action:
        self._playing(view)
        frm, to = from_sq8(from_square), from_sq8(to_square)
        placed = view.placed
        if frm not in placed:
            raise InputError(f"there is no piece on {chess.square_name(frm)}")
        if to in placed:
            raise InputError(f"{chess.square_name(to)} is taken: a piece is put on an empty square")
        targets = legal_moves(placed).get(frm)
        colour = "black" if card_piece(placed[frm]).color == chess.WHITE else "white"  # type: ignore[union-attr]
        if not targets:
            raise InputError(f"no {colour} piece attacks {chess.square_name(frm)}, so the piece there cannot be moved")
        if to not in targets:
            raise InputError(f"no {colour} piece attacks both {chess.square_name(frm)} and {chess.square_name(to)} "
                             f"(from {chess.square_name(frm)} it may go to "
                             f"{', '.join(chess.square_name(t) for t in targets)})")
        return ParadeMove(chess.square_name(frm), chess.square_name(to))

    def on_square(self, view: Any, square: Cell) -> Action:
        raise InputError("drag a piece to its new square (or click it, then the square)")

    def on_zone(self, view: Any, zone_id: str, index: int) -> Action:
        if zone_id == "pile":
            self._playing(view)
            return self._add(view)
        raise InputError("click the hand pile to add a piece, or move a piece on the board")

    def parse_text(self, view: Any, text: str) -> Action:
        cleaned = text.strip().lower()
        if cleaned in ("add", "a", "+"):
            return self.command(view, "add")
        if cleaned in ("undo", "u", "redo", "r"):
            return self.command(view, "undo" if cleaned.startswith("u") else "redo")
        squares = cleaned.replace("-", " ").replace(" to ", " ").split()
        if len(squares) == 1 and len(squares[0]) == 4:
            squares = [squares[0][:2], squares[0][2:]]
        if len(squares) == 2:
            try:
                frm, to = (chess.parse_square(name) for name in squares)
            except ValueError:
                pass
            else:
                return self.on_move(view, sq8(frm), sq8(to), None)
        raise InputError(f"{text.strip()[:12]!r} is not a move (f3-g2), add, undo or redo")


PRESENTER = ParadePresenter()
