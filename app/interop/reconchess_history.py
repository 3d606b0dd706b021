"""Re-exports :mod:`app.games.rbc.reconchess_history` (RBC records <-> reconchess ``GameHistory`` JSON) under its
older name, for code and tests that import it from here; the conversion is RBC's own and lives in RBC's package.
"""

from __future__ import annotations

from app.games.rbc.reconchess_history import (HISTORY_TYPE, STARTING_FEN, WIN_REASONS, export_reconchess,
                                              history_to_record, record_to_history)

__all__ = ["HISTORY_TYPE", "STARTING_FEN", "WIN_REASONS", "export_reconchess", "history_to_record",
           "record_to_history"]
