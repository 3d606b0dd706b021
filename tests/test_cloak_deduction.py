"""Cloak and Dagger deduction: what public information says about a side's arrangement.

The first tests build move histories by hand (in the shape the view keeps them:
each seen move with the occupied squares before it); the last ones play many
random games through the referee and check that the true arrangement is never
ruled out and that each checker's probabilities sum to 1.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import chess
import pytest

from app.games.cloak.deduction import (CHECKERS, PIECES, Deduction, Evidence, Tracker, arrangements, movers)

START_OCCUPIED = chess.BB_RANK_1 | chess.BB_RANK_2 | chess.BB_RANK_7 | chess.BB_RANK_8


@dataclass(frozen=True)
class FakeMoved:
    """The fields of the referee's Moved observation the deduction reads."""

    seat: int
    from_square: int
    to_square: int
    mover: str
    captured: str | None = None
    captured_identity: str | None = None
    castling: bool = False
    revealed: dict[int, str] = field(default_factory=dict)


@dataclass(frozen=True)
class FakeGuess:
    seat: int
    checker: int
    piece: str
    right: bool


def fake_view(moves: list[tuple[FakeMoved, int]], told: dict[int, dict[int, str]] | None = None,
              guesses: list[FakeGuess] | None = None) -> Any:
    return SimpleNamespace(moves=moves, told=told or {0: {}, 1: {}}, guesses=guesses or [])


def pieces_left(deduction: Deduction, checker: int) -> str:
    return "".join(piece for piece in PIECES if deduction.possible(checker, piece))


def test_the_960_arrangements_follow_the_chess960_limits() -> None:
    table = arrangements()
    assert len(table) == len(set(table)) == 960
    for letters in table:
        assert sorted(letters) == sorted("KQRRBBNN")
        rooks = [i for i, piece in enumerate(letters) if piece == "R"]
        assert rooks[0] < letters.index("K") < rooks[1]
        bishops = [i for i, piece in enumerate(letters) if piece == "B"]
        assert bishops[0] % 2 != bishops[1] % 2


@pytest.mark.parametrize("from_square, to_square, occupied, expected", [
    (chess.G1, chess.F3, START_OCCUPIED, "N"),             # a jump over the pawns
    (chess.B1, chess.D2, 0, "N"),
    (chess.C1, chess.F4, 0, "QB"),                        # a diagonal slide
    (chess.C1, chess.D2, 0, "KQB"),                       # one diagonal step
    (chess.A1, chess.A5, 0, "QR"),                        # a straight slide
    (chess.A1, chess.B1, 0, "KQR"),                       # one straight step
    (chess.A1, chess.A5, chess.BB_A3, ""),                # blocked: nothing could have done it
    (chess.C1, chess.F4, chess.BB_E3, ""),
    (chess.C1, chess.F4, chess.BB_F4 | chess.BB_C1, "QB"),  # a capture: the victim's square is occupied
    (chess.A1, chess.C4, 0, ""),                          # no piece type moves like that
])
def test_move_geometry_per_piece_type(from_square: int, to_square: int, occupied: int, expected: str) -> None:
    assert "".join(piece for piece in PIECES if piece in movers(from_square, to_square, occupied)) == expected


def test_a_knight_jump_leaves_only_the_knight() -> None:
    view = fake_view([(FakeMoved(0, chess.B1, chess.C3, "2"), START_OCCUPIED)])
    deduction = Deduction.about(view, 0)
    assert pieces_left(deduction, 2) == "N"
    assert deduction.probability(2, "N") == 1.0
    assert all(letters[1] == "N" for letters in deduction.arrangements)
    assert deduction.count == sum(1 for letters in arrangements() if letters[1] == "N")
    # The move was White's: it says nothing about Black's checkers.
    assert Deduction.about(view, 1).count == 960


def test_a_diagonal_slide_leaves_bishop_or_queen_and_a_step_the_king_too() -> None:
    occupied = START_OCCUPIED & ~chess.BB_D2
    slide = fake_view([(FakeMoved(0, chess.C1, chess.F4, "3"), occupied & ~chess.BB_E3)])
    assert pieces_left(Deduction.about(slide, 0), 3) == "QB"
    step = fake_view([(FakeMoved(0, chess.C1, chess.D2, "3"), occupied)])
    assert pieces_left(Deduction.about(step, 0), 3) == "KQB"


def test_chess960_limits_narrow_further_than_the_moves() -> None:
    # Checkers 1 and 8 both slid straight: rooks or queen. With the king between the rooks, the king cannot
    # be on a or h, which no move of theirs said.
    evidence = Evidence()
    evidence.moved(1, chess.A1, chess.A4, 0)
    evidence.moved(8, chess.H1, chess.H4, 0)
    deduction = evidence.deduce()
    assert pieces_left(deduction, 1) == "QR" and pieces_left(deduction, 8) == "QR"
    for letters in deduction.arrangements:
        assert {letters[0], letters[7]} <= {"Q", "R"}
    # At most one of them is the queen, so at least one is a rook and the king sits beside that rook's side.
    assert deduction.count == sum(1 for letters in arrangements() if {letters[0], letters[7]} <= {"Q", "R"})


