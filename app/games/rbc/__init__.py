"""Reconnaissance Blind Chess: what the app needs to know about it, as plain data.

The referee, its view and its bots stay where they are; this package points at them lazily.

>>> DEFINITION.title, DEFINITION.seat_names, DEFINITION.hidden_information
('Reconnaissance Blind Chess', ('White', 'Black'), True)
>>> [name for name, _ in DEFINITION.bots]
['belief', 'random', 'attacker']
"""

from __future__ import annotations

from app.games.definition import ExportFormat, GameDefinition, Lazy, OptionSpec, SeatSpec

DEFINITION = GameDefinition(
    key="rbc",
    title="Reconnaissance Blind Chess",
    description="Chess in which you see only your own pieces, plus one 3x3 window you choose to sense each turn.",
    seats=(SeatSpec("White", team=0), SeatSpec("Black", team=1, flipped=True)),
    referee=Lazy("app.engine.rbc:ReconChess"),
    view=Lazy("app.engine.rbc:ReconChessView"),
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
    bots=(("belief", Lazy("app.bots.rbc_belief:RBCBeliefBot")),
          ("random", Lazy("app.bots.rbc_bots:RBCRandomBot")),
          ("attacker", Lazy("app.bots.rbc_bots:RBCAttackerBot"))),
    inference=Lazy("app.engine.inference:RbcInference"),
    belief=Lazy("app.games.rbc.belief_kit:KIT"),
    formats=(ExportFormat("pgn", "Moves as &PGN", ".pgn", Lazy("app.games.rbc.formats:PGN"), text=True),
             ExportFormat("reconchess", "RBC game for &reconchess (GameHistory JSON)", ".json",
                          Lazy("app.games.rbc.formats:reconchess_history"))),
    perft=Lazy("app.games.rbc.perft:perft"),
    foreign_players=Lazy("app.games.rbc.players:RECONCHESS_PLAYERS"),
    preload=("app.engine.rbc", "chess", "reconchess", "app.interop.reconchess_history"),
)


def _named_for_bundlers() -> None:  # pragma: no cover - never called
    """Installers find the modules to bundle by reading import statements; the references above are imported
    by name, so the modules they load are also imported here, where nothing runs them."""
    import app.games.rbc.presenter  # noqa: F401
    import app.engine.rbc  # noqa: F401
    import app.engine.inference  # noqa: F401
    import app.bots.rbc_belief  # noqa: F401
    import app.bots.rbc_bots  # noqa: F401
    import app.games.rbc.formats  # noqa: F401
    import app.games.rbc.belief_kit  # noqa: F401
    import app.games.rbc.perft  # noqa: F401
    import app.games.rbc.players  # noqa: F401
    import app.interop.reconchess_history  # noqa: F401
