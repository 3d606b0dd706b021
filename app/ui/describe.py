"""Moved to :mod:`app.games.describe` (no Qt there); this name re-exports it until the callers move."""

from app.games.describe import *  # noqa: F401,F403
from app.games.describe import describe as describe
from app.games.describe import move_list as move_list
