"""Telepathy Chess: chess for two teams of two, where one partner predicts, face down, the kind of piece the other
will move, and a coin moves with each prediction until a team must give up a piece.

What the app needs to know about it, as plain data; the code is named lazily.

>>> DEFINITION.seat_names, DEFINITION.hidden_information
(('W1', 'W2', 'B1', 'B2'), True)
>>> [name for name, _ in DEFINITION.bots]
['engine', 'random']
"""

from __future__ import annotations

from app.games.definition import ExportFormat, GameDefinition, Lazy, OptionSpec, SeatSpec

DEFINITION = GameDefinition(
    key="telepathy",
    title="Telepathy Chess",
    description="Chess for two teams of two: the predictor plays a card face down for the piece the partner will "
                "move; good predictions push a coin toward the opponents, and a coin pushed past a side costs "
                "that team a piece. Take the king to win.",
    seats=(SeatSpec("W1", team=0), SeatSpec("W2", team=0),
           SeatSpec("B1", team=1, flipped=True), SeatSpec("B2", team=1, flipped=True)),
    referee=Lazy("app.games.telepathy.rules:TelepathyChess"),
    view=Lazy("app.games.telepathy.rules:TelepathyView"),
    presenter=Lazy("app.games.telepathy.presenter:PRESENTER"),
    board=(8, 8),
    hidden_information=True,
    options=(OptionSpec("white_first_predictor", "White's first predictor", choices=("W1", "W2"), default="W1",
                        help="who of the white team predicts on its first move (the other moves)"),
             OptionSpec("black_first_predictor", "Black's first predictor", choices=("B1", "B2"), default="B1",
                        help="who of the black team predicts on its first move (the other moves)"),
             OptionSpec("fen", "Starting position", hidden=True,
                        help="the position the game starts from, as a FEN (default: the usual start)")),
    match_defaults={"max_plies": 400},  # moves of both teams: keeps a bot match short even without captures
    rules_doc="telepathy.md",
    bots=(("engine", Lazy("app.games.telepathy.bots:TelepathyEngineBot")),
          ("random", Lazy("app.games.telepathy.bots:TelepathyRandomBot"))),
    bot_words={
        "engine": {
            "easy": "Looks one move ahead for its team.",
            "medium": "Looks two moves ahead and predicts its partner well. Beat easy in 99 games of 100.",
            "hard": "Looks three moves ahead. Scored 90.5% against medium over 100 games.",
        },
        "random": {"": "Any allowed choice at random: only for trying out the rules."},
    },
    formats=(ExportFormat("telepathy-pgn", "Moves as PGN with the &predictions", ".pgn",
                          Lazy("app.games.telepathy.formats:telepathy_pgn"), text=True, shows_truth=False),),
)
