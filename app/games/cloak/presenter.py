"""Cloak and Dagger as a person meets it: the board with numbered checkers, the secret arrangement, the
deduction grids beside the board, and every phase of a turn as clicks, buttons and typing.

What a seat sees comes from its view alone. Pawns and uncloaked pieces are drawn as pieces; a cloaked checker
is a numbered disc in its side's colour (a checker token of :mod:`app.games.scene`), with the piece it stands
for drawn faint inside only where the seat knows it: always for its own checkers, for an enemy checker only
once its identity was told to both (a capture, a castling, a right guess).

Beside the board stand two grids of five rows (K, Q, R, B, N) and eight columns (checkers 1 to 8):

- *Their checkers*: the person's own notes on the enemy arrangement, a circle or a cross per cell (a click
  cycles blank, circle, cross), with "Undo mark" and "Redo mark". With the game's ``deduction`` option on,
  each cell is tinted by how likely it still is (greyed out when no arrangement fits any more) and a mark
  that contradicts what is known is flagged. A click there is always a mark, never a guess: a guess is
  made on purpose, with "Guess..." first (see the move phase below).
- *Your checkers*: the seat's own arrangement, and (with the option on) how much the opponent can work out
  about each checker from what it has seen.

The notes, the arrangement being built before it is confirmed, the checkers picked to uncloak, the drop mode
and the guess mode are the seat's private marks (:class:`~app.games.presenter.MarksChange`): kept with the seat's notes in the
record, never played and never shown to a bot. Every phase's input:

- arrange: clicks on the seat's own grid (a piece's row, a checker's column), "Random arrangement" and
  "Standard (RNBQKBNR)" (both fill the draft, which the person can still change), "Confirm arrangement";
  typing eight letters (``RNBQKBNR``) arranges at once;
- move: dragging or clicking pieces and checkers (castling: the king two squares over, or onto its rook); a
  guess, before moving, by "Guess..." and then a click on a cell of the enemy grid (the cells that cannot be
  guessed are greyed out meanwhile; "Cancel guess" or a move ends the mode), or typed (``guess 3 N``,
  ``3=N``);
- bonus: a pawn move, or a drop ("Drop a pawn", then a click on a marked square of the second rank; with no
  pawn move to make, the click alone; or type ``P@c2``), or "Skip bonus";
- uncloak: clicks on the seat's own cloaked checkers pick them, then "Uncloak N and end turn" or "End turn".

>>> from app.games.cloak.rules import CloakChess
>>> from app.games.cloak.view import CloakView
>>> game = CloakChess()
>>> view = CloakView.from_observations(game.observations(0))
>>> [command.label for command in PRESENTER.commands(view)][:3]
['Random arrangement', 'Standard (RNBQKBNR)', 'Confirm arrangement']
>>> PRESENTER.parse_text(view, "rnbqkbnr")
Arrange(pieces='RNBQKBNR')
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Mapping

import chess

from app.games.chess_kit import outcome_sentence, sq8, square_name
from app.games.move_input import parse_move_text
from app.games.presenter import Command, InputError, MarksChange, PresenterBase
from app.games.scene import BoardScene, Cell, GridZone, MarkerSpec, Zone, checker_token, read_checker

if TYPE_CHECKING:
    from app.engine.core import Action, Seat

__all__ = ["PRESENTER", "CloakMarks", "CloakPresenter", "arrangement_problem", "describe_cloak"]

PIECES = "KQRBN"
"""The grid's rows, in order: the pieces a checker may stand for."""
CHECKERS = tuple(range(1, 9))
"""The grid's columns: checker ``n`` starts on the ``n``-th file."""
SIDES = ("White", "Black")
NAMES = {"K": "king", "Q": "queen", "R": "rook", "B": "bishop", "N": "knight", "P": "pawn"}
ARTICLE = {"K": "a king", "Q": "a queen", "R": "a rook", "B": "a bishop", "N": "a knight", "P": "a pawn"}
STANDARD = "RNBQKBNR"
CIRCLE, CROSS = "o", "x"
"""A person's marks in the enemy grid: this checker is that piece / cannot be that piece."""
SHOWN_MARKS = {CIRCLE: "\u25cb", CROSS: "\u00d7"}
"""How the marks are drawn (a circle and a multiplication cross)."""
HISTORY = 200
"""Grid changes kept for "Undo mark" (older ones are forgotten: the marks themselves stay)."""

GRID_PLACE = "below"
"""Where the grids stand: under the board, side by side in one band (the enemy's first, then the seat's own).
Measured in the window's board at 1100x760 and 800x600, the board's squares are 64 and 50 pixels so; one grid
right of the board and one below it gives 64 and 39, both right of it 48 and 29, both below one under the
other 50 and 39. The grids are there in every phase, the arrangement included, so the board never changes
size during a game."""

RANDOM_COMMAND, STANDARD_COMMAND, CONFIRM_COMMAND = "arrange-random", "arrange-standard", "arrange-confirm"
SKIP_COMMAND, DROP_COMMAND, END_COMMAND, UNCLOAK_COMMAND = "skip-bonus", "drop-pawn", "end-turn", "uncloak-end"
OFFER_DRAW, ACCEPT_DRAW, DECLINE_DRAW = "offer_draw", "accept_draw", "decline_draw"
"""The draw offer's commands (``offer_draw`` is also the window's menu item)."""
UNDO_COMMAND, REDO_COMMAND = "undo-mark", "redo-mark"
GUESS_COMMAND = "guess"
"""Turns the guess mode on ("Guess...") or off ("Cancel guess"): one button, so it stays where it is."""
THEIRS, YOURS = "their-checkers", "your-checkers"
"""The scene's zone ids: the enemy grid, and the seat's own grid (where it arranges its pieces, then sees what
the opponent can tell about them)."""


# ---- an arrangement ----------------------------------------------------------------------------------------------

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
    from app.games.cloak.checkers import arrangement_problem as rules_problem  # the set-up limits, said once
    return rules_problem(pieces)


