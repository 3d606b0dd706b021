"""Booster Chess's rules (rulings BO1-BO4b): each sentence on a hand-made position, then a second, plain move
generator written here from the rule text that must agree with the game's on thousands of random positions."""

from __future__ import annotations

import random

import chess
import pytest

from app.engine.core import IllegalAction, Reason
from app.games.booster.moves import (apply_normal, apply_step, attacked, card_squares, in_danger, legal_moves,
                                     legal_steps, supply)
from app.games.booster.rules import (DECK, BoosterChess, BoosterMove, BoosterView, CardPlayed, Dealt, Done,
                                     PlayCard, Step, TurnOver, read_stacks)
from app.games.kit_cards import checker_cards

S = chess.parse_square


def ucis(moves):
    return {move.uci() for move in moves}


def position(fen: str, stacks: str = ""):
    return chess.Board(fen), read_stacks(stacks)


def game(fen: str, stacks: str = "", white=(), black=(), seed: int = 1) -> BoosterChess:
    return BoosterChess(seed=seed, fen=fen, stacks=read_stacks(stacks), hands=(tuple(white), tuple(black)))


# ---- BO1: the deck, checkers and hands ---------------------------------------------------------------------------

def test_bo1_deck_checkers_and_private_hands():
    assert len(DECK) == len(set(DECK)) == 36
    assert set(checker_cards()) == {"6H", "6D", "6S", "6C"} and set(checker_cards()) <= set(DECK)
    g = BoosterChess(seed=11)
    assert supply(g.stacks, chess.WHITE) == supply(g.stacks, chess.BLACK) == 6
    assert len(g.hands[0]) == len(g.hands[1]) == 6 and len(g.draw_pile) == 24
    assert sorted(g.hands[0] + g.hands[1] + g.draw_pile) == sorted(DECK)
    for seat in (0, 1):
        told = repr(g.observations(seat))
        assert all(card not in told for card in g.hands[1 - seat] if card not in g.hands[seat])
        assert all(f"'{card}'" not in told for card in g.draw_pile)
    # the same seed deals the same cards; another seed another deal
    assert BoosterChess(seed=11).hands == g.hands and BoosterChess(seed=12).hands != g.hands


# ---- BO2: boosted and hobbled pieces, cancelling, captures, the far rank -----------------------------------------

def test_bo2_boosted_piece_steps_once_per_checker_and_the_checker_goes_home():
    g = game("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", "g1:+2", white=["2H"], black=["2S"])
    g.play(0, BoosterMove("g1f3"))
    assert g.phase == "boost" and g.stacks == {S("f3"): 2}
    assert ucis(legal_steps(g.board, g.stacks, S("f3"))) >= {"f3f4", "f3e3", "f3g2"}
    g.play(0, Step("f3f4"))
    assert g.stacks == {S("f4"): 1} and supply(g.stacks, chess.WHITE) == 5 and g.phase == "boost"
    g.play(0, Step("f4f5"))
    assert g.stacks == {} and supply(g.stacks, chess.WHITE) == 6
    assert g.phase == "card"  # no checker left: no more steps
    g.play(0, Done())
    assert len(g.hands[0]) == 6  # drew back up to the six checkers in front of White


def test_bo2_an_unboosted_piece_has_no_steps_and_a_boosted_one_may_stop():
    g = game("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", "", white=["2H"])
    g.play(0, BoosterMove("g1f3"))
    assert g.phase == "card"
    g = game("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", "g1:+1", white=["2H"])
    g.play(0, BoosterMove("g1f3"))
    g.play(0, Done())
    assert g.phase == "card" and g.stacks == {S("f3"): 1}


def test_bo2_a_hobbled_pawn_cannot_move():
    board, stacks = position("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", "e2:-1")
    assert not any(move.from_square == S("e2") for move in legal_moves(board, stacks))


def test_bo2_a_hobbled_piece_moves_and_captures_like_a_pawn_of_its_colour_without_the_double_step():
    board, stacks = position("4k3/8/8/8/8/2p1p3/3R4/4K3 w - - 0 1", "d2:-1")
    assert {move.uci() for move in legal_moves(board, stacks) if move.from_square == S("d2")} == \
        {"d2d3", "d2c3", "d2e3"}
    board, stacks = position("4k3/3n4/2P1P3/8/8/8/8/4K3 b - - 0 1", "d7:+2")  # Black's knight, downwards
    assert {move.uci() for move in legal_moves(board, stacks) if move.from_square == S("d7")} == \
        {"d7d6", "d7c6", "d7e6"}
    board, stacks = position("4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1", "d2:-3")  # no worse on more checkers
    assert {move.uci() for move in legal_moves(board, stacks) if move.from_square == S("d2")} == {"d2d3"}


def test_bo2_own_and_enemy_checkers_cancel_in_pairs_at_once():
    g = game("4k3/8/8/8/8/8/3Q4/4K3 w - - 0 1", "d2:-2", white=["QH"], black=["2S"])
    g.play(0, BoosterMove("e1f1"))
    g.play(0, PlayCard("QH", "d2"))
    assert g.stacks == {S("d2"): -1}  # one white and one black checker went home
    assert supply(g.stacks, chess.WHITE) == 6 and supply(g.stacks, chess.BLACK) == 5


