"""Parade Chess Solitaire: eight of the kit's sixteen piece cards dealt onto the board with gaps; each card of the
other eight is spent on a move (a piece moves another of the other colour between squares it attacks) or an add
(the next piece after the last); bring every piece into one orthogonally connected group (rulings PA1-PA3).

What the app needs to know about it, as plain data; the code is named lazily.

>>> DEFINITION.seat_names, DEFINITION.hidden_information
(('Player',), True)
>>> [option.key for option in DEFINITION.options]
['deal']
"""

from __future__ import annotations

from app.games.definition import ExportFormat, GameDefinition, Lazy, OptionSpec, SeatSpec

DEFINITION = GameDefinition(
    key="parade",
    title="Parade Chess Solitaire",
    description="A chess solitaire: eight pieces dealt onto the board with gaps between them, eight cards in hand. "
                "Spend a card to have a piece move a piece of the other colour between two squares it attacks, or "
                "to add the next piece; join every piece into one group (no diagonals). Cards left are your score.",
    seats=(SeatSpec("Player", team=0),),
    referee=Lazy("app.games.parade.rules:ParadeChess"),
    view=Lazy("app.games.parade.rules:ParadeView"),
    presenter=Lazy("app.games.parade.presenter:PRESENTER"),
    board=(8, 8),
    hidden_information=True,  # the hand pile is face down: its order is known to nobody (G2)
    options=(OptionSpec("deal", "Deal number", hidden=True,
                        help="the deal, 1 to 1000000 (the same number is the same deal everywhere); "
                             "a new game without it gets a deal drawn at random"),),
    rules_doc="parade.md",
    bots=(("planner", Lazy("app.games.parade.bots:ParadePlannerBot")),
          ("random", Lazy("app.games.parade.bots:ParadeRandomBot"))),
    bot_words={
        "planner": {
            "easy": "Plays the deal for you, thinking a fifth of a second an action.",
            "medium": "Plays the deal for you, following a sure line once it finds one. Wins 93 deals in 100.",
            "hard": "Thinks longest (two seconds an action) before each step.",
        },
        "random": {"": "Random moves and adds: it almost never wins."},
    },
    formats=(ExportFormat("parade-text", "The game as &text", ".txt", Lazy("app.games.parade.formats:parade_text"),
                          text=True, shows_truth=False),),
)
