"""What the board shows for one seat: a plain description built from that seat's view only.

This module has no Qt: the game window turns a :class:`BoardScene` into calls on the board widget. Each game's
presenter (:mod:`app.games.presenter`) makes the scenes of that game; because a scene is made from a seat's
*view* (its observations), a hidden enemy piece cannot reach the widget at all.

>>> from app import games
>>> from app.engine.rbc import ReconChess, ReconChessView
>>> key = games.default().key
>>> scene = SCENES[key](ReconChessView.from_observations(ReconChess().observations(0)))
>>> len(scene.pieces), scene.pieces[(4, 0)], (4, 7) in scene.pieces
(16, 'K', False)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Callable

Square = tuple[int, int]  # (file, rank), 0-based


@dataclass(frozen=True)
class MarkerSpec:
    """A highlighted group of squares: ``kind`` is sense, sense_old, reveal, lost or captured."""

    kind: str
    squares: tuple[Square, ...]
    label: str = ""
    opacity: float = 1.0


@dataclass
class BoardScene:
    """One board as the window draws it: ``files`` x ``ranks`` squares, the piece letters on them (upper case
    White), marked squares, the moves that may be made now (``targets``: from -> to -> promotion letters), the
    last move, and ``sense_window`` when the seat must pick a square (it names the squares a pick covers)."""

    files: int = 8
    ranks: int = 8
    pieces: dict[Square, str] = field(default_factory=dict)
    targets: dict[Square, dict[Square, list[str]]] = field(default_factory=dict)
    markers: list[MarkerSpec] = field(default_factory=list)
    last_move: tuple[Square, Square] | None = None
    sense_window: Callable[[Square], list[Square]] | None = None


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
