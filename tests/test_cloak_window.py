"""Cloak and Dagger through the window, between two people at one screen: both secret arrangements made behind
the curtain by clicks in the seat's own grid and the panel's buttons, a note by a click in the enemy grid, a
guess by "Guess..." and a click there, a move by clicks on the board, an uncloaking by a click on the seat's
own checker and the button; and the whole window behind the curtain the same whatever the seat before it
arranged, marked, typed or played."""

from __future__ import annotations

import os
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import chess  # noqa: E402
import pytest  # noqa: E402
from PySide6.QtCore import QEvent, Qt  # noqa: E402
from PySide6.QtGui import QImage  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402

from app.engine.clock import TimeControl  # noqa: E402
from app.games.cloak.view import Arranged, Guessed, Moved, Uncloaked  # noqa: E402
from app.games.scene import read_checker  # noqa: E402
from tests.test_curtain_leaks import assert_same, behind_the_curtain, curtain_pictures  # noqa: E402

SEATS = ("White", "Black")


def start(window: Any) -> Any:
    """A new game between two people, as the new-game dialog starts it."""
    from app.ui.new_game_dialog import NewGame
    window.start(NewGame("cloak", False, "random", "medium", 0, TimeControl(None, 0), "50-move",
                         options={"deduction": "on"}))
    return window.controller


def lift(window: Any, qtbot: Any, seat: str) -> None:
    """The curtain is up for ``seat``; that player clicks it away."""
    controller = window.controller
    assert controller.curtain_for is not None and controller.screen_seat is None
    assert SEATS[controller.curtain_for] == seat and window.curtain.isVisible()
    qtbot.mouseClick(window.curtain, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: controller.screen_seat is not None, timeout=5000)
    assert controller.screen_seat == SEATS.index(seat)


def click_grid(window: Any, qtbot: Any, zone_id: str, checker: int, piece: str) -> None:
    """A click on the cell (piece's row, checker's column) of a grid where the board drew it."""
    layout = window.board.zone_layout()
    assert layout is not None
    index = "KQRBN".index(piece) * 8 + checker - 1
    rect = next(placed.items for placed in layout.zones if placed.zone.id == zone_id)[index]
    point = rect.center().toPoint()
    assert window.board.zone_item_at(point) == (zone_id, index)
    qtbot.mouseClick(window.board, Qt.MouseButton.LeftButton, pos=point)


def press(window: Any, qtbot: Any, command_id: str) -> None:
    """A press of one of the game's buttons in the panel (it must be there and enabled)."""
    button = window.panel.command_buttons[command_id]
    assert button.isVisible() and button.isEnabled(), command_id
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def click_square(window: Any, qtbot: Any, name: str) -> None:
    square = chess.parse_square(name)
    point = window.board.square_rect((chess.square_file(square), chess.square_rank(square))).center()
    qtbot.mouseClick(window.board, Qt.MouseButton.LeftButton, pos=point)


def drawn(window: Any, name: str) -> str | None:
    square = chess.parse_square(name)
    return window.board.pieces().get((chess.square_file(square), chess.square_rank(square)))


def arrange_by_clicks(window: Any, qtbot: Any, pieces: str) -> None:
    """The seat at the screen clicks its arrangement into its own grid, then confirms it."""
    for checker, piece in enumerate(pieces, 1):
        click_grid(window, qtbot, "your-checkers", checker, piece)
    assert window.controller.session.notes(window.controller.screen_seat).marks["draft"] == pieces
    assert "ready" in window.status.text()
    press(window, qtbot, "arrange-confirm")


