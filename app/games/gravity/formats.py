"""Gravity Chess's text export: the game turn by turn, in the words of the log, then the board and the score.
It holds only what both seats are told (a card once turned, never a pile's order), so it may be written while
the game goes on.

>>> import random
>>> from app.engine.record import GameSession
>>> from app.games.gravity.rules import GravityChess, GravityPlace
>>> session = GameSession(GravityChess(seed=3))
>>> session.play(0, GravityPlace("d8"))
>>> print(gravity_text(session.record).split("\\n\\n")[1].splitlines()[0])
Turn 1, White: turns the black queen (Q♠); places it on d8.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import chess

from app import games
from app.engine.record import RecordError, Timeline
from app.games.gravity.presenter import score_table
from app.games.gravity.rules import SEATS, Ended, Lost, Moved, Passed, Placed, TurnStarted
from app.games.kit_cards import card_words

if TYPE_CHECKING:
    from app.engine.record import GameRecord

__all__ = ["gravity_text"]


def _turn_head(o: TurnStarted) -> str:
    who = SEATS[o.seat]
    if not o.card:
        return f"Turn {o.number}, {who} (last turn, no card):"
    words = card_words(o.card)
    colour, rest = words.split(" ", 1)
    return f"Turn {o.number}, {who}: turns the {colour} {rest};"


def gravity_text(record: GameRecord) -> str:
    """A Gravity Chess game as plain text: a heading, one paragraph of lines per turn, the board and the score."""
    if record.variant != "gravity":
        raise RecordError(f"the Gravity Chess text is for Gravity Chess games, not {record.variant}")
    game: Any = Timeline(record).game
    names = [player.name or "?" for player in record.players] + ["?", "?"]
    lines = [f"{games.get(record.variant).title}: {names[0]} (White) against {names[1]} (Black)",
             f"Started {record.started or '?'}"]
    turns: list[list[str]] = []
    for o in game.observations(0):  # every observation is told to both seats alike
        if isinstance(o, TurnStarted):
            turns.append([_turn_head(o)])
        elif not turns:
            continue
        elif isinstance(o, Moved):
            move = chess.Move.from_uci(o.uci)
            kind = chess.piece_name(chess.Piece.from_symbol(o.piece).piece_type)
            taken = f" taking the {chess.piece_name(chess.Piece.from_symbol(o.captured).piece_type)}" \
                if o.captured else ""
            turns[-1].append(f"{kind} {chess.square_name(move.from_square)}-{chess.square_name(move.to_square)}"
                             f"{taken};")
        elif isinstance(o, Passed):
            turns[-1].append(f"{chess.piece_name(chess.Piece.from_symbol(o.piece).piece_type)} {o.square} passed;")
        elif isinstance(o, Placed):
            turns[-1].append(f"places it on {o.square}.")
        elif isinstance(o, Lost):
            turns[-1].append("rank 8 is full: the piece is lost.")
    paragraphs = ["\n".join(lines), "\n".join(" ".join(turn).rstrip(";") + ("" if turn[-1].endswith(".") else ".")
                                              for turn in turns)]
    board = game.board
    diagram = str(board).replace(" ", "")
    paragraphs.append("Board (rank 8 at the top; down is rank 1 for both):\n" + "\n".join(
        f"{8 - row} {line}" for row, line in enumerate(diagram.splitlines())) + "\n  abcdefgh")
    table = score_table(board, (game.captures[0], game.captures[1]), game.outcome is not None)
    header = "       " + " ".join(f"{column:>3}" for column in table.columns)
    rows = [f"{name:<6} " + " ".join(f"{mark:>3}" for mark in marks) for name, marks in zip(table.rows, table.marks)]
    paragraphs.append("\n".join([table.label.replace("·", "-"), header, *rows]))
    ended = next((o for o in reversed(game.observations(0)) if isinstance(o, Ended)), None)
    if ended is None:
        paragraphs.append("The game is still in progress.")
    else:
        winner = ended.outcome.winner
        head = "A draw" if winner is None else f"{SEATS[winner]} wins"
        paragraphs.append(f"{head}: {ended.outcome.detail}. Points: White {ended.points[0]} ({ended.captures[0]} "
                          f"captured), Black {ended.points[1]} ({ended.captures[1]} captured).")
    return "\n\n".join(paragraphs) + "\n"
