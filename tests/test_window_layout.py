"""The window's layout: the board gets the room the panels leave, the log keeps lines in sight, the size does
not creep from one start to the next, and the new-game dialog has no blank band."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QCoreApplication  # noqa: E402

from app.engine.clock import TimeControl  # noqa: E402
from app.ui.main_window import MainWindow  # noqa: E402
from app.ui.new_game_dialog import NewGame, NewGameDialog  # noqa: E402


@pytest.fixture
def fresh_settings(request):
    from PySide6.QtCore import QSettings
    QCoreApplication.setOrganizationName("SightlineTests")
    QCoreApplication.setApplicationName(f"layout-{os.getpid()}-{request.node.name}")
    QSettings().clear()
    yield
    QSettings().clear()


def open_window(qtbot) -> MainWindow:
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    return window


def start_rbc(window) -> None:
    window.start(NewGame("rbc", False, "random", "medium", 0, TimeControl(300, 5), "50-move"))
    window.controller.lift_curtain()


@pytest.mark.parametrize("size", [None, (800, 600)])
def test_the_board_and_the_log_get_room_with_the_belief_board(qtbot, fresh_settings, size) -> None:
    window = open_window(qtbot)
    if size is not None:
        window.resize(*size)
    start_rbc(window)
    qtbot.wait(10)  # let the layout settle (not a timing check)
    lines = window.log.height() // window.log.fontMetrics().lineSpacing()
    assert lines >= 5
    assert window.board.width() >= window.width() // 2  # the board is the larger part
    tabs = window.panel.tabs
    tabs.setCurrentWidget(window.moves)
    qtbot.wait(10)
    rows = window.moves.viewport().height() // window.moves.fontMetrics().lineSpacing()
    assert rows >= 5  # the move list keeps as many lines in sight as the log
    bar = tabs.tabBar()
    for index in range(bar.count()):  # whole tab labels, never "What you w..."
        assert bar.tabRect(index).width() >= bar.fontMetrics().horizontalAdvance(bar.tabText(index))
        assert bar.tabRect(index).right() <= bar.width()
    for dock in (window.panel_dock, window.belief_dock):  # the docks lie inside the window
        assert window.rect().contains(dock.geometry())


def test_at_its_smallest_the_window_keeps_a_playable_board_and_five_lines_of_log(qtbot, fresh_settings) -> None:
    window = open_window(qtbot)
    start_rbc(window)
    window.resize(100, 100)  # as small as it goes
    qtbot.wait(10)
    assert window.board.width() >= 360 and window.board.height() >= 360
    assert window.log.height() // window.log.fontMetrics().lineSpacing() >= 5
    # ... and all of it in sight: a wrapped title must not push the log past the bottom of its dock.
    from PySide6.QtCore import QPoint
    log_bottom = window.log.mapTo(window, QPoint(0, window.log.height())).y()
    assert log_bottom <= window.panel_dock.geometry().bottom()
    assert window.width() <= 800 and window.height() <= 600  # still fits the smallest screens


def test_the_size_does_not_creep_from_start_to_start(qtbot, fresh_settings) -> None:
    sizes = []
    for start in range(5):
        window = open_window(qtbot)
        if start == 0:
            window.resize(760, 650)
            start_rbc(window)
        sizes.append((window.size().width(), window.size().height(), window.panel_dock.width()))
        window.close()
    assert len(set(sizes[1:])) == 1 and sizes[1][:2] == sizes[0][:2]


def test_the_new_game_dialog_has_no_blank_band_under_its_buttons(qtbot, fresh_settings) -> None:
    dialog = NewGameDialog()
    qtbot.addWidget(dialog)
    dialog.show()
    dialog.game.setCurrentIndex(dialog.game.findData("rbc"))  # an option row and the inference row
    dialog.time.setCurrentIndex(dialog.time.findText("Custom"))
    tall = dialog.height()
    dialog.game.setCurrentIndex(dialog.game.findData("minit"))  # neither
    dialog.time.setCurrentIndex(dialog.time.findText("5+3"))
    assert dialog.height() < tall and dialog.height() <= dialog.sizeHint().height() + 2


def test_a_belief_board_put_away_for_minitchess_comes_back_after_a_restart(qtbot, fresh_settings) -> None:
    window = open_window(qtbot)
    start_rbc(window)
    window.start(NewGame("minit", False, "random", "medium", 0, TimeControl(None, 0), "50-move"))
    assert not window.belief_dock.isVisible()  # put away by the program, not closed by the player
    window.close()
    again = open_window(qtbot)
    start_rbc(again)
    assert again.belief_dock.isVisible()


# ---- nothing moves unless the window is resized (issue 26, item 9) --------------------------------------------------

def _places(window) -> dict[str, object]:
    """Where what a player clicks stands: the board widget (in the window), its board and squares, the panels."""
    from PySide6.QtCore import QPoint
    board = window.board
    top_left = board.mapTo(window, QPoint(0, 0))
    places: dict[str, object] = {
        "board widget": (top_left.x(), top_left.y(), board.width(), board.height()),
        "board": board.board_rect().getRect(),
        "game panel": window.panel_dock.geometry().getRect(),
        "buttons": window.panel.resign_button.mapTo(window, QPoint(0, 0)).toTuple(),
        "log": window.panel.tabs.mapTo(window, QPoint(0, 0)).toTuple(),
    }
    for name in ("title", "status", "entry", "command_area"):  # the labels above the buttons, 1 px counts
        widget = getattr(window.panel, name, None)
        if widget is not None:
                places[name] = widget.mapTo(window, QPoint(0, 0)).toTuple() + widget.size().toTuple()
    if window.belief_dock is not None and window.belief_dock.isVisible():
        panel = window.belief_panel
        places["belief panel"] = window.belief_dock.geometry().getRect()
        places["belief board"] = panel.board.mapTo(window, QPoint(0, 0)).toTuple() + panel.board.size().toTuple()
        places["belief buttons"] = panel.fix_button.mapTo(window, QPoint(0, 0)).toTuple()
        places["belief switches"] = panel.count_box.mapTo(window, QPoint(0, 0)).toTuple()
    return places


def _settled(qtbot, window) -> dict[str, object]:
    qtbot.wait(20)  # let the layout settle (not a timing check)
    return _places(window)


@pytest.mark.parametrize("size", [None, (800, 600)])
def test_nothing_moves_unless_the_window_is_resized(qtbot, fresh_settings, size) -> None:
    import chess
    window = open_window(qtbot)
    if size is not None:
        window.resize(*size)
    window.start(NewGame("rbc", True, "random", "easy", 0, TimeControl(300, 5), "50-move"))
    window.controller.lift_curtain()
    panel = window.belief_panel
    before = _settled(qtbot, window)
    changes = []

    def changed(what: str) -> None:
        now = _settled(qtbot, window)
        moved = {name: (before[name], now.get(name)) for name in before if now.get(name) != before[name]}
        if moved:
            changes.append((what, moved))

    for box in (panel.overlay_box, panel.heat_box, panel.count_box):  # the belief panel's switches
        box.setChecked(True)
        changed(f"{box.text()} on")
    panel.set_heat(None, "about 12,400 positions possible", heat_note="Heat map estimated from a sample; a square "
                   "is left blank only where no possible position puts a piece")
    changed("a count and the heat map's note")
    for box in (panel.overlay_box, panel.heat_box, panel.count_box):
        box.setChecked(False)
        changed(f"{box.text()} off")
    panel.place_piece(chess.E5, chess.PAWN)  # the hint goes
    changed("a piece placed")
    panel.place_starting_position()
    panel.place_piece(chess.E4, chess.QUEEN)  # one of ours stands there: flagged
    for square in (chess.A3, chess.B3, chess.C3, chess.D3, chess.F3, chess.G3, chess.H3):
        panel.place_piece(square, chess.PAWN)  # many pawns too many: nine flagged
    changed("pieces flagged")
    panel.fix_flagged()
    panel.clear()  # the hint comes back
    changed("pieces fixed and cleared")
    window.board.set_coordinates_visible(False)  # the View menu's choices
    window.board.set_theme("blue")
    changed("View: no coordinates, another board")
    window.board.set_coordinates_visible(True)
    window.board.set_theme("brown")
    window.status.setText("Choose a square to sense. " * 12)  # a status of many lines
    changed("a long status")
    window.status.setText("Your move")
    window.panel.thinking.show()  # the bot thinks
    changed("the thinking bar")
    window.panel.thinking.hide()
    window.autosaver.show_result("the disk is full (No space left on device: '/home/someone/.local/share/Sightline/"
                            "autosaves/1/autosave.json')")  # the red bar
    changed("the red bar")
    window.autosaver.show_result("")
    changed("the red bar gone")
    assert changes == []


def test_the_telepathy_board_keeps_its_place_between_predicting_and_moving(qtbot, fresh_settings) -> None:
    window = open_window(qtbot)
    window.start(NewGame("telepathy", False, "random", "easy", 0, TimeControl(None, 0), "50-move"))
    controller = window.controller
    controller.lift_curtain()
    assert controller.screen_seat == 0 and controller.game.phase == "predict"
    predicting = _settled(qtbot, window)
    controller.zone("hand", 0)  # W1 predicts; the screen passes to W2, who moves
    controller.lift_curtain()
    assert controller.screen_seat == 1 and controller.game.phase == "move"
    assert _settled(qtbot, window) == predicting


def test_a_seats_zones_take_the_same_room_all_game_long() -> None:
    """The board's size and place come from the zones' bands: a band that comes and goes moves every square."""
    import random

    from app import games
    from app.engine.core import Action
    from app.games.presenter import presenter_for
    from app.ui.zones import extra_squares
    for definition in games.all():
        if definition.presenter is None:
            continue
        presenter = presenter_for(definition.key)
        for seed in range(3):
            rng = random.Random(seed)
            game = definition.referee()()
            rooms: list[set[tuple[float, float]]] = [set() for _ in game.seat_names]
            for _step in range(200):
                for seat in range(len(game.seat_names)):
                    view = definition.view().from_observations(game.observations(seat))
                    rooms[seat].add(extra_squares(presenter.scene(view).zones))
                if game.is_over:
                    break
                actions = [action for choice in game.choices().values() if isinstance(choice, (list, tuple))
                           for action in choice if isinstance(action, Action)]
                if not actions:
                    break  # (a game whose choices are not listed as actions: none of those has zones)
                game.play(game.to_move, rng.choice(actions))
            assert all(len(room) == 1 for room in rooms), (definition.key, rooms)


def _cut_zone_labels(window) -> list[str]:
    """The zone labels on the board that do not fit their band (painted cut off with "...")."""
    from PySide6.QtGui import QFontMetricsF

    from app.ui import zones
    layout = window.board.zone_layout()
    cut = []
    for placed in layout.zones if layout is not None else ():
        if placed.zone.label:
            pad = zones._PAD * layout.square
            metrics = QFontMetricsF(zones._font(window.board.font(), layout.square * 0.2))
            if metrics.horizontalAdvance(placed.zone.label) > int(placed.band.width() - 2 * pad):
                cut.append(placed.zone.label)
    return cut


@pytest.mark.parametrize("size", [None, (800, 600)])
def test_the_labels_beside_the_board_are_whole(qtbot, fresh_settings, size) -> None:
    """Issue 26, item 12: "Your arrangement: click to pla..." in Cloak and Dagger."""
    window = open_window(qtbot)
    if size is not None:
        window.resize(*size)
    cut = []
    for game in ("cloak", "telepathy"):
        window.start(NewGame(game, False, "random", "easy", 0, TimeControl(None, 0), "50-move"))
        window.controller.lift_curtain()
        qtbot.wait(20)
        cut += _cut_zone_labels(window)
    window.controller.zone("hand", 0)  # Telepathy: W2's screen, who moves
    window.controller.lift_curtain()
    qtbot.wait(20)
    cut += _cut_zone_labels(window)
    assert cut == []


def test_the_belief_panel_fits_without_scrolling_at_the_default_size(qtbot, fresh_settings) -> None:
    """Issue 26, item 12: the belief panel scrolled at the window's default size once its messages showed."""
    import chess

    from app.ui.main_window import DEFAULT_SIZE
    window = open_window(qtbot)
    window.resize(*DEFAULT_SIZE)
    window.start(NewGame("rbc", True, "random", "easy", 0, TimeControl(300, 5), "50-move"))
    window.controller.lift_curtain()
    panel = window.belief_panel
    for box in (panel.overlay_box, panel.heat_box, panel.count_box):
        box.setChecked(True)
    panel.set_heat(None, "about 12,400 positions possible", heat_note="Heat map estimated from a sample")
    panel.place_piece(chess.E2, chess.QUEEN)  # flagged: one of ours stands there
    qtbot.wait(20)
    assert panel.flag_label.isVisible() and panel.status_label.isVisible()
    assert not panel.scroll_area.verticalScrollBar().isVisible()
    from PySide6.QtCore import QPoint
    for widget in (panel.board, panel.fix_button, panel.count_box, panel.flag_label, panel.status_label):
        corner = widget.mapTo(panel, QPoint(widget.width() - 1, widget.height() - 1))
        assert panel.rect().contains(corner), widget


