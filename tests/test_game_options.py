"""A game's options come from its definition: the referee's defaults, ``sightline match --option`` and the new-game
dialog's rows all follow the definition's ``OptionSpec``s."""

from __future__ import annotations

import os

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from typing import Any  # noqa: E402

import pytest  # noqa: E402

from app import games  # noqa: E402
from app.cli import main, match_options  # noqa: E402
from app.games.definition import GameDefinition  # noqa: E402

DEFINITIONS = games.all()


def _key(definition: GameDefinition) -> str:
    return definition.key


@pytest.mark.parametrize("definition", DEFINITIONS, ids=_key)
def test_an_options_default_is_the_referees_and_every_choice_starts_a_game(definition: GameDefinition) -> None:
    referee = definition.referee()
    for option in definition.options:
        if option.default is not None:
            assert referee.from_options({}).options().get(option.key, option.default) == option.default
        for choice in option.choices:
            assert referee.from_options({option.key: choice}).options()[option.key] == choice
        if option.choices and option.default is not None:
            assert option.default in option.choices
        assert option.choice_labels == () or len(option.choice_labels) == len(option.choices)


@pytest.mark.parametrize("definition", DEFINITIONS, ids=_key)
def test_match_takes_every_choice_of_the_games_options_and_no_other_key(definition: GameDefinition) -> None:
    for option in definition.options:
        for choice in option.choices:
            assert match_options(definition.key, [f"{option.key}={choice}"]) == {option.key: choice}
        if option.choices:
            with pytest.raises(ValueError, match=f"{option.key}: 'surely-not' is not a choice"):
                match_options(definition.key, [f"{option.key}=surely-not"])
    with pytest.raises(ValueError, match=f"{definition.title} takes no option 'surely_not'"):
        match_options(definition.key, ["surely_not=1"])
    assert match_options(definition.key, []) == {}


def test_the_older_draw_rule_flag_is_the_option_of_that_name() -> None:
    game = next(definition for definition in DEFINITIONS if any(o.key == "draw_rule" for o in definition.options))
    assert match_options(game.key, [], draw_rule="none") == match_options(game.key, ["draw_rule=none"])
    with pytest.raises(ValueError, match="given twice"):
        match_options(game.key, ["draw_rule=none"], draw_rule="none")
    other = next(definition for definition in DEFINITIONS if all(o.key != "draw_rule" for o in definition.options))
    with pytest.raises(ValueError, match=f"{other.title} takes no option 'draw_rule'"):
        match_options(other.key, [], draw_rule="none")


@pytest.mark.parametrize("argv, words", [
    (["--option", "nonsense"], "--option takes KEY=VALUE"),
    (["--option", "draw_rule=never"], "'never' is not a choice (choose 50-move or none)"),
    (["--option", "fen=not a position"], "Reconnaissance Blind Chess:"),
    (["--option", "colour=red"], "takes no option 'colour' (its options: draw_rule, fen)"),
])
def test_match_options_get_a_message_not_a_traceback(capsys: pytest.CaptureFixture[str], argv: list[str],
                                                     words: str) -> None:
    code = main(["match", "--variant", games.default().key, "--white", "random", "--black", "random",
                 "--untimed", "--quiet", *argv])
    err = capsys.readouterr().err
    assert code == 2 and words in err and "Traceback" not in err


def test_match_help_lists_each_games_options() -> None:
    from app.cli import build_parser
    text = build_parser()._subparsers._group_actions[0].choices["match"].format_help()  # type: ignore[union-attr]
    flat = " ".join(text.split())
    for definition in DEFINITIONS:
        if definition.options:
            assert f"{definition.title}: " in flat
            for option in definition.options:
                assert option.key in flat


def test_match_max_plies_default_comes_from_the_definition(monkeypatch: pytest.MonkeyPatch) -> None:
    import app.hosting.match
    seen: list[Any] = []

    def fake_run_match(variant: str, **kwargs: Any) -> Any:
        seen.append((variant, kwargs["max_plies"]))
        raise ValueError("stop here")

    monkeypatch.setattr(app.hosting.match, "run_match", fake_run_match)
    for definition in DEFINITIONS:
        main(["match", "--variant", definition.key, *(f"--seat={name}=random" for name in definition.seat_names),
              "--untimed", "--quiet"])
    assert seen == [(definition.key, definition.match_defaults.get("max_plies")) for definition in DEFINITIONS]


