"""The replay window: the truth's score sheet, where the window opens, the board's looks."""

from __future__ import annotations

import itertools
import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402
from PySide6.QtCore import QCoreApplication, QSettings  # noqa: E402

from app import games  # noqa: E402
from app.games.definition import GameDefinition  # noqa: E402
from app.games.presenter import presenter_for  # noqa: E402
from app.ui.replay_window import ReplayWindow  # noqa: E402

from test_export_formats import finished_record  # noqa: E402  (tests/ is on the path)

SHOWN = [definition for definition in games.all() if definition.presenter is not None]


@pytest.fixture
def settings(qtbot, request):
    QCoreApplication.setOrganizationName("SightlineTests")
    QCoreApplication.setApplicationName(f"replay-{os.getpid()}-{request.node.name}")
    store = QSettings()
    store.clear()
    yield store
    store.clear()


@pytest.mark.parametrize("definition", SHOWN, ids=lambda definition: definition.key)
def test_the_truth_has_a_score_sheet_of_every_move(qtbot, settings, definition: GameDefinition) -> None:
    record = finished_record(definition, steps=30)
    window = ReplayWindow(record)
    qtbot.addWidget(window)
    assert window.perspective.currentData() is None  # the truth comes first
    presenter = presenter_for(definition.key)
    sheet = window.moves.toPlainText()
    told = [line for seat in range(len(definition.seats))
            for line in presenter.move_list(window.timeline.frame(window.timeline.steps, seat).view)]
    assert told and sheet  # the game had moves, and the truth lists them
    rows = sheet.split("\n")
    for line in told:  # every seat's moves, as the game writes them, each under its turn's number
        number, _, rest = line.partition(". ")
        first = next(index for index, row in enumerate(rows) if row.startswith(f"{number}. "))
        block = [rows[first], *itertools.takewhile(lambda row: row.startswith(" "), rows[first + 1:])]
        assert any(rest in row for row in block), line
    window.show_step(0)
    assert window.moves.toPlainText() == ""  # nothing played yet


def test_the_replay_opens_within_the_screen(qtbot, settings) -> None:
    from app.ui.main_window import MainWindow
    main = MainWindow()
    qtbot.addWidget(main)
    main.show()
    area = main.screen().availableGeometry()
    main.setGeometry(area.x() + area.width() - 500, area.y() + area.height() - 400, 480, 380)  # in a corner
    replay = main.open_replay(finished_record(games.get("rbc")))
    assert replay is not None and area.contains(replay.geometry())
    assert replay.width() >= 600 and replay.height() >= 400  # still large enough to use