def _typed(qtbot, window, text: str) -> None:
    from PySide6.QtCore import Qt
    window.entry.setText(text)
    qtbot.keyClick(window.entry, Qt.Key.Key_Return)


def test_a_refused_typed_move_does_not_move_the_buttons_or_the_log(qtbot, fresh_settings) -> None:
    window = open_window(qtbot)
    window.start(NewGame("blind", False, "random", "easy", 0, TimeControl(None, 0), "50-move"))
    window.controller.lift_curtain()
    before = _settled(qtbot, window)
    _typed(qtbot, window, "Qh5xz")  # not a move: the error line under the entry says so
    assert not window.panel.entry_error.isHidden() and window.panel.entry_error.text()
    assert _settled(qtbot, window) == before
    _typed(qtbot, window, "Kb1 " * 40)  # a long error is cut to its line (whole in the tooltip)
    assert _settled(qtbot, window) == before
    window.entry.setText("")
    window.panel.entry_error.hide()  # as when the game moves on
    assert _settled(qtbot, window) == before


def test_the_buttons_and_the_log_keep_their_places_from_cloaks_arranging_to_its_moving(qtbot, fresh_settings) -> None:
    from tests.test_cloak_window import lift, press
    from tests.test_cloak_window import start as start_cloak
    window = open_window(qtbot)
    window.resize(1100, 760)
    controller = start_cloak(window)
    lift(window, qtbot, "White")
    arranging = _settled(qtbot, window)
    press(window, qtbot, "arrange-standard")
    press(window, qtbot, "arrange-confirm")
    lift(window, qtbot, "Black")
    assert _settled(qtbot, window) == arranging
    press(window, qtbot, "arrange-standard")
    press(window, qtbot, "arrange-confirm")
    lift(window, qtbot, "White")
    assert controller.game.phase == "move"
    moving = _settled(qtbot, window)
    moved = {name: (arranging[name], moving[name]) for name in arranging if moving.get(name) != arranging[name]}
    assert moved == {}