# ---- the new-game dialog ------------------------------------------------------------------------------------

@pytest.fixture
def dialog(qtbot: Any) -> Any:
    """A new-game dialog with nothing remembered."""
    from PySide6.QtCore import QCoreApplication, QSettings
    from app.ui.new_game_dialog import NewGameDialog
    QCoreApplication.setOrganizationName("SightlineTests")
    QCoreApplication.setApplicationName(f"options-dialog-{os.getpid()}")
    QSettings().clear()
    shown = NewGameDialog()
    qtbot.addWidget(shown)
    yield shown
    shown.settings.clear()


def _choose_game(dialog: Any, key: str) -> None:
    """Choose the game ``key`` in the dialog: a form of another game (``variant_of``) through the Form row."""
    base = games.get(key).variant_of or key
    dialog.game.setCurrentIndex(dialog.game.findData(base))
    if dialog.form.count() > 1:
        dialog.form.setCurrentIndex(dialog.form.findData(key))
    assert dialog.chosen_key() == key


def test_a_form_of_another_game_is_offered_under_that_game_and_rebuilds_the_seats(dialog: Any) -> None:
    forms = [definition for definition in games.all() if definition.variant_of and definition.presenter is not None]
    assert forms, "no registered game is a form of another"
    listed = [dialog.game.itemData(index) for index in range(dialog.game.count())]
    for form in forms:
        base = games.get(form.variant_of)
        assert form.key not in listed and base.key in listed  # the game list leaves the form out
        _choose_game(dialog, base.key)
        assert dialog._form.isRowVisible(dialog.form)
        labels = [dialog.form.itemText(index) for index in range(dialog.form.count())]
        assert labels[0] == (base.variant_label or "Standard") and form.variant_label in labels
        assert len(dialog.seat_rows) == len(base.seats)
        dialog.form.setCurrentIndex(dialog.form.findData(form.key))
        assert dialog.definition is form and len(dialog.seat_rows) == len(form.seats)
        assert dialog.choice().variant == form.key
        dialog.form.setCurrentIndex(0)
        assert dialog.definition is base and len(dialog.seat_rows) == len(base.seats)
    plain = next(definition for definition in games.all()
                 if not definition.variant_of and not any(other.variant_of == definition.key for other in games.all()))
    _choose_game(dialog, plain.key)
    assert not dialog._form.isRowVisible(dialog.form) and dialog.chosen_key() == plain.key


def test_a_solitaire_is_offered_no_clock_and_starts_untimed(dialog: Any) -> None:
    """G5: solitaires are untimed (they show the time taken). The dialog used to offer its remembered 15+5, so a
    Parade deal counted down from 15 minutes and could be lost on time."""
    solitaires = [definition.key for definition in games.all() if len(definition.seats) == 1]
    assert {"parade", "neighbour", "coop_solitaire"} <= set(solitaires)
    for key in solitaires:
        _choose_game(dialog, key)
        assert not dialog._form.isRowVisible(dialog.time)
        assert dialog.choice().control.untimed
    _choose_game(dialog, "rbc")
    assert dialog._form.isRowVisible(dialog.time) and not dialog.choice().control.untimed  # 15+5 by default


def test_a_form_chosen_last_time_is_chosen_again(qtbot: Any) -> None:
    from PySide6.QtCore import QCoreApplication, QSettings
    from app.ui.new_game_dialog import NewGameDialog
    form = next(definition for definition in games.all() if definition.variant_of)
    QCoreApplication.setOrganizationName("SightlineTests")
    QCoreApplication.setApplicationName(f"options-form-{os.getpid()}")
    QSettings().clear()
    QSettings().setValue("newgame/variant", form.key)
    shown = NewGameDialog()
    qtbot.addWidget(shown)
    assert shown.game.currentData() == form.variant_of and shown.chosen_key() == form.key
    shown.settings.clear()