def test_two_people_arrange_guess_move_and_uncloak_by_clicks_behind_the_curtain(window: Any, qtbot: Any) -> None:
    controller = start(window)
    game = controller.game
    lift(window, qtbot, "White")
    assert "Arrange your pieces" in window.status.text()
    # The board shows the set-up: White's own back rank fills in as it is arranged.
    assert read_checker(drawn(window, "a1")).piece is None
    click_grid(window, qtbot, "your-checkers", 1, "R")
    assert read_checker(drawn(window, "a1")).piece == "R"
    assert not window.panel.command_buttons["arrange-confirm"].isEnabled()
    for checker, piece in enumerate("RNBQKBNR", 1):
        if checker > 1:
            click_grid(window, qtbot, "your-checkers", checker, piece)
    press(window, qtbot, "arrange-confirm")
    qtbot.waitUntil(lambda: controller.curtain_for == 1, timeout=5000)
    assert game.arrangements[0] == "RNBQKBNR" and len(controller.session.record.entries) == 1
    lift(window, qtbot, "Black")
    assert all(read_checker(drawn(window, f"{file}1")).piece is None for file in "abcdefgh")  # White's hidden
    assert "White arranged its pieces in secret." in window.panel.log.toPlainText()
    assert "RNBQKBNR" not in window.panel.log.toPlainText() + window.panel.moves.toPlainText()
    press(window, qtbot, "arrange-random")
    draft = controller.session.notes(1).marks["draft"]
    assert [read_checker(drawn(window, f"{file}8")).piece for file in "abcdefgh"] == list(draft)
    press(window, qtbot, "arrange-confirm")
    qtbot.waitUntil(lambda: controller.curtain_for == 0, timeout=5000)
    assert game.arrangements[1] == draft and game.phase == "move"

    lift(window, qtbot, "White")
    assert window.status.text() == "Your move, or Guess... before moving"
    king = draft.index("K") + 1
    click_grid(window, qtbot, "their-checkers", king, "K")  # before "Guess...": a note, not a guess
    assert controller.session.notes(0).marks["grid"] == {f"{king}K": "o"}
    assert game.phase == "move" and not any(isinstance(o, Guessed) for o in game.observations(0))
    press(window, qtbot, "guess")
    assert window.status.text() == "Click the cell of the checker and piece you guess, or Cancel guess"
    assert window.panel.command_buttons["guess"].text() == "Cancel guess"
    click_grid(window, qtbot, "their-checkers", king, "K")  # now a guess, and a right one
    guessed = game.observations(0)[-1]
    assert isinstance(guessed, Guessed) and guessed.right and guessed.checker == king
    assert f"White guessed checker {king} is a king: right" in window.panel.log.toPlainText()
    assert read_checker(drawn(window, f"{'abcdefgh'[king - 1]}8")).piece == "K"  # told: shown in its disc
    button = window.panel.command_buttons["guess"]
    assert button.text() == "Guess..." and not button.isEnabled()  # one guess a turn: the mode is over
    assert controller.session.notes(0).marks["grid"] == {f"{king}K": "o"}  # the note was left alone
    click_square(window, qtbot, "e2")
    click_square(window, qtbot, "e4")
    qtbot.waitUntil(lambda: game.phase == "bonus", timeout=5000)
    assert isinstance(game.observations(0)[-1], Moved) and drawn(window, "e4") == "P"
    click_square(window, qtbot, "d2")  # the bonus: a second pawn move
    click_square(window, qtbot, "d4")
    qtbot.waitUntil(lambda: game.phase == "uncloak", timeout=5000)
    assert window.board.sense_mode()
    click_square(window, qtbot, "d1")  # the queen, checker 4
    assert controller.session.notes(0).marks["uncloak"] == [4]
    press(window, qtbot, "uncloak-end")
    qtbot.waitUntil(lambda: controller.curtain_for == 1, timeout=5000)
    uncloaked = game.observations(1)[-1]
    assert isinstance(uncloaked, Uncloaked) and uncloaked.identities == {4: "Q"}
    assert len(controller.session.record.entries) == 6  # two arrangements, guess, move, bonus, uncloak

    lift(window, qtbot, "Black")
    assert drawn(window, "d1") == "Q"  # a normal piece now
    assert all(read_checker(drawn(window, f"{file}1")).piece is None for file in "abcefgh")
    log = window.panel.log.toPlainText()
    assert "White uncloaked checker 4: queen." in log and "Bonus: White pawn d2 to d4." in log
    assert [entry for entry in controller.logs[1] if "RNBQKBNR" in entry] == []
    assert not any(isinstance(o, Arranged) and o.pieces for o in game.observations(1) if o.seat == 0)


def test_a_person_plays_the_deduce_bot(window: Any, qtbot: Any) -> None:
    from app.ui.new_game_dialog import NewGame
    window.start(NewGame("cloak", True, "deduce", "easy", 0, TimeControl(None, 0), "50-move", options={}))
    controller = window.controller
    assert controller.screen_seat == 0 and controller.curtain_for is None  # no curtain against a bot
    arrange_by_clicks(window, qtbot, "BRNKQRNB")
    qtbot.waitUntil(lambda: controller.game.phase == "move" and controller.game.to_move == 0, timeout=30000)
    assert controller.game.arrangements[1] is not None  # the bot arranged in its own process
    click_square(window, qtbot, "e2")
    click_square(window, qtbot, "e4")
    press(window, qtbot, "end-turn")
    qtbot.waitUntil(lambda: controller.game.to_move == 0 or controller.outcome is not None, timeout=30000)
    assert any(line.startswith("Black ") for line in controller.logs[0][3:])
    assert window.panel.moves.toPlainText().startswith("1. e2-e4")


