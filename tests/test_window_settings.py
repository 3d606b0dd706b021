"""Settings that a newer Sightline wrote, or that were damaged or edited by hand, never stop the window or the
new-game dialog: each unknown, impossible or wrongly typed value falls back to its default."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QByteArray, QCoreApplication, QSettings  # noqa: E402

from app import games  # noqa: E402
from app.hosting.bot_registry import builtin_bots  # noqa: E402
from app.engine.clock import TimeControl  # noqa: E402
from app.ui import pieces  # noqa: E402
from app.ui.main_window import MainWindow  # noqa: E402
from app.ui.new_game_dialog import NewGameDialog, SeatChoice  # noqa: E402

BAD_VALUES: list[object] = ["purple", 42, ["a", "b"], "", "x" * 100_000, QByteArray(b"\x00\xff")]


@pytest.fixture
def settings(qtbot, request):
    QCoreApplication.setOrganizationName("SightlineTests")
    QCoreApplication.setApplicationName(f"settings-{os.getpid()}-{request.node.name}")
    store = QSettings()
    store.clear()
    yield store
    store.clear()


def make_window(qtbot) -> MainWindow:
    window = MainWindow()
    qtbot.addWidget(window)
    window.show()
    return window


@pytest.mark.parametrize("value", BAD_VALUES)
def test_an_unknown_theme_or_piece_set_gives_the_default(qtbot, settings, value) -> None:
    settings.setValue("view/theme", value)
    settings.setValue("view/pieces", value)
    window = make_window(qtbot)
    assert window.board.theme() == make_default_theme()
    assert pieces.piece_set() == "cburnett"


def make_default_theme():
    from app.ui.board_widget import THEMES
    return THEMES["brown"]


@pytest.mark.parametrize("value", [*BAD_VALUES, QByteArray(b"\x01\xd9\xd0\xcb" + b"\x00" * 40), b"garbage"])
def test_damaged_window_geometry_and_layout_give_the_default_size(qtbot, settings, value) -> None:
    settings.setValue("window/geometry", value)
    settings.setValue("window/state", value)
    window = make_window(qtbot)
    screen = window.screen().availableGeometry()
    least = window.minimumSizeHint()
    assert least.width() <= window.width() <= screen.width() and least.height() <= window.height() <= screen.height()
    assert window.panel_dock.isVisible()


@pytest.mark.parametrize("value", [42, ["/a.json", 7, None, "x" * 10_000, "/b.json", "/a.json"], "", b"bytes"])
def test_recent_files_of_the_wrong_type_are_left_out(qtbot, settings, value) -> None:
    settings.setValue("recent/files", value)
    window = make_window(qtbot)
    files = window.recent_files()
    assert all(isinstance(path, str) and 0 < len(path) < 5000 for path in files)
    assert len(files) == len(set(files))
    window.files.fill_recent(window.recent_menu)  # the menu fills without an error
    window.files.remember("/c.json")
    assert window.recent_files()[0] == "/c.json"


def new_game_defaults() -> dict[str, object]:
    return {"variant": "rbc", "seats": (SeatChoice(), SeatChoice(next(iter(builtin_bots("rbc"))), "medium")),
            "shuffle": False, "time": "15+5", "minutes": 15, "increment": 5.0, "options": {"draw_rule": "50-move"},
            "inference": True}


def new_game_state(dialog: NewGameDialog) -> dict[str, object]:
    return {"variant": dialog.game.currentData(), "seats": tuple(row.choice() for row in dialog.seat_rows),
            "shuffle": dialog.shuffle.isChecked(), "time": dialog.time.currentText(),
            "minutes": dialog.minutes.value(), "increment": dialog.increment.value(),
            "options": {key: widget.currentData() for key, widget in dialog.option_widgets.items()},
            "inference": dialog.inference.isChecked()}


@pytest.mark.parametrize("key, value", [
    ("minutes", "99999999999999999999"), ("minutes", -5), ("minutes", "nan"), ("minutes", "1e400"),
    ("increment", "inf"), ("increment", 1e30), ("increment", ["1"]),
    ("variant", "chesskit"), ("variant", 3), ("mode", ["bot"]), ("mode", "online"), ("level", "godlike"),
    ("level", 2), ("color", None), ("color", "green"), ("time", "1+0"), ("time", 90), ("draw_rule", "always"),
    ("draw_rule", ["none"]), ("bot", 12), ("bot", "no-such-bot"), ("inference", "maybe"),
    # what the seat table and the games' options remember
    ("seats", "garbage"), ("seats", 12), ("seats", "random:medium,random:hard"), ("seats", "person:hard,random"),
    ("seats", "person,random:godlike"), ("shuffle", "maybe"), ("shuffle", ["1"]),
    ("options/rbc/draw_rule", "always"), ("options/rbc/draw_rule", 7),
])
def test_the_new_game_dialog_opens_with_defaults_for_impossible_choices(qtbot, settings, key, value) -> None:
    settings.setValue(f"newgame/{key}", value)
    dialog = NewGameDialog()
    qtbot.addWidget(dialog)
    assert new_game_state(dialog) == new_game_defaults()  # the bad one fell back, and nothing else moved
    choice = dialog.choice()
    assert (choice.variant, choice.vs_bot, choice.human_seat, choice.control) == ("rbc", True, 0, TimeControl(900, 5))


def test_every_remembered_choice_is_read(qtbot, settings) -> None:
    # The other side of the test above: a value that is allowed comes back, so "the default" there is no accident.
    bot = list(builtin_bots("rbc"))[-1]
    chosen = {"variant": "rbc", "seats": f"{bot}:hard,person", "shuffle": True, "time": "Custom", "minutes": 42,
              "increment": 2.5, "options/rbc/draw_rule": "none", "inference": False}
    for key, value in chosen.items():
        settings.setValue(f"newgame/{key}", value)
    dialog = NewGameDialog()
    qtbot.addWidget(dialog)
    state = new_game_state(dialog)
    assert state == {"variant": "rbc", "seats": (SeatChoice(bot, "hard"), SeatChoice()), "shuffle": True,
                     "time": "Custom", "minutes": 42, "increment": 2.5, "options": {"draw_rule": "none"},
                     "inference": False}
    assert all(state[key] != default for key, default in new_game_defaults().items() if key != "variant")


def test_the_choices_of_the_dialog_before_the_seat_table_are_read(qtbot, settings) -> None:
    # A mode, a colour, a bot and a level, and the draw rule by its key alone, as the older dialog kept them.
    chosen = {"variant": "blind", "mode": "bot", "bot": list(builtin_bots("blind"))[-1], "level": "hard",
              "color": "black", "draw_rule": "none"}
    for key, value in chosen.items():
        settings.setValue(f"newgame/{key}", value)
    dialog = NewGameDialog()
    qtbot.addWidget(dialog)
    assert new_game_state(dialog)["seats"] == (SeatChoice(list(builtin_bots("blind"))[-1], "hard"), SeatChoice())
    dialog.game.setCurrentIndex(dialog.game.findData("rbc"))
    assert new_game_state(dialog)["options"] == {"draw_rule": "none"}
    settings.setValue("newgame/color", "random")
    settings.setValue("newgame/mode", "hotseat")
    older = NewGameDialog()
    qtbot.addWidget(older)
    assert older.shuffle.isChecked() and new_game_state(older)["seats"] == (SeatChoice(), SeatChoice())


def test_remembered_choices_still_come_back(qtbot, settings) -> None:
    settings.setValue("newgame/minutes", 42)
    settings.setValue("newgame/increment", 2.5)
    settings.setValue("newgame/time", "Custom")
    settings.setValue("newgame/variant", "blind")
    dialog = NewGameDialog()
    qtbot.addWidget(dialog)
    assert dialog.choice().control == TimeControl(42 * 60, 2.5) and dialog.choice().variant == "blind"


def test_the_theme_piece_set_and_sound_menus_show_the_current_choice(qtbot, settings) -> None:
    settings.setValue("view/theme", "green")
    settings.setValue("sound/volume", 50)
    settings.setValue("sound/muted", "true")
    window = make_window(qtbot)
    view = next(action.menu() for action in window.menuBar().actions() if action.text() == "&View")
    menus = {action.text(): action.menu() for action in view.actions() if action.menu() is not None}

    def checked(menu) -> list[str]:
        menu.aboutToShow.emit()
        return [action.text() for action in menu.actions() if action.isChecked()]

    assert checked(menus["Board &theme"]) == ["Green"] and checked(menus["&Piece set"]) == ["Cburnett"]
    assert checked(menus["&Sound"]) == ["&Mute sounds", "Volume 50%"]
    next(a for a in menus["&Piece set"].actions() if a.text() != "Cburnett").trigger()
    assert len(checked(menus["&Piece set"])) == 1 and checked(menus["&Piece set"]) != ["Cburnett"]
    next(a for a in menus["&Sound"].actions() if a.text() == "Volume 100%").trigger()
    assert settings.value("sound/volume") in (100, "100") and window.sounds.volume == 100


# ---- the new-game dialog remembers each game's seats; a new user meets a real bot ------------------------------------

def _shown_seats(dialog: NewGameDialog) -> list[SeatChoice]:
    return [row.choice() for row in dialog.seat_rows]


def _show_game(dialog: NewGameDialog, key: str) -> None:
    dialog.game.setCurrentIndex(dialog.game.findData(games.get(key).variant_of or key))
    if dialog.form.count() > 1:  # a game played in several forms (its solitaire): the form row chooses
        dialog.form.setCurrentIndex(dialog.form.findData(key))


@pytest.mark.parametrize("key", [definition.key for definition in games.all() if definition.presenter is not None])
def test_a_new_user_plays_the_strongest_bot_at_medium_level(qtbot, settings, key) -> None:
    dialog = NewGameDialog()
    qtbot.addWidget(dialog)
    _show_game(dialog, key)
    definition = games.get(key)
    seats = _shown_seats(dialog)
    assert seats[0].is_person
    bots = [name for name, _ in definition.bots]
    assert all(seat == SeatChoice(bots[0], "medium") for seat in seats[1:])
    if len(bots) > 1:
        assert bots[0] != "random"  # a real opponent, not moves drawn by lot


def test_the_dialog_remembers_the_seats_and_options_of_each_game(qtbot, settings) -> None:
    dialog = NewGameDialog()
    qtbot.addWidget(dialog)
    _show_game(dialog, "blind")
    dialog.seat_rows[1].set_choice(SeatChoice("greedy", "hard"))
    _show_game(dialog, "minit")  # switching quietly changes nothing of the other game's choice
    assert _shown_seats(dialog)[1] == SeatChoice("search", "medium")
    dialog.seat_rows[0].set_choice(SeatChoice("search", "easy"))
    dialog.seat_rows[1].set_choice(SeatChoice())
    _show_game(dialog, "blind")
    assert _shown_seats(dialog) == [SeatChoice(), SeatChoice("greedy", "hard")]
    dialog.accept()
    again = NewGameDialog()  # the next game, or the next start of Sightline
    qtbot.addWidget(again)
    assert again.game.currentData() == "blind"
    assert _shown_seats(again) == [SeatChoice(), SeatChoice("greedy", "hard")]
    _show_game(again, "minit")  # not accepted for MinitChess: its defaults, not Blind Chess's bot
    assert _shown_seats(again) == [SeatChoice(), SeatChoice("search", "medium")]
    again.seat_rows[1].set_choice(SeatChoice("search", "hard"))
    again.accept()
    third = NewGameDialog()
    qtbot.addWidget(third)
    assert third.game.currentData() == "minit" and _shown_seats(third) == [SeatChoice(), SeatChoice("search", "hard")]
    _show_game(third, "blind")
    assert _shown_seats(third) == [SeatChoice(), SeatChoice("greedy", "hard")]
    _show_game(third, "rbc")
    rbc_bot = games.get("rbc").bots[0][0]
    assert _shown_seats(third) == [SeatChoice(), SeatChoice(rbc_bot, "medium")]
    third.option_widgets["draw_rule"].setCurrentIndex(third.option_widgets["draw_rule"].findData("none"))
    third.accept()
    fourth = NewGameDialog()
    qtbot.addWidget(fourth)
    assert fourth.option_widgets["draw_rule"].currentData() == "none"
    assert _shown_seats(fourth) == [SeatChoice(), SeatChoice(rbc_bot, "medium")]


# ---- where windows open ---------------------------------------------------------------------------------------------

def test_a_second_window_does_not_open_exactly_over_the_first(qtbot, settings) -> None:
    first = make_window(qtbot)
    second = make_window(qtbot)
    third = make_window(qtbot)
    area = first.screen().availableGeometry()
    places = [window.geometry().topLeft() for window in (first, second, third)]
    assert len(set((point.x(), point.y()) for point in places)) == 3
    for window in (first, second, third):
        assert area.adjusted(-4, -4, 4, 4).contains(window.geometry())  # (offscreen windows get a 2 px frame)
        assert window.width() >= window.minimumSizeHint().width()
    first.close()  # (closing remembers where it was)
    again = make_window(qtbot)  # the first window's place is free again: the remembered place, not a step aside
    assert again._window_number.number == 0
    assert again.geometry().topLeft() not in places[1:]
