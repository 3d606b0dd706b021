"""Neighbour Chess Solitaire: the rules, sentence by sentence (NE1-NE4b, G2), on hand-made positions and dealt
games; the moves checked against a second, plain generator written here; bad input refused with a sentence; the
referee, the view, undo and redo, records and the text export."""

from __future__ import annotations

import json
import random

import chess
import pytest

from app.engine.core import IllegalAction, Reason
from app.engine.record import GameSession, Timeline
from app.engine.record_format import parse_record
from app.games.kit_cards import card_colour, card_piece
from app.games.neighbour.formats import neighbour_text
from app.games.neighbour.presenter import PRESENTER
from app.games.neighbour.rules import (Added, NeighbourChess, NeighbourView, Restored, Stopped, deal_decks)
from app.games.neighbour.search import (board_moves, fewest_moves, joined, moves_needed_at_least, solve_state)
from app.games.neighbour.state import (BOARD_EMPTY, PIECE_CARDS, POSITION_CARDS, NeighbourAdd, NeighbourMove,
                                       NeighbourPlace, NeighbourStop, State, StateError, all_moves, apply, connected,
                                       legal_actions, nearest_empty)
from app.games.patience.undo import Redo, Undo
from app.games.presenter import InputError


def board_of(pieces: dict[str, str]) -> str:
    cells = list(BOARD_EMPTY)
    for name, letter in pieces.items():
        cells[chess.parse_square(name)] = letter
    return "".join(cells)


def names(squares) -> list[str]:
    return sorted(chess.square_name(square) for square in squares)


def moves_of(board: str, square: str) -> list[str]:
    frm = chess.parse_square(square)
    return sorted(chess.square_name(to) for f, to in all_moves(board) if f == frm)


# ---- NE1: the decks -----------------------------------------------------------------------------------------

def test_the_piece_deck_is_the_sixteen_non_pawn_cards() -> None:
    assert len(PIECE_CARDS) == len(set(PIECE_CARDS)) == 16
    kinds = sorted(card_piece(card).symbol() for card in PIECE_CARDS)
    assert kinds == sorted("KQRRBBNNkqrrbbnn")
    assert all(card_piece(card).color == card_colour(card) for card in PIECE_CARDS)


def test_the_position_deck_is_two_to_six_of_each_suit() -> None:
    assert sorted(POSITION_CARDS) == sorted(f"{value}{suit}" for value in range(2, 7) for suit in "SHDC")


def test_a_deal_shuffles_both_decks_and_the_number_fixes_them() -> None:
    pieces, positions = deal_decks(42)
    assert sorted(pieces) == sorted(PIECE_CARDS) and sorted(positions) == sorted(POSITION_CARDS)
    assert deal_decks(42) == (pieces, positions) != deal_decks(43)
    # pinned forever: a deal number names the same cards on every machine and in every later version
    assert deal_decks(1)[0][:4] == ("9C", "QH", "9S", "10D") and deal_decks(1)[1][:4] == ("3S", "5D", "2H", "6D")
    assert deal_decks(1_000_000)[0][:2] == deal_decks(1_000_000)[0][:2]
    game = NeighbourChess.from_options({"deal": "42"})
    assert game.state.pieces == pieces and game.options() == {"deal": 42}


@pytest.mark.parametrize("bad", [0, 1_000_001, "x", -1, "12.5"])
def test_a_deal_number_out_of_range_is_refused_with_a_sentence(bad: object) -> None:
    with pytest.raises(ValueError, match="a deal number is a whole number from 1 to 1000000"):
        NeighbourChess.from_options({"deal": bad})


def test_an_unknown_option_is_refused() -> None:
    with pytest.raises(ValueError, match="no option colour"):
        NeighbourChess.from_options({"colour": "red"})


def test_a_game_without_a_deal_number_draws_one_from_its_seed() -> None:
    first, second = NeighbourChess(seed=7), NeighbourChess(seed=7)
    assert 1 <= first.deal <= 1_000_000 and first.deal == second.deal
    assert first.state == second.state


def test_nobody_is_told_the_order_of_a_deck() -> None:
    game = NeighbourChess.from_options({"deal": 5})
    told = repr(game.observations(0)) + repr(game.choices())
    pieces, positions = deal_decks(5)
    assert pieces[0] not in told and positions[0] not in told
    game.play(0, NeighbourAdd())
    told = repr(game.observations(0)) + repr(game.choices())
    assert pieces[0] in told and pieces[1] not in told and positions[1] not in told


