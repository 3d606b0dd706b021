"""Cooperative Chess 2's rules (CO1-CO5, G1-G4) on hand-made positions, one test per rule sentence or so."""

from __future__ import annotations

import chess
import pytest

from app.bots.base import ActionRequest
from app.engine.core import IllegalAction, Reason
from app.games.coop.bots import CoopPartnerBot, CoopRandomBot, answer_truly
from app.games.coop.rules import (Answer, Ask, CoopChess, CoopMove, CoopView, Dealt, EndTurn, Moved, PlayCard,
                                  capture_cards, score_of)
from app.games.coop.solitaire.rules import CoopSolitaire
from app.games.kit_cards import piece_cards


def deck(*first: str, without: tuple[str, ...] = ()) -> list[str]:
    """A deck whose first cards are ``first`` (dealt two to White, then two to Black), then the rest in order but
    for the cards ``without`` (those on the line or in the discard pile)."""
    return [*first, *(card for card in piece_cards() if card not in first and card not in without)]


def made(first: tuple[str, ...], fen: str | None = None, line: tuple[str, ...] = (),
         discard: tuple[str, ...] = (), referee: type[CoopChess] | None = None, **more: int) -> CoopChess:
    """A game from a hand-made position: the deck starts with ``first`` and holds every other card not in the
    line or the discard pile."""
    return (referee or CoopChess)(deck=deck(*first, without=line + discard), fen=fen, line=line, discard=discard,
                                  **more)


def move(uci: str, **fields: object) -> CoopMove:
    return CoopMove(chess.Move.from_uci(uci), **fields)  # type: ignore[arg-type]


def snapshot(game: CoopChess) -> tuple[object, ...]:
    truth = game.truth()
    return (truth.board.fen(), truth.line, truth.hands, truth.discard, truth.pile, truth.captures, game.phase,
            game.to_move, tuple(len(game.observations(seat)) for seat in range(len(game.seat_names))))


def refused(game: CoopChess, seat: int, action: object, words: str) -> None:
    """``action`` is refused with a sentence containing ``words`` and changes nothing."""
    before = snapshot(game)
    with pytest.raises(IllegalAction, match=words):
        game.play(seat, action)  # type: ignore[arg-type]
    assert snapshot(game) == before


# ---- the text's own example ----------------------------------------------------------------------------------------

EXAMPLE_FEN = "rnb1k3/pp6/8/3P4/8/5P2/4B1P1/R3NQ1K b - - 0 1"
"""Black to move: its bishop on c8 can reach e6; White's pawns on d5, f3 and g2; White's knight (e1), bishop (e2)
and queen (f1) guard f3, its rook (a1) does not."""


def example(white_hand: tuple[str, str] = ("5H", "8D")) -> CoopChess:
    # The line: a black pawn card, a white pawn card, a black bishop card. Black holds a black knight card and a
    # white pawn card.
    return made((*white_hand, "8S", "4H"), EXAMPLE_FEN, ("2S", "3H", "9S"))


def test_the_texts_example_black_plays_a_pawn_card_and_takes_both_pawns_but_not_g2() -> None:
    game = example()
    assert game.seat_names[game.to_move] == "Black" and game.phase == "card"
    game.play(1, PlayCard("4H"))
    assert game.line == ["2S", "3H", "9S", "4H"]
    game.play(1, move("c8e6"))
    assert game.phase == "capture"
    game.play(1, move("e6d5", card="3H"))  # the pawn card on the bishop card's left
    game.play(1, move("d5f3"))  # and the one on its right
    assert game.line == ["2S", "9S"] and game.discard == ["3H", "4H"] and game.captures == 2
    # g2 is in reach, but the only pawn card left beside the bishop's is black: the turn ended by itself
    assert game.seat_names[game.to_move] == "White" and game.phase == "card"
    assert game.board.piece_at(chess.G2) == chess.Piece(chess.PAWN, chess.WHITE)


def test_the_example_refuses_g2_with_a_sentence() -> None:
    # after the two captures the line is 2S 9S; Black's next card (8S) goes beside the 9S, not a white pawn card
    fen = "rn2k3/pp6/8/8/8/5b2/4B1P1/R3NQ1K b - - 0 1"
    game = made(("5H", "2D", "8S", "4C"), fen, ("2S", "9S"), ("3H", "4H"), captures=2)
    game.play(1, PlayCard("8S"))
    refused(game, 1, move("f3g2"), "needs a black bishop card right beside a white pawn card")