def test_bo2_a_capturer_keeps_the_captured_pieces_checkers_then_pairs_cancel():
    # capturing a boosted piece leaves the capturer hobbled
    board, stacks = position("4k3/8/8/3r4/8/8/8/3RK3 w - - 0 1", "d5:-2 d1:+1")
    apply_normal(board, stacks, chess.Move.from_uci("d1d5"))
    assert stacks == {S("d5"): -1}
    # capturing a hobbled piece leaves it boosted, and it may step at once
    board, stacks = position("4k3/8/8/3r4/8/8/8/3RK3 w - - 0 1", "d5:+2")
    apply_normal(board, stacks, chess.Move.from_uci("d1d5"))
    assert stacks == {S("d5"): 2} and legal_steps(board, stacks, S("d5"))
    # a booster step that captures picks up checkers too
    board, stacks = position("4k3/8/8/8/3r4/8/3N4/4K3 w - - 0 1", "d2:+1 d4:+3")
    apply_normal(board, stacks, chess.Move.from_uci("d2e4"))
    apply_step(board, stacks, chess.Move.from_uci("e4d4"))
    assert stacks == {S("d4"): 3}


def test_bo2_a_hobble_checker_reaching_the_far_rank_goes_home():
    g = game("4k3/R7/8/8/8/8/8/4K3 w - - 0 1", "a7:-1", white=["2H"], black=["2S"])
    assert {m.uci() for m in legal_moves(g.board, g.stacks) if m.from_square == S("a7")} == {"a7a8"}
    g.play(0, BoosterMove("a7a8"))
    assert g.stacks == {} and supply(g.stacks, chess.BLACK) == 6


# ---- BO3: cards ------------------------------------------------------------------------------------------------

def test_bo3_a_card_puts_one_checker_on_a_matching_piece_only():
    g = game(chess.STARTING_FEN, "", white=["8H", "9S"], black=["2S"])
    g.play(0, BoosterMove("e2e4"))
    plays = {(play.card, play.square) for play in g.choices()["cards"]}
    assert plays == {("8H", "b1"), ("8H", "g1"), ("9S", "c8"), ("9S", "f8")}
    before = (g.board.fen(), dict(g.stacks), list(g.hands[0]))
    with pytest.raises(IllegalAction, match="does not match"):
        g.play(0, PlayCard("8H", "c8"))
    with pytest.raises(IllegalAction, match="may not put a checker"):
        g.play(0, PlayCard("8H", "c1"))
    with pytest.raises(IllegalAction, match="does not hold"):
        g.play(0, PlayCard("2S", "e7"))
    assert (g.board.fen(), dict(g.stacks), list(g.hands[0])) == before
    g.play(0, PlayCard("9S", "f8"))
    assert g.stacks == {S("f8"): 1} and "9S" in g.discard and supply(g.stacks, chess.WHITE) == 5


def test_bo3_a_checker_card_matches_any_piece_of_its_colour():
    board, stacks = position(chess.STARTING_FEN)
    assert set(card_squares(board, stacks, chess.WHITE, "6D")) == set(chess.SquareSet(board.occupied_co[chess.WHITE]))
    assert set(card_squares(board, stacks, chess.WHITE, "6S")) == set(chess.SquareSet(board.occupied_co[chess.BLACK]))


def test_bo3_a_card_without_its_piece_on_the_board_acts_as_a_checker_card():
    board, stacks = position("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1")  # no white queen
    assert set(card_squares(board, stacks, chess.WHITE, "QH")) == {S("b1"), S("e1")}
    assert set(card_squares(board, stacks, chess.WHITE, "8H")) == {S("b1")}


def test_bo3_no_card_without_a_checker_in_the_supply():
    board, stacks = position("4k3/8/8/8/8/8/8/1N2K3 w - - 0 1", "b1:+6")
    assert card_squares(board, stacks, chess.WHITE, "6H") == []


def test_bo3_draw_up_to_the_supply_and_reshuffle_the_discards_from_the_games_generator():
    g = game("4k3/8/8/8/8/8/8/4K1N1 w - - 0 1", "g1:+1", white=["2H"], black=["2S"])
    g.draw_pile, g.discard = ["3H"], ["4H", "5H", "8D"]
    g.play(0, BoosterMove("g1f3"))
    g.play(0, Step("f3f4"))
    g.play(0, PlayCard("2H", "f4"))  # 6 - 1 = 5 checkers in front of White: draw from 0 cards to 5
    assert len(g.hands[0]) == 5 and g.hands[0][0] == "3H" and sorted(g.hands[0][1:]) == ["2H", "4H", "5H", "8D"]
    told = g.observations(1)[-1]
    assert isinstance(told, TurnOver) and told.drawn == 5 and told.cards == () and told.reshuffled
    mine = g.observations(0)[-1]
    assert isinstance(mine, TurnOver) and list(mine.cards) == g.hands[0]


# ---- BO4: check, castling, en passant, promotion, the end -------------------------------------------------------

