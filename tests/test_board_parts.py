"""The board widget's parts keep the examples in their documentation true (the suite collects the doctests of
app/ui/pieces.py only, so these run here)."""

from __future__ import annotations

import doctest
import os
from types import ModuleType

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

from app.ui import board_animation, board_annotations, board_drag, board_geometry, board_model, cards  # noqa: E402


@pytest.mark.parametrize("module", [board_animation, board_annotations, board_drag, board_geometry, board_model, cards],
                         ids=lambda m: m.__name__)
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


# The parts the board widget owns (issue 27): each does its job from the shared state alone, and none imports the
# widget back.

def test_no_part_of_the_board_imports_the_widget() -> None:
    import ast
    from pathlib import Path
    parts = sorted(Path(board_model.__file__).parent.glob("board_*.py"))
    assert len(parts) >= 10
    for path in parts:
        if path.name == "board_widget.py":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = [alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names]
        names += [f"{node.module}.{alias.name}" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)
                  for alias in node.names]
        assert not [name for name in names if "board_widget" in name], path.name


def test_the_state_tells_a_move_press_from_a_pick() -> None:
    state = board_model.BoardState(files=8, ranks=8, sense_enabled=True)
    assert not state.move_press((4, 4))  # no moves: every press is a pick
    state.targets = {(6, 0): {(5, 2): []}}
    assert state.move_press((6, 0)) and not state.move_press((4, 4))
    state.selected = (6, 0)
    assert state.move_press((4, 4))  # a piece chosen: the press is the move's (or drops the choice)
    assert state.may_go((6, 0), (5, 2)) and not state.may_go((6, 0), (6, 0)) and not state.may_go((6, 0), (4, 4))
    assert state.pick_window((0, 0)) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    state.sense_window = lambda square: [square, (square[0] + 1, square[1]), (9, 9)]  # off-board squares dropped
    assert state.pick_window((7, 7)) == [(7, 7)]
    state.proposed = (3, 3)
    assert state.proposed_window() == [(3, 3), (4, 3)] and state.something_to_drop()


def test_glides_skip_the_dropped_piece_and_pieces_last_seen(qtbot: object) -> None:
    from PySide6.QtCore import QObject
    owner, redraws = QObject(), []
    glides = board_animation.Glides(owner, 180, lambda: redraws.append(1), lambda: True)
    old = {(4, 1): "P", (6, 0): "N"}
    glides.pieces_changed(old, {(4, 3): "P", (6, 0): "N"}, (), ())
    assert glides.pieces == [("P", (4, 1), (4, 3))] and glides.progress() < 1
    glides.pieces_changed(old, {(4, 3): "P", (6, 0): "N"}, (), (), dropped=((4, 1), (4, 3)))
    assert glides.pieces == []  # the dragged piece is already where it goes
    glides.pieces_changed(old, {(4, 3): "P", (6, 0): "N"}, (), [(4, 3)])
    assert glides.pieces == []  # shown where it was last seen: nobody watched it go there
    glides.pieces_changed(old, {(4, 3): "P", (6, 0): "N"}, (), ())
    glides.set_ms(0)
    assert glides.pieces == [] and glides.progress() == 1.0 and redraws
    hidden = board_animation.Glides(owner, 180, lambda: None, lambda: False)
    hidden.pieces_changed(old, {(4, 3): "P", (6, 0): "N"}, (), ())
    assert hidden.pieces == []  # a board nobody sees does not animate


def test_zone_ids_must_differ_and_an_empty_scene_lays_nothing_out() -> None:
    from app.games.scene import PileZone
    from app.ui.board_zones import BoardZones, extra_squares
    zones = BoardZones(board_model.BoardState(files=8, ranks=8))
    assert zones.layout(400, 400) is None and zones.item_at(None, (0, 0)) is None and extra_squares([]) == (0, 0)
    pile = PileZone(id="draw", place="right", label="Draw", count=3)
    with pytest.raises(ValueError, match="zone ids must differ"):
        zones.differs([pile, pile])
    assert zones.differs([pile])
    zones.replace([pile])
    assert not zones.differs([pile])
    layout = zones.layout(400, 500)
    assert layout is not None and zones.items(layout) == [("draw", 0)]
    rect = zones.item_rect(layout, ("draw", 0))
    assert rect is not None and zones.item_at(layout, rect.center()) == ("draw", 0)


def test_the_cursor_words_say_what_enter_would_do() -> None:
    from app.ui.board_words import cursor_words, describe_square
    state = board_model.BoardState(files=8, ranks=8, pieces={(6, 0): "N"}, targets={(6, 0): {(5, 2): []}})
    state.markers = [board_model.Marker("reveal", [(5, 2)], "t4")]
    assert describe_square(state, (5, 2)) == "f3: enemy piece seen (t4)"
    assert cursor_words(state, (6, 0)) == "g1: white knight; it may move (Enter to choose it)"
    state.selected = (6, 0)
    assert cursor_words(state, (5, 2)) == "f3, empty: enemy piece seen (t4); the chosen piece may move here (Enter)"
