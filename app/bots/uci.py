"""An optional UCI chess engine (Stockfish or any other) for the belief bots, through ``chess.engine``.

Where the engine comes from, first match wins:

1. ``SIGHTLINE_UCI_ENGINE``: the engine the app's settings name (the window passes
   it to the bot's worker in its environment); ``none`` turns engines off;
2. ``STOCKFISH_EXECUTABLE`` (what reconchess's TroutBot reads);
3. ``stockfish`` on ``PATH``, then Debian's ``/usr/games/stockfish``.

The engine is started on first use. Every call is bounded in time, and any
failure (no engine, an engine that crashes, hangs, prints nonsense or rejects a
position) switches the engine off for the rest of the game: the bot carries on
with its built-in evaluator. Positions an engine cannot take (a missing king,
the side not to move in check, which RBC allows) are never sent.

>>> engine = UciEngine(path=None)
>>> engine.available, engine.best_move(chess.Board(), 0.05)
(False, None)
"""

from __future__ import annotations

import logging
import os
import shutil
from typing import Any

import chess
import chess.engine

log = logging.getLogger(__name__)

ENV_ENGINE = "SIGHTLINE_UCI_ENGINE"
_DEBIAN_STOCKFISH = "/usr/games/stockfish"


def find_engine(environ: dict[str, str] | None = None) -> str | None:
    """The path of the UCI engine to use, or None (see the module docstring).

    >>> find_engine({"SIGHTLINE_UCI_ENGINE": "none", "STOCKFISH_EXECUTABLE": "/x"}) is None
    True
    >>> find_engine({"SIGHTLINE_UCI_ENGINE": "/opt/sf"})
    '/opt/sf'
    """
    env = os.environ if environ is None else environ
    configured = env.get(ENV_ENGINE, "").strip()
    if configured:
        return None if configured.lower() in ("none", "off", "0", "false") else configured
    stockfish = env.get("STOCKFISH_EXECUTABLE", "").strip()
    if stockfish:
        return stockfish
    found = shutil.which("stockfish", path=env.get("PATH"))
    if found:
        return found
    if os.access(_DEBIAN_STOCKFISH, os.X_OK):
        return _DEBIAN_STOCKFISH
    return None


def engine_ready(board: chess.Board) -> chess.Board | None:
    """A copy of ``board`` an engine can take (castling and en passant cleaned), or None if it cannot.

    >>> engine_ready(chess.Board("8/8/8/8/8/8/8/4K3 w - - 0 1")) is None     # no black king
    True
    """
    ready = board.copy(stack=False)
    ready.castling_rights = ready.clean_castling_rights()
    if ready.ep_square is not None and not ready.has_legal_en_passant():
        ready.ep_square = None
    ready.halfmove_clock = 0
    if not ready.is_valid():
        return None
    return ready


def _settle_exit_code(engine: chess.engine.SimpleEngine) -> None:
    """Let the engine's background thread end even when python-chess never learns the exit code.

    After a timed-out search (an engine that hangs), python-chess 1.11 raises ``InvalidStateError`` inside its
    own ``connection_lost`` callback when the killed process goes, before it records the exit code; its
    background thread (not a daemon) then waits for that code for ever, and the interpreter cannot exit. Once
    the process is gone, an exit code still missing is set here, on the engine's event loop.
    """
    protocol: Any = getattr(engine, "protocol", None)
    returncode = getattr(protocol, "returncode", None)
    if returncode is None:
        return

    def settle() -> None:
        process = engine.transport.get_returncode()
        if not returncode.done() and process is not None:
            returncode.set_result(process)

    def soon() -> None:  # the kill's exit is reaped a moment later: look again until it is
        settle()
        if not returncode.done() and not protocol.loop.is_closed():
            protocol.loop.call_later(0.05, soon)

    try:
        protocol.loop.call_soon_threadsafe(soon)
    except RuntimeError:  # the loop has ended: nothing waits
        pass


class UciEngine:
    """One engine process for one bot, switched off for good after ``max_failures`` failures."""

    def __init__(self, path: str | None = "", *, max_failures: int = 1, timeout: float = 3.0) -> None:
        self.path = find_engine() if path == "" else path
        self.max_failures = max_failures
        self.timeout = timeout
        self.failures = 0
        self.problem: str | None = None
        self._engine: chess.engine.SimpleEngine | None = None

    @property
    def available(self) -> bool:
        return self.path is not None and self.failures < self.max_failures

    def _start(self) -> chess.engine.SimpleEngine | None:
        if self._engine is None and self.available:
            assert self.path is not None
            try:
                self._engine = chess.engine.SimpleEngine.popen_uci(self.path, timeout=self.timeout, setpgrp=True)
            except Exception as error:  # noqa: BLE001 - a missing or broken engine: play without it
                self._failed(f"could not start {self.path}: {type(error).__name__}: {error}")
        return self._engine

    def _failed(self, problem: str) -> None:
        self.failures += 1
        self.problem = problem
        log.warning("UCI engine problem (the bot goes on with its own evaluator): %s", problem)
        self.close()

    def best_move(self, board: chess.Board, seconds: float) -> chess.Move | None:
        """The engine's move for the side to move on ``board`` within about ``seconds``, or None."""
        if not self.available:
            return None
        ready = engine_ready(board)
        if ready is None or seconds <= 0:
            return None
        engine = self._start()
        if engine is None:
            return None
        try:
            result = engine.play(ready, chess.engine.Limit(time=seconds))
        except Exception as error:  # noqa: BLE001 - crash, hang (timeout), garbage: never stop the bot
            self._failed(f"{type(error).__name__}: {error}")
            return None
        move = result.move
        if move is not None and not ready.is_legal(move):
            self._failed(f"the engine answered an illegal move {move.uci()} in {ready.fen()}")
            return None
        return move

    def score(self, board: chess.Board, seconds: float, color: chess.Color, depth: int | None = None) -> int | None:
        """The engine's score of ``board`` for ``color`` in centipawns (mates as large numbers), or None.

        With ``depth``, the search stops at that many plies, or after ``seconds`` if that comes first (a shallow
        search is far quicker than the shortest time limit: about a millisecond at depth 6 for Stockfish; the
        seconds also bound the wait for an engine that hangs, which a depth alone would not).
        """
        if not self.available:
            return None
        ready = engine_ready(board)
        if ready is None or seconds <= 0:
            return None
        engine = self._start()
        if engine is None:
            return None
        limit = chess.engine.Limit(depth=depth, time=seconds) if depth else chess.engine.Limit(time=seconds)
        try:
            info: Any = engine.analyse(ready, limit)
            score = info["score"].pov(color).score(mate_score=20_000)
        except Exception as error:  # noqa: BLE001
            self._failed(f"{type(error).__name__}: {error}")
            return None
        return int(score) if score is not None else None

    def close(self) -> None:
        """Stop the engine process (safe to call at any time, more than once)."""
        engine, self._engine = self._engine, None
        if engine is None:
            return
        try:
            engine.close()  # quit and wait, bounded by the engine's own timeout
        except Exception:  # noqa: BLE001 - it may be dead already
            try:
                engine.transport.kill()
            except Exception:  # noqa: BLE001
                pass
        _settle_exit_code(engine)

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:  # noqa: BLE001 - interpreter shutdown
            pass
