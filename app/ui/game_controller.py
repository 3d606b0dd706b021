"""One game in the window: the session, the seats (people or bots), the curtain between hot-seat players.

The controller owns the referee; everything it hands the window is derived from
the view of the seat whose player is at the screen (``screen_seat``). While the
curtain is up, ``screen_seat`` is ``None`` and there is nothing private to show. The
curtain falls only in a game with hidden information (``curtained``); in one without, the screen passes with
the turn.

Its jobs are shared with collaborators it owns: each seat's view, log and cues (:mod:`app.ui.controller_views`),
the clocks (:mod:`app.ui.controller_clocks`), the bots' seats (:mod:`app.ui.controller_bots`), the premoves
(:mod:`app.ui.controller_premoves`) and the people's notes: arrows, circles, marks and belief boards
(:mod:`app.ui.controller_marks`). The controller decides the turns, the curtain and what each screen shows.
"""

from __future__ import annotations

import random
from typing import Any, Callable

from PySide6.QtCore import QObject, QTimer, Signal

from app import games
from app.engine.clock import TimeControl
from app.engine.core import Action, Adjudication, IllegalAction, Outcome, Reason, Resign, Seat
from app.engine.record import GameRecord, GameSession, PlayerInfo, resume
from app.games.describe import outcome_headline
from app.games.presenter import Command, InputError, MarksChange, Presenter, presenter_for
from app.games.scene import BoardScene, Cell, MarkerSpec
from app.ui.belief_panel import SeatBelief
from app.ui.controller_bots import BotSeats, SeatConfig, seats_of_record
from app.ui.controller_clocks import CLOCK_SAVE_SECONDS, LOW_TIME, GameClocks
from app.ui.controller_marks import SeatNotes
from app.ui.controller_premoves import Premove, Premoves
from app.ui.controller_views import SeatCues, SeatViews
from app.ui.seat_screen import SeatScreen

__all__ = ["BACK_TO_GAME", "CLOCK_SAVE_SECONDS", "END_OF_TURN_SECONDS", "LOW_TIME", "PASS_SCREEN",
           "GameController", "SeatConfig"]

PASS_SCREEN = "pass_screen"
"""The command that hands the screen on at the end of a turn in hot-seat (:attr:`GameController.end_of_turn`)."""
BACK_TO_GAME = "back_to_game"
"""The command that ends looking back through the move list (:meth:`GameController.look_back`)."""
END_OF_TURN_SECONDS = 1.5
"""How long the mover sees the end of their turn before the curtain falls, when they chose "moment"."""
NO_CURTAIN = "Nothing in this game is hidden: the players share the screen without a curtain."
"""Said in each person's log at the start of a hot-seat game that needs no curtain
(:attr:`GameController.curtained`)."""


