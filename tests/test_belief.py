"""The belief board (app/engine/belief.py): editing with undo/redo, JSON, palette counts, contradictions, review."""

from __future__ import annotations

import random

import chess
import pytest

from app.engine.belief import (
    HISTORY_LIMIT,
    BeliefBoard,
    knowledge,
    palette_counts,
    parse_pieces,
    positions_text,
    review,
)
from app.games.blind.rules import Attempt, BlindChess, BlindChessView, CaptureMade
from app.games.minit.rules import MinitChess, MinitChessView
from app.games.rbc.rules import MoveAction, ReconChess, ReconChessView, Sense
from app.engine.record import GameSession

# ---- helpers -------------------------------------------------------------------------------------------


def rbc_view(game: ReconChess, seat: int = 0) -> ReconChessView:
    return ReconChessView.from_observations(game.observations(seat))


def blind_view(game: BlindChess, seat: int = 0) -> BlindChessView:
    return BlindChessView.from_observations(game.observations(seat))


def rbc_turn(game: ReconChess, seat: int, sense: str | None, move: str | None) -> None:
    game.play(seat, Sense.parse(sense))
    game.play(seat, MoveAction.parse(move))


def truth_pieces(board: chess.Board, color: chess.Color) -> dict[int, int]:
    return {square: piece.piece_type for square, piece in board.piece_map(mask=board.occupied_co[color]).items()}


# ---- editing and history ----------------------------------------------------------------------------------


def test_place_move_remove_clear_with_undo_and_redo() -> None:
    belief = BeliefBoard(chess.BLACK)
    assert belief.place(chess.E7, chess.PAWN)
    assert not belief.place(chess.E7, chess.PAWN)  # nothing changed: no undo step
    assert belief.place(chess.G8, chess.KNIGHT)
    assert belief.move(chess.G8, chess.F6)
    assert belief.pieces() == {chess.E7: chess.PAWN, chess.F6: chess.KNIGHT}
    assert belief.move(chess.F6, chess.E7)  # onto another supposed piece: replaces it
    assert belief.pieces() == {chess.E7: chess.KNIGHT}
    assert belief.remove(chess.E7) and not belief.remove(chess.E7)
    assert len(belief) == 0 and not belief.clear()

    assert belief.undo() and belief.pieces() == {chess.E7: chess.KNIGHT}
    assert belief.undo() and belief.pieces() == {chess.E7: chess.PAWN, chess.F6: chess.KNIGHT}
    assert belief.redo() and belief.pieces() == {chess.E7: chess.KNIGHT}
    assert belief.can_redo
    assert belief.place(chess.A5, chess.ROOK)  # a new change forgets what was undone
    assert not belief.can_redo and not belief.redo()
    while belief.undo():
        pass
    assert belief.pieces() == {} and not belief.can_undo


def test_every_change_is_stamped_with_the_current_ply_and_kept_newest_last() -> None:
    belief = BeliefBoard(chess.BLACK)
    belief.place(chess.E7, chess.PAWN)
    belief.ply = 6
    belief.place(chess.D5, chess.PAWN)
    belief.move(chess.E7, chess.E5)
    stamps = {square: supposed.since for square, supposed in belief.hypotheses().items()}
    assert stamps == {chess.D5: 6, chess.E5: 6}
    assert list(belief) == [chess.D5, chess.E5]
    belief.ply = 8
    assert belief.set_pieces({chess.D5: chess.PAWN, chess.C6: chess.KNIGHT})
    assert belief.hypotheses()[chess.D5].since == 6  # unchanged pieces keep their stamp
    assert belief.hypotheses()[chess.C6].since == 8