def test_bo4_a_booster_step_threatens_the_king():
    # Black's knight on b8 with one black checker: Nc6 then a step to d5... attacks e4 and more
    board, stacks = position("1n2k3/8/8/8/8/8/8/4K3 w - - 0 1", "b8:-1")
    assert attacked(board, stacks, S("e6"), chess.BLACK)  # Nc7 or Nd7, then a step
    assert not attacked(board, stacks, S("e4"), chess.BLACK)
    board, stacks = position("1n2k3/8/8/8/8/8/8/4K3 w - - 0 1", "b8:-2")
    assert attacked(board, stacks, S("e4"), chess.BLACK)


def test_bo4_a_hobbled_piece_attacks_as_a_pawn():
    board, stacks = position("4k3/8/8/8/8/3n4/8/4K3 w - - 0 1", "d3:+1")  # Black's knight, hobbled
    assert attacked(board, stacks, S("e2"), chess.BLACK) and attacked(board, stacks, S("c2"), chess.BLACK)
    assert not attacked(board, stacks, S("e1"), chess.BLACK) and not attacked(board, stacks, S("f2"), chess.BLACK)
    board, stacks = position("4k3/8/8/8/8/3p4/8/4K3 w - - 0 1", "d3:+1")  # a hobbled pawn attacks nothing
    assert not attacked(board, stacks, S("e2"), chess.BLACK)


def test_bo4_the_king_may_not_step_into_a_booster_attack():
    board, stacks = position("4k3/8/8/8/8/r7/8/4K3 w - - 0 1", "a3:-1")
    moves = ucis(legal_moves(board, stacks))
    assert not {"e1e2", "e1d2", "e1f2"} & moves  # Re3 (or Rd3, Rf3) and then a step
    assert {"e1d1", "e1f1"} <= moves
    assert {"e1e2", "e1d2", "e1f2"} <= ucis(legal_moves(*position("4k3/8/8/8/8/r7/8/4K3 w - - 0 1")))


def test_bo4_a_move_may_not_leave_the_king_attacked_whatever_steps_follow():
    # the boosted bishop shields its king from the rook; Be3 and a step back to d2 would shield again: refused
    board, stacks = position("3r3k/8/8/8/8/8/3B4/3K4 w - - 0 1", "d2:+1")
    assert not any(move.from_square == S("d2") for move in legal_moves(board, stacks))
    board, stacks = position("3r3k/8/8/8/8/8/3N4/3K4 w - - 0 1", "d2:+2")
    assert not any(move.from_square == S("d2") for move in legal_moves(board, stacks))


def test_bo4b_each_step_must_leave_the_king_safe():
    g = game("3rk3/8/8/8/8/8/3R4/3K4 w - - 0 1", "d2:+1", white=["2H"])
    g.play(0, BoosterMove("d2d5"))  # along the file: still shielding
    steps = ucis(legal_steps(g.board, g.stacks, S("d5")))
    assert {"d5d6", "d5d4"} <= steps and not {"d5c5", "d5e6", "d5c4", "d5e5"} & steps
    with pytest.raises(IllegalAction, match="booster step"):
        g.play(0, Step("d5c5"))


def test_bo4b_a_card_may_not_leave_the_own_king_attacked():
    # hobbling Black's rook on e5 would make it attack d4 like a black pawn
    board, stacks = position("4k3/8/8/4r3/3K4/8/8/8 w - - 0 1")
    assert S("e5") not in card_squares(board, stacks, chess.WHITE, "10S")
    assert S("e5") not in card_squares(board, stacks, chess.WHITE, "6S")


def test_bo4_no_castling_with_a_boosted_king_or_rook():
    fen = "4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1"
    board, stacks = position(fen)
    assert {"e1g1", "e1c1"} <= ucis(legal_moves(board, stacks))
    board, stacks = position(fen, "h1:+1")
    assert "e1g1" not in ucis(legal_moves(board, stacks)) and "e1c1" in ucis(legal_moves(board, stacks))
    board, stacks = position(fen, "e1:+1")
    assert not {"e1g1", "e1c1"} & ucis(legal_moves(board, stacks))


def test_bo4_castling_may_not_pass_through_squares_a_booster_step_attacks():
    # Black's boosted knight on h4: Ng2?? no; Nh3... then a step onto f2/g2; and to f1 from g3 (Nf5-g3 needs two)
    board, stacks = position("4k3/8/8/8/7n/8/8/4K2R w K - 0 1", "h4:-1")
    # Ng2 attacks f1? no: knight on g2 (normal move) attacks e1, e3, f4, h4; its step from g2 reaches f1
    assert attacked(board, stacks, S("f1"), chess.BLACK)
    assert "e1g1" not in ucis(legal_moves(board, stacks))
    board, stacks = position("4k3/8/8/8/7n/8/8/4K2R w K - 0 1")
    assert "e1g1" in ucis(legal_moves(board, stacks))