def random_arrangement(rng: random.Random | None = None) -> str:
    """One of the 960 arrangements, each as likely.

    >>> arrangement_problem(random_arrangement(random.Random(5))) is None
    True
    """
    from app.games.cloak.checkers import all_arrangements
    return (rng or random.SystemRandom()).choice(all_arrangements())


# ---- the seat's private marks ----------------------------------------------------------------------------------

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
    def read(cls, data: Any) -> CloakMarks:
        if not isinstance(data, Mapping):
            return cls()
        draft = data.get("draft")
        if not (isinstance(draft, str) and len(draft) == 8 and all(c in PIECES + "." for c in draft)):
            draft = "." * 8
        grid_data = data.get("grid")
        grid = {cell: mark for cell, mark in grid_data.items() if _grid_cell(cell) and mark in (CIRCLE, CROSS)} \
            if isinstance(grid_data, Mapping) else {}

        def changes(value: Any) -> tuple[tuple[str, str, str], ...]:
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


def _grid_cell(cell: Any) -> bool:
    return isinstance(cell, str) and len(cell) == 2 and cell[0] in "12345678" and cell[1] in PIECES


def _int(value: Any) -> int:
    return value if type(value) is int else -1


def moment(view: Any) -> int:
    """When, in the seat's game, a mark tied to one phase was made: the number of moves and drops it has seen.
    Two phases in which a seat uncloaks (or takes a bonus) always have a move between them, so a mark made in
    one is never read in the next."""
    return len(view.moves)


# ---- reading the view --------------------------------------------------------------------------------------------

def _uci(move: Any) -> str:
    """A move of the view's lists as UCI text (they may hold text or python-chess moves)."""
    return move if isinstance(move, str) else move.uci()


def _colour_of(seat: Any) -> int:
    return 0 if seat in (None, 0) else 1


def _identity(view: Any, colour: int, checker: int) -> str | None:
    """What the seat knows checker ``checker`` of ``colour`` stands for: its own from its arrangement, an enemy's
    only once it was told; None otherwise."""
    if colour == _colour_of(view.seat) and view.own_arrangement:
        return str(view.own_arrangement[checker - 1])
    told = (view.told or {}).get(colour, {})
    piece = told.get(checker)
    return str(piece).upper() if piece else None


def _piece_code(token: Any, shown: str | None) -> str:
    """The scene's code of a view's token: a piece letter, or a checker token showing ``shown``."""
    white = token.colour == 0
    if token.kind != "?":
        kind = str(token.kind)
        return kind.upper() if white else kind.lower()
    return checker_token(white, int(token.checker), shown)


def _tokens(view: Any) -> dict[int, Any]:
    """What stands where as the seat sees it; before both sides have arranged (when the view's board is still
    empty), the set-up every game starts from, which both sides know: pawns on their second ranks, checker
    ``n`` of each side on the ``n``-th file of its back rank, all cloaked."""
    board: dict[int, Any] = view.board
    if board or view.phase != "arrange":
        return board
    from app.games.cloak.observations import Token
    start: dict[int, Any] = {}
    for colour, back, pawns in ((0, 0, 1), (1, 7, 6)):
        for file in range(8):
            start[chess.square(file, back)] = Token(colour, "?", file + 1)
            start[chess.square(file, pawns)] = Token(colour, "P", None)
    return start


def _my_turn(view: Any) -> bool:
    return view.seat is not None and view.outcome is None and view.to_move == view.seat


def _guess_moment(view: Any) -> bool:
    """Whether the seat may guess now: its own move phase, before it guessed or moved."""
    return _my_turn(view) and view.phase == "move" and bool(view.guessable())


def _drops(view: Any) -> list[str]:
    """The squares (names) a waiting pawn may be dropped on now."""
    return [bonus[2:] for bonus in map(_uci, view.legal_bonus()) if bonus.upper().startswith("P@")]


def _bonus_moves(view: Any) -> list[chess.Move]:
    return [chess.Move.from_uci(bonus) for bonus in map(_uci, view.legal_bonus())
            if not bonus.upper().startswith("P@")]


def _own_checker_at(view: Any, square: int) -> int | None:
    token = _tokens(view).get(square)
    if token is None or token.kind != "?" or token.colour != _colour_of(view.seat):
        return None
    return int(token.checker)


# ---- the presenter -----------------------------------------------------------------------------------------------

