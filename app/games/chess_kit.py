"""What the chess games on an 8x8 board share in their presenters (no Qt): square numbering, the moves a
scene offers, the words for pieces and turns, and the true position drawn whole; and the tags of a PGN-like
export, which MinitChess's move list writes too.

The engine numbers squares as python-chess does (a1 = 0, b1 = 1 ... h8 = 63); a scene speaks of
``(file, rank)`` pairs.

>>> sq8(chess.E4), from_sq8((4, 3)) == chess.E4
((4, 3), True)
>>> chess_targets([chess.Move.from_uci("e7e8q"), chess.Move.from_uci("e7e8n"), chess.Move.from_uci("a2a3")])
{(4, 6): {(4, 7): ['q', 'n']}, (0, 1): {(0, 2): []}}
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Iterable, Sequence

import chess

from app.games.presenter import PresenterBase
from app.games.scene import BoardScene, Cell, Remembered, piece_words, unknown_piece

if TYPE_CHECKING:
    from app.engine.core import Action, Outcome, Seat
    from app.engine.record import GameRecord

PIECE_NAMES = {chess.PAWN: "pawn", chess.KNIGHT: "knight", chess.BISHOP: "bishop", chess.ROOK: "rook",
               chess.QUEEN: "queen", chess.KING: "king"}
SEAT_COLOURS = ("White", "Black")  # seat 0 plays White, seat 1 Black
_PROMOTION_ORDER = "qrbn"


def sq8(square: int) -> Cell:
    """The scene's (file, rank) of a python-chess square."""
    return chess.square_file(square), chess.square_rank(square)


def from_sq8(square: Cell) -> int:
    """The python-chess square of a scene's (file, rank)."""
    return chess.square(square[0], square[1])


def square_name(square: int) -> str:
    """``e4``."""
    return chess.SQUARE_NAMES[square]


def turn_number(ply: int) -> int:
    """The move number of a half-move (ply 0 and 1 are turn 1)."""
    return ply // 2 + 1


def remembered_from_facts(facts: Any, since: int, enemy_white: bool, oldest: int = 0) -> list[Remembered]:
    """The enemy pieces a seat knows of, from its belief kit's facts (square -> the latest thing learned there):
    each square whose latest fact is an enemy piece (of unknown type where it captured one of the seat's pieces),
    learned at ply ``oldest`` or later. A fact learned at or after ply ``since`` (the opponent's latest move the
    seat knows of) is current; an older one is drawn old, with its turn and a note saying when it was learned."""
    remembered = []
    for square, fact in sorted(facts.items()):
        if fact.ply < oldest or fact.kind not in ("piece", "occupied"):
            continue
        turn = turn_number(fact.ply)
        if fact.piece_type is not None:  # a piece seen there
            code = chess.Piece(fact.piece_type, enemy_white).symbol()
            note = f"{piece_words(code)} seen on {square_name(square)} at turn {turn}"
        else:
            code = unknown_piece(enemy_white)
            note = f"{piece_words(code)} on {square_name(square)}: it captured your piece there at turn {turn}"
        current = fact.ply >= since
        remembered.append(Remembered(sq8(square), code, turn, current,
                                     "" if current and fact.kind == "piece" else note))
    return remembered


def chess_targets(moves: Iterable[chess.Move]) -> dict[Cell, dict[Cell, list[str]]]:
    """from -> to -> promotion letters (queen first) of the moves a seat may make or attempt."""
    targets: dict[Cell, dict[Cell, list[str]]] = {}
    for move in moves:
        promotions = targets.setdefault(sq8(move.from_square), {}).setdefault(sq8(move.to_square), [])
        if move.promotion:
            letter = chess.piece_symbol(move.promotion)
            if letter not in promotions:
                promotions.append(letter)
    for destinations in targets.values():
        for promotions in destinations.values():
            promotions.sort(key=_PROMOTION_ORDER.index)
    return targets


def move_words(move: chess.Move) -> str:
    """A move in plain words for the log: ``"e2 to e4"``, ``"e7 to e8, becoming a queen"``.

    >>> move_words(chess.Move.from_uci("e7e8q"))
    'e7 to e8, becoming a queen'
    """
    text = f"{chess.square_name(move.from_square)} to {chess.square_name(move.to_square)}"
    return text + (f", becoming a {PIECE_NAMES[move.promotion]}" if move.promotion else "")


def outcome_sentence(outcome: Outcome, seat: Seat, teams: Sequence[int] | None = None) -> str:
    """The log's last line for ``seat``: who won (from that seat's side) and why. With ``teams`` (each seat's
    team), a win of a team of partners is told as the team's.

    >>> from app.engine.core import Outcome, Reason
    >>> outcome_sentence(Outcome(None, Reason.NO_MOVES, "White checkmated Black", team=0), 1, (0, 0, 1, 1))
    'Game over: your team won (White checkmated Black).'
    """
    detail = outcome.detail or outcome.reason.value.replace("_", " ")
    if outcome.winner is not None:
        return f"Game over: you {'won' if outcome.winner == seat else 'lost'} ({detail})."
    if outcome.team is None or teams is None:
        return f"Game over: draw ({detail})."
    return f"Game over: your team {'won' if teams[seat] == outcome.team else 'lost'} ({detail})."


def you_play(color: chess.Color) -> str:
    """The log's first line: which side the seat plays."""
    return f"You play {'White' if color else 'Black'}."


