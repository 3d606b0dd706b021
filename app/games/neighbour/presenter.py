"""Neighbour Chess Solitaire as a person meets it.

Beside the board stand the two decks, face down with their counts (the piece deck, and the position deck
labelled "Place"), and under each the card last turned from it. The square of the last piece added is outlined:
the next add starts there. Buttons add a piece and stop adding; when an add's square is taken, the nearest empty
squares are offered on the board and a click picks one. Once adding has stopped the board offers every move (a
piece moves as one of its same-colour neighbours would), each paid with a card. Undo and redo are buttons while
they can act (and Ctrl+Z, Ctrl+Y in the Solitaire menu): back to the last card turned.

Typed: ``add``, ``stop``, ``undo``, ``redo``, a square (``e4``) for a piece waiting for one, a move (``c3e4``).

>>> from app.games.neighbour.rules import NeighbourChess, NeighbourView
>>> game = NeighbourChess.from_options({"deal": 1})
>>> view = NeighbourView.from_observations(game.observations(0))
>>> PRESENTER.prompt(view)
'Add the first piece: press Add a piece'
>>> [zone.id for zone in PRESENTER.scene(view).zones]
['pieces', 'pieces-turned', 'positions', 'positions-turned', 'score']
>>> PRESENTER.parse_text(view, "add")
NeighbourAdd()
"""

from __future__ import annotations

from functools import singledispatch
from typing import TYPE_CHECKING, Any, Mapping

import chess

from app.games.chess_kit import chess_targets, from_sq8, sq8
from app.games.kit_cards import card_face, card_piece, card_words
from app.games.neighbour import DEFINITION
from app.games.neighbour.rules import Added, Dealt, Ended, Moved, Placed, Restored, Stopped
from app.games.neighbour.search import board_moves
from app.games.neighbour.solitaire import SOLITAIRE
from app.games.neighbour.state import (NeighbourAdd, NeighbourMove, NeighbourPlace, NeighbourStop, State, is_red,
                                       position_value)
from app.games.patience.undo import Redo, Undo
from app.games.presenter import Command, InputError, PresenterBase
from app.games.scene import BoardScene, Card, Cell, GridZone, MarkerSpec, PileZone, Zone, piece_words

if TYPE_CHECKING:
    from app.engine.core import Action, Seat

__all__ = ["PRESENTER", "NeighbourPresenter", "describe"]


def _piece_of(card: str) -> str:
    piece = card_piece(card)
    return piece_words(piece.symbol()) if piece else card


def _direction(position_card: str) -> str:
    value = position_value(position_card)
    return f"{value} {'right' if is_red(position_card) else 'up'}"


# ---- the log ----------------------------------------------------------------------------------------------------

@singledispatch
def describe(observation: object, seat: Seat) -> str | None:
    """One line of the log (None: not worth a line); one registered function per observation class."""
    return None


@describe.register(Dealt)
def _dealt(o: Dealt, seat: Seat) -> str | None:
    return (f"Deal {o.deal}: {o.pieces} piece cards and {o.positions} position cards, both face down. "
            "Add pieces, stop when you like, then join them into one group.")


@describe.register(Added)
def _added(o: Added, seat: Seat) -> str | None:
    head = (f"Turned the {card_words(o.piece_card)} and the {card_face(o.position_card)}: from {o.start}, "
            f"{_direction(o.position_card)} to {o.target}")
    if o.square == o.target:
        return f"{head}."
    if o.square:
        return f"{head}, which is taken: the nearest empty square is {o.square}."
    return f"{head}, which is taken: pick one of {', '.join(o.candidates)}."


@describe.register(Placed)
def _placed(o: Placed, seat: Seat) -> str | None:
    return f"Put the {piece_words(o.piece)} on {o.square}."


@describe.register(Stopped)
def _stopped(o: Stopped, seat: Seat) -> str | None:
    if o.by_itself:
        return "The piece deck is empty: adding is over; every card left pays for a move."
    return "You stopped adding: every card left pays for a move."


