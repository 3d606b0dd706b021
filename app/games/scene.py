"""What the board shows for one seat: a plain description built from that seat's view only.

This module has no Qt: the game window turns a :class:`BoardScene` into calls on the board widget. Each game's
presenter (:mod:`app.games.presenter`) makes the scenes of that game; because a scene is made from a seat's
*view* (its observations), a hidden enemy piece cannot reach the widget at all.

Beside the board a scene may hold off-board :class:`Zone` s (a hand of cards, a row of cards, piles, a marker
track, a captured-piece tray, a deduction grid) and counters stacked on squares; the chess games have none.

>>> from app import games
>>> from app.engine.rbc import ReconChess, ReconChessView
>>> key = games.default().key
>>> scene = SCENES[key](ReconChessView.from_observations(ReconChess().observations(0)))
>>> len(scene.pieces), scene.pieces[(4, 0)], (4, 7) in scene.pieces
(16, 'K', False)
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Callable

Cell = tuple[int, int]
"""A cell of a drawn board: ``(file, rank)``, 0-based from White's lower left corner. (The engine's
``Square`` is an int, python-chess's numbering; a presenter turns one into the other.)"""


@dataclass(frozen=True)
class MarkerSpec:
    """A highlighted group of squares: ``kind`` is sense, sense_old, reveal, lost or captured."""

    kind: str
    squares: tuple[Cell, ...]
    label: str = ""
    opacity: float = 1.0


ZONE_PLACES = ("above", "below", "left", "right")
"""Where an off-board zone stands beside the board; zones sharing a side stand one after another, outwards."""

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
    """

    id: str
    place: str = "below"
    label: str = ""
    private_to: frozenset[int] = frozenset()

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
    ``marks[row][column]``. Item ``row * len(columns) + column`` is a cell."""

    rows: tuple[str, ...] = ()
    columns: tuple[str, ...] = ()
    marks: tuple[tuple[str, ...], ...] = ()

    def __post_init__(self) -> None:
        super().__post_init__()
        if not self.marks:  # no marks given: every cell blank
            object.__setattr__(self, "marks", tuple(("",) * len(self.columns) for _ in self.rows))
        if len(self.marks) != len(self.rows) or any(len(row) != len(self.columns) for row in self.marks):
            raise ValueError(f"grid {self.id!r}: marks are not {len(self.rows)} x {len(self.columns)}")

    def item_count(self) -> int:
        return len(self.rows) * len(self.columns)


@dataclass
class BoardScene:
    """One board as the window draws it: ``files`` x ``ranks`` squares, the piece letters on them (upper case
    White), marked squares, the moves that may be made now (``targets``: from -> to -> promotion letters), the
    last move, ``sense_window`` when the seat must pick a square (it names the squares a pick covers), and the
    off-board ``zones`` (none for the chess games; ids unique within a scene)."""

    files: int = 8
    ranks: int = 8
    pieces: dict[Cell, str] = field(default_factory=dict)
    targets: dict[Cell, dict[Cell, list[str]]] = field(default_factory=dict)
    markers: list[MarkerSpec] = field(default_factory=list)
    last_move: tuple[Cell, Cell] | None = None
    sense_window: Callable[[Cell], list[Cell]] | None = None
    zones: list[Zone] = field(default_factory=list)

    def zone(self, zone_id: str) -> Zone:
        """The zone named ``zone_id``; ``KeyError`` if the scene has none."""
        for zone in self.zones:
            if zone.id == zone_id:
                return zone
        raise KeyError(zone_id)

    def private_zones(self) -> list[Zone]:
        """The zones some seat may not see: what the window hides behind the curtain."""
        return [zone for zone in self.zones if zone.private]


class _ScenesByGame(Mapping[str, Callable[[Any], BoardScene]]):
    """Game key -> the function making a seat's scene from its view: each game's presenter, found through the
    registry when first asked for (so reading this module imports no game)."""

    def __getitem__(self, key: str) -> Callable[[Any], BoardScene]:
        from app.games.presenter import presenter_for
        return presenter_for(key).scene

    def __iter__(self) -> Iterator[str]:
        from app import games
        return iter(games.names())

    def __len__(self) -> int:
        from app import games
        return len(games.names())


SCENES: Mapping[str, Callable[[Any], BoardScene]] = _ScenesByGame()
"""Game key -> scene of a seat's view (kept for callers that have a key at hand; presenters say the same)."""


def truth_scene(variant: str, game: Any) -> BoardScene:
    """Every piece of the true position: only for a finished game (post-game review), never during play."""
    return position_scene(variant, game.truth())


def position_scene(variant: str, position: Any) -> BoardScene:
    """Every piece of a true position (what the game's ``truth()`` gives)."""
    from app.games.presenter import presenter_for
    return presenter_for(variant).truth_scene(position)
