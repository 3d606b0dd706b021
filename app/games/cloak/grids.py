"""Cloak and Dagger's two grids beside the board, five rows (K, Q, R, B, N) by eight columns (checkers 1 to 8),
both private to the seat at the screen:

- *Their checkers*: the person's notes on the enemy arrangement (a circle or a cross per cell); with the game's
  ``deduction`` option on, each cell shaded by how likely it still is and a mark that contradicts what is known
  flagged. In guess mode the cells a click would not guess are greyed out.
- *Your checkers*: the seat's own arrangement (the draft while it arranges), and with the option on how much
  the opponent can work out about each checker from what it has seen.
"""

from __future__ import annotations

from app.games.cloak.checkers import CHECKERS
from app.games.cloak.marks import CIRCLE, CROSS, CloakMarks
from app.games.cloak.reading import PIECES, colour_of, deduce, deduction_shown
from app.games.cloak.view import CloakView
from app.games.scene import GridZone, Zone

SHOWN_MARKS = {CIRCLE: "\u25cb", CROSS: "\u00d7"}
"""How the marks are drawn (a circle and a multiplication cross)."""

GRID_PLACE = "below"
"""Where the grids stand: under the board, side by side in one band (the enemy's first, then the seat's own).
Measured in the window's board at 1100x760 and 800x600, the board's squares are 64 and 50 pixels so; one grid
right of the board and one below it gives 64 and 39, both right of it 48 and 29, both below one under the
other 50 and 39. The grids are there in every phase, the arrangement included, so the board never changes
size during a game."""

THEIRS, YOURS = "their-checkers", "your-checkers"
"""The scene's zone ids: the enemy grid, and the seat's own grid (where it arranges its pieces, then sees what
the opponent can tell about them)."""


def zones(marks: CloakMarks, view: CloakView) -> list[Zone]:
    """The two grids beside the board, only the seat's own (one holds its notes, the other its
    arrangement): while it arranges, its own grid is where it does so."""
    if view.seat is None:
        return []
    private = frozenset({view.seat})
    return [_their_grid(marks, view, private), _your_grid(marks, view, private)]


def _their_grid(marks: CloakMarks, view: CloakView, private: frozenset[int]) -> GridZone:
    enemy = 1 - colour_of(view.seat)
    cells = tuple(tuple(marks.grid.get(f"{checker}{piece}", "") for checker in CHECKERS) for piece in PIECES)
    guessing = marks.guessing(view)
    label = "Their checkers: click to guess" if guessing else "Their checkers: your notes"
    notes: tuple[tuple[str, ...], ...] = ()
    shades: tuple[tuple[float | None, ...], ...] = ()
    flags: tuple[tuple[str, ...], ...] = ()
    if deduction_shown(view):
        deduction = deduce(view, enemy)
        chances = [[deduction.probability(checker, piece) for checker in CHECKERS] for piece in PIECES]
        notes = tuple(tuple(_percent(chance) for chance in row) for row in chances)
        shades = tuple(tuple(chance for chance in row) for row in chances)
        flags = tuple(tuple(_contradiction(mark, chance) for mark, chance in zip(mark_row, row))
                      for mark_row, row in zip(cells, chances))
    if guessing:
        # Grey out every cell a click would not guess (a checker already known; a piece no arrangement
        # gives it), so the cells that stay bright are the choices. A known checker's "100%" goes too: the
        # board shows its piece, and a grey cell reading "100%" would say two things at once.
        open_cells = clickable_guesses(view)
        shades = tuple(tuple(_shade(shades, row, column) if (checker, piece) in open_cells else 0.0
                             for column, checker in enumerate(CHECKERS))
                       for row, piece in enumerate(PIECES))
        if notes:
            notes = tuple(tuple(notes[row][column] if (checker, piece) in open_cells else ""
                                for column, checker in enumerate(CHECKERS))
                          for row, piece in enumerate(PIECES))
    return GridZone(id=THEIRS, place=GRID_PLACE, label=label, rows=tuple(PIECES),
                    columns=tuple(str(n) for n in CHECKERS), marks=_shown(cells), notes=notes, shades=shades,
                    flags=flags, private_to=private, along_files=True)


def _your_grid(marks: CloakMarks, view: CloakView, private: frozenset[int]) -> GridZone:
    own = colour_of(view.seat)
    draft = marks.draft_for(view)
    arrangement = draft if draft is not None else (view.own_arrangement or "." * 8)
    cells = tuple(tuple(CIRCLE if arrangement[checker - 1] == piece else "" for checker in CHECKERS)
                  for piece in PIECES)
    notes: tuple[tuple[str, ...], ...] = ()
    shades: tuple[tuple[float | None, ...], ...] = ()
    label = "Your checkers"
    if draft is not None:
        label = "Your arrangement"  # (what a click does is the prompt's to say: a longer label was cut off)
    elif deduction_shown(view):
        deduction = deduce(view, own)
        chances = [[deduction.probability(checker, piece) for checker in CHECKERS] for piece in PIECES]
        notes = tuple(tuple(_percent(chance) for chance in row) for row in chances)
        shades = tuple(tuple(chance for chance in row) for row in chances)
        label = "Yours: what they can tell"
    return GridZone(id=YOURS, place=GRID_PLACE, beside=True, label=label, rows=tuple(PIECES),
                    columns=tuple(str(n) for n in CHECKERS), marks=_shown(cells), notes=notes, shades=shades,
                    private_to=private, along_files=True)


def _shade(shades: tuple[tuple[float | None, ...], ...], row: int, column: int) -> float | None:
    return shades[row][column] if shades else None


def clickable_guesses(view: CloakView) -> set[tuple[int, str]]:
    """The guesses a click in guess mode makes: every guess the rules allow but those the game's deduction
    (when shown) proves wrong, which only typing makes."""
    allowed = {(int(checker), str(piece).upper()) for checker, piece in view.guessable()}
    if not allowed or not deduction_shown(view):
        return allowed
    deduction = deduce(view, 1 - colour_of(view.seat))
    return {(checker, piece) for checker, piece in allowed if deduction.probability(checker, piece) > 0}


def _shown(marks: tuple[tuple[str, ...], ...]) -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(SHOWN_MARKS.get(mark, mark) for mark in row) for row in marks)


def _percent(chance: float) -> str:
    if chance <= 0:
        return ""
    if chance < 0.01:
        return "<1%"
    return f"{round(chance * 100)}%"


def _contradiction(mark: str, chance: float) -> str:
    """Why a person's mark contradicts what is known (empty when it does not)."""
    if mark == CIRCLE and chance <= 0:
        return "no arrangement that fits what you have seen puts that piece there"
    if mark == CROSS and chance >= 1:
        return "every arrangement that fits what you have seen puts that piece there"
    return ""
