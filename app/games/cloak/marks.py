"""A seat's private marks in Cloak and Dagger: the arrangement being built, the notes on the enemy's checkers
(with their undo and redo), and the picks and modes of the moment (checkers to uncloak, a drop, a guess).

The marks are kept with the seat's notes in the record, never played and never shown to a bot; the presenter
reads them back (:meth:`CloakMarks.read`) and answers a person's input that changes only them with a
:class:`~app.games.presenter.MarksChange`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Mapping

from app.games.cloak.checkers import CHECKERS, all_arrangements
from app.games.cloak.checkers import arrangement_problem as rules_problem
from app.games.cloak.reading import PIECES, bonus_pawn_moves, colour_of, drops, guess_moment, my_turn
from app.games.cloak.sentences import ARTICLE, NAMES
from app.games.cloak.view import CloakView
from app.games.presenter import MarksChange

STANDARD = "RNBQKBNR"
CIRCLE, CROSS = "o", "x"
"""A person's marks in the enemy grid: this checker is that piece / cannot be that piece."""
HISTORY = 200
"""Grid changes kept for "Undo mark" (older ones are forgotten: the marks themselves stay)."""


def arrangement_problem(pieces: str) -> str | None:
    """Why ``pieces`` (8 letters, ``.`` for a checker not yet given a piece) is not a Chess960 arrangement, in
    words for the person; None when it is one.

    >>> arrangement_problem("RNBQKBNR") is None
    True
    >>> arrangement_problem("KRNBQBNR")
    'the king must stand between the rooks'
    >>> arrangement_problem("RNBQKNBR")
    'the bishops must stand on squares of different colours'
    >>> arrangement_problem("RNBQK.NR")
    'checker 6 has no piece yet (still to place: a bishop)'
    """
    if len(pieces) != 8 or any(letter not in PIECES + "." for letter in pieces):
        return "an arrangement is 8 letters from K, Q, R, B and N, one per checker (file a to h)"
    wanted = {"K": 1, "Q": 1, "R": 2, "B": 2, "N": 2}
    for piece, count in wanted.items():
        if pieces.count(piece) > count:
            many = {1: "one", 2: "two"}[count]
            return f"there is only {many} {NAMES[piece]}{'s' if count > 1 else ''} to place"
    if "." in pieces:
        missing = [ARTICLE[piece] for piece, count in wanted.items() for _ in range(count - pieces.count(piece))]
        return f"checker {pieces.index('.') + 1} has no piece yet (still to place: {', '.join(missing)})"
    return rules_problem(pieces)  # the set-up limits, said once


def random_arrangement(rng: random.Random | None = None) -> str:
    """One of the 960 arrangements, each as likely.

    >>> arrangement_problem(random_arrangement(random.Random(5))) is None
    True
    """
    return (rng or random.SystemRandom()).choice(all_arrangements())


