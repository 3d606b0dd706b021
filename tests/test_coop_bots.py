"""The Cooperative Chess 2 partner bot's sense of a king capture: once the team has points enough, it sets one up
for its partner's next turn (the king's card beside a card of a piece that can reach the king in one move), and
the partner takes it. Hand-made positions; the bots are told their seats' observations only."""

from __future__ import annotations

import chess

from app.bots.base import ActionRequest
from app.games.coop.bots import CoopPartnerBot, _none_of, king_ready
from app.games.coop.rules import CoopChess, PlayCard
from app.games.kit_cards import piece_cards

SPARSE = "4k3/q7/8/8/8/8/8/7K w - - 0 1"
"""White has its king alone on h1; Black its king and a queen on a7, a move from the long diagonal to h1. Four
piece types are gone from the board: 40 points already."""


def _deck(first: list[str], line: list[str]) -> list[str]:
    rest = [card for card in piece_cards() if card not in first and card not in line and card[0] != "K"]
    return [*first, *rest, *(king for king in ("KH", "KS") if king not in line)]


def _play(game: CoopChess, bots: list[CoopPartnerBot], turns: int) -> list[object]:
    told = [0, 0]
    played: list[object] = []
    start = game.turn_number
    while not game.is_over and game.turn_number < start + turns:
        seat = game.to_move
        assert seat is not None
        observations = game.observations(seat)
        for observation in observations[told[seat]:]:
            bots[seat].observe(observation)
        told[seat] = len(observations)
        action = bots[seat].act(ActionRequest(seat, game.phase, game.choices()))
        played.append(action)
        game.play(seat, action)
    return played


def test_king_ready_needs_the_kings_card_beside_a_card_of_a_piece_a_move_from_the_king() -> None:
    board = chess.Board(SPARSE)
    assert king_ready(board, ["KH", "QS"], chess.BLACK) == 1.0  # Qa8 then takes on h1
    assert king_ready(board, ["QS", "2H", "KH"], chess.BLACK) == 0.0  # the cards are not side by side
    assert king_ready(board, ["KH", "8S"], chess.BLACK) == 0.0  # no black knight on the board
    far = chess.Board("4k3/8/8/8/8/8/q7/7K w - - 0 1")  # the queen on a2 attacks along the rank, a move to a1
    assert king_ready(far, ["KH", "QS"], chess.BLACK) == 1.0
    assert king_ready(far, ["KH"], chess.BLACK, unseen=["QS", "2S"], cards=1) == 0.5  # by the card played next


def test_at_forty_points_the_bot_plays_the_card_that_lets_its_partner_take_the_king() -> None:
    game = CoopChess(deck=_deck(["2H", "QS", "3S", "4S"], ["KH"]), fen=SPARSE, line=["KH"])
    assert game.hands == [["2H", "QS"], ["3S", "4S"]] and game.line == ["KH"]
    bots = [CoopPartnerBot(seed=seat) for seat in range(2)]
    for seat, bot in enumerate(bots):
        bot.start(seat, {})
    played = _play(game, bots, 2)
    assert PlayCard("QS") in played
    assert game.outcome is not None and game.outcome.team == 0 and game.outcome.reason.value == "king_capture"


def test_the_chance_of_a_hand_holding_none_of_some_cards() -> None:
    assert _none_of(10, 0, 2) == 1.0 and _none_of(10, 10, 1) == 0.0
    assert abs(_none_of(10, 2, 2) - 28 / 45) < 1e-12  # C(8, 2) / C(10, 2)
