"""The new-game dialog: the game, who sits in each seat (a person or a bot at a level), the time control and the
game's own options. Remembers the last choices.

Everything game-specific comes from the chosen game's definition: one seat row per seat it lists, one option row
per option it offers, its bots; the rows change when the game does.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Mapping

from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDialogButtonBox, QDoubleSpinBox, QFormLayout,
                               QGridLayout, QLabel, QLineEdit, QMessageBox, QSpinBox, QWidget)

from app import games
from app.engine.clock import TimeControl
from app.games.definition import GameDefinition, OptionSpec

TIME_CONTROLS: list[tuple[str, object]] = [("Untimed", None), ("5+3", (300, 3)), ("10+5", (600, 5)), ("15+5", (900, 5)),
                 ("Custom", "custom")]

LEVELS = ("easy", "medium", "hard")

PERSON = "person"
"""What the settings remember for a seat a person plays."""

_LEGACY_DRAW_RULE = "draw_rule"
"""The option that :attr:`NewGame.draw_rule` sets, for callers written before the options came from the games."""


@dataclass(frozen=True)
class SeatChoice:
    """Who plays one seat: a person (``bot`` None) or the built-in bot ``bot`` at ``level``."""

    bot: str | None = None
    level: str = "medium"

    @property
    def is_person(self) -> bool:
        return self.bot is None


@dataclass(frozen=True)
class NewGame:
    """What the dialog chose. ``seats`` (one :class:`SeatChoice` per seat) and ``options`` (the game's offered
    options, key -> value) say it for any game; callers that predate them give a two-seat game by ``vs_bot``,
    ``bot``, ``level`` and ``human_seat``, and ``draw_rule`` for a game that takes that option.
    ``inference``: may the players see inference (heat map, position count)? the same for every seat."""

    variant: str
    vs_bot: bool
    bot: str
    level: str
    human_seat: int
    control: TimeControl
    draw_rule: str
    inference: bool = True
    seats: tuple[SeatChoice, ...] = ()
    options: Mapping[str, str] | None = None

    def seat_choices(self) -> tuple[SeatChoice, ...]:
        """Who plays each seat of the game, in seat order."""
        if self.seats:
            return self.seats
        count = len(games.get(self.variant).seats)
        if not self.vs_bot:
            return tuple(SeatChoice() for _ in range(count))
        return tuple(SeatChoice() if seat == self.human_seat else SeatChoice(self.bot, self.level)
                     for seat in range(count))

    def game_options(self) -> dict[str, str]:
        """The options the new game starts with (the game's defaults for the ones not given)."""
        if self.options is not None:
            return dict(self.options)
        offered = {option.key for option in games.get(self.variant).offered_options}
        return {_LEGACY_DRAW_RULE: self.draw_rule} if _LEGACY_DRAW_RULE in offered else {}


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


class SeatRow:
    """One seat's row of the seat table: its name, who plays it (a person or one of the game's bots) and the
    bot's level (greyed out for a person, and for a bot whose level changes nothing). Each bot and level says in
    its tooltip what playing it is like (the game's ``bot_words``)."""

    def __init__(self, name: str, definition: GameDefinition) -> None:
        self.definition = definition
        self.name = QLabel(name)
        self.who = QComboBox()
        self.who.addItem("Person", PERSON)
        self.who.setItemData(0, "Played at this computer.", Qt.ItemDataRole.ToolTipRole)
        for bot, _ in definition.bots:
            self.who.addItem(f"Bot: {bot}", bot)
            self.who.setItemData(self.who.count() - 1, definition.words_for(bot, "medium"),
                                 Qt.ItemDataRole.ToolTipRole)
        self.level = QComboBox()
        for level in LEVELS:
            self.level.addItem(level.capitalize(), level)
        self.who.currentIndexChanged.connect(self._follow)
        self._follow()

    def _follow(self) -> None:
        bot = self.who.currentData()
        is_bot = any(bot == name for name, _ in self.definition.bots)  # not a person, here or elsewhere
        self.level.setEnabled(is_bot and self.definition.bot_has_levels(bot))
        for index, level in enumerate(LEVELS):
            words = self.definition.words_for(bot, level) if is_bot else ""
            self.level.setItemData(index, words, Qt.ItemDataRole.ToolTipRole)

    def words(self) -> str:
        """What the chosen bot is like at the chosen level ("" for a person)."""
        choice = self.choice()
        return "" if choice.bot is None else self.definition.words_for(choice.bot, choice.level)

    def set_choice(self, choice: SeatChoice) -> None:
        """Show ``choice`` (a bot the game does not have gives its strongest bot, listed first)."""
        if choice.bot is None:
            self.who.setCurrentIndex(0)
        else:
            index = self.who.findData(choice.bot)
            self.who.setCurrentIndex(index if index > 0 else min(1, self.who.count() - 1))
        index = self.level.findData(choice.level)
        self.level.setCurrentIndex(index if index >= 0 else self.level.findData("medium"))

    def choice(self) -> SeatChoice:
        who = self.who.currentData()
        return SeatChoice() if who == PERSON else SeatChoice(who, self.level.currentData())

    def widgets(self) -> list[QWidget]:
        return [self.name, self.who, self.level]


def _remembered_seats(text: str, bots: set[str]) -> list[SeatChoice] | None:
    """Seat choices from the settings' ``"person,belief:hard"`` form; None unless every seat is a person or one
    of ``bots`` at a known level and a person plays one (a hand-edited settings file, a newer version)."""
    seats = []
    for part in text.split(","):
        bot, _, level = part.strip().partition(":")
        if bot == PERSON and not level:
            seats.append(SeatChoice())
        elif bot in bots and level in LEVELS:
            seats.append(SeatChoice(bot, level))
        else:
            return None
    return seats if any(seat.is_person for seat in seats) else None


def _seats_text(seats: list[SeatChoice]) -> str:
    return ",".join(PERSON if seat.bot is None else f"{seat.bot}:{seat.level}" for seat in seats)


def default_seats(definition: GameDefinition) -> list[SeatChoice]:
    """A game's seats for someone who never chose them: a person in the first seat, the game's strongest bot
    (listed first) at medium level in the others; people at every seat if the game has no bot."""
    if not definition.bots:
        return [SeatChoice() for _ in definition.seats]
    strongest = definition.bots[0][0]
    return [SeatChoice() if index == 0 else SeatChoice(strongest, "medium") for index in range(len(definition.seats))]


class NewGameDialog(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("New game")
        self.settings = QSettings()
        form = QFormLayout(self)
        self.game = QComboBox()
        for definition in games.all():
            # a game the window cannot show (a rules-only test game) is left out, and so is a form of another game
            # (a solitaire of a game for two): that is offered as a form of its game, in the row under it
            if definition.presenter is not None and not definition.variant_of:
                self.game.addItem(definition.title, definition.key)
        self.form = QComboBox()
        self.form.setToolTip("The forms this game is played in (for one player, say).")
        self.seat_table = QWidget()
        self._seat_grid = QGridLayout(self.seat_table)
        self._seat_grid.setContentsMargins(0, 0, 0, 0)
        self._seat_grid.setHorizontalSpacing(10)  # the seat's name apart from its choice, as a form's label is
        self._seat_grid.setColumnStretch(1, 1)
        self.seat_rows: list[SeatRow] = []
        self.bot_words = QLabel()
        self.bot_words.setWordWrap(True)
        self.bot_words.setTextFormat(Qt.TextFormat.PlainText)
        self.bot_words.setToolTip("What each bot chosen above is like to play, at its level.")
        self.shuffle = QCheckBox("Seat the players in random order")
        self.shuffle.setToolTip("Who plays which seat is drawn by lot when the game starts.")
        self.time = QComboBox()
        for text, value in TIME_CONTROLS:
            self.time.addItem(text, value)
        self.minutes = QSpinBox()
        self.minutes.setRange(1, 180)
        self.minutes.setSuffix(" min")
        self.increment = QDoubleSpinBox()
        self.increment.setRange(0, 60)
        self.increment.setSuffix(" s")
        self.inference = QCheckBox("Let players see which enemy positions are still possible")
        self.inference.setToolTip("The belief board's heat map and position count. The same for every player; "
                                  "kept in the game record.")
        self.no_person = QLabel("Give at least one seat to a person (games between bots are played with "
                                "sightline match).")
        self.no_person.setWordWrap(True)
        form.addRow("Game", self.game)
        form.addRow("Form", self.form)
        form.addRow("Seats", self.seat_table)
        form.addRow("", self.bot_words)
        form.addRow("", self.shuffle)
        form.addRow("", self.no_person)
        form.addRow("Time control", self.time)
        form.addRow("Minutes", self.minutes)
        form.addRow("Increment", self.increment)
        self.option_widgets: dict[str, QComboBox | QLineEdit] = {}
        """The chosen game's option rows, by option key."""
        self._options_at = form.rowCount()  # the option rows go here, before the inference row
        form.addRow("Inference", self.inference)
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        form.addRow(self.buttons)
        self._form = form
        self._shown_seats: dict[str, list[SeatChoice]] = {}
        """The seats each game showed in this dialog before another game was chosen (switching back keeps them)."""
        self._restore()
        self._game_shown = self.chosen_key()
        self._build_game_rows(self._seats_for(self._game_shown))
        self.game.currentIndexChanged.connect(lambda _: self._switch_base_game())
        self.form.currentIndexChanged.connect(lambda _: self._switch_game())
        self.time.currentIndexChanged.connect(self._refresh)
        self._refresh()

    # -- what the chosen game offers -------------------------------------------------------------------------
    @property
    def definition(self) -> GameDefinition:
        """The chosen game's definition (the chosen form's, for a game played in several)."""
        return games.get(self.chosen_key())

    def chosen_key(self) -> str:
        """The key of the game to start: the chosen form's when the chosen game has several, else the game's."""
        if self.form.count() > 1 and self.form.currentData() is not None:
            return str(self.form.currentData())
        return str(self.game.currentData())

    def _fill_forms(self, chosen: str | None = None) -> None:
        """The form row for the chosen game: the game itself, then each definition that is a form of it (shown
        only when there is more than one); ``chosen`` (a key) is selected if it is one of them."""
        base = games.get(self.game.currentData())
        forms = [base] + [definition for definition in games.all()
                          if definition.variant_of == base.key and definition.presenter is not None]
        self.form.blockSignals(True)
        self.form.clear()
        for definition in forms:
            self.form.addItem(definition.variant_label or "Standard", definition.key)
        index = self.form.findData(chosen) if chosen is not None else -1
        self.form.setCurrentIndex(max(0, index))
        self.form.blockSignals(False)
        self._form.setRowVisible(self.form, len(forms) > 1)

    def _switch_base_game(self) -> None:
        self._fill_forms()
        self._switch_game()

    def _build_game_rows(self, seats: list[SeatChoice]) -> None:
        """One row per seat of the chosen game (filled from ``seats`` by position; a seat past their end is
        played as the last one is) and one row per option it offers."""
        definition = self.definition
        for row in self.seat_rows:
            for widget in row.widgets():
                self._seat_grid.removeWidget(widget)
                widget.hide()  # at once: deleteLater waits for the event loop, and the new row takes its place now
                widget.deleteLater()
        self.seat_rows = []
        for index, seat in enumerate(definition.seats):
            row = SeatRow(seat.name, definition)
            row.set_choice(seats[min(index, len(seats) - 1)] if seats else SeatChoice())
            row.who.currentIndexChanged.connect(self._refresh)
            row.level.currentIndexChanged.connect(self._refresh)
            for column, widget in enumerate(row.widgets()):
                self._seat_grid.addWidget(widget, index, column)
            self.seat_rows.append(row)
        for widget in self.option_widgets.values():
            self._form.removeRow(widget)
        self.option_widgets = {}
        for offset, option in enumerate(definition.offered_options):
            widget = self._option_widget(definition, option)
            label = QLabel(option.label)
            label.setToolTip(option.help)
            self._form.insertRow(self._options_at + offset, label, widget)
            self.option_widgets[option.key] = widget
        self._refresh()

    def _option_widget(self, definition: GameDefinition, option: OptionSpec) -> QComboBox | QLineEdit:
        """A row's field for ``option``, showing the value last chosen for this game (else the default)."""
        remembered = self._remembered_option(definition.key, option)
        widget: QComboBox | QLineEdit
        if option.choices:
            widget = QComboBox()
            for choice in option.choices:
                widget.addItem(option.label_of(choice), choice)
            index = widget.findData(remembered)
            widget.setCurrentIndex(index if index >= 0 else max(0, widget.findData(option.default)))
        else:
            widget = QLineEdit(remembered or option.default or "")
        widget.setToolTip(option.help)
        return widget

    def _remembered_option(self, game: str, option: OptionSpec) -> str:
        # Before the options came from the games, an option was remembered by its key alone.
        older = _text(self.settings.value(f"newgame/{option.key}", option.default or ""), option.default or "")
        return _text(self.settings.value(f"newgame/options/{game}/{option.key}", older), older)

    def _current_seats(self) -> list[SeatChoice]:
        return [row.choice() for row in self.seat_rows]

    def _switch_game(self) -> None:
        """Another game chosen: its seats as last chosen for it (in this dialog, else in the settings, else the
        defaults), never the seats of the game left carried over to bots it may not have."""
        if self._game_shown is not None:
            self._shown_seats[self._game_shown] = self._current_seats()
        self._game_shown = self.chosen_key()
        self._build_game_rows(self._seats_for(self._game_shown))

    def _seats_for(self, game: str) -> list[SeatChoice]:
        """The seats to show for ``game``."""
        shown = self._shown_seats.get(game)
        if shown is not None:
            return shown
        definition = games.get(game)
        bots = {name for name, _ in definition.bots}
        remembered = _remembered_seats(_text(self.settings.value(f"newgame/players/{game}", ""), ""), bots)
        if remembered is not None and len(remembered) == len(definition.seats):
            return remembered
        if _text(self.settings.value("newgame/variant", ""), "") == game:
            # Settings of a version that remembered the seats once for all games: they were this game's.
            older = self._remembered_seat_choices()
            if older is not None:
                return older
        return default_seats(definition)

    # -- remembered choices ------------------------------------------------------------------------------------
    def _restore(self) -> None:
        s = self.settings
        default = games.default().key
        remembered = _text(s.value("newgame/variant", default), default)
        try:
            base = games.get(remembered).variant_of or remembered
        except KeyError:
            base = remembered
        index = self.game.findData(base)
        self.game.setCurrentIndex(index if index >= 0 else max(0, self.game.findData(default)))
        self._fill_forms(remembered)
        index = self.time.findText(_text(s.value("newgame/time", "15+5"), "15+5"))
        self.time.setCurrentIndex(index if index >= 0 else self.time.findText("15+5"))
        self.minutes.setValue(int(_number(s.value("newgame/minutes", 15), 15, self.minutes.minimum(),
                                          self.minutes.maximum())))
        self.increment.setValue(_number(s.value("newgame/increment", 5), 5, self.increment.minimum(),
                                        self.increment.maximum()))
        self.inference.setChecked(str(s.value("newgame/inference", "true")).lower() not in ("false", "0"))
        older_random = _text(s.value("newgame/color", ""), "") == "random"
        self.shuffle.setChecked(str(s.value("newgame/shuffle", older_random)).lower() in ("true", "1"))

    def _remembered_seat_choices(self) -> list[SeatChoice] | None:
        """The seats as an older version remembered them (once, for the game last played); without them, from the
        settings of the dialog that offered a mode (against a bot or hot-seat), a colour, a bot and a level. None
        when nothing was remembered."""
        s = self.settings
        every_bot = {name for definition in games.all() for name, _ in definition.bots}
        remembered = _remembered_seats(_text(s.value("newgame/seats", ""), ""), every_bot)
        if remembered is not None:
            return remembered
        if _text(s.value("newgame/mode", "bot"), "bot") == "hotseat":
            return [SeatChoice(), SeatChoice()]
        bot_name = _text(s.value("newgame/bot", ""), "")
        if not bot_name:
            return None
        level = _text(s.value("newgame/level", "medium"), "medium")
        # A bot this game does not have becomes its strongest when the row shows it.
        bot = SeatChoice(bot_name, level if level in LEVELS else "medium")
        return [bot, SeatChoice()] if _text(s.value("newgame/color", "white"), "white") == "black" \
            else [SeatChoice(), bot]

    def _refresh(self) -> None:
        definition = self.definition
        timed = not self._solitaire()
        custom = timed and self.time.currentData() == "custom"
        people = sum(row.choice().is_person for row in self.seat_rows)
        self.bot_words.setText(self._bot_words())
        for widget, visible in ((self.bot_words, bool(self.bot_words.text())),
                                (self.time, timed), (self.minutes, custom), (self.increment, custom),
                                (self.shuffle, len(self.seat_rows) > 1),
                                (self.no_person, people == 0),
                                (self.inference, definition.inference is not None)):
            self._form.setRowVisible(widget, visible)
        ok = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        ok.setEnabled(people > 0)
        # Hidden rows leave no blank band under the buttons: the dialog takes the height of what it shows.
        self.adjustSize()

    def _bot_words(self) -> str:
        """One line for each bot chosen (once per bot and level), saying what it is like to play."""
        lines: list[str] = []
        seen: set[tuple[str | None, str]] = set()
        for row in self.seat_rows:
            choice = row.choice()
            words = row.words()
            if choice.bot is None or not words or (choice.bot, choice.level) in seen:
                continue
            seen.add((choice.bot, choice.level))
            level = f", {choice.level}" if self.definition.bot_has_levels(choice.bot) else ""
            lines.append(f"{choice.bot.capitalize()}{level}: {words}")
        return "\n".join(lines)

    # -- the choice --------------------------------------------------------------------------------------------
    def _solitaire(self) -> bool:
        """Whether the chosen game has one seat: a solitaire, untimed (G5; its window shows the time taken)."""
        return len(self.definition.seats) == 1

    def choice(self) -> NewGame:
        value = None if self._solitaire() else self.time.currentData()
        if value is None:
            control = TimeControl(None, 0.0)
        elif value == "custom":
            control = TimeControl(self.minutes.value() * 60.0, self.increment.value())
        else:
            control = TimeControl(float(value[0]), float(value[1]))
        seats = self._current_seats()
        if self.shuffle.isChecked() and len(seats) > 1:
            random.shuffle(seats)
        options = self._chosen_options()
        first_bot = next((seat for seat in seats if seat.bot is not None), SeatChoice("random"))
        person = next((index for index, seat in enumerate(seats) if seat.is_person), 0)
        return NewGame(self.chosen_key(), any(seat.bot is not None for seat in seats),
                       first_bot.bot or "random", first_bot.level, person, control,
                       options.get(_LEGACY_DRAW_RULE, ""), self.inference.isChecked(), tuple(seats), options)

    def _chosen_options(self) -> dict[str, str]:
        """The option rows' values (an empty text leaves that option at the game's default)."""
        options = {key: (widget.currentData() if isinstance(widget, QComboBox) else widget.text().strip())
                   for key, widget in self.option_widgets.items()}
        return {key: value for key, value in options.items() if value}

    def _option_problem(self) -> str | None:
        """What is wrong with the chosen options, in the game's words (None: nothing)."""
        definition = self.definition
        try:
            definition.referee().from_options(definition.checked_options(self._chosen_options()))
        except ValueError as error:
            return str(error)
        return None

    def accept(self) -> None:
        problem = self._option_problem()
        if problem is not None:
            QMessageBox.warning(self, "New game", problem if len(problem) <= 300 else problem[:299] + "…")
            return
        s = self.settings
        game = self.chosen_key()
        s.setValue("newgame/variant", game)
        s.setValue(f"newgame/players/{game}", _seats_text(self._current_seats()))
        s.setValue("newgame/shuffle", self.shuffle.isChecked())
        s.setValue("newgame/time", self.time.currentText())
        s.setValue("newgame/minutes", self.minutes.value())
        s.setValue("newgame/increment", self.increment.value())
        for key, widget in self.option_widgets.items():
            s.setValue(f"newgame/options/{game}/{key}",
                       widget.currentData() if isinstance(widget, QComboBox) else widget.text().strip())
        s.setValue("newgame/inference", self.inference.isChecked())
        super().accept()