@dataclass(frozen=True)
class CloakMarks:
    """One seat's private marks, read from (and written to) the JSON kept with its notes.

    ``draft`` is the arrangement being built (``.`` for a checker without a piece); ``grid`` the person's notes
    on the enemy checkers, ``"3N"`` -> ``"o"`` (checker 3 is the knight) or ``"x"`` (it is not); ``undo`` and
    ``redo`` the grid's changes as ``[cell, before, after]``; ``uncloak`` the checkers picked to uncloak, and
    ``dropping`` whether the person chose to drop a pawn, and guessing whether the person asked to guess (the
    next click in the enemy grid is then a guess, not a mark), each at the moment ``uncloak_at`` /
    ``dropping_at`` / ``guessing_at`` (how many moves the seat had seen then: :func:`moment`). Marks tied to a
    moment mean nothing at any other, so a game that has moved on ignores them: a move ends the guess mode. Anything malformed (a file edited by hand) is read as no
    mark.

    >>> marks = CloakMarks.read({"draft": "RN......", "grid": {"3N": "o", "9Z": "o", "4Q": "maybe"}})
    >>> marks.draft, marks.grid
    ('RN......', {'3N': 'o'})
    >>> CloakMarks.read(marks.to_json()) == marks
    True
    >>> CloakMarks.read([1, 2]) == CloakMarks()
    True
    """

    draft: str = "." * 8
    grid: dict[str, str] = field(default_factory=dict)
    undo: tuple[tuple[str, str, str], ...] = ()
    redo: tuple[tuple[str, str, str], ...] = ()
    uncloak: tuple[int, ...] = ()
    uncloak_at: int = -1
    dropping_at: int = -1
    guessing_at: int = -1

    @classmethod
    def read(cls, data: object) -> CloakMarks:
        if not isinstance(data, Mapping):
            return cls()
        draft = data.get("draft")
        if not (isinstance(draft, str) and len(draft) == 8 and all(c in PIECES + "." for c in draft)):
            draft = "." * 8
        grid_data = data.get("grid")
        grid = {cell: mark for cell, mark in grid_data.items() if _grid_cell(cell) and mark in (CIRCLE, CROSS)} \
            if isinstance(grid_data, Mapping) else {}

        def changes(value: object) -> tuple[tuple[str, str, str], ...]:
            if not isinstance(value, list):
                return ()
            return tuple((item[0], item[1], item[2]) for item in value[-HISTORY:]
                         if isinstance(item, list) and len(item) == 3 and _grid_cell(item[0])
                         and item[1] in ("", CIRCLE, CROSS) and item[2] in ("", CIRCLE, CROSS))

        uncloak = data.get("uncloak")
        picked = tuple(sorted({n for n in uncloak if type(n) is int and n in CHECKERS})) \
            if isinstance(uncloak, list) else ()
        return cls(draft, grid, changes(data.get("undo")), changes(data.get("redo")), picked,
                   _int(data.get("uncloak_at")), _int(data.get("dropping_at")), _int(data.get("guessing_at")))

    def to_json(self) -> dict[str, Any]:
        return {"draft": self.draft, "grid": dict(sorted(self.grid.items())),
                "undo": [list(change) for change in self.undo], "redo": [list(change) for change in self.redo],
                "uncloak": list(self.uncloak), "uncloak_at": self.uncloak_at, "dropping_at": self.dropping_at,
                "guessing_at": self.guessing_at}

    def change(self, **fields: Any) -> MarksChange:
        """These marks with ``fields`` replaced, as the input's answer."""
        values = {name: getattr(self, name) for name in self.__dataclass_fields__}
        values.update(fields)
        return MarksChange(CloakMarks(**values).to_json())

    def marked(self, cell: str, mark: str) -> MarksChange:
        """The grid with ``cell`` set to ``mark`` (``""`` clears it), undoable."""
        before = self.grid.get(cell, "")
        grid = dict(self.grid)
        if mark:
            grid[cell] = mark
        else:
            grid.pop(cell, None)
        return self.change(grid=grid, undo=(self.undo + ((cell, before, mark),))[-HISTORY:], redo=())

    # -- the marks as they bear on the seat's view now -------------------------------------------------------

    def draft_for(self, view: CloakView) -> str | None:
        """The arrangement being built, while the seat has not arranged yet."""
        if view.own_arrangement or view.seat is None:
            return None
        return self.draft

    def pending_uncloak(self, view: CloakView) -> tuple[int, ...]:
        """The checkers picked to uncloak this turn (still cloaked ones only)."""
        if view.phase != "uncloak" or self.uncloak_at != moment(view):
            return ()
        cloaked = set(view.cloaked.get(colour_of(view.seat), ()))
        return tuple(checker for checker in self.uncloak if checker in cloaked)

    def dropping(self, view: CloakView) -> bool:
        """Whether the person chose to drop a pawn (or has nothing else to do with the bonus)."""
        if not (my_turn(view) and view.phase == "bonus") or not drops(view):
            return False
        return self.dropping_at == moment(view) or not bonus_pawn_moves(view)

    def guessing(self, view: CloakView) -> bool:
        """Whether the person turned the guess mode on for this move phase (and may still guess)."""
        return self.guessing_at == moment(view) and guess_moment(view)


def _grid_cell(cell: object) -> bool:
    return isinstance(cell, str) and len(cell) == 2 and cell[0] in "12345678" and cell[1] in PIECES


def _int(value: object) -> int:
    return value if type(value) is int else -1


def moment(view: CloakView) -> int:
    """When, in the seat's game, a mark tied to one phase was made: the number of moves and drops it has seen.
    Two phases in which a seat uncloaks (or takes a bonus) always have a move between them, so a mark made in
    one is never read in the next."""
    return len(view.moves)
