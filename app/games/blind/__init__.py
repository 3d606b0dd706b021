"""Blind Chess: what the app needs to know about it, as plain data.

The referee, its view and its bots stay where they are; this package points at them lazily.

>>> DEFINITION.title, dict(DEFINITION.match_defaults)
('Blind Chess', {'max_plies': 1000})
>>> [name for name, _ in DEFINITION.bots]
['belief', 'random', 'greedy']
"""

from __future__ import annotations

from app.games.definition import ExportFormat, GameDefinition, Lazy, OptionSpec, SeatSpec

DEFINITION = GameDefinition(
    key="blind",
    title="Blind Chess",
    description="Chess in which you see only your own pieces and attempt moves the referee may refuse.",
    seats=(SeatSpec("White", team=0), SeatSpec("Black", team=1, flipped=True)),
    referee=Lazy("app.games.blind.rules:BlindChess"),
    view=Lazy("app.games.blind.rules:BlindChessView"),
    presenter=Lazy("app.games.blind.presenter:PRESENTER"),
    board=(8, 8),
    hidden_information=True,
    options=(OptionSpec("fen", "Starting position", hidden=True,
                        help="the position the game starts from, as a FEN (default: the usual start)"),),
    match_defaults={"max_plies": 1000},  # no automatic draw: keep bot matches finite
    rules_doc="blind.md",
    bots=(("belief", Lazy("app.games.blind.belief_bot:BlindBeliefBot")),
          ("random", Lazy("app.games.blind.bots:BlindRandomBot")),
          ("greedy", Lazy("app.games.blind.bots:BlindGreedyBot"))),
    bot_words={
        "belief": {
            "easy": "Guesses where your pieces are from what the referee says, but errs on purpose: a gentle first "
                    "opponent.",
            "medium": "Keeps track of every position you could be in and tries its moves with care. Beat easy in 84 "
                      "games of 100, and a Stockfish-guided guesser in 11 of 20.",
            "hard": "Thinks longer than medium and keeps track of thirteen times as many of your possible "
                    "positions; sees king captures you cannot escape, guards its king and plays quiet endings "
                    "forward. Beat medium 67.5% over 100 games.",
        },
        "random": {"": "Tries random moves: only for trying out the rules."},
        "greedy": {"": "Tries random moves, but takes any piece of yours it has found: a step up from random."},
    },
    inference=Lazy("app.games.blind.inference:BlindInference"),
    belief=Lazy("app.games.blind.belief_kit:KIT"),
    formats=(ExportFormat("pgn", "Moves as &PGN", ".pgn", Lazy("app.games.blind.formats:PGN"), text=True),),
)
