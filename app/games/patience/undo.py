"""Undo and redo for a solitaire: actions like any other, so the record keeps them and a replay is exact, and
nothing the player did is ever lost (an undone action stays in the record, followed by its ``undo``).

A referee keeps an :class:`UndoHistory` of snapshots of its own state (anything it can restore from: the
history never looks inside). After each action it calls :meth:`UndoHistory.done` with the state before and after,
and whether the action turned a card face up. Undo goes back one action at a time, but never past an action that
showed a card: a card once seen stays seen, so the history is cleared there (and at the start, where the deal
shows its cards). Redo replays undone actions in order until a new action is taken, which drops them.

The referee answers :class:`Undo` and :class:`Redo` itself (list them in its ``actions``), restoring the snapshot
the history hands back and telling the player what the position is now; ``can_undo`` / ``can_redo`` say whether
to offer them (in ``choices()`` under ``"undo"`` and ``"redo"``, which bots leave alone).

>>> history = UndoHistory()
>>> history.done("a", "b", reveals=False); history.done("b", "c", reveals=False)
>>> history.undo(), history.undo(), history.can_undo
('b', 'a', False)
>>> history.redo(), history.can_redo
('b', True)
>>> history.done("b", "d", reveals=True)  # a card turned up: nothing before it can be undone, nor redone
>>> history.can_undo, history.can_redo
(False, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Generic, TypeVar

from app.engine.core import Action

__all__ = ["Redo", "Undo", "UndoHistory"]

S = TypeVar("S")


@dataclass(frozen=True)
class Undo(Action):
    """Take back the last action (not past a card turned face up)."""

    kind: ClassVar[str] = "undo"


@dataclass(frozen=True)
class Redo(Action):
    """Play again the last action undone (while no other action came after the undo)."""

    kind: ClassVar[str] = "redo"


class UndoHistory(Generic[S]):
    """The snapshots undo and redo move between; a snapshot is whatever the referee restores its state from."""

    def __init__(self) -> None:
        self._undo: list[tuple[S, S]] = []
        self._redo: list[tuple[S, S]] = []

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    @property
    def depth(self) -> int:
        """How many actions can be undone now."""
        return len(self._undo)

    def done(self, before: S, after: S, reveals: bool) -> None:
        """An action took the state from ``before`` to ``after``; ``reveals``: it turned a card face up."""
        self._redo.clear()
        if reveals:
            self._undo.clear()
        else:
            self._undo.append((before, after))

    def undo(self) -> S:
        """The state to go back to (``IndexError`` when there is none: check :attr:`can_undo`)."""
        pair = self._undo.pop()
        self._redo.append(pair)
        return pair[0]

    def redo(self) -> S:
        """The state the last undone action led to (``IndexError`` when there is none)."""
        pair = self._redo.pop()
        self._undo.append(pair)
        return pair[1]

    def clear(self) -> None:
        self._undo.clear()
        self._redo.clear()
