"""Scouts, four seats in two teams on a 6x6 board, each seat seeing only its own scouts (a test game: it shows
that team play and privacy between partners need nothing outside the game's own package).

>>> [(seat.name, seat.team) for seat in DEFINITION.seats]
[('W1', 0), ('W2', 0), ('B1', 1), ('B2', 1)]
"""

from __future__ import annotations

from app.games.definition import GameDefinition, Lazy, SeatSpec

DEFINITION = GameDefinition(
    key="scouts",
    title="Scouts (test game)",
    description="Two teams of two on a 6x6 board; each seat sees only its own scouts and hunts the enemy's.",
    seats=(SeatSpec("W1", team=0), SeatSpec("W2", team=0), SeatSpec("B1", team=1), SeatSpec("B2", team=1)),
    referee=Lazy("tests.games.scouts.rules:ScoutsGame"),
    view=Lazy("tests.games.scouts.rules:ScoutsView"),
    presenter=Lazy("tests.games.scouts.presenter:PRESENTER"),
    board=(6, 6),
    hidden_information=True,
    bots=(("random", Lazy("tests.games.scouts.bots:ScoutsRandomBot")),),
)
