"""Moved to :mod:`app.games.scene` (no Qt there); this name re-exports it until the callers move."""

from app.games.scene import *  # noqa: F401,F403
from app.games.scene import SCENES as SCENES
from app.games.scene import BoardScene as BoardScene
from app.games.scene import MarkerSpec as MarkerSpec
from app.games.scene import Square as Square
from app.games.scene import _targets as _targets
from app.games.scene import blind_scene as blind_scene
from app.games.scene import from_sq8 as from_sq8
from app.games.scene import minit_scene as minit_scene
from app.games.scene import position_scene as position_scene
from app.games.scene import rbc_scene as rbc_scene
from app.games.scene import rbc_window as rbc_window
from app.games.scene import sq8 as sq8
from app.games.scene import truth_scene as truth_scene
