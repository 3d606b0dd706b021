"""Cooperative Chess 2 as a solitaire: one seat plays both colours and holds no hand; at the start of each turn
the top card of the pile is turned onto the line. The referee is Cooperative Chess 2's own
(:class:`app.games.coop.rules.CoopChess`, its ``solitaire`` flag set); the new-game dialog offers it as an option
of that game (``variant_of``) rather than as a game of its own.

>>> DEFINITION.seat_names, DEFINITION.variant_of, DEFINITION.variant_label
(('Player',), 'coop', 'Solitaire')
"""

from __future__ import annotations

from app.games.definition import ExportFormat, GameDefinition, Lazy, SeatSpec

DEFINITION = GameDefinition(
    key="coop_solitaire",
    title="Cooperative Chess 2 Solitaire",
    description="Cooperative Chess 2 alone: you play both colours with no hand; each turn the top card of the pile "
                "is turned onto the line, and captures need the capturing piece's card right beside the captured "
                "piece's card. Capture a king with 32 points or more to win.",
    seats=(SeatSpec("Player", team=0),),
    referee=Lazy("app.games.coop.solitaire.rules:CoopSolitaire"),
    view=Lazy("app.games.coop.rules:CoopView"),
    presenter=Lazy("app.games.coop.solitaire.presenter:PRESENTER"),
    board=(8, 8),
    hidden_information=True,  # the pile's order is known to nobody
    rules_doc="coop.md",
    formats=(ExportFormat("coop-text", "The game as &text", ".txt", Lazy("app.games.coop.formats:coop_text"),
                          text=True, shows_truth=False),),
    bots=(("partner", Lazy("app.games.coop.solitaire.rules:CoopSolitairePartnerBot")),
          ("random", Lazy("app.games.coop.solitaire.rules:CoopSolitaireRandomBot"))),
    bot_words={
        "partner": {"": "Plays the solitaire as the partner bot plays with a partner: it wins about one deal in "
                        "four."},
        "random": {"": "Plays random cards and moves: only for trying out the rules."},
    },
    variant_of="coop",
    variant_label="Solitaire",
)
