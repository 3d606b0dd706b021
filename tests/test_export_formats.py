"""Export formats come from the games' definitions: every format's writer writes a record of its game, the
window's Export menu offers what the definitions say (label, file suffix, refused while it would show hidden
truth), the clipboard copies and pastes a position, and a PGN reads back before any writer was imported."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

from app import games  # noqa: E402
from app.engine.clock import TimeControl  # noqa: E402
from app.engine.core import Resign  # noqa: E402
from app.engine.record import GameRecord, GameSession, RecordError  # noqa: E402
from app.exports import FORMATS, IMAGE_FORMATS, export_record, export_text  # noqa: E402
from app.games.definition import GameDefinition  # noqa: E402

from test_record_fuzz import random_action  # noqa: E402  (tests/ is on the path)

ROOT = Path(__file__).resolve().parent.parent
DEFINITIONS = games.all()


def _key(definition: GameDefinition) -> str:
    return definition.key


def finished_record(definition: GameDefinition, seed: int = 3, steps: int = 24) -> GameRecord:
    """A short game of ``definition``'s kind: random actions, then a resignation if it still goes on."""
    game = definition.referee()()
    session = GameSession(game)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        session.play(game.to_move, random_action(game, rng))
    if not game.is_over:
        session.play(game.to_move if game.to_move is not None else 0, Resign())
    return session.record


@pytest.mark.parametrize("definition", DEFINITIONS, ids=_key)
def test_every_format_writer_writes_a_record_of_its_game(definition: GameDefinition, tmp_path: Path) -> None:
    record = finished_record(definition)
    assert definition.formats
    for fmt in definition.formats:
        text = fmt.writer()(record)
        assert isinstance(text, str) and text.strip(), fmt.name
        export_record(record, fmt.name, tmp_path / f"game{fmt.suffix}")
        assert (tmp_path / f"game{fmt.suffix}").read_text(encoding="utf-8") == text  # the same writer, unchanged
        if fmt.text:
            assert export_text(record, fmt.name) == text


@pytest.mark.parametrize("definition", DEFINITIONS, ids=_key)
def test_a_format_another_game_writes_is_refused_in_words(definition: GameDefinition, tmp_path: Path) -> None:
    record = finished_record(definition)
    own = {fmt.name for fmt in definition.formats}
    for fmt in games.formats():
        if fmt.name not in own:
            with pytest.raises(RecordError):
                export_record(record, fmt.name, tmp_path / f"other{fmt.suffix}")
            assert not (tmp_path / f"other{fmt.suffix}").exists()


def test_formats_of_one_name_agree_and_every_name_is_exported() -> None:
    # The menu and the command line show one entry per name: the games that share a name must mean one format.
    for definition in DEFINITIONS:
        for fmt in definition.formats:
            first = next(known for known in games.formats() if known.name == fmt.name)
            assert (fmt.label, fmt.suffix, fmt.text, fmt.shows_truth) == \
                (first.label, first.suffix, first.text, first.shows_truth), fmt.name
            assert fmt.suffix.startswith(".") and fmt.label.count("&") == 1
    assert FORMATS == (*games.format_names(), *IMAGE_FORMATS)
    assert not set(games.format_names()) & set(IMAGE_FORMATS)


def test_only_a_game_that_hides_nothing_copies_its_position_and_the_copy_pastes_back() -> None:
    with_clipboard = [definition for definition in DEFINITIONS if definition.clipboard is not None]
    assert with_clipboard
    for definition in with_clipboard:
        clipboard: Any = definition.clipboard
        assert not definition.hidden_information  # the copied text is the true position
        game = definition.referee()()
        rng = random.Random(5)
        for _ in range(7):
            game.play(game.to_move, random_action(game, rng))
        options = clipboard.paste()(clipboard.copy()(game))
        assert definition.referee().from_options(options).truth() == game.truth()
        with pytest.raises(ValueError):
            clipboard.paste()("no position at all")


def test_a_pgn_reads_back_before_any_game_writer_was_imported() -> None:
    # python-chess learns the variants' boards from the games' PGN writers: reading must import them first.
    texts = {}
    for definition in DEFINITIONS:
        if "pgn" in {fmt.name for fmt in definition.formats}:
            texts[definition.title] = export_text(finished_record(definition, steps=40), "pgn")
    assert len(texts) >= 2
    code = ("import sys\n"
            "from app.games.chess_pgn import read_pgn\n"
            "assert not [name for name in sys.modules if name.endswith('.formats')]\n"
            "game = read_pgn(sys.stdin.read())\n"
            "print(type(game.board()).__name__, game.headers['Variant'])\n")
    for title, text in texts.items():
        run = subprocess.run([sys.executable, "-c", code], cwd=ROOT, input=text, capture_output=True, text=True,
                             check=True)
        board, variant = run.stdout.split(maxsplit=1)
        assert variant.strip() == title and board != "Board"  # the variant's own board, not standard chess


