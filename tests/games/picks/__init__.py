"""Secret Picks, four seats in two teams with cards dealt by chance, a secret setup choice per seat and secret
picks by partners before anything is shown (a test game: it shows that chance, private setup and several
secret choices a turn need nothing outside the game's own package). Its presenter draws a strip of four cells,
one per seat, with the seat's hand below it and the rounds shown above it.

>>> [(seat.name, seat.team) for seat in DEFINITION.seats]
[('A1', 0), ('A2', 0), ('B1', 1), ('B2', 1)]
"""

from __future__ import annotations

from app.games.definition import GameDefinition, Lazy, SeatSpec

DEFINITION = GameDefinition(
    key="picks",
    title="Secret Picks (test game)",
    description="Two teams of two; each seat arranges its game in secret, then partners pick cards unseen.",
    seats=(SeatSpec("A1", team=0), SeatSpec("A2", team=0), SeatSpec("B1", team=1),
           SeatSpec("B2", team=1)),  # a strip of cards: nobody sits across it
    referee=Lazy("tests.games.picks.rules:SecretPicks"),
    view=Lazy("tests.games.picks.rules:PicksView"),
    presenter=Lazy("tests.games.picks.presenter:PRESENTER"),
    board=(4, 1),
    hidden_information=True,
    bots=(("random", Lazy("tests.games.picks.bots:PicksRandomBot")),),
)