@describe.register(Moved)
def _moved(o: Moved, seat: Seat) -> str | None:
    move = chess.Move.from_uci(o.uci)
    like = " or ".join(chess.piece_name(chess.Piece.from_symbol(letter).piece_type) for letter in o.like)
    return (f"{piece_words(o.piece).capitalize()} {chess.square_name(move.from_square)} to "
            f"{chess.square_name(move.to_square)}, moving as its neighbouring {like} (a card from the {o.deck} "
            f"deck; {o.left[0] + o.left[1]} left).")


@describe.register(Restored)
def _restored(o: Restored, seat: Seat) -> str | None:
    return f"{'Undone' if o.undone else 'Redone'}: {o.pieces + o.positions} cards left, {o.moves} moves made."


@describe.register(Ended)
def _ended(o: Ended, seat: Seat) -> str | None:
    if o.outcome.winner == seat:
        return f"Game over: you won, {o.outcome.detail}."
    return f"Game over: you lost, {o.outcome.detail} (no score)."


# ---- the scene --------------------------------------------------------------------------------------------------

def _turned_zones(pieces: int, positions: int, turned: list[tuple[str, str]]) -> list[Zone]:
    piece_top = Card.parse(turned[-1][0]) if turned else None
    position_top = Card.parse(turned[-1][1]) if turned else None
    return [PileZone(id="pieces", place="right", label="Pieces", count=pieces),
            PileZone(id="pieces-turned", place="right", label="Turned", count=len(turned), top=piece_top,
                     beside=True),
            PileZone(id="positions", place="right", label="Place", count=positions),
            PileZone(id="positions-turned", place="right", label="Turned", count=len(turned), top=position_top,
                     beside=True)]


def _score_zone(added: int, moves: int, left: int, stage: str, score: int | None, over: bool) -> GridZone:
    if over:
        label = f"Won: {score} points" if score is not None else "Lost: no score"
    elif stage in ("add", "place"):
        label = "Adding pieces"
    else:
        label = "Moving: each move costs a card"
    return GridZone(id="score", place="below", label=label, rows=("Pieces", "Moves", "Left"), columns=("",),
                    marks=((str(added),), (str(moves),), (str(left),)))


def _board_scene(board: str) -> BoardScene:
    return BoardScene(pieces={sq8(square): letter for square, letter in enumerate(board) if letter != "."})


