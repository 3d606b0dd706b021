"""Off-board zones: a presenter puts them in a scene, the board widget draws them beside the board (a hand shows
faces to its owner and backs to the others, a pile its count, a track its marker, a stack its height), and a
click on an item comes back to the presenter as ``(zone id, index)``."""

from __future__ import annotations

import os
import sys

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from dataclasses import dataclass, field  # noqa: E402
from typing import Any, ClassVar  # noqa: E402

import pytest  # noqa: E402
from PySide6.QtCore import QPoint, QPointF, QRect, QRectF, Qt  # noqa: E402
from PySide6.QtGui import QColor, QImage  # noqa: E402

from app.engine.core import Action  # noqa: E402
from app.games.presenter import InputError, PresenterBase, presenter_for  # noqa: E402
from app.games.scene import (  # noqa: E402
    BoardScene,
    Card,
    CardRowZone,
    GridZone,
    HandZone,
    PileZone,
    StackZone,
    TrackZone,
    TrayZone,
)
from app.ui import cards  # noqa: E402
from app.ui.board_widget import BoardWidget  # noqa: E402
from app.ui.zones import describe_item  # noqa: E402

HAND = (Card("10", "H"), Card("Q", "S"), Card("2", "D"))


@dataclass(frozen=True)
class PlayCard(Action):
    """The test game's one action: play card ``index`` of the hand, or draw (``index`` -1)."""

    index: int
    kind: ClassVar[str] = "play"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.kind, "index": self.index}


@dataclass
class CardView:
    """What one seat of the test game knows: its seat and the hands (a real view would hold its own hand only)."""

    seat: int
    hands: dict[int, tuple[Card, ...]] = field(default_factory=lambda: {0: HAND, 1: HAND[:2]})
    draw: int = 23
    coins: int = 4
    stack: int = 3


class CardPresenter(PresenterBase):
    """A presenter as a card game would write one: hands seen by the seat, a pile, a track, a stack."""

    key = "cards-test"

    def scene(self, view: Any) -> BoardScene:
        return BoardScene(files=6, ranks=6, pieces={(0, 0): "R"}, zones=[
            HandZone.seen_by("hand-1", view.hands[1], owners={1}, seat=view.seat, place="above", label="North"),
            HandZone.seen_by("hand-0", view.hands[0], owners={0}, seat=view.seat, place="below", label="South"),
            PileZone(id="draw", place="right", label="Draw", count=view.draw),
            TrackZone(id="coins", place="below", label="Coins", positions=tuple(str(i) for i in range(7)),
                      marker=view.coins),
            StackZone(id="checkers", stacks=(((0, 0), view.stack),)),
        ])

    def on_zone(self, view: Any, zone_id: str, index: int) -> Action:
        if zone_id == f"hand-{view.seat}":
            return PlayCard(index)
        if zone_id == "draw":
            return PlayCard(-1)
        raise InputError("play a card of your own hand or draw one")


# ---------------------------------------------------------------------------------------------------- the scene


def test_a_hand_shows_faces_to_its_owners_and_backs_to_the_others() -> None:
    own = HandZone.seen_by("h", HAND, owners={0}, seat=0)
    other = HandZone.seen_by("h", HAND, owners={0}, seat=1)
    nobody = HandZone.seen_by("h", HAND, owners={0}, seat=None)
    assert own.cards == HAND and other.cards == nobody.cards == (None, None, None)
    assert own.private_to == other.private_to == frozenset({0}) and own.private


def test_zones_check_what_they_are_given() -> None:
    assert Card.parse("10h") == Card("10", "H") and Card.parse("QS").code == "QS"
    with pytest.raises(ValueError):
        Card("1", "H")
    with pytest.raises(ValueError):
        Card("Q", "X")
    with pytest.raises(ValueError):
        PileZone(id="p", count=-1)
    with pytest.raises(ValueError):
        TrackZone(id="t", positions=("a", "b"), marker=2)
    with pytest.raises(ValueError):
        GridZone(id="g", rows=("a",), columns=("x", "y"), marks=(("",),))
    with pytest.raises(ValueError):
        HandZone(id="h", place="under")
    with pytest.raises(ValueError):
        StackZone(id="s", place="left")
    with pytest.raises(ValueError):
        HandZone(id="")
    grid = GridZone(id="g", rows=("a", "b"), columns=("x", "y", "z"))
    assert grid.marks == (("", "", ""), ("", "", "")) and grid.item_count() == 6
    assert StackZone(id="s", stacks=(((1, 2), 3),)).heights() == {(1, 2): 3}


