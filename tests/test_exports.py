"""Exports: PGN of the true moves, MinitChess notation, board images, reconchess histories, and `sightline export`."""

from __future__ import annotations

import io
import json
import random
import re
import struct
import xml.etree.ElementTree as ElementTree
from pathlib import Path
from typing import Any

import chess
import chess.pgn
import pytest

from app.hosting.agents import BotSpec
from app.cli import main
from app.games.blind.rules import AnswerDraw, Attempt, BlindChess, OfferDraw
from app.engine.core import Game, Resign
from app.games.minit.rules import MinitChess, MinitPosition
from app.games.rbc.rules import MoveAction, ReconChess, Sense
from app.engine.record import GameRecord, GameSession, PlayerInfo, RecordError, Timeline, replay
from app.exports import export_record, export_text, frame_png, frame_svg
from app.games.chess_pgn import pgn_game, pgn_text, read_pgn
from app.games.minit.formats import minit_move_list, parse_minit_move_list, parse_position_text, position_text
from app.hosting.runner import run_game

from test_record_fuzz import random_action  # tests/ is on the path (pytest prepend import mode)

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def bot_game(game: Game, bots: tuple[str, str], seed: int, max_plies: int | None = None) -> GameRecord:
    variant = game.variant
    agents = [BotSpec(bots[0], variant).create(seed), BotSpec(bots[1], variant).create(seed + 1)]
    return run_game(game, agents, seed=seed, max_plies=max_plies)  # type: ignore[arg-type]


def random_session(game: Game, steps: int, seed: int) -> GameSession:
    session = GameSession(game)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.is_over:
            break
        session.play(game.to_move, random_action(game, rng))  # type: ignore[arg-type]
    return session


def true_moves(record: GameRecord) -> list[chess.Move]:
    return list(replay(record).game.board.move_stack)  # type: ignore[attr-defined]


# ---- PGN -------------------------------------------------------------------------------------------------------

RBC_GAMES = [bot_game(ReconChess(), ("attacker", "random"), seed) for seed in range(4)] + \
    [bot_game(ReconChess(), ("random", "random"), 7)]
BLIND_GAMES = [bot_game(BlindChess(), ("greedy", "random"), seed, max_plies=150) for seed in range(3)]


@pytest.mark.parametrize("record", RBC_GAMES + BLIND_GAMES)
def test_pgn_reads_back_with_chess_pgn_and_holds_the_true_moves(record: GameRecord) -> None:
    text = pgn_text(record)
    game = chess.pgn.read_game(io.StringIO(text))  # python-chess's own reader
    assert game is not None and not game.errors
    assert list(game.mainline_moves()) == true_moves(record)
    headers = game.headers
    for tag in ("Event", "Site", "Date", "White", "Black", "Result", "Variant", "Termination"):
        assert headers[tag] and headers[tag] != "?", tag
    assert headers["Variant"] == {"rbc": "Reconnaissance Blind Chess", "blind": "Blind Chess"}[record.variant]
    assert headers["White"] == record.players[0].name
    assert record.result is not None
    assert headers["Result"] == {0: "1-0", 1: "0-1", None: "1/2-1/2"}[record.result.winner]
    assert game.end().comment.endswith(record.result.detail)


def test_pgn_comments_tell_senses_revisions_failures_and_captures() -> None:
    rbc = " ".join(pgn_text(record) for record in RBC_GAMES)
    for phrase in ("sense ", "captures a ", "was requested; nothing moved"):
        assert phrase in rbc, phrase
    blind = " ".join(pgn_text(record) for record in BLIND_GAMES)
    for phrase in ("attempt ", " failed", "captures a ", "reveals "):
        assert phrase in blind, phrase


def test_a_revised_move_and_a_custom_start_in_pgn() -> None:
    # The rook asks for a8 through a black pawn on a5: the move is revised to the capture on a5.
    session = GameSession(ReconChess(fen="k7/8/8/p7/8/8/8/R3K3 w - - 0 1"))
    session.play(0, Sense.parse("h8"))
    session.play(0, MoveAction.parse("a1a8"))
    session.play(1, Resign())
    game = read_pgn(pgn_text(session.record))
    assert game.headers["FEN"] == "k7/8/8/p7/8/8/8/R3K3 w - - 0 1" and game.headers["SetUp"] == "1"
    assert [move.uci() for move in game.mainline_moves()] == ["a1a5"]
    assert "a1a8 was revised to a1a5" in game.next().comment  # type: ignore[union-attr]
    assert "captures a pawn on a5" in game.next().comment  # type: ignore[union-attr]


