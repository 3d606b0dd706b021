"""Board images of boards that are not chess: marker labels, pieces python-chess has no glyph for, and the
scene's zones beside the board (hands, rows of cards, piles, tracks, stacks, trays, grids), without showing a
seat what it may not see."""

from __future__ import annotations

import struct
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Iterator, cast

import cairosvg
import pytest

from app import games
from app.engine.record import GameSession, RecordError, Timeline
from app.engine.timeline import Frame
from app.exports import export_record, frame_svg, scene_svg
from app.games.scene import (BoardScene, Card, CardRowZone, GridZone, HandZone, MarkerSpec, PileZone, StackZone,
                             TrackZone, TrayZone)

ROOT = Path(__file__).resolve().parent.parent
SVG = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ElementTree.Element:
    root = ElementTree.fromstring(svg)  # well-formed XML, whatever text the game gave
    assert root.tag == SVG + "svg"
    return root


def texts(element: ElementTree.Element) -> list[str]:
    return [node.text or "" for node in element.iter(SVG + "text")]


def by_class(root: ElementTree.Element, name: str) -> list[ElementTree.Element]:
    return [node for node in root.iter() if name in (node.get("class") or "").split()]


def zone(root: ElementTree.Element, zone_id: str) -> ElementTree.Element:
    found = [node for node in root.iter(SVG + "g") if node.get("data-zone") == zone_id]
    assert len(found) == 1, zone_id
    return found[0]


def png_width(svg: str, width: int) -> int:
    png = cairosvg.svg2png(bytestring=svg.encode("utf-8"), output_width=width)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return int(struct.unpack(">I", png[16:20])[0])


# ---- pieces and labels on the board ----------------------------------------------------------------------------

@pytest.mark.parametrize("files, ranks", [(5, 5), (8, 8)])
def test_a_piece_letter_without_a_chess_glyph_is_a_lettered_token(files: int, ranks: int) -> None:
    scene = BoardScene(files=files, ranks=ranks, pieces={(0, 0): "X", (1, 1): "z", (2, 2): "N"})
    svg = scene_svg(scene, size=300)  # python-chess has no glyph for X or z: no KeyError
    root = parse(svg)
    tokens = by_class(root, "token")
    assert sorted(texts(token)[0] for token in tokens) == ["X", "z"]
    assert [use.get("href") for use in root.iter(SVG + "use")] == ["#white-knight"]  # a chess letter keeps its glyph
    assert png_width(svg, 300) == 300


def test_marker_labels_are_written_in_their_cells_and_escaped() -> None:
    scene = BoardScene(files=4, ranks=4, pieces={(1, 0): "K"},
                       markers=[MarkerSpec("reveal", ((0, 0),), label="10H"), MarkerSpec("sense", ((1, 0),),
                                                                                        label="A&B<")])
    svg = scene_svg(scene)
    labels = [texts(node)[0] for node in by_class(parse(svg), "marker-label")]
    assert sorted(labels) == ["10H", "A&B<"] and "A&amp;B&lt;" in svg


# ---- zones -----------------------------------------------------------------------------------------------------

def every_zone() -> BoardScene:
    return BoardScene(files=5, ranks=5, pieces={(2, 2): "P"}, zones=[
        HandZone(id="hand", place="below", label="Hand", cards=(Card("10", "H"), None, Card("Q", "S")),
                 selected=(0,)),
        CardRowZone(id="row", place="above", label="Market", cards=(Card("A", "D"), Card("7", "C"))),
        PileZone(id="draw", place="right", label="Draw", count=17),
        PileZone(id="discard", place="right", label="Discard", count=3, top=Card("K", "H")),
        PileZone(id="empty", place="left", label="Out", count=0),
        TrackZone(id="coins", place="above", label="Coins", positions=("0", "1", "2", "3"), marker=2),
        StackZone(id="stacks", stacks=(((0, 0), 3), ((4, 4), 12))),
        TrayZone(id="tray", place="left", label="Taken", pieces=("p", "Q", "x")),
        GridZone(id="clues", place="below", label="Clues", rows=("Ann", "Bob"), columns=("1", "2", "3"),
                 marks=(("x", "", "?"), ("", "o", ""))),
    ])


