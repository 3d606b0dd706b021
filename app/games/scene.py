"""What the board shows for one seat: a plain description built from that seat's view only.

This module has no Qt: the game window turns a :class:`BoardScene` into calls on the board widget. Each game's
presenter (:mod:`app.games.presenter`) makes the scenes of that game; because a scene is made from a seat's
*view* (its observations), a hidden enemy piece cannot reach the widget at all.

Beside the board a scene may hold off-board :class:`Zone` s (a hand of cards, a row of cards, piles, a marker
track, a captured-piece tray, a deduction grid) and counters stacked on squares; the chess games have none.

**Piece codes.** A scene names what stands on a square with one character: a FEN letter (``"N"`` a white
knight, ``"p"`` a black pawn), or a *checker token* for a numbered checker that stands for a piece its
opponent cannot see (a disguised piece): :func:`checker_token` writes one, :func:`read_checker` reads it back;
or ``"X"`` / ``"x"`` (:func:`unknown_piece`), a white or black piece the seat knows stands there without knowing
which piece it is (one that has just captured the seat's own piece there).
A token says the checker's side and number and, when the seat looking at it knows it, the piece it really is
(its owner always does); the window draws it as a numbered disc in its side's colour with that piece faint
inside. Tokens are single characters (from Unicode's private use area) so that every place that takes a piece
letter takes them too.

>>> token = checker_token(True, 3, "N")
>>> read_checker(token), read_checker(checker_token(False, 5)), read_checker("N")
(Checker(white=True, number=3, piece='N'), Checker(white=False, number=5, piece=None), None)

>>> scene = BoardScene(pieces={(4, 0): "K"})
>>> scene.pieces[(4, 0)], (4, 7) in scene.pieces
('K', False)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Callable

Cell = tuple[int, int]
"""A cell of a drawn board: ``(file, rank)``, 0-based from White's lower left corner. (The engine's
``Square`` is an int, python-chess's numbering; a presenter turns one into the other.)"""


# ---- checker tokens ---------------------------------------------------------------------------------------------

TOKEN_FIRST = 0xE000
"""The first code point of the checker tokens: White's from here, Black's :data:`TOKEN_SIDE` later."""
TOKEN_SIDE = 0x100
"""How far Black's tokens stand from White's (room for checkers 0 to 31, each with six variants)."""
TOKEN_LAST = TOKEN_FIRST + 2 * TOKEN_SIDE - 1
"""The last code point a checker token may use (``app.ui.pieces`` accepts this whole block)."""
CHECKER_PIECES = "KQRBN"
"""The pieces a checker may stand for, as upper-case letters (its side is the token's)."""
MAX_CHECKER = TOKEN_SIDE // 8 - 1


@dataclass(frozen=True)
class Checker:
    """What a checker token says: its side (``white``), its ``number`` and the ``piece`` it stands for, an
    upper-case letter of :data:`CHECKER_PIECES`, or ``None`` when the seat looking does not know it."""

    white: bool
    number: int
    piece: str | None = None

    @property
    def token(self) -> str:
        """The token's character (see :func:`checker_token`)."""
        return checker_token(self.white, self.number, self.piece)


def checker_token(white: bool, number: int, piece: str | None = None) -> str:
    """The scene's code of checker ``number`` (0 to 31) of one side, showing ``piece`` (a letter of
    :data:`CHECKER_PIECES`, either case) when the seat looking knows what it stands for.

    >>> checker_token(True, 1) != checker_token(False, 1) != checker_token(False, 1, "q")
    True
    >>> checker_token(True, 40)
    Traceback (most recent call last):
    ...
    ValueError: a checker is numbered 0 to 31, not 40
    """
    if not 0 <= number <= MAX_CHECKER:
        raise ValueError(f"a checker is numbered 0 to {MAX_CHECKER}, not {number}")
    shown = 0
    if piece is not None:
        if len(piece) != 1 or piece.upper() not in CHECKER_PIECES:
            raise ValueError(f"a checker stands for one of {CHECKER_PIECES}, not {piece!r}")
        shown = CHECKER_PIECES.index(piece.upper()) + 1
    return chr(TOKEN_FIRST + (0 if white else TOKEN_SIDE) + number * 8 + shown)