def test_a_king_walking_into_attack_and_being_captured_reads_back() -> None:
    session = GameSession(BlindChess(fen="4k3/8/8/8/8/8/3q4/4K3 w - - 0 1"))
    session.play(0, Attempt.parse("e1e2"))  # next to the queen: there is no check in Blind Chess
    session.play(1, Attempt.parse("d2e2"))
    assert session.game.outcome is not None and session.game.outcome.winner == 1
    text = pgn_text(session.record)
    assert list(read_pgn(text).mainline_moves()) == true_moves(session.record)
    assert "1. Ke2 { reveals q d2 } 1... Qxe2" in text and text.rstrip().endswith("0-1")


def test_draw_offers_in_pgn_comments() -> None:
    session = GameSession(BlindChess())
    for seat, action in ((0, OfferDraw()), (1, AnswerDraw(False)), (0, Attempt.parse("e2e4")), (1, OfferDraw()),
                         (0, AnswerDraw(True))):
        session.play(seat, action)
    game = read_pgn(pgn_text(session.record))
    assert game.headers["Result"] == "1/2-1/2" and [m.uci() for m in game.mainline_moves()] == ["e2e4"]
    assert game.end().comment == ("White offers a draw; Black declines the draw; Black offers a draw; "
                                  "White accepted a draw")


def test_pgn_tag_values_with_quotes_and_backslashes_are_escaped() -> None:
    session = GameSession(ReconChess(), players=[PlayerInfo('Ann "the \\ blade"'), PlayerInfo('"Bob"')])
    session.play(0, Resign())
    text = pgn_text(session.record)
    assert '[White "Ann \\"the \\\\ blade\\""]' in text and '[Black "\\"Bob\\""]' in text
    headers = read_pgn(text).headers
    assert (headers["White"], headers["Black"]) == ('Ann "the \\ blade"', '"Bob"')


def test_pgn_is_refused_where_it_does_not_fit() -> None:
    minit = random_session(MinitChess(), 6, 1)
    minit.play(0 if minit.game.to_move is None else minit.game.to_move, Resign())
    with pytest.raises(RecordError, match="minit format"):
        pgn_game(minit.record)
    running = random_session(ReconChess(), 5, 1)
    with pytest.raises(RecordError, match="still in progress"):
        export_text(running.record, "pgn")
    with pytest.raises(ValueError, match="does not read back|no game"):
        read_pgn("1. e4 e5 2. Kxe8 *\n")  # standard chess: a king cannot be captured


# ---- MinitChess notation ----------------------------------------------------------------------------------

MINIT_GAMES = [bot_game(MinitChess(), ("search", "random"), 1), bot_game(MinitChess(), ("random", "random"), 2)]


@pytest.mark.parametrize("record", MINIT_GAMES)
def test_minit_positions_and_move_lists_round_trip(record: GameRecord) -> None:
    timeline = Timeline(record)
    for step in range(timeline.steps + 1):
        position = timeline.frame(step, None).truth
        text = position_text(position)
        assert parse_position_text(text) == position
        grid = "\n".join(text.split()[2:])  # pasted as a grid of ranks, without number and side
        assert parse_position_text(grid).board == position.board
    listing = minit_move_list(record)
    tags, start, moves = parse_minit_move_list(listing)
    game: Any = replay(record).game
    assert start == game.starting_position and moves == game.moves
    assert tags["Position"] == game.starting_position.text() and tags["FinalPosition"] == game.position.text()
    assert tags["Variant"] == "MinitChess" and tags["Result"] in ("1-0", "0-1", "1/2-1/2")