def test_bo4_en_passant_only_after_a_normal_double_step_and_never_by_a_booster_step():
    g = game("4k3/8/8/8/4p3/8/3P4/4K3 w - - 0 1", "", white=["2H"], black=["2S"])
    g.play(0, BoosterMove("d2d4"))
    g.play(0, Done())
    assert "e4d3" in ucis(legal_moves(g.board, g.stacks))
    # the double-stepping pawn then took a booster step: no en passant
    g = game("4k3/8/8/8/4p3/8/3P4/4K3 w - - 0 1", "d2:+1", white=["2H"], black=["2S"])
    g.play(0, BoosterMove("d2d4"))
    g.play(0, Step("d4d5"))
    g.play(0, Done())
    assert not any(m.to_square == S("d3") for m in legal_moves(g.board, g.stacks))
    # a pawn that arrived beside by one square and a booster step cannot be taken en passant either
    g = game("4k3/8/8/8/4p3/8/3P4/4K3 w - - 0 1", "d2:+1", white=["2H"], black=["2S"])
    g.play(0, BoosterMove("d2d3"))
    g.play(0, Step("d3d4"))
    g.play(0, Done())
    assert "e4d3" not in ucis(legal_moves(g.board, g.stacks))
    # a booster step onto the en passant square takes nothing
    g = game("4k3/8/8/5n2/8/8/3P4/4K3 w - - 0 1", "f5:-1", white=["2H"], black=["2S"])
    g.play(0, BoosterMove("d2d4"))
    g.play(0, Done())
    g.play(1, BoosterMove("f5e3"))
    g.play(1, Step("e3d3"))
    assert g.board.piece_at(S("d4")) == chess.Piece(chess.PAWN, chess.WHITE)


def test_bo4_promotion_on_reaching_the_last_rank_then_booster_steps():
    g = game("4k3/1P6/8/8/8/8/8/4K3 w - - 0 1", "b7:+1", white=["2H"], black=["2S"])
    assert {"b7b8q", "b7b8n"} <= ucis(legal_moves(g.board, g.stacks))
    g.play(0, BoosterMove("b7b8n"))
    assert g.board.piece_at(S("b8")) == chess.Piece(chess.KNIGHT, chess.WHITE) and g.phase == "boost"
    g.play(0, Step("b8c7"))
    assert g.board.piece_at(S("c7")) == chess.Piece(chess.KNIGHT, chess.WHITE)
    # a pawn reaching the last rank by a booster step promotes too
    board, stacks = position("4k3/8/1P6/8/8/8/8/4K3 w - - 0 1", "b6:+1")
    apply_normal(board, stacks, chess.Move.from_uci("b6b7"))
    assert {"b7a8q", "b7b8r", "b7c8n"} <= ucis(legal_steps(board, stacks, S("b7")))


def test_bo4_stalemate_draws():
    g = game("7k/5Q2/8/8/8/8/8/4K3 w - - 0 1", "", white=["2H"], black=["2S"])
    g.play(0, BoosterMove("f7g6"))
    g.play(0, Done())
    assert g.outcome is not None and g.outcome.winner is None and g.outcome.reason is Reason.NO_MOVES
    assert "stalemate" in g.outcome.detail


def test_bo4_checkmate_by_a_booster_threat_wins():
    # the boosted knight on e4 gives no chess check, but Nf6, a step taking g7 and a step onto h8 would take the
    # king, and g8 is covered the same way: mate
    g = game("7k/6pp/8/8/8/2N5/8/K7 w - - 0 1", "c3:+2", white=["2H"], black=["2S"])
    g.play(0, BoosterMove("c3e4"))
    assert g.phase == "boost"
    g.play(0, Done())
    g.play(0, Done())
    assert not g.board.is_check() and in_danger(g.board, g.stacks, chess.BLACK)
    assert g.outcome is not None and g.outcome.winner == 0 and "checkmated" in g.outcome.detail


# ---- the referee: records, refusals, privacy --------------------------------------------------------------------

def _random_game(seed: int, plies: int = 120) -> BoosterChess:
    g = BoosterChess(seed=seed)
    rng = random.Random(seed)
    while g.outcome is None and g.ply < plies:
        choices = g.choices()
        cards = choices.get("cards") or []
        action = rng.choice(cards) if cards and rng.random() < 0.7 else rng.choice(
            [a for value in choices.values() for a in value])
        g.play(g.to_move, action)
    return g


def test_replay_from_the_seed_and_actions_and_views_agree_with_the_truth():
    g = BoosterChess(seed=5)
    rng = random.Random(5)
    played = []
    while g.outcome is None and g.ply < 80:
        choices = g.choices()
        action = rng.choice([a for value in choices.values() for a in value])
        played.append((g.to_move, BoosterChess.action_from_json(action.to_json())))
        g.play(g.to_move, action)
    again = BoosterChess.create(g.options(), g.seed, fresh=False)
    for seat, action in played:
        again.play(seat, action)
    assert repr(again.truth()) == repr(g.truth())
    for seat in (0, 1):
        assert again.observations(seat) == g.observations(seat)
        view = BoosterView.from_observations(g.observations(seat))
        assert view.board.board_fen() == g.board.board_fen() and view.stacks == g.stacks
        assert sorted(view.hand) == sorted(g.hands[seat]) and view.draw_pile == len(g.draw_pile)
        assert view.discard == g.discard and view.hand_sizes == [len(g.hands[0]), len(g.hands[1])]


def test_record_round_trip_through_the_codec():
    for action in (BoosterMove("e2e4"), Step("f3f4"), PlayCard("10H", "a1"), Done()):
        assert BoosterChess.action_from_json(action.to_json()) == action