@pytest.mark.parametrize("definition", DEFINITIONS, ids=_key)
def test_the_dialog_shows_exactly_the_games_options_with_their_defaults(dialog: Any,
                                                                        definition: GameDefinition) -> None:
    from PySide6.QtWidgets import QComboBox
    for other in DEFINITIONS:  # whatever game was shown before, the rows are the chosen game's
        _choose_game(dialog, other.key)
        _choose_game(dialog, definition.key)
        offered = [option for option in definition.options if not option.hidden]
        assert list(dialog.option_widgets) == [option.key for option in offered]
        for option in offered:
            widget = dialog.option_widgets[option.key]
            label = dialog._form.labelForField(widget)
            assert label is not None and label.text() == option.label
            if option.choices:
                assert isinstance(widget, QComboBox)
                assert [widget.itemData(i) for i in range(widget.count())] == list(option.choices)
                assert [widget.itemText(i) for i in range(widget.count())] == [option.label_of(c) for c in
                                                                              option.choices]
                assert widget.currentData() == option.default
            else:
                assert widget.text() == (option.default or "")
        assert dialog.choice().options == {option.key: option.default for option in offered
                                           if option.default is not None}


@pytest.mark.parametrize("definition", DEFINITIONS, ids=_key)
def test_the_dialog_has_a_seat_row_for_every_seat_offering_the_games_bots(dialog: Any,
                                                                         definition: GameDefinition) -> None:
    _choose_game(dialog, definition.key)
    assert [row.name.text() for row in dialog.seat_rows] == list(definition.seat_names)
    for row in dialog.seat_rows:
        assert [row.who.itemData(i) for i in range(1, row.who.count())] == [name for name, _ in definition.bots]
    choice = dialog.choice()
    assert len(choice.seat_choices()) == len(definition.seats)
    assert any(seat.is_person for seat in choice.seat_choices())


def test_a_seat_table_offers_what_the_colour_and_mode_did(dialog: Any) -> None:
    from PySide6.QtWidgets import QDialogButtonBox
    from app.ui.new_game_dialog import SeatChoice
    ok = dialog.buttons.button(QDialogButtonBox.StandardButton.Ok)
    white, black = dialog.seat_rows[:2]
    white.set_choice(SeatChoice())
    black.set_choice(SeatChoice("random", "hard"))  # White against a bot
    assert dialog.choice().seat_choices() == (SeatChoice(), SeatChoice("random", "hard"))
    assert (dialog.choice().vs_bot, dialog.choice().human_seat, dialog.choice().level) == (True, 0, "hard")
    strongest = dialog.definition.bots[0][0]  # a bot whose level matters (random's is greyed: it changes nothing)
    white.set_choice(SeatChoice(strongest, "easy"))
    black.set_choice(SeatChoice())  # Black against a bot
    assert dialog.choice().human_seat == 1 and not black.level.isEnabled() and white.level.isEnabled()
    white.set_choice(SeatChoice())  # hot-seat
    assert not dialog.choice().vs_bot and ok.isEnabled()
    dialog.shuffle.setChecked(True)  # a random colour: both arrangements come up
    arrangements = set()
    white.set_choice(SeatChoice("random", "easy"))
    for _ in range(60):
        arrangements.add(dialog.choice().human_seat)
    assert arrangements == {0, 1}
    black.set_choice(SeatChoice("random", "easy"))  # nobody at the screen: refused, with a word why
    assert not ok.isEnabled() and not dialog.no_person.isHidden()


def test_the_dialog_reads_the_settings_of_the_colour_and_mode_dialog(qtbot: Any) -> None:
    from PySide6.QtCore import QCoreApplication, QSettings
    from app.ui.new_game_dialog import NewGameDialog, SeatChoice
    QCoreApplication.setOrganizationName("SightlineTests")
    QCoreApplication.setApplicationName(f"options-older-{os.getpid()}")
    settings = QSettings()
    settings.clear()
    game = games.default()
    rule = next(option for option in game.offered_options if option.choices)
    other_choice = next(choice for choice in rule.choices if choice != rule.default)
    for key, value in (("variant", game.key), ("mode", "bot"), ("color", "black"), ("bot", game.bots[-1][0]),
                       ("level", "hard"), (rule.key, other_choice)):
        settings.setValue(f"newgame/{key}", value)
    older = NewGameDialog()
    qtbot.addWidget(older)
    assert older.choice().seat_choices() == (SeatChoice(game.bots[-1][0], "hard"), SeatChoice())
    assert older.choice().options == {rule.key: other_choice}
    settings.setValue("newgame/mode", "hotseat")
    hot = NewGameDialog()
    qtbot.addWidget(hot)
    assert hot.choice().seat_choices() == (SeatChoice(), SeatChoice())
    settings.clear()


