"""Gravity Chess: both armies enter on rank 8 one piece a turn, from a deck the opponent flips, and fall toward
rank 1; a piece that can fall no further is stacked and scores its rank.

What the app needs to know about it, as plain data; the code is named lazily.

>>> DEFINITION.seat_names, DEFINITION.hidden_information
(('White', 'Black'), False)
>>> [name for name, _ in DEFINITION.bots]
['engine', 'random']
"""

from __future__ import annotations

from app.games.definition import ExportFormat, GameDefinition, Lazy, SeatSpec

DEFINITION = GameDefinition(
    key="gravity",
    title="Gravity Chess",
    description="Both armies start off the board and fall toward rank 1: each turn you flip a card for one enemy "
                "piece, move every piece of yours one rank down or more, then drop the enemy piece on rank 8. "
                "Pieces that can fall no further are stacked and score their rank.",
    # Nobody holds anything private: the decks' order is secret from both players alike (G2), and every
    # flipped card, move and placement is seen by both. The board is never turned: down is rank 1 for both.
    seats=(SeatSpec("White", team=0), SeatSpec("Black", team=1)),
    referee=Lazy("app.games.gravity.rules:GravityChess"),
    view=Lazy("app.games.gravity.rules:GravityView"),
    presenter=Lazy("app.games.gravity.presenter:PRESENTER"),
    board=(8, 8),
    hidden_information=False,
    options=(),  # the decks are dealt by chance (the record keeps the seed), nothing else is chosen
    rules_doc="gravity.md",
    bots=(("engine", Lazy("app.games.gravity.bots:GravityEngineBot")),
          ("random", Lazy("app.games.gravity.bots:GravityRandomBot"))),
    bot_words={
        "engine": {
            "easy": "Plans its pieces one way at a time. Beat random in 94 games of 100.",
            "medium": "Weighs four plans a turn. Beat easy in 65 games of 100.",
            "hard": "Weighs eight plans a turn and your replies. Beat medium in 62 games of 100.",
        },
        "random": {"": "Any allowed action at random: only for trying out the rules."},
    },
    formats=(ExportFormat("gravity", "The turns as &text", ".txt", Lazy("app.games.gravity.formats:gravity_text"),
                          text=True, shows_truth=False),),
)