def test_zones_round_trip_through_the_presenter() -> None:
    presenter = CardPresenter()
    for seat in (0, 1):
        scene = presenter.scene(CardView(seat))
        assert [zone.id for zone in scene.private_zones()] == ["hand-1", "hand-0"]
        own, other = scene.zone(f"hand-{seat}"), scene.zone(f"hand-{1 - seat}")
        assert isinstance(own, HandZone) and isinstance(other, HandZone)
        assert None not in own.cards and set(other.cards) == {None}
        for index in range(own.item_count()):
            assert presenter.on_zone(CardView(seat), own.id, index) == PlayCard(index)
        assert presenter.on_zone(CardView(seat), "draw", 0) == PlayCard(-1)
        with pytest.raises(InputError):
            presenter.on_zone(CardView(seat), other.id, 0)
    with pytest.raises(KeyError):
        presenter.scene(CardView(0)).zone("nowhere")


@pytest.mark.parametrize("key", ["rbc", "blind", "minit"])
def test_the_chess_games_have_no_zones_and_refuse_zone_clicks(key: str) -> None:
    from app import games
    presenter, definition = presenter_for(key), games.get(key)
    view = definition.view().from_observations(definition.referee()().observations(0))
    assert presenter.scene(view).zones == []
    with pytest.raises(InputError):
        presenter.on_zone(view, "hand", 0)


# ---------------------------------------------------------------------------------------------------- drawing


def _widget(qtbot: Any, seat: int, **view: Any) -> BoardWidget:
    widget = BoardWidget()
    qtbot.addWidget(widget)
    widget.resize(700, 700)
    widget.set_scene(CardPresenter().scene(CardView(seat, **view)))
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def _image(widget: BoardWidget) -> QImage:
    return widget.grab().toImage().convertToFormat(QImage.Format.Format_RGB32)


def _items(widget: BoardWidget, zone_id: str) -> tuple[Any, ...]:
    layout = widget.zone_layout()
    assert layout is not None
    return next(placed.items for placed in layout.zones if placed.zone.id == zone_id)


def _colour_at(image: QImage, point: QPointF) -> QColor:
    return image.pixelColor(round(point.x()), round(point.y()))


def _is_back(colour: QColor) -> bool:
    """The back's blue field (or its lighter diamonds)."""
    return colour.blue() > colour.red() + 40


def test_the_owner_sees_faces_and_the_other_seat_backs(qtbot: Any) -> None:
    for seat in (0, 1):
        widget = _widget(qtbot, seat)
        image = _image(widget)
        for hand in (0, 1):
            for rect in _items(widget, f"hand-{hand}"):
                # A point in the card's lower middle: a suit sign or the face's paper, never the back's blue.
                colour = _colour_at(image, QPointF(rect.center().x(), rect.top() + rect.height() * 0.7))
                assert _is_back(colour) == (hand != seat), (seat, hand)
        red_ten = _items(widget, "hand-0")[0]
        if seat == 0:  # the ten of hearts' big heart is red
            colour = _colour_at(image, QPointF(red_ten.center()))
            assert colour.red() > 150 and colour.green() < 90


def test_zones_stand_beside_the_board_inside_the_widget(qtbot: Any) -> None:
    widget = _widget(qtbot, 0)
    layout = widget.zone_layout()
    assert layout is not None
    board = widget.board_rect()
    assert board == layout.board and widget.square_size() == layout.square
    whole = QRect(0, 0, widget.width(), widget.height())
    for placed in layout.zones:
        assert whole.contains(placed.band.toAlignedRect()), placed.zone.id
        assert not placed.band.intersects(board.toRectF().adjusted(0.5, 0.5, -0.5, -0.5)), placed.zone.id
        for item in placed.items:
            assert placed.band.contains(item), placed.zone.id
    assert {placed.zone.id for placed in layout.zones} == {"hand-1", "hand-0", "draw", "coins"}  # the stack's on it


