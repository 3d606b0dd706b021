"""Gravity Chess as a person meets it.

The board is never turned: both armies fall toward rank 1, at the bottom of the screen for both players, and the
zone beside the board says so. The card turned this turn stands beside the board (the kit's cards: hearts and
diamonds White's, spades and clubs Black's), with both decks' counts (face down: nobody knows their order). The
mover's pieces that still must be picked are outlined and lose the outline once moved or passed; a piece that has
no move is passed with a button (or by typing ``pass d5``); then the empty squares of rank 8 are offered for the
turned piece. Each stacked piece carries a counter with its rank, the points it scores, and the score table below
the board (captures, stacked pieces rank by rank, total) is always there; at the end it shows who won the tie.

Nothing is private to a seat: both see the same board, cards and score.

>>> from app.games.gravity.rules import GravityChess, GravityView
>>> game = GravityChess.arranged("8/8/8/3P4/3B4/1P6/1n6/8", 0, decks=(["10S"], ["2H"]))
>>> view = GravityView.from_observations(game.observations(0))
>>> PRESENTER.prompt(view)
'Move each outlined piece (3 left), in the order you like; then place the black rook on rank 8'
>>> PRESENTER.parse_text(view, "pass d5")
GravityPass(square='d5')
"""

from __future__ import annotations

from functools import singledispatch
from typing import TYPE_CHECKING, Any, Mapping

import chess

from app.games.chess_kit import chess_targets, from_sq8, outcome_sentence, sq8
from app.games.gravity import DEFINITION
from app.games.gravity.rules import (SEATS, TOP, Ended, GravityMove, GravityPass, GravityPlace, GravityTruth, Lost,
                                     Moved, Passed, Placed, Seated, TurnStarted, moves_from, scores,
                                     stacked_by_rank, stacked_squares, tie_break)
from app.games.kit_cards import card_face, card_piece, card_words
from app.games.presenter import Command, InputError, PresenterBase
from app.games.scene import BoardScene, Card, Cell, CardRowZone, GridZone, MarkerSpec, PileZone, StackZone, piece_words

if TYPE_CHECKING:
    from app.engine.core import Action, Seat

__all__ = ["PRESENTER", "GravityPresenter", "describe", "score_table"]

DOWN = "Down is rank 1 for both"
PASS_PREFIX = "pass:"


def _piece_name(symbol: str) -> str:
    return piece_words(symbol)


def _turned_words(card: str) -> str:
    piece = card_piece(card)
    return piece_words(piece.symbol()) if piece else card


@singledispatch
def describe(observation: object, seat: Seat) -> str | None:
    """One line of the log, in plain words (None: not worth a line); one function per kind of observation."""
    return None


@describe.register(Seated)
def _seated(o: Seated, seat: Seat) -> str | None:
    return (f"You play {SEATS[o.seat]}. Both armies fall toward rank 1; the pieces come in on rank 8, one a turn, "
            "from the cards.")


@describe.register(TurnStarted)
def _turn_started(o: TurnStarted, seat: Seat) -> str | None:
    who = SEATS[o.seat]
    if not o.card:
        return f"{who}'s last turn: no card; every active piece moves once more."
    head = f"Turn {o.number}: {who} turns the {card_words(o.card)} ({o.left} cards left)"
    if not o.active:
        return f"{head}; nothing of {who}'s to move."
    return f"{head}; {len(o.active)} piece{'s' if len(o.active) != 1 else ''} to move."


@describe.register(Moved)
def _moved(o: Moved, seat: Seat) -> str | None:
    move = chess.Move.from_uci(o.uci)
    frm, to = chess.square_name(move.from_square), chess.square_name(move.to_square)
    taken = f", taking the {_piece_name(o.captured)}" if o.captured else ""
    return f"{SEATS[o.seat]}: {_piece_name(o.piece).split()[-1]} {frm} to {to}{taken}."


@describe.register(Passed)
def _passed(o: Passed, seat: Seat) -> str | None:
    kind = _piece_name(o.piece).split()[-1]
    if o.by_itself:
        return f"{SEATS[o.seat]}'s {kind} on {o.square} has no move: passed."
    return f"{SEATS[o.seat]} picks the {kind} on {o.square}: it has no move, passed."


@describe.register(Placed)
def _placed(o: Placed, seat: Seat) -> str | None:
    return f"{SEATS[o.seat]} places the {_piece_name(o.piece)} on {o.square}."


