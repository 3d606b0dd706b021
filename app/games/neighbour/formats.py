"""Neighbour Chess Solitaire's text export: the deal, every line of the log in order, then the board and the score.
It holds only what the player was told (a card once turned, never a deck's order), so it may be written while
the game goes on.

>>> from app.engine.record import GameSession
>>> from app.games.neighbour.rules import NeighbourAdd, NeighbourChess
>>> session = GameSession(NeighbourChess(deal=1, seed=1))
>>> session.play(0, NeighbourAdd())
>>> print(neighbour_text(session.record).split("\\n\\n")[1].splitlines()[1])
1. Turned the black bishop (9♣) and the 3♠: from a1, 3 up to a4.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app import games
from app.engine.record import RecordError, Timeline
from app.games.neighbour.presenter import describe

if TYPE_CHECKING:
    from app.engine.record import GameRecord

__all__ = ["neighbour_text"]


def neighbour_text(record: GameRecord) -> str:
    """A game as plain text: a heading, the log numbered, the board (rank 8 at the top) and how it stands."""
    if record.variant != "neighbour":
        raise RecordError(f"the Neighbour Chess text is for Neighbour Chess games, not {record.variant}")
    game: Any = Timeline(record).game
    name = (record.players[0].name if record.players else "") or "?"
    told = game.observations(0)
    lines = [f"{games.get(record.variant).title}, deal {game.deal}: {name}", f"Started {record.started or '?'}"]
    log = [describe(observation, 0) for observation in told]
    numbered = [f"{index}. {line}" for index, line in enumerate((line for line in log[1:] if line), 1)]
    board = game.state.board
    diagram = [f"{rank + 1} " + "".join(board[rank * 8 + file] for file in range(8)) for rank in range(7, -1, -1)]
    state = game.state
    if game.outcome is None:
        standing = (f"The game is still in progress: {state.added} pieces, {state.moves} moves, "
                    f"{state.cards_left} cards left.")
    else:
        standing = log[-1] or ""
    return "\n\n".join(["\n".join(lines), "\n".join([log[0] or "", *numbered]),
                        "Board (rank 8 at the top):\n" + "\n".join(diagram) + "\n  abcdefgh", standing]) + "\n"
