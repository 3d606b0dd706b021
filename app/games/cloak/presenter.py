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

The presenter is one seat's marks read back, handing each question to the module of its job:
:mod:`~app.games.cloak.board_scene` (the board), :mod:`~app.games.cloak.grids` (the grids),
:mod:`~app.games.cloak.inputs` (clicks, drags and typing), :mod:`~app.games.cloak.commands` (buttons, prompts
and hints), :mod:`~app.games.cloak.sentences` (the log, the move list, actions in words), with
:mod:`~app.games.cloak.marks` (the private marks) and :mod:`~app.games.cloak.reading` (what a view says).

>>> from app.games.cloak.rules import CloakChess
>>> game = CloakChess()
>>> view = CloakView.from_observations(game.observations(0))
>>> [command.label for command in PRESENTER.commands(view)][:3]
['Random arrangement', 'Standard (RNBQKBNR)', 'Confirm arrangement']
>>> PRESENTER.parse_text(view, "rnbqkbnr")
Arrange(pieces='RNBQKBNR')
"""

from __future__ import annotations

from typing import Any, Mapping

import chess

from app.engine.core import Action, Seat
from app.games.cloak import board_scene, commands, inputs
from app.games.cloak.grids import zones
from app.games.cloak.marks import CloakMarks
from app.games.cloak.rules import CloakTruth
from app.games.cloak.sentences import action_words, cloak_moves, describe_cloak, sounds_of
from app.games.cloak.view import CloakView
from app.games.presenter import Command, MarksChange, PresenterBase
from app.games.scene import BoardScene, Cell, Zone
from app.games.cloak import DEFINITION

__all__ = ["PRESENTER", "CloakPresenter"]


class CloakPresenter(PresenterBase):
    """Cloak and Dagger for one seat, reading that seat's private marks (:meth:`bound`)."""

    key = DEFINITION.key
    entry_text = "Type a move (e2e4, Nf3, O-O), a guess (3=N), or your arrangement (RNBQKBNR)"

    def __init__(self, marks: CloakMarks | None = None) -> None:
        self.marks = marks or CloakMarks()

    def bound(self, marks: dict[str, Any] | None) -> CloakPresenter:
        return CloakPresenter(CloakMarks.read(marks))

    # -- what the board shows --------------------------------------------------------------------------------

    def scene(self, view: CloakView) -> BoardScene:
        return board_scene.scene(self.marks, view)

    def premove_scene(self, view: CloakView) -> BoardScene | None:
        return board_scene.premove_scene(self.marks, view)

    def zones(self, view: CloakView) -> list[Zone]:
        return zones(self.marks, view)

    def truth_scene(self, truth: CloakTruth, last_move: chess.Move | str | None = None) -> BoardScene:
        return board_scene.truth_scene(truth, last_move)

    # -- input (the base class's hooks say they return an action; a bound presenter may answer MarksChange) -----

    def on_zone(self, view: CloakView, zone_id: str, index: int) -> Action | MarksChange:
        return inputs.on_zone(self.marks, view, zone_id, index)

    def on_square(self, view: CloakView, square: Cell) -> Action | MarksChange:
        return inputs.on_square(self.marks, view, square)

    def on_move(self, view: CloakView, from_square: Cell, to_square: Cell,
                promotion: str | None) -> Action | MarksChange:
        return inputs.on_move(self.marks, view, from_square, to_square, promotion)

    def parse_text(self, view: CloakView, text: str) -> Action:
        return inputs.parse_text(self.marks, view, text)

    def commands(self, view: CloakView) -> list[Command]:
        return commands.commands(self.marks, view)

    def command(self, view: CloakView, command_id: str) -> Action | MarksChange:
        return commands.command(self.marks, view, command_id)

    # -- words ---------------------------------------------------------------------------------------------

    def prompt(self, view: CloakView) -> str:
        return commands.prompt(self.marks, view)

    def entry_hint(self, view: CloakView) -> str:
        return commands.entry_hint(view, self.entry_text)

    def sounds(self, observation: object, seat: Seat) -> tuple[str, ...]:
        own = sounds_of(observation, seat)
        return own if own is not None else super().sounds(observation, seat)

    def describe(self, observation: object, seat: Seat) -> str | None:
        return describe_cloak(observation, seat)

    def describe_action(self, action: Mapping[str, Any]) -> str:
        """Cloak and Dagger's actions in words (checkers by number, pieces by name).

        >>> PRESENTER.describe_action({"type": "guess", "checker": 3, "piece": "N"})
        'guess checker 3 is a knight'
        """
        words = action_words(action)
        return words if words is not None else super().describe_action(action)

    def move_list(self, view: CloakView) -> list[str]:
        return cloak_moves(view)


PRESENTER = CloakPresenter()
