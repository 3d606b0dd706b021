"""The games registry: every definition points at code that exists and agrees with its referee, and reading
the registry stays cheap (no referee, no python-chess)."""

from __future__ import annotations

import ast
import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from app import games
from app.engine.variants import TITLES, VARIANTS
from app.games.definition import GameDefinition, Lazy

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("definition", games.all(), ids=lambda definition: definition.key)
def test_every_lazy_reference_resolves(definition: GameDefinition) -> None:
    for lazy in definition.lazies():
        assert lazy() is not None, lazy
    assert list(definition.bot_classes()) == [name for name, _ in definition.bots]


@pytest.mark.parametrize("definition", games.all(), ids=lambda definition: definition.key)
def test_definitions_agree_with_their_referees(definition: GameDefinition) -> None:
    referee = definition.referee()
    assert referee.variant == definition.key
    assert definition.seat_names == referee.seat_names
    assert referee.view_type is definition.view()
    assert referee.hidden_information == definition.hidden_information
    assert all(bot.variant == definition.key for bot in definition.bot_classes().values())
    assert (ROOT / "docs" / "rules" / definition.rules_doc).is_file()
    for option in definition.options:
        assert option.default is None or not option.choices or option.default in option.choices


def test_names_are_the_engines_variants() -> None:
    # The engine's tables are filled from the registry; what both must say is written out here.
    expected = {"rbc": "Reconnaissance Blind Chess", "blind": "Blind Chess", "minit": "MinitChess",
                "cloak": "Cloak and Dagger", "telepathy": "Telepathy Chess",
                "splitbrain": "Split-Brain Chess", "coop": "Cooperative Chess 2",
                "coop_solitaire": "Cooperative Chess 2 Solitaire", "booster": "Booster Chess", "gravity": "Gravity Chess",
                "parade": "Parade Chess Solitaire", "neighbour": "Neighbour Chess Solitaire"}
    assert list(TITLES.items()) == list(expected.items())
    assert list(games.names()) == list(expected) and set(VARIANTS) == set(expected)
    assert games.default() is games.all()[0]
    assert [definition.title for definition in games.all()] == list(expected.values())
    with pytest.raises(KeyError, match="unknown game 'go'"):
        games.get("go")


def test_lazy_resolves_once_and_says_what_is_wrong() -> None:
    lazy = Lazy("app.games.definition:SeatSpec")
    assert lazy() is lazy() and lazy == Lazy("app.games.definition:SeatSpec")
    with pytest.raises(ModuleNotFoundError):
        Lazy("app.games.no_such_module:X")()
    with pytest.raises(ValueError):
        Lazy("no colon")


def _imported_after(code: str) -> set[str]:
    run = subprocess.run([sys.executable, "-c", code + "\nimport sys\nprint('\\n'.join(sys.modules))"],
                         cwd=ROOT, capture_output=True, text=True, check=True)
    return set(run.stdout.split())


def test_reading_the_registry_imports_no_game_code() -> None:
    modules = _imported_after("from app import games\n"
                              "[(d.title, d.seat_names, d.bots, d.formats) for d in games.all()]\n"
                              "games.format_names()")
    assert "app.games.rbc" in modules  # the definitions were read...
    heavy = {"chess", "app.games.rbc.rules", "app.games.blind.rules", "app.games.minit.rules", "app.engine.core",
             "app.engine.inference", "app.exports", "app.games.chess_pgn",
             *(f"{entry}.formats" for entry in games.ENTRIES)}  # export formats load when first used
    assert not heavy & modules  # ...and nothing they point at was imported
    assert not {name for name in modules if name.startswith("app.bots")}


def test_the_scene_descriptions_and_typed_moves_need_no_qt() -> None:
    modules = _imported_after("import app.games.scene, app.games.describe, app.games.move_input")
    assert {"app.games.scene", "app.games.describe", "app.games.move_input"} <= modules
    assert not {name for name in modules if name == "PySide6" or name.startswith(("PySide6.", "app.ui"))}


def test_the_engine_does_not_import_the_registry() -> None:
    modules = _imported_after("import app.engine.core, app.engine.record, app.engine.variants")
    assert "app.games" not in modules


@pytest.mark.parametrize("definition", games.all(), ids=lambda definition: definition.key)
def test_truth_is_the_position_as_it_stands(definition: GameDefinition) -> None:
    game = definition.referee()()
    truth = game.truth()
    assert truth is not None and truth == game.truth()
    board = getattr(game, "board", None)
    shown = getattr(truth, "board", truth)  # the truth is a chess board, or holds one beside other facts
    if board is not None:  # a chess board: copied without its history, so later play leaves it alone
        assert shown is not board and shown.fen() == board.fen() and not shown.move_stack


@pytest.mark.parametrize("definition", games.all(), ids=lambda definition: definition.key)
def test_installers_are_handed_every_module_the_lazy_references_load(definition: GameDefinition) -> None:
    # a bundler follows import statements only: the spec hands it the modules the registry names by string, a
    # list made from the references themselves (nothing repeats them as imports)
    spec = importlib.util.spec_from_file_location("bundle_policy_for_test", ROOT / "packaging" / "bundle_policy.py")
    assert spec is not None and spec.loader is not None
    policy = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(policy)
    named = {lazy.module for lazy in definition.lazies()} | set(definition.preload)
    assert named and named <= set(policy.named_modules())
    assert set(games.ENTRIES) <= set(policy.named_modules())
    assert "bundle_policy.named_modules()" in (ROOT / "packaging" / "sightline.spec").read_text(encoding="utf-8")
    # the package that defines the game (a form of another game may live inside that game's package)
    entry = next(entry for entry in games.ENTRIES if importlib.import_module(entry).DEFINITION is definition)
    package = (ROOT / entry.replace(".", "/") / "__init__.py").read_text(encoding="utf-8")
    assert "_named_for_bundlers" not in package


_FACTS = {"variant", "key", "seat_names", "seat_teams", "hidden_information", "SEATS", "TEAMS", "SEAT_NAMES"}


def _facts_said_again(path: Path) -> list[str]:
    """Assignments in ``path`` of a game's own facts (its key, seats, teams, hidden information) to a literal
    instead of reading them from the definition."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = {target.id for target in targets if isinstance(target, ast.Name)}
            literal = isinstance(node.value, ast.Constant) or (
                isinstance(node.value, ast.Tuple) and all(isinstance(item, ast.Constant) for item in node.value.elts))
            if names & _FACTS and literal and not (isinstance(node.value, ast.Constant) and node.value.value is None):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_each_games_key_seats_and_teams_are_said_once_in_its_definition() -> None:
    """The referee, the presenter and the bots read the key, the seats, the teams and whether the game hides
    information from the definition (issue 27): no module of a game's package writes them again."""
    packages = [ROOT / "app" / "games" / entry.rpartition(".")[2] for entry in games.ENTRIES]
    packages += sorted(path.parent for path in (ROOT / "tests" / "games").glob("*/__init__.py"))
    assert len(packages) >= 10
    modules = [path for package in packages for path in sorted(package.glob("*.py")) if path.name != "__init__.py"]
    said_again = [line for path in modules for line in _facts_said_again(path)]
    assert not said_again, "read these from the game's DEFINITION instead:\n" + "\n".join(said_again)
    assert _facts_said_again(ROOT / "app" / "games" / "definition.py") == []  # the reader counts what it should
    sample = ROOT / "tests" / "games" / "sixteen" / "rules.py"
    assert not _facts_said_again(sample) and "DEFINITION.key" in sample.read_text(encoding="utf-8")