def test_a_pile_shows_its_count_a_track_its_marker_and_a_stack_its_height(qtbot: Any) -> None:
    base = _widget(qtbot, 0)
    first = _image(base)
    board = base.board_rect()
    layout = base.zone_layout()
    assert layout is not None
    pile = next(placed.band for placed in layout.zones if placed.zone.id == "draw")
    track = _items(base, "coins")
    for change, where in (({"draw": 4}, pile), ({"stack": 7}, base.square_rect((0, 0)))):
        other = _image(_widget(qtbot, 0, **change))
        diff = [(x, y) for y in range(first.height()) for x in range(first.width())
                if first.pixel(x, y) != other.pixel(x, y)]
        assert diff, change  # the number is drawn ...
        area = QRectF(where).toAlignedRect()
        assert all(area.contains(QPoint(x, y)) for x, y in diff), change  # ... and nothing else changes
    marker, plain = track[4], track[1]
    # Beside the position's number, the marker's coin is gold and an empty position white.
    spot = QPointF(marker.left() + marker.width() * 0.25, marker.center().y())
    gold = _colour_at(first, spot)
    assert gold.red() > 180 and gold.blue() < 120
    white = _colour_at(first, QPointF(plain.left() + plain.width() * 0.25, plain.center().y()))
    assert min(white.red(), white.green(), white.blue()) > 220
    assert describe_item(base.zones()[2], 0) == "Draw: 23 cards" and board.width() == 6 * base.square_size()


def test_clicking_a_card_emits_the_zone_and_the_index(qtbot: Any) -> None:
    widget = _widget(qtbot, 0)
    presenter, view = CardPresenter(), CardView(0)
    clicked: list[tuple[str, int]] = []
    squares: list[Any] = []
    widget.zoneClicked.connect(lambda zone_id, index: clicked.append((zone_id, index)))
    widget.squareClicked.connect(squares.append)
    for index, rect in enumerate(_items(widget, "hand-0")):
        qtbot.mouseClick(widget, Qt.MouseButton.LeftButton, pos=rect.center().toPoint())
        assert clicked[-1] == ("hand-0", index)
        assert presenter.on_zone(view, *clicked[-1]) == PlayCard(index)
    [pile] = _items(widget, "draw")
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton, pos=pile.center().toPoint())
    assert clicked[-1] == ("draw", 0)
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton, pos=widget.square_rect((0, 0)).center())
    assert squares == [(0, 0)] and len(clicked) == 4  # the stacked square is the board's
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton, pos=QPoint(1, 1))  # a corner beside every band
    assert len(clicked) == 4
    widget.set_interactive(False)
    qtbot.mouseClick(widget, Qt.MouseButton.LeftButton, pos=pile.center().toPoint())
    assert len(clicked) == 4


