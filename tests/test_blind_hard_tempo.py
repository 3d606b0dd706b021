"""Blind Chess hard level: an attempt is charged for the boards it fails on (level ``tempo``, issue 32).

A failed attempt ends the turn and changes nothing, so it scored as the position already stands. With the
king-danger term, whose prior makes the positions that attack the king already twenty times likelier, a pawn's
capture try onto the square a checking knight might have reached scored above every real move, turn after turn:
against the Stockfish-guided guesser hard tried c7xd6 eight times running while the guesser built its attack
(``docs/benchmarks.md``, "Blind Chess against a Stockfish guesser"). A failed attempt now costs hard a move's
worth: ``tempo`` centipawns times the share of the scored boards on which it fails.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import chess
import pytest

from app.games.blind.belief_bot import LEVELS, BlindBeliefBot


@dataclass
class _Table:
    candidates: list[chess.Move | None]
    boards_scored: int
    columns: list[int] = field(default_factory=list)  # the sample's boards in order (ScoreTable.columns)


@dataclass
class _Sample:
    boards: list[chess.Board]
    weights: list[float]

    def __len__(self) -> int:
        return len(self.boards)


def test_an_attempt_is_charged_for_the_share_of_the_boards_it_fails_on() -> None:
    # Two boards of Black's army: on the first a knight stands on d3, on the second it does not.
    with_knight = chess.Board("rnbqkb1r/pppppppp/8/8/8/3n4/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    without = chess.Board("rnbqkb1r/pppppppp/8/8/8/5n2/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    sample = _Sample([with_knight, without], [0.75, 0.25])
    push, try_d3, gone = (chess.Move.from_uci(uci) for uci in ("e2e4", "e2d3", "c2d3"))
    table = _Table([push, try_d3, gone, None], boards_scored=2)
    bot = BlindBeliefBot(seed=1, level="hard")
    tempo = bot.settings.tempo
    scores = [10.0, 10.0, 10.0, 10.0]
    charged = bot._tempo(table, sample, scores)  # type: ignore[arg-type]
    assert charged[0] == pytest.approx(10.0)  # a pawn push succeeds on both boards
    assert charged[1] == pytest.approx(10.0 - 0.25 * tempo)  # the capture try fails where d3 is empty
    assert charged[2] == pytest.approx(10.0 - 0.25 * tempo)  # (the same from c2)
    assert charged[3] == pytest.approx(10.0)  # the pass is not an attempt
    assert scores == [10.0, 10.0, 10.0, 10.0]


def test_the_charge_is_hards_only() -> None:
    assert LEVELS["hard"].tempo > 0
    assert LEVELS["medium"].tempo == LEVELS["easy"].tempo == 0
