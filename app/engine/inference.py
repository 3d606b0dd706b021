"""Which opponent positions are still possible, from one seat's observations only (RBC and Blind Chess).

The model
---------
A seat always knows its own pieces (and its own castling rights); what it does not
know is the opponent's army. A **hypothesis** is one possible state of that army: a
tuple of eight ints, the opponent's pawn, knight, bishop, rook, queen and king
bitboards, its castling rights (a bitboard of rook squares, python-chess style)
and the en-passant square its last move opened for the seat (``0``: none). The
seat's pieces are stored once, beside the set, so a full board is "own pieces +
hypothesis". Squares use python-chess numbering (0 = a1).

The set starts with the public starting position (one hypothesis) and is kept up
to date with the seat's observations, in order:

- **an opponent turn** (seen when the seat's next turn starts, or when the game
  ends on a capture of the seat's king) replaces each hypothesis by every
  position the opponent's possible actions lead to, keeping only those that agree
  with what the seat was told about that turn (where a piece of its was captured,
  or that nothing was). RBC: every move action, revised as the referee revises it,
  and the pass. Blind Chess: every attempt that succeeds, and the unchanged board
  when some attempt would fail (the seat is never told of a failure) or when the
  opponent had no attempt at all.
- **an RBC sense result** keeps the hypotheses whose pieces in the 3x3 window are
  exactly the ones shown.
- **the seat's own move** keeps the hypotheses under which the referee would have
  answered exactly as it did: the move taken for the one requested and the capture
  square (RBC), success or failure, the piece captured and the pieces revealed
  (Blind Chess). Then the captured piece leaves every hypothesis.

Inside, the set is a numpy array with one column per hypothesis and a row per
field (:mod:`app.engine.inference_vec`): an opponent turn makes the successors
of every hypothesis at once, and duplicates are merged, so the set holds
distinct positions. (:func:`pack` turns a hypothesis into one int, the form the
one-position-at-a-time reference kernel :func:`expand` works on; tests check
that both make the same successors.)

Soundness
---------
Beside the set, each inference keeps a **reach** (:mod:`app.engine.inference_reach`):
for each piece type, the squares where some position consistent with the
observations may have such a piece, updated by rules that only ever over-estimate.
While the set is exact, what it reports as possible is the set's own union (exact);
once it is sampled, the reach joined with the sample. So a square is reported
impossible (:meth:`Inference.is_possible`, heat 0 in :meth:`Inference.summary`)
only when no consistent position puts a piece there, even when the sample has
lost the true position.

Sampling
--------
Sets grow by a factor of about twenty to thirty per opponent turn. An opponent
turn that would generate more than ``expansion_limit`` successors is expanded
from a weighted sample of the parents. When a set exceeds ``cap`` hypotheses, a weighted random sample of at most ``cap`` is kept
(systematic resampling, seeded: the same observations and seed give the same
sample) and :attr:`Inference.sampled` is set. An expanded set is sampled only
after the seat's next observation has filtered it (RBC: its sense; Blind Chess:
its own attempt), as long as it stays under a multiple of the cap, so that the
sample is drawn from positions that fit that observation too. Each kept
hypothesis carries a weight, the number of positions it stands for, so that
:attr:`Inference.count` becomes an estimate and the probabilities stay weighted;
exact sets have weight 1 everywhere. The estimate follows move sequences, so it
errs high; it is kept inside :meth:`Inference.count_range`, sure bounds (the
distinct positions held, and a count of the ways to place the opponent's pieces
inside the reach). A sample can miss the
true position; when a later observation rules out every kept hypothesis, the set
is rebuilt from the last small exact set with fresh samples and larger caps
(``retries`` times); if that fails too, the set stays empty and
:attr:`Inference.problem` says why.

Using it
--------
``update(observation)`` takes the seat's observations one by one (the same
objects its view gets); ``from_observations`` builds one from a list. The
objects are plain data: they pickle and :meth:`Inference.copy` cheaply, so a
window can run updates in a worker and show :meth:`Inference.summary` (a
:class:`InferenceSummary`: heat per square and per piece type, what is certainly
impossible, whether the figures are exact, the count or its range).

>>> import chess
>>> from app.games.rbc.rules import ReconChess, Sense, MoveAction
>>> from app.games.rbc.inference import RbcInference
>>> game = ReconChess()
>>> game.play(0, Sense(chess.E7)); game.play(0, MoveAction(chess.Move.from_uci("e2e4")))
>>> belief = RbcInference.from_observations(1, game.observations(1))
>>> belief.count, belief.sampled          # Black: 20 first moves and the pass
(21, False)
>>> round(belief.square_probabilities()[chess.E4], 3)
0.048
"""

from .inference_core import (DEFAULT_CAP, HEAT_SAMPLE, MIN_POSSIBLE_HEAT, InferenceSummary, Hypothesis, Inference,
                             InferenceError, InferenceOptions, expand, opponent_key, pack, systematic_resample, unpack)
from .inference_reach import Reach

__all__ = ["Hypothesis", "Inference", "InferenceError", "InferenceOptions", "InferenceSummary", "Reach", "opponent_key",
           "expand", "pack", "unpack", "systematic_resample", "DEFAULT_CAP", "HEAT_SAMPLE", "MIN_POSSIBLE_HEAT"]