def test_minit_move_list_from_a_black_start() -> None:
    session = GameSession(MinitChess("7 B k.... ..... ..p.. ..... ..P.. ....K"))
    session.play(1, random_action(session.game, random.Random(3)))
    listing = minit_move_list(session.record)
    assert "\n7... " in "\n" + listing.split("\n\n")[1]
    assert parse_minit_move_list(listing)[2] == session.game.moves  # type: ignore[attr-defined]


@pytest.mark.parametrize("text, message", [
    ("kqbnr ppppp ..... PPPPP RNBQK", "fields"),
    ("1 X kqbnr ppppp ..... ..... PPPPP RNBQK", "W or B"),
    ("1 W kqbnr ppppp ..... ..... PPPPP RNBQX", "not a piece"),
    ("1 W .qbnr ppppp ..... ..... PPPPP RNBQ.", "no king"),
    ("x" * 5000, "too long"),
])
def test_pasted_positions_that_are_wrong_are_named(text: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        parse_position_text(text)


def test_a_move_list_with_an_illegal_move_is_named() -> None:
    with pytest.raises(ValueError, match="move 2: e5-e3 is not a legal move"):
        parse_minit_move_list("1. b1-c3 e5-e3 *")


# ---- board images -------------------------------------------------------------------------------------------

def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == PNG_SIGNATURE and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def pieces_drawn(svg: str) -> list[str]:
    root = ElementTree.fromstring(svg)
    assert root.tag.endswith("svg")
    return [element.get("href") or element.get("{http://www.w3.org/1999/xlink}href") or ""
            for element in root.iter() if element.tag.endswith("use")]


@pytest.mark.parametrize("record", [RBC_GAMES[0], BLIND_GAMES[0], MINIT_GAMES[0]], ids=["rbc", "blind", "minit"])
def test_svg_and_png_of_every_perspective(record: GameRecord) -> None:
    timeline = Timeline(record)
    step = min(12, timeline.steps)
    for perspective in (None, 0, 1):
        frame = timeline.frame(step, perspective)
        svg = frame_svg(record.variant, frame, 300)
        drawn = pieces_drawn(svg)
        assert drawn
        png = frame_png(record.variant, frame, 300)
        expected = (300, 353) if record.variant == "minit" else (300, 300)
        assert png_size(png) == expected


@pytest.mark.parametrize("game_type", [ReconChess, BlindChess])
def test_a_seat_image_shows_only_what_the_seat_knew(game_type: type[Game]) -> None:
    start = Timeline(random_session(game_type(), 0, 0).record)
    white = pieces_drawn(frame_svg(start.variant, start.frame(0, 0)))
    assert len(white) == 16 and all("white" in href for href in white)
    truth = pieces_drawn(frame_svg(start.variant, start.frame(0, None)))
    assert len(truth) == 32
    # Later on, every enemy piece a seat's image shows is one its view holds.
    session = random_session(game_type(), 30, 4)
    timeline = Timeline(session.record)
    for step in range(0, timeline.steps + 1, 5):
        frame = timeline.frame(step, 1)
        drawn = pieces_drawn(frame_svg(timeline.variant, frame))
        view: Any = frame.view
        own = len(view.own_board.piece_map())
        assert sum("black" in href for href in drawn) == own
        assert sum("white" in href for href in drawn) <= 16


# ---- export_record and the command line ------------------------------------------------------------------------

@pytest.fixture
def files(tmp_path: Path) -> dict[str, Path]:
    paths = {}
    for name, record in (("rbc", RBC_GAMES[0]), ("blind", BLIND_GAMES[0]), ("minit", MINIT_GAMES[0])):
        paths[name] = tmp_path / f"{name}.json"
        record.save(paths[name])
    running = random_session(BlindChess(), 7, 2)
    paths["running"] = tmp_path / "running.json"
    running.snapshot().save(paths["running"])
    paths["corrupt"] = tmp_path / "corrupt.json"
    paths["corrupt"].write_text('{"format": "sightline-record", "version": 2, "variant": "rbc", "actions": [')
    return paths


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_cli_export_every_format(files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    # The spelling that existed before the other formats: positional output, reconchess by default.
    assert run(["export", "--format", "reconchess", str(files["rbc"]), str(out) + ".history.json"], capsys)[0] == 0
    from app.games.rbc.reconchess_history import history_to_record
    back = history_to_record(str(out) + ".history.json")
    assert [e.action for e in back.entries] == [e.action for e in RBC_GAMES[0].entries]
    assert run(["export", str(files["rbc"]), str(out) + ".plain.json"], capsys)[0] == 0
    assert json.loads(Path(str(out) + ".plain.json").read_text())["type"] == "GameHistory"

    assert run(["export", str(files["rbc"]), "--format", "pgn", "-o", str(out) + ".pgn"], capsys)[0] == 0
    assert list(read_pgn(Path(str(out) + ".pgn").read_text()).mainline_moves()) == true_moves(RBC_GAMES[0])
    assert run(["export", str(files["blind"]), "-o", str(out) + ".blind.pgn"], capsys)[0] == 0  # by extension
    code, text, _ = run(["export", str(files["blind"]), "--format", "pgn"], capsys)  # to standard output
    assert code == 0 and text == Path(str(out) + ".blind.pgn").read_text()

    assert run(["export", str(files["minit"]), "--format", "minit", "-o", str(out) + ".txt"], capsys)[0] == 0
    game: Any = replay(MINIT_GAMES[0]).game
    assert parse_minit_move_list(Path(str(out) + ".txt").read_text())[2] == game.moves

    for name in ("rbc", "blind", "minit"):
        for perspective in ("truth", "white", "black"):
            svg = tmp_path / f"{name}-{perspective}.svg"
            png = tmp_path / f"{name}-{perspective}.png"
            assert run(["export", str(files[name]), "--format", "svg", "--ply", "3", "--perspective", perspective,
                        "-o", str(svg)], capsys)[0] == 0
            assert pieces_drawn(svg.read_text())
            assert run(["export", str(files[name]), "--step", "5", "--perspective", perspective, "--size", "200",
                        "-o", str(png)], capsys)[0] == 0
            assert png_size(png.read_bytes())[0] == 200


@pytest.mark.parametrize("args, message", [
    (["{corrupt}", "--format", "pgn", "-o", "{out}"], "not valid JSON"),
    (["{missing}", "--format", "pgn", "-o", "{out}"], "cannot read"),
    (["{minit}", "--format", "pgn", "-o", "{out}"], "minit format"),
    (["{blind}", "--format", "reconchess", "-o", "{out}"], "only RBC games"),
    (["{rbc}", "--format", "minit", "-o", "{out}"], "for MinitChess games"),
    (["{running}", "--format", "pgn"], "still in progress"),
    (["{running}", "--format", "png", "-o", "{out}"], "still in progress"),
    (["{rbc}", "--format", "svg", "--perspective", "green", "-o", "{out}"], "unknown perspective"),
    (["{rbc}", "--format", "svg", "--ply", "9999", "-o", "{out}"], "no ply 9999"),
    (["{rbc}", "--format", "svg", "--step", "-1", "-o", "{out}"], "no step"),
    (["{rbc}", "--format", "png"], "needs an output file"),
    (["{rbc}", "{out}", "-o", "{out}.other"], "once"),
    (["{rbc}", "--format", "svg", "-o", "{dir}/no/such/dir/x.svg"], "cannot write|No such"),
])
def test_cli_export_problems_are_named(files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                       args: list[str], message: str) -> None:
    names = {key: str(path) for key, path in files.items()}
    names.update(out=str(tmp_path / "out.x"), missing=str(tmp_path / "missing.json"), dir=str(tmp_path / "ro"))
    (tmp_path / "ro").mkdir()
    (tmp_path / "ro" / "no").write_text("a file where a directory should be")
    code, _, err = run(["export", *[arg.format(**names) for arg in args]], capsys)
    assert code != 0
    assert err.startswith("sightline export: ")
    assert re.search(message, err), err
    assert not (tmp_path / "out.x").exists()


def test_a_seat_view_of_an_unfinished_game_exports(files: dict[str, Path], tmp_path: Path) -> None:
    record = GameRecord.from_json(json.loads(files["running"].read_text()))
    export_record(record, "svg", tmp_path / "mine.svg", perspective=0)
    assert pieces_drawn((tmp_path / "mine.svg").read_text())
