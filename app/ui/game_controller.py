"""One game in the window: the session, the seats (people or bots), the curtain between hot-seat players.

The controller owns the referee; everything it hands the window is derived from
the view of the seat whose player is at the screen (``screen_seat``). While the
curtain is up, ``screen_seat`` is ``None`` and there is nothing private to show.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from PySide6.QtCore import QObject, QTimer, Signal

from app import games
from app.bots.base import ActionRequest
from app.engine.clock import TimeControl, by_clock
from app.engine.core import Action, Adjudication, IllegalAction, Outcome, Reason, Resign, Seat, View
from app.engine.record import GameRecord, GameSession, PlayerInfo
from app.games.describe import outcome_headline
from app.games.presenter import BELIEF_PANEL, Command, InputError, MarksChange, Presenter, presenter_for
from app.games.scene import BoardScene, Cell, MarkerSpec
from app.ui.bot_seat import BotSeat
from app.ui.seat_screen import SeatScreen

if TYPE_CHECKING:
    from app.engine.belief import BeliefBoard
    from app.ui.belief_panel import SeatBelief

LOW_TIME = 30.0  # seconds: below this a clock is shown as running low
CLOCK_SAVE_SECONDS = 1.0  # while a clock runs the game is saved this often: a crash loses at most this much time
PASS_SCREEN = "pass_screen"
"""The command that hands the screen on at the end of a turn in hot-seat (:attr:`GameController.end_of_turn`)."""
BACK_TO_GAME = "back_to_game"
"""The command that ends looking back through the move list (:meth:`GameController.look_back`)."""
END_OF_TURN_SECONDS = 1.5
"""How long the mover sees the end of their turn before the curtain falls, when they chose "moment"."""


@dataclass(frozen=True)
class SeatConfig:
    """Who sits in a seat: a person (``spec`` None) or a bot (``spec`` as for ``sightline match``)."""

    name: str
    spec: str | None = None

    @property
    def is_bot(self) -> bool:
        return self.spec is not None


def _view_type(variant: str) -> type[View]:
    view: type[View] = games.get(variant).view()
    return view


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
        view_type = _view_type(variant)
        self.views: list[Any] = [view_type() for _ in seats]
        self._seen = [0] * len(seats)
        self.logs: list[list[str]] = [[] for _ in seats]
        # For stepping back through a person's own past views: each move-list line with the number of the seat's
        # observations after which it read as it does now, and the log's length after each observation.
        self._move_lines: list[list[str]] = [[] for _ in seats]
        self._move_marks: list[list[int]] = [[] for _ in seats]
        self._log_lengths: list[list[int]] = [[0] for _ in seats]
        self.premoves: list[tuple[str, Any, str, tuple[Cell, ...]]] = []
        """Moves and senses a person queued while a bot thinks (kind "move" or "sense", what, words, squares):
        at most one of each, played when the person's turn comes if the game still allows them."""
        self.looking_back: int | None = None
        """The move-list line whose moment the seat at the screen is looking back at (its board and log as they
        were then); None: the present. Any news for that seat, or a change of seat, returns to the present."""
        # Each seat's own arrows and circles and belief board (with its panel switches), kept while the other
        # seat is at the screen.
        self.annotations: dict[Seat, tuple[list[tuple[Cell, Cell]], list[Cell]]] = {}
        self.beliefs: dict[Seat, SeatBelief] = {}
        self.hot_seat = sum(not seat.is_bot for seat in seats) > 1
        humans = [index for index, seat in enumerate(seats) if not seat.is_bot]
        self.screen_seat: Seat | None = None if self.hot_seat else (humans[0] if humans else 0)
        self.curtain_for: Seat | None = None
        self.bots: dict[Seat, BotSeat] = {}
        self._bot_fed = [0] * len(seats)
        self._started = False
        self._timer = QTimer(self)
        self._timer.setInterval(100)
        self._timer.timeout.connect(self._tick)
        self._ticks = 0
        self._saved_at = float("-inf")  # the session clock's time of the last autosave
        # Sound cues wait with their seat until its person is at the screen: a sound must not tell the person at
        # the screen what happened to another seat (heard by that seat's person when they lift the curtain).
        # (A game of bots alone is watched from the seat on the screen, and heard from it too.)
        self._cues: dict[Seat, list[str]] = {seat: [] for seat in humans or [self.screen_seat or 0]}
        self.end_of_turn = "at once"
        """How a turn ends in hot-seat: "moment" (the mover sees its result for :data:`END_OF_TURN_SECONDS`),
        "button" (until "Pass the screen") or "at once"; the window sets the player's choice."""
        self.passing_to: Seat | None = None
        """In hot-seat, the seat the screen passes to once the mover has seen the end of their turn."""
        self._pass_timer = QTimer(self)
        self._pass_timer.setSingleShot(True)
        self._pass_timer.timeout.connect(self.pass_screen)
        self._low_time_told: set[tuple[Seat, float]] = set()
        self.answering_bot = False
        """True while a bot's answer is being taken in: the window may then redraw a moment later, in a pass of
        the event loop of its own (a bot answering at once would otherwise hold the loop for the referee's work
        and the whole redraw in one go)."""

    @classmethod
    def from_record(cls, record: GameRecord, parent: QObject | None = None) -> "GameController":
        """Continue a saved, unfinished game: same step, phase, clocks, annotations and belief boards.

        Raises :class:`~app.engine.record.RecordError` for a record that cannot be continued.
        """
        from app.engine.record import RecordError, resume
        seats = [SeatConfig(player.name, player.spec if player.kind == "bot" else None) for player in record.players]
        for config in seats:
            # A game file is data: it may name only Sightline's own bots. A path or module from a file would run
            # whatever code it names the moment the game is opened.
            if config.spec is not None and not config.spec.startswith("sightline:"):
                raise RecordError(f"this game was played by the bot {config.spec!r}; the window continues games "
                                  "only against Sightline's own bots (replay it, or play it on with sightline match)")
        session = resume(record, start_clock=False)
        controller = cls(record.variant, seats, record.clock, record.options, record.seed, parent, session=session)
        for seat in range(len(seats)):
            notes = session.notes(seat)
            controller.annotations[seat] = annotations_from_json(notes.annotations)
            if notes.hypotheses is not None and BELIEF_PANEL in controller.presenter.panels():
                from app.engine.belief import BeliefBoard
                try:
                    # The enemy is White for a seat whose board is turned (Black's), as in every chess game.
                    enemy = games.get(record.variant).seats[seat].flipped
                    board = BeliefBoard.from_json(notes.hypotheses, enemy=enemy, ply=session.game.ply)
                except ValueError:
                    continue  # a damaged belief board is dropped; the game itself goes on
                controller._adopt_belief(seat, board)
        return controller

    @property
    def inference_allowed(self) -> bool:
        """Whether the players may see inference (heat map, position count): a game option, the same for both."""
        return bool(self.session.record.extra.get("inference", True))

    # -- lifecycle ------------------------------------------------------------------------------
    def start(self) -> None:
        from app.hosting.runner import opponent_names
        teams, names = self.game.teams(), [seat.name for seat in self.seats]
        for index, seat in enumerate(self.seats):
            if seat.is_bot:
                bot = BotSeat(seat.spec or "", self.variant, index, self.game.options(),
                              opponent_names(teams, names, index),
                              self.seed * 2 + index, parent=self)
                bot.actionReady.connect(lambda action, _seconds, s=index: self._bot_answered(s, action))
                bot.failed.connect(lambda message, s=index: self._bot_failed(s, message))
                bot.thinkingChanged.connect(self.thinkingChanged)
                bot.start()
                self.bots[index] = bot
        self._started = True
        fresh = not self.session.record.entries
        self._update_views(with_sounds=False)  # a resumed game's past is not played again
        if fresh and self.game.outcome is None:
            for cues in self._cues.values():
                cues.append("start")
        self._play_cues()
        if not self.hot_seat:
            self.session.start_clock()  # hot-seat: the first clock starts when the curtain lifts
        self._timer.start()
        self._next()

    def stop(self) -> None:
        self._timer.stop()
        self._pass_timer.stop()
        for bot in self.bots.values():
            bot.stop()
        self.bots.clear()

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
                if any(kind == "sense" for kind, *_rest in self.premoves):
                    scene.sense_window = None  # one sense a turn: the queued one (a right click takes it back)
        else:
            after = self._after_pick_scene()
            if after is not None:  # the queued move may still be changed on the board before the pick
                scene.targets = after.targets
        scene.markers.extend(MarkerSpec("premove", squares) for *_rest, squares in self.premoves)
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
        first (RBC's sense): the board of the moves that may replace it (the game's premove scene), else None."""
        seat = self.screen_seat
        if seat is None or self.game.to_move != seat or self.curtain_for is not None or self.looking_back is not None \
                or not any(kind == "move" for kind, *_rest in self.premoves):
            return None
        presenter, view = self.presenter_of(seat), self.views[seat]
        now = presenter.scene(view)
        if now.sense_window is None or now.targets:
            return None
        return presenter.premove_scene(view)

    def _queue_premove(self, kind: str, what: Any) -> bool:
        """Queue the person's move (``what`` = (from, to, promotion)) or sense (a square) while a bot thinks, in
        place of one of that kind queued before; False when nothing may be queued now. A queued move may also be
        replaced on the person's own turn, before the pick it waits for."""
        ahead = self._premove_scene()
        if ahead is None and kind == "move":
            ahead = self._after_pick_scene()
        if ahead is None:
            return False
        if kind == "sense":
            if ahead.sense_window is None:
                return False
            squares = tuple(square for square in ahead.sense_window(what)
                            if 0 <= square[0] < ahead.files and 0 <= square[1] < ahead.ranks)
            if not squares:
                return False  # a square the game would refuse for its next pick
            words = f"{ahead.pick_word} {_cell_name(what)}"
        else:
            origin, target, _promotion = what
            if target not in ahead.targets.get(origin, {}):
                return False
            squares, words = (origin, target), f"{_cell_name(origin)}-{_cell_name(target)}"
        self.premoves = [queued for queued in self.premoves if queued[0] != kind]
        self.premoves.append((kind, what, words, squares))
        self.premoves.sort(key=lambda queued: queued[0] != "sense")  # a turn senses before it moves
        self.changed.emit()
        return True

    def queue_typed(self, text: str) -> bool:
        """Typed ``text`` while a bot is to act: queued as a premove, as the same move or pick made on the board
        would be. A move is read against the moves the next turn may queue (coordinates or SAN, own pieces only);
        a bare square is the pick the next turn starts with while none is queued (RBC's sense, as typed in the
        sense phase; a Split-Brain pick), and ``sense e2`` / ``pick e2`` always names one. False when nothing may
        be queued now (the game then reads the text itself); raises :class:`InputError` saying why the text names
        nothing the next turn could take."""
        ahead = self._premove_scene()
        if ahead is None:
            return False
        from app.games.move_input import parse_move_text
        raw = text.strip()
        words = raw.lower().split()
        picking = ahead.sense_window is not None
        pick_words = {ahead.pick_word, "sense", "pick"}
        named = len(words) == 2 and words[0] in pick_words
        bare = len(words) == 1 and _typed_square(raw, ahead.files, ahead.ranks) is not None
        if named or (bare and picking and not any(kind == "sense" for kind, *_rest in self.premoves)):
            square = _typed_square(words[-1], ahead.files, ahead.ranks)
            if not picking:
                raise InputError(f"nothing can be queued to {ahead.pick_word} now: type a move")
            if square is None:
                raise InputError(f"not a square: {words[-1]!r}")
            if not self._queue_premove("sense", square):
                raise InputError(f"{_cell_name(square)} cannot be picked at the start of your next turn")
            return True
        if not ahead.targets:
            raise InputError(f"type a square to {ahead.pick_word}, for example c3")
        letters = {cell: _piece_letter(code) for cell, code in ahead.pieces.items()}
        move = parse_move_text(raw, letters, ahead.targets, ahead.files, ahead.ranks)
        if not self._queue_premove("move", move):
            raise InputError("that move cannot be queued now")
        return True

    def cancel_premoves(self) -> bool:
        """Forget the queued moves and senses (a right click, Esc); False when there were none."""
        if not self.premoves:
            return False
        self.premoves = []
        self.changed.emit()
        return True

    def _play_premove(self) -> None:
        """The person's turn has come: play the first queued item the turn takes now (a sense in a sense phase, a
        move once moves are asked for); a move the game no longer allows is dropped, with a line in the log."""
        seat = self.screen_seat
        if not self.premoves or seat is None or self.game.to_move != seat or self.hot_seat:
            return
        now = self.presenter_of(seat).scene(self.views[seat])  # what the turn takes now (no queued move's board)
        for index, (kind, what, words, _squares) in enumerate(self.premoves):
            if kind == "sense" and now.sense_window is not None:
                del self.premoves[index]
                if now.sense_window(what):  # (a pick the board now refuses covers no square)
                    self._human_input(lambda presenter, view: presenter.on_square(view, what))
                else:
                    self._drop_premove(seat, words)
                return
            if kind == "move" and now.targets:
                del self.premoves[index]
                origin, target, promotion = what
                if target in now.targets.get(origin, {}):
                    self._human_input(lambda presenter, view: presenter.on_move(view, origin, target, promotion))
                else:
                    self._drop_premove(seat, words)
                return

    def _drop_premove(self, seat: Seat, words: str) -> None:
        self.logs[seat].append(f"Premove {words} dropped: it is no longer possible.")
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
        seen = self._move_marks[seat][line]
        past = _view_type(self.variant).from_observations(self.game.observations(seat)[:seen])
        scene = self.presenter_of(seat).scene(past)
        scene.targets, scene.sense_window = {}, None
        commands = [command._replace(enabled=False) for command in self.presenter_of(seat).commands(self.views[seat])]
        number = self._move_lines[seat][line].split(".", 1)[0]
        status = (f"Looking back at move {number}, as you knew it then: the game goes on meanwhile "
                  "(End or Esc: back to the game)")
        return SeatScreen(seat, scene, self.views[seat], status, tuple(self.logs[seat][:self._log_lengths[seat][seen]]),
                          tuple(self.move_list()), tuple(self.clock_text()),
                          (Command(BACK_TO_GAME, "Back to the game", True), *commands), self.entry_hint(),
                          looking_at=line)

    def look_back(self, line: int | None) -> None:
        """Show the seat at the screen its board and log as they were at move-list line ``line`` (None, or the
        newest line when nothing came after it: the present). The game is not changed."""
        seat = self.screen_seat
        if seat is None or self.curtain_for is not None:
            return
        lines = self._move_marks[seat]
        if line is not None and not 0 <= line < len(lines):
            return
        if line is not None and line == len(lines) - 1 and lines[line] == self._seen[seat]:
            line = None  # the newest line, with nothing told since: that is the present
        if line != self.looking_back:
            self.looking_back = line
            self.changed.emit()

    def step_back(self, how: str) -> None:
        """Step through the seat's move list: "back", "forward", "first" or "present"."""
        seat = self.screen_seat
        if seat is None:
            return
        count = len(self._move_marks[seat])
        if not count or how == "present":
            self.look_back(None)
            return
        at = self.looking_back
        if how == "first":
            self.look_back(0)
        elif how == "back":
            if at is None:  # from the present: the newest line, unless it reads as the present does
                newest_is_now = self._move_marks[seat][-1] == self._seen[seat]
                target = count - 2 if newest_is_now else count - 1
            else:
                target = max(0, at - 1)
            if target >= 0:
                self.look_back(target)
        elif how == "forward" and at is not None:
            self.look_back(at + 1 if at + 1 < count else None)

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
        lines = []
        for group in by_clock(seats, self.game.teams()):  # partners share one clock (G5): one line for them
            left = self.session.seconds_left(group[0])
            timed = left != float("inf")
            text = _format_seconds(left) if timed else "--:--"
            lines.append((" & ".join(self.game.seat_names[seat] for seat in group), text, timed and left < LOW_TIME))
        return lines

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
        if self.seats[mover].is_bot:
            queued = " and ".join(words for _kind, _what, words, _squares in self.premoves)
            return f"{self.seats[mover].name} is thinking" + (
                f"; queued: {queued} (a right click or Esc cancels)" if queued else "")
        if self.passing_to is not None:
            return f"Your turn is over: pass the screen to {self.game.seat_names[self.passing_to]}"
        if mover != self.screen_seat:
            return "Waiting for the opponent"
        prompt = self.presenter_of(mover).prompt(self.views[mover])
        if self.premoves:  # a move queued while the bot thought waits for the pick the turn asks first
            queued = " and ".join(words for _kind, _what, words, _squares in self.premoves)
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
        return self._seen[seat]

    def empty_view(self) -> Any:
        """A view that knows nothing: what a belief panel shows behind the curtain."""
        return _view_type(self.variant)()

    def screen_view(self) -> Any:
        """The view of the seat at the screen; a view that knows nothing behind the curtain."""
        return self.empty_view() if self.screen_seat is None else self.views[self.screen_seat]

    def belief_for(self, seat: Seat) -> SeatBelief:
        """The belief board of a person's seat (bots never get one), with the seat's own panel switches."""
        belief = self.beliefs.get(seat)
        if belief is None:
            from app.engine.belief import BeliefBoard
            belief = self._adopt_belief(seat, BeliefBoard(enemy=seat != 0))
        return belief

    def _adopt_belief(self, seat: Seat, board: BeliefBoard) -> SeatBelief:
        """Make ``board`` the seat's, with the switches its notes hold (all off in a new game)."""
        from app.ui.belief_panel import BeliefSwitches, SeatBelief
        belief = SeatBelief.holding(board, BeliefSwitches.from_json(self.session.notes(seat).switches))
        belief.on_switches_changed = lambda: self.switches_changed(seat)
        self.beliefs[seat] = belief
        return belief

    def belief_changed(self, seat: Seat) -> None:
        """The seat edited its belief board (the panel changed it in place): keep it in the record."""
        belief = self.beliefs.get(seat)
        if belief is not None and self.session.set_notes(seat, hypotheses=belief.to_json()):
            self._save()

    def switches_changed(self, seat: Seat) -> None:
        """The seat turned one of its belief panel's aids on or off: keep it in the record."""
        belief = self.beliefs.get(seat)
        if belief is not None and self.session.set_notes(seat, switches=belief.switches.to_json()):
            self._save()

    def marks_changed(self, seat: Seat, marks: dict[str, Any] | None) -> None:
        """The seat changed its private marks (the game's presenter read them from its input): keep them in the
        record and draw again. Marks that are not JSON are the game's bug: said in the seat's log, not kept."""
        try:
            changed = self.session.set_notes(seat, marks=marks)
        except ValueError as error:
            self.logs[seat].append(f"Not possible: the marks could not be kept ({error}).")
            self.changed.emit()
            return
        if changed:
            self._save()
            self.changed.emit()

    def annotations_changed(self, seat: Seat) -> None:
        """The seat drew or removed an arrow or circle: keep it in the record."""
        arrows, circles = self.annotations.get(seat, ([], []))
        if self.session.set_notes(seat, annotations=annotations_to_json(arrows, circles)):
            self._save()

    def _save(self) -> None:
        if self.autosave is not None:
            self._saved_at = self.session.clock.now()
            self.autosave(self.session)

    def save_now(self) -> None:
        """Autosave now (the window closes): the clocks as they stand, not as of the last action."""
        if self.game.outcome is None:
            self._save()

    def _public_record(self) -> GameRecord:
        """The record a bot may have at the end: everything but the people's private notes."""
        record = self.session.record.copy()
        record.notes = []
        return record

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
        """The person clicked item ``index`` of the scene's zone ``zone_id`` (a card of a hand, a pile ...)."""
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
        self._clear_marks_of_opponents(seat)
        self._after()

    def _clear_marks_of_opponents(self, mover: Seat) -> None:
        """When a seat acts, its opponents' arrows and circles go (as on Lichess, where a move clears the board's
        drawings): they were drawn for the position before it. Partners keep theirs."""
        teams = self.game.teams()
        for seat, (arrows, circles) in list(self.annotations.items()):
            if teams[seat] != teams[mover] and (arrows or circles):
                self.annotations[seat] = ([], [])
                self.annotations_changed(seat)

    def _bot_answered(self, seat: Seat, action: Action) -> None:
        if self.game.outcome is not None or self.game.to_move != seat:
            return
        try:
            self.session.play(seat, action)
            self._clear_marks_of_opponents(seat)
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
            bot = self.bots.get(seat)
            reason = Reason.TIMEOUT if bot is not None and bot.timed_out else Reason.FORFEIT
            self.session.adjudicate(Adjudication(seat, reason, message))
            self._after()

    def _tick(self) -> None:
        if self.game.outcome is None and self.session.check_time():
            self._after()
        elif self.game.outcome is None:
            self._warn_low_time()
            self.clocksChanged.emit()  # a tick moves the clocks, nothing else: no need to rebuild the board
            self._ticks += 1
            if not self.session.paused and self.session.clock.now() - self._saved_at >= CLOCK_SAVE_SECONDS:
                self._save()  # a crash (even a kill) loses at most that much clock time

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
            bot = self.bots[mover]
            bot.observe(list(self.game.observations(mover)[self._bot_fed[mover]:]))
            self._bot_fed[mover] = len(self.game.observations(mover))
            left = self.session.seconds_left(mover)
            request = ActionRequest(mover, self.game.phase, self.game.choices(), left)
            bot.ask(request, None if left == float("inf") else max(0.0, left))
        elif self.hot_seat and mover != self.screen_seat:
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
        for seat, view in enumerate(self.views):
            log = self.game.observations(seat)
            cues = self._cues.get(seat) if with_sounds else None
            person = seat in self._cues
            if len(log) > self._seen[seat] and seat == self.screen_seat:
                self.looking_back = None  # news for the seat at the screen: back to the present
            for seen, observation in enumerate(log[self._seen[seat]:], start=self._seen[seat] + 1):
                view.apply(observation)
                line = self.presenter.describe(observation, seat)
                if line:
                    self.logs[seat].append(line)
                if cues is not None:
                    cues.extend(self.presenter.sounds(observation, seat))
                if person:  # (a bot's seat is never looked back at in the window)
                    self._mark_move_lines(seat, seen)
            self._seen[seat] = len(log)

    def _mark_move_lines(self, seat: Seat, seen: int) -> None:
        """Note, after the seat's observation number ``seen``, which move-list lines now read differently: each
        line leads back to the moment it was last changed."""
        self._log_lengths[seat].append(len(self.logs[seat]))
        lines = self.presenter.move_list(self.views[seat])
        known, marks = self._move_lines[seat], self._move_marks[seat]
        del marks[len(lines):]
        for index, line in enumerate(lines):
            if index >= len(known) or known[index] != line:
                if index < len(marks):
                    marks[index] = seen
                else:
                    marks.append(seen)
        self._move_lines[seat] = lines

    def _play_cues(self) -> None:
        """Play the cues of the seat whose person is at the screen (each cue once, in order)."""
        seat = self.screen_seat
        if seat is None or self.curtain_for is not None or seat not in self._cues:
            return
        cues, self._cues[seat] = self._cues[seat], []
        for cue in dict.fromkeys(cues):
            self.soundCue.emit(cue)

    def _warn_low_time(self) -> None:
        """"low_time" once when the person at the screen has under 30 s left on their turn, and again under 10."""
        seat = self.game.to_move
        if seat is None or seat != self.screen_seat or self.curtain_for is not None or seat not in self._cues:
            return
        left = self.session.seconds_left(seat)
        for mark in (10.0, LOW_TIME):  # the lowest mark passed: a clock found under 10 s warns once, not twice
            if left < mark:
                if (seat, mark) not in self._low_time_told:
                    self._low_time_told.update((seat, higher) for higher in (10.0, LOW_TIME) if higher >= mark)
                    self.soundCue.emit("low_time")
                break

    def _finish(self) -> None:
        self.premoves = []
        self._timer.stop()
        self._pass_timer.stop()
        self.passing_to = None
        outcome = self.game.outcome
        for seat, bot in self.bots.items():
            bot.observe(list(self.game.observations(seat)[self._bot_fed[seat]:]))
            bot.stop(outcome, self._public_record())
        if self.hot_seat:
            self.curtain_for = None
            self.screen_seat = self.screen_seat if self.screen_seat is not None else 0
        self._play_cues()  # the end, and what came before it, for whoever is at the screen now
        self.curtainChanged.emit()
        self.changed.emit()
        self.gameOver.emit(outcome)


