"""Sightline's rules engine: referees, views, clocks and records. Knows nothing of Qt."""

from .clock import ChessClock, TimeControl
from .core import Action, Adjudication, Game, GameOver, IllegalAction, Outcome, Reason, Resign, Seat
from .record import GameRecord, GameSession, PlayerInfo, RecordError, load_record, replay

__all__ = ["Action", "Adjudication", "ChessClock", "Game", "GameOver", "GameRecord", "GameSession",
           "IllegalAction", "Outcome", "PlayerInfo", "Reason", "RecordError", "Resign", "Seat", "TimeControl",
           "load_record", "replay"]