# ---- behind the curtain ------------------------------------------------------------------------------------------

def _game(window: Any, qtbot: Any, private: int) -> tuple[list[QImage], QImage]:
    """A game in which White arranges, marks, types and moves by choice ``private`` (0 or 1) and Black does the
    same in both: the pictures of every curtain from White's arrangement on, and White's own screen before its
    first move (which must differ between the choices)."""
    controller = start(window)
    pictures: list[QImage] = []
    lift(window, qtbot, "White")
    if private:
        arrange_by_clicks(window, qtbot, "NRKBBQRN")
    else:
        press(window, qtbot, "arrange-standard")
        press(window, qtbot, "arrange-confirm")
    qtbot.waitUntil(lambda: controller.curtain_for == 1, timeout=5000)
    pictures.extend(curtain_pictures(window, qtbot))
    lift(window, qtbot, "Black")
    press(window, qtbot, "arrange-standard")
    press(window, qtbot, "arrange-confirm")
    qtbot.waitUntil(lambda: controller.curtain_for == 0, timeout=5000)
    pictures.extend(curtain_pictures(window, qtbot))
    lift(window, qtbot, "White")
    if private:
        press(window, qtbot, "guess")  # the guess mode, turned on and left (the move ends it)
    controller.move(*[((6, 0), (5, 2)), ((1, 1), (1, 2))][private], None)  # Nf3 / b3 (checker 7 or a pawn)
    if private:
        for checker in (2, 3, 3):
            click_grid(window, qtbot, "their-checkers", checker, "N")  # notes in the enemy grid
        click_square(window, qtbot, "b1")  # picked to uncloak, not yet uncloaked
        window.board.set_annotations([((4, 1), (4, 3))], [(3, 4)])
        window._annotations_changed()
        window.entry.setText("uncloak 1")
    QApplication.sendEvent(window.board, QEvent(QEvent.Type.Leave))
    own_screen = behind_the_curtain(window)
    press(window, qtbot, "end-turn")
    qtbot.waitUntil(lambda: controller.curtain_for == 1, timeout=5000)
    pictures.extend(curtain_pictures(window, qtbot))
    return pictures, own_screen


@pytest.mark.parametrize("size", [(1100, 760), (800, 600)])
def test_the_whole_window_behind_the_curtain_is_the_same_whatever_white_did(window: Any, qtbot: Any,
                                                                           size: tuple[int, int]) -> None:
    window.resize(*size)
    _game(window, qtbot, 0)  # a first game: the docks are made and laid out
    first, first_own = _game(window, qtbot, 0)
    second, second_own = _game(window, qtbot, 1)
    assert first_own != second_own
    assert_same(first, second, f"cloak-curtain-{size[0]}")


# ---- drawing the checkers and the grids ------------------------------------------------------------------------

@pytest.mark.parametrize("piece_set", ["cburnett", "ivory", "letters"])
def test_checkers_are_drawn_in_every_piece_set_with_their_piece_only_when_known(qtbot: Any, piece_set: str) -> None:
    from app.games.scene import checker_token
    from app.ui import pieces
    from app.ui.board_widget import BoardWidget
    before = pieces.piece_set()
    pieces.set_piece_set(piece_set)
    try:
        def image(code: str) -> QImage:
            return pieces.piece_pixmap(code, 64).toImage()

        for white in (True, False):
            plain = image(checker_token(white, 3))
            centre = plain.pixelColor(32, 15)  # on the disc, above the number and inside its rim
            assert centre.alpha() == 255 and (centre.lightness() > 128) == white  # a disc in its side's colour
            assert image(checker_token(white, 5)) != plain  # the number is drawn
            knight, queen = image(checker_token(white, 3, "N")), image(checker_token(white, 3, "Q"))
            assert knight != plain and queen != plain and knight != queen  # the known piece shows, each its own
        board = BoardWidget()
        qtbot.addWidget(board)
        board.set_pieces({(0, 0): checker_token(True, 1, "R"), (1, 7): checker_token(False, 2), (4, 1): "P"})
        assert "white checker 1 (rook) a1" in board.accessibleDescription()
        assert "black checker 2 b8" in board.accessibleDescription()
        with pytest.raises(ValueError):
            board.set_pieces({(0, 0): "\ue0ff"})  # not a token: a number with no piece six or seven
    finally:
        pieces.set_piece_set(before)