def test_every_kind_of_zone_appears_in_the_image() -> None:
    svg = scene_svg(every_zone(), size=600)
    root = parse(svg)
    hand = zone(root, "hand")
    assert [card.get("data-card") for card in by_class(hand, "card")] == ["10H", "QS"]
    assert len(by_class(hand, "card-back")) == 1 and "Hand" in texts(hand)
    assert "10" in texts(hand) and "\u2665" in texts(hand) and "\u2660" in texts(hand)  # rank and suit sign
    row = zone(root, "row")
    assert [card.get("data-card") for card in by_class(row, "card")] == ["AD", "7C"]
    draw, discard, empty = zone(root, "draw"), zone(root, "discard"), zone(root, "empty")
    assert len(by_class(draw, "card-back")) == 1 and "17" in texts(draw) and not by_class(draw, "card")
    assert [card.get("data-card") for card in by_class(discard, "card")] == ["KH"] and "3" in texts(discard)
    assert not by_class(empty, "card") and not by_class(empty, "card-back") and "0" in texts(empty)
    coins = zone(root, "coins")
    assert texts(coins)[1:] == ["0", "1", "2", "3"]  # after its label
    assert len(by_class(coins, "track-marker")) == 1 and len(by_class(coins, "track-position")) == 3
    stacks = by_class(root, "stack")
    assert sorted(texts(stack)[0] for stack in stacks) == ["12", "3"]
    tray = zone(root, "tray")
    assert [use.get("href") for use in tray.iter(SVG + "use")] == ["#black-pawn", "#white-queen"]
    assert [texts(token)[0] for token in by_class(tray, "token")] == ["x"]
    clues = zone(root, "clues")
    assert all(word in texts(clues) for word in ("Clues", "Ann", "Bob", "1", "2", "3", "x", "?", "o"))
    # The bands widen and heighten the image around a board that keeps its squares.
    view_box = [float(number) for number in (root.get("viewBox") or "").split()]
    assert view_box[2] > 2 * 15 + 5 * 45 and view_box[3] > 2 * 15 + 5 * 45
    assert png_width(svg, 600) == 600


@pytest.mark.parametrize("along_files", [True, False])
def test_a_grid_along_the_files_runs_as_the_board_does_from_blacks_side(along_files: bool) -> None:
    """A grid whose columns stand for the files (Cloak and Dagger's checkers) is mirrored with the board, as in
    the window: from Black's side its columns read 8 to 1, left to right. Other grids never turn."""
    columns = tuple(str(number) for number in range(1, 9))
    grid = GridZone(id="grid", place="below", rows=("K",), columns=columns,
                    marks=(("x", "", "", "", "", "", "", ""),), along_files=along_files)
    scene = BoardScene(pieces={(4, 0): "K"}, zones=[grid])
    for white_below in (True, False):
        found = zone(parse(scene_svg(scene, white_below=white_below)), "grid")
        headings = sorted((float(node.get("x") or 0), node.text) for node in found.iter(SVG + "text")
                          if node.text in columns)
        cells = [float(node.get("x") or 0) for node in by_class(found, "grid-cell")]
        mark = [float(node.get("x") or 0) for node in found.iter(SVG + "text") if node.text == "x"]
        mirrored = along_files and not white_below
        assert [text for _, text in headings] == (list(reversed(columns)) if mirrored else list(columns))
        assert (mark[0] > max(cells)) == mirrored  # the first column's mark, over the rightmost cell when turned


def test_an_8x8_board_with_zones_shows_them() -> None:
    scene = BoardScene(pieces={(4, 0): "K"}, zones=[TrayZone(id="tray", place="right", pieces=("q",))])
    root = parse(scene_svg(scene))
    assert [use.get("href") for use in zone(root, "tray").iter(SVG + "use")] == ["#black-queen"]


