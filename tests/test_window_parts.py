"""The main window is split by job (issue 27): each part a module of its own, none of them too big, none
importing the window back (the window hands each part what it needs)."""

from __future__ import annotations

import ast
from pathlib import Path

UI = Path(__file__).resolve().parent.parent / "app" / "ui"
PARTS = ["main_window.py", *(name for name in ["curtain.py"] if (UI / name).is_file()),
         *sorted(path.name for path in UI.glob("window_*.py"))]
CLASS_LIMIT = 600
FUNCTION_LIMIT = 120


def _tree(name: str) -> ast.Module:
    return ast.parse((UI / name).read_text(encoding="utf-8"))


def test_no_class_or_function_of_the_window_is_too_big() -> None:
    too_big = []
    for name in PARTS:
        for node in ast.walk(_tree(name)):
            size = (node.end_lineno or node.lineno) - node.lineno + 1 if isinstance(node, ast.stmt) else 0
            if isinstance(node, ast.ClassDef) and size > CLASS_LIMIT \
                    or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and size > FUNCTION_LIMIT:
                too_big.append(f"{name}: {node.name} ({size} lines)")
    assert not too_big, too_big


def test_no_part_of_the_window_imports_the_window() -> None:
    back = []
    for name in PARTS[1:]:
        for node in ast.walk(_tree(name)):
            modules = [alias.name for alias in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            back += [f"{name} imports {module}" for module in modules if module.endswith("main_window")]
    assert not back, back
    assert len(PARTS) > 5  # the parts are there to be looked at
