"""Sightline's rules engine: referees, views, clocks and records. Knows nothing of Qt.

The names below are imported on first use, so that importing one small module
(``app.engine.clock``, say) does not pay for python-chess and every referee:
the window starts faster.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .clock import ChessClock, TimeControl
    from .core import Action, Adjudication, Game, GameOver, IllegalAction, Outcome, Reason, Resign, Seat
    from .record import GameRecord, GameSession, PlayerInfo, RecordError, load_record, replay

_HOMES = {
    "ChessClock": "clock", "TimeControl": "clock",
    "Action": "core", "Adjudication": "core", "Game": "core", "GameOver": "core", "IllegalAction": "core",
    "Outcome": "core", "Reason": "core", "Resign": "core", "Seat": "core",
    "GameRecord": "record", "GameSession": "record", "PlayerInfo": "record", "RecordError": "record",
    "load_record": "record", "replay": "record",
}

__all__ = sorted(_HOMES)


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'app.engine' has no attribute {name!r}")
    return getattr(importlib.import_module(f".{home}", __name__), name)
