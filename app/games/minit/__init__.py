"""MinitChess: what the app needs to know about it, as plain data.

The referee, its view and its bots stay where they are; this package points at them lazily.

>>> DEFINITION.board, DEFINITION.hidden_information, DEFINITION.inference
((5, 6), False, None)
>>> [name for name, _ in DEFINITION.bots]
['search', 'random']
"""

from __future__ import annotations

from app.games.definition import ClipboardFormat, ExportFormat, GameDefinition, Lazy, OptionSpec, SeatSpec

DEFINITION = GameDefinition(
    key="minit",
    title="MinitChess",
    description="Open chess on a 5x6 board, won by capturing the king.",
    seats=(SeatSpec("White", team=0), SeatSpec("Black", team=1, flipped=True)),
    referee=Lazy("app.games.minit.rules:MinitChess"),
    view=Lazy("app.games.minit.rules:MinitChessView"),
    presenter=Lazy("app.games.minit.presenter:PRESENTER"),
    board=(5, 6),
    hidden_information=False,
    options=(OptionSpec("position", "Starting position", hidden=True,
                        help="the position the game starts from, as MinitChess position text "
                             "(default: the usual start)"),),
    rules_doc="minit.md",
    bots=(("search", Lazy("app.games.minit.bots:MinitSearchBot")),  # the strongest first (the new-game default)
          ("random", Lazy("app.games.minit.bots:MinitRandomBot"))),
    bot_words={
        "search": {
            "easy": "Looks two moves ahead and plays with some randomness: fine for learning the small board.",
            "medium": "Searches deeper and sees most tactics, about a second a move at most. Beat easy in 96 games of "
                      "100 (3 drawn).",
            "hard": "Searches as deep as four seconds a move allow. Beat medium in 73 games of 100, with 22 draws.",
        },
        "random": {"": "Plays random legal moves: only for trying out the rules."},
    },
    formats=(ExportFormat("minit", "&MinitChess moves as text", ".txt",
                          Lazy("app.games.minit.formats:minit_move_list"), text=True),),
    clipboard=ClipboardFormat("&Copy MinitChess position", "New MinitChess game from the &pasted position",
                              copy=Lazy("app.games.minit.formats:copy_position"),
                              paste=Lazy("app.games.minit.formats:options_from_position_text")),
    perft=Lazy("app.games.minit.perft:perft"),
)