# ---- the window's Export menu -------------------------------------------------------------------------------

def _export_menu(window: Any) -> Any:
    game_menu = next(action.menu() for action in window.menuBar().actions() if action.text() == "&Game")
    return next(action.menu() for action in game_menu.actions() if action.text() == "&Export")


@pytest.mark.parametrize("definition", DEFINITIONS, ids=_key)
def test_the_export_menu_offers_what_the_definitions_say(window, monkeypatch, definition: GameDefinition) -> None:
    from app.ui.new_game_dialog import NewGame
    suggested: list[str] = []
    monkeypatch.setattr("app.ui.main_window.QFileDialog.getSaveFileName",
                        lambda *args, **kwargs: suggested.append(args[2]) or ("", ""))
    warnings: list[str] = []
    window._warn = lambda title, text: warnings.append(text)
    labels = [action.text() for action in _export_menu(window).actions()]
    assert labels[:len(games.formats())] == [f"{fmt.label}..." for fmt in games.formats()]
    bot = "random" if "random" in dict(definition.bots) else definition.bots[0][0]
    window.start(NewGame(definition.key, True, bot, "medium", 0, TimeControl(None, 0), "50-move"))
    window.controller.lift_curtain()
    written = {fmt.name for fmt in definition.formats}
    for over in (False, True):
        if over:
            window.controller.resign()
        for fmt in games.formats():
            enabled = window.game_actions[fmt.name].isEnabled()
            if fmt.name in written:
                hidden = fmt.shows_truth and definition.hidden_information and not over
                assert enabled == (not hidden), (fmt.name, over)
                suggested.clear()
                window.exports.export_dialog(fmt.name)
                assert bool(suggested) == (not hidden)  # a file is asked for only when the export may happen
                assert not suggested or suggested[0].endswith(f"game{fmt.suffix}")
            else:
                assert not enabled, (fmt.name, over)  # offered only to the games that write it
                suggested.clear()
                window.exports.export_dialog(fmt.name)  # refused before a file is chosen, naming who writes it
                assert not suggested and "games only" in warnings[-1]
        copy = window.game_actions["copy_position"]
        assert copy.isEnabled() == (definition.clipboard is not None)
        if definition.clipboard is not None:
            assert copy.text() == definition.clipboard.copy_label


def test_the_game_menu_pastes_a_position_for_each_game_that_copies_one(window) -> None:
    game_menu = next(action.menu() for action in window.menuBar().actions() if action.text() == "&Game")
    labels = [action.text() for action in game_menu.actions()]
    pasting = [definition.clipboard.paste_label for definition in DEFINITIONS if definition.clipboard is not None]
    assert pasting and all(label in labels for label in pasting)


if __name__ == "__main__":
    # A picture of the Export menu after a finished game, for a person to look at (not run by pytest).
    from PySide6.QtCore import QPoint
    from PySide6.QtWidgets import QApplication

    from app.ui.main_window import MainWindow
    from app.ui.new_game_dialog import NewGame
    application = QApplication(sys.argv)
    shown = MainWindow()
    shown.resize(1000, 700)
    shown.show()
    shown.start(NewGame(games.default().key, True, "random", "medium", 0, TimeControl(None, 0), "50-move"))
    shown.controller.lift_curtain()
    shown.controller.resign()
    menu = _export_menu(shown)
    menu.popup(QPoint(0, 0))
    application.processEvents()
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "export-menu.png")
    menu.grab().save(str(out.with_name(out.stem + "-menu.png")))
    shown.grab().save(str(out))
    shown.controller.stop()


def test_sightline_export_takes_its_extensions_text_formats_and_help_from_the_games() -> None:
    from app.cli import _suffix_formats, _text_formats, build_parser
    for definition in games.all():  # each game's own formats by their endings, whoever else uses the ending
        suffixes = _suffix_formats(definition.key)
        for fmt in definition.formats:
            assert suffixes[fmt.suffix] == fmt.name
    assert _suffix_formats()[".pgn"] == "pgn"  # an ending two games use means the first game's format
    assert set(_text_formats()) == {fmt.name for fmt in games.formats() if fmt.text}
    parser = build_parser()._subparsers._group_actions[0].choices["export"]  # type: ignore[union-attr]
    text = " ".join(parser.format_help().split())
    for definition in games.all():
        if definition.formats:
            assert f"{definition.title}: {', '.join(fmt.name for fmt in definition.formats)}" in text