# ---- NE2: adding ---------------------------------------------------------------------------------------------

def test_the_first_piece_starts_above_a1_red_goes_right() -> None:
    state = apply(State.start(["8H"], ["4D"]), NeighbourAdd())
    assert state.board == board_of({"e1": "N"})


def test_black_position_cards_go_up_and_later_adds_start_above_the_last_piece() -> None:
    state = State.start(["8H", "KS", "QH"], ["2S", "3C", "5H"])
    state = apply(state, NeighbourAdd())  # a1 up 2: a3
    state = apply(state, NeighbourAdd())  # from a3 up 3: a6
    state = apply(state, NeighbourAdd())  # from a6 right 5: f6
    assert state.board == board_of({"a3": "N", "a6": "k", "f6": "Q"})
    assert state.last == chess.F6


def test_moving_off_an_edge_comes_back_in_on_the_other_side() -> None:
    state = State(board_of({"g5": "R"}), ("9S",), ("4D",), last=chess.G5, added=1)
    assert apply(state, NeighbourAdd()).board[chess.C5] == "b"  # g5 right 4: h, a, b, c
    state = State(board_of({"c7": "R"}), ("9S",), ("6C",), last=chess.C7, added=1)
    assert apply(state, NeighbourAdd()).board[chess.C5] == "b"  # c7 up 6: c8, c1, c2 ... c5


def test_a_taken_square_offers_every_empty_square_at_the_nearest_king_distance() -> None:
    board = board_of({"a1": "N", "d1": "R", "c1": "B", "e1": "B", "c2": "K"})
    state = State(board, ("9S", "8S"), ("3H", "2H"), last=chess.A1, added=5)
    state = apply(state, NeighbourAdd())  # a1 right 3 = d1: taken
    assert state.stage == "place" and state.pending == "9S"
    assert names(state.candidates) == ["d2", "e2"]
    assert legal_actions(state) == [NeighbourPlace("d2"), NeighbourPlace("e2")]
    assert apply(state, NeighbourPlace("e2")).board[chess.E2] == "b"


def test_the_nearest_ring_grows_until_it_holds_an_empty_square_without_wrapping() -> None:
    ring = {chess.square_name(s): "N" for s in chess.SquareSet(chess.BB_KING_ATTACKS[chess.A1])}
    board = board_of({"a1": "R", **ring})
    # ring 2 of a1 on the board only (no wrap to h-file or rank 8)
    assert names(nearest_empty(board, chess.A1)) == ["a3", "b3", "c1", "c2", "c3"]


def test_a_single_nearest_square_is_taken_without_asking() -> None:
    board = board_of({"a1": "N", "d1": "R", "c1": "B", "e1": "B", "c2": "K", "e2": "k", "d2": "q"})
    state = State(board, ("9S",), ("3H", "2H"), last=chess.A1, added=7)
    ring = [s for s in nearest_empty(board, chess.D1)]
    assert len(ring) > 1
    board = board_of({"h1": "N", "h2": "R", "g1": "B", "g2": "B"})  # h1's only ring-1 empty: none
    state = State(board_of({"g1": "N", "g2": "R", "h2": "B", "e1": "R"}), ("9S",), ("3H", "2H"), last=chess.E1,
                  added=4)
    after = apply(state, NeighbourAdd())  # e1 right 3 = h1: free
    assert after.board[chess.H1] == "b"
    state = State(board_of({"g1": "N", "g2": "R", "h2": "B", "h1": "R", "e1": "Q"}), ("9S",), ("3H", "2H"),
                  last=chess.E1, added=5)
    after = apply(state, NeighbourAdd())  # h1 taken; its ring (g1, g2, h2) full; ring 2 has several
    assert after.stage == "place" and len(after.candidates) > 1


def test_stopping_is_allowed_after_any_add_and_is_final() -> None:
    state = State.start(deal_decks(3)[0], deal_decks(3)[1])
    assert legal_actions(state) == [NeighbourAdd()]
    with pytest.raises(StateError, match="add at least one piece"):
        apply(state, NeighbourStop())
    state = apply(state, NeighbourAdd())
    assert NeighbourStop() in legal_actions(state)
    stopped = apply(state, NeighbourStop())
    assert stopped.stage != "add"
    with pytest.raises(StateError):
        apply(stopped, NeighbourAdd())


