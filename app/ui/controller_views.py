"""What each seat of a game in the window has learned: its view, its log and its sound cues, all built from that
seat's own observations only; and, for a person's seat, the moment each line of its move list was written, to
look back at.

:class:`SeatViews` and :class:`SeatCues` belong to a :class:`~app.ui.game_controller.GameController`, which
shows the window one seat's part of them: the seat whose person is at the screen.
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from app import games
from app.engine.core import Game, Seat, View
from app.games.presenter import Presenter


class SeatCues:
    """Sound cues waiting with their seat until its person is at the screen: a sound must not tell the person at
    the screen what happened to another seat (that seat's person hears it when they lift the curtain). Only the
    people's seats (or, in a game of bots alone, the seat watched on the screen) hear anything."""

    def __init__(self, seats: Iterable[Seat]) -> None:
        self._waiting: dict[Seat, list[str]] = {seat: [] for seat in seats}

    def hears(self, seat: Seat) -> bool:
        return seat in self._waiting

    def waiting(self, seat: Seat) -> list[str] | None:
        """The seat's waiting cues, to add to; None for a seat nobody hears."""
        return self._waiting.get(seat)

    def add_all(self, cue: str) -> None:
        for cues in self._waiting.values():
            cues.append(cue)

    def take(self, seat: Seat) -> list[str]:
        """The seat's waiting cues (each once, in order), now heard."""
        if seat not in self._waiting:
            return []
        cues, self._waiting[seat] = self._waiting[seat], []
        return list(dict.fromkeys(cues))


class SeatViews:
    """Each seat's view and log, from its own observations only; for each person's seat also each move-list line
    with the number of the seat's observations after which it read as it does now, and the log's length after each
    observation (a past moment is rebuilt from the seat's own first observations, nothing else)."""

    def __init__(self, variant: str, presenter: Presenter, count: int, persons: Iterable[Seat]) -> None:
        self.view_type: type[View] = games.get(variant).view()
        self.presenter = presenter
        self.views: list[Any] = [self.view_type() for _ in range(count)]
        self.seen = [0] * count
        self.logs: list[list[str]] = [[] for _ in range(count)]
        self._persons = set(persons)
        self._move_lines: list[list[str]] = [[] for _ in range(count)]
        self._move_marks: list[list[int]] = [[] for _ in range(count)]
        self._log_lengths: list[list[int]] = [[0] for _ in range(count)]

    def empty(self) -> Any:
        """A view that knows nothing."""
        return self.view_type()

    def update(self, game: Game, cues: SeatCues | None) -> list[Seat]:
        """Take in every seat's new observations (their sound cues into ``cues``, unless None); the seats that had
        news."""
        news = []
        for seat, view in enumerate(self.views):
            log = game.observations(seat)
            if len(log) > self.seen[seat]:
                news.append(seat)
            waiting = cues.waiting(seat) if cues is not None else None
            for seen, observation in enumerate(log[self.seen[seat]:], start=self.seen[seat] + 1):
                view.apply(observation)
                line = self.presenter.describe(observation, seat)
                if line:
                    self.logs[seat].append(line)
                if waiting is not None:
                    waiting.extend(self.presenter.sounds(observation, seat))
                if seat in self._persons:  # (a bot's seat is never looked back at in the window)
                    self._mark_move_lines(seat, seen)
            self.seen[seat] = len(log)
        return news

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

    def line_count(self, seat: Seat) -> int:
        """How many move-list lines of the seat may be looked back at."""
        return len(self._move_marks[seat])

    def is_present(self, seat: Seat, line: int) -> bool:
        """Whether ``line`` is the seat's newest and nothing was told since: looking at it is the present."""
        marks = self._move_marks[seat]
        return line == len(marks) - 1 and marks[line] == self.seen[seat]

    def stepped(self, seat: Seat, how: str, at: int | None) -> int | None:
        """The move-list line of the seat to look at after a step ("back", "forward", "first" or "present") from
        line ``at`` (None: the present); None for the present."""
        count = len(self._move_marks[seat])
        if not count or how == "present":
            return None
        if how == "first":
            return 0
        if how == "back":
            if at is None:  # from the present: the newest line, unless it reads as the present does
                target = count - 2 if self.is_present(seat, count - 1) else count - 1
                return target if target >= 0 else None
            return max(0, at - 1)
        if how == "forward" and at is not None:
            return at + 1 if at + 1 < count else None
        return at

    def past(self, seat: Seat, line: int, observations: Sequence[Any]) -> tuple[Any, tuple[str, ...], str]:
        """The seat's view and log as they were when move-list line ``line`` was written, rebuilt from the seat's
        own ``observations`` (all of them: only the first ones are read), and the move number of that line."""
        seen = self._move_marks[seat][line]
        view = self.view_type.from_observations(observations[:seen])
        number = self._move_lines[seat][line].split(".", 1)[0]
        return view, tuple(self.logs[seat][:self._log_lengths[seat][seen]]), number
