"""What the board says in words: a square's tooltip, and what a screen reader hears of the board and its cursor.

Built from the board's :class:`~app.ui.board_model.BoardState` only, so a tooltip never tells more than the
board shows.
"""

from __future__ import annotations

from app.ui import pieces
from app.ui.board_model import BoardState, Cell, square_name
from app.ui.heat import percent

__all__ = ["board_description", "cursor_words", "describe_square"]

# What a tooltip calls each kind of marker.
_MARKER_WORDS = {
    "sense": "sensed",
    "sense_old": "sensed earlier",
    "reveal": "enemy piece seen",
    "seen_old": "",  # the piece's note says when it was seen
    "lost": "piece lost",
    "captured": "captured",
    "premove": "queued",
}


def describe_square(state: BoardState, square: Cell) -> str:
    """The square's tooltip: its name, its piece or ghost, a flag's reason, the heat and its markers."""
    parts = [square_name(square)]
    note = state.piece_notes.get(square) if square in state.pieces else None  # names its square itself
    if square in state.pieces:
        parts.append(pieces.piece_name(state.pieces[square]))
    elif square in state.ghosts:
        parts.append(f"maybe a {pieces.piece_name(state.ghosts[square])}")
    if square in state.flags:
        parts.append(f"contradicted: {state.flags[square]}")
    if square in state.heat:
        parts.append(f"enemy piece here: {percent(state.heat[square])}")
    for marker in state.markers:
        if square in marker.squares:
            word = _MARKER_WORDS[marker.kind]
            if word:
                parts.append(f"{word} ({marker.label})" if marker.label else word)
    return (note or ": ".join(parts[:2])) + ("; " + "; ".join(parts[2:]) if len(parts) > 2 else "")


def cursor_words(state: BoardState, square: Cell) -> str:
    """What a screen reader hears when the keyboard's cursor comes to ``square``: the tooltip, "empty" for an
    empty square, and what Enter would do there."""
    words = describe_square(state, square)
    if square not in state.pieces and square not in state.ghosts:
        words = words.replace(square_name(square), f"{square_name(square)}, empty", 1)
    if state.selected is not None and square in state.targets.get(state.selected, {}):
        words += "; the chosen piece may move here (Enter)"
    elif square in state.targets:
        words += "; it may move (Enter to choose it)"
    elif state.sense_enabled and state.interactive:
        words += "; Enter twice picks here" if state.sense_confirm != "one click" else "; Enter picks here"
    return words


def board_description(state: BoardState, zone_words: str = "") -> str:
    """The board for a screen reader: its size and every piece shown, then the zones' own words."""
    shown = ", ".join(
        f"{pieces.piece_name(letter)} {square_name(square)}" for square, letter in sorted(state.pieces.items())
    )
    return f"{state.files} by {state.ranks} board. {shown or 'No pieces shown.'}{zone_words}"
