"""Statistics of the solitaires, per game: deals played and won, the best and the average score, the current
streak. They live in one small JSON file in Sightline's data folder (:func:`app.storage.data_dir`), rewritten
whole or not at all on every finished game (:func:`app.engine.atomic_files.atomic_write_text`), so a crash never
loses or breaks them. A file that cannot be read is set aside (renamed ``*.unreadable``) and counting starts
again, never stopping the game.

A game is counted once, when it ends, under an identity the caller gives (a game resumed after a crash and
finished later is counted when it finishes; the same identity is never counted twice). An unfinished game is not
counted: a solitaire ended at the player's request is played and lost, without a score.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "stats.json"
>>> _ = record_game("parade", won=True, score=3, game_id="one", path=path)
>>> _ = record_game("parade", won=True, score=1, game_id="two", path=path)
>>> stats = record_game("parade", won=False, score=None, game_id="three", path=path)
>>> stats.played, stats.won, stats.best, stats.average, stats.streak
(3, 2, 3, 2.0, -1)
>>> record_game("parade", won=True, score=8, game_id="three", path=path).played  # counted once
3
>>> load(path)["parade"].summary()
'3 played, 2 won (67%), best score 3, average 2.0, lost the last 1'
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable

from app.engine.atomic_files import atomic_write_text
from app.storage import locked_while

__all__ = ["FILE_NAME", "GameStatistics", "load", "record_game", "statistics_path"]

FILE_NAME = "solitaire-statistics.json"
FORMAT = "sightline-solitaire-statistics"
VERSION = 1
REMEMBERED = 500
"""How many games' identities are kept to count each game once."""


@dataclass
class GameStatistics:
    """One game's counts. ``streak`` is the current run: wins (positive) or losses (negative)."""

    played: int = 0
    won: int = 0
    best: int | None = None
    total_score: int = 0
    scored: int = 0
    streak: int = 0
    longest_streak: int = 0
    counted: list[str] = field(default_factory=list)

    @property
    def average(self) -> float | None:
        """The mean score of the games that have one (won games), or ``None``."""
        return round(self.total_score / self.scored, 2) if self.scored else None

    @property
    def win_rate(self) -> float | None:
        return self.won / self.played if self.played else None

    def summary(self) -> str:
        """The counts in one line, for the window and the command line."""
        if not self.played:
            return "no games finished yet"
        rate = f" ({self.won * 100 / self.played:.0f}%)"
        best = "" if self.best is None else f", best score {self.best}"
        average = "" if self.average is None else f", average {self.average:.1f}"
        if self.streak > 0:
            streak = f", won the last {self.streak}"
        elif self.streak < 0:
            streak = f", lost the last {-self.streak}"
        else:
            streak = ""
        return f"{self.played} played, {self.won} won{rate}{best}{average}{streak}"

    def add(self, won: bool, score: int | None) -> None:
        self.played += 1
        if won:
            self.won += 1
            self.streak = self.streak + 1 if self.streak > 0 else 1
            self.longest_streak = max(self.longest_streak, self.streak)
        else:
            self.streak = self.streak - 1 if self.streak < 0 else -1
        if score is not None:
            self.scored += 1
            self.total_score += int(score)
            self.best = int(score) if self.best is None else max(self.best, int(score))

    @classmethod
    def from_json(cls, data: Any) -> GameStatistics:
        if not isinstance(data, dict):
            raise ValueError("a game's statistics are not an object")
        found = cls()
        for name in ("played", "won", "total_score", "scored", "streak", "longest_streak"):
            value = data.get(name, 0)
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(f"{name} is not a whole number")
            setattr(found, name, value)
        best = data.get("best")
        if best is not None and (not isinstance(best, int) or isinstance(best, bool)):
            raise ValueError("best is not a whole number")
        found.best = best
        counted = data.get("counted", [])
        if not isinstance(counted, list) or not all(isinstance(item, str) for item in counted):
            raise ValueError("counted is not a list of identities")
        found.counted = counted[-REMEMBERED:]
        return found


def statistics_path() -> Path:
    """Where the statistics are kept: the data folder (``$SIGHTLINE_DATA_DIR`` in tests)."""
    from app.storage import data_dir
    return data_dir() / FILE_NAME


def load(path: Path | None = None, report: Callable[[str], None] | None = None) -> dict[str, GameStatistics]:
    """Every game's statistics by game key (empty when there are none yet). An unreadable file is set aside with
    a sentence to ``report`` and an empty set returned."""
    path = statistics_path() if path is None else Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except OSError as error:
        if report:
            report(f"the solitaire statistics could not be read ({error.strerror or error})")
        return {}
    try:
        data = json.loads(text)
        if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("games"), dict):
            raise ValueError("it is not a statistics file of Sightline")
        if not isinstance(data.get("version"), int) or data["version"] > VERSION:
            raise ValueError("it was written by a newer Sightline")
        return {str(key): GameStatistics.from_json(value) for key, value in data["games"].items()}
    except (ValueError, TypeError) as error:
        aside = path.with_name(path.name + ".unreadable")
        try:
            os.replace(path, aside)
        except OSError:
            pass
        if report:
            report(f"the solitaire statistics file was unreadable ({str(error)[:120]}); it was kept as {aside.name} "
                   "and counting starts again")
        return {}


def _save(games: dict[str, GameStatistics], path: Path) -> None:
    data = {"format": FORMAT, "version": VERSION, "games": {key: asdict(value) for key, value in games.items()}}
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps(data, indent=1, sort_keys=True) + "\n")


def record_game(key: str, won: bool, score: int | None, game_id: str, path: Path | None = None,
                report: Callable[[str], None] | None = None) -> GameStatistics:
    """Count a finished game of ``key`` (once per ``game_id``) and return the game's statistics now. A file that
    cannot be written is said to ``report``; the game goes on."""
    path = statistics_path() if path is None else Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError:
        pass  # said below, when the file cannot be written
    # Two windows may finish games at the same moment: each reads, adds and writes under the lock, or one count
    # would be lost.
    with locked_while(path.with_name(path.name + ".lock")):
        games = load(path, report)
        stats = games.setdefault(key, GameStatistics())
        if game_id in stats.counted:
            return stats
        stats.add(won, score)
        stats.counted = (stats.counted + [game_id])[-REMEMBERED:]
        try:
            _save(games, path)
        except OSError as error:
            if report:
                report(f"the solitaire statistics could not be saved ({error.strerror or error})")
        return stats