class CloakPresenter(PresenterBase):
    """Cloak and Dagger for one seat, reading that seat's private marks (:meth:`bound`)."""

    key = "cloak"
    entry_text = "Type a move (e2e4, Nf3, O-O), a guess (3=N), or your arrangement (RNBQKBNR)"

    def __init__(self, marks: CloakMarks | None = None) -> None:
        self.marks = marks or CloakMarks()

    def bound(self, marks: dict[str, Any] | None) -> CloakPresenter:
        return CloakPresenter(CloakMarks.read(marks))

    # -- what the board shows --------------------------------------------------------------------------------

    def _draft(self, view: Any) -> str | None:
        """The arrangement being built, while the seat has not arranged yet."""
        if view.own_arrangement or view.seat is None:
            return None
        return self.marks.draft

    def _pieces(self, view: Any) -> dict[Cell, str]:
        draft = self._draft(view)
        pieces: dict[Cell, str] = {}
        for square, token in _tokens(view).items():
            shown = None
            if token.kind == "?":
                shown = _identity(view, token.colour, int(token.checker))
                if shown is None and draft is not None and token.colour == _colour_of(view.seat):
                    letter = draft[int(token.checker) - 1]
                    shown = letter if letter in PIECES else None
            pieces[sq8(square)] = _piece_code(token, shown)
        return pieces

    def _pending_uncloak(self, view: Any) -> tuple[int, ...]:
        """The checkers picked to uncloak this turn (still cloaked ones only)."""
        if view.phase != "uncloak" or self.marks.uncloak_at != moment(view):
            return ()
        cloaked = set(view.cloaked.get(_colour_of(view.seat), ()))
        return tuple(checker for checker in self.marks.uncloak if checker in cloaked)

    def _dropping(self, view: Any) -> bool:
        """Whether the person chose to drop a pawn (or has nothing else to do with the bonus)."""
        if not (_my_turn(view) and view.phase == "bonus") or not _drops(view):
            return False
        return self.marks.dropping_at == moment(view) or not _bonus_moves(view)

    def _guessing(self, view: Any) -> bool:
        """Whether the person turned the guess mode on for this move phase (and may still guess)."""
        return self.marks.guessing_at == moment(view) and _guess_moment(view)

    def scene(self, view: Any) -> BoardScene:
        scene = BoardScene(pieces=self._pieces(view))
        if view.moves:
            scene.last_move = _last_move(view.moves[-1].moved)
        mine = _my_turn(view)
        if mine and view.phase == "arrange" and self._draft(view) is not None:
            # A checker of the own back rank dragged onto another swaps the pieces the draft gives them.
            colour = _colour_of(view.seat)
            back_rank = [sq8(square) for square, token in _tokens(view).items()
                         if token.kind == "?" and token.colour == colour]
            scene.targets = {cell: {other: [] for other in back_rank if other != cell} for cell in back_rank}
        elif mine and view.phase == "move":
            scene.targets = self._move_targets(view)
        elif mine and view.phase == "bonus":
            drop_squares = tuple(sq8(chess.parse_square(name)) for name in _drops(view))
            if self._dropping(view):
                allowed = set(drop_squares)
                scene.sense_window = lambda cell: [cell] if cell in allowed else []
                scene.markers.append(MarkerSpec("sense", drop_squares, "drop"))
            else:
                scene.targets = _targets(_bonus_moves(view))
                if drop_squares:
                    scene.markers.append(MarkerSpec("sense_old", drop_squares, "drop", 0.8))
        elif mine and view.phase == "uncloak":
            colour = _colour_of(view.seat)
            own = {sq8(square) for square, token in view.board.items()
                   if token.kind == "?" and token.colour == colour}
            scene.sense_window = lambda cell: [cell] if cell in own else []
            picked = set(self._pending_uncloak(view))
            squares = tuple(sq8(square) for square, token in view.board.items()
                            if token.kind == "?" and token.colour == colour and token.checker in picked)
            if squares:
                scene.markers.append(MarkerSpec("reveal", squares, "uncloak"))
        scene.zones = self.zones(view)
        return scene

    def premove_scene(self, view: Any) -> BoardScene | None:
        """While the opponent acts (its move, guess, bonus or uncloaking): the seat's board with the regular moves
        it would have if its turn began now, to queue one."""
        if view.seat is None or view.outcome is not None or _my_turn(view) or not view.own_arrangement \
                or view.phase == "arrange":
            return None
        from app.games.cloak.moves import legal_moves_on
        scene = self.scene(view)
        moves = [move.uci() for move in legal_moves_on(view.position, view.seat, view.knowledge(view.seat))]
        scene.targets = self._move_targets(view, moves)
        return scene

    def _move_targets(self, view: Any, legal: list[str] | None = None) -> dict[Cell, dict[Cell, list[str]]]:
        """The moves of the view's list (or ``legal``), with each castling also offered as the king's two-square
        step (where that square is not already a move of the king's own)."""
        moves = [chess.Move.from_uci(_uci(move)) for move in (view.legal_moves() if legal is None else legal)]
        targets = _targets(moves)
        for move in moves:
            alias = self._castling_alias(view, move, moves)
            if alias is not None:
                targets[sq8(move.from_square)].setdefault(sq8(alias), [])
        return targets

    def _castling_alias(self, view: Any, move: chess.Move, moves: list[chess.Move]) -> int | None:
        """For a castling (the king onto its own rook, as the view lists it among ``moves``), the square the king
        ends on, if dragging the king there means nothing else; else None."""
        colour = _colour_of(view.seat)
        king, rook = view.board.get(move.from_square), view.board.get(move.to_square)
        if king is None or rook is None or king.colour != colour or rook.colour != colour:
            return None
        rank = chess.square_rank(move.from_square)
        end = chess.square(6 if move.to_square > move.from_square else 2, rank)
        if end == move.from_square:
            return None
        return None if chess.Move(move.from_square, end) in moves else end

    # -- the zones -------------------------------------------------------------------------------------------------

    def zones(self, view: Any) -> list[Zone]:
        """The two grids beside the board, only the seat's own (one holds its notes, the other its
        arrangement): while it arranges, its own grid is where it does so."""
        if view.seat is None:
            return []
        private = frozenset({view.seat})
        return [self._their_grid(view, private), self._your_grid(view, private)]

    def _their_grid(self, view: Any, private: frozenset[int]) -> GridZone:
        enemy = 1 - _colour_of(view.seat)
        marks = tuple(tuple(self.marks.grid.get(f"{checker}{piece}", "") for checker in CHECKERS)
                      for piece in PIECES)
        guessing = self._guessing(view)
        label = "Their checkers: click to guess" if guessing else "Their checkers: your notes"
        notes: tuple[tuple[str, ...], ...] = ()
        shades: tuple[tuple[float | None, ...], ...] = ()
        flags: tuple[tuple[str, ...], ...] = ()
        if _deduction_shown(view):
            deduction = _deduce(view, enemy)
            chances = [[deduction.probability(checker, piece) for checker in CHECKERS] for piece in PIECES]
            notes = tuple(tuple(_percent(chance) for chance in row) for row in chances)
            shades = tuple(tuple(chance for chance in row) for row in chances)
            flags = tuple(tuple(_contradiction(mark, chance) for mark, chance in zip(mark_row, row))
                          for mark_row, row in zip(marks, chances))
        if guessing:
            # Grey out every cell a click would not guess (a checker already known; a piece no arrangement
            # gives it), so the cells that stay bright are the choices. A known checker's "100%" goes too: the
            # board shows its piece, and a grey cell reading "100%" would say two things at once.
            open_cells = self._clickable_guesses(view)
            shades = tuple(tuple(self._shade(shades, row, column) if (checker, piece) in open_cells else 0.0
                                 for column, checker in enumerate(CHECKERS))
                           for row, piece in enumerate(PIECES))
            if notes:
                notes = tuple(tuple(notes[row][column] if (checker, piece) in open_cells else ""
                                    for column, checker in enumerate(CHECKERS))
                              for row, piece in enumerate(PIECES))
        return GridZone(id=THEIRS, place=GRID_PLACE, label=label, rows=tuple(PIECES),
                        columns=tuple(str(n) for n in CHECKERS), marks=_shown(marks), notes=notes, shades=shades,
                        flags=flags, private_to=private, along_files=True)

    def _your_grid(self, view: Any, private: frozenset[int]) -> GridZone:
        own = _colour_of(view.seat)
        draft = self._draft(view)
        arrangement = draft if draft is not None else (view.own_arrangement or "." * 8)
        marks = tuple(tuple(CIRCLE if arrangement[checker - 1] == piece else "" for checker in CHECKERS)
                      for piece in PIECES)
        notes: tuple[tuple[str, ...], ...] = ()
        shades: tuple[tuple[float | None, ...], ...] = ()
        label = "Your checkers"
        if draft is not None:
            label = "Your arrangement"  # (what a click does is the prompt's to say: a longer label was cut off)
        elif _deduction_shown(view):
            deduction = _deduce(view, own)
            chances = [[deduction.probability(checker, piece) for checker in CHECKERS] for piece in PIECES]
            notes = tuple(tuple(_percent(chance) for chance in row) for row in chances)
            shades = tuple(tuple(chance for chance in row) for row in chances)
            label = "Yours: what they can tell"
        return GridZone(id=YOURS, place=GRID_PLACE, beside=True, label=label, rows=tuple(PIECES),
                        columns=tuple(str(n) for n in CHECKERS), marks=_shown(marks), notes=notes, shades=shades,
                        private_to=private, along_files=True)

    @staticmethod
    def _shade(shades: tuple[tuple[float | None, ...], ...], row: int, column: int) -> float | None:
        return shades[row][column] if shades else None

    def _clickable_guesses(self, view: Any) -> set[tuple[int, str]]:
        """The guesses a click in guess mode makes: every guess the rules allow but those the game's deduction
        (when shown) proves wrong, which only typing makes."""
        allowed = {(int(checker), str(piece).upper()) for checker, piece in view.guessable()}
        if not allowed or not _deduction_shown(view):
            return allowed
        deduction = _deduce(view, 1 - _colour_of(view.seat))
        return {(checker, piece) for checker, piece in allowed if deduction.probability(checker, piece) > 0}

    # -- input -------------------------------------------------------------------------------------------------

    # The base class's hooks say they return an action; the protocol lets a bound presenter answer MarksChange.
    def on_zone(self, view: Any, zone_id: str, index: int) -> Action | MarksChange:
        if view.seat is None:
            raise InputError("nobody is at the board")
        if zone_id in (THEIRS, YOURS):
            if not 0 <= index < len(PIECES) * len(CHECKERS):
                raise InputError("there is no such cell")
            row, column = divmod(index, len(CHECKERS))
            piece, checker = PIECES[row], CHECKERS[column]
            if zone_id == YOURS:
                if self._draft(view) is not None:
                    return self._arrange_cell(view, checker, piece)
                raise InputError("that grid shows your own checkers and what your opponent can tell about them")
            if self._guessing(view):
                return self._clicked_guess(view, checker, piece)
            cell = f"{checker}{piece}"
            following = {"": CIRCLE, CIRCLE: CROSS, CROSS: ""}[self.marks.grid.get(cell, "")]
            return self.marks.marked(cell, following)
        raise InputError("nothing there can be chosen now")

    def _arrange_cell(self, view: Any, checker: int, piece: str) -> MarksChange:
        if self._draft(view) is None:
            raise InputError("your arrangement is made and cannot change")
        draft = list(self.marks.draft)
        if draft[checker - 1] == piece:
            draft[checker - 1] = "."  # a second click on a placed piece takes it away
        else:
            if piece in "KQ" and piece in draft:
                draft[draft.index(piece)] = "."  # the one king (queen) moves to the checker clicked
            elif draft.count(piece) >= 2:
                raise InputError(f"both {NAMES[piece]}s are placed: click one of them to take it away first")
            draft[checker - 1] = piece
        return self.marks.change(draft="".join(draft))

    def _clicked_guess(self, view: Any, checker: int, piece: str) -> Action:
        """A click in guess mode: the guess, unless the rules refuse it or it is surely wrong."""
        action = self._guess(view, checker, piece)
        if (checker, piece) not in self._clickable_guesses(view):
            raise InputError(f"no arrangement that fits what you have seen makes checker {checker} {ARTICLE[piece]}: "
                             f"that guess would be wrong (type {checker}={piece} to make it anyway)")
        return action

    def _guess(self, view: Any, checker: int, piece: str) -> Action:
        from app.games.cloak.actions import Guess
        if (checker, piece) not in {(int(c), str(p).upper()) for c, p in view.guessable()}:
            enemy = 1 - _colour_of(view.seat)
            if checker not in view.cloaked.get(enemy, ()):
                raise InputError(f"checker {checker} is not a cloaked checker of your opponent's")
            raise InputError(f"you already know what checker {checker} is: guess another")
        return Guess(checker, piece)

    def on_square(self, view: Any, square: Cell) -> Action | MarksChange:
        if not _my_turn(view):
            raise InputError("it is not your turn")
        target = chess.square(square[0], square[1])
        if view.phase == "uncloak":
            checker = _own_checker_at(view, target)
            if checker is None:
                raise InputError("click one of your cloaked checkers to uncloak it")
            picked = set(self._pending_uncloak(view)) ^ {checker}
            return self.marks.change(uncloak=tuple(sorted(picked)), uncloak_at=moment(view))
        if view.phase == "bonus" and self._dropping(view):
            if chess.square_name(target) not in _drops(view):
                raise InputError("a pawn can be dropped only on an empty square of your second rank")
            from app.games.cloak.actions import Bonus
            return Bonus(f"P@{chess.square_name(target)}")
        raise InputError("choose a move, not a square")

    def on_move(self, view: Any, from_square: Cell, to_square: Cell, promotion: str | None) -> Action | MarksChange:
        origin, target = chess.square(*from_square), chess.square(*to_square)
        draft = self._draft(view)
        if view.phase == "arrange" and draft is not None:
            first, second = _own_checker_at(view, origin), _own_checker_at(view, target)
            if first is None or second is None:
                raise InputError("drag one of your checkers onto another of yours to swap their pieces")
            letters = list(draft)
            letters[first - 1], letters[second - 1] = letters[second - 1], letters[first - 1]
            return self.marks.change(draft="".join(letters))
        if not _my_turn(view):
            raise InputError("it is not your turn")
        suffix = promotion.lower() if promotion else ""
        if view.phase == "move":
            from app.games.cloak.actions import Move
            wanted = chess.Move(origin, target).uci() + suffix
            moves = [chess.Move.from_uci(_uci(move)) for move in view.legal_moves()]
            if wanted in [move.uci() for move in moves]:
                return Move(wanted)
            for move in moves:  # the king dragged to its castling square
                if move.from_square == origin and self._castling_alias(view, move, moves) == target:
                    return Move(move.uci())
            raise InputError(f"{chess.square_name(origin)} cannot go to {chess.square_name(target)}")
        if view.phase == "bonus":
            from app.games.cloak.actions import Bonus
            wanted = chess.Move(origin, target).uci() + suffix
            if wanted not in [move.uci() for move in _bonus_moves(view)]:
                raise InputError("a bonus move is a pawn's move or a drop")
            return Bonus(wanted)
        raise InputError(_PHASE_HINTS.get(view.phase, "no move can be made now"))

    def parse_text(self, view: Any, text: str) -> Action:
        from app.games.cloak import actions as rules
        words = text.strip()
        if not words:
            raise InputError("type a move, for example e2e4 or Nf3")
        if view.seat is not None and view.phase == "arrange" and not view.own_arrangement:
            letters = words.replace(" ", "").upper()
            problem = arrangement_problem(letters)
            if problem is not None:
                raise InputError(f"{problem} (type 8 letters such as RNBQKBNR)")
            return rules.Arrange(letters)
        if not _my_turn(view):
            raise InputError("it is not your turn")
        lower = words.lower()
        if view.phase == "answer_draw":
            if lower in ("accept", "yes", "accept draw"):
                return rules.AnswerDraw(True)
            if lower in ("decline", "no", "decline draw"):
                return rules.AnswerDraw(False)
            raise InputError("a draw was offered: type accept or decline")
        if view.phase == "move" and lower in ("draw", "offer draw"):
            result = self.command(view, OFFER_DRAW)
            assert not isinstance(result, MarksChange)
            return result
        if view.phase == "bonus":
            if lower in ("skip", "pass", "none", "no"):
                return rules.Bonus(None)
            drop = re.fullmatch(r"p?@([a-h][1-8])", lower)
            if drop:
                if drop.group(1) not in _drops(view):
                    raise InputError("a pawn can be dropped only on an empty square of your second rank, with a "
                                     "pawn of yours waiting")
                return rules.Bonus(f"P@{drop.group(1)}")
        if view.phase == "uncloak":
            if lower in ("end", "done", "pass", "end turn"):
                return rules.Uncloak(())
            numbers = re.findall(r"\d+", lower)
            if numbers and re.fullmatch(r"(uncloak\s*)?[\d\s,]+", lower):
                cloaked = set(view.cloaked.get(_colour_of(view.seat), ()))
                chosen = tuple(sorted({int(n) for n in numbers}))
                if not set(chosen) <= cloaked:
                    raise InputError("only your cloaked checkers can be uncloaked")
                return rules.Uncloak(chosen)
            raise InputError("type the numbers of the checkers to uncloak (2 5), or end")
        guess = re.fullmatch(r"(?:guess\s*)?(\d)\s*(?:=|is|:)?\s*([kqrbn])", lower)
        if guess and view.phase == "move":
            checker, piece = int(guess.group(1)), guess.group(2).upper()
            if not _guess_moment(view):
                raise InputError("a guess comes at the start of your turn, before you move, once a turn")
            return self._guess(view, checker, piece)
        if view.phase == "move" and words.upper().replace("0", "O") in ("O-O", "O-O-O"):
            return self._castle(view, words.upper().replace("0", "O") == "O-O")
        # The moves of the phase, whether or not the board offers them just now (a drop chosen, say).
        targets = self._move_targets(view) if view.phase == "move" else _targets(_bonus_moves(view)) \
            if view.phase == "bonus" else {}
        if not targets:
            raise InputError(_PHASE_HINTS.get(view.phase, "no move can be made now"))
        known = {cell: _letter_for_text(code) for cell, code in self._pieces(view).items()}
        origin, target, promotion = parse_move_text(words, known, targets, 8, 8)
        action = self.on_move(view, origin, target, promotion)
        if isinstance(action, MarksChange):  # not in these phases; said for the type checker
            raise InputError("type a move, not a mark")
        return action

    def _castle(self, view: Any, king_side: bool) -> Action:
        from app.games.cloak.actions import Move
        for move in map(_uci, view.legal_moves()):
            parsed = chess.Move.from_uci(move)
            end = self._castling_end(view, parsed)
            if end is not None and (end > parsed.from_square) == king_side:
                return Move(move)
        raise InputError("you cannot castle that way now")

    def _castling_end(self, view: Any, move: chess.Move) -> int | None:
        """The rook's square of a castling move of the view's list (the king onto its own rook), else None."""
        colour = _colour_of(view.seat)
        king, rook = view.board.get(move.from_square), view.board.get(move.to_square)
        if king is None or rook is None or king.colour != colour or rook.colour != colour:
            return None
        return int(move.to_square)

    def commands(self, view: Any) -> list[Command]:
        marks = [Command(UNDO_COMMAND, "Undo mark", bool(self.marks.undo), anytime=True),
                 Command(REDO_COMMAND, "Redo mark", bool(self.marks.redo), anytime=True)]
        seat = view.seat
        if seat is None or (view.phase == "arrange" and not view.own_arrangement):
            ready = seat is not None and arrangement_problem(self.marks.draft) is None and _my_turn(view)
            here = seat is not None and view.phase == "arrange"
            # Filling the draft changes only the seat's marks: it may be done while the other seat arranges.
            return [Command(RANDOM_COMMAND, "Random arrangement", here, anytime=True),
                    Command(STANDARD_COMMAND, "Standard (RNBQKBNR)", here, anytime=True),
                    Command(CONFIRM_COMMAND, "Confirm arrangement", ready)]
        mine = _my_turn(view)
        if mine and view.phase == "bonus":
            drop = []
            if _drops(view) and _bonus_moves(view):
                label = "Move a pawn instead" if self._dropping(view) else "Drop a pawn"
                drop = [Command(DROP_COMMAND, label, True)]
            return [*drop, Command(SKIP_COMMAND, "Skip bonus", True), *marks]
        if mine and view.phase == "uncloak":
            picked = self._pending_uncloak(view)
            label = f"Uncloak {', '.join(map(str, picked))} and end turn" if picked else "Uncloak and end turn"
            return [Command(UNCLOAK_COMMAND, label, bool(picked)), Command(END_COMMAND, "End turn", True), *marks]
        if mine and view.phase == "answer_draw":
            return [Command(ACCEPT_DRAW, "Accept draw", True), Command(DECLINE_DRAW, "Decline draw", True), *marks]
        offer = mine and view.phase == "move" and view.can_offer_draw()
        guess = Command(GUESS_COMMAND, "Cancel guess" if self._guessing(view) else "Guess...", _guess_moment(view))
        return [guess, Command(OFFER_DRAW, "Offer draw", offer), *marks]

    def command(self, view: Any, command_id: str) -> Action | MarksChange:
        from app.games.cloak import actions as rules
        if command_id == UNDO_COMMAND:
            if not self.marks.undo:
                raise InputError("there is no mark to undo")
            cell, before, after = self.marks.undo[-1]
            grid = dict(self.marks.grid)
            grid.pop(cell, None)
            if before:
                grid[cell] = before
            return self.marks.change(grid=grid, undo=self.marks.undo[:-1],
                                     redo=self.marks.redo + ((cell, before, after),))
        if command_id == REDO_COMMAND:
            if not self.marks.redo:
                raise InputError("there is no mark to redo")
            cell, before, after = self.marks.redo[-1]
            grid = dict(self.marks.grid)
            grid.pop(cell, None)
            if after:
                grid[cell] = after
            return self.marks.change(grid=grid, undo=self.marks.undo + ((cell, before, after),),
                                     redo=self.marks.redo[:-1])
        if command_id in (RANDOM_COMMAND, STANDARD_COMMAND, CONFIRM_COMMAND):
            if self._draft(view) is None or view.phase != "arrange":
                raise InputError("your arrangement is made and cannot change")
            if command_id == RANDOM_COMMAND:
                return self.marks.change(draft=random_arrangement())
            if command_id == STANDARD_COMMAND:
                return self.marks.change(draft=STANDARD)
            problem = arrangement_problem(self.marks.draft)
            if problem is not None:
                raise InputError(problem)
            return rules.Arrange(self.marks.draft)
        if not _my_turn(view):
            raise InputError("it is not your turn")
        if command_id == GUESS_COMMAND and view.phase == "move":
            if not _guess_moment(view):
                raise InputError("a guess comes at the start of your turn, before you move, once a turn")
            return self.marks.change(guessing_at=-1 if self._guessing(view) else moment(view))
        if command_id == OFFER_DRAW and view.phase == "move":
            if not view.can_offer_draw():
                raise InputError("a draw may be offered once a turn")
            return rules.OfferDraw()
        if command_id in (ACCEPT_DRAW, DECLINE_DRAW) and view.phase == "answer_draw":
            return rules.AnswerDraw(command_id == ACCEPT_DRAW)
        if command_id == SKIP_COMMAND and view.phase == "bonus":
            return rules.Bonus(None)
        if command_id == DROP_COMMAND and view.phase == "bonus":
            if not _drops(view):
                raise InputError("no pawn of yours can be dropped now")
            return self.marks.change(dropping_at=-1 if self._dropping(view) else moment(view))
        if command_id == END_COMMAND and view.phase == "uncloak":
            return rules.Uncloak(())
        if command_id == UNCLOAK_COMMAND and view.phase == "uncloak":
            picked = self._pending_uncloak(view)
            if not picked:
                raise InputError("click the checkers to uncloak first")
            return rules.Uncloak(picked)
        raise InputError(f"this game has no command {command_id[:20]!r} now")

    # -- words ---------------------------------------------------------------------------------------------

    def prompt(self, view: Any) -> str:
        if view.phase == "arrange" and not view.own_arrangement:
            problem = arrangement_problem(self.marks.draft)
            if problem is None:
                return "Your arrangement is ready: Confirm arrangement (kept secret)"
            if self.marks.draft == "." * 8:
                return ("Arrange your pieces in secret: click the grid (a piece's row, a checker's column), "
                        "or Random arrangement")
            return f"Arrange your pieces: {problem}"
        if view.phase == "move":
            if self._guessing(view):
                return "Click the cell of the checker and piece you guess, or Cancel guess"
            if _guess_moment(view):
                return "Your move, or Guess... before moving"
            return "Your move"
        if view.phase == "bonus":
            if self._dropping(view):
                return "Bonus move: click a marked square to drop your pawn there (or Skip bonus)"
            if _drops(view):
                return "Bonus move: move a pawn, or Drop a pawn on a marked square (or Skip bonus)"
            return "Bonus move: move a pawn (or Skip bonus)"
        if view.phase == "answer_draw":
            return f"{SIDES[1 - _colour_of(view.seat)]} offers a draw: Accept draw or Decline draw"
        if view.phase == "uncloak":
            picked = self._pending_uncloak(view)
            if picked:
                return f"Uncloak {', '.join(map(str, picked))}: press Uncloak and end turn (or click to change)"
            return "Click your checkers to uncloak them, or End turn"
        return _PHASE_HINTS.get(view.phase, "Your move")

    def entry_hint(self, view: Any) -> str:
        if view.phase == "arrange" and not view.own_arrangement:
            return "Type your arrangement, 8 letters (RNBQKBNR)"
        return _ENTRY_HINTS.get(view.phase, self.entry_text) if _my_turn(view) else self.entry_text

    def sounds(self, observation: Any, seat: Seat) -> tuple[str, ...]:
        if type(observation).__name__ == "Moved":
            if observation.captured:
                return ("capture",) if observation.seat == seat else ("captured",)
            return ("move",)
        if type(observation).__name__ == "Checked":
            return ("check",)
        return super().sounds(observation, seat)

    def describe(self, observation: Any, seat: Seat) -> str | None:
        return describe_cloak(observation, seat)

    def describe_action(self, action: Mapping[str, Any]) -> str:
        """Cloak and Dagger's actions in words (checkers by number, pieces by name).

        >>> PRESENTER.describe_action({"type": "guess", "checker": 3, "piece": "N"})
        'guess checker 3 is a knight'
        """
        kind = action.get("type")
        try:
            if kind == "arrange":
                return f"arrange checkers 1 to 8 as {_arrangement_words(str(action['pieces']))}"
            if kind == "guess":
                return f"guess checker {action['checker']} is {ARTICLE[str(action['piece']).upper()]}"
            if kind == "uncloak":
                checkers = list(action["checkers"])
                return "uncloak " + (", ".join(f"checker {number}" for number in checkers) if checkers else "nothing")
            if kind == "bonus" and action.get("uci") is None:
                return "skip the bonus move"
            if kind == "answer_draw":
                return "accept the draw" if action.get("accept") else "decline the draw"
        except (KeyError, TypeError, AttributeError):
            pass  # (a record's action the game refused would have failed its replay: words for it anyway)
        return super().describe_action(action)

    def move_list(self, view: Any) -> list[str]:
        return cloak_moves(view)

    def truth_scene(self, truth: Any, last_move: Any = None) -> BoardScene:
        scene = BoardScene(pieces=truth_pieces(truth))
        if last_move is not None:
            move = last_move if isinstance(last_move, chess.Move) else chess.Move.from_uci(_uci(last_move))
            scene.last_move = (sq8(move.from_square), sq8(move.to_square))
        return scene