def test_bad_actions_are_refused_with_a_sentence_and_change_nothing():
    g = BoosterChess(seed=2)
    before = repr(g.truth()), [list(log) for log in g._logs]
    for action in (BoosterMove("e2e5"), BoosterMove("zz"), Step("e2e3"), PlayCard("QH", "d1"), Done()):
        with pytest.raises(IllegalAction) as refused:
            g.play(0, action)
        assert str(refused.value)
    g.play(0, BoosterMove("e2e4"))
    for action in (PlayCard("XX", "d1"), PlayCard(next(c for c in DECK if c not in g.hands[0]), "d1"),
                   PlayCard(g.hands[0][0], "e5"), PlayCard(g.hands[0][0], "zz"), BoosterMove("d2d4"),
                   Step("e4e5")):
        state = repr(g.truth())
        with pytest.raises(IllegalAction) as refused:
            g.play(0, action)
        assert str(refused.value) and repr(g.truth()) == state
    assert before[0] != repr(g.truth())


def scene_text(scene) -> str:
    import dataclasses
    window = scene.sense_window
    picks = [window((f, r)) for f in range(8) for r in range(8)] if window else None
    return repr(dataclasses.replace(scene, sense_window=None)) + repr(picks)


def test_a_game_that_differs_only_in_one_hand_tells_the_other_seat_the_same():
    first = BoosterChess(seed=9)
    hands, pile = first.hands, first.draw_pile
    swapped_hand, swapped_pile = list(hands[0]), list(pile)
    swapped_hand[0], swapped_pile[-1] = swapped_pile[-1], swapped_hand[0]  # a card of White's hand swapped deep
    second = BoosterChess(seed=9)
    second.hands[0], second.draw_pile = swapped_hand, swapped_pile
    second._logs[0][0] = second._logs[0][0]._replace(hand=tuple(swapped_hand))
    rng = random.Random(3)
    for _ in range(40):
        if first.outcome is not None:
            break
        choices = first.choices()
        options = [a for key, value in choices.items() if key != "cards" for a in value]
        if first.seat == 1 and choices.get("cards"):
            options = choices["cards"]
        action = rng.choice(options)
        first.play(first.to_move, action)
        second.play(second.to_move, action)
        assert first.observations(1) == second.observations(1)
        from app.games.booster.presenter import PRESENTER
        one = BoosterView.from_observations(first.observations(1))
        two = BoosterView.from_observations(second.observations(1))
        assert scene_text(PRESENTER.scene(one)) == scene_text(PRESENTER.scene(two))
    assert first.observations(0) != second.observations(0)


def test_the_draw_pile_is_in_no_observation_or_choice():
    g = _random_game(21, 80)
    told = repr(g.observations(0)) + repr(g.observations(1)) + repr(g.choices()) + repr(g.options())
    for card in g.draw_pile:
        assert f"'{card}'" not in told or any(
            card in getattr(o, "card", "") for o in g.observations(0) + g.observations(1))  # played earlier


# ---- the second generator ---------------------------------------------------------------------------------------
# Written from the rule text alone, as plainly as possible: squares are (file, rank) pairs, a board is a dict,
# paths of booster steps are tried one by one with copies of the board.

DIRS = {"N": [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)],
        "B": [(1, 1), (1, -1), (-1, 1), (-1, -1)], "R": [(1, 0), (-1, 0), (0, 1), (0, -1)]}
DIRS["Q"] = DIRS["K"] = DIRS["B"] + DIRS["R"]
SLIDES = {"B", "R", "Q"}


def on(square):
    return 0 <= square[0] < 8 and 0 <= square[1] < 8


def white(letter):
    return letter.isupper()


