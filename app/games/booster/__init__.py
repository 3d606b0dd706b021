"""Booster Chess: chess with a hand of cards that put checkers under pieces, boosting one's own (extra king steps
after a move) or hobbling the opponent's (they move like pawns).

What the app needs to know about it, as plain data; the code is named lazily.

>>> DEFINITION.seat_names, DEFINITION.hidden_information
(('White', 'Black'), True)
>>> [name for name, _ in DEFINITION.bots]
['engine', 'random']
"""

from __future__ import annotations

from app.games.definition import ExportFormat, GameDefinition, Lazy, SeatSpec

DEFINITION = GameDefinition(
    key="booster",
    title="Booster Chess",
    description="Chess with a private hand of cards: play a card to put one of your checkers under a piece. Your "
                "checkers boost your pieces (a king step after the move for each checker spent), under an enemy "
                "piece they hobble it (it moves like a pawn). Checkmate wins.",
    seats=(SeatSpec("White", team=0), SeatSpec("Black", team=1, flipped=True)),
    referee=Lazy("app.games.booster.rules:BoosterChess"),
    view=Lazy("app.games.booster.rules:BoosterView"),
    presenter=Lazy("app.games.booster.presenter:PRESENTER"),
    board=(8, 8),
    hidden_information=True,
    match_defaults={"max_plies": 400},  # turns of both sides: the 50-move rule ends most games sooner
    rules_doc="booster.md",
    bots=(("engine", Lazy("app.games.booster.bots:BoosterEngineBot")),
          ("random", Lazy("app.games.booster.bots:BoosterRandomBot"))),
    bot_words={
        "engine": {
            "easy": "Looks one move ahead. Beat random in 98 games of 100.",
            "medium": "Looks two moves ahead, boosters included. Beat easy in 86 games of 100.",
            "hard": "Looks three moves ahead, up to four seconds a move. Beat medium in 71 games of 100.",
        },
        "random": {"": "Any allowed action at random: only for trying out the rules."},
    },
    # A file ending of its own: "sightline export" tells formats by their endings.
    formats=(ExportFormat("booster", "&Booster Chess moves as text", ".booster",
                          Lazy("app.games.booster.formats:booster_moves"), text=True, shows_truth=False),),
)