class GameController(QObject):
    changed = Signal()  # redraw: the scene, the log, the clocks or the buttons may differ
    clocksChanged = Signal()  # only the time shown has moved on
    curtainChanged = Signal()
    gameOver = Signal(object)  # Outcome
    thinkingChanged = Signal(bool)
    soundCue = Signal(str)  # a cue (app.ui.sounds.CUES) for the person at the screen, to be played now

    def __init__(self, variant: str, seats: list[SeatConfig], control: TimeControl,
                 options: dict[str, Any] | None = None, seed: int | None = None,
                 parent: QObject | None = None, session: GameSession | None = None,
                 extra: dict[str, Any] | None = None) -> None:
        super().__init__(parent)
        self.variant = variant
        self.presenter: Presenter = presenter_for(variant)
        """How this game is shown and played by a person (scenes, sentences, commands)."""
        self.seats = seats
        if session is not None:
            seed = session.record.seed
        self.seed = random.randrange(2**31) if seed is None else seed
        if session is None:
            players = [PlayerInfo(seat.name, "bot" if seat.is_bot else "human", seat.spec) for seat in seats]
            game = games.referee(variant).from_options(options or {})
            session = GameSession(game, control, players, self.seed, start_clock=False)
            session.record.extra.update(extra or {})
        self.session = session
        self.game = session.game
        self.autosave: Callable[[GameSession], object] | None = None  # called after every change worth keeping
        self.hot_seat = sum(not seat.is_bot for seat in seats) > 1
        self.curtained = self.hot_seat and games.get(variant).hidden_information
        """Whether the curtain falls when the screen passes between people: in hot-seat, for a game with hidden
        information. In a game without, nothing is private to a seat, so the screen simply passes to the next
        person (each person's own arrows, marks and belief board still show only while their seat is at the
        screen, as always; they are not secret from someone looking at the same screen)."""
        humans = [index for index, seat in enumerate(seats) if not seat.is_bot]
        first = self.game.to_move if self.game.to_move in humans else (humans[0] if humans else 0)
        self.screen_seat: Seat | None = None if self.curtained else first
        self.curtain_for: Seat | None = None
        # Sound cues wait with their seat until its person is at the screen; a game of bots alone is watched from
        # the seat on the screen, and heard from it too.
        self._cues = SeatCues(humans or [self.screen_seat or 0])
        self.known = SeatViews(variant, self.presenter, len(seats), humans or [self.screen_seat or 0])
        """Each seat's view and log, from its own observations."""
        self.views, self.logs = self.known.views, self.known.logs
        self.looking_back: int | None = None
        """The move-list line whose moment the seat at the screen is looking back at (its board and log as they
        were then); None: the present. Any news for that seat, or a change of seat, returns to the present."""
        self.notes = SeatNotes(session, self.presenter, parent=self)
        self.notes.saveDue.connect(self._save)
        self.annotations, self.beliefs = self.notes.annotations, self.notes.beliefs
        self._premoves = Premoves()
        self.clocks = GameClocks(session, self._listener, parent=self)
        self.clocks.timeUp.connect(self._after)
        self.clocks.lowTime.connect(lambda: self.soundCue.emit("low_time"))
        self.clocks.moved.connect(self.clocksChanged)
        self.clocks.saveDue.connect(self._save)
        self.bots = BotSeats(session, parent=self)
        self.bots.answered.connect(self._bot_answered)
        self.bots.failed.connect(self._bot_failed)
        self.bots.thinkingChanged.connect(self.thinkingChanged)
        self.end_of_turn = "at once"
        """How a turn ends in hot-seat: "moment" (the mover sees its result for :data:`END_OF_TURN_SECONDS`),
        "button" (until "Pass the screen") or "at once"; the window sets the player's choice."""
        self.passing_to: Seat | None = None
        """In hot-seat, the seat the screen passes to once the mover has seen the end of their turn."""
        self._pass_timer = QTimer(self)
        self._pass_timer.setSingleShot(True)
        self._pass_timer.timeout.connect(self.pass_screen)
        self.answering_bot = False
        """True while a bot's answer is being taken in: the window may then redraw a moment later, in a pass of
        the event loop of its own (a bot answering at once would otherwise hold the loop for the referee's work
        and the whole redraw in one go)."""

    leave_words = ("The game is not finished. Quit anyway? It is kept, and Sightline offers to continue it when it "
                   "starts again.")
    """What closing the window asks while the game goes on (a network game's seat says what leaving it does)."""

    @classmethod
    def from_record(cls, record: GameRecord, parent: QObject | None = None) -> "GameController":
        """Continue a saved, unfinished game: same step, phase, clocks, annotations and belief boards.

        Raises :class:`~app.engine.record.RecordError` for a record that cannot be continued.
        """
        seats = seats_of_record(record)
        session = resume(record, start_clock=False)
        controller = cls(record.variant, seats, record.clock, record.options, record.seed, parent, session=session)
        controller.notes.restore(record.variant, len(seats))
        return controller

    @property
    def inference_allowed(self) -> bool:
        """Whether the players may see inference (heat map, position count): a game option, the same for both."""
        return bool(self.session.record.extra.get("inference", True))

    @property
    def premoves(self) -> list[Premove]:
        """Moves and senses a person queued while a bot thinks (kind "move" or "sense", what, words, squares): at
        most one of each, played when the person's turn comes if the game still allows them."""
        return self._premoves.items

    # -- lifecycle ------------------------------------------------------------------------------
    def start(self) -> None:
        self.bots.start(self.seats, self.variant, self.seed)
        fresh = not self.session.record.entries
        self._update_views(with_sounds=False)  # a resumed game's past is not played again
        if fresh and self.game.outcome is None:
            self._cues.add_all("start")
        self._play_cues()
        if not self.curtained:
            self.session.start_clock()  # behind a curtain the first clock starts when the curtain lifts
        if self.hot_seat and not self.curtained:
            for seat, config in enumerate(self.seats):
                if not config.is_bot:
                    self.logs[seat].append(NO_CURTAIN)
        self.clocks.start()
        self._next()

    def stop(self) -> None:
        self.clocks.stop()
        self._pass_timer.stop()
        self.bots.stop()

    @property
    def outcome(self) -> Outcome | None:
        return self.game.outcome

    # -- what the window may show ------------------------------------------------------------------
    def scene(self) -> BoardScene:
        """The board for the seat at the screen; an empty board behind the curtain."""
        if self.screen_seat is None:
            return self.empty_scene()
        scene = self.presenter_of(self.screen_seat).scene(self.views[self.screen_seat])
        if self.game.to_move != self.screen_seat or self.curtain_for is not None:
            ahead = self._premove_scene()
            if ahead is None:
                scene.targets, scene.sense_window = {}, None
            else:
                scene = ahead
                if self._premoves.has("sense"):
                    scene.sense_window = None  # one sense a turn: the queued one (a right click takes it back)
        else:
            after = self._after_pick_scene()
            if after is not None:  # the queued move may still be changed on the board before the pick
                scene.targets = after.targets
        scene.markers.extend(MarkerSpec("premove", squares) for squares in self._premoves.squares())
        self._premoves.show(scene)
        return scene

    # -- premoves ----------------------------------------------------------------------------------
    def _premove_scene(self) -> BoardScene | None:
        """The board on which the person at the screen may queue a move or sense for its next turn: only against
        bots (never at one computer), while a bot is to act; None otherwise."""
        seat = self.screen_seat
        if seat is None or self.hot_seat or not self._at_screen() or self.looking_back is not None \
                or self.game.to_move is None or self.game.to_move == seat:
            return None
        return self.presenter_of(seat).premove_scene(self.views[seat])

    def _after_pick_scene(self) -> BoardScene | None:
        """On the person's own turn, while a move queued during the bot's turn waits for the pick the turn asks
        first: the board of the moves that may replace it (see :meth:`Premoves.after_pick`), else None."""
        seat = self.screen_seat
        if seat is None or self.game.to_move != seat or self.curtain_for is not None or self.looking_back is not None:
            return None
        return self._premoves.after_pick(self.presenter_of(seat), self.views[seat])

    def _queue_premove(self, kind: str, what: Any) -> bool:
        """Queue the person's move (``what`` = (from, to, promotion)), sense (a square) or card (a zone's id and the
        card's index) while a bot thinks, in place of one of that kind queued before; False when nothing may be
        queued now. A queued move may also be replaced on the person's own turn, before the pick it waits for."""
        ahead = self._premove_scene()
        if ahead is None and kind == "move":
            ahead = self._after_pick_scene()
        if ahead is None or not self._premoves.add(ahead, kind, what):
            return False
        self.changed.emit()
        return True

    def queue_typed(self, text: str) -> bool:
        """Typed ``text`` while a bot is to act: queued as a premove, as the same move or pick made on the board
        would be (see :meth:`Premoves.add_typed`). False when nothing may be queued now (the game then reads the
        text itself); raises :class:`InputError` saying why the text names nothing the next turn could take."""
        ahead = self._premove_scene()
        if ahead is None:
            return False
        self._premoves.add_typed(ahead, text)
        self.changed.emit()
        return True

    def cancel_premoves(self) -> bool:
        """Forget the queued moves and senses (a right click, Esc); False when there were none."""
        if not self._premoves.clear():
            return False
        self.changed.emit()
        return True

    def _play_premove(self) -> None:
        """The person's turn has come: play the first queued item the turn takes now (a sense in a sense phase, a
        move once moves are asked for); a move the game no longer allows is dropped, with a line in the log."""
        seat = self.screen_seat
        if not self.premoves or seat is None or self.game.to_move != seat or self.hot_seat:
            return
        now = self.presenter_of(seat).scene(self.views[seat])  # what the turn takes now (no queued move's board)
        taken = self._premoves.take(now)
        if taken is not None and taken[1] is not None:
            self._human_input(taken[1])
        elif taken is not None:
            self.logs[seat].append(f"Premove {taken[0]} dropped: it is no longer possible.")
            self.soundCue.emit("failed")
            self.changed.emit()

    def empty_scene(self) -> BoardScene:
        """The board of nobody: the game's squares with nothing on or beside them (the size is public: the
        game's definition says it; a game defining none is asked for the size of a view that knows nothing)."""
        size = games.get(self.variant).board
        if size is None:
            known = self.presenter.scene(self.empty_view())
            size = (known.files, known.ranks)
        return BoardScene(files=size[0], ranks=size[1])

    def seat_screen(self, scene: BoardScene | None = None) -> SeatScreen:
        """Everything the seat at the screen may see now (``scene`` instead of its board if given: the true
        position once the game is over); nobody's screen behind the curtain."""
        seat = self.screen_seat
        if seat is None:
            return self.nobody_screen()
        if self.looking_back is not None and scene is None:
            return self._past_screen(seat, self.looking_back)
        return SeatScreen(seat, self.scene() if scene is None else scene, self.views[seat], self.status(),
                          tuple(self.logs[seat]), tuple(self.move_list()), tuple(self.clock_text()),
                          tuple(self.commands()), self.entry_hint())

    def _past_screen(self, seat: Seat, line: int) -> SeatScreen:
        """The seat's screen as it was when move-list line ``line`` was written: its board and log rebuilt from
        its own first observations (nothing else), today's clocks, no move to make; "Back to the game" the only
        command."""
        past, log, number = self.known.past(seat, line, self.game.observations(seat))
        scene = self.presenter_of(seat).scene(past)
        scene.targets, scene.sense_window = {}, None
        commands = [command._replace(enabled=False) for command in self.presenter_of(seat).commands(self.views[seat])]
        status = (f"Looking back at move {number}, as you knew it then: the game goes on meanwhile "
                  "(End or Esc: back to the game)")
        return SeatScreen(seat, scene, self.views[seat], status, log, tuple(self.move_list()),
                          tuple(self.clock_text()), (Command(BACK_TO_GAME, "Back to the game", True), *commands),
                          self.entry_hint(), looking_at=line)

    def look_back(self, line: int | None) -> None:
        """Show the seat at the screen its board and log as they were at move-list line ``line`` (None, or the
        newest line when nothing came after it: the present). The game is not changed."""
        seat = self.screen_seat
        if seat is None or self.curtain_for is not None:
            return
        if line is not None and not 0 <= line < self.known.line_count(seat):
            return
        if line is not None and self.known.is_present(seat, line):
            line = None  # the newest line, with nothing told since: that is the present
        if line != self.looking_back:
            self.looking_back = line
            self.changed.emit()

    def step_back(self, how: str) -> None:
        """Step through the seat's move list: "back", "forward", "first" or "present"."""
        if self.screen_seat is not None:
            self.look_back(self.known.stepped(self.screen_seat, how, self.looking_back))

    def nobody_screen(self) -> SeatScreen:
        """What the window shows while no seat is at the screen: nothing private of any seat."""
        view = self.empty_view()
        commands = tuple(command._replace(enabled=False) for command in self.presenter.commands(view))
        status = self.status() if self.screen_seat is None else ""
        return SeatScreen.nobody(self.empty_scene(), view, status, commands, self.presenter.entry_hint(view))

    def log(self) -> list[str]:
        return [] if self.screen_seat is None else self.logs[self.screen_seat]

    def clock_text(self) -> list[tuple[str, str, bool]]:
        """(label, time, low) lines the seat at the screen may see (the game says which: in RBC only its own).

        ``low`` marks a running-down clock under :data:`LOW_TIME` seconds (the window warns in red).
        """
        if self.screen_seat is None:
            return []
        seats = self.presenter.visible_clocks(self.screen_seat, len(self.seats))
        return self.clocks.lines(seats, self.game.seat_names)

    def truth_scene(self) -> BoardScene | None:
        """The true final position with every piece, once the game is over (post-game review); else None."""
        if self.game.outcome is None:
            return None
        return self.presenter.truth_scene(self.game.truth())

    def move_list(self) -> list[str]:
        """The moves of the seat at the screen, with their results."""
        seat = self.screen_seat
        return [] if seat is None else self.presenter_of(seat).move_list(self.views[seat])

    def status(self) -> str:
        outcome = self.game.outcome
        if outcome is not None:
            winner = outcome_headline(outcome, [seat.name for seat in self.seats], self.game.teams(), past=True,
                                      sentence_start=False)
            return f"Game over: {winner} ({outcome.detail or outcome.reason.value})"
        if self.curtain_for is not None:
            return f"{self.game.seat_names[self.curtain_for]} to play"
        mover = self.game.to_move
        assert mover is not None
        queued = self._premoves.words()
        if self.seats[mover].is_bot:
            return f"{self.seats[mover].name} is thinking" + (
                f"; queued: {queued} (a right click or Esc cancels)" if queued else "")
        if self.passing_to is not None:
            return f"Your turn is over: pass the screen to {self.game.seat_names[self.passing_to]}"
        if mover != self.screen_seat:
            return "Waiting for the opponent"
        prompt = self.presenter_of(mover).prompt(self.views[mover])
        if queued:  # a move queued while the bot thought waits for the pick the turn asks first
            return f"{prompt}; then the queued {queued} (a right click or Esc cancels)"
        return prompt

    def entry_hint(self) -> str:
        """What the typing field says while empty, for this game."""
        return self._screen_presenter().entry_hint(self.screen_view())

    def commands(self) -> list[Command]:
        """The game's commands (buttons) for the seat at the screen, enabled only while that seat may act (an
        ``anytime`` command, which changes only the seat's own marks, while the seat is at the screen)."""
        allowed, present = self._may_act(), self._at_screen()
        commands = [command._replace(enabled=command.enabled and (allowed or (command.anytime and present)))
                    for command in self._screen_presenter().commands(self.screen_view())]
        if self.passing_to is not None:
            commands.append(Command(PASS_SCREEN, "Pass the screen", True))
        return commands

    def presenter_of(self, seat: Seat) -> Presenter:
        """The game's presenter reading ``seat``'s private marks (the game's own notes, e.g. a deduction grid)."""
        return self.presenter.bound(self.session.notes(seat).marks)

    def _screen_presenter(self) -> Presenter:
        seat = self.screen_seat
        return self.presenter if seat is None else self.presenter_of(seat)

    def _at_screen(self) -> bool:
        """Whether a seat is at the screen with no curtain up while the game goes on (it may change its own
        marks; a finished game's record keeps the marks it ended with)."""
        return self.screen_seat is not None and self.curtain_for is None and self.game.outcome is None

    def can(self, what: str) -> bool:
        """Whether the seat at the screen may now resign, or use the command ``what`` (an id of
        :meth:`commands`)."""
        if what == "resign":
            return self.screen_seat is not None and self.game.outcome is None and self.curtain_for is None
        return any(command.id == what and command.enabled for command in self.commands())

    def _may_act(self) -> bool:
        """Whether the seat at the screen is the one to act now (the game goes on, no curtain is up)."""
        seat = self.screen_seat
        return (seat is not None and self.game.outcome is None and self.curtain_for is None
                and self.game.to_move == seat)

    # -- private notes -----------------------------------------------------------------------------
    def seen(self, seat: Seat) -> int:
        """How many observations of ``seat`` its view has taken in (changes whenever the seat learns something)."""
        return self.known.seen[seat]

    def empty_view(self) -> Any:
        """A view that knows nothing: what a belief panel shows behind the curtain."""
        return self.known.empty()

    def screen_view(self) -> Any:
        """The view of the seat at the screen; a view that knows nothing behind the curtain."""
        return self.empty_view() if self.screen_seat is None else self.views[self.screen_seat]

    def belief_for(self, seat: Seat) -> SeatBelief:
        """The belief board of a person's seat (bots never get one), with the seat's own panel switches."""
        return self.notes.belief_for(seat)

    def belief_changed(self, seat: Seat) -> None:
        """The seat edited its belief board (the panel changed it in place): keep it in the record."""
        self.notes.belief_changed(seat)

    def switches_changed(self, seat: Seat) -> None:
        """The seat turned one of its belief panel's aids on or off: keep it in the record."""
        self.notes.switches_changed(seat)

    def marks_changed(self, seat: Seat, marks: dict[str, Any] | None) -> None:
        """The seat changed its private marks (the game's presenter read them from its input): keep them in the
        record and draw again. Marks that are not JSON are the game's bug: said in the seat's log, not kept."""
        try:
            changed = self.notes.set_marks(seat, marks)
        except ValueError as error:
            self.logs[seat].append(f"Not possible: the marks could not be kept ({error}).")
            self.changed.emit()
            return
        if changed:
            self.changed.emit()

    def annotations_changed(self, seat: Seat) -> None:
        """The seat drew or removed an arrow or circle: keep it in the record."""
        self.notes.annotations_changed(seat)

    def _save(self) -> None:
        if self.autosave is not None:
            self.clocks.saved()
            self.autosave(self.session)

    def save_now(self) -> None:
        """Autosave now (the window closes): the clocks as they stand, not as of the last action."""
        if self.game.outcome is None:
            self._save()

    # -- the curtain ---------------------------------------------------------------------------------
    def lift_curtain(self) -> None:
        """The player named on the curtain is at the screen: show their view and start their clock. (At the end
        of a turn, before the curtain fell, the screen is passed first.)"""
        if self.passing_to is not None:
            self.pass_screen()
        if self.curtain_for is None:
            return
        self.screen_seat, self.curtain_for = self.curtain_for, None
        self.looking_back = None
        if self.session.clock.running is None:
            self.session.start_clock()
        self.session.resume()
        self.curtainChanged.emit()
        self.changed.emit()
        self._play_cues()  # what this seat's person has not heard yet: it happened while they were away

    def pass_screen(self) -> None:
        """The mover has seen the end of their turn: the curtain falls for the next person."""
        self._pass_timer.stop()
        seat, self.passing_to = self.passing_to, None
        if seat is not None and self.game.outcome is None:
            self._lower_curtain(seat)

    def _lower_curtain(self, seat: Seat) -> None:
        self.looking_back = None
        self.session.pause()
        self.screen_seat, self.curtain_for = None, seat
        self.curtainChanged.emit()
        self.changed.emit()

    # -- acting ------------------------------------------------------------------------------------
    def sense(self, square: Cell) -> None:
        """The person picked ``square`` (a sense, in RBC); queued while a bot thinks."""
        if self._queue_premove("sense", square):
            return
        self._human_input(lambda presenter, view: presenter.on_square(view, square))

    def move(self, from_sq: Cell, to_sq: Cell, promotion: str | None) -> None:
        """The person moved a piece (a click, a drag), ``promotion`` the chosen piece letter or None; queued while a
        bot thinks."""
        if self._queue_premove("move", (from_sq, to_sq, promotion)):
            return
        self._human_input(lambda presenter, view: presenter.on_move(view, from_sq, to_sq, promotion))

    def zone(self, zone_id: str, index: int) -> None:
        """The person clicked item ``index`` of the scene's zone ``zone_id`` (a card of a hand, a pile ...); a card
        the next turn begins by playing is queued while a bot thinks."""
        if self._queue_premove("card", (zone_id, index)):
            return
        self._human_input(lambda presenter, view: presenter.on_zone(view, zone_id, index))

    def act_on_command(self, command_id: str) -> None:
        """The person used one of the game's :meth:`commands` (a button: pass, offer a draw ...)."""
        if command_id == PASS_SCREEN:
            self.pass_screen()
        elif command_id == BACK_TO_GAME:
            self.look_back(None)
        elif self.can(command_id):
            self._human_input(lambda presenter, view: presenter.command(view, command_id))

    def parse_text(self, text: str) -> Action:
        """The action the seat at the screen typed as ``text``; raises
        :class:`~app.games.presenter.InputError` saying, in the game's words, why it is none."""
        return self._screen_presenter().parse_text(self.screen_view(), text)

    def act(self, action: Action) -> None:
        """Play ``action`` for the person at the screen, if it is that seat's turn."""
        self._human(action)

    def _human_input(self, read: Callable[[Presenter, Any], Action | MarksChange]) -> None:
        """Play what the person's input means, as the game's presenter reads it from the seat's view and marks;
        input that changes only the seat's own marks is kept in the record instead, whoever's turn it is."""
        seat = self.screen_seat
        if seat is None or not self._at_screen():
            return
        if self.looking_back is not None:  # the board shows the past: a click there brings back the present
            self.look_back(None)
            return
        to_move = self.game.to_move == seat
        try:
            result = read(self.presenter_of(seat), self.views[seat])
        except InputError as error:
            if to_move:  # out of turn a click that means nothing is ignored, as it always was
                self.logs[seat].append(f"Not possible: {error}.")
                self.changed.emit()
            return
        if isinstance(result, MarksChange):
            self.marks_changed(seat, result.marks)
        elif to_move:
            self._play(seat, result)

    def resign(self) -> None:
        if self.screen_seat is not None and self.game.outcome is None:
            self._play(self.screen_seat, Resign())

    def _human(self, action: Action) -> None:
        seat = self.screen_seat
        if seat is None or self.curtain_for is not None or self.game.to_move != seat:
            return
        self.looking_back = None  # a typed move is played on the present board, and shown there
        self._play(seat, action)

    def _play(self, seat: Seat, action: Action) -> None:
        try:
            self.session.play(seat, action)
        except IllegalAction as error:
            self.logs[seat].append(f"Not possible: {error}.")
            self.changed.emit()
            return
        self.notes.clear_opponents(seat)
        self._after()

    def _bot_answered(self, seat: Seat, action: Action) -> None:
        if self.game.outcome is not None or self.game.to_move != seat:
            return
        try:
            self.session.play(seat, action)
            self.notes.clear_opponents(seat)
        except IllegalAction as error:
            self.session.adjudicate(Adjudication(seat, Reason.FORFEIT,
                                                 f"{self.seats[seat].name} answered an illegal action: {error}"))
        self.answering_bot = True
        try:
            self._after()
        finally:
            self.answering_bot = False

    def _bot_failed(self, seat: Seat, message: str) -> None:
        if self.game.outcome is None:
            reason = Reason.TIMEOUT if self.bots.timed_out(seat) else Reason.FORFEIT
            self.session.adjudicate(Adjudication(seat, reason, message))
            self._after()

    def _after(self) -> None:
        self._update_views()
        self._play_cues()  # before the curtain may fall: the person who acted hears what came of it
        self._save()
        if self.game.outcome is not None:
            self._finish()
            return
        self._next()

    def _next(self) -> None:
        mover = self.game.to_move
        if mover is None:
            return
        if self.seats[mover].is_bot:
            self.session.resume()
            self.bots.ask(mover)
        elif self.hot_seat and mover != self.screen_seat:
            if not self.curtained:  # nothing to hide: the screen passes to the mover, their clock runs at once
                self.screen_seat, self.looking_back = mover, None
                self._cues.take(mover)  # the people heard the game together, from the last mover's side: once
                self.session.resume()
                self.curtainChanged.emit()  # (no curtain: the board turns to the mover's side)
                self.changed.emit()
                self._play_premove()
                return
            if self.screen_seat is None or self.end_of_turn == "at once":
                self._lower_curtain(mover)
                return
            # The mover sees what came of their turn before the screen passes; nobody's clock runs meanwhile.
            self.session.pause()
            self.passing_to = mover
            if self.end_of_turn == "moment":
                self._pass_timer.start(int(END_OF_TURN_SECONDS * 1000))
            self.changed.emit()
            return
        else:
            self.session.resume()
        self.changed.emit()
        self._play_premove()

    def _update_views(self, with_sounds: bool = True) -> None:
        news = self.known.update(self.game, self._cues if with_sounds else None)
        if self.screen_seat in news:
            self.looking_back = None  # news for the seat at the screen: back to the present

    def _listener(self) -> Seat | None:
        """The seat whose person hears sounds now: at the screen, no curtain up."""
        seat = self.screen_seat
        if seat is None or self.curtain_for is not None or not self._cues.hears(seat):
            return None
        return seat

    def _play_cues(self) -> None:
        """Play the cues of the seat whose person is at the screen (each cue once, in order)."""
        seat = self._listener()
        for cue in self._cues.take(seat) if seat is not None else []:
            self.soundCue.emit(cue)

    def _finish(self) -> None:
        self._premoves.clear()
        self.clocks.stop()
        self._pass_timer.stop()
        self.passing_to = None
        outcome = self.game.outcome
        self.bots.finish(outcome)
        if self.hot_seat:
            self.curtain_for = None
            self.screen_seat = self.screen_seat if self.screen_seat is not None else 0
        self._play_cues()  # the end, and what came before it, for whoever is at the screen now
        self.curtainChanged.emit()
        self.changed.emit()
        self.gameOver.emit(outcome)
