"""Parade Chess Solitaire as text: the deal, then each action on its own line with the position after it, as the
player saw it (a record's own replay: never the pile's order).

>>> from app.engine.record import GameSession
>>> from app.games.parade.rules import ParadeChess, ParadeMove
>>> session = GameSession(ParadeChess(deal=2, seed=0))
>>> text = parade_text(session.snapshot())
>>> text.splitlines()[0]
'Parade Chess Solitaire, deal 2'
"""

from __future__ import annotations

from typing import Any

from app.engine.record import GameRecord, RecordError, replay
from app.games.parade import DEFINITION
from app.games.parade.presenter import PRESENTER
from app.games.parade.rules import ParadeView, board_text

__all__ = ["parade_text"]


def parade_text(record: GameRecord) -> str:
    """The game in plain text (see the module)."""
    if record.variant != DEFINITION.key:
        raise RecordError(f"this writes {DEFINITION.title} records, not {record.variant[:30]!r}")
    replayed = replay(record)
    game: Any = replayed.game
    view = ParadeView.from_observations(game.observations(0))
    lines = [f"{DEFINITION.title}, deal {view.deal}", ""]
    for observation in view.history:
        words = PRESENTER.describe(observation, 0)
        if words:
            lines.append(words)
    lines += ["", f"Position: {board_text(view.placed)}", PRESENTER.prompt(view)]
    return "\n".join(lines) + "\n"