class Plain:
    """A position: pieces by (file, rank), checkers by (file, rank) (plus White's), the side to move, castling
    rights as a set of corners, the en passant square."""

    def __init__(self, board: chess.Board, stacks: dict[int, int]):
        self.pieces = {(chess.square_file(s), chess.square_rank(s)): p.symbol() for s, p in board.piece_map().items()}
        self.stacks = {(chess.square_file(s), chess.square_rank(s)): n for s, n in stacks.items()}
        self.white = board.turn
        self.corners = {(chess.square_file(s), chess.square_rank(s)) for s in chess.SquareSet(board.castling_rights)}
        ep = board.ep_square
        self.ep = None if ep is None else (chess.square_file(ep), chess.square_rank(ep))

    def copy(self):
        other = object.__new__(Plain)
        other.pieces, other.stacks = dict(self.pieces), dict(self.stacks)
        other.white, other.corners, other.ep = self.white, set(self.corners), self.ep
        return other

    def mine(self, square):
        """Checkers under the piece on square, counted for that piece: + own, - the opponent's."""
        n = self.stacks.get(square, 0)
        return n if white(self.pieces[square]) else -n

    # the moves of one piece, ignoring its king's safety
    def piece_moves(self, square):
        letter = self.pieces[square]
        is_white = white(letter)
        kind = letter.upper()
        out = []
        ahead = 1 if is_white else -1
        hobbled = self.mine(square) < 0
        if hobbled and kind == "P":
            return out
        if hobbled or kind == "P":
            one = (square[0], square[1] + ahead)
            last = 7 if is_white else 0
            promote = kind == "P" and not hobbled
            if on(one) and one not in self.pieces:
                out += [(square, one, p) for p in ("q", "r", "b", "n")] if promote and one[1] == last else \
                    [(square, one, None)]
                two = (square[0], square[1] + 2 * ahead)
                if promote and square[1] == (1 if is_white else 6) and two not in self.pieces:
                    out.append((square, two, None))
            for side in (-1, 1):
                diagonal = (square[0] + side, square[1] + ahead)
                if not on(diagonal):
                    continue
                if diagonal in self.pieces and white(self.pieces[diagonal]) != is_white:
                    out += [(square, diagonal, p) for p in ("q", "r", "b", "n")] if promote and \
                        diagonal[1] == last else [(square, diagonal, None)]
                elif promote and diagonal == self.ep and diagonal not in self.pieces:
                    behind = (diagonal[0], diagonal[1] - ahead)
                    if self.pieces.get(behind) == ("p" if is_white else "P"):
                        out.append((square, diagonal, None))
            return out
        for df, dr in DIRS[kind]:
            target = (square[0] + df, square[1] + dr)
            while on(target):
                if target in self.pieces:
                    if white(self.pieces[target]) != is_white:
                        out.append((square, target, None))
                    break
                out.append((square, target, None))
                if kind not in SLIDES:
                    break
                target = (target[0] + df, target[1] + dr)
        return out

    def land(self, square, count):
        letter = self.pieces[square]
        mine = count if white(letter) else -count
        if mine < 0 and square[1] == (7 if white(letter) else 0):
            count = 0  # the hobble checkers go home
        if count:
            self.stacks[square] = count
        else:
            self.stacks.pop(square, None)

    def normal(self, move):
        start, end, promotion = move
        letter = self.pieces.pop(start)
        count = self.stacks.pop(start, 0)
        taken = end
        if letter.upper() == "P" and end == self.ep and end not in self.pieces and start[0] != end[0]:
            taken = (end[0], start[1])
        self.pieces.pop(taken, None)
        count += self.stacks.pop(taken, 0)
        if letter.upper() == "K" and abs(end[0] - start[0]) == 2:
            rook_from = (7 if end[0] == 6 else 0, start[1])
            self.pieces[(5 if end[0] == 6 else 3, start[1])] = self.pieces.pop(rook_from)
        self.pieces[end] = (promotion.upper() if white(letter) else promotion) if promotion else letter
        self.land(end, count)
        self.ep = (start[0], (start[1] + end[1]) // 2) if letter.upper() == "P" and abs(end[1] - start[1]) == 2 \
            else None
        self.corners -= {start, end}
        if letter.upper() == "K":
            self.corners -= {(0, start[1]), (7, start[1])}

    def step(self, move):
        start, end, promotion = move
        letter = self.pieces.pop(start)
        count = self.stacks.pop(start, 0) - (1 if white(letter) else -1)
        self.pieces.pop(end, None)
        count += self.stacks.pop(end, 0)
        if letter.upper() == "P" and end[1] == (7 if white(letter) else 0):
            letter = promotion.upper() if white(letter) else promotion
        self.pieces[end] = letter
        self.land(end, count)
        self.ep = None
        self.corners -= {start, end}
        if letter.upper() == "K":
            self.corners -= {(0, start[1]), (7, start[1])}

    # attacks
    def captures_on(self, square, target):
        """Whether the piece on square could take on target with a normal move (hobbled: as a pawn)."""
        letter = self.pieces[square]
        ahead = 1 if white(letter) else -1
        if self.mine(square) < 0 or letter.upper() == "P":
            if self.mine(square) < 0 and letter.upper() == "P":
                return False
            return target[1] == square[1] + ahead and abs(target[0] - square[0]) == 1
        saved = self.pieces.get(target)
        self.pieces[target] = "k" if white(letter) else "K"
        found = any(move[1] == target for move in self.piece_moves(square))
        if saved is None:
            del self.pieces[target]
        else:
            self.pieces[target] = saved
        return found

    def walk(self, square, target, by_white, seen=None):
        """Booster steps from square (the piece there keeps stepping while it has checkers of its own). ``seen``:
        the positions already walked from in this search (reached again by another path, they give the same)."""
        if self.mine(square) < 1:
            return False
        seen = set() if seen is None else seen
        state = (square, frozenset(self.pieces.items()), frozenset(self.stacks.items()))
        if state in seen:
            return False
        seen.add(state)
        for df in (-1, 0, 1):
            for dr in (-1, 0, 1):
                nxt = (square[0] + df, square[1] + dr)
                if (df, dr) == (0, 0) or not on(nxt):
                    continue
                if nxt == target:
                    return True
                other = self.pieces.get(nxt)
                if other is not None and (white(other) == by_white or other.upper() == "K"):
                    continue
                after = self.copy()
                after.step((square, nxt, "q"))
                if after.walk(nxt, target, by_white, seen):
                    return True
        return False

    def attacked(self, target, by_white):
        for square, letter in list(self.pieces.items()):
            if white(letter) != by_white:
                continue
            if self.captures_on(square, target):
                return True
            if self.mine(square) > 0:
                for move in self.piece_moves(square):
                    if move[1] == target or self.pieces.get(move[1], "").upper() == "K":
                        continue
                    after = self.copy()
                    after.normal(move)
                    if after.walk(move[1], target, by_white):
                        return True
        return False

    def king(self, is_white):
        return next(s for s, letter in self.pieces.items() if letter == ("K" if is_white else "k"))

    def safe_after(self, change, move, is_white):
        after = self.copy()
        change(after, move)
        return not after.attacked(after.king(is_white), not is_white)

    def legal(self):
        out = set()
        for square, letter in list(self.pieces.items()):
            if white(letter) != self.white:
                continue
            for move in self.piece_moves(square):
                if self.pieces.get(move[1], "").upper() == "K":
                    continue
                if self.safe_after(Plain.normal, move, self.white):
                    out.add(move)
        rank = 0 if self.white else 7
        king = (4, rank)
        if self.pieces.get(king) == ("K" if self.white else "k") and not self.stacks.get(king):
            for rook_file, empty, passed, to in ((7, (5, 6), (4, 5, 6), 6), (0, (1, 2, 3), (4, 3, 2), 2)):
                rook = (rook_file, rank)
                if rook in self.corners and self.pieces.get(rook) == ("R" if self.white else "r") \
                        and not self.stacks.get(rook) and not any((f, rank) in self.pieces for f in empty) \
                        and not any(self.attacked((f, rank), not self.white) for f in passed):
                    out.add((king, (to, rank), None))
        return out

    def steps(self, square):
        out = set()
        letter = self.pieces[square]
        if self.mine(square) < 1:
            return out
        for df in (-1, 0, 1):
            for dr in (-1, 0, 1):
                nxt = (square[0] + df, square[1] + dr)
                if (df, dr) == (0, 0) or not on(nxt):
                    continue
                other = self.pieces.get(nxt)
                if other is not None and (white(other) == white(letter) or other.upper() == "K"):
                    continue
                promos = ("q", "r", "b", "n") if letter.upper() == "P" and nxt[1] == (7 if white(letter) else 0) \
                    else (None,)
                for promo in promos:
                    if self.safe_after(Plain.step, (square, nxt, promo), white(letter)):
                        out.add((square, nxt, promo))
        return out

    def card_targets(self, card_white, kind):
        """Where the side to move may put a checker with a card of colour card_white standing for kind (None: a
        checker card)."""
        letter = None if kind is None else (kind.upper() if card_white else kind.lower())
        pieces = [s for s, p in self.pieces.items() if white(p) == card_white]
        matching = [s for s in pieces if self.pieces[s] == letter]
        out = set()
        for square in matching or pieces:
            after = self.copy()
            count = after.stacks.get(square, 0) + (1 if self.white else -1)
            if count:
                after.stacks[square] = count
            else:
                after.stacks.pop(square)
            if not after.attacked(after.king(self.white), not self.white):
                out.add(square)
        return out


def as_move(move):
    (f1, r1), (f2, r2), promotion = move
    return chess.Move(chess.square(f1, r1), chess.square(f2, r2),
                      chess.Piece.from_symbol(promotion).piece_type if promotion else None)


def random_position(rng: random.Random) -> tuple[chess.Board, dict[int, int]]:
    while True:
        board = chess.Board(None)
        squares = rng.sample(range(64), 2 + rng.randint(2, 12))
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        for square in squares[2:]:
            kind = rng.choice([chess.PAWN] * 3 + [chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN])
            if kind == chess.PAWN and chess.square_rank(square) in (0, 7):
                kind = chess.KNIGHT
            board.set_piece_at(square, chess.Piece(kind, rng.random() < 0.5))
        if rng.random() < 0.3:  # castling material
            for colour, rank in ((chess.WHITE, 0), (chess.BLACK, 7)):
                home = [chess.square(file, rank) for file in (0, 4, 7)]
                if rng.random() < 0.6 and all(board.piece_type_at(sq) != chess.KING or board.color_at(sq) == colour
                                              for sq in home):
                    board.remove_piece_at(board.king(colour))
                    board.set_piece_at(home[1], chess.Piece(chess.KING, colour))
                    for corner in (home[0], home[2]):
                        board.set_piece_at(corner, chess.Piece(chess.ROOK, colour))
                        board.castling_rights |= chess.BB_SQUARES[corner]
        if board.king(chess.WHITE) is None or board.king(chess.BLACK) is None:
            continue
        board.turn = rng.random() < 0.5
        if rng.random() < 0.3:  # an en passant chance: a pawn of the side not to move just went two squares
            file = rng.randrange(8)
            colour = not board.turn
            rank = 3 if colour == chess.WHITE else 4
            square = chess.square(file, rank)
            behind = chess.square(file, rank - 1 if colour == chess.WHITE else rank + 1)
            start = chess.square(file, 1 if colour == chess.WHITE else 6)
            if board.piece_at(square) is None and board.piece_at(behind) is None and board.piece_at(start) is None:
                board.set_piece_at(square, chess.Piece(chess.PAWN, colour))
                board.ep_square = behind
                side = chess.square(min(7, file + 1) if rng.random() < 0.5 else max(0, file - 1), rank)
                if board.piece_at(side) is None:
                    board.set_piece_at(side, chess.Piece(chess.PAWN, board.turn))
        stacks: dict[int, int] = {}
        left = {chess.WHITE: 6, chess.BLACK: 6}
        for square in chess.SquareSet(board.occupied):
            if rng.random() < 0.35:
                colour = rng.random() < 0.5
                count = min(left[colour], rng.choice([1, 1, 1, 2, 2, 3]))
                if count:
                    left[colour] -= count
                    stacks[square] = count if colour == chess.WHITE else -count
        if in_danger(board, stacks, not board.turn):
            continue  # the side that just moved may not stand in check
        return board, stacks


POSITIONS = 1000


def test_the_game_agrees_with_a_plain_generator_on_random_positions():
    rng = random.Random(20261127)
    counts = {"moves": 0, "steps": 0, "cards": 0, "checks": 0, "castles": 0, "ep": 0, "hobbled": 0}
    for index in range(POSITIONS):
        board, stacks = random_position(rng)
        plain = Plain(board, stacks)
        fen = f"{board.fen()} {stacks}"
        assert plain.attacked(plain.king(not board.turn), board.turn) is False, fen
        in_check = in_danger(board, stacks, board.turn)
        assert in_check == plain.attacked(plain.king(board.turn), not board.turn), fen
        counts["checks"] += in_check
        ours = set(legal_moves(board, stacks))
        theirs = {as_move(move) for move in plain.legal()}
        assert ours == theirs, (fen, ucis(ours ^ theirs))
        counts["moves"] += len(ours)
        counts["castles"] += sum(board.piece_type_at(m.from_square) == chess.KING and
                                 abs(m.from_square - m.to_square) == 2 for m in ours)
        counts["ep"] += sum(m.to_square == board.ep_square and board.piece_type_at(m.from_square) == chess.PAWN
                            for m in ours)
        counts["hobbled"] += sum(stacks.get(m.from_square, 0) * (1 if board.turn else -1) < 0 for m in ours)
        for move in sorted(ours, key=lambda m: m.uci())[:6] if index % 3 else []:
            if not stacks.get(move.from_square):
                continue
            after, after_stacks = board.copy(stack=False), dict(stacks)
            apply_normal(after, after_stacks, move)
            other = plain.copy()
            other.normal(((chess.square_file(move.from_square), chess.square_rank(move.from_square)),
                          (chess.square_file(move.to_square), chess.square_rank(move.to_square)),
                          chess.piece_symbol(move.promotion) if move.promotion else None))
            assert {(chess.square_file(s), chess.square_rank(s)): n for s, n in after_stacks.items()} == \
                other.stacks, (fen, move.uci())
            square = (chess.square_file(move.to_square), chess.square_rank(move.to_square))
            steps = set(legal_steps(after, after_stacks, move.to_square))
            assert steps == {as_move(step) for step in other.steps(square)}, (fen, move.uci())
            counts["steps"] += len(steps)
        if index % 4 == 0:
            for card in ("6H", "6S", "QH", "8S", "2D", "KS", "10C"):
                from app.games.kit_cards import card_colour, card_piece
                piece = card_piece(card)
                if supply(stacks, board.turn) < 1:
                    break
                mine = set(card_squares(board, stacks, board.turn, card))
                plain_targets = plain.card_targets(card_colour(card), piece.symbol() if piece else None)
                assert mine == {chess.square(f, r) for f, r in plain_targets}, (fen, card)
                counts["cards"] += len(mine)
    # the random positions reach every rule
    assert all(counts[key] > 20 for key in counts), counts


def test_malformed_record_actions_and_options_are_refused_with_a_sentence():
    for data in ({"type": "card", "card": "QH"}, {"type": "step"}, {"type": "move", "uci": 5}, {"type": "fly"},
                 {"type": "done", "extra": 1}):
        with pytest.raises(ValueError) as refused:
            BoosterChess.action_from_json(data)
        assert str(refused.value)
    for options in ({"fen": "not a fen"}, {"checkers": "e4:+9"}, {"checkers": "e4:+1"}, {"colour": "red"},
                    {"checkers": "a1:+4 b1:+3"}):
        with pytest.raises(ValueError) as refused:
            BoosterChess.from_options(options)
        assert str(refused.value)
    g = BoosterChess(seed=1)
    with pytest.raises(IllegalAction):
        g.play(0, PlayCard(None, None))  # type: ignore[arg-type]


def test_the_engine_answers_within_its_choices_and_stops_at_its_deadline():
    from app.bots.base import ActionRequest
    from app.games.booster.bots import BoosterEngineBot
    g = BoosterChess(seed=8)
    bot = BoosterEngineBot(seed=1, level="hard")
    bot.start(0, {})
    for observation in g.observations(0):
        bot.observe(observation)
    ticks = iter(range(1000))
    bot.now = lambda: float(next(ticks))  # every look at the clock a second later: past the deadline at once
    action = bot.act(ActionRequest(0, "move", g.choices(), seconds_left=100.0))
    assert action in g.choices()["moves"]