def test_a_capture_tells_the_victims_identity() -> None:
    capture = FakeMoved(1, chess.D8, chess.D1, "Q", captured="4", captured_identity="Q")
    view = fake_view([(capture, START_OCCUPIED & ~chess.BB_D2 & ~chess.BB_D7)])
    about_white = Deduction.about(view, 0)
    assert pieces_left(about_white, 4) == "Q"
    assert about_white.count == sum(1 for letters in arrangements() if letters[3] == "Q")
    assert Deduction.about(view, 1).count == 960   # an uncloaked black queen moved: nothing about checkers


def test_a_cloaked_capturer_is_narrowed_by_its_capture() -> None:
    capture = FakeMoved(1, chess.B8, chess.C6, "2", captured="P")
    view = fake_view([(capture, START_OCCUPIED | chess.BB_C6)])
    assert pieces_left(Deduction.about(view, 1), 2) == "N"


def test_a_wrong_guess_excludes_and_a_right_guess_fixes() -> None:
    wrong = fake_view([], guesses=[FakeGuess(seat=1, checker=5, piece="K", right=False)])
    deduction = Deduction.about(wrong, 0)
    assert not deduction.possible(5, "K") and deduction.possible(5, "Q")
    assert deduction.count == 960 - sum(1 for letters in arrangements() if letters[4] == "K")
    right = fake_view([], guesses=[FakeGuess(seat=1, checker=5, piece="K", right=True)])
    assert pieces_left(Deduction.about(right, 0), 5) == "K"
    # Black's guess is about White's checkers, never Black's own; White's guess is about Black's.
    assert Deduction.about(right, 1).count == 960
    assert Deduction.about(fake_view([], guesses=[FakeGuess(0, 5, "K", False)]), 0).count == 960


def test_castling_reveals_king_and_rook() -> None:
    castle = FakeMoved(0, chess.B1, chess.A1, "2", castling=True, revealed={2: "K", 1: "R"})
    deduction = Deduction.about(fake_view([(castle, chess.BB_A1 | chess.BB_B1)]), 0)
    assert pieces_left(deduction, 2) == "K" and pieces_left(deduction, 1) == "R"
    # The king is between the rooks: the other rook is right of b, and no move geometry was applied to a
    # king that went "onto its rook".
    assert deduction.count == sum(1 for letters in arrangements() if letters[:2] == "RK")


def test_told_identities_from_the_view() -> None:
    view = fake_view([], told={0: {3: "B"}, 1: {}})
    deduction = Deduction.about(view, 0)
    assert pieces_left(deduction, 3) == "B"
    # c1 is dark, so the other bishop stands on a light square: b, d, f or h, never a, e or g.
    assert [checker for checker in CHECKERS if deduction.possible(checker, "B")] == [2, 3, 4, 6, 8]


def test_counts_and_probabilities_equal_brute_force_on_random_evidence() -> None:
    rng = random.Random(5)
    table = arrangements()
    for _ in range(300):
        allowed = {checker: "".join(p for p in PIECES if rng.random() < 0.7) for checker in CHECKERS}
        deduction = Deduction.from_allowed(allowed)
        brute = [letters for letters in table if all(letters[c - 1] in allowed[c] for c in CHECKERS)]
        assert deduction.count == len(brute)
        assert sorted(deduction.arrangements) == sorted(brute)
        for checker in CHECKERS:
            for piece in PIECES:
                share = sum(1 for letters in brute if letters[checker - 1] == piece) / len(brute) if brute else 0.0
                assert deduction.probability(checker, piece) == pytest.approx(share)
            if brute:
                assert sum(deduction.distribution(checker).values()) == pytest.approx(1.0)


def test_the_tracker_reads_new_moves_only_and_agrees_with_a_fresh_deduction() -> None:
    moves = [(FakeMoved(0, chess.B1, chess.C3, "2"), START_OCCUPIED)]
    view = fake_view(moves)
    tracker = Tracker(0)
    assert tracker.update(view).count == Deduction.about(view, 0).count
    moves.append((FakeMoved(0, chess.C1, chess.D2, "3"), START_OCCUPIED & ~chess.BB_D2))
    assert tracker.moves_seen == 1
    updated = tracker.update(view)
    assert tracker.moves_seen == 2
    assert updated == Deduction.about(view, 0)
    assert pieces_left(updated, 3) == "KQB"


# ---- driven by the referee -------------------------------------------------------------------------------

def _catch_up(game: Any, seat: int, reader: Any, done: list[int]) -> None:
    """Hand ``reader`` (a bot's observe or a view's apply) the observations of ``seat`` it has not had yet."""
    observations = game.observations(seat)
    for observation in observations[done[seat]:]:
        reader(observation)
    done[seat] = len(observations)