_ENTRY_HINTS = {"move": "Type a move (e2e4, Nf3, O-O) or a guess (3=N)",
                "answer_draw": "Type accept or decline",
                "bonus": "Type a pawn move (e4e5), a drop (P@c2) or skip",
                "uncloak": "Type checkers to uncloak (2 5), or end"}
_PHASE_HINTS = {"arrange": "Waiting for the arrangements", "move": "Your move", "bonus": "Bonus move",
                "answer_draw": "Accept or decline the draw offer",
                "uncloak": "Uncloak checkers or end your turn", "over": "The game is over"}


def _targets(moves: Iterable[chess.Move]) -> dict[Cell, dict[Cell, list[str]]]:
    from app.games.chess_kit import chess_targets
    return chess_targets(moves)


def _letter_for_text(code: str) -> str:
    """A piece code as the typed-move reader knows it: a checker as the piece it stands for (the seat's own, so
    ``Nf3`` finds its knight), a checker it does not know as nothing a move could be typed for."""
    checker = read_checker(code)
    if checker is None:
        return code
    if checker.piece is None:
        return "?"
    return checker.piece if checker.white else checker.piece.lower()


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


def _deduction_shown(view: Any) -> bool:
    """Whether the game shows what is still possible (its ``deduction`` option, told to each seat at the start)."""
    return bool(getattr(view, "deduction", True))


