"""Observations in plain words, for a seat's event log (no Qt).

Every sentence is written from the point of view of the seat that received the observation, and says no more
than the observation does. Each game's presenter writes its own sentences (``presenter.describe``); the
functions here find the presenter for callers that hold an observation or a game key only.

>>> import chess
>>> from app.engine.rbc import TurnStarted, MoveResult
>>> describe(TurnStarted(4, chess.E4), chess.WHITE)
'Turn 3: your piece on e4 was captured.'
>>> describe(MoveResult(4, chess.Move.from_uci("a1a8"), chess.Move.from_uci("a1a5"), chess.A5), chess.WHITE)
'You asked for a1a8; a1a5 was played and captured a piece on a5.'
"""

from __future__ import annotations

from typing import Any

from app import games
from app.games.presenter import Presenter, presenter_for


def _presenter_of(observation: Any) -> Presenter | None:
    """The presenter of the game whose referee module defines the observation's class."""
    module = type(observation).__module__
    for definition in games.all():
        if definition.presenter is not None and definition.referee.module == module:
            return presenter_for(definition.key)
    return None


def describe(observation: Any, color: bool, variant: str | None = None) -> str | None:
    """One line for the event log of the seat playing ``color`` (True: White, seat 0), or ``None`` for
    observations not worth a line. Without ``variant``, the game is the one whose referee defines the
    observation; an observation every game shares (the game's end) is put in the first game's words."""
    seat = 0 if color else 1
    presenter = presenter_for(variant) if variant is not None else _presenter_of(observation)
    if presenter is None and type(observation).__name__ == "GameEnded":
        presenter = presenter_for(games.default().key)
    return None if presenter is None else presenter.describe(observation, seat)


def move_list(variant: str, view: Any) -> list[str]:
    """This seat's own moves with their results, one line per turn (no Qt; from the seat's view only).

    >>> from app.engine.rbc import ReconChess, ReconChessView, Sense, MoveAction
    >>> game = ReconChess()
    >>> game.play(0, Sense.parse("e7"))
    >>> game.play(0, MoveAction.parse("e2e4"))
    >>> move_list(games.default().key, ReconChessView.from_observations(game.observations(0)))
    ['1. sense e7 · e2e4']
    """
    return presenter_for(variant).move_list(view)
