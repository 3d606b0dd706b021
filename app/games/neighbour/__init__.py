"""Neighbour Chess Solitaire: pieces come onto the board where two decks of cards send them; then each card left
pays for a move in which a piece moves the way one of its same-colour neighbours does; gather every piece into one
orthogonally connected group (rulings NE1-NE4b). The cards left are the score.

What the app needs to know about it, as plain data; the code is named lazily.

>>> DEFINITION.seat_names, DEFINITION.hidden_information
(('Player',), True)
>>> [option.key for option in DEFINITION.options], [name for name, _ in DEFINITION.bots]
(['deal'], ['planner', 'random'])
"""

from __future__ import annotations

from app.games.definition import ExportFormat, GameDefinition, Lazy, OptionSpec, SeatSpec

DEFINITION = GameDefinition(
    key="neighbour",
    title="Neighbour Chess Solitaire",
    description="A chess solitaire with two decks: each add turns a piece card and a position card that sends the "
                "piece right or up from the last one added. Stop adding when you like; then every card left pays "
                "for a move, in which a piece moves as one of its same-colour neighbours would. Join all the pieces "
                "into one group (no diagonals): the cards left are your score.",
    seats=(SeatSpec("Player", team=0),),
    referee=Lazy("app.games.neighbour.rules:NeighbourChess"),
    view=Lazy("app.games.neighbour.rules:NeighbourView"),
    presenter=Lazy("app.games.neighbour.presenter:PRESENTER"),
    board=(8, 8),
    hidden_information=True,  # both decks are face down: their order is known to nobody (G2)
    options=(OptionSpec("deal", "Deal number", hidden=True,
                        help="the deal, 1 to 1000000 (the same number is the same deal everywhere); "
                             "a new game without it gets a deal drawn at random"),),
    rules_doc="neighbour.md",
    bots=(("planner", Lazy("app.games.neighbour.bots:NeighbourPlannerBot")),
          ("random", Lazy("app.games.neighbour.bots:NeighbourRandomBot"))),
    bot_words={
        "planner": {
            "easy": "Plays the deal for you with a short search.",
            "medium": "Plays the deal for you with a fuller search. Wins about 28 deals in 100, as a solver given a "
                      "second a deal does.",
            "hard": "Searches five times as far as medium before each step.",
        },
        "random": {"": "Any allowed action at random: it never won in 500 deals."},
    },
    formats=(ExportFormat("neighbour-text", "The game as &text", ".txt",
                          Lazy("app.games.neighbour.formats:neighbour_text"), text=True, shows_truth=False),),
)