def _deduce(view: Any, side: int) -> Any:
    from app.games.cloak.deduction import Deduction
    return Deduction.about(view, side)


def _last_move(moved: Any) -> tuple[Cell, Cell]:
    """The squares to light for a move (from and to) or a drop (its square alone)."""
    if type(moved).__name__ == "Dropped":
        return sq8(moved.square), sq8(moved.square)
    return sq8(moved.from_square), sq8(moved.to_square)


# ---- sentences -----------------------------------------------------------------------------------------------

def _mover_words(colour: int, code: Any) -> str:
    """``White pawn``, ``Black checker 5 (cloaked)``, ``White queen``."""
    side = SIDES[colour]
    text = str(code)
    if text.isdigit():
        return f"{side} checker {text} (cloaked)"
    return f"{side} {NAMES.get(text.upper(), text)}"


def _victim_words(colour: int, code: Any, identity: Any) -> str:
    text = str(code)
    if text.isdigit():
        return f"{SIDES[colour]} checker {text}" + (f", {ARTICLE[str(identity).upper()]}" if identity else "")
    return f"{SIDES[colour]}'s {NAMES.get(text.upper(), text)}"


def _arrangement_words(pieces: str) -> str:
    """``"RNBQKBNR"`` as ``"rook, knight, bishop, queen, king, bishop, knight, rook"``."""
    return ", ".join(NAMES[letter.upper()] for letter in pieces)


