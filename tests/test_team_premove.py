"""Premoves in the four-seat team games, for a person playing with bots: in Telepathy Chess a chess move queued
while the partner predicts (or the opponents play) before the person's own move; in Split-Brain Chess a pick
queued while the partner or the opponents act. Played at once when the person's turn comes if still allowed,
dropped with a line in the log otherwise; nothing is queued when the person's next action is not of that kind.
The bots are stand-ins the test answers for."""

from __future__ import annotations

import os
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import chess  # noqa: E402
import pytest  # noqa: E402

from app import games  # noqa: E402
from app.engine.clock import TimeControl  # noqa: E402
from test_premove import StandInBot  # noqa: E402


def _start(window: Any, monkeypatch: pytest.MonkeyPatch, key: str, person: str,
           options: dict[str, str] | None = None) -> Any:
    from app.ui.game_controller import GameController, SeatConfig
    monkeypatch.setattr("app.ui.controller_bots.BotSeat", StandInBot)
    seats = [SeatConfig(name, None if name == person else "random") for name in games.get(key).seat_names]
    controller = GameController(key, seats, TimeControl(600, 5), options or {}, parent=window)
    window._install(controller)
    assert not controller.hot_seat and controller.screen_seat == games.get(key).seat_names.index(person)
    return controller


def _queued(controller: Any) -> list[str]:
    return [words for _kind, _what, words, _squares in controller.premoves]


def _cell(name: str) -> tuple[int, int]:
    square = chess.parse_square(name)
    return chess.square_file(square), chess.square_rank(square)


def test_telepathy_a_move_queued_while_the_partner_predicts_is_played_and_one_made_impossible_is_dropped(
        window: Any, monkeypatch: pytest.MonkeyPatch, qtbot: Any) -> None:
    from app.games.telepathy.rules import Predict, TelepathyMove
    controller = _start(window, monkeypatch, "telepathy", "W2")
    assert controller.game.to_move == 0  # W1, a bot, predicts first; the person moves after it
    controller.move(_cell("g1"), _cell("f3"), None)
    assert _queued(controller) == ["g1-f3"] and controller.game.ply == 0
    assert any(marker.kind == "premove" for marker in window.board.markers())
    controller._bot_answered(0, Predict("N"))
    assert controller.premoves == []  # played at once
    assert controller.views[1].board.piece_at(chess.F3) == chess.Piece(chess.KNIGHT, chess.WHITE)
    controller._bot_answered(2, Predict("C"))  # the copy card: the face-up pawn
    # Black to move; the person predicts White's next move, so a move is not queued now (it would be W1's).
    controller.move(_cell("b1"), _cell("c3"), None)
    assert controller.premoves == [] and controller.scene().targets == {}
    controller._bot_answered(3, TelepathyMove("e7e5"))
    assert controller.game.to_move == 1 and controller.game.phase == "predict"
    controller.act(Predict("P"))
    assert controller.game.to_move == 0 and controller.game.phase == "move"
    controller.move(_cell("d2"), _cell("d4"), None)  # the partner moves now: nothing is queued
    assert controller.premoves == []
    controller._bot_answered(0, TelepathyMove("d2d4"))
    # Black's turn again, and this time the person makes White's next move: d4-d5 may be queued ...
    controller.move(_cell("d4"), _cell("d5"), None)
    assert _queued(controller) == ["d4-d5"]
    controller._bot_answered(3, Predict("C"))
    controller._bot_answered(2, TelepathyMove("d7d5"))  # ... and Black's pawn now stands on d5
    assert _queued(controller) == ["d4-d5"]
    controller._bot_answered(0, Predict("Q"))
    assert controller.premoves == [] and controller.game.to_move == 1 and controller.game.phase == "move"
    dropped = "Premove d4-d5 dropped: it is no longer possible."
    assert controller.logs[1][-1] == dropped
    qtbot.waitUntil(lambda: window.log.toPlainText().splitlines()[-1] == dropped)  # (redrawn a moment after the bot)