class NeighbourPresenter(PresenterBase):
    """Buttons to add and stop; a click on an offered square for a piece waiting for one; moves on the board."""

    key = DEFINITION.key
    entry_text = "Type add, stop, undo, redo, a square (e4) or a move (c3e4)"
    solitaire = SOLITAIRE
    """The door the window and ``sightline solve`` use for deal numbers, hints and the solver."""

    def scene(self, view: Any) -> BoardScene:
        scene = _board_scene(view.board)
        over = view.outcome is not None
        if view.last is not None and not over:
            scene.markers.append(MarkerSpec("sense", (sq8(view.last),), label="last"))
        last = self._last_move(view)
        if last is not None:
            scene.last_move = last
        if not over and view.stage == "place":
            offered = {sq8(square) for square in view.candidates}
            scene.markers.append(MarkerSpec("reveal", tuple(sorted(offered)), opacity=0.6))
            if view.my_turn:
                scene.sense_window = lambda square: [square] if square in offered else []
                scene.pick_word = "place"
        if not over and view.stage == "move" and view.my_turn:
            scene.targets = chess_targets(chess.Move(frm, to) for frm, to in board_moves(view.board))
        scene.zones.extend(_turned_zones(view.pieces_left, view.positions_left, view.turned))
        scene.zones.append(_score_zone(view.added, view.moves, view.cards_left, view.stage, view.score, over))
        return scene

    @staticmethod
    def _last_move(view: Any) -> tuple[Cell, Cell] | None:
        for o in reversed(view.history):
            if isinstance(o, Restored):
                return None
            if isinstance(o, Moved):
                move = chess.Move.from_uci(o.uci)
                return sq8(move.from_square), sq8(move.to_square)
            if isinstance(o, (Added, Placed)) and o.square:
                square = sq8(chess.parse_square(o.square))
                return square, square
        return None

    def truth_scene(self, truth: Any, last_move: Any = None) -> BoardScene:
        """The true position: the board and the decks' counts (their order is never drawn, G2)."""
        if not isinstance(truth, State):
            return BoardScene()
        scene = _board_scene(truth.board)
        scene.zones.extend(_turned_zones(len(truth.pieces), len(truth.positions), list(truth.turned)))
        scene.zones.append(_score_zone(truth.added, truth.moves, truth.cards_left, truth.stage, truth.score,
                                       truth.over))
        if isinstance(last_move, chess.Move):
            scene.last_move = (sq8(last_move.from_square), sq8(last_move.to_square))
        return scene

    # -- words --------------------------------------------------------------------------------------------------
    def describe(self, observation: Any, seat: Seat) -> str | None:
        return describe(observation, seat)

    def sounds(self, observation: Any, seat: Seat) -> tuple[str, ...]:
        if isinstance(observation, Added):
            return ("card",)
        if isinstance(observation, (Moved, Placed)):
            return ("move",)
        return super().sounds(observation, seat)

    def move_list(self, view: Any) -> list[str]:
        """One line per add (``3. N♦ 4♠ b7``, a chosen square after ``→``) and per move (``7. c3-e4 (as N)``)."""
        lines: list[str] = []
        for o in view.history:
            if isinstance(o, Added):
                lines.append(f"{len(lines) + 1}. {card_face(o.piece_card)} {card_face(o.position_card)} "
                             f"{o.square or o.target + ' taken'}")
            elif isinstance(o, Placed) and lines:
                lines[-1] += f" → {o.square}"
            elif isinstance(o, Stopped):
                lines.append(f"{len(lines) + 1}. stop")
            elif isinstance(o, Moved):
                lines.append(f"{len(lines) + 1}. {o.uci[:2]}-{o.uci[2:4]} (as {'/'.join(l.upper() for l in o.like)})")
            elif isinstance(o, Restored):
                lines.append(f"{len(lines) + 1}. {'undo' if o.undone else 'redo'}")
        return lines

    def prompt(self, view: Any) -> str:
        if view.outcome is not None:
            return "The game is over"
        left = f"{view.cards_left} cards left"
        if view.stage == "place":
            return f"The square is taken: click one of the outlined squares for the {_piece_of(view.pending)}"
        if view.stage == "add":
            if not view.added:
                return "Add the first piece: press Add a piece"
            return f"Add a piece, or stop adding and start moving ({left})"
        return f"Move a piece as one of its same-colour neighbours would ({left}, one a move)"

    def entry_hint(self, view: Any) -> str:
        return self.entry_text

    def describe_action(self, action: Mapping[str, Any]) -> str:
        """Neighbour's actions in words.

        >>> PRESENTER.describe_action({"type": "add"}), PRESENTER.describe_action({"type": "place", "square": "e4"})
        ('add a piece (turn a card of each deck)', 'put the waiting piece on e4')
        """
        kind = action.get("type")
        if kind == "add":
            return "add a piece (turn a card of each deck)"
        if kind == "stop":
            return "stop adding pieces"
        if kind == "place" and isinstance(action.get("square"), str):
            return f"put the waiting piece on {str(action['square'])[:4]}"
        if kind in ("undo", "redo"):
            return f"{kind} the last action"
        return super().describe_action(action)

    # -- input --------------------------------------------------------------------------------------------------
    def commands(self, view: Any) -> list[Command]:
        if view.outcome is not None or not view.my_turn:
            return []
        found = []
        if view.stage in ("add", "place"):
            found.append(Command("add", "Add a piece", view.stage == "add"))
            found.append(Command("stop", "Stop adding", view.stage == "add" and view.added > 0))
        if view.can_undo:
            found.append(Command("undo", "Undo", True))
        if view.can_redo:
            found.append(Command("redo", "Redo", True))
        return found

    def command(self, view: Any, command_id: str) -> Action:
        self._my_turn(view)
        if command_id == "add":
            if view.stage == "place":
                raise InputError("first click one of the outlined squares for the piece just turned")
            if view.stage != "add":
                raise InputError("adding has stopped for good: move pieces now")
            return NeighbourAdd()
        if command_id == "stop":
            if view.stage != "add":
                raise InputError("adding has already stopped" if view.stage == "move"
                                 else "first click one of the outlined squares for the piece just turned")
            if not view.added:
                raise InputError("add at least one piece before stopping")
            return NeighbourStop()
        if command_id == "undo":
            if not view.can_undo:
                raise InputError("nothing to undo: a card once turned stays turned")
            return Undo()
        if command_id == "redo":
            if not view.can_redo:
                raise InputError("nothing to redo")
            return Redo()
        raise InputError(f"this game has no command {command_id[:20]!r}")

    @staticmethod
    def _my_turn(view: Any) -> None:
        if view.outcome is not None:
            raise InputError("the game is over")

    def on_square(self, view: Any, square: Cell) -> Action:
        self._my_turn(view)
        if view.stage != "place":
            raise InputError("press Add a piece to add one" if view.stage == "add"
                             else "move a piece: drag it, or click it and then its new square")
        target = from_sq8(square)
        if target not in view.candidates:
            raise InputError(f"{chess.square_name(target)} is not one of the nearest empty squares: pick one of "
                             f"{', '.join(chess.square_name(s) for s in view.candidates)}")
        return NeighbourPlace(chess.square_name(target))

    def on_zone(self, view: Any, zone_id: str, index: int) -> Action:
        if zone_id in ("pieces", "positions"):
            return self.command(view, "add")
        raise InputError("nothing there can be chosen: use the buttons and the board")

    def on_move(self, view: Any, from_square: Cell, to_square: Cell, promotion: str | None) -> Action:
        self._my_turn(view)
        if view.stage != "move":
            raise InputError("pieces move only once adding has stopped: press Stop adding first"
                             if view.stage == "add" else "first click one of the outlined squares for the new piece")
        frm, to = from_sq8(from_square), from_sq8(to_square)
        if view.board[frm] == ".":
            raise InputError(f"there is no piece on {chess.square_name(frm)}")
        if (frm, to) not in board_moves(view.board):
            if view.board[to] != ".":
                raise InputError(f"{chess.square_name(to)} is taken: a piece moves only to an empty square")
            return_words = "it has no neighbour of its colour" if not any(
                f == frm for f, _ in board_moves(view.board)) else "none of its same-colour neighbours moves that way"
            raise InputError(f"the piece on {chess.square_name(frm)} cannot go to {chess.square_name(to)}: "
                             f"{return_words}")
        return NeighbourMove(chess.square_name(frm) + chess.square_name(to))

    def parse_text(self, view: Any, text: str) -> Action:
        cleaned = text.strip().lower()
        if cleaned in ("add", "stop", "undo", "redo"):
            return self.command(view, cleaned)
        if len(cleaned) == 2:
            try:
                square = chess.parse_square(cleaned)
            except ValueError:
                raise InputError(f"{text.strip()[:10]!r} is not a square") from None
            return self.on_square(view, sq8(square))
        compact = cleaned.replace("-", "").replace(" ", "")
        try:
            move = chess.Move.from_uci(compact)
        except (ValueError, IndexError):
            raise InputError(f"{text.strip()[:12]!r} is not add, stop, undo, redo, a square or a move") from None
        if move.promotion or move.drop:
            raise InputError("no piece changes into another in this game")
        return self.on_move(view, sq8(move.from_square), sq8(move.to_square), None)


PRESENTER = NeighbourPresenter()
