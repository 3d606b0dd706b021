"""The label whose size never depends on its text (app/ui/elided_label.py)."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import Qt  # noqa: E402

from app.ui.elided_label import ElidedLabel, fit_lines  # noqa: E402


def test_a_long_text_is_cut_into_its_lines_and_whole_in_the_tooltip(qtbot) -> None:
    label = ElidedLabel(lines=2)
    qtbot.addWidget(label)
    label.resize(160, label.sizeHint().height())
    label.show()
    hint = label.sizeHint()
    label.setText("Short")
    assert label.shown_text() == "Short" and label.toolTip() == "" and label.sizeHint() == hint
    text = "Arrange your pieces in secret: click the grid (a piece's row, a checker's column), or Random arrangement"
    label.setText(text)
    assert label.text() == text and label.toolTip() == text and label.sizeHint() == hint  # the same room
    shown = label.shown_text().split("\n")
    assert len(shown) == 2 and shown[1].endswith("…")
    assert all(label.fontMetrics().horizontalAdvance(line) <= label.contentsRect().width() for line in shown)
    label.hide()
    assert label.sizePolicy().retainSizeWhenHidden()


def test_lines_follow_the_texts_own_breaks_and_one_line_may_cut_its_middle(qtbot) -> None:
    label = ElidedLabel(lines=3)
    qtbot.addWidget(label)
    lines, cut = fit_lines("12 positions\nHeat map", label.fontMetrics(), 300, 3)
    assert lines == ["12 positions", "Heat map"] and not cut
    lines, cut = fit_lines("one two three four", label.fontMetrics(), 10_000, 1)
    assert lines == ["one two three four"] and not cut
    metrics = label.fontMetrics()
    text = "Autosave is failing since 12:00: the disk is full. Use Game > Save as... to keep this game."
    (line,), cut = fit_lines(text, metrics, metrics.horizontalAdvance(text) // 2, 1, Qt.TextElideMode.ElideMiddle)
    assert cut and line.startswith("Autosave") and line.endswith("keep this game.") and "…" in line
