"""Lights Out, a one-seat solitaire on a 4x4 board (a test game: it shows that a game with no pieces, one seat
and a dealt start needs nothing outside its own package).

>>> DEFINITION.seat_names, DEFINITION.board, [name for name, _ in DEFINITION.bots]
(('Player',), (4, 4), ['random'])
"""

from __future__ import annotations

from app.games.definition import GameDefinition, Lazy, OptionSpec, SeatSpec

DEFINITION = GameDefinition(
    key="lights",
    title="Lights Out (test game)",
    description="Switch off every light of a 4x4 board; a press switches a cell and its neighbours.",
    seats=(SeatSpec("Player", team=0),),
    referee=Lazy("tests.games.lights.rules:LightsOut"),
    view=Lazy("tests.games.lights.rules:LightsView"),
    presenter=Lazy("tests.games.lights.presenter:PRESENTER"),
    board=(4, 4),
    hidden_information=False,
    options=(OptionSpec("lights", "Starting lights", hidden=True),),  # the deal's seed is chance, not an option
    bots=(("random", Lazy("tests.games.lights.bots:LightsRandomBot")),),
)
