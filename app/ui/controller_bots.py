"""The seats a game's bots play in the window: who sits where, starting each bot, telling it what its seat saw
and asking it to act, and the end of the game for it.

:class:`BotSeats` belongs to a :class:`~app.ui.game_controller.GameController`; it hands the bots' answers and
failures back by signal, and the controller decides what they mean for the game. A bot is told only its own
seat's observations (as any seat) and, at the end, the record without the people's private notes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Sequence

from PySide6.QtCore import QObject, Signal

from app.bots.base import ActionRequest
from app.engine.core import Outcome, Seat
from app.engine.record import GameRecord, GameSession, RecordError
from app.hosting.runner import opponent_names
from app.ui.bot_seat import BotSeat


@dataclass(frozen=True)
class SeatConfig:
    """Who sits in a seat: a person (``spec`` None) or a bot (``spec`` as for ``sightline match``)."""

    name: str
    spec: str | None = None

    @property
    def is_bot(self) -> bool:
        return self.spec is not None


def seats_of_record(record: GameRecord) -> list[SeatConfig]:
    """The seats of a saved game, to continue it in the window.

    Raises :class:`~app.engine.record.RecordError` when a bot of the record is not one of Sightline's own: a game
    file is data, and a path or module named in it would run whatever code it names the moment it is opened.
    """
    seats = [SeatConfig(player.name, player.spec if player.kind == "bot" else None) for player in record.players]
    for config in seats:
        if config.spec is not None and not config.spec.startswith("sightline:"):
            raise RecordError(f"this game was played by the bot {config.spec!r}; the window continues games "
                              "only against Sightline's own bots (replay it, or play it on with sightline match)")
    return seats


def public_record(session: GameSession) -> GameRecord:
    """The record a bot may have at the end: everything but the people's private notes."""
    record = session.record.copy()
    record.notes = []
    return record


class BotSeats(QObject):
    """The bots of one game, one :class:`~app.ui.bot_seat.BotSeat` (a worker process) per bot's seat.

    Signals: ``answered(seat, action)``, a bot's answer; ``failed(seat, message)``, a bot is gone (its error, or
    out of time: see :meth:`timed_out`); ``thinkingChanged(thinking)``, a bot started or stopped thinking.
    """

    answered = Signal(int, object)
    failed = Signal(int, str)
    thinkingChanged = Signal(bool)

    def __init__(self, session: GameSession, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.session = session
        self.bots: dict[Seat, BotSeat] = {}
        self._fed: dict[Seat, int] = {}  # how many of its seat's observations each bot has been told

    def start(self, seats: Sequence[SeatConfig], variant: str, seed: int) -> None:
        """Start a bot in each bot's seat (its process loads while the game goes on)."""
        game = self.session.game
        teams, names = game.teams(), [seat.name for seat in seats]
        for index, seat in enumerate(seats):
            if seat.is_bot:
                bot = BotSeat(seat.spec or "", variant, index, game.options(), opponent_names(teams, names, index),
                              seed * 2 + index, parent=self)
                bot.actionReady.connect(lambda action, _seconds, s=index: self.answered.emit(s, action))
                bot.failed.connect(lambda message, s=index: self.failed.emit(s, message))
                bot.thinkingChanged.connect(self.thinkingChanged)
                bot.start()
                self.bots[index] = bot
                self._fed[index] = 0

    def ask(self, seat: Seat) -> None:
        """The bot of ``seat`` is to act: tell it what its seat saw since it was last asked, and ask it, with its
        seat's time left as the deadline."""
        game = self.session.game
        self._feed(seat)
        left = self.session.seconds_left(seat)
        request = ActionRequest(seat, game.phase, game.choices(), left)
        self.bots[seat].ask(request, None if left == float("inf") else max(0.0, left))

    def timed_out(self, seat: Seat) -> bool:
        """Whether the bot of ``seat`` failed by running out of time (not by an error)."""
        bot = self.bots.get(seat)
        return bot is not None and bot.timed_out

    def finish(self, outcome: Outcome | None) -> None:
        """The game is over: each bot is told the rest of its seat's observations, the outcome and the public
        record, and stops."""
        record = public_record(self.session)
        for seat, bot in self.bots.items():
            self._feed(seat)
            bot.stop(outcome, record)

    def stop(self) -> None:
        """Stop every bot now (the window closes the game)."""
        for bot in self.bots.values():
            bot.stop()
        self.bots.clear()

    def _feed(self, seat: Seat) -> None:
        observations = self.session.game.observations(seat)
        fed = self._fed.get(seat, 0)
        self.bots[seat].observe(list(observations[fed:]))
        self._fed[seat] = len(observations)
