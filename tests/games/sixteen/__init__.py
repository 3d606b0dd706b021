"""Sixteen, a one-seat card solitaire on a 4x4 board (a test game: it shows that a dealt deck, a private hand
and a draw pile beside the board need nothing outside the game's own package).

>>> DEFINITION.seat_names, DEFINITION.board, [name for name, _ in DEFINITION.bots]
(('Player',), (4, 4), ['random'])
"""

from __future__ import annotations

from app.games.definition import GameDefinition, Lazy, SeatSpec

DEFINITION = GameDefinition(
    key="sixteen",
    title="Sixteen (test game)",
    description="Deal-and-place solitaire: put sixteen cards on a 4x4 board; rows and columns of a suit score.",
    seats=(SeatSpec("Player", team=0),),
    referee=Lazy("tests.games.sixteen.rules:Sixteen"),
    view=Lazy("tests.games.sixteen.rules:SixteenView"),
    presenter=Lazy("tests.games.sixteen.presenter:PRESENTER"),
    board=(4, 4),
    hidden_information=True,  # the draw pile's order is secret until its cards are drawn
    bots=(("random", Lazy("tests.games.sixteen.bots:SixteenRandomBot")),),
)