def describe_cloak(observation: Any, seat: Seat) -> str | None:
    """One line of the seat's log (saying no more than the observation does).

    >>> from app.games.cloak.observations import Guessed, Moved
    >>> describe_cloak(Guessed(0, 3, "N", False), 1)
    'White guessed checker 3 is a knight: wrong, Black gets a bonus move.'
    >>> describe_cloak(Moved(1, "b8c6", chess.B8, chess.C6, "2"), 0)
    'Black checker 2 (cloaked) b8 to c6.'
    """
    kind = type(observation).__name__
    o = observation
    if kind == "Seated":
        return f"You play {SIDES[o.seat]}." if o.seat == seat else None
    if kind == "Arranged":
        if o.pieces:
            return f"You arranged your pieces in secret: checkers 1 to 8 are {_arrangement_words(o.pieces)}."
        return None if o.seat == seat else f"{SIDES[o.seat]} arranged its pieces in secret."
    if kind == "Guessed":
        other = SIDES[1 - o.seat]
        result = (f"right, {SIDES[o.seat]} gets a bonus move after its move" if o.right
                  else f"wrong, {other} gets a bonus move")
        return f"{SIDES[o.seat]} guessed checker {o.checker} is {ARTICLE[str(o.piece).upper()]}: {result}."
    if kind == "Moved":
        prefix = "Bonus: " if o.bonus else ""
        if o.castling:
            side = "king" if chess.square_file(o.to_square) > chess.square_file(o.from_square) else "queen"
            told = ", ".join(f"checker {number} is {ARTICLE[str(piece).upper()]}"
                             for number, piece in sorted(o.revealed.items()))
            return f"{SIDES[o.seat]} castled {side}-side" + (f": {told}." if told else ".")
        text = f"{prefix}{_mover_words(o.seat, o.mover)} {square_name(o.from_square)} to {square_name(o.to_square)}"
        if o.captured:
            text += f", captured {_victim_words(1 - o.seat, o.captured, o.captured_identity)}"
            if o.capture_square is not None and o.capture_square != o.to_square:
                text += f" on {square_name(o.capture_square)} (en passant)"
        if o.promotion:
            text += f", promoted to {NAMES[str(o.promotion).upper()]}"
        return text + "."
    if kind == "Dropped":
        return f"Bonus: {SIDES[o.seat]} dropped a pawn on {square_name(o.square)}."
    if kind == "BonusLost":
        if o.declined:
            return f"{SIDES[o.seat]} skipped its bonus move."
        return f"{SIDES[o.seat]} has no bonus move to make: the bonus is lost."
    if kind == "Uncloaked":
        if not o.identities:
            return None
        shown = ", ".join(f"checker {number}: {NAMES[str(piece).upper()]}"
                          for number, piece in sorted(o.identities.items()))
        return f"{SIDES[o.seat]} uncloaked {shown}."
    if kind == "Checked":
        return f"{SIDES[o.seat]} is in check." if o.seat != seat else "You are in check."
    if kind == "DrawOffered":
        return f"{SIDES[o.seat]} offered a draw."
    if kind == "DrawDeclined":
        return f"{SIDES[o.seat]} declined the draw."
    if kind == "Ended":
        line = outcome_sentence(o.outcome, seat)
        both = [f"{SIDES[side]}'s checkers 1 to 8 were {_arrangement_words(pieces)}"
                for side, pieces in enumerate(o.arrangements) if pieces]
        return line + "".join(f" {sentence}." for sentence in both)
    return None