def test_overlapping_cards_give_the_one_on_top(qtbot: Any) -> None:
    widget = BoardWidget()
    qtbot.addWidget(widget)
    widget.resize(400, 400)
    many = tuple(Card(rank, "S") for rank in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"))
    widget.set_scene(BoardScene(files=4, ranks=4, zones=[CardRowZone(id="row", cards=many)]))
    widget.show()
    items = _items(widget, "row")
    assert items[1].left() < items[0].right()  # they overlap, and still fit
    assert items[-1].right() <= widget.board_rect().right() + 1
    clicked: list[tuple[str, int]] = []
    widget.zoneClicked.connect(lambda zone_id, index: clicked.append((zone_id, index)))
    for index in (0, 5, 12):
        visible = QPointF(items[index].left() + 2, items[index].center().y())  # the strip no later card covers
        qtbot.mouseClick(widget, Qt.MouseButton.LeftButton, pos=visible.toPoint())
        assert clicked[-1] == ("row", index)


def test_zones_leave_the_board_alone_when_there_are_none(qtbot: Any) -> None:
    widget = BoardWidget()
    qtbot.addWidget(widget)
    widget.resize(500, 420)
    plain = widget.board_rect()
    widget.set_zones([TrayZone(id="taken", place="left", pieces=("p",)),
                      GridZone(id="clues", place="right", rows=("a",), columns=("b",))])
    assert widget.board_rect().width() < plain.width() and widget.sizeHint().width() > 8 * 64
    widget.set_zones([])
    assert widget.board_rect() == plain and widget.zone_layout() is None
    widget.set_zones([StackZone(id="s", stacks=(((0, 0), 2),))])  # on the board: no room taken
    assert widget.board_rect() == plain
    with pytest.raises(ValueError):
        widget.set_zones([TrayZone(id="x"), TrayZone(id="x")])
    widget.set_board_size(5, 6)
    assert widget.zones() == []


def test_cards_are_rendered_once_per_size(qtbot: Any) -> None:
    widget = _widget(qtbot, 0)
    widget.grab()
    before = cards.render_count()
    widget.update()
    widget.grab()
    assert cards.render_count() == before
    assert cards.card_pixmap("QS", 40).width() == 40 and cards.card_pixmap(None, 40).height() == round(40 * 1.4)


def test_set_scene_draws_a_chess_scene_as_the_separate_setters_do(qtbot: Any) -> None:
    from app.games.rbc.rules import ReconChess, ReconChessView, Sense
    game = ReconChess()
    game.play(0, Sense(36))
    scene = presenter_for("rbc").scene(ReconChessView.from_observations(game.observations(0)))
    one, many = BoardWidget(), BoardWidget()
    for widget in (one, many):
        qtbot.addWidget(widget)
        widget.resize(480, 520)
    one.set_scene(scene)
    many.set_pieces(scene.pieces)
    many.set_markers(scene.markers)
    many.set_move_targets(scene.targets)
    many.set_last_move(*(scene.last_move or (None, None)))
    many.set_sense_mode(scene.sense_window is not None, scene.sense_window)
    assert one.zone_layout() is None and _image(one) == _image(many)


def test_words_for_zones_follow_what_the_seat_sees(qtbot: Any) -> None:
    own, other = _widget(qtbot, 0), _widget(qtbot, 1)
    assert "South: 10 of hearts, Queen of spades, 2 of diamonds." in own.accessibleDescription()
    assert "North: a card face down, a card face down." in own.accessibleDescription()
    assert "South: a card face down, a card face down, a card face down." in other.accessibleDescription()
    assert "North: 10 of hearts, Queen of spades." in other.accessibleDescription()
    assert "Coins: the marker on 4." in own.accessibleDescription()
    assert "Draw: 23 cards." in own.accessibleDescription() and "counters a1 3." in own.accessibleDescription()
    first = _items(own, "hand-0")[0].center().toPoint()
    assert own.describe_at(first) == "South: 10 of hearts"
    assert other.describe_at(first) == "South: a card face down"
    qtbot.mouseMove(own, QPoint(2, 2))  # from somewhere else: a move to where the pointer is already is no move
    qtbot.mouseMove(own, first)
    assert own.cursor().shape() == Qt.CursorShape.PointingHandCursor
    qtbot.mouseMove(own, QPoint(1, 1))
    assert own.cursor().shape() == Qt.CursorShape.ArrowCursor
    own.set_interactive(False)
    qtbot.mouseMove(own, first)
    assert own.cursor().shape() == Qt.CursorShape.ArrowCursor


def test_a_pile_keeps_its_length_beside_a_long_row_of_cards() -> None:
    """A line of 20 cards between two piles: the line's cards overlap to fit, the piles keep their whole card and
    label (they were shortened alike with the line, and their labels cut to "Dis...")."""
    from app.games.scene import Card
    from app.ui.zones import _length, lay_out
    line = tuple(Card(rank, suit) for suit in "SH" for rank in ("2", "3", "4", "5", "8", "9", "10", "Q", "K", "A"))
    zones = [PileZone(id="pile", place="below", label="Draw", count=5),
             HandZone(id="line", place="below", beside=True, label="Line", cards=line),
             PileZone(id="discard", place="below", beside=True, label="Discard", count=3)]
    layout = lay_out(zones, 8, 8, 700, 900)
    placed = {item.zone.id: item for item in layout.zones}
    for pile in ("pile", "discard"):
        assert placed[pile].band.width() == pytest.approx(_length(placed[pile].zone) * layout.square)
    assert placed["line"].band.right() <= placed["discard"].band.left() + 0.5
    assert placed["discard"].band.right() <= 700.5
