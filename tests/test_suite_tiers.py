"""The test tiers (tests/conftest.py): every test the quick tier leaves out by name still exists."""

from __future__ import annotations

import re
from pathlib import Path

from tests.conftest import HEAVY

ROOT = Path(__file__).resolve().parent.parent


def test_every_heavy_test_named_exists() -> None:
    # A renamed test would silently come back into the quick tier and lose its place at the start of a run.
    for node in HEAVY:
        path, _, name = node.partition("::")
        assert (ROOT / path).is_file(), node
        function = name.removesuffix("[")
        assert function and re.search(rf"^def {re.escape(function)}\(", (ROOT / path).read_text(encoding="utf-8"),
                                      re.MULTILINE), node
        if name.endswith("["):  # every parameter of it: it must have some
            source = (ROOT / path).read_text(encoding="utf-8")
            before = source[:source.index(f"\ndef {function}(")]
            decorators = before[before.rindex("\n\n"):]
            assert "@pytest.mark.parametrize" in decorators, node
