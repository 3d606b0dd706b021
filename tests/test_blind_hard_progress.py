"""Blind Chess hard level: a quiet position it is not behind in is played forward (issue 26, item 14).

With the king-danger term, hard drew 10 of 21 games against medium at the turn limit. In the records of those
games hard passed turn after turn with attempts that fail on nearly every board (pawn captures onto empty squares
next to its own king): a failed attempt changes nothing, so it scores as the position already stands, while a
real move risks something. Hard now counts the pawn-advance half of level ``progress``: after
:data:`~app.games.blind.belief_bot.QUIET` plies without a capture, when it is not behind on material, a pawn's
advance gains a bonus growing with the quiet plies. The other half (charging attempts that fail) stays off: with
it and ``deep`` hard scored worse (see ``docs/benchmarks.md``, "Levels").
"""

from __future__ import annotations

import chess

from app.games.blind.belief_bot import LEVELS
from app.games.blind.rules import Attempt, BlindChess
from tests.test_bots_blind import first_attempt

START = "6k1/5ppp/8/8/8/8/PP3PPP/6K1 w - - 0 1"   # White two pawns up; nothing can be taken for a long while


def _quiet_game(plies: int) -> BlindChess:
    """Both kings step to and fro for ``plies`` plies: no capture, nothing learned."""
    game = BlindChess(START)
    steps = {0: ("g1f1", "f1g1"), 1: ("g8f8", "f8g8")}
    for ply in range(plies):
        seat = ply % 2
        game.play(seat, Attempt(chess.Move.from_uci(steps[seat][(ply // 2) % 2])))
    return game


def _hard_attempt(game: BlindChess, seed: int) -> chess.Move:
    # A small clock step: enough readings for the refinement to finish (time moves on at each reading).
    return first_attempt(game, "hard", seed, step=0.0005)


def _advance(move: chess.Move) -> bool:
    return chess.square_file(move.from_square) == chess.square_file(move.to_square) and move.from_square in (
        chess.A2, chess.B2, chess.F2, chess.G2, chess.H2)


def test_hard_pushes_a_pawn_in_a_long_quiet_position_it_is_not_behind_in() -> None:
    # Without the bonus hard answered here with h2g3, g2f3 or f2g3 on every seed: captures onto squares next to
    # its king that fail on nearly every board (a pass).
    game = _quiet_game(80)
    moves = [_hard_attempt(game, seed) for seed in (1, 2, 3)]
    assert all(_advance(move) for move in moves), [move.uci() for move in moves]


def test_the_bonus_waits_for_a_quiet_spell_and_is_hards_only() -> None:
    assert LEVELS["hard"].progress > 0 and not LEVELS["hard"].charge_fails
    assert LEVELS["medium"].progress == LEVELS["easy"].progress == 0


def test_after_a_quiet_spell_hard_stops_counting_positions_that_attack_its_king_as_likelier(monkeypatch) -> None:
    # The king-threat priors (6 on the boards drawn, 20 in the king-danger term) are for an opponent heading for
    # the king; after QUIET plies of nothing, they kept hard's king stepping to and fro until the turn limit.
    from app.games.blind import belief_bot
    factors: list[tuple[str, float]] = []
    threat, danger = belief_bot.king_threat_prior, belief_bot.king_danger

    def record_threat(own, color, factor):  # type: ignore[no-untyped-def]
        factors.append(("threat", factor))
        return threat(own, color, factor)

    def record_danger(inference, candidates, color, factor=1.0, most=None):  # type: ignore[no-untyped-def]
        factors.append(("danger", factor))
        return danger(inference, candidates, color, factor, most)
    monkeypatch.setattr(belief_bot, "king_threat_prior", record_threat)
    monkeypatch.setattr(belief_bot, "king_danger", record_danger)
    hard = LEVELS["hard"]
    assert hard.quiet_priors and not LEVELS["medium"].quiet_priors
    _hard_attempt(_quiet_game(20), 1)
    assert factors == [("threat", hard.threat_prior), ("danger", hard.danger_prior)]
    factors.clear()
    _hard_attempt(_quiet_game(belief_bot.QUIET + 20), 1)
    assert factors == [("threat", 1.0), ("danger", 1.0)]