def test_history_is_bounded() -> None:
    belief = BeliefBoard(chess.BLACK)
    for index in range(HISTORY_LIMIT + 20):
        belief.place(index % 64, chess.KNIGHT if index // 64 % 2 else chess.BISHOP)
    undone = 0
    while belief.undo():
        undone += 1
    assert undone == HISTORY_LIMIT


@pytest.mark.parametrize("call", [
    lambda b: b.place(64, chess.PAWN),
    lambda b: b.place(-1, chess.PAWN),
    lambda b: b.place(True, chess.PAWN),
    lambda b: b.place(chess.E4, 7),
    lambda b: b.place(chess.E4, "p"),
    lambda b: b.move(chess.E4, chess.E5),  # nothing there
    lambda b: b.move(chess.E4, 99),
    lambda b: b.remove("e4"),
])
def test_bad_squares_and_types_raise_value_error(call) -> None:
    belief = BeliefBoard(chess.BLACK)
    with pytest.raises(ValueError):
        call(belief)
    assert not belief.can_undo


def test_starting_position_for_either_colour_and_bad_requests() -> None:
    belief = BeliefBoard(chess.WHITE)  # the seat plays Black
    assert belief.place_starting_position("blind", chess.BLACK)
    assert belief.pieces() == truth_pieces(chess.Board(), chess.WHITE)
    assert belief.letters()[chess.E1] == "K"
    belief.undo()
    assert belief.place_starting_position("rbc", chess.BLACK, skip={chess.E2, chess.D1})
    assert len(belief) == 14 and chess.E2 not in belief
    custom = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"
    assert belief.place_starting_position("rbc", chess.BLACK, fen=custom)
    assert belief.pieces() == {chess.E1: chess.KING, chess.E2: chess.PAWN}
    with pytest.raises(ValueError, match="hidden-information"):
        belief.place_starting_position("minit", chess.BLACK)
    with pytest.raises(ValueError, match="colour"):
        belief.place_starting_position("rbc", chess.WHITE)
    with pytest.raises(ValueError, match="bad starting position"):
        belief.place_starting_position("rbc", chess.BLACK, fen="not a fen")


# ---- JSON ----------------------------------------------------------------------------------------------------


def test_json_round_trip() -> None:
    belief = BeliefBoard(chess.BLACK)
    belief.place_starting_position("rbc", chess.WHITE)
    belief.move(chess.G8, chess.F6)
    data = belief.to_json()
    assert data["pieces"]["f6"] == "n" and data["pieces"]["e8"] == "k" and len(data["pieces"]) == 16
    again = BeliefBoard.from_json(data, chess.BLACK, ply=4)
    assert again.pieces() == belief.pieces()
    assert again.hypotheses() == belief.hypotheses()  # the half-move stamps come back too
    bare = BeliefBoard.from_json(data["pieces"], chess.BLACK, ply=4)  # the bare form: stamped with ply
    assert all(supposed.since == 4 for supposed in bare.hypotheses().values())
    assert BeliefBoard.from_json({}, chess.WHITE).pieces() == {}


@pytest.mark.parametrize("data, message", [
    ([["e7", "p"]], "expected an object"),
    ("e7p", "expected an object"),
    ({"e9": "p"}, "'e9' is not a square"),
    ({"E7": "p"}, "'E7' is not a square"),
    ({"e7": "P"}, "the piece on e7 is 'P'"),
    ({"e7": "pawn"}, "the piece on e7 is 'pawn'"),
    ({"e7": 1}, "the piece on e7 is 1"),
    ({"e7": None}, "the piece on e7 is None"),
])
def test_bad_json_is_refused_with_a_clear_message(data, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        BeliefBoard.from_json(data, chess.BLACK)
    with pytest.raises(ValueError, match="belief board"):
        parse_pieces(data)


# ---- palette counts ------------------------------------------------------------------------------------------


def test_palette_counts_after_blind_captures() -> None:
    game = BlindChess()
    game.play(0, Attempt.parse("e2e4"))
    game.play(1, Attempt.parse("d7d5"))
    game.play(0, Attempt.parse("e4d5"))  # takes a pawn
    counts = palette_counts(blind_view(game, 0))
    assert counts[chess.PAWN] == 7 and counts[chess.QUEEN] == 1 and counts.total == 15
    assert counts.captured[chess.PAWN] == 1 and counts.unknown_captures == 0
    assert counts.promotions_possible
    # Black lost a pawn but captured nothing: its palette is the whole army.
    assert palette_counts(blind_view(game, 1)).total == 16


def test_palette_counts_account_for_promoted_pieces() -> None:
    view = BlindChessView()
    view.captures = [CaptureMade(10, chess.QUEEN, chess.D4), CaptureMade(20, chess.QUEEN, chess.D5),
                     CaptureMade(30, chess.PAWN, chess.A6)]
    counts = palette_counts(view)
    # The second queen was a promoted pawn: 8 pawns - 1 captured - 1 promoted.
    assert counts[chess.QUEEN] == 0 and counts[chess.PAWN] == 6 and counts.total == 13
    for _ in range(7):
        view.captures.append(CaptureMade(40, chess.PAWN, chess.A6))
    counts = palette_counts(view)
    assert counts[chess.PAWN] == 0 and not counts.promotions_possible


def test_rbc_capture_type_is_known_only_when_the_same_turn_sensed_it() -> None:
    game = ReconChess()
    rbc_turn(game, 0, "e2", "e2e4")
    rbc_turn(game, 1, "e7", "d7d5")
    rbc_turn(game, 0, "d6", "e4d5")  # the sense of this turn saw the pawn on d5
    rbc_turn(game, 1, "e7", "d8d5")  # the queen takes back, unseen by White
    rbc_turn(game, 0, "a7", "b1c3")
    rbc_turn(game, 1, "e7", "d5d2")  # the queen takes d2
    rbc_turn(game, 0, "h7", "c1d2")  # White takes the queen without sensing d2
    counts = palette_counts(rbc_view(game, 0))
    assert counts.captured[chess.PAWN] == 1 and counts.unknown_captures == 1
    assert counts[chess.PAWN] == 7 and counts[chess.QUEEN] == 1 and counts.total == 14
    assert knowledge(rbc_view(game, 0))[chess.D2].what == "you captured a piece here on turn 4"


def test_views_of_games_without_hidden_pieces_are_refused() -> None:
    view = MinitChessView.from_observations(MinitChess().observations(0))
    with pytest.raises(TypeError, match="Reconnaissance Blind Chess or Blind Chess"):
        palette_counts(view)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        BeliefBoard(chess.BLACK).contradictions(view)  # type: ignore[arg-type]


# ---- contradictions --------------------------------------------------------------------------------------------


def test_rbc_sense_showing_empty_or_another_piece_flags_the_hypothesis() -> None:
    game = ReconChess()
    belief = BeliefBoard(chess.BLACK, ply=rbc_view(game).ply)
    belief.place_starting_position("rbc", chess.WHITE)
    belief.move(chess.E7, chess.E6)  # wrong: e6 is empty
    belief.move(chess.F8, chess.F7)  # wrong: a pawn is there
    belief.place(chess.E4, chess.KNIGHT)  # wrong but outside the sense
    assert belief.contradictions(rbc_view(game)) == {}
    game.play(0, Sense(chess.E7))  # d6..f8
    flags = belief.contradictions(rbc_view(game))
    assert flags == {chess.E6: "sensed empty on turn 1", chess.F7: "a pawn was sensed here on turn 1"}
    # A matching hypothesis in the sense window (d7, e8, d8...) is not flagged.
    assert chess.D7 not in flags and chess.E8 not in flags


def test_rbc_an_old_sense_does_not_contradict_a_later_hypothesis() -> None:
    game = ReconChess()
    rbc_turn(game, 0, "e6", "e2e4")  # e5 was empty at ply 0
    rbc_turn(game, 1, "e2", "e7e5")
    view = rbc_view(game)  # White's second turn (ply 2), before sensing
    belief = BeliefBoard(chess.BLACK, ply=0)
    belief.place(chess.F6, chess.KNIGHT)  # placed at ply 0, the sense of ply 0 showed it empty
    belief.ply = view.ply
    belief.place(chess.E5, chess.PAWN)  # placed at ply 2: the sense of ply 0 is older
    assert belief.contradictions(view) == {chess.F6: "sensed empty on turn 1"}
    game.play(0, Sense(chess.E6))  # now the current turn's sense shows the pawn on e5
    assert belief.contradictions(rbc_view(game)) == {chess.F6: "sensed empty on turn 2"}
    belief.place(chess.E5, chess.BISHOP)
    assert belief.contradictions(rbc_view(game))[chess.E5] == "a pawn was sensed here on turn 2"


def test_rbc_own_pieces_moves_and_captures_flag_hypotheses() -> None:
    game = ReconChess()
    belief = BeliefBoard(chess.BLACK)
    belief.place(chess.E2, chess.QUEEN)  # where White's own pawn stands
    belief.place(chess.D3, chess.BISHOP)  # the bishop's path below
    belief.place(chess.H6, chess.PAWN)
    belief.place(chess.A1, chess.PAWN)
    assert belief.contradictions(rbc_view(game)) == {
        chess.E2: "your pawn stands here", chess.A1: "your rook stands here"}
    rbc_turn(game, 0, "a7", "e2e3")
    rbc_turn(game, 1, "a2", "a7a6")
    rbc_turn(game, 0, "a7", "f1c4")  # passes e2, d3
    flags = belief.contradictions(rbc_view(game))
    assert flags[chess.D3] == "your move f1c4 passed over it on turn 2"
    assert flags[chess.E2] == "your move f1c4 passed over it on turn 2"  # the pawn had left it
    rbc_turn(game, 1, "a2", "g8f6")
    rbc_turn(game, 0, "a7", "c4f7")  # captures the pawn on f7 (unseen)
    belief.place(chess.H8, chess.PAWN)  # a pawn on the last rank is never possible
    flags = belief.contradictions(rbc_view(game))
    assert flags[chess.H8] == "a pawn cannot stand on the first or last rank"
    belief.ply = 4
    belief.place(chess.F7, chess.PAWN)
    assert belief.contradictions(rbc_view(game))[chess.F7] == "your bishop stands here"
    rbc_turn(game, 1, "a2", "e8f7")  # the king takes the bishop: White is told of the capture
    view = rbc_view(game)
    assert knowledge(view)[chess.F7].kind == "occupied"
    assert chess.F7 not in belief.contradictions(view)


def test_too_many_kings_or_pawns_flag_the_newest() -> None:
    game = ReconChess()
    belief = BeliefBoard(chess.BLACK)
    belief.place(chess.E8, chess.KING)
    belief.place(chess.D8, chess.KING)
    for file in range(8):
        belief.place(chess.square(file, 5), chess.PAWN)
    belief.place(chess.A4, chess.PAWN)
    flags = belief.contradictions(rbc_view(game))
    assert flags == {chess.D8: "the opponent has only one king", chess.A4: "the opponent has at most 8 pawns left"}


def test_blind_reveal_flags_a_hypothesis_of_another_type() -> None:
    game = BlindChess()
    belief = BeliefBoard(chess.BLACK)
    belief.place(chess.D5, chess.KNIGHT)
    belief.place(chess.C6, chess.KNIGHT)
    game.play(0, Attempt.parse("e2e4"))
    game.play(1, Attempt.parse("d7d5"))
    assert belief.contradictions(blind_view(game)) == {}
    game.play(0, Attempt.parse("d2d4"))  # reveals the pawn on d5 (in front of d4)
    view = blind_view(game)
    assert view.sightings[chess.D5].piece == chess.Piece(chess.PAWN, chess.BLACK)
    assert belief.contradictions(view) == {chess.D5: "a pawn was revealed here on turn 2"}
    belief.place(chess.D5, chess.PAWN)
    assert belief.contradictions(view) == {}
    game.play(1, Attempt.parse("a7a6"))
    game.play(0, Attempt.parse("e4d5"))  # takes it
    flags = belief.contradictions(blind_view(game))
    assert flags == {chess.D5: "your pawn stands here"}
    assert knowledge(blind_view(game))[chess.D5].what == "you captured a pawn here on turn 3"


def test_blind_moves_that_reveal_nothing_show_empty_squares() -> None:
    game = BlindChess()
    belief = BeliefBoard(chess.WHITE)  # Black's notebook
    belief.place_starting_position("blind", chess.BLACK)
    belief.move(chess.D2, chess.D4)
    belief.place(chess.C6, chess.KNIGHT)
    game.play(0, Attempt.parse("e2e4"))
    game.play(1, Attempt.parse("d7d5"))  # would reveal a piece on d4 (in front), c6 or e6 (diagonals of d7)
    flags = belief.contradictions(blind_view(game, 1))
    assert flags == {chess.D4: "your move d7d5 on turn 1 revealed no piece here",
                     chess.C6: "your move d7d5 on turn 1 revealed no piece here"}


def test_blind_castling_and_promotion_are_taken_back_to_find_what_a_move_would_reveal() -> None:
    game = BlindChess("4k3/P7/8/8/8/8/8/4K2R w K - 0 1")
    before = {}
    for seat, move in ((0, "e1g1"), (1, "e8d7"), (0, "a7a8q"), (1, "d7c7"), (0, "a8a1")):
        if seat == 0:
            before[game.ply] = game.board.copy(stack=False)
        game.play(seat, Attempt.parse(move))
    view = blind_view(game, 0)
    from app.games.blind.belief_kit import _blind_boards_before
    boards = _blind_boards_before(view)
    assert boards is not None and set(boards) == set(before)
    for ply, board in boards.items():
        assert board.piece_map() == before[ply].piece_map(mask=before[ply].occupied_co[chess.WHITE])
    facts = knowledge(view)
    # The rook's rule from h1 during castling: the h-file was empty.
    assert facts[chess.H5].what == "your move e1g1 on turn 1 revealed no piece here"
    # The queen a8-a1 walked down the a-file and along the 8th rank and the long diagonal: nothing there.
    assert facts[chess.H8].what == "your move a8a1 on turn 3 revealed no piece here"
    assert facts[chess.A4].what == "your move a8a1 passed over it on turn 3"


def test_blind_capture_contradicts_a_hypothesis_left_on_the_square() -> None:
    game = BlindChess()
    game.play(0, Attempt.parse("e2e4"))
    game.play(1, Attempt.parse("d7d5"))
    belief = BeliefBoard(chess.BLACK, ply=2)
    belief.place(chess.D5, chess.PAWN)
    game.play(0, Attempt.parse("e4d5"))
    game.play(1, Attempt.parse("a7a6"))
    game.play(0, Attempt.parse("d5d6"))  # the pawn moves on: no own piece on d5 now, the capture still counts
    assert belief.contradictions(blind_view(game)) == {chess.D5: "you captured a pawn here on turn 2"}


def test_fix_flagged_moves_the_obvious_piece_and_removes_the_rest_in_one_step() -> None:
    game = ReconChess()
    rbc_turn(game, 0, "a7", "e2e4")
    rbc_turn(game, 1, "a2", "g8f6")
    belief = BeliefBoard(chess.BLACK, ply=2)
    belief.place(chess.E5, chess.KNIGHT)
    belief.place(chess.E6, chess.PAWN)
    belief.place(chess.A8, chess.ROOK)
    game.play(0, Sense(chess.F5))  # e4..g6: f6 holds a knight; e5 and e6 are empty
    view = rbc_view(game)
    assert set(belief.contradictions(view)) == {chess.E5, chess.E6}
    changes = belief.fix_flagged(view)
    assert changes == {chess.E5: chess.F6, chess.E6: None}
    assert belief.pieces() == {chess.A8: chess.ROOK, chess.F6: chess.KNIGHT}
    assert belief.contradictions(view) == {}
    assert belief.undo() and set(belief.pieces()) == {chess.E5, chess.E6, chess.A8}
    assert BeliefBoard(chess.BLACK).fix_flagged(view) == {}


def test_accuracy() -> None:
    belief = BeliefBoard(chess.BLACK)
    assert belief.accuracy(chess.Board()) is None
    belief.place_starting_position("rbc", chess.WHITE)
    assert belief.accuracy(chess.Board()) == 1.0
    board = chess.Board()
    board.push_san("e4")
    board.push_san("Nf6")
    assert belief.score(board) == (15, 16)
    belief.place(chess.F6, chess.BISHOP)  # right square, wrong type
    assert belief.score(board) == (15, 17)
    white = BeliefBoard(chess.WHITE)
    white.place(chess.E4, chess.PAWN)
    assert white.accuracy(board) == 1.0


def test_positions_text() -> None:
    assert positions_text(12437, exact=False) == "about 12,400 positions possible"
    assert positions_text(12437) == "12,437 positions possible"
    assert positions_text(1, exact=False) == "about 1 position possible"
    assert positions_text(0) == "no position fits what you know"


# ---- properties over random games ----------------------------------------------------------------------------


def _random_rbc_views(rng: random.Random, plies: int):
    game = ReconChess()
    while not game.is_over and game.ply < plies:
        seat = game.to_move
        assert seat is not None
        if game.phase == "sense":
            game.play(seat, Sense(rng.randrange(64)))
        else:
            game.play(seat, MoveAction(rng.choice(list(game.move_actions()) + [None])))
        yield game.board.copy(stack=False), seat, rbc_view(game, seat)


def _random_blind_views(rng: random.Random, plies: int):
    game = BlindChess()
    while not game.is_over and game.ply < plies:
        seat = game.to_move
        assert seat is not None
        game.play(seat, Attempt(rng.choice(game.attempts())))
        for viewer in (0, 1):
            yield game.board.copy(stack=False), viewer, blind_view(game, viewer)


@pytest.mark.parametrize("seed", range(6))
def test_the_truth_placed_now_is_never_flagged(seed: int) -> None:
    """Soundness: every fact that counts is true now, so the true position is never contradicted."""
    rng = random.Random(seed)
    views = list(_random_rbc_views(rng, 80)) + list(_random_blind_views(rng, 160))
    for board, seat, view in views[::3]:
        enemy = chess.BLACK if seat == 0 else chess.WHITE
        belief = BeliefBoard(enemy, ply=view.ply)
        true = truth_pieces(board, enemy)
        belief.set_pieces(true)
        assert belief.contradictions(view) == {}, (type(view).__name__, seat, board.fen())
        counts = palette_counts(view)
        assert len(true) <= counts.total
        assert list(true.values()).count(chess.PAWN) <= counts[chess.PAWN]


@pytest.mark.parametrize("seed", range(3))
def test_blind_own_boards_are_rebuilt_exactly(seed: int) -> None:
    from app.games.blind.belief_kit import _blind_boards_before
    rng = random.Random(200 + seed)
    game = BlindChess()
    before: dict[int, chess.Board] = {}
    while not game.is_over and game.ply < 300:
        seat = game.to_move
        assert seat is not None
        if seat == 0:
            before[game.ply] = game.board.copy(stack=False)
        game.play(seat, Attempt(rng.choice(game.attempts())))
    view = blind_view(game, 0)
    boards = _blind_boards_before(view)
    assert boards is not None and set(boards) == {result.ply for result in view.results if result.success}
    for ply, board in boards.items():
        assert board.piece_map() == before[ply].piece_map(mask=before[ply].occupied_co[chess.WHITE])


@pytest.mark.parametrize("seed", range(4))
def test_after_fix_flagged_nothing_is_flagged(seed: int) -> None:
    rng = random.Random(100 + seed)
    views = list(_random_rbc_views(rng, 60)) + list(_random_blind_views(rng, 60))
    for _, seat, view in views[::4]:
        belief = BeliefBoard(chess.BLACK if seat == 0 else chess.WHITE, ply=max(0, view.ply - rng.randrange(6)))
        for _ in range(rng.randrange(1, 20)):
            belief.place(rng.randrange(64), rng.choice(chess.PIECE_TYPES))
        belief.ply = view.ply
        belief.fix_flagged(view)
        assert belief.contradictions(view) == {}


# ---- review: belief against truth ------------------------------------------------------------------------------


def test_review_scores_recorded_hypotheses_turn_by_turn() -> None:
    session = GameSession(ReconChess())
    belief = BeliefBoard(chess.BLACK)
    belief.place_starting_position("rbc", chess.WHITE)
    session.set_notes(0, hypotheses=belief.to_json())
    for seat, sense, move in ((0, "e7", "e2e4"), (1, "e2", "e7e5"), (0, "e6", "g1f3"), (1, "a2", "b8c6")):
        session.play(seat, Sense.parse(sense))
        if seat == 0 and move == "g1f3":
            belief.move(chess.E7, chess.E5)  # after the sense of turn 2
            session.set_notes(0, hypotheses=belief.to_json())
        session.play(seat, MoveAction.parse(move))
    rows = review(session.record, 0)
    assert [row.ply for row in rows] == [0, 1, 2, 3, 4]
    # Each half-move is judged with the hypotheses the seat had when it ended (its last step): White moved
    # its supposed pawn to e5 during ply 2, after Black's e7e5.
    assert [row.step for row in rows] == [1, 3, 5, 7, 8]
    assert [(row.right, row.placed) for row in rows] == [(16, 16), (16, 16), (16, 16), (16, 16), (15, 16)]
    assert rows[0].accuracy == 1.0 and rows[4].accuracy == 15 / 16
    assert rows[2].pieces[chess.E5] == chess.PAWN and chess.E5 not in rows[1].pieces
    assert review(session.record, 1) == []  # Black supposed nothing


def test_review_refuses_bad_hypotheses_and_other_games() -> None:
    session = GameSession(BlindChess())
    session.set_notes(1, hypotheses={"e9": "p"})
    with pytest.raises(ValueError, match="note 1: belief board: 'e9' is not a square"):
        review(session.record, 1)
    with pytest.raises(ValueError, match="Reconnaissance Blind Chess and Blind Chess"):
        review(GameSession(MinitChess()).record, 0)


def test_flags_survive_a_save_and_reload() -> None:
    from app.games.rbc.rules import MoveAction, ReconChess, ReconChessView, Sense
    game = ReconChess()
    belief = BeliefBoard(chess.BLACK)
    belief.place(chess.D7, chess.PAWN)  # White supposes the d-pawn is at home
    game.play(0, Sense.parse("a1"))
    game.play(0, MoveAction.parse("e2e4"))
    game.play(1, Sense.parse("a8"))
    game.play(1, MoveAction.parse("d7d5"))
    game.play(0, Sense.parse("d7"))  # ... and sees d7 empty
    view = ReconChessView.from_observations(game.observations(0))
    assert chess.D7 in belief.contradictions(view)
    again = BeliefBoard.from_json(belief.to_json(), chess.BLACK, ply=view.ply)
    assert again.contradictions(view) == belief.contradictions(view)


def test_a_guess_no_possible_position_allows_is_flagged_from_the_inference() -> None:
    from app.games.blind.inference import BlindInference
    from app.games.rbc.inference import RbcInference
    game = ReconChess()
    game.play(0, Sense(chess.E7))
    game.play(0, MoveAction(chess.Move.from_uci("e2e4")))
    game.play(1, Sense(chess.E2))
    game.play(1, MoveAction(chess.Move.from_uci("g8f6")))
    view = ReconChessView.from_observations(game.observations(0))
    possible = RbcInference.from_observations(0, game.observations(0)).summary().possible_by_type
    belief = BeliefBoard(chess.BLACK, ply=view.ply)
    for square, piece_type in ((chess.C5, chess.BISHOP), (chess.F6, chess.KNIGHT), (chess.E5, chess.PAWN),
                               (chess.H6, chess.KNIGHT), (chess.D4, chess.QUEEN)):
        belief.place(square, piece_type)
    # Nothing the seat was told contradicts any of them directly ...
    assert belief.contradictions(view) == {}
    # ... but after one black move a bishop cannot be on c5 nor a queen on d4. (Knights on both f6 and h6 are
    # not flagged: each square is possible on its own, and the check is square by square.)
    flags = belief.contradictions(view, possible=possible)
    assert set(flags) == {chess.C5, chess.D4}
    assert flags[chess.C5] == "no position that fits what you know has a bishop here"
    # Blind Chess: the same check from its inference.
    blind = BlindChess()
    blind.play(0, Attempt.parse("e2e4"))
    black_view = BlindChessView.from_observations(blind.observations(1))
    guess = BeliefBoard(chess.WHITE, ply=black_view.ply)
    guess.place(chess.C4, chess.BISHOP)
    guess.place(chess.E4, chess.PAWN)
    summary = BlindInference.from_observations(1, blind.observations(1)).summary()
    assert set(guess.contradictions(black_view, possible=summary.possible_by_type)) == {chess.C4}


def test_fix_flagged_fixes_the_pieces_the_inference_flags() -> None:
    """Issue 26, item 5: "Fix flagged" counted the pieces no possible position allows, and then left them."""
    from app.games.rbc.inference import RbcInference
    game = ReconChess()
    rbc_turn(game, 0, "e7", "e2e4")
    rbc_turn(game, 1, "e2", "g8f6")
    view = rbc_view(game)
    possible = RbcInference.from_observations(0, game.observations(0)).summary().possible_by_type
    belief = BeliefBoard(chess.BLACK, ply=view.ply)
    for square, piece_type in ((chess.C5, chess.BISHOP), (chess.F6, chess.KNIGHT), (chess.D4, chess.QUEEN)):
        belief.place(square, piece_type)
    assert set(belief.contradictions(view, possible=possible)) == {chess.C5, chess.D4}
    assert belief.fix_flagged(view, possible=possible) == {chess.C5: None, chess.D4: None}
    assert belief.pieces() == {chess.F6: chess.KNIGHT}
    assert belief.contradictions(view, possible=possible) == {}
    assert belief.undo() and len(belief) == 3  # one step