@pytest.mark.parametrize("card, captures", [("5H", True), ("8D", True), ("9H", True), ("QH", True),
                                            ("10H", False)])
def test_then_white_may_take_the_bishop_with_a_pawn_knight_bishop_or_queen_card(card: str, captures: bool) -> None:
    game = example(white_hand=(card, "2D"))
    game.play(1, PlayCard("4H"))
    game.play(1, move("c8e6"))
    game.play(1, move("e6d5"))
    game.play(1, move("d5f3"))
    game.play(0, PlayCard(card))
    takers = [option for option in game.choices()["moves"] if option.move.to_square == chess.F3]
    assert bool(takers) is captures


# ---- the deal (CO1, CO2) ----------------------------------------------------------------------------------------------

def test_the_deal_gives_two_cards_each_and_a_king_goes_to_the_line_and_is_replaced() -> None:
    game = made(("2H", "KS", "3H", "2S", "3S",))
    assert game.hands == [["2H", "3H"], ["2S", "3S"]]
    assert game.line == ["KS"] and len(game.pile) == 32 - 5
    views = [CoopView.from_observations(game.observations(seat)) for seat in (0, 1)]
    assert views[0].hand == ["2H", "3H"] and views[1].hand == ["2S", "3S"]
    assert views[0].line == views[1].line == ["KS"] and views[0].pile == 27


def test_the_deck_is_the_32_piece_cards_shuffled_from_the_games_seed() -> None:
    first, again, other = CoopChess(seed=11), CoopChess(seed=11), CoopChess(seed=12)
    assert first.truth() == again.truth() and first.truth().pile != other.truth().pile
    truth = first.truth()
    assert sorted([*truth.pile, *truth.line, *truth.hands[0], *truth.hands[1]]) == sorted(piece_cards())


def test_white_plays_first_and_the_colours_alternate() -> None:
    game = made(("2H", "3H", "2S", "3S",))
    assert game.to_move == 0
    game.play(0, PlayCard("2H"))
    game.play(0, EndTurn())
    assert game.to_move == 1 and game.phase == "card"
    game.play(1, PlayCard("2S"))
    game.play(1, EndTurn())
    assert game.to_move == 0


# ---- a turn (CO3) ----------------------------------------------------------------------------------------------------

def test_a_card_must_be_played_first_and_only_from_the_hand() -> None:
    game = made(("2H", "3H", "2S", "3S",))
    refused(game, 0, move("e2e4"), "must first play a card")
    refused(game, 0, PlayCard("2S"), "not a card in White's hand")
    refused(game, 0, EndTurn(), "must first play a card")
    refused(game, 1, PlayCard("2S"), "not Black's turn")


def test_one_non_capturing_move_at_most_then_captures_only() -> None:
    game = made(("2H", "3H", "2S", "3S",))
    game.play(0, PlayCard("2H"))
    refused(game, 0, move("e2e5"), "not a legal chess move")
    game.play(0, move("e2e4"))
    # no capture is possible, so the turn ended by itself and White drew back to two cards
    assert game.to_move == 1 and len(game.hands[0]) == 2


def test_a_second_quiet_move_is_refused_while_captures_remain() -> None:
    fen = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1"  # e4 may take d5
    game = made(("5H", "9H", "8S", "8C",), fen=fen, line=("2S",))
    game.play(0, PlayCard("5H"))  # line 2S 5H: a white pawn card beside a black pawn card
    game.play(0, move("e1d2"))
    assert game.phase == "capture"
    refused(game, 0, move("d2e2"), "only captures are left")
    game.play(0, move("e4d5"))
    assert game.discard == ["2S"] and game.captures == 1


def test_a_capture_needs_the_two_cards_side_by_side() -> None:
    fen = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1"
    game = made(("5H", "9H", "8S", "8C"), fen, ("2S", "10C"))
    game.play(0, PlayCard("5H"))  # 2S 10C 5H: the pawn cards are not neighbours
    refused(game, 0, move("e4d5"), "needs a white pawn card right beside a black pawn card")