def test_the_answers_to_a_draw_offer_do_not_move_the_log_or_the_labels(qtbot, fresh_settings) -> None:
    from app.games.presenter import Command
    window = open_window(qtbot)
    window.start(NewGame("blind", False, "random", "easy", 0, TimeControl(None, 0), "50-move"))
    window.controller.lift_curtain()
    before = _settled(qtbot, window)
    window.panel.show_commands([Command("accept_draw", "Accept draw", True), Command("decline_draw", "Decline draw",
                                                                                     True)])  # an offer to answer
    assert window.panel.accept_button.isVisible()
    assert _settled(qtbot, window) == before
    window.panel.show_commands([Command("offer_draw", "Offer draw", True)])  # answered
    assert _settled(qtbot, window) == before


@pytest.mark.parametrize("variant", ["telepathy", "cloak"])
def test_the_board_keeps_its_size_when_the_game_ends_and_the_true_position_shows(qtbot, fresh_settings,
                                                                                 variant) -> None:
    """The true final position has no zones of its own: the board keeps their room, or every square would move."""
    window = open_window(qtbot)
    window.resize(1100, 760)
    window.start(NewGame(variant, False, "random", "easy", 0, TimeControl(None, 0), "50-move"))
    controller = window.controller
    controller.lift_curtain()
    playing = _settled(qtbot, window)
    controller.resign()
    qtbot.waitUntil(lambda: controller.outcome is not None)
    if controller.screen_seat is None:
        controller.lift_curtain()
    assert window._truth_shown
    ended = _settled(qtbot, window)
    assert (ended["board widget"], ended["board"]) == (playing["board widget"], playing["board"])
    window.panel.truth_button.setChecked(True)  # what the seat saw
    assert not window._truth_shown
    seen = _settled(qtbot, window)
    assert (seen["board widget"], seen["board"]) == (playing["board widget"], playing["board"])