def cloak_moves(view: Any) -> list[str]:
    """Both sides' moves, a numbered line per move pair as on a score sheet; a bonus move or drop follows the
    move it belongs to with ``+``, a cloaked checker is written ``c3`` (checker 3), a capture with ``x``.

    >>> from types import SimpleNamespace as Entry
    >>> from app.games.cloak.observations import Dropped, Moved
    >>> seen = [Moved(0, "e2e4", chess.E2, chess.E4, "P"), Moved(1, "b8c6", chess.B8, chess.C6, "2"),
    ...         Dropped(1, chess.D7)]
    >>> cloak_moves(Entry(moves=[Entry(moved=moved) for moved in seen]))
    ['1. e2-e4  c2:b8-c6 +P@d7']
    """
    lines: list[str] = []
    number = 0
    white_to_write = True
    for entry in view.moves:
        moved = entry.moved
        text = _short_move(moved)
        if (type(moved).__name__ == "Dropped" or moved.bonus) and lines:
            lines[-1] += f" +{text}"
            continue
        if moved.seat == 0:
            number += 1
            lines.append(f"{number}. {text}")
            white_to_write = False
        else:
            if white_to_write or not lines:
                number += 1
                lines.append(f"{number}. …  {text}")
            else:
                lines[-1] += f"  {text}"
            white_to_write = True
    return lines


