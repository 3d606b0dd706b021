"""The test tiers (tests/conftest.py): every test the quick tier leaves out by name still exists."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def heavy() -> dict[str, int]:
    """conftest's HEAVY, read from its source: importing conftest again would run its set-up a second time (a
    second scratch home)."""
    tree = ast.parse((ROOT / "tests" / "conftest.py").read_text(encoding="utf-8"))
    [value] = [node.value for node in tree.body if isinstance(node, ast.Assign)
               and [getattr(target, "id", None) for target in node.targets] == ["HEAVY"]]
    found = ast.literal_eval(value)
    assert isinstance(found, dict) and found
    return found


def test_every_heavy_test_named_exists() -> None:
    # A renamed test would silently come back into the quick tier and lose its place at the start of a run.
    for node in heavy():
        path, _, name = node.partition("::")
        assert (ROOT / path).is_file(), node
        if not name:  # a whole file
            continue
        function = name.removesuffix("[")
        assert function and re.search(rf"^def {re.escape(function)}\(", (ROOT / path).read_text(encoding="utf-8"),
                                      re.MULTILINE), node
        if name.endswith("["):  # every parameter of it: it must have some
            source = (ROOT / path).read_text(encoding="utf-8")
            before = source[:source.index(f"\ndef {function}(")]
            decorators = before[before.rindex("\n\n"):]
            assert "@pytest.mark.parametrize" in decorators, node