def read_checker(code: str) -> Checker | None:
    """The checker a scene's piece code names, or ``None`` for a piece letter (or anything else)."""
    if len(code) != 1 or not TOKEN_FIRST <= ord(code) <= TOKEN_LAST:
        return None
    offset = ord(code) - TOKEN_FIRST
    side, rest = divmod(offset, TOKEN_SIDE)
    number, shown = divmod(rest, 8)
    if shown > len(CHECKER_PIECES):
        return None
    return Checker(side == 0, number, CHECKER_PIECES[shown - 1] if shown else None)


UNKNOWN_PIECES = "Xx"
"""The codes of a piece of unknown type: White's, then Black's (not FEN letters, so never confused with one)."""


def unknown_piece(white: bool) -> str:
    """The code of a piece of ``white``'s side (or Black's) whose type the seat looking does not know.

    >>> unknown_piece(False), piece_words(unknown_piece(False))
    ('x', 'black piece of unknown type')
    """
    return UNKNOWN_PIECES[0 if white else 1]


def piece_words(code: str) -> str:
    """A piece code in words: ``"white knight"``, ``"black checker 5"``, ``"white checker 3 (knight)"``.

    >>> piece_words("q"), piece_words(checker_token(False, 5)), piece_words(checker_token(True, 3, "N"))
    ('black queen', 'black checker 5', 'white checker 3 (knight)')
    """
    checker = read_checker(code)
    if checker is None:
        colour = "white" if code.isupper() else "black"
        return f"{colour} {_PIECE_WORDS.get(code.upper(), code)}"
    words = f"{'white' if checker.white else 'black'} checker {checker.number}"
    return words + (f" ({_PIECE_WORDS[checker.piece]})" if checker.piece else "")


_PIECE_WORDS = {"K": "king", "Q": "queen", "R": "rook", "B": "bishop", "N": "knight", "P": "pawn",
                "X": "piece of unknown type"}


@dataclass(frozen=True)
class MarkerSpec:
    """A highlighted group of squares: ``kind`` is sense, sense_old, reveal, seen_old, lost, captured or premove (a
    move or sense queued while another seat acts). ``seen_old`` marks remembered pieces that are no longer news
    (:class:`Remembered`): the window draws the pieces on its squares faded, with the label (their turn)."""

    kind: str
    squares: tuple[Cell, ...]
    label: str = ""
    opacity: float = 1.0


ZONE_PLACES = ("above", "below", "left", "right")
"""Where an off-board zone stands beside the board; zones sharing a side stand one after another, outwards
(or, a zone marked ``beside``, next to the one before it, along the side)."""

SUITS = ("S", "H", "D", "C")
"""Card suits by their first letter: spades, hearts, diamonds, clubs (spades and clubs are black)."""

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
"""Card ranks as written on a card's corner."""


@dataclass(frozen=True)
class Card:
    """One playing card, face up: ``rank`` one of :data:`RANKS`, ``suit`` one of :data:`SUITS`.

    >>> Card("10", "H").code, Card("Q", "S").red
    ('10H', False)
    """

    rank: str
    suit: str

    def __post_init__(self) -> None:
        if self.rank not in RANKS or self.suit not in SUITS:
            raise ValueError(f"no such card: rank {self.rank!r}, suit {self.suit!r}")

    @property
    def code(self) -> str:
        """Rank then suit letter (``"10H"``, ``"QS"``): the card's name in a scene, a record or an image cache."""
        return self.rank + self.suit

    @property
    def red(self) -> bool:
        """Hearts and diamonds are red (the white side's cards in the chess kit)."""
        return self.suit in ("H", "D")

    @classmethod
    def parse(cls, code: str) -> Card:
        """The card named ``code`` (``"10H"``, ``"qs"``); ``ValueError`` if it names none."""
        code = code.strip().upper()
        return cls(code[:-1], code[-1:])


ShownCard = Card | None
"""A card as one seat sees it: its face, or ``None`` for its back."""


