"""Inference as a job for a worker process (no Qt): the window sends a seat's observations, gets a summary back.

The worker keeps the inference of each (game, seat) it has seen, so a request
that brings a few new observations costs only their update; anything unusual
(a new game, fewer observations than before, a failure) starts afresh from the
observations themselves, which are always sent whole. The window never waits:
see :mod:`app.ui.inference_service`.

>>> from app.games.rbc.rules import ReconChess, Sense, MoveAction
>>> import chess
>>> game = ReconChess()
>>> game.play(0, Sense(chess.E7)); game.play(0, MoveAction(chess.Move.from_uci("e2e4")))
>>> summary = summarize("g1", "rbc", 1, list(game.observations(1)), WINDOW_OPTIONS)
>>> summary.count, summary.exact, summary.problem, summary.count_text()
(21, True, None, '21 positions possible')
>>> summary.is_possible(chess.E4), summary.is_possible(chess.F3, chess.KNIGHT), round(summary.squares[chess.E4], 3)
(True, True, 0.048)
>>> summary.is_possible(chess.E5), summary.squares[chess.E5]       # certain: no white piece can be there
(False, 0.0)

What the window draws from a :class:`~app.engine.inference.InferenceSummary`: ``squares``
and ``by_type`` as the heat map (0 means certainly impossible, also when estimated),
``count_text()`` as the count (exact, or "between ... and ..." with the estimate),
and ``possible_by_type`` for :meth:`app.engine.belief.BeliefBoard.contradictions`.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any

from app import games
from app.engine.inference import InferenceSummary, Inference, InferenceError, InferenceOptions
from app.engine.inference_core import kernels
from app.lifetime import exit_with_parent

WINDOW_OPTIONS: dict[str, Any] = {"cap": 1_000_000, "expansion_limit": 2_000_000}
"""The options a window should send: up to ``cap`` positions are kept exactly (beyond, a weighted sample of
that many), and one opponent turn generates at most ``expansion_limit`` successors (beyond, from a sample of
the parents). A set of a million positions takes 64 MB. The compiled kernels keep the memory of large updates
for the next ones (touching fresh memory costs more than the work), so a worker that has seen million-position
sets holds about 0.9 GB until it ends with its window."""

_KEPT = 4  # inferences kept per worker (a hot-seat game needs two; each can hold a million positions, 64 MB)
_cache: OrderedDict[tuple[str, int], tuple[int, Inference]] = OrderedDict()


def prepare_worker() -> None:
    """Initializer of an inference worker process: it ends with its parent, and starts warming up the compiled
    kernels at once (in the background) so that they are ready, or nearly, by the first large set."""
    exit_with_parent()
    kernels()


def new_inference(variant: str, seat: int, options: dict[str, Any]) -> Inference:
    """A fresh inference for ``seat`` of ``variant`` (a game of hidden information: its registry entry names
    its inference) with the window's ``options`` (``cap``, ``seed``, ``start_fen``)."""
    definition = games.get(variant)
    if definition.inference is None:
        raise ValueError(f"{definition.title} has no belief inference")
    kind: type[Inference] = definition.inference()
    return kind(seat, InferenceOptions(cap=int(options.get("cap", 2000)), seed=int(options.get("seed", 0)),
                                       start_fen=options.get("start_fen"),
                                       expansion_limit=int(options.get("expansion_limit", 3_000_000))))


def summarize(game_key: str, variant: str, seat: int, observations: list[Any],
              options: dict[str, Any]) -> InferenceSummary:
    """The belief summary of ``seat`` after ``observations`` (all of them, in order)."""
    key = (game_key, seat)
    cached = _cache.pop(key, None)
    if cached is not None and cached[0] <= len(observations):
        seen, inference = cached
    else:
        seen, inference = 0, new_inference(variant, seat, options)
    try:
        for observation in observations[seen:]:
            inference.update(observation)
    except InferenceError as error:
        return InferenceSummary(inference.ply, 0, False, {}, {}, f"inference stopped: {error}")
    _cache[key] = (len(observations), inference)
    while len(_cache) > _KEPT:
        _cache.popitem(last=False)
    return inference.summary()
