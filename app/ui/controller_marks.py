"""Each person's private notes in a game: the arrows and circles drawn on the board, the game's own marks (a
deduction grid ...) and the belief board with its panel switches, kept in the record as they change.

:class:`SeatNotes` belongs to a :class:`~app.ui.game_controller.GameController`. Every note is its seat's own:
the window shows a seat's notes only while that seat's person is at the screen, and a bot is never given them.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Signal

from app import games
from app.engine.belief import BeliefBoard
from app.engine.core import Seat
from app.engine.record import GameSession
from app.games.presenter import BELIEF_PANEL, Presenter
from app.games.scene import Cell
from app.ui.belief_panel import BeliefSwitches, SeatBelief
from app.ui.board_annotations import annotations_from_json, annotations_to_json

Annotations = tuple[list[tuple[Cell, Cell]], list[Cell]]
"""A seat's arrows (from, to) and circles."""


class SeatNotes(QObject):
    """The people's notes of one game. ``saveDue``: a note worth keeping changed in the record (save the game)."""

    saveDue = Signal()

    def __init__(self, session: GameSession, presenter: Presenter, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.presenter = presenter
        # Each seat's own arrows and circles and belief board (with its panel switches), kept while the other
        # seat is at the screen.
        self.annotations: dict[Seat, Annotations] = {}
        self.beliefs: dict[Seat, SeatBelief] = {}

    def restore(self, variant: str, seat_count: int) -> None:
        """Take each seat's arrows, circles and belief board from the record's notes (a continued game)."""
        for seat in range(seat_count):
            notes = self.session.notes(seat)
            self.annotations[seat] = annotations_from_json(notes.annotations)
            if notes.hypotheses is not None and BELIEF_PANEL in self.presenter.panels():
                try:
                    # The enemy is White for a seat whose board is turned (Black's), as in every chess game.
                    enemy = games.get(variant).seats[seat].flipped
                    board = BeliefBoard.from_json(notes.hypotheses, enemy=enemy, ply=self.session.game.ply)
                except ValueError:
                    continue  # a damaged belief board is dropped; the game itself goes on
                self.adopt_belief(seat, board)

    def belief_for(self, seat: Seat) -> SeatBelief:
        """The belief board of a person's seat (bots never get one), with the seat's own panel switches."""
        belief = self.beliefs.get(seat)
        if belief is None:
            belief = self.adopt_belief(seat, BeliefBoard(enemy=seat != 0))
        return belief

    def adopt_belief(self, seat: Seat, board: BeliefBoard) -> SeatBelief:
        """Make ``board`` the seat's, with the switches its notes hold (all off in a new game)."""
        belief = SeatBelief.holding(board, BeliefSwitches.from_json(self.session.notes(seat).switches))
        belief.on_switches_changed = lambda: self.switches_changed(seat)
        self.beliefs[seat] = belief
        return belief

    def belief_changed(self, seat: Seat) -> None:
        """The seat edited its belief board (the panel changed it in place): keep it in the record."""
        belief = self.beliefs.get(seat)
        if belief is not None and self.session.set_notes(seat, hypotheses=belief.to_json()):
            self.saveDue.emit()

    def switches_changed(self, seat: Seat) -> None:
        """The seat turned one of its belief panel's aids on or off: keep it in the record."""
        belief = self.beliefs.get(seat)
        if belief is not None and self.session.set_notes(seat, switches=belief.switches.to_json()):
            self.saveDue.emit()

    def set_marks(self, seat: Seat, marks: dict[str, Any] | None) -> bool:
        """Keep the seat's private marks (the game's own notes) in the record; False when they did not change.
        Raises ValueError for marks that are not JSON (the game's bug: they are not kept)."""
        changed = self.session.set_notes(seat, marks=marks)
        if changed:
            self.saveDue.emit()
        return changed

    def annotations_changed(self, seat: Seat) -> None:
        """The seat drew or removed an arrow or circle: keep it in the record."""
        arrows, circles = self.annotations.get(seat, ([], []))
        if self.session.set_notes(seat, annotations=annotations_to_json(arrows, circles)):
            self.saveDue.emit()

    def clear_opponents(self, mover: Seat) -> None:
        """When a seat acts, its opponents' arrows and circles go (as on Lichess, where a move clears the board's
        drawings): they were drawn for the position before it. Partners keep theirs."""
        teams = self.session.game.teams()
        for seat, (arrows, circles) in list(self.annotations.items()):
            if teams[seat] != teams[mover] and (arrows or circles):
                self.annotations[seat] = ([], [])
                self.annotations_changed(seat)