def test_the_colour_of_a_card_counts() -> None:
    line = ["2S", "9S", "3S"]
    bishop, white_pawn = chess.Piece(chess.BISHOP, chess.BLACK), chess.Piece(chess.PAWN, chess.WHITE)
    assert capture_cards(line, bishop, white_pawn) == []
    assert capture_cards(line, bishop, chess.Piece(chess.PAWN, chess.BLACK)) == ["2S", "3S"]


def test_several_captures_in_a_turn_even_by_different_pieces() -> None:
    # White's knight on c3 may take d5, its rook on a1 may take a8 (after the knight's capture, as the line allows)
    fen = "r3k3/8/8/3p4/8/2N5/8/R3K3 w - - 0 1"
    game = made(("8H", "2D", "8S", "8C"), fen, ("10H", "10S", "2S"))
    game.play(0, PlayCard("8H"))  # 10H 10S 2S 8H
    game.play(0, move("c3d5"))  # the knight takes the pawn: 2S goes, 10H 10S 8H are left
    assert game.to_move == 0 and game.phase == "capture"
    game.play(0, move("a1a8"))  # the rook takes the rook
    assert game.captures == 2 and game.discard == ["2S", "10S"] and game.line == ["10H", "8H"]


def test_the_mover_names_which_card_a_capture_discards() -> None:
    fen = "4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1"
    game = made(("5H", "9H", "8S", "8C"), fen, ("2S", "4H", "3S"))
    game.play(0, PlayCard("5H"))
    refused(game, 0, move("e4d5", card="2C"), "does not lie beside")
    game.play(0, move("e4d5", card="3S"))
    assert game.discard == ["3S"] and game.line == ["2S", "4H", "5H"]


def test_drawing_back_to_two_and_a_king_drawn_goes_to_the_line_and_is_replaced() -> None:
    game = made(("2H", "3H", "2S", "3S", "KH", "4H",))
    game.play(0, PlayCard("2H"))
    game.play(0, EndTurn())
    assert game.hands[0] == ["3H", "4H"] and game.line == ["2H", "KH"]
    black = CoopView.from_observations(game.observations(1))
    assert black.line == ["2H", "KH"] and black.hand_counts == [2, 2]


def test_en_passant_only_right_after_the_double_step() -> None:
    fen = "4k3/8/8/8/4p3/8/3P4/4K3 w - - 0 1"
    game = made(("5H", "9H", "4S", "8C",), fen=fen, line=("2S",))
    game.play(0, PlayCard("5H"))  # 2S 5H: pawn cards side by side
    game.play(0, move("d2d4"))
    game.play(1, PlayCard("4S"))  # 2S 5H 4S
    assert chess.Move.from_uci("e4d3") in [option.move for option in game.choices()["moves"]]
    game.play(1, move("e4d3"))
    assert game.board.piece_at(chess.D4) is None and game.captures == 1


def test_a_king_may_not_be_left_in_check_by_a_move_but_moving_is_optional() -> None:
    fen = "4k3/8/8/8/8/8/4r3/R3K3 w - - 0 1"  # White's king is attacked by the rook on e2
    game = made(("5H", "9H", "4S", "8C",), fen=fen, line=())
    game.play(0, PlayCard("5H"))
    refused(game, 0, move("a1a2"), "not a legal chess move")
    game.play(0, EndTurn())  # White does not move at all: its king stays attacked
    assert game.to_move == 1


# ---- promotion (CO4) ---------------------------------------------------------------------------------------------

PROMOTE_FEN = "7k/4P3/8/8/8/8/8/K7 w - - 0 1"


def test_a_pawn_reaches_the_last_rank_only_with_its_card_in_the_line() -> None:
    game = made(("9H", "8D", "4S", "8C",), fen=PROMOTE_FEN, line=("2S",), discard=("QH",))
    game.play(0, PlayCard("9H"))
    refused(game, 0, move("e7e8q"), "only with a white pawn card in the line")


def test_a_pawn_promotes_only_to_a_type_of_its_colour_in_the_discard_pile() -> None:
    game = made(("2H", "8D", "4S", "8C"), PROMOTE_FEN, ("2S",), ("QS", "10H"))
    game.play(0, PlayCard("2H"))
    refused(game, 0, move("e7e8q"), "not a queen")
    assert {option.move.promotion for option in game.choices()["moves"] if option.move.promotion} == {chess.ROOK}


