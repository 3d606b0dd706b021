"""Reconnaissance Blind Chess: what the app needs to know about it, as plain data.

The referee, its view and its bots stay where they are; this package points at them lazily.

>>> DEFINITION.title, DEFINITION.seat_names, DEFINITION.hidden_information
('Reconnaissance Blind Chess', ('White', 'Black'), True)
>>> [name for name, _ in DEFINITION.bots]
['belief', 'random', 'attacker']
"""

from __future__ import annotations

from app.games.definition import ExportFormat, GameDefinition, ImportFormat, Lazy, OptionSpec, SeatSpec

DEFINITION = GameDefinition(
    key="rbc",
    title="Reconnaissance Blind Chess",
    description="Chess in which you see only your own pieces, plus one 3x3 window you choose to sense each turn.",
    seats=(SeatSpec("White", team=0), SeatSpec("Black", team=1, flipped=True)),
    referee=Lazy("app.games.rbc.rules:ReconChess"),
    view=Lazy("app.games.rbc.rules:ReconChessView"),
    presenter=Lazy("app.games.rbc.presenter:PRESENTER"),
    board=(8, 8),
    hidden_information=True,
    options=(OptionSpec("draw_rule", "Automatic draws", choices=("50-move", "none"), default="50-move",
                        choice_labels=("50-move rule (reconchess)", "No automatic draws"),
                        help="50-move: drawn after fifty turns of each side without a capture or a pawn move, "
                             "as in reconchess; none: no automatic draws"),
             OptionSpec("fen", "Starting position", hidden=True,
                        help="the position the game starts from, as a FEN (default: the usual start)")),
    rules_doc="rbc.md",
    bots=(("belief", Lazy("app.games.rbc.belief_bot:RBCBeliefBot")),
          ("random", Lazy("app.games.rbc.bots:RBCRandomBot")),
          ("attacker", Lazy("app.games.rbc.bots:RBCAttackerBot"))),
    bot_words={
        "belief": {
            "easy": "Tracks where your pieces may be, but looks at few positions and errs on purpose: a gentle first "
                    "opponent.",
            "medium": "Keeps every position you could be in and plays sound moves, quickly. Beat easy in 97 games "
                      "of 100.",
            "hard": "Weighs every position for danger to its king and, with the chess engine installed, chooses "
                    "its senses and moves by it: won more than half of its games against StrangeFish2, the 2022 "
                    "competition winner.",
        },
        "random": {"": "Senses and moves at random: only for trying out the rules."},
        "attacker": {"": "Rushes at your king with a few scripted attacks: it punishes a careless start, and is "
                         "easy to stop once you sense it coming."},
    },
    inference=Lazy("app.games.rbc.inference:RbcInference"),
    belief=Lazy("app.games.rbc.belief_kit:KIT"),
    formats=(ExportFormat("pgn", "Moves as &PGN", ".pgn", Lazy("app.games.rbc.formats:PGN"), text=True),
             ExportFormat("reconchess", "RBC game for &reconchess (GameHistory JSON)", ".json",
                          Lazy("app.games.rbc.formats:reconchess_history"))),
    imports=(ImportFormat("reconchess", "a reconchess GameHistory JSON file (what rc-replay shows)",
                          Lazy("app.games.rbc.reconchess_history:history_to_record")),),
    perft=Lazy("app.games.rbc.perft:perft"),
    foreign_players=Lazy("app.games.rbc.players:RECONCHESS_PLAYERS"),
    preload=("app.games.rbc.rules", "chess", "reconchess", "app.games.rbc.reconchess_history"),
)
