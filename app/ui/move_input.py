"""Moved to :mod:`app.games.move_input` (no Qt there); this name re-exports it until the callers move."""

from app.games.move_input import *  # noqa: F401,F403
from app.games.move_input import MoveTextError as MoveTextError
from app.games.move_input import Cell as Cell
from app.games.move_input import Targets as Targets
from app.games.move_input import parse_move_text as parse_move_text
from app.games.move_input import parse_square_text as parse_square_text