def test_when_the_piece_deck_runs_out_adding_stops_by_itself() -> None:
    game = NeighbourChess.from_options({"deal": 1})
    while game.state.pieces and game.outcome is None:
        game.play(0, game.choices().get("adds", game.choices().get("places"))[0])
    assert game.state.stage in ("move", "won", "lost")
    assert any(isinstance(o, Stopped) and o.by_itself for o in game.observations(0)) or game.state.stage == "won"


# ---- NE3: moving --------------------------------------------------------------------------------------------

def test_a_piece_moves_as_its_same_colour_neighbours_not_as_itself() -> None:
    board = board_of({"d4": "K", "e5": "N", "c3": "n"})
    assert moves_of(board, "d4") == ["b3", "b5", "c2", "c6", "e2", "e6", "f3", "f5"]  # as the knight
    assert moves_of(board, "e5") == names(chess.SquareSet(chess.BB_KING_ATTACKS[chess.E5]) - {chess.D4})
    assert moves_of(board, "c3") == []  # no black neighbour: it cannot move


def test_sliding_moves_are_blocked_by_any_piece_and_never_capture() -> None:
    board = board_of({"a1": "N", "b1": "R", "a3": "p", "d1": "k"})
    assert moves_of(board, "a1") == ["a2"]  # up to a2 (a3 blocks); right blocked by b1
    board = board_of({"a1": "N", "b2": "B", "c3": "p", "h8": "k"})
    assert moves_of(board, "a1") == []  # the bishop's diagonal is blocked at b2 at once


def test_several_neighbours_give_the_union_of_their_moves() -> None:
    board = board_of({"d4": "N", "d5": "B", "c4": "R"})
    assert set(moves_of(board, "d4")) == (set(names(chess.SquareSet(chess.BB_DIAG_ATTACKS[chess.D4][0])))
                                          | set(names(chess.SquareSet(chess.BB_RANK_ATTACKS[chess.D4][
                                              chess.BB_RANK_MASKS[chess.D4] & chess.BB_C4])))
                                          | set(names(chess.SquareSet(chess.BB_FILE_ATTACKS[chess.D4][
                                              chess.BB_FILE_MASKS[chess.D4] & chess.BB_D5])))) - {"c4", "d5"}


def plain_moves(board: str) -> set[tuple[int, int]]:
    """A second generator, written from the rules with no bitboards: for each piece, each same-colour piece on the
    eight squares around it, each of that piece's steps or rays, walked square by square."""
    steps = {"n": [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)],
             "k": [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)]}
    rays = {"b": [(1, 1), (1, -1), (-1, 1), (-1, -1)], "r": [(1, 0), (-1, 0), (0, 1), (0, -1)]}
    rays["q"] = rays["b"] + rays["r"]
    found = set()
    for square in range(64):
        letter = board[square]
        if letter == ".":
            continue
        file, rank = square % 8, square // 8
        kinds = set()
        for df in (-1, 0, 1):
            for dr in (-1, 0, 1):
                f, r = file + df, rank + dr
                if (df or dr) and 0 <= f < 8 and 0 <= r < 8:
                    near = board[r * 8 + f]
                    if near != "." and near.isupper() == letter.isupper():
                        kinds.add(near.lower())
        for kind in kinds:
            for df, dr in steps.get(kind, []):
                f, r = file + df, rank + dr
                if 0 <= f < 8 and 0 <= r < 8 and board[r * 8 + f] == ".":
                    found.add((square, r * 8 + f))
            for df, dr in rays.get(kind, []):
                f, r = file + df, rank + dr
                while 0 <= f < 8 and 0 <= r < 8 and board[r * 8 + f] == ".":
                    found.add((square, r * 8 + f))
                    f, r = f + df, r + dr
    return found


