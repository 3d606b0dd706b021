"""Cloak and Dagger: chess whose pieces (pawns apart) stand disguised as numbered checkers, each side arranging
its own in secret and working out the other's from what they do.

What the app needs to know about it, as plain data; the code is named lazily.

>>> DEFINITION.board, DEFINITION.hidden_information, [seat.flipped for seat in DEFINITION.seats]
((8, 8), True, [False, True])
>>> [name for name, _ in DEFINITION.bots]
['deduce', 'greedy', 'random']
>>> DEFINITION.checked_options({"deduction": "off"})
{'deduction': 'off'}
"""

from __future__ import annotations

from app.games.definition import ExportFormat, GameDefinition, Lazy, OptionSpec, SeatSpec

DEFINITION = GameDefinition(
    key="cloak",
    title="Cloak and Dagger",
    description="Chess with your pieces disguised as numbered checkers, arranged in secret: work out which "
                "of the opponent's is which, guess for bonus pawn moves, and take the king.",
    seats=(SeatSpec("White", team=0), SeatSpec("Black", team=1, flipped=True)),
    referee=Lazy("app.games.cloak.rules:CloakChess"),
    view=Lazy("app.games.cloak.view:CloakView"),
    presenter=Lazy("app.games.cloak.presenter:PRESENTER"),
    board=(8, 8),
    hidden_information=True,
    options=(OptionSpec("deduction", "Show what is still possible", choices=("on", "off"), default="on",
                        choice_labels=("yes", "no"),
                        help="shade each cell of the deduction grids by how likely it still is, from what both "
                             "players have seen (the same for both players)"),),
    match_defaults={"max_plies": 600},  # no 50-move rule: keep bot matches finite
    rules_doc="cloak-and-dagger.md",
    bots=(("deduce", Lazy("app.games.cloak.bots:CloakDeduceBot")),
          ("greedy", Lazy("app.games.cloak.bots:CloakGreedyBot")),
          ("random", Lazy("app.games.cloak.bots:CloakRandomBot"))),
    bot_words={
        "deduce": {
            "easy": "Works out your pieces from what it sees, but looks at few arrangements, guesses only when sure "
                    "and errs often.",
            "medium": "Deduces your pieces and weighs several likely arrangements. Scored 69.5% against easy over "
                      "100 games.",
            "hard": "Weighs more arrangements, checks your replies, keeps its king hidden and plays endings with a "
                    "plan. Scored 64.5% against medium over 100 games.",
        },
        "greedy": {"": "Takes whatever it can see to take, else moves at random; never guesses, never uncloaks."},
        "random": {"": "Any legal choice at random: only for trying out the rules."},
    },
    # A file ending of its own: "sightline export" tells formats by their endings, and ".txt" is taken.
    formats=(ExportFormat("cloak", "&Cloak and Dagger moves as text", ".cloak",
                          Lazy("app.games.cloak.formats:cloak_move_list"), text=True),),
)