def test_promotion_discards_the_pawn_card_and_puts_the_new_card_where_the_mover_says() -> None:
    game = made(("2H", "8D", "4S", "8C"), PROMOTE_FEN, ("2S", "3S"), ("QH",))
    game.play(0, PlayCard("2H"))  # 2S 3S 2H
    refused(game, 0, move("e7e8q", place=3), "from 0 to 2")
    game.play(0, move("e7e8q", place=1))
    assert game.board.piece_at(chess.E8) == chess.Piece(chess.QUEEN, chess.WHITE)
    assert game.line == ["2S", "QH", "3S"] and game.discard == ["2H"]
    seen = CoopView.from_observations(game.observations(1))
    assert seen.line == game.line and seen.discard == game.discard


def test_a_capture_onto_the_last_rank_discards_the_captured_card_first() -> None:
    fen = "3r3k/4P3/8/8/8/8/8/K7 w - - 0 1"
    game = made(("2H", "8D", "4S", "8C"), fen, ("10S", "3S"), ("8H",))
    game.play(0, PlayCard("2H"))  # 10S 3S 2H: 2H is not beside 10S
    refused(game, 0, move("e7d8n", place=0), "needs a white pawn card right beside a black rook card")
    game = made(("2H", "8D", "4S", "8C"), fen, ("3S", "10S"), ("8H",))
    game.play(0, PlayCard("2H"))  # 3S 10S 2H
    game.play(0, move("e7d8n", place=0))
    assert game.line == ["8H", "3S"] and game.discard == ["10S", "2H"] and game.captures == 1


# ---- the end and the score (CO5) -------------------------------------------------------------------------------------

def test_the_score_counts_captures_and_types_gone_of_both_colours() -> None:
    board = chess.Board("4k3/pppppppp/8/8/8/8/8/4K3 w - - 0 1")  # no knights, bishops, rooks, queens anywhere
    assert score_of(board, 23) == (63, 4)
    board = chess.Board("4k3/8/8/8/8/8/8/3QK3 w - - 0 1")  # a white queen keeps the queens on the board
    assert score_of(board, 0) == (40, 4)


def _king_capture(captures: int, fen: str = "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1") -> CoopChess:
    """White's rook gives check; Black's king stayed; White takes it (its rook card beside the king's)."""
    game = made(("10H", "2H", "4S", "8C",), fen=fen, line=("KS",), captures=captures)
    game.play(0, PlayCard("10H"))
    game.play(0, move("e7e8"))
    return game


def test_a_king_capture_ends_the_game_a_win_with_32_or_more() -> None:
    game = _king_capture(25)  # 26 captures and four types gone (N, B, Q, and... pawns): 26 + 40 = 66
    assert game.is_over and game.outcome is not None
    assert game.outcome.team == 0 and game.outcome.winner is None and game.outcome.reason is Reason.KING_CAPTURE
    assert game.outcome.score == 26 + 40 and "great" in game.outcome.detail


def test_a_king_capture_under_32_is_a_loss() -> None:
    fen = "4k3/pppp1ppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"
    game = made(("QH", "2H", "4S", "8C"), fen.replace("4k3/pppp1ppp", "4k3/ppppQppp")
                     .replace("RNBQKBNR", "RNB1KBNR"), ("KS",))
    game.play(0, PlayCard("QH"))
    game.play(0, move("e7e8"))
    assert game.outcome is not None and game.outcome.team is None and game.outcome.score == 1
    assert "under 32" in game.outcome.detail


def test_32_to_50_is_a_win_but_not_great() -> None:
    fen = "4k3/4R3/8/8/8/8/PPPPPPPP/4K3 w - - 0 1"  # pawns, rook, kings on the board: N, B, Q gone
    game = _king_capture(5, fen)
    assert game.outcome is not None and game.outcome.score == 36 and game.outcome.team == 0
    assert "great" not in game.outcome.detail