def _random_games(count: int, max_steps: int = 400) -> Any:
    """Yield (game, true arrangements, both seats' views) after every action of ``count`` games between random
    bots (the views are kept up to date observation by observation)."""
    from app.bots.base import ActionRequest
    from app.games.cloak.bots import CloakRandomBot
    from app.games.cloak.rules import Arrange, CloakChess
    from app.games.cloak.view import CloakView

    for number in range(count):
        game = CloakChess.from_options({})
        bots = [CloakRandomBot(seed=2 * number), CloakRandomBot(seed=2 * number + 1)]
        views = [CloakView.from_observations(()), CloakView.from_observations(())]
        for index, bot in enumerate(bots):
            bot.start(index, game.options())
        bots_fed, views_fed = [0, 0], [0, 0]
        true: dict[int, str] = {}
        steps = 0
        while not game.is_over and steps < max_steps:
            to_move = game.to_move
            assert to_move is not None
            for index, bot in enumerate(bots):
                _catch_up(game, index, bot.observe, bots_fed)
            action = bots[to_move].act(ActionRequest(to_move, game.phase, game.choices(), float("inf")))
            if isinstance(action, Arrange):
                true[to_move] = action.pieces
            game.play(to_move, action)
            steps += 1
            if len(true) == 2:
                for index, view in enumerate(views):
                    _catch_up(game, index, view.apply, views_fed)
                yield game, true, views


def test_the_true_arrangement_is_always_consistent_and_both_seats_deduce_the_same() -> None:
    checked = 0
    narrowed = 0
    trackers: dict[tuple[int, int], Tracker] = {}
    kinds_seen: set[str] = set()
    last_game = None
    for game, true, views in _random_games(25):
        if game is not last_game:
            if last_game is not None:
                kinds_seen |= _evidence_kinds(last_game)
            last_game = game
            trackers = {(viewer, side): Tracker(side) for viewer in (0, 1) for side in (0, 1)}
        for side in (0, 1):
            deduction = trackers[1 - side, side].update(views[1 - side])
            assert true[side] in deduction.arrangements, (side, true[side], dict(deduction.allowed))
            for checker in CHECKERS:
                assert sum(deduction.distribution(checker).values()) == pytest.approx(1.0)
            # Everything used is public: the side's own seat deduces exactly what its opponent deduces.
            assert trackers[side, side].update(views[side]) == deduction
            if checked % 7 == 0:   # the incremental tracker agrees with a deduction from scratch
                assert Deduction.about(views[1 - side], side) == deduction
            narrowed += deduction.count < 960
            checked += 1
    kinds_seen |= _evidence_kinds(last_game)
    assert checked > 1000
    assert narrowed > checked // 2    # the evidence does narrow things down
    assert kinds_seen == {"cloaked move", "capture told", "castling", "right guess", "wrong guess", "uncloaked"}


def _evidence_kinds(game: Any) -> set[str]:
    """Which kinds of evidence the game's public observations held (so the test shows it met them all)."""
    from app.games.cloak.view import Guessed, Moved, Uncloaked
    kinds = set()
    for observation in game.observations(0):
        if isinstance(observation, Moved):
            if observation.castling:
                kinds.add("castling")
            elif observation.mover.isdigit():
                kinds.add("cloaked move")
            if observation.captured_identity:
                kinds.add("capture told")
        elif isinstance(observation, Guessed):
            kinds.add("right guess" if observation.right else "wrong guess")
        elif isinstance(observation, Uncloaked) and observation.identities:
            kinds.add("uncloaked")
    return kinds


def test_time_per_deduction_on_a_long_game() -> None:
    import time
    from app.games.cloak.view import CloakView
    longest = None
    for game, _, _ in _random_games(10):
        if longest is None or len(game.observations(0)) > len(longest.observations(0)):
            longest = game
    assert longest is not None
    view = CloakView.from_observations(longest.observations(0))
    started = time.perf_counter()
    for _ in range(20):
        Deduction.about(view, 1)
    per_call = (time.perf_counter() - started) / 20
    assert per_call < 0.05, f"{per_call * 1000:.1f} ms for {len(view.moves)} moves"


def test_the_public_deduction_of_a_growing_view_reads_each_move_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The referee's legal moves and each seat's view ask what is public about a side at every step
    (``public_knowledge``, ruling CD6b). Each ask made a new tracker that read the whole game again: a long
    game's steps grew slower and slower. Now a view keeps its trackers, and each move is read once per side."""
    reads = 0
    original = Tracker._read_move

    def counted(self: Tracker, entry: Any) -> None:
        nonlocal reads
        reads += 1
        original(self, entry)

    monkeypatch.setattr(Tracker, "_read_move", counted)
    last: dict[int, Any] = {}  # each game's views, as they stand at its end
    for game, _true, views in _random_games(6, max_steps=160):
        for view in views:
            for side in (0, 1):
                Deduction.about(view, side)
        last[id(game)] = [*views, game.public]  # (the referee asks about its public view for the legal moves)
    moves = sum(len(view.moves) for views in last.values() for view in views)
    # Each move of each view at most once per side (the referee's view is not asked again after the last move).
    assert moves > 100 and reads <= 2 * moves
    monkeypatch.setattr(Tracker, "_read_move", original)
    for views in last.values():  # and what the kept trackers say is what a fresh read of the whole view says
        for view in views:
            for side in (0, 1):
                assert Deduction.about(view, side).allowed == Tracker(side).update(view).allowed
