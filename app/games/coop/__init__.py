"""Cooperative Chess 2: White and Black are one team playing against the game; a line of face-up cards says
which captures are allowed, and the team scores a point a capture and ten for each piece type gone.

What the app needs to know about it, as plain data; the code is named lazily. Its solitaire (one seat playing
both colours, no hand) is a definition of its own, :mod:`app.games.coop.solitaire`, offered by the new-game
dialog as an option of this game (``variant_of``).

>>> DEFINITION.seat_names, DEFINITION.seat_teams, DEFINITION.hidden_information
(('White', 'Black'), (0, 0), True)
>>> [name for name, _ in DEFINITION.bots]
['partner', 'random']
"""

from __future__ import annotations

from app.games.definition import ExportFormat, GameDefinition, Lazy, SeatSpec

DEFINITION = GameDefinition(
    key="coop",
    title="Cooperative Chess 2",
    description="White and Black play together against the game: each turn a card goes to a face-up line, and a "
                "piece may capture only where its card lies right beside the captured piece's card. Score a point "
                "a capture and ten for each piece type gone; the game is won only with a king captured and 32 "
                "points or more.",
    seats=(SeatSpec("White", team=0), SeatSpec("Black", team=0, flipped=True)),
    referee=Lazy("app.games.coop.rules:CoopChess"),
    view=Lazy("app.games.coop.rules:CoopView"),
    presenter=Lazy("app.games.coop.presenter:PRESENTER"),
    board=(8, 8),
    hidden_information=True,  # each hand is private, and the draw pile's order is known to nobody
    rules_doc="coop.md",
    formats=(ExportFormat("coop-text", "The game as &text", ".txt", Lazy("app.games.coop.formats:coop_text"),
                          text=True, shows_truth=False),),
    variant_label="Two players",  # its solitaire is the other form (app.games.coop.solitaire)
    bots=(("partner", Lazy("app.games.coop.bots:CoopPartnerBot")),
          ("random", Lazy("app.games.coop.bots:CoopRandomBot"))),
    bot_words={
        "partner": {"": "Plans its turn for the team's score and keeps a king within reach. Two partner bots win "
                        "half their deals."},
        "random": {"": "Plays random cards and moves: only for trying out the rules."},
    },
)