@describe.register(Lost)
def _lost(o: Lost, seat: Seat) -> str | None:
    return f"Rank 8 is full: the {_piece_name(o.piece)} is out of the game."


@describe.register(Ended)
def _ended(o: Ended, seat: Seat) -> str | None:
    white, black = o.points
    return (f"{outcome_sentence(o.outcome, seat)} Points: White {white} ({o.captures[0]} captured), "
            f"Black {black} ({o.captures[1]} captured).")


def score_table(board: chess.Board, captures: tuple[int, int], over: bool = False) -> GridZone:
    """The score, always in sight: per side its captures, its stacked pieces on each rank (8 to 1, a count) and
    its points; once the game is over a tie is settled in the label (GR5)."""
    by_rank = stacked_by_rank(board)
    points = scores(board, captures)
    columns = ("cap", *(f"r{rank}" for rank in range(8, 0, -1)), "pts")
    marks = tuple((str(captures[side]), *(str(by_rank[side][rank]) if by_rank[side][rank] else "·"
                                          for rank in range(7, -1, -1)), str(points[side])) for side in (0, 1))
    label = f"↓ {DOWN} · points: cap + stacked ranks"
    if over:
        if points[0] != points[1]:
            label = f"Final score: {SEATS[0 if points[0] > points[1] else 1]} wins {max(points)} to {min(points)}"
        else:
            seat, rank = tie_break(board)
            label = (f"Final score: tied at {points[0]}; " + (f"{SEATS[seat]} wins with more stacked on rank "
                                                              f"{rank + 1}" if seat is not None and rank is not None
                                                              else "a draw, same stacks on every rank"))
    return GridZone(id="score", place="below", label=label, rows=SEATS, columns=columns, marks=marks)


def _board_scene(board: chess.Board, captures: tuple[int, int], over: bool) -> BoardScene:
    scene = BoardScene(pieces={sq8(square): piece.symbol() for square, piece in board.piece_map().items()})
    stacked = stacked_squares(board)
    if stacked:
        scene.zones.append(StackZone(id="stacked", stacks=tuple((sq8(s), chess.square_rank(s) + 1)
                                                               for s in sorted(stacked))))
        for square in stacked:
            scene.notes[sq8(square)] = (f"{piece_words(board.piece_at(square).symbol())}, stacked: "  # type: ignore[union-attr]
                                        f"{chess.square_rank(square) + 1} points")
    scene.zones.append(score_table(board, captures, over))
    return scene


