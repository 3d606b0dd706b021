"""A game lives in one place: outside its own modules, the app should not say a game's name.

Two rules, each with its allow-list printed when it fails:

- **No quoted names.** Outside each game's package (``app/games/<name>/``) and the modules of
  :data:`ALLOWED`, no file of ``app/`` quotes a game's name (``"rbc"``, ``'blind'`` ...) in its code or its
  comments. Docstrings are left out: they are documentation, and their doctests name a game to have one to
  run (``GameRecord("minit")``), which decides nothing in the app. Comments are counted: a comment that needs
  a game's name usually sits next to code that decides by it.
- **No imports of a game's code.** Outside the same places, no file of ``app/`` imports a game's package
  (``app.games.<name>``), its referee module (``app.engine.<name>``) or a module of :data:`ALLOWED`, in any
  spelling (``import app.games.rbc.rules``, ``from app.engine import rbc``, ``from .rbc import X``, or a module
  path in a string outside docstrings, as ``importlib`` and ``Lazy("app.games.rbc.rules:ReconChess")`` take it),
  unless :data:`IMPORTS_ALLOWED` says why. The rest of the app reaches a game through the registry (``app.games``).
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

from app import games

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "app"

GAMES = tuple(games.names())  # every registered game, so a new one's names are counted too

ALLOWED: set[str] = set()
"""Modules outside the games' packages (``app/games/<name>/``) that belong to one game: none. A game's referee,
move generation, inference, bots, belief kit, formats and presenter all live in its package."""

IMPORTS_ALLOWED = {
    "app/games/__init__.py":
        "the registry: its entry list names every game's package, and imports them where only installers look",
}
"""Files outside a game's own places that may import a game's code, each with the reason."""

MAX_NAMED = 0  # lower it with every step that removes names (the test says when); issue 13 brings it to 0

_QUOTED = re.compile(r"""(["'])(%s)\1""" % "|".join(GAMES))


def _relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def _own_place(relative: str) -> bool:
    return any(relative.startswith(f"app/games/{game}/") for game in GAMES) or relative in ALLOWED


def _counted(path: Path) -> bool:
    return not _own_place(_relative(path))


@functools.cache
def _parsed(source: str) -> ast.Module:
    """``ast.parse(source)``, once a run for each text: the checks below read the same files (never change the
    trees)."""
    return ast.parse(source)


def _docstrings(tree: ast.AST) -> list[ast.Constant]:
    """Every module, class and function docstring of ``tree``."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) \
                    and isinstance(first.value.value, str):
                found.append(first.value)
    return found


def _without_docstrings(source: str) -> str:
    """``source`` with the lines of every module, class and function docstring blanked (line numbers kept)."""
    lines = source.splitlines()
    for docstring in _docstrings(_parsed(source)):
        for index in range(docstring.lineno - 1, docstring.end_lineno or docstring.lineno):
            lines[index] = ""
    return "\n".join(lines)


_MODULE_PATH = re.compile(r"app(\.\w+)+")


def named_places() -> dict[str, int]:
    """File -> how many times its code or comments quote a game's name ("rbc", 'blind', ...), for every
    counted file of app/."""
    counts = {}
    for path in sorted(APP.rglob("*.py")):
        if _counted(path):
            found = len(_QUOTED.findall(_without_docstrings(path.read_text(encoding="utf-8"))))
            if found:
                counts[_relative(path)] = found
    return counts


def _game_module(module: str) -> bool:
    """Whether ``module`` (dotted) is a game's own code: its package, its referee module or an ALLOWED module."""
    own = {path[:-len(".py")].replace("/", ".") for path in ALLOWED}
    own |= {f"app.engine.{game}" for game in GAMES}
    return module in own or any(module == f"app.games.{game}" or module.startswith(f"app.games.{game}.")
                                for game in GAMES)


def _imported_modules(path: Path, source: str | None = None) -> set[str]:
    """Every module ``path`` imports, as absolute dotted names (``from P import N`` counts ``P`` and ``P.N``,
    since ``N`` may be a module), wherever the import stands (inside functions too), and every module of the app
    a string names (``"app.x.y"`` or ``"app.x.y:attribute"``, docstrings left out): those are imported by
    name. ``source`` stands for the file's text when given."""
    package = _relative(path)[:-len(".py")].split("/")[:-1]  # the package a relative import starts from
    found: set[str] = set()
    tree = _parsed(path.read_text(encoding="utf-8") if source is None else source)
    documentation = {id(docstring) for docstring in _docstrings(tree)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in documentation:
            module = node.value.partition(":")[0]
            if _MODULE_PATH.fullmatch(module):
                found.add(module)
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        if isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return found


def game_imports() -> dict[str, list[str]]:
    """File -> the game modules it imports, for every file of app/ outside the games' own places."""
    found = {}
    for path in sorted(APP.rglob("*.py")):
        if _counted(path):
            modules = sorted(module for module in _imported_modules(path) if _game_module(module))
            if modules:
                found[_relative(path)] = modules
    return found


def test_game_names_are_quoted_in_fewer_places_only() -> None:
    counts = named_places()
    total = sum(counts.values())
    listing = "\n".join(f"  {count:3d} {path}" for path, count in sorted(counts.items(), key=lambda item: -item[1]))
    allowed = "\n".join(f"  {path}" for path in sorted(ALLOWED))
    assert total <= MAX_NAMED, f"{total} quoted game names outside the games' own modules (at most {MAX_NAMED}):\n" \
                               f"{listing}\n(docstrings are not counted; the games' own modules:\n{allowed})"
    # Equal, not only at most: a step that removes names lowers the constant, so that they cannot come back.
    assert total == MAX_NAMED, f"only {total} quoted game names are left: lower MAX_NAMED to {total}"


def test_only_the_allowed_files_import_a_games_code() -> None:
    found = game_imports()
    unexpected = {path: modules for path, modules in found.items() if path not in IMPORTS_ALLOWED}
    allowed = "\n".join(f"  {path}: {reason}" for path, reason in sorted(IMPORTS_ALLOWED.items()))
    listing = "\n".join(f"  {path}: {', '.join(modules)}" for path, modules in sorted(unexpected.items()))
    assert not unexpected, f"these files import a game's code; reach it through the registry (app.games), or " \
                           f"add the file to IMPORTS_ALLOWED with the reason:\n{listing}\nallowed now:\n{allowed}"
    stale = sorted(set(IMPORTS_ALLOWED) - set(found))
    assert not stale, f"these files no longer import a game's code: take them off IMPORTS_ALLOWED: {stale}"


def test_the_import_guard_reads_every_spelling() -> None:
    path = APP / "engine" / "belief.py"  # a file in app/engine, so that relative imports resolve as there
    assert "app.engine.rbc" in _imported_modules(path, "from .rbc import ReconChessView\n")  # relative, as there
    assert "app.games.rbc" in _imported_modules(APP / "games" / "__init__.py")  # from . import blind, minit, rbc
    strings = '"""See "app.games.minit.rules"."""\nLATER = ("app.games.blind.rules", "app.games.rbc.players:RECONCHESS")\n'
    assert _imported_modules(path, strings) == {"app.games.blind.rules", "app.games.rbc.players"}
    assert _game_module("app.games.rbc.rules") and _game_module("app.games.minit.presenter")
    assert _game_module("app.games.rbc.bots") and not _game_module("app.games.presenter")
    assert not _game_module("app.games") and not _game_module("app.engine.core")
    source = 'def f():\n    """Say "rbc"."""\n    return "blind"  # or \'minit\'\n'
    assert len(_QUOTED.findall(_without_docstrings(source))) == 2


def test_the_registry_entries_name_the_games_without_quoting_them() -> None:
    registry = (APP / "games" / "__init__.py").read_text(encoding="utf-8")
    assert not _QUOTED.search(registry)
    for entry in games.ENTRIES:  # each game's own package (a game's solitaire may live inside the game's)
        assert entry.startswith("app.games.") and (ROOT / entry.replace(".", "/") / "__init__.py").is_file()


def test_the_allow_lists_name_existing_modules() -> None:
    assert all((ROOT / path).is_file() for path in ALLOWED)
    assert all((ROOT / path).is_file() for path in IMPORTS_ALLOWED)


def test_only_the_registry_may_import_a_games_code() -> None:
    """Every game's code is home (issue 27): nothing outside the games' packages belongs to one game, and only the
    registry imports them."""
    assert not ALLOWED
    assert set(IMPORTS_ALLOWED) == {"app/games/__init__.py"}


def _game_class_names() -> set[str]:
    """The class names of every registered game's referee and view (``ReconChess``, ``MinitChessView`` ...)."""
    return {lazy.path.partition(":")[2] for definition in games.all() for lazy in (definition.referee,
                                                                                    definition.view)}


def class_name_uses() -> dict[str, list[str]]:
    """File -> the game classes its code names (an ``isinstance`` test, an annotation, an import), for every
    counted file outside the allow-lists; docstrings, comments and strings are not code."""
    import io
    import tokenize
    names = _game_class_names()
    found: dict[str, list[str]] = {}
    for path in sorted(APP.rglob("*.py")):
        relative = _relative(path)
        if not _counted(path) or relative in IMPORTS_ALLOWED:
            continue
        tokens = tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
        used = sorted({token.string for token in tokens if token.type == tokenize.NAME and token.string in names})
        if used:
            found[relative] = used
    return found


def test_no_file_outside_a_game_branches_on_its_classes() -> None:
    """Deciding by a game's referee or view class (``isinstance(view, ReconChessView)``) is branching on the game
    as much as quoting its name: outside the games' own places and the import allow-list, no code names them."""
    assert _game_class_names() >= {"ReconChess", "MinitChessView"}  # the names really are the games' classes
    found = class_name_uses()
    listing = "\n".join(f"  {path}: {', '.join(names)}" for path, names in found.items())
    assert not found, f"code outside the games' own places names their classes:\n{listing}\n" \
                      f"allowed to (with the reason):\n" + "\n".join(f"  {path}: {why}"
                                                                       for path, why in IMPORTS_ALLOWED.items())