@dataclass(frozen=True, kw_only=True)
class Zone:
    """Something a game shows beside its board (or, for :class:`StackZone`, on its squares).

    ``id`` names the zone to the presenter: a click on one of its items comes back to
    :meth:`~app.games.presenter.Presenter.on_zone` as ``(id, index)``. ``place`` is one of :data:`ZONE_PLACES`.
    ``private_to`` names the seats allowed to see the zone's contents; when it is not empty, the zone shows
    something only those seats may know (a hand's faces), and the window must hide it whenever another seat
    could be looking (the curtain between hot-seat turns). Empty means every seat may see it.

    ``beside``: the zone stands next to the zone before it on the same side, along the board's edge, sharing
    its band, instead of in a band of its own further out (two small grids under the board, side by side,
    cost the board less room than one under the other). The first zone of a side ignores it.
    """

    id: str
    place: str = "below"
    label: str = ""
    private_to: frozenset[int] = frozenset()
    beside: bool = False

    def __post_init__(self) -> None:
        if not self.id:
            raise ValueError("a zone needs an id")
        if self.place not in ZONE_PLACES and not (isinstance(self, StackZone) and self.place == "board"):
            raise ValueError(f"zone {self.id!r}: unknown place {self.place!r} (expected one of "
                             f"{', '.join(ZONE_PLACES)})")
        object.__setattr__(self, "private_to", frozenset(self.private_to))

    @property
    def private(self) -> bool:
        """Whether some seats may not see this zone's contents."""
        return bool(self.private_to)

    def item_count(self) -> int:
        """How many clickable items the zone holds (indices ``0 .. item_count() - 1``)."""
        return 0


def zone_bands(zones: Iterable[Zone]) -> list[list[Zone]]:
    """The zones that take a band beside the board (all but counters on squares), grouped by band, in order: a
    zone marked ``beside`` joins the band of the zone before it on its side; any other starts a band further out.

    >>> first, second, third = (GridZone(id="a"), GridZone(id="b", beside=True), GridZone(id="c", place="left",
    ...                                                                                  beside=True))
    >>> [[zone.id for zone in band] for band in zone_bands([first, third, second])]
    [['a', 'b'], ['c']]
    """
    bands: list[list[Zone]] = []
    last: dict[str, list[Zone]] = {}
    for zone in zones:
        if isinstance(zone, StackZone):
            continue
        if zone.beside and zone.place in last:
            last[zone.place].append(zone)
        else:
            last[zone.place] = [zone]
            bands.append(last[zone.place])
    return bands


@dataclass(frozen=True, kw_only=True)
class HandZone(Zone):
    """A seat's hand: each card's face, or ``None`` for a card this seat may not see (drawn as a back).

    The presenter decides what a seat may see, from that seat's view; :meth:`seen_by` makes the usual choice (the
    owners see faces, everyone else backs). ``selected`` are indices drawn raised (a card chosen to play).

    >>> hand = HandZone.seen_by("hand-0", [Card("2", "S"), Card("K", "H")], owners={0}, seat=1)
    >>> hand.cards, hand.private
    ((None, None), True)
    """

    cards: tuple[ShownCard, ...] = ()
    selected: tuple[int, ...] = ()

    @classmethod
    def seen_by(cls, id: str, cards: Sequence[Card], owners: Iterable[int], seat: int | None,
                **fields: Any) -> HandZone:
        """The hand ``cards`` of ``owners`` as ``seat`` sees it: faces for an owner, backs for anyone else
        (``seat`` None: nobody in particular, so backs)."""
        owner_set = frozenset(owners)
        shown: tuple[ShownCard, ...] = tuple(cards) if seat in owner_set else (None,) * len(cards)
        return cls(id=id, cards=shown, private_to=owner_set, **fields)

    def item_count(self) -> int:
        return len(self.cards)


@dataclass(frozen=True, kw_only=True)
class CardRowZone(Zone):
    """A line of face-up cards every seat sees (a parade, a market, cards played this trick)."""

    cards: tuple[Card, ...] = ()

    def item_count(self) -> int:
        return len(self.cards)


@dataclass(frozen=True, kw_only=True)
class PileZone(Zone):
    """A draw or discard pile of ``count`` cards: ``top`` is the face on top (a discard pile), or ``None`` when
    the top card is face down (a draw pile). An empty pile (``count`` 0) is drawn as an outline. One item:
    index 0, the pile itself."""

    count: int = 0
    top: ShownCard = None

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.count < 0:
            raise ValueError(f"pile {self.id!r}: a count below zero")

    def item_count(self) -> int:
        return 1


