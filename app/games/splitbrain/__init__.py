"""Split-Brain Chess: Los Alamos chess (6x6) for two teams of two, where one partner secretly picks the piece and
the other the square, and the opponents settle a pair that is no move.

What the app needs to know about it, as plain data; the code is named lazily. Its move generator
(``losalamos``) also answers ``sightline perft --variant losalamos``.

>>> DEFINITION.board, DEFINITION.seat_names, DEFINITION.perft_name
((6, 6), ('W1', 'W2', 'B1', 'B2'), 'losalamos')
>>> [name for name, _ in DEFINITION.bots]
['engine', 'random']
"""

from __future__ import annotations

from app.games.definition import ExportFormat, GameDefinition, Lazy, SeatSpec

DEFINITION = GameDefinition(
    key="splitbrain",
    title="Split-Brain Chess",
    description="Los Alamos chess on 6x6 for two teams of two: one partner secretly picks the piece, the "
                "other the square, and the opponents decide what stands when the two do not make a move.",
    seats=(SeatSpec("W1", team=0), SeatSpec("W2", team=0),
           SeatSpec("B1", team=1, flipped=True), SeatSpec("B2", team=1, flipped=True)),
    referee=Lazy("app.games.splitbrain.rules:SplitBrainChess"),
    view=Lazy("app.games.splitbrain.rules:SplitBrainView"),
    presenter=Lazy("app.games.splitbrain.presenter:PRESENTER"),
    board=(6, 6),
    hidden_information=True,
    rules_doc="split-brain.md",
    bots=(("engine", Lazy("app.games.splitbrain.bots:SplitBrainEngineBot")),
          ("random", Lazy("app.games.splitbrain.bots:SplitBrainRandomBot"))),
    bot_words={
        "engine": {
            "easy": "Looks one move ahead for its team.",
            "medium": "Looks two moves ahead and picks halves its partner can finish. Beat easy in 99 games of 100.",
            "hard": "Looks three moves ahead. Scored 92.5% against medium over 100 games.",
        },
        "random": {"": "Any allowed choice at random: only for trying out the rules."},
    },
    formats=(ExportFormat("splitbrain", "&Split-Brain moves as text", ".splitbrain",
                          Lazy("app.games.splitbrain.formats:move_list_text"), text=True, shows_truth=False),),
    perft=Lazy("app.games.splitbrain.losalamos:perft_counts"),
    perft_name="losalamos",
)
