"""Observations in plain words, for a seat's event log (no Qt).

Every sentence is written from the point of view of the seat that received the observation, and says no more
than the observation does. Each game's presenter writes its own sentences (``presenter.describe``); the
functions here find the presenter for callers that hold an observation or a game key only.

>>> import chess
>>> from app.games.rbc.rules import TurnStarted, MoveResult
>>> describe(TurnStarted(4, chess.E4), chess.WHITE)
'Turn 3: your piece on e4 was captured.'
>>> describe(MoveResult(4, chess.Move.from_uci("a1a8"), chess.Move.from_uci("a1a5"), chess.A5), chess.WHITE)
'You asked for a1 to a8; a1 to a5 was played and captured a piece on a5.'
"""

from __future__ import annotations

from typing import Any, Sequence

from app import games
from app.engine.core import Outcome, Reason
from app.games.presenter import Presenter, ends_game, presenter_for

YOU = "You"
"""The name of the one person playing bots: "You win", not "You wins"."""


def _presenter_of(observation: Any) -> Presenter | None:
    """The presenter of the game whose referee or view module defines the observation's class (the two modules
    where a game's actions, observations and views live, as the worker's unpickler trusts them too)."""
    module = type(observation).__module__
    for definition in games.all():
        if definition.presenter is not None and module in (definition.referee.module, definition.view.module):
            return presenter_for(definition.key)
    return None


def describe(observation: Any, color: bool, variant: str | None = None) -> str | None:
    """One line for the event log of the seat playing ``color`` (True: White, seat 0), or ``None`` for
    observations not worth a line. Without ``variant``, the game is the one whose referee or view module defines the
    observation; an observation every game shares (the game's end) is put in the first game's words."""
    seat = 0 if color else 1
    presenter = presenter_for(variant) if variant is not None else _presenter_of(observation)
    if presenter is None and ends_game(observation):
        presenter = presenter_for(games.default().key)
    return None if presenter is None else presenter.describe(observation, seat)


def move_list(variant: str, view: Any) -> list[str]:
    """This seat's own moves with their results, one line per turn (no Qt; from the seat's view only).

    >>> from app.games.rbc.rules import ReconChess, ReconChessView, Sense, MoveAction
    >>> game = ReconChess()
    >>> game.play(0, Sense.parse("e7"))
    >>> game.play(0, MoveAction.parse("e2e4"))
    >>> move_list(games.default().key, ReconChessView.from_observations(game.observations(0)))
    ['1. sense e7 · e4']
    """
    return presenter_for(variant).move_list(view)


def outcome_headline(outcome: Outcome, players: Sequence[str], teams: Sequence[int], *, past: bool = False,
                     sentence_start: bool = True) -> str:
    """Who won, in a few words, for a game-over message: the winning seat's or team's players, else the shared
    score, the seats' scores, a game lost by everyone at the table (a solitaire, a cooperative game), or a draw.
    ``players`` are the names of who played each seat, ``teams`` each seat's team. ``past`` puts the verb in the
    past tense; without ``sentence_start`` the words that are not names begin in lower case.

    >>> from app.engine.core import Outcome, Reason
    >>> outcome_headline(Outcome(1, Reason.KING_CAPTURE), ["White", "Black"], (0, 1))
    'Black wins'
    >>> outcome_headline(Outcome(0, Reason.RESIGN), ["You", "random (easy)"], (0, 1), past=True)
    'You won'
    >>> outcome_headline(Outcome(None, Reason.DRAW_AGREED), ["White", "Black"], (0, 1), sentence_start=False)
    'draw'
    >>> outcome_headline(Outcome(None, Reason.RESIGN, team=0), ["North", "East", "South", "West"], (0, 1, 0, 1))
    'North and South win'
    >>> outcome_headline(Outcome(None, Reason.RESIGN), ["You"], (0,))
    'Lost'
    >>> outcome_headline(Outcome(None, Reason.SCORE, score=12.0), ["You"], (0,))
    'Score 12'
    >>> outcome_headline(Outcome(None, Reason.RESIGN, scores=(1.0, 0.0, 1.0)), ["A", "B", "C"], (0, 1, 2))
    'Scores: A 1, B 0, C 1'
    """

    def word(text: str) -> str:
        return text if sentence_start else text[:1].lower() + text[1:]

    winners: list[str] = []
    if outcome.winner is not None:
        winners = [players[outcome.winner]]
    elif outcome.team is not None:
        winners = [name for name, team in zip(players, teams) if team == outcome.team]
    if winners:
        names = winners[0] if len(winners) == 1 else f"{', '.join(winners[:-1])} and {winners[-1]}"
        plural = len(winners) > 1 or winners == [YOU]
        return f"{names} {'won' if past else 'win' if plural else 'wins'}"
    if outcome.score is not None:
        return word(f"Score {outcome.score:g}")
    if outcome.scores is not None:
        return word("Scores: " + ", ".join(f"{name} {score:g}" for name, score in zip(players, outcome.scores)))
    if outcome.reason is Reason.ABORTED:  # stopped from outside (a referee shut down): nobody drew anything
        return word("No result")
    if len(set(teams)) == 1:  # no team won a game of one team: the table lost together, unless it was stopped short
        stopped = {Reason.ABORTED, Reason.DRAW_AGREED, Reason.MOVE_LIMIT, Reason.TURN_LIMIT,
                   Reason.INSUFFICIENT_MATERIAL}
        return word("No winner" if outcome.reason in stopped else "Lost")
    return word("Draw")