def test_a_hidden_card_is_drawn_as_a_back() -> None:
    cards = [Card("2", "S"), Card("K", "H")]
    scene = BoardScene(files=4, ranks=4, zones=[HandZone.seen_by("hand", cards, owners={0}, seat=1),
                                                PileZone(id="pile", count=5)])
    svg = scene_svg(scene)
    root = parse(svg)
    assert len(by_class(zone(root, "hand"), "card-back")) == 2 and not by_class(root, "card")
    assert "K" not in texts(root) and "\u2665" not in svg and 'id="card-back"' in svg
    assert png_width(svg, 200) == 200


# ---- what a seat may see ---------------------------------------------------------------------------------------

class _CarelessPresenter:
    """A presenter that (wrongly) gives every seat the faces of seat 0's hand, to show the export checks too."""

    def scene(self, view: Any) -> BoardScene:
        return BoardScene(files=4, ranks=4, zones=[
            HandZone(id="hand", cards=(Card("A", "S"), Card("9", "D")), private_to=frozenset({0}), selected=(1,)),
            PileZone(id="secret", count=4, top=Card("J", "C"), private_to=frozenset({0})),
            TrayZone(id="notes", pieces=("Q",), private_to=frozenset({0})),
            PileZone(id="open", count=2, top=Card("3", "H")),
        ])

    def truth_scene(self, truth: Any, last_move: Any = None) -> BoardScene:
        return self.scene(None)


def _frame(perspective: int | None) -> Frame:
    return Frame(step=0, ply=0, to_move=0, phase="", perspective=perspective, truth=None, last_move=None,
                 view=None if perspective is None else cast(Any, object()), observations=(), notes={}, remaining=[],
                 entry=None, outcome=None)


def test_a_seat_image_hides_zones_private_to_other_seats(monkeypatch: pytest.MonkeyPatch) -> None:
    definition = SimpleNamespace(presenter=_CarelessPresenter, seats=(SimpleNamespace(flipped=False),) * 2)
    monkeypatch.setattr(games, "get", lambda variant: definition)  # as the export module finds it
    other = parse(frame_svg("careless", _frame(1)))
    assert [card.get("data-card") for card in by_class(other, "card")] == ["3H"]  # the open pile only
    assert len(by_class(zone(other, "hand"), "card-back")) == 2 and len(by_class(zone(other, "secret"),
                                                                                 "card-back")) == 1
    assert not [node for node in other.iter(SVG + "g") if node.get("data-zone") == "notes"]
    for seen in (parse(frame_svg("careless", _frame(0))), parse(frame_svg("careless", _frame(None)))):
        assert [card.get("data-card") for card in by_class(seen, "card")] == ["AS", "9D", "JC", "3H"]


@pytest.fixture
def sixteen(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The test game Sixteen registered for one test."""
    monkeypatch.syspath_prepend(str(ROOT))
    monkeypatch.setenv(games.EXTRA_GAMES_VARIABLE, "tests.games.sixteen")
    yield


def test_an_unfinished_sixteen_exports_the_seats_own_view_only(sixteen: None, tmp_path: Path) -> None:
    from tests.games.sixteen.rules import Place, Take
    session = GameSession(games.get("sixteen").referee()(seed=4))
    game: Any = session.game
    for _ in range(5):
        card = game.hand[-1]
        session.play(0, Take(card))
        session.play(0, Place(card, game.board.index(None)))
    record = session.snapshot()
    with pytest.raises(RecordError, match="still in progress"):
        export_record(record, "svg", tmp_path / "truth.svg")
    export_record(record, "svg", tmp_path / "mine.svg", perspective=0)
    export_record(record, "png", tmp_path / "mine.png", perspective=0)
    root = parse((tmp_path / "mine.svg").read_text(encoding="utf-8"))
    placed = [card for card in game.board if card is not None]
    assert sorted(texts(node)[0] for node in by_class(root, "marker-label")) == sorted(placed)
    assert [card.get("data-card") for card in by_class(zone(root, "hand"), "card")] == game.hand
    pile = zone(root, "pile")
    assert not by_class(pile, "card") and str(len(game.pile)) in texts(pile)  # a back and its count, no face
    drawn = {card.get("data-card") for card in by_class(root, "card")}
    assert not drawn & set(game.pile)
    assert Timeline(record).steps == 10
