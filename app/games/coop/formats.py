"""Cooperative Chess 2's export: the game as text, one line per thing every seat was told (cards played, moves and
captures, draws counted, questions and answers, the end). A hand is never written, nor a card drawn, so it may be
written during a game; the draw pile's order is in no record.

>>> from app.engine.record import GameSession
>>> from app.games.coop.rules import CoopChess, PlayCard
>>> session = GameSession(CoopChess(seed=4))
>>> session.play(0, PlayCard(session.game.hands[0][0]))
>>> for line in coop_text(session.record).splitlines()[-2:]:
...     print(line)
Turn 1: White played the black knight (8♠) to the line.
The game is still in progress.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from app import games
from app.engine.record import RecordError, Timeline
from app.games.coop.presenter import describe
from app.games.coop.rules import Answered, Asked, CoopChess, Drew, Ended, Moved, Played, Turn, Turned

if TYPE_CHECKING:
    from app.engine.record import GameRecord

__all__ = ["coop_text"]

PUBLIC = (Played, Moved, Drew, Asked, Answered, Turned, Ended)
"""The observations every seat is told alike (a draw's cards are counted, never named, for anyone but the
drawer: written as told to nobody in particular)."""


def coop_text(record: GameRecord) -> str:
    """The game as text (see the module's words)."""
    referee = games.referee(record.variant)
    if not issubclass(referee, CoopChess):
        raise RecordError(f"this export is for Cooperative Chess 2 games, not {record.variant}")
    game: Any = Timeline(record).game
    title = games.get(record.variant).title
    names = ", ".join(f"{seat}: {player.name or '?'}" for seat, player in zip(game.seat_names, record.players))
    lines = [f"{title}, {record.started or 'date unknown'}", names, ""]
    number = 1
    for o in game.observations(0):
        if isinstance(o, Turn):
            number = o.number
            continue
        if not isinstance(o, PUBLIC):
            continue
        line = describe(o, -1)
        if line:
            lines.append(line if isinstance(o, Ended) else f"Turn {number}: {line}")
    if record.result is None:
        lines.append("The game is still in progress.")
    return "\n".join(lines) + "\n"