def test_a_grid_cell_is_tinted_by_its_chance_greyed_when_impossible_and_outlined_when_flagged(qtbot: Any) -> None:
    from app.games.scene import BoardScene, GridZone
    from app.ui.board_widget import BoardWidget
    board = BoardWidget()
    qtbot.addWidget(board)
    board.resize(700, 700)
    grid = GridZone(id="g", place="below", rows=("K", "Q"), columns=("1", "2", "3"),
                    marks=(("o", "", ""), ("", "x", "")), notes=(("", "50%", ""), ("", "", "")),
                    shades=((0.0, 0.5, None), (1.0, None, None)), flags=(("no", "", ""), ("", "", "")))
    board.set_scene(BoardScene(zones=[grid, GridZone(id="h", place="below", beside=True, rows=("K",),
                                                     columns=("1",))]))
    layout = board.zone_layout()
    assert layout is not None
    placed = {zone.zone.id: zone for zone in layout.zones}
    assert placed["g"].band.top() == placed["h"].band.top()  # side by side in one band
    assert placed["h"].band.left() >= placed["g"].band.right() - 1
    picture = board.grab().toImage()

    def colour(index: int, dx: float = 0.5, dy: float = 0.75) -> Any:
        rect = placed["g"].items[index]
        return picture.pixelColor(int(rect.left() + rect.width() * dx), int(rect.top() + rect.height() * dy))

    plain, impossible, likely, certain = colour(2), colour(0, 0.25), colour(1, 0.15, 0.2), colour(3)
    assert plain.name() == "#fdfdfd"
    assert impossible.lightness() < plain.lightness() and impossible.saturation() < 30  # grey
    assert likely.red() > likely.blue() + 40 and certain.red() > certain.green() + 60  # amber to red
    flagged = colour(0, 0.02, 0.5)
    assert flagged.red() > 180 and flagged.green() < 120  # the red outline
    from app.ui.zones import describe_item
    assert describe_item(grid, 0) == "K / 1: o, impossible, contradicted: no"


def test_the_checkers_cost_the_windows_start_nothing() -> None:
    """The pieces module reads the checker tokens' code only when a board first shows one."""
    import subprocess
    import sys
    from pathlib import Path
    code = ("import sys\nimport app.ui.pieces as pieces, app.ui.board_widget\n"
            "before = 'app.games.scene' in sys.modules\n"
            "letters = pieces.PIECE_LETTERS\n"
            "print(before, 'app.games.scene' in sys.modules, len(letters))")
    run = subprocess.run([sys.executable, "-c", code], cwd=Path(__file__).resolve().parent.parent,
                         capture_output=True, text=True, check=True, env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert run.stdout.split() == ["False", "True", str(12 + 2 + 2 * 32 * 6)]  # chess, unknown pieces, checkers


def test_a_saved_game_comes_back_with_each_seats_draft_and_notes(window: Any, qtbot: Any) -> None:
    from app.engine.record import GameRecord
    from app.ui.game_controller import GameController
    controller = start(window)
    lift(window, qtbot, "White")
    press(window, qtbot, "arrange-standard")
    press(window, qtbot, "arrange-confirm")
    qtbot.waitUntil(lambda: controller.curtain_for == 1, timeout=5000)
    lift(window, qtbot, "Black")
    click_grid(window, qtbot, "your-checkers", 4, "Q")  # a draft not yet confirmed
    click_grid(window, qtbot, "their-checkers", 2, "N")  # and a note on White's checkers
    saved = GameRecord.from_json(controller.session.snapshot().to_json())
    again = GameController.from_record(saved)
    try:
        again.start()
        assert again.curtain_for == 1  # Black is still to arrange: the curtain comes first
        black = again.presenter_of(1)
        assert black.marks.draft == "...Q...." and black.marks.grid == {"2N": "o"}
        assert again.presenter_of(0).marks.grid == {}  # White's marks are White's alone
        scene = black.scene(again.views[1])
        assert read_checker(scene.pieces[(3, 7)]).piece == "Q"
        assert scene.zone("their-checkers").marks[4][1] == "\u25cb"
    finally:
        again.stop()


def test_a_seat_may_fill_its_draft_while_the_other_arranges_but_not_confirm_it(window: Any, qtbot: Any) -> None:
    controller = start(window)
    assert controller.game.to_move == 0
    controller.screen_seat, controller.curtain_for = 1, None  # Black at the screen (as against a bot)
    window._refresh()
    press(window, qtbot, "arrange-standard")  # only Black's marks change: allowed out of turn
    assert controller.session.notes(1).marks["draft"] == "RNBQKBNR"
    assert not window.panel.command_buttons["arrange-confirm"].isEnabled()
    assert controller.game.to_move == 0 and not controller.session.record.entries
