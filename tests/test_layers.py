"""The floors of docs/architecture.md: every module of app/ imports only from its own floor or the floors below,
and no two modules import each other, directly or round a longer circle.

Imports are read as text (``ast``), wherever they stand in a module (inside functions and ``TYPE_CHECKING`` blocks
too), and so are module paths named in strings (``Lazy("app.games.rbc.rules:ReconChess")``, ``importlib``):
they load the module all the same. Docstrings are left out. A package that names its own members by string (the
registry its games' packages, a game's definition its referee and presenter) while they read the package's plain
data is the one loop allowed: the package never runs them when it is imported.
"""

from __future__ import annotations

import ast
import functools
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "app"

FLOORS: tuple[tuple[int, tuple[str, ...]], ...] = (
    (1, ("app/engine/", "app/lifetime.py")),
    (2, ("app/bots/", "app/storage.py")),
    (3, ("app/games/",)),
    (4, ("app/hosting/", "app/net/", "app/exports.py", "app/inference_jobs.py")),
    (5, ("app/ui/",)),
    (6, ("app/cli.py",)),
    (7, ("app/__main__.py", "app/__init__.py", "app/assets/")),
)
"""Each floor and the paths on it, from the bottom up (the picture in docs/architecture.md)."""

_MODULE_PATH = re.compile(r"app(\.\w+)+")


def floor_of(relative: str) -> int:
    for floor, prefixes in FLOORS:
        if relative.startswith(prefixes):
            return floor
    raise AssertionError(f"{relative} stands on no floor: add it to FLOORS (and to docs/architecture.md)")


def _modules() -> dict[str, Path]:
    """Dotted module name -> file, for every module of app/."""
    found = {}
    for path in sorted(APP.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _docstring_ids(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                ids.add(id(first.value))
    return ids


def imports_of(name: str, path: Path, known: set[str]) -> set[str]:
    """The modules of app/ that module ``name`` (file ``path``) imports, in any spelling."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    docstrings = _docstring_ids(tree)
    wanted: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            wanted.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[:len(package) - node.level + 1] if node.level else []
            module = ".".join(base + ([node.module] if node.module else []))
            submodules = {f"{module}.{alias.name}" for alias in node.names} & known
            wanted.update(submodules)  # "from app.engine import variants" imports the module, not its package's
            if len(submodules) < len(node.names):  # names defined in the module itself
                wanted.add(module)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
            text = node.value.partition(":")[0]
            if _MODULE_PATH.fullmatch(text):
                wanted.add(text)
    found = set()
    for module in wanted:
        # the module itself if it is one of app's, else the package it names a member of
        while module and module not in known:
            module = module.rpartition(".")[0]
        if module and module != name and module != "app":
            found.add(module)
    return found


def graph() -> dict[str, set[str]]:
    """Module -> the modules of app/ it imports (a fresh copy: the files are read once a run, see :func:`_graph`)."""
    return {name: set(imported) for name, imported in _graph().items()}


@functools.cache
def _graph() -> dict[str, frozenset[str]]:
    modules = _modules()
    known = set(modules)
    return {name: frozenset(imports_of(name, path, known)) for name, path in modules.items()}


def _relative(name: str, modules: dict[str, Path]) -> str:
    return modules[name].relative_to(ROOT).as_posix()


def upward_imports(edges: dict[str, set[str]]) -> list[str]:
    """The imports in ``edges`` (module -> modules it imports) that go to a higher floor."""
    modules = _modules()
    upward = []
    for name, imported in sorted(edges.items()):
        here = floor_of(_relative(name, modules))
        for module in sorted(imported):
            there = floor_of(_relative(module, modules))
            if there > here:
                upward.append(f"{_relative(name, modules)} (floor {here}) imports {module} (floor {there})")
    return upward


def test_every_import_goes_to_the_same_floor_or_below() -> None:
    upward = upward_imports(graph())
    assert not upward, "imports that run back up:\n" + "\n".join(upward)


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm), each sorted.

    >>> circles({"a": {"b"}, "b": {"a"}, "c": {"a"}})
    [['a', 'b']]
    """
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for target in sorted(edges.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return sorted(found)


def test_no_two_modules_import_each_other() -> None:
    edges = graph()
    # A package's __init__ importing its own submodules by name (the registry's ENTRIES, a game's Lazy
    # references) and those submodules reading the package's definition is the one allowed loop: the package's
    # code never runs the submodules at import. Leave the package-to-own-member arrows out.
    edges = {name: {module for module in imported if not module.startswith(name + ".")}
             for name, imported in edges.items()}
    found = circles(edges)
    assert not found, "import circles:\n" + "\n".join(" <-> ".join(group) for group in found)


def test_the_checks_see_an_upward_import_and_a_circle() -> None:
    assert floor_of("app/engine/core.py") == 1 and floor_of("app/ui/main_window.py") == 5
    edges = graph()
    assert "app.games.rbc.rules" in edges["app.games.rbc.presenter"]  # a plain import
    assert "app.games.rbc.rules" in edges["app.games.rbc"]  # a Lazy("module:attribute") string
    assert upward_imports({"app.engine.core": {"app.ui.main_window"}}) == [
        "app/engine/core.py (floor 1) imports app.ui.main_window (floor 5)"]
    assert upward_imports({"app.ui.main_window": {"app.engine.core"}}) == []
    assert circles({"x": {"y"}, "y": {"z"}, "z": {"x"}}) == [["x", "y", "z"]]
