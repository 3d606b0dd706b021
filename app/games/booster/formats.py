"""Booster Chess's export: a game's turns as PGN-like text, holding only what both players are told.

PGN's tags (the players, the result ...), then the turns, numbered as in PGN, each written as its moves in long
algebraic form (``Ng1-f3``): the normal move, then each booster step with a ``+`` (``+f4``), then the card
played and the piece it put a checker under in braces (``{9♦ on c1}``), and the number of cards drawn when there
were any (``{drew 2}``). Hands and the draw pile are never in it (a drawn card's face is only ever told to its
drawer), so it may be written during a game and from either seat.

>>> from app.engine.record import GameSession
>>> from app.games.booster.rules import BoosterChess, BoosterMove, Done
>>> session = GameSession(BoosterChess(seed=1))
>>> session.play(0, BoosterMove("e2e4")); session.play(0, Done())
>>> booster_moves(session.record).split("\\n\\n")[1].splitlines()[0]
'1. e2-e4 *'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app import games
from app.engine.record import RecordError, Timeline
from app.games.booster.rules import CardPlayed, Moved, Stepped, TurnOver
from app.games.chess_kit import pgn_headers, pgn_like_text, result_token
from app.games.kit_cards import card_face

if TYPE_CHECKING:
    from app.engine.record import GameRecord

__all__ = ["booster_moves"]


def booster_moves(record: GameRecord) -> str:
    """A Booster Chess game as PGN-like tags, then its turns (moves, steps, cards played, draws)."""
    if record.variant != "booster":
        raise RecordError(f"the Booster Chess move text is for Booster Chess games, not {record.variant}")
    game: Any = Timeline(record).game
    headers = pgn_headers(record, games.get(record.variant).title)
    if game.start_fen:
        headers["SetUp"], headers["FEN"] = "1", game.start_fen
    if game.start_stacks:
        headers["Checkers"] = game.options()["checkers"]
    tokens: list[str] = []
    number = int(headers["FEN"].split()[-1]) if game.start_fen else 1
    for o in game.observations(0):  # seat 0's log, read for what both seats are told only
        if isinstance(o, Moved):
            if o.seat == 0:
                tokens.append(f"{number}.")
            elif not tokens or tokens[-1].startswith("{"):
                tokens.append(f"{number}...")
            tokens.append(o.text)
            if o.seat == 1:
                number += 1
        elif isinstance(o, Stepped):
            tokens[-1] += "+" + o.uci[2:4] + ("=" + o.uci[4:].upper() if len(o.uci) > 4 else "")
        elif isinstance(o, CardPlayed):
            tokens.append("{" + f"{card_face(o.card)} on {o.square}" + "}")
        elif isinstance(o, TurnOver) and o.drawn:
            tokens.append("{" + f"drew {o.drawn}" + ("; reshuffled" if o.reshuffled else "") + "}")
    tokens.append(result_token(record.result))
    return pgn_like_text(headers, tokens, record.result)
