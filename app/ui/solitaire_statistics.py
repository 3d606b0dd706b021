"""Solitaire > Statistics...: each numbered-deal solitaire's counts (played, won, best and average score, the
current and longest streak), read from the data folder (:mod:`app.games.patience.statistics`)."""

from __future__ import annotations

from html import escape

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QVBoxLayout, QWidget

from app import games

__all__ = ["StatisticsDialog", "statistics_html"]


def statistics_html(report: list[str] | None = None) -> str:
    """The table the dialog shows: one row per game whose deals are numbered."""
    from app.games.patience.statistics import load
    found = load(report=report.append if report is not None else None)
    rows = []
    for definition in games.all():
        if not any(option.key == "deal" for option in definition.options):
            continue
        stats = found.get(definition.key)
        if stats is None or not stats.played:
            rows.append(f"<tr><td>{escape(definition.title)}</td><td colspan='6'>no games finished yet</td></tr>")
            continue
        rate = f"{stats.won * 100 / stats.played:.0f}%"
        streak = (f"won {stats.streak}" if stats.streak > 0 else f"lost {-stats.streak}" if stats.streak < 0 else "-")
        cells = [escape(definition.title), f"{stats.played}", f"{stats.won} ({rate})",
                 "-" if stats.best is None else f"{stats.best}",
                 "-" if stats.average is None else f"{stats.average:.1f}", streak, f"{stats.longest_streak}"]
        rows.append("<tr>" + "".join(f"<td>{cell}</td>" for cell in cells) + "</tr>")
    head = "".join(f"<th>{word}</th>" for word in ("Game", "Played", "Won", "Best", "Average", "Streak", "Longest"))
    return (f"<table cellspacing='0' cellpadding='4'><tr>{head}</tr>{''.join(rows)}</table>"
            "<p>Best and average count the games won (their score). A game given up counts as played and lost.</p>")


class StatisticsDialog(QDialog):
    """The statistics, with a Close button."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Solitaire statistics")
        layout = QVBoxLayout(self)
        said: list[str] = []
        self.table = QLabel(statistics_html(said))
        self.table.setTextFormat(self.table.textFormat().RichText)
        layout.addWidget(self.table)
        if said:
            layout.addWidget(QLabel(escape(said[0])))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
