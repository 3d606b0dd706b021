"""Blind Chess as a person meets it: the board of a seat's view (its own pieces and the latest sighting of each
enemy piece), the log's sentences, and the draw offer and its answer.

>>> from app.games.blind.rules import BlindChess, BlindChessView
>>> view = BlindChessView.from_observations(BlindChess().observations(0))
>>> PRESENTER.commands(view)
[Command(id='offer_draw', label='Offer draw', enabled=True, anytime=False)]
"""

from __future__ import annotations

from functools import singledispatch
from typing import TYPE_CHECKING, Any

import chess

from app.games.blind.belief_kit import facts
from app.games.blind.rules import (AnswerDraw, Attempt, AttemptResult, DrawDeclined, DrawOffered, GameEnded,
                                   GameStarted, OfferDraw, PieceLost, TurnSkipped)
from app.games.chess_kit import (PIECE_NAMES, ChessPresenter, chess_targets, move_words, outcome_sentence,
                                 remembered_from_facts, sq8, square_name, turn_number, you_play)
from app.games.presenter import BELIEF_PANEL, Command, MarksChange
from app.games.scene import BoardScene, MarkerSpec, Remembered
from app.games.blind import DEFINITION

if TYPE_CHECKING:
    from app.engine.core import Action, Seat

RECENT_CAPTURES = 3  # captures, and losses, still marked on the board
OFFER_DRAW, ACCEPT_DRAW, DECLINE_DRAW = "offer_draw", "accept_draw", "decline_draw"


def blind_scene(view: Any) -> BoardScene:
    """Own pieces, the enemy pieces the seat knows of (:func:`blind_remembered`; the current reveals outlined with
    their turn, older sightings faded), the squares of the latest captures and losses."""
    scene = BoardScene()
    board: chess.Board = view.own_board
    scene.pieces = {sq8(square): piece.symbol() for square, piece in board.piece_map().items()}
    remembered = blind_remembered(view)
    for item in remembered:
        if item.current and item.cell not in scene.pieces and not item.note:
            scene.markers.append(MarkerSpec("reveal", (item.cell,), f"t{item.turn}"))
    for capture in view.captures[-RECENT_CAPTURES:]:
        scene.markers.append(MarkerSpec("captured", (sq8(capture.square),), f"t{turn_number(capture.ply)}"))
    for lost in view.lost[-RECENT_CAPTURES:]:
        scene.markers.append(MarkerSpec("lost", (sq8(lost.square),), f"t{turn_number(lost.ply)}"))
    scene.remember(remembered)
    if view.my_turn and view.phase == "move":
        scene.targets = chess_targets(view.attempts())
    return scene


def blind_remembered(view: Any) -> list[Remembered]:
    """The enemy pieces a seat knows of: on each square, the latest thing its observations told it (the belief
    kit's facts: reveals, its own moves and what they did not reveal, its captures, its losses), if that is an
    enemy piece (of unknown type where it captured one of the seat's pieces). What the seat learned at or after
    the opponent's latest move (its turn just before the seat's current one, or the move that took a piece of the
    seat's) is current; anything older is drawn old, with its turn: the opponent may have moved it since."""
    since = opponent_moved(view)
    return remembered_from_facts(facts(view), since, not view.color)


def opponent_moved(view: Any) -> int:
    """The ply of the opponent's latest move the seat knows of (-1 if none): the turn just before the seat's
    current or latest one (a failed attempt or a skipped turn counts, the seat cannot tell them from a move), or
    the move that took one of its pieces if that came later (the game may have ended on it)."""
    plies = [lost.ply for lost in view.lost]
    if view.ply:
        plies.append(view.ply - 1)
    return max(plies, default=-1)


@singledispatch
def describe_blind(observation: object, seat: Seat) -> str | None:
    """One line of the seat's log for a Blind Chess observation, saying no more than the observation does (None:
    not worth a line); each kind of observation has its own function, registered below."""
    return None


@describe_blind.register(GameEnded)
def _ended(o: GameEnded, seat: Seat) -> str | None:
    return outcome_sentence(o.outcome, seat)


@describe_blind.register(GameStarted)
def _started(o: GameStarted, seat: Seat) -> str | None:
    return you_play(o.color)


@describe_blind.register(TurnSkipped)
def _skipped(o: TurnSkipped, seat: Seat) -> str | None:
    return "You had no possible move; your turn passed."


