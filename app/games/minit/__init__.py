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
    referee=Lazy("app.engine.minit:MinitChess"),
    view=Lazy("app.engine.minit:MinitChessView"),
    presenter=Lazy("app.games.minit.presenter:PRESENTER"),
    board=(5, 6),
    hidden_information=False,
    options=(OptionSpec("position", "Starting position", hidden=True,
                        help="the position the game starts from, as MinitChess position text "
                             "(default: the usual start)"),),
    rules_doc="minit.md",
    bots=(("search", Lazy("app.bots.minit_bots:MinitSearchBot")),  # the strongest first (the new-game default)
          ("random", Lazy("app.bots.minit_bots:MinitRandomBot"))),
    formats=(ExportFormat("minit", "&MinitChess moves as text", ".txt",
                          Lazy("app.games.minit.formats:minit_move_list"), text=True),),
    clipboard=ClipboardFormat("&Copy MinitChess position", "New MinitChess game from the &pasted position",
                              copy=Lazy("app.games.minit.formats:copy_position"),
                              paste=Lazy("app.games.minit.formats:options_from_position_text")),
    perft=Lazy("app.games.minit.perft:perft"),
)


def _named_for_bundlers() -> None:  # pragma: no cover - never called
    """Installers find the modules to bundle by reading import statements; the references above are imported
    by name, so the modules they load are also imported here, where nothing runs them."""
    import app.games.minit.presenter  # noqa: F401
    import app.engine.minit  # noqa: F401
    import app.bots.minit_bots  # noqa: F401
    import app.games.minit.formats  # noqa: F401
    import app.games.minit.perft  # noqa: F401