def seat_of_colour(color: chess.Color) -> Seat:
    """White sits in seat 0, Black in seat 1."""
    return 0 if color else 1


class ChessPresenter(PresenterBase):
    """A game played on a python-chess board of 8x8 squares: the true position is a ``chess.Board`` and a move
    is a ``chess.Move`` wrapped in the game's own action (:meth:`move_action`)."""

    def move_action(self, move: chess.Move) -> Action:
        """The game's action for moving (or attempting) ``move``."""
        raise NotImplementedError

    def on_move(self, view: Any, from_square: Cell, to_square: Cell, promotion: str | None) -> Action:
        move = chess.Move(from_sq8(from_square), from_sq8(to_square),
                          chess.PIECE_SYMBOLS.index(promotion) if promotion else None)
        return self.move_action(move)

    def truth_scene(self, truth: Any, last_move: Any = None) -> BoardScene:
        board: chess.Board = truth
        scene = BoardScene(pieces={sq8(square): piece.symbol() for square, piece in board.piece_map().items()})
        if last_move is not None:
            scene.last_move = (sq8(last_move.from_square), sq8(last_move.to_square))
        return scene

    def own_pieces(self, view: Any) -> dict[Cell, str]:
        """The letters of the seat's own pieces, which it always knows."""
        board: chess.Board = view.own_board
        return {sq8(square): piece.symbol() for square, piece in board.piece_map().items()}


# ---- PGN tags -------------------------------------------------------------------------------------------------

def result_token(outcome: Outcome | None) -> str:
    """PGN's result: ``1-0``, ``0-1``, ``1/2-1/2``, or ``*`` while the game goes on."""
    if outcome is None:
        return "*"
    if outcome.winner is None:
        return "1/2-1/2"
    return "1-0" if outcome.winner == 0 else "0-1"


# PGN's Termination words for the reasons it has one for (keyed by the reason's recorded value); "normal" else.
_TERMINATIONS = {"timeout": "time forfeit", "forfeit": "rules infraction", "aborted": "abandoned",
                 "turn_limit": "adjudication", "material": "time forfeit"}


def pgn_date(started: str) -> str:
    """PGN's ``yyyy.mm.dd`` of a record's start time (``????.??.??`` if it has none).

    >>> pgn_date("2026-03-01T10:00:00+00:00"), pgn_date("")
    ('2026.03.01', '????.??.??')
    """
    match = re.match(r"(\d{4})-(\d{2})-(\d{2})", started)
    return ".".join(match.groups()) if match else "????.??.??"


def pgn_headers(record: GameRecord, variant_title: str) -> dict[str, str]:
    """The tags of a record's PGN (or PGN-like) export, in order, each value on one line (not yet escaped)."""
    names = [player.name or "?" for player in record.players] + ["?", "?"]
    event = record.extra.get("event")
    headers = {
        "Event": event if isinstance(event, str) and event else "Sightline game",
        "Site": "Sightline",
        "Date": pgn_date(record.started),
        "Round": "-",
        "White": names[0],
        "Black": names[1],
        "Result": result_token(record.result),
        "Variant": variant_title,
        "TimeControl": "-" if record.clock.untimed else str(record.clock),
    }
    if record.result is None:
        headers["Termination"] = "unterminated"
    else:
        headers["Termination"] = _TERMINATIONS.get(record.result.reason.value, "normal")
        headers["SightlineReason"] = record.result.reason.value
    return {key: " ".join(value.split()) for key, value in headers.items()}  # no line breaks in a tag


def ending_comment(outcome: Outcome | None) -> str:
    """The words after the last move: how the game ended, or that it goes on."""
    if outcome is None:
        return "the game is still in progress"
    return outcome.detail or outcome.reason.value.replace("_", " ")


def pgn_like_text(headers: dict[str, str], tokens: list[str], outcome: Outcome | None) -> str:
    """A game as PGN-like text: the tag pairs, the move tokens wrapped at 79 characters (a token is never
    split, so a move number stays with its move), and a last comment saying how the game ended.

    >>> print(pgn_like_text({"Event": "Casual"}, ["1. a3", "b4", "*"], None))
    [Event "Casual"]
    <BLANKLINE>
    1. a3 b4 *
    {the game is still in progress}
    <BLANKLINE>
    """
    lines = [f'[{key} "{escape_tag(value)}"]' for key, value in headers.items()]
    body, line = [], ""
    for token in tokens:
        if line and len(line) + 1 + len(token) > 79:
            body.append(line)
            line = token
        else:
            line = f"{line} {token}" if line else token
    body.append(line)
    comment = ending_comment(outcome).replace("}", ")")
    return "\n".join(lines) + "\n\n" + "\n".join(body) + f"\n{{{comment}}}\n"


def escape_tag(value: str) -> str:
    r"""A tag value with ``"`` and ``\`` escaped by a backslash, as the PGN standard says.

    >>> print(escape_tag(r'Ann "the \ blade"'))
    Ann \"the \\ blade\"
    """
    return value.replace("\\", "\\\\").replace('"', '\\"')


def unescape_tag(value: str) -> str:
    r"""What :func:`escape_tag` escaped, read back.

    >>> print(unescape_tag(r'Ann \"the \\ blade\"'))
    Ann "the \ blade"
    """
    return re.sub(r"\\(.)", r"\1", value)