@describe_blind.register(AttemptResult)
def _attempted(o: AttemptResult, seat: Seat) -> str | None:
    if not o.success:
        # Ruling B2: the mover learns only that it failed, not why (a pawn's diagonal step onto an empty
        # square fails with nothing in the way), so the sentence must not guess at a cause.
        return f"Your move {move_words(o.move)} failed."
    text = f"You played {move_words(o.move)}"
    if o.capture is not None:
        text += f" and captured a {PIECE_NAMES[o.capture[0]]} on {square_name(o.capture[1])}"
    if o.reveals:
        seen = ", ".join(f"{PIECE_NAMES[piece.piece_type]} on {square_name(square)}" for square, piece in o.reveals)
        text += f"; you saw a {seen}"
    return text + "."


@describe_blind.register(PieceLost)
def _lost(o: PieceLost, seat: Seat) -> str | None:
    return f"You lost a {PIECE_NAMES[o.piece_type]}."


@describe_blind.register(DrawOffered)
def _offered(o: DrawOffered, seat: Seat) -> str | None:
    return "A draw was offered."


@describe_blind.register(DrawDeclined)
def _declined(o: DrawDeclined, seat: Seat) -> str | None:
    return "The draw offer was declined."


def blind_moves(view: Any) -> list[str]:
    """One line per attempt, numbered by move: the move as the seat writes it (SAN from its own pieces), whether it
    failed, what it showed, and the pieces lost before the seat's next turn."""
    lost: dict[int, list[str]] = {}
    for piece in view.lost:
        lost.setdefault(piece.ply, []).append(f"lost {_piece_on(piece.piece_type, piece.square)}")
    lines = []
    for index, (result, written) in enumerate(zip(view.results, view.written)):
        parts = [f"{written} (failed)" if not result.success else written]
        if result.success and result.reveals:
            parts.append("saw " + ", ".join(_piece_on(piece.piece_type, square) for square, piece in result.reveals))
        following = view.results[index + 1].ply if index + 1 < len(view.results) else None
        parts.extend(text for ply, texts in lost.items() if result.ply < ply and (following is None or ply < following)
                     for text in texts)
        lines.append(f"{turn_number(result.ply)}. {' · '.join(parts)}")
    return lines


def _piece_on(piece_type: int, square: int) -> str:
    """A piece and its square as a score sheet writes them: ``Qd8``, ``pawn d5``."""
    letter = "pawn " if piece_type == chess.PAWN else chess.piece_symbol(piece_type).upper()
    return f"{letter}{square_name(square)}"


class BlindPresenter(ChessPresenter):
    """Blind Chess: attempts the referee may refuse, a draw offer once a turn and its answer; a seat keeps a
    belief board."""

    key = DEFINITION.key
    entry_text = "Type a move (e2e4, Nf3) and press Enter"

    def scene(self, view: Any) -> BoardScene:
        return blind_scene(view)

    def sounds(self, observation: Any, seat: Seat) -> tuple[str, ...]:
        o = observation
        if isinstance(o, AttemptResult):
            if not o.success:
                return ("failed",)
            return ("capture",) if o.capture is not None else ("move",)
        if isinstance(o, PieceLost):
            return ("captured",)
        return super().sounds(observation, seat)

    def describe(self, observation: Any, seat: Seat) -> str | None:
        return describe_blind(observation, seat)

    def move_list(self, view: Any) -> list[str]:
        return blind_moves(view)

    def premove_scene(self, view: Any) -> BoardScene | None:
        if view.outcome is not None or view.my_turn or view.phase != "wait":
            return None
        scene = blind_scene(view)
        scene.targets = chess_targets(view.attempts())
        return scene

    def move_action(self, move: chess.Move) -> Action:
        return Attempt(move)

    def commands(self, view: Any) -> list[Command]:
        offer = Command(OFFER_DRAW, "Offer draw", view.phase == "move" and not view.offered_this_turn)
        if view.phase != "answer_draw":
            return [offer]
        return [offer, Command(ACCEPT_DRAW, "Accept draw", True), Command(DECLINE_DRAW, "Decline draw", True)]

    def command(self, view: Any, command_id: str) -> Action | MarksChange:
        if command_id == OFFER_DRAW:
            return OfferDraw()
        if command_id in (ACCEPT_DRAW, DECLINE_DRAW):
            return AnswerDraw(command_id == ACCEPT_DRAW)
        return super().command(view, command_id)

    def prompt(self, view: Any) -> str:
        return {"move": "Your move", "answer_draw": "Answer the draw offer"}.get(view.phase, str(view.phase))

    def panels(self) -> frozenset[str]:
        return frozenset({BELIEF_PANEL})


PRESENTER = BlindPresenter()
__all__ = ["PRESENTER", "BlindPresenter", "blind_moves", "blind_remembered", "blind_scene", "describe_blind"]
