"""The solitaire's referee and bots: Cooperative Chess 2's own, for one seat (see :mod:`app.games.coop.rules`).

>>> game = CoopSolitaire(seed=3)
>>> game.seat_names, game.hands, len(game.line), game.phase
(('Player',), [[]], 1, 'move')
"""

from __future__ import annotations

from typing import ClassVar

from app.games.coop.bots import CoopPartnerBot, CoopRandomBot
from app.games.coop.rules import CoopChess
from app.games.coop.solitaire import DEFINITION

__all__ = ["CoopSolitaire", "CoopSolitairePartnerBot", "CoopSolitaireRandomBot"]


class CoopSolitaire(CoopChess):
    """One seat, both colours, no hand: the top card is turned onto the line at the start of each turn."""

    variant: ClassVar[str] = DEFINITION.key
    seat_names: ClassVar[tuple[str, ...]] = DEFINITION.seat_names
    seat_teams: ClassVar[tuple[int, ...] | None] = DEFINITION.seat_teams
    hidden_information: ClassVar[bool] = DEFINITION.hidden_information
    solitaire: ClassVar[bool] = True


class CoopSolitairePartnerBot(CoopPartnerBot):
    """The partner bot, playing both colours of the solitaire."""

    variant: ClassVar[str] = DEFINITION.key


class CoopSolitaireRandomBot(CoopRandomBot):
    """Random moves and captures, for the solitaire."""

    variant: ClassVar[str] = DEFINITION.key
