"""How a game meets a person: the :class:`Presenter` each game provides (no Qt here).

A presenter turns a seat's *view* into what the window draws and says, and a person's clicks, typing and
button presses into that game's actions. It is given views only, never a referee or the true state of a game
still being played, so nothing it makes can show a seat more than the seat was told. The window, the replay
viewer and the game controller ask the presenter of the game at hand instead of branching on the game's name.

A game's presenter is found through the registry (its definition's ``presenter``), and imported only when a game
of that kind is first shown:

>>> from app.games.presenter import presenter_for
>>> presenter = presenter_for(games.default().key)
>>> presenter.key == games.default().key
True
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, runtime_checkable

from app import games
from app.engine.core import Outcome
from app.games.move_input import InputError, parse_move_text
from app.games.scene import BoardScene, Cell, piece_words

if TYPE_CHECKING:
    from app.engine.core import Action, Seat

__all__ = ["BELIEF_PANEL", "Command", "InputError", "MarksChange", "Presenter", "PresenterBase", "ends_game",
           "presenter_for"]

BELIEF_PANEL = "belief"
"""The panel name of the belief board kit (a board of supposed enemy pieces, with its inference aids)."""


def ends_game(observation: object) -> bool:
    """Whether ``observation`` is the one that ends a game: every game's last observation carries the game's
    :class:`~app.engine.core.Outcome` (what its ``_game_over_observation`` makes), and no other does."""
    return isinstance(getattr(observation, "outcome", None), Outcome)


class Command(NamedTuple):
    """A button's worth of action a game offers now (pass, offer a draw ...): ``id`` is what the window hands
    back to :meth:`Presenter.command`; ``label`` is the button's text; ``enabled`` whether it may be used now.
    An ``anytime`` command changes only the seat's own marks (undo a mark), so the window lets the seat at the
    screen use it while another seat is to act; any other command only on the seat's own turn."""

    id: str
    label: str
    enabled: bool
    anytime: bool = False


class MarksChange(NamedTuple):
    """What a person's input means when it changes only the seat's private marks, not the game: the seat's
    marks as they are now (opaque JSON the game's presenter reads back, kept in the record with the seat's
    notes). A presenter's input hooks return it instead of an action (a cell of a deduction grid marked, a
    secret setup being arranged); the window stores it and draws again, and no referee or bot ever sees it.

    >>> MarksChange({"grid": {"3": "N"}}).marks
    {'grid': {'3': 'N'}}
    """

    marks: dict[str, Any] | None


@runtime_checkable
class Presenter(Protocol):
    """Everything the window needs from one game; each method is given a seat's view (what that seat knows).

    Squares are the scene's ``(file, rank)`` pairs, counted from White's lower left corner. A game that keeps
    private marks for a seat (:class:`MarksChange`) reads them in :meth:`bound`: the window asks
    ``presenter.bound(marks)`` for the seat at the screen and then calls that presenter; its input hooks may
    return a :class:`MarksChange` where they otherwise return an action.
    """

    key: str
    """The game's key in the registry (the ``variant`` of its records)."""

    def scene(self, view: Any) -> BoardScene:
        """The board as the view's seat knows it: pieces, marks, the moves or picks it may make now."""

    def truth_scene(self, truth: Any, last_move: Any = None) -> BoardScene:
        """Every piece of a true position (``Game.truth()``), with the move that led to it if given: only for a
        finished game or the replay's truth, never for a seat during play."""

    def describe(self, observation: Any, seat: Seat) -> str | None:
        """One line for the seat's log, or None for an observation not worth a line."""

    def move_list(self, view: Any) -> list[str]:
        """The seat's own moves with their results, one line per turn."""

    def on_square(self, view: Any, square: Cell) -> Action | MarksChange:
        """The action of picking ``square`` (a sense, in RBC); raises :class:`InputError` if picking means
        nothing now."""

    def on_zone(self, view: Any, zone_id: str, index: int) -> Action | MarksChange:
        """The action of clicking item ``index`` of the scene's zone ``zone_id`` (a card of a hand, a pile, a
        position of a track, a cell of a grid); raises :class:`InputError` if that means nothing now."""

    def on_move(self, view: Any, from_square: Cell, to_square: Cell, promotion: str | None) -> Action | MarksChange:
        """The action of moving a piece (clicked, dragged or typed), ``promotion`` a piece letter or None."""

    def parse_text(self, view: Any, text: str) -> Action:
        """The action typed as ``text``; raises :class:`InputError` saying why it is none."""

    def premove_scene(self, view: Any) -> BoardScene | None:
        """While another seat acts: the seat's board with the moves (``targets``) and senses (``sense_window``)
        it may queue for its next turn, as if that turn had begun (None: this game queues nothing). A queued move
        is given to :meth:`on_move` (a sense to :meth:`on_square`) with the seat's view once its turn comes, and
        played if the game then allows it. A game whose turn asks a pick before the move (RBC) may also answer
        during that pick: its ``targets`` are then the moves that may replace the one queued, played after it."""

    def commands(self, view: Any) -> list[Command]:
        """The buttons this game shows now, besides resigning (each seat may resign in every game)."""

    def command(self, view: Any, command_id: str) -> Action | MarksChange:
        """The action of the command ``command_id`` (an id :meth:`commands` listed)."""

    def entry_hint(self, view: Any) -> str:
        """What the typing field says while empty."""

    def prompt(self, view: Any) -> str:
        """The status line for the seat whose turn it is (``"Your move"``)."""

    def visible_clocks(self, seat: Seat, seat_count: int) -> list[Seat]:
        """The seats whose clocks ``seat`` may see."""

    def sounds(self, observation: Any, seat: Seat) -> tuple[str, ...]:
        """The sound cues (``app.ui.sounds.CUES``) an observation of ``seat`` means to that seat, such as "move",
        "capture", "captured", "failed", "sense", "check", "card", "start" and "end"."""

    def panels(self) -> frozenset[str]:
        """The extra panels this game offers a person (:data:`BELIEF_PANEL`)."""

    def describe_action(self, action: Mapping[str, Any]) -> str:
        """A recorded action (its JSON) in plain words, for the replay's list of every action ("move e2 to
        e4")."""

    def bound(self, marks: dict[str, Any] | None) -> "Presenter":
        """This presenter reading one seat's private ``marks`` (``None`` before the seat made any): the one the
        window calls for that seat's scene, commands and input. Games without marks return themselves."""