@dataclass(frozen=True, kw_only=True)
class TrackZone(Zone):
    """A coin or marker track: its positions, in order, each with a short label (``"0"``, ``"+1"`` ...), and the
    index of the position the marker stands on (``None``: not on the track). Items are the positions."""

    positions: tuple[str, ...] = ()
    marker: int | None = None

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.marker is not None and not 0 <= self.marker < len(self.positions):
            raise ValueError(f"track {self.id!r}: marker {self.marker} off its {len(self.positions)} positions")

    def item_count(self) -> int:
        return len(self.positions)


@dataclass(frozen=True, kw_only=True)
class StackZone(Zone):
    """Counters or checkers stacked under pieces: ``stacks`` pairs a square with its height (drawn as a little
    stack with the number), ``colour`` the counters' colour (``#rrggbb``). It stands on the board, so its place is
    ``"board"``; clicks on those squares stay the board's (a square pick or a move), so it has no items."""

    place: str = "board"
    stacks: tuple[tuple[Cell, int], ...] = ()
    colour: str = "#d0a040"

    def __post_init__(self) -> None:
        super().__post_init__()
        if self.place != "board":
            raise ValueError(f"stacks {self.id!r} stand on the board, not {self.place!r}")
        object.__setattr__(self, "stacks", tuple(((int(s[0]), int(s[1])), int(n)) for s, n in self.stacks))

    def heights(self) -> dict[Cell, int]:
        """Stack height by square."""
        return dict(self.stacks)


@dataclass(frozen=True, kw_only=True)
class TrayZone(Zone):
    """Captured pieces (FEN letters, upper case White), in the order they were taken. Items are the pieces."""

    pieces: tuple[str, ...] = ()

    def item_count(self) -> int:
        return len(self.pieces)


@dataclass(frozen=True, kw_only=True)
class GridZone(Zone):
    """A deduction grid: ``rows`` x ``columns`` headings and a short mark per cell (``""``, ``"x"``, ``"?"``...),
    ``marks[row][column]``. Item ``row * len(columns) + column`` is a cell.

    Optional tables of the same shape (each left empty when unused) say more about each cell:

    - ``notes``: a second, smaller text (a chance, ``"37%"``), written under the mark;
    - ``shades``: what is known of the cell: ``None`` nothing (plain), ``0.0`` impossible (greyed out), a value
      up to ``1.0`` a chance, tinted like the board's heat map (deeper for a likelier cell);
    - ``flags``: a reason the cell's mark is wrong (``""``: none); a flagged cell is outlined in red and its
      reason is the cell's tooltip.

    ``along_files``: the columns stand for the board's files, first column the first file (Cloak and Dagger's
    checker 1 starts on the a-file), so the window draws them in the board's order: right to left while the board
    is turned. Item numbers do not change.

    >>> grid = GridZone(id="g", rows=("K", "Q"), columns=("1", "2"), shades=((1.0, 0.0), (0.0, None)),
    ...                 flags=(("", ""), ("", "the queen is known")))
    >>> grid.shade(0, 1), grid.flag(1, 1), grid.note(0, 0)
    (0.0, 'the queen is known', '')
    """

    rows: tuple[str, ...] = ()
    columns: tuple[str, ...] = ()
    marks: tuple[tuple[str, ...], ...] = ()
    notes: tuple[tuple[str, ...], ...] = ()
    shades: tuple[tuple[float | None, ...], ...] = ()
    flags: tuple[tuple[str, ...], ...] = ()
    along_files: bool = False

    def __post_init__(self) -> None:
        super().__post_init__()
        if not self.marks:  # no marks given: every cell blank
            object.__setattr__(self, "marks", tuple(("",) * len(self.columns) for _ in self.rows))
        for name in ("marks", "notes", "shades", "flags"):
            table = getattr(self, name)
            if name != "marks" and not table:
                continue
            if len(table) != len(self.rows) or any(len(row) != len(self.columns) for row in table):
                raise ValueError(f"grid {self.id!r}: {name} are not {len(self.rows)} x {len(self.columns)}")
        for row in self.shades:
            if any(value is not None and not 0.0 <= value <= 1.0 for value in row):
                raise ValueError(f"grid {self.id!r}: a shade is None or from 0 to 1")

    def item_count(self) -> int:
        return len(self.rows) * len(self.columns)

    def note(self, row: int, column: int) -> str:
        """The cell's second text (empty without one)."""
        return self.notes[row][column] if self.notes else ""

    def shade(self, row: int, column: int) -> float | None:
        """What is known of the cell: None nothing, 0 impossible, else its chance."""
        return self.shades[row][column] if self.shades else None

    def flag(self, row: int, column: int) -> str:
        """Why the cell's mark is wrong (empty when it is not flagged)."""
        return self.flags[row][column] if self.flags else ""


