"""The new-game dialog: game, mode, bot and level, colour, time control, options. Remembers the last choices."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from PySide6.QtCore import QSettings
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDialogButtonBox, QDoubleSpinBox, QFormLayout, QSpinBox,
                               QWidget)

from app.bots.registry import builtin_bots
from app.engine.clock import TimeControl
from app.engine.variants import TITLES

TIME_CONTROLS: list[tuple[str, object]] = [("Untimed", None), ("5+3", (300, 3)), ("10+5", (600, 5)), ("15+5", (900, 5)),
                 ("Custom", "custom")]


@dataclass(frozen=True)
class NewGame:
    variant: str
    vs_bot: bool
    bot: str
    level: str
    human_seat: int
    control: TimeControl
    draw_rule: str
    inference: bool = True  # may the players see inference (heat map, position count)? the same for both


def _number(value: object, default: float, low: float, high: float) -> float:
    """A remembered number; anything unreadable or outside ``low``..``high`` (a hand-edited settings file, a newer
    version) gives the default."""
    try:
        number = float(str(value))
    except (ValueError, OverflowError):
        return default
    return number if math.isfinite(number) and low <= number <= high else default


def _text(value: object, default: str) -> str:
    """A remembered text; a value of another type gives the default."""
    return value if isinstance(value, str) else default


class NewGameDialog(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("New game")
        self.settings = QSettings()
        self._saved_bot = _text(self.settings.value("newgame/bot", ""), "")
        form = QFormLayout(self)
        self.game = QComboBox()
        for variant, title in TITLES.items():
            self.game.addItem(title, variant)
        self.mode = QComboBox()
        self.mode.addItem("Against a bot", "bot")
        self.mode.addItem("Two players on this computer (hot-seat)", "hotseat")
        self.bot = QComboBox()
        self.level = QComboBox()
        for level in ("easy", "medium", "hard"):
            self.level.addItem(level.capitalize(), level)
        self.color = QComboBox()
        for label, colour in (("White", "white"), ("Black", "black"), ("Random", "random")):
            self.color.addItem(label, colour)
        self.time = QComboBox()
        for text, value in TIME_CONTROLS:
            self.time.addItem(text, value)
        self.minutes = QSpinBox()
        self.minutes.setRange(1, 180)
        self.minutes.setSuffix(" min")
        self.increment = QDoubleSpinBox()
        self.increment.setRange(0, 60)
        self.increment.setSuffix(" s")
        self.draw_rule = QComboBox()
        self.draw_rule.addItem("50-move rule (reconchess)", "50-move")
        self.draw_rule.addItem("No automatic draws", "none")
        form.addRow("Game", self.game)
        form.addRow("Mode", self.mode)
        form.addRow("Bot", self.bot)
        form.addRow("Level", self.level)
        form.addRow("Your colour", self.color)
        form.addRow("Time control", self.time)
        form.addRow("Minutes", self.minutes)
        form.addRow("Increment", self.increment)
        form.addRow("Automatic draws", self.draw_rule)
        self.inference = QCheckBox("Let players see which enemy positions are still possible")
        self.inference.setToolTip("The belief board's heat map and position count. The same for both players; "
                                  "kept in the game record.")
        form.addRow("Inference", self.inference)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self._form = form
        self.game.currentIndexChanged.connect(self._refresh)
        self.mode.currentIndexChanged.connect(self._refresh)
        self.time.currentIndexChanged.connect(self._refresh)
        self._restore()
        self._refresh()

    def _restore(self) -> None:
        s = self.settings
        for combo, key, default in ((self.game, "variant", "rbc"), (self.mode, "mode", "bot"),
                                    (self.level, "level", "medium"), (self.color, "color", "white"),
                                    (self.draw_rule, "draw_rule", "50-move")):
            index = combo.findData(_text(s.value(f"newgame/{key}", default), default))
            combo.setCurrentIndex(index if index >= 0 else max(0, combo.findData(default)))
        index = self.time.findText(_text(s.value("newgame/time", "15+5"), "15+5"))
        self.time.setCurrentIndex(index if index >= 0 else self.time.findText("15+5"))
        self.minutes.setValue(int(_number(s.value("newgame/minutes", 15), 15, self.minutes.minimum(),
                                          self.minutes.maximum())))
        self.increment.setValue(_number(s.value("newgame/increment", 5), 5, self.increment.minimum(),
                                        self.increment.maximum()))
        self.inference.setChecked(str(s.value("newgame/inference", "true")).lower() not in ("false", "0"))

    def _refresh(self) -> None:
        variant = self.game.currentData()
        current = self.bot.currentData() or self._saved_bot
        self.bot.blockSignals(True)
        self.bot.clear()
        for name in builtin_bots(variant):
            self.bot.addItem(name, name)
        self.bot.setCurrentIndex(max(0, self.bot.findData(current)))
        self.bot.blockSignals(False)
        vs_bot = self.mode.currentData() == "bot"
        custom = self.time.currentData() == "custom"
        for widget, visible in ((self.bot, vs_bot), (self.level, vs_bot), (self.color, vs_bot),
                                (self.minutes, custom), (self.increment, custom),
                                (self.draw_rule, variant == "rbc"), (self.inference, variant != "minit")):
            self._form.setRowVisible(widget, visible)
        # Hidden rows leave no blank band under the buttons: the dialog takes the height of what it shows.
        self.adjustSize()

    def choice(self) -> NewGame:
        value = self.time.currentData()
        if value is None:
            control = TimeControl(None, 0.0)
        elif value == "custom":
            control = TimeControl(self.minutes.value() * 60.0, self.increment.value())
        else:
            control = TimeControl(float(value[0]), float(value[1]))
        color = self.color.currentData()
        seat = random.randrange(2) if color == "random" else (0 if color == "white" else 1)
        return NewGame(self.game.currentData(), self.mode.currentData() == "bot", self.bot.currentData() or "random",
                       self.level.currentData(), seat, control, self.draw_rule.currentData(),
                       self.inference.isChecked())

    def accept(self) -> None:
        s = self.settings
        s.setValue("newgame/variant", self.game.currentData())
        s.setValue("newgame/mode", self.mode.currentData())
        s.setValue("newgame/bot", self.bot.currentData())
        s.setValue("newgame/level", self.level.currentData())
        s.setValue("newgame/color", self.color.currentData())
        s.setValue("newgame/time", self.time.currentText())
        s.setValue("newgame/minutes", self.minutes.value())
        s.setValue("newgame/increment", self.increment.value())
        s.setValue("newgame/draw_rule", self.draw_rule.currentData())
        s.setValue("newgame/inference", self.inference.isChecked())
        super().accept()
