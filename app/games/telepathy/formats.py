"""Telepathy Chess's export: PGN, with each prediction, flip and coin step as a comment after its move. It
holds only what every seat is told (a face-down card only once flipped), so it may be written during a game.

A removal takes a piece off the board, which no PGN move can say. So a game with removals is written as a run of
PGN games, each a part of the one game: the first from the usual start, every later one from the position left
by a removal (its ``FEN`` and ``SetUp`` tags), with a comment saying what was removed. Every part reads back
with any PGN reader (python-chess's among them) and replays to the position the next part starts from.

>>> from app.engine.record import GameSession
>>> from app.games.telepathy.rules import Predict, TelepathyChess, TelepathyMove
>>> session = GameSession(TelepathyChess())
>>> session.play(0, Predict("N")); session.play(1, TelepathyMove("g1f3"))
>>> print(telepathy_pgn(session.record).split("\\n\\n")[1])
1. Nf3 {W1 predicted knight; matched: coin toward Black (now on Black's side)}
*
{the game is still in progress}
<BLANKLINE>
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

import chess

from app import games
from app.engine.record import RecordError, Timeline
from app.games.chess_kit import pgn_headers, pgn_like_text, result_token
from app.games.telepathy.presenter import describe
from app.games.team_draw import DrawDeclined, DrawOffered
from app.games.telepathy.rules import Flipped, Moved, RemovalDue, Removed, take_off

if TYPE_CHECKING:
    from app.engine.record import GameRecord

__all__ = ["telepathy_pgn"]


def telepathy_pgn(record: GameRecord) -> str:
    """A Telepathy game as PGN: one PGN game per stretch between removals, predictions in comments."""
    if record.variant != "telepathy":
        raise RecordError(f"the Telepathy PGN is for Telepathy Chess games, not {record.variant}")
    game: Any = Timeline(record).game
    outcome = record.result
    two_sided = replace(outcome, winner=outcome.team) if outcome is not None and outcome.team is not None \
        else outcome  # a team's win is written as White's (1-0) or Black's (0-1)
    base = pgn_headers(record, games.get(record.variant).title)
    names = [player.name or "?" for player in record.players] + ["?"] * 4
    base["White"], base["Black"] = f"{names[0]} & {names[1]}", f"{names[2]} & {names[3]}"
    # The moves are standard chess moves, so no Variant tag (readers would look for a chess variant of that name).
    base["SightlineVariant"] = base.pop("Variant")
    parts: list[tuple[str | None, list[str]]] = [(game.start_fen, [])]
    board = chess.Board(game.start_fen) if game.start_fen else chess.Board()
    for o in game.observations(0):  # the public observations only: seat 0's own cards are never read
        tokens = parts[-1][1]
        if isinstance(o, Moved):
            move = chess.Move.from_uci(o.uci)
            if board.turn == chess.WHITE:
                tokens.append(f"{board.fullmove_number}.")
            elif not tokens or tokens[-1].startswith("{"):
                tokens.append(f"{board.fullmove_number}...")
            tokens.append(board.san(move) if board.is_legal(move) else o.san)
            board.push(move)
        elif isinstance(o, (Flipped, RemovalDue, DrawOffered, DrawDeclined)):  # (a team's own proposal: never)
            line = describe(o, -1)
            if line:
                tokens.append("{" + line.rstrip(".").replace("}", ")") + "}")
        elif isinstance(o, Removed):
            take_off(board, chess.parse_square(o.square))
            tokens.append("{" + str(describe(o, -1)).rstrip(".") + "}")
            parts.append((board.fen(), [f"{{after the removal on {o.square}}}"]))
    texts = []
    for index, (fen, tokens) in enumerate(parts):
        last = index == len(parts) - 1
        headers = dict(base)
        headers["Round"] = f"part {index + 1} of {len(parts)}" if len(parts) > 1 else "-"
        if fen is not None:
            headers["SetUp"], headers["FEN"] = "1", fen
        headers["Result"] = result_token(two_sided) if last else "*"
        tokens = [*tokens, headers["Result"]]
        texts.append(pgn_like_text(headers, tokens, outcome if last else None).replace(
            "{the game is still in progress}", "{the game goes on in the next part}" if not last else
            "{the game is still in progress}"))
    return "\n".join(texts)