def test_the_game_ends_lost_when_the_hands_and_pile_run_out() -> None:
    game = CoopChess(deck=["2H", "3H", "2S", "3S"], fen="4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    for seat, card in ((0, "2H"), (1, "2S"), (0, "3H")):
        game.play(seat, PlayCard(card))
        if not game.is_over and game.to_move == seat:
            game.play(seat, EndTurn())
    assert not game.is_over and game.to_move == 1
    game.play(1, PlayCard("3S"))
    if not game.is_over:
        game.play(1, EndTurn())
    assert game.outcome is not None and game.outcome.reason is Reason.SCORE and game.outcome.team is None
    assert "ran out" in game.outcome.detail


def test_a_seat_with_an_empty_hand_still_moves() -> None:
    game = CoopChess(deck=["2H", "3H"], fen="4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")  # Black is dealt nothing
    assert game.hands == [["2H", "3H"], []]
    game.play(0, PlayCard("2H"))
    game.play(0, EndTurn())
    assert game.to_move == 1 and game.phase == "move"  # no card to play: straight to the moves
    game.play(1, move("e8d8"))
    assert not game.is_over and game.to_move == 0
    game.play(0, PlayCard("3H"))
    game.play(0, EndTurn())
    assert game.is_over  # both hands and the pile are empty at the end of White's turn


# ---- talking (CO2) ----------------------------------------------------------------------------------------------

def test_a_question_is_answered_at_the_partners_turn_and_kept_in_both_logs() -> None:
    game = made(("2H", "3H", "8S", "3S",))
    game.play(0, Ask("hold", piece="n"))
    refused(game, 0, Ask("hold", piece="q"), "one question in its turn")
    game.play(0, PlayCard("2H"))
    game.play(0, EndTurn())
    assert game.to_move == 1 and game.phase == "answer"
    refused(game, 1, PlayCard("8S"), "must first answer")
    view = CoopView.from_observations(game.observations(1))
    assert view.question is not None and view.question.words == "Do you hold a black knight card?"
    assert answer_truly(view, view.question) is True
    game.play(1, Answer(True))
    assert game.phase == "card"
    for seat in (0, 1):
        talk = CoopView.from_observations(game.observations(seat)).talk
        assert [type(item).__name__ for item in talk] == ["Asked", "Answered"] and talk[1].yes is True


def test_bad_questions_are_refused() -> None:
    game = made(("2H", "3H", "8S", "3S",))
    refused(game, 0, Ask("hold", piece="X"), "not a piece letter")
    refused(game, 0, Ask("capture", square="z9"), "not a square")
    refused(game, 0, Ask("free", text="   "), "empty")
    refused(game, 0, Ask("weather"), "no kind of question")
    refused(game, 0, Answer(True), "no question to answer")


def test_a_bot_answers_the_capture_question_truly() -> None:
    fen = "4k3/8/8/3p4/4P3/8/8/4K3 b - - 0 1"
    game = made(("5H", "9H", "4S", "8C",), fen=fen, line=("2S",))
    view = CoopView.from_observations(game.observations(0))  # White's: it holds 5H, so e4xd5 needs it played
    asked = Ask("capture", square="d5")
    from app.games.coop.rules import Asked, question_words
    question = Asked(1, asked.topic, "", "d5", "", question_words("capture", square="d5"))
    view.board.turn = chess.WHITE
    assert answer_truly(view, question) is True
    view.hand = ["9H", "8D"]
    assert answer_truly(view, question) is False


# ---- records, privacy ----------------------------------------------------------------------------------------------

def _play_out(game: CoopChess, seed: int, bot_class: type = CoopRandomBot) -> list[tuple[int, dict[str, object]]]:
    bots = [bot_class(seed=seed + seat) for seat in range(len(game.seat_names))]
    seen = [0] * len(bots)
    for seat, bot in enumerate(bots):
        bot.start(seat, {})
    played = []
    while not game.is_over:
        seat = game.to_move
        assert seat is not None
        told = game.observations(seat)
        for observation in told[seen[seat]:]:
            bots[seat].observe(observation)
        seen[seat] = len(told)
        action = bots[seat].act(ActionRequest(seat, game.phase, game.choices()))
        game.play(seat, action)
        played.append((seat, action.to_json()))
    return played


@pytest.mark.parametrize("referee", [CoopChess, CoopSolitaire])
def test_a_record_replays_to_the_same_game(referee: type[CoopChess]) -> None:
    game = referee.create({}, 77)
    played = _play_out(game, 5)
    again = referee.create(game.options(), game.seed)
    for seat, data in played:
        again.play(seat, referee.action_from_json(data))
    assert again.truth() == game.truth() and again.outcome == game.outcome
    for seat in range(len(game.seat_names)):
        assert list(again.observations(seat)) == list(game.observations(seat))


def test_a_malformed_action_is_refused_by_the_reader() -> None:
    with pytest.raises(ValueError):
        CoopChess.action_from_json({"type": "play", "card": "11Z"})
    with pytest.raises(ValueError):
        CoopChess.action_from_json({"type": "move", "move": "e2"})


def test_a_game_differing_only_in_whites_hand_tells_black_the_same() -> None:
    first = made(("2H", "3H", "2S", "3S", "4H", "5H",))
    second = made(("4H", "5H", "2S", "3S", "2H", "3H",))
    assert first.hands[0] != second.hands[0]
    assert list(first.observations(1)) == list(second.observations(1))
    first.play(0, Ask("hold", piece="B"))
    second.play(0, Ask("hold", piece="B"))
    assert list(first.observations(1)) == list(second.observations(1))


def test_the_piles_order_reaches_no_seat() -> None:
    rest = [card for card in piece_cards() if card not in ("2H", "3H", "2S", "3S", "KH", "KS")] + ["KH", "KS"]
    first = CoopChess(deck=["2H", "3H", "2S", "3S", *rest])
    second = CoopChess(deck=["2H", "3H", "2S", "3S", *reversed(rest)])
    for seat in (0, 1):
        assert list(first.observations(seat)) == list(second.observations(seat))
    assert first.choices() == second.choices()
    dealt = first.observations(0)[0]
    assert isinstance(dealt, Dealt) and dealt.pile == len(rest)


def test_the_partner_bot_picks_only_what_the_rules_allow() -> None:
    game = CoopChess.create({}, 3)
    _play_out(game, 3, CoopPartnerBot)
    assert game.is_over and game.outcome is not None and game.outcome.score is not None


# ---- the solitaire ------------------------------------------------------------------------------------------------

def test_the_solitaire_turns_the_top_card_onto_the_line_each_turn_and_holds_no_hand() -> None:
    game = CoopSolitaire(deck=deck("2H", "KS", "3H", "2S"))
    assert game.seat_names == ("Player",) and game.hands == [[]]
    assert game.line == ["2H"] and game.phase == "move" and game.board.turn == chess.WHITE
    refused(game, 0, Ask("hold", piece="N"), "no partner")
    game.play(0, EndTurn())
    assert game.line == ["2H", "KS", "3H"] and game.board.turn == chess.BLACK and game.to_move == 0


def test_the_solitaire_ends_when_the_pile_is_empty() -> None:
    game = CoopSolitaire(deck=["2H", "3H"], fen="4k3/8/8/8/8/8/8/4K3 w - - 0 1")
    game.play(0, EndTurn())
    game.play(0, EndTurn())
    assert game.outcome is not None and game.outcome.reason is Reason.SCORE and game.outcome.winner is None


def test_a_won_solitaire_is_the_players_win() -> None:
    game = made(("10H",), "4k3/4R3/8/8/8/8/8/4K3 w - - 0 1", ("KS",), referee=CoopSolitaire, captures=25)
    game.play(0, move("e7e8"))
    assert game.outcome is not None and game.outcome.winner == 0 and game.outcome.score == 66


def test_moves_tell_every_seat_the_score() -> None:
    game = _king_capture(25)
    moved = [o for o in game.observations(1) if isinstance(o, Moved)]
    assert moved[-1].captured == "k" and moved[-1].score == 66


def test_partner_bots_ask_about_the_card_they_want_and_answer_truly() -> None:
    game = CoopChess.create({}, 3)
    _play_out(game, 3, CoopPartnerBot)
    from app.games.coop.rules import Answered, Asked
    talk = [o for o in game.observations(0) if isinstance(o, (Asked, Answered))]
    assert any(isinstance(o, Asked) for o in talk) and any(isinstance(o, Answered) for o in talk)
    assert [type(o) for o in talk[:2]] == [Asked, Answered]