def test_the_window_starts_the_game_with_the_chosen_options_and_seats(window: Any, dialog: Any) -> None:
    from app.ui.new_game_dialog import SeatChoice
    game = games.default()
    rule = next(option for option in game.offered_options if option.choices)
    other_choice = next(choice for choice in rule.choices if choice != rule.default)
    _choose_game(dialog, game.key)
    dialog.option_widgets[rule.key].setCurrentIndex(dialog.option_widgets[rule.key].findData(other_choice))
    dialog.seat_rows[0].set_choice(SeatChoice("random", "easy"))
    dialog.seat_rows[1].set_choice(SeatChoice())
    dialog.shuffle.setChecked(False)
    window.start(dialog.choice())
    controller = window.controller
    assert controller.game.options()[rule.key] == other_choice
    assert [seat.name for seat in controller.seats] == ["random (easy)", "You"]
    assert window.board.is_flipped() == game.seats[1].flipped


# ---- games of one and four seats (the test games of tests/games) ----------------------------------------------

@pytest.fixture
def window_with_test_games(window: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The window, with the test games (a one-seat solitaire, a four-seat team game) registered for one test."""
    from pathlib import Path
    from app.engine import variants
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parent.parent))
    monkeypatch.setenv(games.EXTRA_GAMES_VARIABLE, "tests.games.lights,tests.games.scouts")
    for name in ("VARIANTS", "TITLES"):  # the engine's game table is built once: built again with them, then back
        if name in vars(variants):
            monkeypatch.delattr(variants, name)
    yield window
    for name in ("VARIANTS", "TITLES"):
        vars(variants).pop(name, None)


def test_the_seat_table_has_a_row_for_each_of_four_seats_and_one_for_a_solitaire(window_with_test_games: Any,
                                                                                 dialog: Any) -> None:
    from app.ui.new_game_dialog import NewGameDialog
    fresh = NewGameDialog()  # made after the test games were registered
    try:
        _choose_game(fresh, "scouts")
        assert [row.name.text() for row in fresh.seat_rows] == list(games.get("scouts").seat_names)
        assert [seat.is_person for seat in fresh.choice().seat_choices()] == [True, False, False, False]
        assert fresh.option_widgets == {}  # its options are all set by the program
        four = fresh.seat_rows
        _choose_game(fresh, "lights")
        assert len(fresh.seat_rows) == 1 and fresh.shuffle.isHidden()
        assert all(widget.isHidden() for row in four for widget in row.widgets())  # gone at once, not later
        _choose_game(fresh, games.default().key)
        assert len(fresh.seat_rows) == 2 and not fresh.shuffle.isHidden()
    finally:
        fresh.deleteLater()


def test_a_team_win_and_a_lost_solitaire_are_worded_so(window_with_test_games: Any) -> None:
    from app.engine.clock import TimeControl
    from app.ui.new_game_dialog import NewGame, SeatChoice
    window = window_with_test_games
    people = tuple(SeatChoice() for _ in games.get("scouts").seats)
    window.start(NewGame("scouts", False, "random", "medium", 0, TimeControl(None, 0), "", seats=people, options={}))
    controller = window.controller
    assert [seat.name for seat in controller.seats] == list(games.get("scouts").seat_names)  # people by seat
    controller.lift_curtain()
    controller.resign()  # W1 resigns for the white team
    assert window.status.text().startswith("Game over. B1 and B2 win:")
    assert controller.status().startswith("Game over: B1 and B2 won (")
    window.start(NewGame("lights", False, "random", "medium", 0, TimeControl(None, 0), "", seats=(SeatChoice(),)))
    controller = window.controller
    assert [seat.name for seat in controller.seats] == ["You"]
    controller.resign()
    assert window.status.text().startswith("Game over. Lost:") and "Draw" not in window.status.text()
    assert controller.status().startswith("Game over: lost (")
