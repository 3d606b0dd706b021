"""Moved to :mod:`app.games.scene` and the games' presenters (no Qt there); this name re-exports them until the
callers move."""

from app.games.blind.presenter import blind_scene as blind_scene
from app.games.chess_kit import chess_targets as _targets
from app.games.chess_kit import from_sq8 as from_sq8
from app.games.chess_kit import sq8 as sq8
from app.games.minit.presenter import minit_scene as minit_scene
from app.games.rbc.presenter import rbc_scene as rbc_scene
from app.games.rbc.presenter import rbc_window as rbc_window
from app.games.scene import SCENES as SCENES
from app.games.scene import BoardScene as BoardScene
from app.games.scene import MarkerSpec as MarkerSpec
from app.games.scene import Cell as Cell
from app.games.scene import position_scene as position_scene
from app.games.scene import truth_scene as truth_scene

__all__ = ["SCENES", "BoardScene", "MarkerSpec", "Cell", "_targets", "blind_scene", "from_sq8", "minit_scene",
           "position_scene", "rbc_scene", "rbc_window", "sq8", "truth_scene"]