def annotations_to_json(arrows: list[tuple[Cell, Cell]], circles: list[Cell]) -> list[Any]:
    """Arrows and circles as record notes: ``[{"arrow": [[4, 1], [4, 3]]}, {"circle": [3, 4]}]``."""
    return ([{"arrow": [list(a), list(b)]} for a, b in arrows] + [{"circle": list(c)} for c in circles])


def annotations_from_json(data: Any) -> tuple[list[tuple[Cell, Cell]], list[Cell]]:
    """The inverse of :func:`annotations_to_json`; anything malformed is skipped, never fatal."""
    arrows: list[tuple[Cell, Cell]] = []
    circles: list[Cell] = []

    def square(value: Any) -> Cell | None:
        if isinstance(value, list) and len(value) == 2 and all(type(v) is int and 0 <= v < 16 for v in value):
            return value[0], value[1]
        return None

    for item in data if isinstance(data, list) else []:
        if isinstance(item, dict) and isinstance(item.get("arrow"), list) and len(item["arrow"]) == 2:
            ends = [square(end) for end in item["arrow"]]
            if ends[0] is not None and ends[1] is not None:
                arrows.append((ends[0], ends[1]))
        elif isinstance(item, dict):
            circle = square(item.get("circle"))
            if circle is not None:
                circles.append(circle)
    return arrows, circles


def _typed_square(text: str, files: int, ranks: int) -> Cell | None:
    """A square typed as ``d7`` on a board of ``files`` x ``ranks``, or None."""
    import re
    match = re.fullmatch(r"([a-z])([1-9][0-9]?)", text.strip().lower())
    if match is None:
        return None
    square = (ord(match[1]) - 97, int(match[2]) - 1)
    return square if square[0] < files and 0 <= square[1] < ranks else None


def _piece_letter(code: str) -> str:
    """A scene's piece as a piece letter for typed moves: a checker token as the piece it stands for, when the
    seat knows it (its own always), else nothing."""
    from app.games.scene import read_checker
    checker = read_checker(code)
    if checker is None:
        return code
    if checker.piece is None:
        return ""
    return checker.piece.upper() if checker.white else checker.piece.lower()


def _cell_name(square: Cell) -> str:
    """A board square's name, ``a1`` style, on a board of any size."""
    return f"{chr(ord('a') + square[0])}{square[1] + 1}"


def _format_seconds(seconds: float) -> str:
    seconds = max(0.0, seconds)
    if seconds < 10:
        return f"{int(seconds // 60)}:{seconds % 60:04.1f}"
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"