class GravityPresenter(PresenterBase):
    """Move the outlined pieces (drag or click), pass the ones without a move (a button), click a square of rank
    8 for the turned piece."""

    key = DEFINITION.key
    entry_text = "Type a move (d5d4), pass d5, or a square of rank 8 (c8)"

    # -- drawing ------------------------------------------------------------------------------------------------
    def scene(self, view: Any) -> BoardScene:
        board: chess.Board = view.board
        captures = (view.captures[0], view.captures[1])
        scene = _board_scene(board, captures, view.outcome is not None)
        last = self._last_move(view)
        if last is not None:
            scene.last_move = (sq8(last.from_square), sq8(last.to_square))
        if view.outcome is None:
            pending = [sq8(s) for s in view.pending]
            if pending and view.phase == "move":
                scene.markers.append(MarkerSpec("sense", tuple(pending), label="to move"))
                if view.my_turn:
                    scene.targets = chess_targets(chess.Move(frm, to) for frm, tos in view.moves().items()
                                                  for to in tos)
            empties = [sq8(s) for s in view.empty_top()]
            if empties:
                scene.markers.append(MarkerSpec("reveal", tuple(empties), opacity=0.6))
                if view.my_turn:
                    offered = set(empties)
                    scene.sense_window = lambda square: [square] if square in offered else []
                    scene.pick_word = "place"
        scene.zones.insert(0, self._turned_zone(view))
        scene.zones.insert(1, PileZone(id="deck-white", place="right", label="White",
                                       count=view.left[0]))
        scene.zones.insert(2, PileZone(id="deck-black", place="right", label="Black",
                                       count=view.left[1], beside=True))
        return scene

    @staticmethod
    def _turned_zone(view: Any) -> CardRowZone:
        if view.outcome is None and view.flipped:
            return CardRowZone(id="turned", place="right", label="Card", cards=(Card.parse(view.flipped),))
        return CardRowZone(id="turned", place="right", label="No card", cards=())

    @staticmethod
    def _last_move(view: Any) -> chess.Move | None:
        for observation in reversed(view.history):
            if isinstance(observation, Moved):
                return chess.Move.from_uci(observation.uci)
            if isinstance(observation, Placed):
                square = chess.parse_square(observation.square)
                return chess.Move(square, square)
        return None

    def truth_scene(self, truth: Any, last_move: Any = None) -> BoardScene:
        """The true position: the board and the score; the decks' order is never drawn (G2)."""
        if not isinstance(truth, GravityTruth):
            return _board_scene(truth, (0, 0), False)
        scene = _board_scene(truth.board, truth.captures, truth.over)
        shown = truth.flipped if truth.flipped and not truth.over else ""
        scene.zones[0:0] = [CardRowZone(id="turned", place="right", label="Card" if shown else "No card",
                                        cards=(Card.parse(shown),) if shown else ()),
                            PileZone(id="deck-white", place="right", label="White", count=len(truth.decks[0])),
                            PileZone(id="deck-black", place="right", label="Black", count=len(truth.decks[1]),
                                     beside=True)]
        if isinstance(last_move, chess.Move):
            scene.last_move = (sq8(last_move.from_square), sq8(last_move.to_square))
        return scene

    def premove_scene(self, view: Any) -> BoardScene | None:
        """While the opponent acts: the seat may queue a move of one of its pieces for its next turn (every piece
        of its not stacked is picked then), as the board stands now."""
        if view.seat is None or view.outcome is not None or view.my_turn:
            return None
        board: chess.Board = view.board
        colour = chess.WHITE if view.seat == 0 else chess.BLACK
        stacked = stacked_squares(board)
        own = [s for s in chess.SquareSet(board.occupied_co[colour]) if s not in stacked]
        if not own:
            return None
        scene = self.scene(view)
        scene.sense_window = None
        scene.targets = chess_targets(chess.Move(frm, to) for frm, tos in
                                      moves_from(board, own, view.fresh, stacked).items() for to in tos)
        return scene

    # -- words --------------------------------------------------------------------------------------------------
    def describe(self, observation: Any, seat: Seat) -> str | None:
        return describe(observation, seat)

    def sounds(self, observation: Any, seat: Seat) -> tuple[str, ...]:
        o = observation
        if isinstance(o, Moved):
            return (("capture" if o.seat == seat else "captured") if o.captured else "move",)
        if isinstance(o, TurnStarted) and o.card:
            return ("card",)
        if isinstance(o, Placed):
            return ("move",)
        if isinstance(o, Lost):
            return ("failed",)
        return super().sounds(observation, seat)

    def move_list(self, view: Any) -> list[str]:
        """One line per turn number, White's turn then Black's after "…": the card turned, the moves, the passes
        and the placement (``7. [3♠] g8-g7 d5= @c8  … [2♥] ...``)."""
        lines: list[str] = []
        started: TurnStarted | None = None  # a turn is written once something was done in it
        for o in view.history:
            if isinstance(o, TurnStarted):
                started = o
                continue
            if isinstance(o, Moved):
                word = f"{o.uci[:2]}{'x' if o.captured else '-'}{o.uci[2:4]}"
            elif isinstance(o, Passed):
                word = f"{o.square}="
            elif isinstance(o, Placed):
                word = f"{o.piece.upper() if o.piece.upper() != 'P' else ''}@{o.square}"
            elif isinstance(o, Lost):
                word = "(lost)"
            else:
                continue
            if started is not None:
                t, started = started, None
                card = card_face(t.card) if t.card else "last"
                if t.seat == 0 or not lines or not lines[-1].startswith(f"{t.number}. "):
                    lines.append(f"{t.number}. " + ("" if t.seat == 0 else "… ") + f"[{card}]")
                else:
                    lines[-1] += f"  … [{card}]"
            if lines:
                lines[-1] += f" {word}"
        return lines

    def prompt(self, view: Any) -> str:
        if view.outcome is not None:
            return "The game is over"
        if not view.my_turn:
            return f"{SEATS[view.mover]} to play"
        if view.phase == "place":
            return f"Click an empty square of rank 8 for the {_turned_words(view.flipped)}"
        left = len(view.pending)
        then = f"; then place the {_turned_words(view.flipped)} on rank 8" if view.flipped else " (your last turn)"
        return f"Move each outlined piece ({left} left), in the order you like{then}"

    def entry_hint(self, view: Any) -> str:
        return self.entry_text

    def describe_action(self, action: Mapping[str, Any]) -> str:
        """Gravity's actions in words.

        >>> PRESENTER.describe_action({"type": "pass", "square": "d5"})
        'pass the piece on d5 (it has no move)'
        >>> PRESENTER.describe_action({"type": "place", "square": "c8"})
        'place the turned piece on c8'
        """
        kind, square = action.get("type"), action.get("square")
        if kind == "pass" and isinstance(square, str):
            return f"pass the piece on {square[:4]} (it has no move)"
        if kind == "place" and isinstance(square, str):
            return f"place the turned piece on {square[:4]}"
        return super().describe_action(action)

    # -- input --------------------------------------------------------------------------------------------------
    def commands(self, view: Any) -> list[Command]:
        """A "Pass" button for each piece to pick that has no move now."""
        if not view.my_turn or view.phase != "move":
            return []
        return [Command(PASS_PREFIX + chess.square_name(square),
                        f"Pass {piece_words(view.board.piece_at(square).symbol()).split()[-1]} "
                        f"{chess.square_name(square)} (no move)", True)
                for square, targets in view.moves().items() if not targets]

    def command(self, view: Any, command_id: str) -> Action:
        if command_id.startswith(PASS_PREFIX):
            return self._pass(view, command_id[len(PASS_PREFIX):])
        raise InputError(f"this game has no command {command_id[:20]!r}")

    def _pass(self, view: Any, name: str) -> Action:
        self._my_move_phase(view)
        try:
            square = chess.parse_square(name.strip().lower())
        except ValueError:
            raise InputError(f"{name.strip()[:8]!r} is not a square") from None
        moves = view.moves()
        if square not in moves:
            raise InputError(f"{chess.square_name(square)} holds no piece of yours still to move this turn")
        if moves[square]:
            raise InputError(f"the piece on {chess.square_name(square)} has a move, so it must move")
        return GravityPass(chess.square_name(square))

    @staticmethod
    def _my_move_phase(view: Any) -> None:
        if view.outcome is not None:
            raise InputError("the game is over")
        if not view.my_turn:
            raise InputError(f"it is {SEATS[view.mover]}'s turn")
        if view.phase != "move":
            raise InputError("every piece has moved: click an empty square of rank 8 for the turned piece")

    def on_move(self, view: Any, from_square: Cell, to_square: Cell, promotion: str | None) -> Action:
        self._my_move_phase(view)
        if promotion:
            raise InputError("pawns do not promote in Gravity Chess")
        frm, to = from_sq8(from_square), from_sq8(to_square)
        moves = view.moves()
        if frm not in moves:
            if frm in view.stacked():
                raise InputError(f"the piece on {chess.square_name(frm)} is stacked: it stays")
            raise InputError(f"{chess.square_name(frm)} holds no piece of yours still to move this turn")
        if to not in moves[frm]:
            if to in view.stacked() and view.board.piece_at(to) is not None:
                raise InputError(f"the piece on {chess.square_name(to)} is stacked: it cannot be captured")
            if chess.square_rank(to) >= chess.square_rank(frm) and view.board.piece_at(to) is None:
                raise InputError("a move must end on a lower rank (only a capture may stay on its rank)")
            raise InputError(f"the piece on {chess.square_name(frm)} cannot go to {chess.square_name(to)}")
        return GravityMove(chess.square_name(frm) + chess.square_name(to))

    def on_square(self, view: Any, square: Cell) -> Action:
        if view.outcome is not None:
            raise InputError("the game is over")
        if not view.my_turn:
            raise InputError(f"it is {SEATS[view.mover]}'s turn")
        if view.phase != "place":
            raise InputError("move the outlined pieces first (or pass those without a move)")
        target = from_sq8(square)
        if chess.square_rank(target) != TOP:
            raise InputError("the turned piece goes on rank 8, the top row")
        if target not in view.empty_top():
            raise InputError(f"{chess.square_name(target)} is taken: pick an empty square of rank 8")
        return GravityPlace(chess.square_name(target))

    def on_zone(self, view: Any, zone_id: str, index: int) -> Action:
        raise InputError("nothing beside the board can be chosen: play on the board")

    def parse_text(self, view: Any, text: str) -> Action:
        cleaned = text.strip().lower()
        if cleaned.startswith("pass"):
            return self._pass(view, cleaned[4:])
        if len(cleaned) == 2:
            try:
                square = chess.parse_square(cleaned)
            except ValueError:
                raise InputError(f"{text.strip()[:10]!r} is not a square") from None
            if view.phase == "place":
                return self.on_square(view, sq8(square))
            return self._pass(view, cleaned)
        return super().parse_text(view, text)


PRESENTER = GravityPresenter()