class PresenterBase:
    """Defaults for the parts of :class:`Presenter` most games share: every clock in sight, no extra panel, no
    command besides resigning, no off-board zone to click, and typed text read as a move of the board (``e2e4``,
    ``Nf3``)."""

    key: str = ""
    entry_text = "Type a move and press Enter"

    def scene(self, view: Any) -> BoardScene:
        raise NotImplementedError

    def on_move(self, view: Any, from_square: Cell, to_square: Cell, promotion: str | None) -> Action | MarksChange:
        raise NotImplementedError

    def on_square(self, view: Any, square: Cell) -> Action | MarksChange:
        raise InputError("choose a move, not a square")

    def on_zone(self, view: Any, zone_id: str, index: int) -> Action | MarksChange:
        # A game without zones never draws one, so a click on one can only come from a stale scene: refuse it.
        raise InputError("nothing there can be chosen now")

    def parse_text(self, view: Any, text: str) -> Action:
        scene = self.scene(view)
        from_square, to_square, promotion = parse_move_text(text, scene.pieces, scene.targets, scene.files,
                                                            scene.ranks)
        action = self.on_move(view, from_square, to_square, promotion)
        if isinstance(action, MarksChange):  # typing plays moves; a game's marks change by clicks only
            raise InputError("type a move, not a mark")
        return action

    def commands(self, view: Any) -> list[Command]:
        return []

    def premove_scene(self, view: Any) -> BoardScene | None:
        return None

    def command(self, view: Any, command_id: str) -> Action | MarksChange:
        raise InputError(f"this game has no command {command_id!r}")

    def entry_hint(self, view: Any) -> str:
        return self.entry_text

    def prompt(self, view: Any) -> str:
        return "Your move"

    def visible_clocks(self, seat: Seat, seat_count: int) -> list[Seat]:
        return list(range(seat_count))

    def sounds(self, observation: Any, seat: Seat) -> tuple[str, ...]:
        return ("end",) if ends_game(observation) else ()

    def panels(self) -> frozenset[str]:
        return frozenset()

    def describe_action(self, action: Mapping[str, Any]) -> str:
        """Any game's action in words: its kind, then its values, moves as "e2 to e4" and nothing as "none".

        >>> PresenterBase().describe_action({"type": "pick_piece", "square": "e2"})
        'pick piece e2'
        >>> PresenterBase().describe_action({"type": "move", "move": "e7e8q"})
        'move e7 to e8, becoming a queen'
        >>> PresenterBase().describe_action({"type": "uncloak", "checkers": []})
        'uncloak none'
        >>> PresenterBase().describe_action({"type": "move", "move": None})
        'move: none (a pass)'
        """
        data = dict(action)
        kind = str(data.pop("type", "?")).replace("_", " ")
        if "detail" in data:  # a game decided from outside (a flag fall, a failing bot, a match's limit)
            return f"the game was decided: {data['detail']}"
        words = [_value_words(value) for value in data.values() if value is not None]
        if data and not words:
            return f"{kind}: none (a pass)" if kind == "move" else f"{kind}: none"
        return " ".join([kind, *words])

    def bound(self, marks: dict[str, Any] | None) -> Presenter:
        return self  # type: ignore[return-value]  # a subclass completes the protocol


_MOVE = re.compile(r"^([a-z][1-9][0-9]?)-?([a-z][1-9][0-9]?)([qrbnk]?)$")


def _value_words(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(_value_words(item) for item in value) if value else "none"
    text = str(value)
    move = _MOVE.match(text)
    if move:
        origin, target, promotion = move.groups()
        return f"{origin} to {target}" + (f", becoming a {piece_words(promotion).split()[-1]}" if promotion else "")
    return text


def presenter_for(key: str) -> Presenter:
    """The presenter of the game ``key`` (imports it the first time); raises ``KeyError`` for an unknown game
    and ``LookupError`` for a game that has none."""
    definition = games.get(key)
    if definition.presenter is None:
        raise LookupError(f"the game {definition.title} has no presenter")
    presenter: Presenter = definition.presenter()
    return presenter