@dataclass(frozen=True)
class Remembered:
    """An enemy piece a seat knows of without seeing it now: the latest thing its own observations told it about
    one square, and nothing since contradicted (a game's presenter decides that, from the seat's view).

    ``code`` is the piece's code (a piece letter, or :func:`unknown_piece` when the seat knows only that an enemy
    piece stands there), ``turn`` the turn the seat learned it. ``current``: the seat learned it at or after the
    opponent's latest move that the seat knows of, so nothing can have moved it since, and it is drawn like any
    piece; otherwise it is old news (the opponent has moved since the seat learned it) and drawn faded with its
    turn.
    ``note`` is what the square's tooltip says of it (empty: the piece's name)."""

    cell: Cell
    code: str
    turn: int
    current: bool
    note: str = ""


@dataclass
class BoardScene:
    """One board as the window draws it: ``files`` x ``ranks`` squares, the piece letters on them (upper case
    White), marked squares, the moves that may be made now (``targets``: from -> to -> promotion letters), the
    last move, ``sense_window`` when the seat must pick a square (it names the squares a pick covers; ``pick_word``
    is what the game calls such a pick, for the words of one queued ahead), and the off-board ``zones`` (none for
    the chess games; ids unique within a scene)."""

    files: int = 8
    ranks: int = 8
    pieces: dict[Cell, str] = field(default_factory=dict)
    targets: dict[Cell, dict[Cell, list[str]]] = field(default_factory=dict)
    markers: list[MarkerSpec] = field(default_factory=list)
    last_move: tuple[Cell, Cell] | None = None
    sense_window: Callable[[Cell], list[Cell]] | None = None
    zones: list[Zone] = field(default_factory=list)
    pick_word: str = "sense"
    last_seen: frozenset[Cell] = frozenset()
    """Squares whose pieces are shown where they were last seen (an enemy piece from a sense or a reveal), not
    followed from move to move: they never glide, since the seat did not see them go there."""
    notes: dict[Cell, str] = field(default_factory=dict)
    """What a square's tooltip says of its piece instead of the piece's bare name (a remembered piece: when and
    how the seat learned of it)."""
    queue_zones: frozenset[str] = frozenset()
    """The zones whose card a click may queue ahead (in a premove scene) or whose queued card the turn takes now
    (in the scene of the seat's own turn): for a turn that begins by playing a card."""

    def remember(self, items: Iterable[Remembered]) -> None:
        """Shows remembered enemy pieces on the squares the seat's own pieces leave free (they never glide, see
        :attr:`last_seen`), with their notes; the old ones under ``seen_old`` markers labelled with their turn,
        one marker per turn, except where a marker on the square already says that turn (the outline of the sense
        that saw it, a lost piece's mark): the piece is faded all the same."""
        written = {(cell, marker.label) for marker in self.markers if marker.label for cell in marker.squares}
        old: dict[str, list[Cell]] = {}
        for item in items:
            if item.cell in self.pieces:
                continue
            self.pieces[item.cell] = item.code
            self.last_seen |= {item.cell}
            if item.note:
                self.notes[item.cell] = item.note
            if not item.current:
                label = f"t{item.turn}"
                old.setdefault("" if (item.cell, label) in written else label, []).append(item.cell)
        for label, cells in sorted(old.items(), key=lambda entry: (len(entry[0]), entry[0])):
            self.markers.append(MarkerSpec("seen_old", tuple(sorted(cells)), label))

    def zone(self, zone_id: str) -> Zone:
        """The zone named ``zone_id``; ``KeyError`` if the scene has none."""
        for zone in self.zones:
            if zone.id == zone_id:
                return zone
        raise KeyError(zone_id)

    def private_zones(self) -> list[Zone]:
        """The zones some seat may not see: what the window hides behind the curtain."""
        return [zone for zone in self.zones if zone.private]
