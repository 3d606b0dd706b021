"""The board widget's parts keep the examples in their documentation true (the suite collects the doctests of
app/ui/pieces.py only, so these run here)."""

from __future__ import annotations

import doctest
import os
from types import ModuleType

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

from app.ui import board_annotations, board_drag, board_geometry, cards  # noqa: E402


@pytest.mark.parametrize("module", [board_annotations, board_drag, board_geometry, cards], ids=lambda m: m.__name__)
def test_documented_examples(module: ModuleType) -> None:
    result = doctest.testmod(module)
    assert result.attempted > 0 and result.failed == 0


def test_geometry_round_trips_every_square_both_ways_round() -> None:
    for flipped in (False, True):
        geometry = board_geometry.BoardGeometry.fit(5, 6, flipped, 333, 401)
        assert geometry.board_rect().width() == 5 * geometry.size
        for file in range(5):
            for rank in range(6):
                rect = geometry.square_rect((file, rank))
                assert geometry.square_at(rect.center()) == (file, rank)
        bottom_left = geometry.square_at(geometry.board_rect().bottomLeft())
        assert bottom_left == ((4, 5) if flipped else (0, 0))
