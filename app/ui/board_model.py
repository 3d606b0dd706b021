"""What a board is told and what it holds: squares, marks, themes, and the one state its parts share.

The board widget (:mod:`app.ui.board_widget`) is made of parts, one per job, as Lichess's chessground is: input
(:mod:`app.ui.board_input`), the keyboard's cursor (:mod:`app.ui.board_keyboard`), glides
(:mod:`app.ui.board_animation`), off-board zones (:mod:`app.ui.board_zones`), words for tooltips and screen
readers (:mod:`app.ui.board_words`) and painting (:mod:`app.ui.board_painting`). They all read and write one
:class:`BoardState`, defined here with the small types they share, so that no part imports the widget.

Squares are ``(file, rank)`` tuples counted from 0: ``(0, 0)`` is a1. The state holds no chess rules: which
moves a piece may make comes from the window, as :attr:`BoardState.targets`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from app.ui.board_annotations import Annotations
from app.ui.board_drag import PieceDrag
from app.ui.board_geometry import Cell

__all__ = [
    "MARKER_KINDS",
    "SENSE_CONFIRM",
    "THEMES",
    "BoardState",
    "BoardTheme",
    "Cell",
    "Marker",
    "MoveTargets",
    "SenseWindow",
    "clipped_window",
    "square_name",
]

MoveTargets = dict[Cell, dict[Cell, list[str]]]
"""For each movable piece's square, its destinations and each destination's promotion letters."""

SenseWindow = Callable[[Cell], list[Cell]]
"""Given the hovered square, the squares a sense there would show."""

MARKER_KINDS = ("sense", "sense_old", "reveal", "seen_old", "lost", "captured", "premove")
"""What a :class:`Marker` can show (see :class:`Marker`)."""

SENSE_CONFIRM = ("one click", "second click", "hold")
"""How a square is picked on the board whenever the scene asks for a pick (RBC's sense, a removal, a Split-Brain
pick, a checker to uncloak): at the first click, at a second click on the same square (the first only shows the
window chosen, labelled "again"), or by holding the button down for :data:`app.ui.board_input.HOLD_MS`
(labelled "hold")."""


def square_name(square: Cell) -> str:
    """The algebraic name of a square.

    >>> square_name((4, 3)), square_name((0, 0))
    ('e4', 'a1')
    """
    return f"{chr(ord('a') + square[0])}{square[1] + 1}"


def clipped_window(square: Cell, files: int, ranks: int, radius: int = 1) -> list[Cell]:
    """The ``(2 * radius + 1)``-square window centred on ``square``, clipped at the board edges.

    >>> clipped_window((0, 0), 8, 8)
    [(0, 0), (0, 1), (1, 0), (1, 1)]
    """
    file, rank = square
    return [
        (f, r)
        for f in range(max(0, file - radius), min(files, file + radius + 1))
        for r in range(max(0, rank - radius), min(ranks, rank + radius + 1))
    ]


@dataclass(frozen=True)
class Marker:
    """A group of squares to highlight, with an optional small label such as the turn ``"t12"``.

    ``kind`` is one of :data:`MARKER_KINDS`:

    - ``"sense"``: the latest sense window, outlined strongly (label in its top-right corner);
    - ``"sense_old"``: an older sense window, dashed and faded;
    - ``"reveal"``: squares where an enemy piece was seen;
    - ``"seen_old"``: squares of enemy pieces seen some turns ago: the pieces drawn faded, the label grey;
    - ``"lost"``: squares where this seat lost a piece;
    - ``"captured"``: squares where this seat captured;
    - ``"premove"``: a move or sense queued while a bot thinks (a right click on the board cancels it).

    ``opacity`` (0 to 1) fades the whole marker. Squares may be any sequence; they are
    stored as a tuple.

    >>> Marker("lost", [(4, 3)], "t12").squares
    ((4, 3),)
    """

    kind: str
    squares: tuple[Cell, ...]
    label: str = ""
    opacity: float = 1.0

    def __post_init__(self) -> None:
        if self.kind not in MARKER_KINDS:
            raise ValueError(f"unknown marker kind {self.kind!r} (expected one of {', '.join(MARKER_KINDS)})")
        object.__setattr__(self, "squares", tuple((int(f), int(r)) for f, r in self.squares))
        object.__setattr__(self, "opacity", min(1.0, max(0.0, float(self.opacity))))


@dataclass(frozen=True)
class BoardTheme:
    """Square colours of a board theme (``#rrggbb``)."""

    name: str
    light: str
    dark: str


THEMES: dict[str, BoardTheme] = {
    theme.name: theme
    for theme in (
        BoardTheme("brown", "#f0d9b5", "#b58863"),
        BoardTheme("blue", "#dee3e6", "#8ca2ad"),
        BoardTheme("green", "#ffffdd", "#86a666"),
        BoardTheme("grey", "#e4e4e4", "#a8a8a8"),
    )
}
"""The themes :meth:`~app.ui.board_widget.BoardWidget.set_theme` knows, by name."""


@dataclass
class BoardState:
    """Everything a board shows and the input under way, shared by the widget's parts.

    What the window gives (through the widget's setters): the size, pieces, marks, the moves a seat may try and
    the modes. What input makes of it: the chosen piece, the press under way, a pick waiting for its
    confirmation, the square under the pointer in pick mode, the keyboard's cursors, a promotion being chosen.
    """

    files: int = 0
    ranks: int = 0
    theme: BoardTheme = THEMES["brown"]
    flipped: bool = False
    coordinates: bool = True
    pieces: dict[Cell, str] = field(default_factory=dict)
    last_seen: frozenset[Cell] = frozenset()  # squares of pieces shown as last seen (they never glide)
    piece_notes: dict[Cell, str] = field(default_factory=dict)  # what a tooltip says of a piece instead of its name
    ghosts: dict[Cell, str] = field(default_factory=dict)
    heat: dict[Cell, float] = field(default_factory=dict)
    heat_values: bool = False
    flags: dict[Cell, str] = field(default_factory=dict)
    targets: MoveTargets = field(default_factory=dict)
    last_move: tuple[Cell, Cell] | None = None
    markers: list[Marker] = field(default_factory=list)
    interactive: bool = True
    annotations_enabled: bool = True
    notes: Annotations = field(default_factory=Annotations)
    # Pick ("sense") mode.
    sense_enabled: bool = False
    sense_window: SenseWindow | None = None
    sense_confirm: str = "one click"
    sense_hover: Cell | None = None
    hover_window: list[Cell] = field(default_factory=list)
    proposed: Cell | None = None  # a pick waiting for its confirmation (second click or hold)
    proposed_by_key: bool = False  # proposed with Enter: confirmed by Enter again, whatever the mouse's way
    # Selection, the press under way, a promotion being chosen.
    selected: Cell | None = None
    press_was_selected: bool = False
    drag: PieceDrag = field(default_factory=PieceDrag)
    pending: tuple[Cell, Cell] | None = None  # a move waiting for its promotion's choice
    dropped: tuple[Cell, Cell] | None = None  # the move of the last drag and drop: that piece is already there
    # The keyboard's cursors: a square, or an item beside the board (zone id, item index).
    cursor: Cell | None = None
    zone_cursor: tuple[str, int] | None = None

    def on_board(self, square: Cell) -> bool:
        """Whether ``square`` lies on the board."""
        return 0 <= square[0] < self.files and 0 <= square[1] < self.ranks

    def pick_window(self, square: Cell) -> list[Cell]:
        """The squares a pick (a sense) on ``square`` would show, on the board."""
        if self.sense_window is None:
            return clipped_window(square, self.files, self.ranks)
        return [s for s in self.sense_window(square) if self.on_board(s)]

    def proposed_window(self) -> list[Cell]:
        """The window of the pick waiting for its confirmation (empty when none waits)."""
        return [] if self.proposed is None else self.pick_window(self.proposed)

    def move_press(self, square: Cell) -> bool:
        """Whether a left press on ``square`` belongs to a move while the board also takes picks (a scene with
        both, as RBC's queue while the bot thinks): a press on a piece that may move, or any press while a piece is
        chosen (a square it cannot go to drops the choice, as in a move). Elsewhere the press is a pick."""
        return bool(self.targets) and (square in self.targets or self.selected is not None)

    def may_go(self, origin: Cell, square: Cell) -> bool:
        """Whether the piece on ``origin`` may go to ``square`` (a different square)."""
        return square != origin and square in self.targets.get(origin, {})

    def something_to_drop(self) -> bool:
        """A chosen piece, a pick waiting for its confirmation or an arrow begun from the keyboard."""
        return self.selected is not None or self.proposed is not None or self.notes.draft_from is not None

    def clear_content(self) -> None:
        """Forgets what the board showed (a new board size): pieces, marks, targets, the player's arrows."""
        self.pieces.clear()
        self.ghosts.clear()
        self.heat.clear()
        self.flags.clear()
        self.targets = {}
        self.markers = []
        self.last_move = None
        self.notes = Annotations()
        self.zone_cursor = None