def plain_joined(board: str) -> bool:
    squares = [s for s in range(64) if board[s] != "."]
    if len(squares) < 2:
        return False
    seen, todo = {squares[0]}, [squares[0]]
    while todo:
        s = todo.pop()
        for other in squares:
            if other not in seen and abs(other % 8 - s % 8) + abs(other // 8 - s // 8) == 1:
                seen.add(other)
                todo.append(other)
    return len(seen) == len(squares)


def random_board(rng: random.Random) -> str:
    cells = list(BOARD_EMPTY)
    letters = list("KQRRBBNNkqrrbbnn")
    rng.shuffle(letters)
    spread = rng.choice([64, 20, 12])  # sparse boards and crowded corners both
    for letter, square in zip(letters[:rng.randint(1, 16)], rng.sample(range(spread), k=min(16, spread))):
        cells[square] = letter
    return "".join(cells)


def test_the_moves_agree_with_a_plain_generator_on_many_random_boards() -> None:
    rng = random.Random(30)
    for _ in range(1500):
        board = random_board(rng)
        expected = plain_moves(board)
        assert set(all_moves(board)) == expected, board
        assert set(board_moves(board)) == expected, board
        assert connected(board) == joined(board) == plain_joined(board), board


def test_the_lower_bound_never_says_more_than_the_fewest_moves() -> None:
    rng = random.Random(4)
    checked = 0
    while checked < 60:
        board = random_board(rng)
        if sum(c != "." for c in board) > 6:
            continue
        fewest = fewest_moves(board, 4, max_nodes=4000)
        if fewest.moves is not None:
            assert moves_needed_at_least(board) <= fewest.moves
            position = board
            for frm, to in fewest.line:
                assert (frm, to) in plain_moves(position)
                cells = list(position)
                cells[to], cells[frm] = cells[frm], "."
                position = "".join(cells)
            assert plain_joined(position)
            checked += 1
        elif fewest.proven:
            checked += 1


def test_each_move_spends_a_card_from_a_deck() -> None:
    state = State(board_of({"a1": "R", "b2": "R"}), ("9S",), ("3H", "2H"), stage="move", added=2)
    after = apply(state, NeighbourMove("a1a2"))
    assert (after.pieces, after.positions) == (("9S",), ("2H",))  # the position deck pays first
    after = apply(state, NeighbourMove("a1a2", deck="pieces"))
    assert (after.pieces, after.positions) == ((), ("3H", "2H"))


def test_pieces_move_only_once_adding_has_stopped() -> None:
    state = State(board_of({"a1": "R", "b2": "R"}), ("9S",), ("3H", "2H"), stage="add", added=2)
    with pytest.raises(StateError, match="only once adding has stopped"):
        apply(state, NeighbourMove("a1a2"))


@pytest.mark.parametrize("uci, words", [("a1a2x", "is not a move"), ("zz", "is not a move"), ("a1a1", "is not a move"),
                                        ("e4e5", "no piece on e4"), ("a1c1", "c1 is taken"),
                                        ("h8h7", "no neighbour of its colour"), ("a1h1", "not to h1"),
                                        ("a1a8q", "is not a move")])
def test_a_move_the_rules_forbid_is_refused_with_a_sentence(uci: str, words: str) -> None:
    state = State(board_of({"a1": "N", "b2": "N", "c1": "R", "h8": "q"}), ("9S",), ("3H",), stage="move", added=4)
    with pytest.raises(StateError, match=words):
        apply(state, NeighbourMove(uci))
    game = NeighbourChess.arranged("".join(state.board), state.pieces, state.positions)
    before = game.truth()
    with pytest.raises(IllegalAction):
        game.play(0, NeighbourMove(uci))
    assert game.truth() == before and len(game.observations(0)) == 1


def test_a_bad_square_choice_is_refused_with_a_sentence() -> None:
    board = board_of({"a1": "N", "d1": "R", "c1": "B", "e1": "B", "c2": "K"})
    game = NeighbourChess.arranged(board, ("9S", "8S"), ("3H", "2H"), stage="add", last="a1")
    game.play(0, NeighbourAdd())
    for square, words in (("d1", "d1 is taken"), ("h8", "not among the nearest"), ("j9", "is not a square")):
        with pytest.raises(IllegalAction, match=words):
            game.play(0, NeighbourPlace(square))
    with pytest.raises(IllegalAction, match="first put the piece"):
        game.play(0, NeighbourAdd())
    game.play(0, NeighbourPlace("d2"))
    assert game.state.board[chess.D2] == "b"


# ---- NE4, NE4b: the end ---------------------------------------------------------------------------------------

def test_one_orthogonal_group_wins_with_the_cards_left_in_both_decks() -> None:
    game = NeighbourChess.arranged(board_of({"a1": "R", "b2": "R"}), ("9S", "8S"),
                                   ("3H", "2H", "4H"))
    game.play(0, NeighbourMove("b2b1"))
    assert game.outcome.winner == 0 and game.outcome.score == 4.0 and game.outcome.reason is Reason.SCORE


def test_a_diagonal_touch_is_no_group() -> None:
    assert not connected(board_of({"a1": "R", "b2": "R"}))
    assert connected(board_of({"a1": "R", "b1": "n", "b2": "R"}))


def test_a_group_formed_by_an_add_wins_at_once() -> None:
    state = State(board_of({"d1": "R"}), ("9S", "8S"), ("3H", "2H", "6H"), last=chess.A1, added=1)
    after = apply(state, NeighbourAdd())  # a1 right 3 = d1 taken: the nearest squares; pick one beside d1
    after = apply(after, NeighbourPlace("d2"))
    assert after.stage == "won" and after.score == 3  # one piece card and two position cards left


def test_no_cards_left_without_a_group_loses() -> None:
    game = NeighbourChess.arranged(board_of({"a1": "R", "b2": "R", "h8": "N", "h6": "N"}), (), ("2H",))
    game.play(0, NeighbourMove("a1a2"))
    assert game.outcome.winner is None and game.outcome.score is None
    assert "no card is left" in game.outcome.detail


def test_no_move_left_loses() -> None:
    state = apply(State.start(["8H", "9S"], ["2H", "2S", "3H"]), NeighbourAdd())
    stopped = apply(state, NeighbourStop())  # one piece is no group (NE4b) and it has no neighbour
    assert stopped.stage == "lost" and "no piece can move" in stopped.ended


def test_one_piece_is_not_a_group() -> None:
    assert not connected(board_of({"d4": "Q"}))
    game = NeighbourChess.from_options({"deal": 9})
    game.play(0, NeighbourAdd())
    assert game.outcome is None
    game.play(0, NeighbourStop())
    assert game.outcome is not None and game.outcome.winner is None


# ---- the referee, the view, undo and redo, records ------------------------------------------------------------

def play_random(game: NeighbourChess, rng: random.Random, undo_share: float = 0.15) -> None:
    while game.outcome is None:
        choices = game.choices()
        if rng.random() < undo_share and ("undo" in choices or "redo" in choices):
            game.play(0, rng.choice(choices.get("undo", []) + choices.get("redo", [])))
            continue
        pool = [a for key in ("adds", "stop", "places", "moves") for a in choices.get(key, [])]
        if "stop" in choices and rng.random() < 0.6:
            pool = choices["stop"] if rng.random() < 0.3 else choices["adds"]
        game.play(0, rng.choice(pool))
        view = NeighbourView.from_observations(game.observations(0))
        truth = game.truth()
        assert view.board == truth.board and view.stage == (truth.stage if not truth.over else view.stage)
        assert (view.pieces_left, view.positions_left) == (len(truth.pieces), len(truth.positions))
        assert view.can_undo == game.history.can_undo or game.outcome is not None
        assert view.can_redo == game.history.can_redo or game.outcome is not None


def test_the_view_follows_the_referee_through_random_games_with_undo_and_redo() -> None:
    rng = random.Random(11)
    for deal in range(1, 25):
        play_random(NeighbourChess.from_options({"deal": deal}), rng)


def test_undo_goes_back_to_the_last_turned_card_and_redo_forward() -> None:
    game = NeighbourChess.arranged(board_of({"a1": "R", "b2": "R", "h8": "N", "h6": "N"}), ("9S",),
                                   ("2H", "3H", "4H"), stage="add", last="c1")
    assert "undo" not in game.choices()
    with pytest.raises(IllegalAction, match="nothing to undo"):
        game.play(0, Undo())
    game.play(0, NeighbourStop())
    game.play(0, NeighbourMove("a1a2"))
    after_move = game.truth()
    game.play(0, Undo())
    game.play(0, Undo())
    assert game.state.stage == "add" and game.state.cards_left == 4
    with pytest.raises(IllegalAction, match="nothing to undo"):
        game.play(0, Undo())
    game.play(0, Redo())
    game.play(0, Redo())
    assert game.truth() == after_move
    assert isinstance(game.observations(0)[-1], Restored)


def test_an_add_cannot_be_undone() -> None:
    game = NeighbourChess.from_options({"deal": 2})
    game.play(0, NeighbourAdd())
    assert "undo" not in game.choices()
    with pytest.raises(IllegalAction, match="a card once turned stays turned"):
        game.play(0, Undo())


def test_a_record_replays_the_same_game_and_a_malformed_one_is_refused() -> None:
    rng = random.Random(3)
    game = NeighbourChess.from_options({"deal": 77})
    session = GameSession(game)
    while game.outcome is None:
        choices = game.choices()
        if "undo" in choices and rng.random() < 0.2:
            session.play(0, choices["undo"][0])
            continue
        pool = [a for key in ("adds", "stop", "places", "moves") for a in choices.get(key, [])]
        session.play(0, rng.choice(pool))
    data = json.loads(json.dumps(session.record.to_json()))
    replayed = Timeline(parse_record(json.dumps(data))).game
    assert replayed.truth() == game.truth() and replayed.outcome == game.outcome
    data["actions"][0]["action"] = {"type": "move", "uci": 7}
    with pytest.raises(ValueError):
        Timeline(parse_record(json.dumps(data)))
    assert "Neighbour Chess Solitaire, deal 77" in neighbour_text(session.record)


def test_the_presenter_turns_clicks_and_words_into_actions_and_refuses_the_rest() -> None:
    board = board_of({"a1": "N", "d1": "R", "c1": "B", "e1": "B", "c2": "K"})
    game = NeighbourChess.arranged(board, ("9S", "8S"), ("3H", "2H", "5D"), stage="add", last="a1")
    view = NeighbourView.from_observations(game.observations(0))
    assert [c.id for c in PRESENTER.commands(view)] == ["add", "stop"]
    assert PRESENTER.parse_text(view, "add") == NeighbourAdd() == PRESENTER.command(view, "add")
    with pytest.raises(InputError, match="Stop adding first"):
        PRESENTER.parse_text(view, "a1a2")
    game.play(0, NeighbourAdd())
    view = NeighbourView.from_observations(game.observations(0))
    scene = PRESENTER.scene(view)
    assert scene.sense_window((3, 1)) == [(3, 1)] and scene.sense_window((7, 7)) == []
    assert PRESENTER.on_square(view, (4, 1)) == NeighbourPlace("e2")
    with pytest.raises(InputError, match="not one of the nearest"):
        PRESENTER.on_square(view, (7, 7))
    game.play(0, NeighbourPlace("d2"))
    game.play(0, NeighbourStop())
    view = NeighbourView.from_observations(game.observations(0))
    scene = PRESENTER.scene(view)
    assert scene.targets and all(PRESENTER.on_move(view, frm, to, None) for frm in scene.targets
                                 for to in scene.targets[frm])
    with pytest.raises(InputError, match="is taken"):
        PRESENTER.parse_text(view, "a1c1")
    with pytest.raises(InputError):
        PRESENTER.parse_text(view, "hello")
    assert any(isinstance(o, Added) for o in view.history) and PRESENTER.move_list(view)


def test_the_solver_line_is_a_real_game_reaching_its_score() -> None:
    for deal in (2, 3, 6):
        pieces, positions = deal_decks(deal)
        solution = solve_state(State.start(pieces, positions), time_limit=20)
        assert solution.proven and solution.score is not None
        game = NeighbourChess.from_options({"deal": deal})
        for action in solution.line:
            game.play(0, action)
        assert game.outcome.score == solution.score


def test_the_solitaire_door_solves_a_deal_into_a_record_and_refuses_a_bad_number() -> None:
    from app.games.neighbour.solitaire import SOLITAIRE
    solution, record = SOLITAIRE.solve({"deal": 6}, 20)
    assert solution.words() == "best score 30, proven best" and record.result.score == 30
    assert [SOLITAIRE.action_words(action) for action in solution.line] == ["add", "add", "add", "@b4"]
    with pytest.raises(ValueError, match="a deal number"):
        SOLITAIRE.solve({"deal": 0}, 1)


def test_a_hint_after_adding_is_the_first_move_of_a_sure_line_and_plays_within_its_time() -> None:
    from app.games.neighbour.solitaire import SOLITAIRE, hint
    game = NeighbourChess.arranged(board_of({"a1": "R", "b2": "R", "a4": "n", "b5": "q"}), ("9S",), ("3H", "2H"),
                                   stage="move")
    view = NeighbourView.from_observations(game.observations(0))
    found = hint(view, time_limit=1.0)
    assert found.expected == 1.0  # two moves: a rook up beside the others, and the other to join it
    game.play(0, found.action)
    action, words = SOLITAIRE.hint(NeighbourView.from_observations(NeighbourChess.from_options({"deal": 6})
                                                                   .observations(0)), 1.0)
    assert action == NeighbourAdd() and words


def test_the_planner_never_reads_the_deal_number_and_answers_within_the_rules() -> None:
    from app.bots.base import ActionRequest
    from app.games.neighbour.bots import NeighbourPlannerBot, NeighbourRandomBot
    for bot_class in (NeighbourPlannerBot, NeighbourRandomBot):
        for deal in (2, 5):
            played = []
            for options in ({"deal": deal}, {}):
                game = NeighbourChess.from_options({"deal": deal})
                bot = bot_class(seed=deal, level="easy")
                bot.start(0, options)
                seen = 0
                while game.outcome is None:
                    told = game.observations(0)
                    for observation in told[seen:]:
                        bot.observe(observation)
                    seen = len(told)
                    choices = game.choices()
                    action = bot.act(ActionRequest(0, game.phase, choices))
                    assert action in [a for key in ("adds", "stop", "places", "moves") for a in choices.get(key, [])]
                    game.play(0, action)
                played.append(game.truth())
            assert played[0] == played[1]


def bfs_fewest(board: str, limit: int) -> int | None:
    """The fewest moves joining the pieces, by plain breadth-first search over the plain generator."""
    frontier, seen = [board], {board}
    for depth in range(limit + 1):
        if any(plain_joined(position) for position in frontier):
            return depth
        following = []
        for position in frontier:
            for frm, to in plain_moves(position):
                cells = list(position)
                cells[to], cells[frm] = cells[frm], "."
                after = "".join(cells)
                if after not in seen:
                    seen.add(after)
                    following.append(after)
        frontier = following
    return None


def test_the_fewest_moves_agree_with_a_plain_breadth_first_search() -> None:
    rng = random.Random(8)
    found = []
    for _ in range(60):
        cells = list(BOARD_EMPTY)
        letters = rng.sample("KQRRBBNN" if rng.random() < 0.7 else "KQRBNkqrbn", k=rng.randint(2, 4))
        for letter, square in zip(letters, rng.sample(range(20), k=len(letters))):
            cells[square] = letter
        board = "".join(cells)
        fewest = bfs_fewest(board, 3)
        assert fewest_moves(board, 3).moves == fewest, board
        found.append(fewest)
    assert sum(fewest is not None for fewest in found) >= 20


def exhaustive_best(state: State) -> int | None:
    """The best score from ``state`` by trying every action (small states only)."""
    if state.stage == "won":
        return state.cards_left
    if state.stage == "lost":
        return None
    scores = [exhaustive_best(apply(state, action)) for action in legal_actions(state)]
    found = [score for score in scores if score is not None]
    return max(found) if found else None


def test_the_solver_agrees_with_trying_everything_on_small_deals() -> None:
    # small decks of one colour's pieces (so that pieces can move) and six position cards: a few can be won
    rng = random.Random(12)
    white = [card for card in PIECE_CARDS if card[-1] in "HD"]
    scores = []
    for _ in range(40):
        state = State.start(rng.sample(white, 3), rng.sample(POSITION_CARDS, 6))
        solution = solve_state(state, time_limit=30)
        assert solution.proven
        assert solution.score == exhaustive_best(state), state
        if solution.score is not None:
            game_state = state
            for action in solution.line:
                game_state = apply(game_state, action)
            assert game_state.score == solution.score
        scores.append(solution.score)
    assert sorted(score for score in scores if score is not None) == [0, 0, 1, 1, 3]
