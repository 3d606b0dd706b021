"""A belief reset's guess stays uncertain (issue 26): no "certain" king capture on a guessed position.

When a sampled belief loses the true position and cannot be rebuilt in time, the tracker resets it to a guess.
Held as one position, that guess looked as certain as a position known from the start, and the Blind Chess bot took
a king "on every possible position" that stood elsewhere. The reset is forced here on a small known game: White's
rook went to a8 (the king stood on e8), then the black king stepped away, unseen.
"""

from __future__ import annotations

import chess

from app.bots.base import ActionRequest
from app.bots.belief_common import OpponentTracker
from app.bots.timing import Deadline
from app.engine.inference import InferenceOptions
from app.games.blind.belief_bot import BlindBeliefBot
from app.games.blind.rules import Attempt, BlindChess, TurnStarted

START = "4k3/8/8/8/8/8/8/R3K3 w - - 0 1"


def _game() -> BlindChess:
    game = BlindChess(START)
    game.play(0, Attempt(chess.Move.from_uci("a1a8")))   # the rook now attacks b8 ... e8
    game.play(1, Attempt(chess.Move.from_uci("e8e7")))   # the king leaves rank 8, unseen by White
    return game


def _reset(tracker: OpponentTracker) -> None:
    """Reset the belief at White's turn start, as if the sample had lost the truth there and no time was left
    to rebuild it (the inference before that observation is what a reset guesses from)."""
    index = max(i for i, observation in enumerate(tracker.observations) if isinstance(observation, TurnStarted))
    tracker.applied = index
    before = tracker.inference.copy()
    tracker.applied = index + 1
    tracker._recover(index, before, Deadline(0.0))


def _ready_bot() -> tuple[BlindChess, BlindBeliefBot]:
    game = _game()
    bot = BlindBeliefBot(seed=3, level="hard")
    bot.start(0, game.options())
    observations = game.observations(0)
    turn = max(i for i, observation in enumerate(observations) if isinstance(observation, TurnStarted))
    for observation in observations[:turn]:
        bot.observe(observation)
    bot.tracker.catch_up(Deadline(5.0))        # the belief before Black's move: the king on e8, known
    assert bot.tracker.inference.size == 1
    bot.observe(observations[turn])
    return game, bot


def test_a_reset_holds_several_positions_and_the_king_on_several_squares() -> None:
    _, bot = _ready_bot()
    tracker = bot.tracker
    _reset(tracker)
    assert tracker.resets == 1 and tracker.guessed_at == tracker.applied
    kings = {board.king(chess.BLACK) for board, _ in tracker.inference.positions()}
    assert tracker.inference.size > 1 and len(kings) > 1
    assert chess.E7 in kings                   # where the king really went is among the guesses
    # Every guessed position still has White's pieces as they are, and weights that make a distribution.
    for board, weight in tracker.inference.positions():
        assert board.piece_at(chess.A8) == chess.Piece(chess.ROOK, chess.WHITE) and weight > 0


def test_after_a_reset_the_bot_takes_no_certain_king_capture() -> None:
    game, bot = _ready_bot()
    _reset(bot.tracker)
    attempts = list(game.choices()["attempts"])
    assert bot._certain_king_capture(bot.tracker.inference, attempts) is None


def test_the_guess_alone_would_have_been_certain() -> None:
    # The same reset with widening undone (one guess, as before the fix): its king capture was "certain".
    import app.bots.belief_common as common
    game, bot = _ready_bot()
    saved = (common.RESET_GUESSES, common.widen_guess)
    try:
        common.RESET_GUESSES = 1
        common.widen_guess = lambda guesses, hint=None: guesses[0]  # type: ignore[assignment]
        _reset(bot.tracker)
    finally:
        common.RESET_GUESSES, common.widen_guess = saved
    assert bot.tracker.inference.size == 1
    bot.tracker.guessed_at = None              # and trusted as if it were known
    attempts = list(game.choices()["attempts"])
    assert bot._certain_king_capture(bot.tracker.inference, attempts) == chess.Move.from_uci("a8e8")


def test_the_bot_plays_on_after_a_reset() -> None:
    game, bot = _ready_bot()
    _reset(bot.tracker)
    action = bot.act(ActionRequest(0, game.phase, game.choices(), 60.0))
    assert isinstance(action, Attempt) and not bot.failures
    game.play(0, action)
    assert not game.is_over or game.outcome is not None


def test_rbc_resets_are_widened_too() -> None:
    from app.games.rbc.belief_bot import RBCBeliefBot
    from app.games.rbc.rules import MoveAction, ReconChess, Sense
    game = ReconChess(fen="4k3/8/8/8/8/8/8/R3K3 w - - 0 1")
    game.play(0, Sense(chess.E7))
    game.play(0, MoveAction(chess.Move.from_uci("a1a8")))
    game.play(1, Sense(chess.B2))
    game.play(1, MoveAction(chess.Move.from_uci("e8e7")))
    bot = RBCBeliefBot(seed=2, level="medium")
    bot.start(0, game.options())
    for observation in game.observations(0):
        bot.observe(observation)
    tracker = bot.tracker
    index = max(i for i, observation in enumerate(tracker.observations)
                if type(observation).__name__ == "TurnStarted")
    for observation in tracker.observations[:index]:
        tracker.inference.update(observation)
    before = tracker.inference.copy()
    tracker.applied = index + 1
    tracker._recover(index, before, Deadline(0.0))
    assert tracker.resets == 1
    kings = {board.king(chess.BLACK) for board, _ in tracker.inference.positions()}
    assert len(kings) > 1
    assert bot._certain_king_capture(tracker.inference, game.choices()["move_actions"]) is None


def test_guessed_at_ends_with_confirmation_of_the_king() -> None:
    # A reveal of the king after the reset lets the shortcut be taken again.
    _, bot = _ready_bot()
    _reset(bot.tracker)
    assert not bot._king_seen_since_reset()
    from app.games.blind.rules import AttemptResult
    bot.tracker.observations.append(AttemptResult(5, chess.Move.from_uci("a8a7"), True, None,
                                                  ((chess.E7, chess.Piece(chess.KING, chess.BLACK)),)))
    bot.tracker.applied = len(bot.tracker.observations)
    assert bot._king_seen_since_reset()


def test_options_are_kept() -> None:
    _, bot = _ready_bot()
    cap = bot.tracker.options.cap
    _reset(bot.tracker)
    assert bot.tracker.inference.options.cap == cap
    assert isinstance(bot.tracker.options, InferenceOptions)
