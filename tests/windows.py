"""Keeping window tests apart: what one test left on screen must not reach the next one."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QDialog


def put_away_windows(application: QApplication) -> None:
    """Reject every visible dialog and hide every other visible top-level window.

    On the offscreen platform a window left visible takes the simulated mouse moves (``QTest.mouseMove``) meant
    for a widget shown after it, as the tests show. Windows are hidden, not closed: a close may ask a question (a
    game in progress) and wait for an answer no one gives. The events the hiding posts are handled here: until
    they are, the next mouse move is lost.
    """
    hidden = False
    for widget in application.topLevelWidgets():
        if widget.isVisible():
            widget.reject() if isinstance(widget, QDialog) else widget.hide()
            hidden = True
    if hidden:
        application.processEvents()