def _short_move(moved: Any) -> str:
    if type(moved).__name__ == "Dropped":
        return f"P@{square_name(moved.square)}"
    if moved.castling:
        return "O-O" if chess.square_file(moved.to_square) > chess.square_file(moved.from_square) else "O-O-O"
    code = str(moved.mover)
    who = f"c{code}:" if code.isdigit() else ("" if code.upper() == "P" else code.upper())
    capture = "x" if moved.captured else "-"
    text = f"{who}{square_name(moved.from_square)}{capture}{square_name(moved.to_square)}"
    if moved.promotion:
        text += f"={str(moved.promotion).upper()}"
    return text


def truth_pieces(truth: Any) -> dict[Cell, str]:
    """Every piece of a true position (``CloakChess.truth()``): pawns and uncloaked pieces as pieces, each
    cloaked checker as its numbered disc with the piece it stands for inside (only for a finished game or the
    replay's truth)."""
    board: chess.Board = truth.board
    pieces: dict[Cell, str] = {}
    for square, piece in board.piece_map().items():
        colour, number = truth.checkers.get(square, (None, None))
        if number is not None and number in truth.cloaked.get(colour, ()):
            pieces[sq8(square)] = checker_token(piece.color == chess.WHITE, number, piece.symbol().upper())
        else:
            pieces[sq8(square)] = piece.symbol()
    return pieces


PRESENTER = CloakPresenter()