def test_split_brain_a_pick_queued_while_the_partner_picks_is_played(window: Any,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from app.games.splitbrain.rules import PickPiece, PickSquare
    controller = _start(window, monkeypatch, "splitbrain", "W2")
    assert controller.game.to_move == 0  # W1 chooses the piece; the person, W2, the square
    controller.sense(_cell("c2"))  # a square no white piece can reach is not queued
    assert controller.premoves == []
    controller.sense(_cell("c3"))
    assert _queued(controller) == ["pick c3"]
    assert "queued: pick c3" in window.status.text()
    controller._bot_answered(0, PickPiece("b1"))
    assert controller.premoves == []
    assert controller.views[1].history[-1].move == "b1c3"  # the knight went where the person had picked
    # Black's turn: after it the coin is on the queen side and the person chooses White's piece.
    controller.sense(_cell("a2"))
    assert _queued(controller) == ["pick a2"]
    controller._bot_answered(2, PickPiece("b6"))
    controller._bot_answered(3, PickSquare("c4"))
    assert controller.premoves == [] and controller.views[1].my_pick == ("piece", 6)  # a2 picked at once


def test_split_brain_a_pick_the_opponents_move_made_impossible_is_dropped(window: Any,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from app.games.splitbrain.rules import PickPiece, PickSquare
    # Black moves first; after it the coin is on the queen side, so W2 (the person) chooses the piece.
    controller = _start(window, monkeypatch, "splitbrain", "W2", {"fen": "5k/1n4/6/6/2P3/K5 b - - 0 1"})
    controller.sense(_cell("c2"))  # the pawn may step to c3 now
    assert _queued(controller) == ["pick c2"]
    controller._bot_answered(2, PickPiece("b5"))
    controller._bot_answered(3, PickSquare("c3"))  # the black knight now stands in front of it
    assert controller.premoves == [] and controller.game.to_move == 1
    assert controller.views[1].my_pick is None
    assert controller.logs[1][-1] == "Premove pick c2 dropped: it is no longer possible."


def test_split_brain_a_queued_pick_waits_while_the_person_first_decides_the_opponents_pair(
        window: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from app.games.splitbrain.rules import Decide, PickPiece, PickSquare
    # Black moves first. After Black's move the coin is on the queen side: W2 chooses White's piece, W1 (the
    # person) its square. But first Black's pair is no move, and W1, White's chooser now, decides how it stands.
    controller = _start(window, monkeypatch, "splitbrain", "W1", {"fen": "rnqknr/pppppp/6/6/PPPPPP/RNQKNR b - - 0 1"})
    controller.sense(_cell("a3"))
    assert _queued(controller) == ["pick a3"]
    controller._bot_answered(2, PickPiece("b6"))
    controller._bot_answered(3, PickSquare("f4"))
    assert controller.game.to_move == 0 and controller.game.phase == "decide"
    assert _queued(controller) == ["pick a3"]  # a pick is not a decision: it waits
    controller.act(Decide("piece"))  # the knight stands: it goes to the square nearest f4 it can reach, c4
    assert controller.views[0].history[-1].move == "b6c4" and controller.game.to_move == 1
    controller._bot_answered(1, PickPiece("b1"))
    assert controller.premoves == [] and controller.views[0].history[-1].move == "b1a3"


def test_typed_while_others_act_a_split_brain_pick_and_a_telepathy_move_are_queued(
        window: Any, monkeypatch: pytest.MonkeyPatch, qtbot: Any) -> None:
    from PySide6.QtCore import Qt
    from app.games.telepathy.rules import Predict

    def type_in(text: str) -> None:
        qtbot.keyClicks(window.entry, text)
        qtbot.keyClick(window.entry, Qt.Key.Key_Return)

    controller = _start(window, monkeypatch, "splitbrain", "W2")  # W1, a stand-in, picks first
    type_in("c3")
    assert _queued(controller) == ["pick c3"] and window.entry.text() == ""
    controller = _start(window, monkeypatch, "telepathy", "W2")  # W1 predicts; the person moves next
    type_in("Nf3")
    assert _queued(controller) == ["g1-f3"] and window.entry.text() == ""
    controller._bot_answered(0, Predict("N"))
    assert controller.premoves == [] and controller.views[1].board.piece_at(chess.F3) is not None
