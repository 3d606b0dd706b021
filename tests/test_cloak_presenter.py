"""Cloak and Dagger's presenter on views from real games of the referee: a seat's scene holds only what that seat
knows (an enemy checker never shows a piece the seat was not told, its own always do), the board offers exactly
the view's legal moves, every phase's clicks, buttons and typing become the right action or change of the
seat's private marks, the marks survive a round trip through the record's JSON, and the log, the score sheet,
the text export and the board images say what happened."""

from __future__ import annotations

import random
from typing import Any

import chess
import pytest

from app.engine.record import GameSession
from app.games.cloak import commands as buttons
from app.games.cloak import grids, inputs
from app.games.cloak.checkers import CHECKERS, all_arrangements
from app.games.cloak.deduction import Deduction
from app.games.cloak.grids import THEIRS, YOURS
from app.games.cloak.marks import CloakMarks, arrangement_problem, moment
from app.games.cloak.presenter import PRESENTER, CloakPresenter
from app.games.cloak.rules import Arrange, Bonus, CloakChess, Guess, Move, Uncloak
from app.games.cloak.view import BonusLost, CloakView, Dropped, Guessed, Moved, Uncloaked
from app.games.presenter import InputError, MarksChange
from app.games.scene import GridZone, read_checker

WHITE_ARRANGEMENT, BLACK_ARRANGEMENT = "RNBQKBNR", "NRKBBQRN"


def view_of(game: CloakChess, seat: int) -> CloakView:
    return CloakView.from_observations(game.observations(seat))


def cell(name: str) -> tuple[int, int]:
    square = chess.parse_square(name)
    return chess.square_file(square), chess.square_rank(square)


def grid_index(checker: int, piece: str) -> int:
    """The item of a grid zone for (checker, piece): row = piece, column = checker."""
    return "KQRBN".index(piece) * 8 + checker - 1


class Table:
    """A game at which both seats act through the presenter, each with its own marks, as the window does."""

    def __init__(self, white: str = WHITE_ARRANGEMENT, black: str = BLACK_ARRANGEMENT) -> None:
        self.game = CloakChess()
        self.marks: dict[int, dict[str, Any] | None] = {0: None, 1: None}
        for seat, pieces in ((0, white), (1, black)):
            self.play(seat, PRESENTER.parse_text(self.view(seat), pieces))

    def view(self, seat: int) -> CloakView:
        return view_of(self.game, seat)

    def presenter(self, seat: int) -> CloakPresenter:
        return PRESENTER.bound(self.marks[seat])

    def input(self, seat: int, answer: Any) -> Any:
        """What the window does with a presenter's answer: keep marks, play actions."""
        if isinstance(answer, MarksChange):
            self.marks[seat] = answer.marks
        else:
            self.play(seat, answer)
        return answer

    def play(self, seat: int, action: Any) -> None:
        assert self.game.to_move == seat, (seat, self.game.to_move, action)
        self.game.play(seat, action)

    def move(self, seat: int, origin: str, target: str, promotion: str | None = None) -> Any:
        return self.input(seat, self.presenter(seat).on_move(self.view(seat), cell(origin), cell(target), promotion))

    def guess(self, seat: int, checker: int, piece: str) -> Any:
        """The person presses "Guess...", then clicks the cell (checker, piece) of the enemy grid."""
        self.input(seat, self.presenter(seat).command(self.view(seat), buttons.GUESS_COMMAND))
        return self.input(seat, self.presenter(seat).on_zone(self.view(seat), THEIRS, grid_index(checker, piece)))

    def end_turn(self, seat: int) -> None:
        if self.game.phase == "uncloak" and self.game.to_move == seat:
            self.input(seat, self.presenter(seat).command(self.view(seat), buttons.END_COMMAND))


def walk(seed: int, on_step: Any, steps: int = 220) -> CloakChess:
    """Plays random choices of the referee for both seats, calling ``on_step(game)`` before every action."""
    rng = random.Random(seed)
    game = CloakChess()
    game.play(0, Arrange(rng.choice(all_arrangements())))
    game.play(1, Arrange(rng.choice(all_arrangements())))
    for _ in range(steps):
        if game.outcome is not None:
            break
        on_step(game)
        seat, choices = game.to_move, game.choices()
        phase = choices["phase"]
        if phase == "move":
            guess = choices["guesses"] and rng.random() < 0.25
            action: Any = Guess(*rng.choice(choices["guesses"])) if guess else Move(rng.choice(choices["moves"]))
        elif phase == "bonus":
            action = Bonus(rng.choice(choices["bonus"] + [None]))
        else:
            action = Uncloak(tuple(n for n in choices["uncloak"] if rng.random() < 0.12))
        assert seat is not None
        game.play(seat, action)
    on_step(game)
    return game


# ---- what a seat is shown --------------------------------------------------------------------------------------

def check_scene(game: CloakChess, seat: int) -> None:
    view = view_of(game, seat)
    scene = PRESENTER.scene(view)
    truth = game.truth()
    own_arrangement = game.arrangements[seat]
    # Every move is seen by both: the same squares are taken as on the true board.
    assert set(scene.pieces) == {(chess.square_file(s), chess.square_rank(s)) for s in truth.board.piece_map()}
    for square, piece in truth.board.piece_map().items():
        code = scene.pieces[(chess.square_file(square), chess.square_rank(square))]
        checker = read_checker(code)
        colour, number = truth.checkers.get(square, (None, None))
        if number is None or number not in truth.cloaked[colour]:
            assert checker is None and code == piece.symbol()  # pawns, uncloaked and promoted pieces as pieces
            continue
        assert checker is not None and checker.white == (colour == 0) and checker.number == number
        if colour == seat:
            assert own_arrangement is not None and checker.piece == own_arrangement[number - 1]
        else:
            # An enemy checker shows a piece only once it was told to both, and then the true one.
            told = view.told[colour].get(number)
            assert checker.piece == told
            if told is not None:
                assert told == piece.symbol().upper()
    assert [zone.id for zone in scene.zones] == [THEIRS, YOURS]
    assert all(zone.private_to == frozenset({seat}) for zone in scene.zones)


@pytest.mark.parametrize("seed", range(6))
def test_a_seats_scene_shows_only_what_it_knows(seed: int) -> None:
    steps = [0]

    def look(game: CloakChess) -> None:
        steps[0] += 1
        for seat in (0, 1):
            check_scene(game, seat)

    game = walk(seed, look)
    assert steps[0] > 20
    told = sum(len(view_of(game, 0).told[side]) for side in (0, 1))
    assert told > 0 or game.ply < 20  # the games checked did reveal identities (captures, castling, guesses)


def test_an_enemy_checker_never_shows_its_piece_before_it_is_told() -> None:
    table = Table()
    for seat, enemy in ((0, BLACK_ARRANGEMENT), (1, WHITE_ARRANGEMENT)):
        scene = PRESENTER.scene(table.view(seat))
        back = 7 if seat == 0 else 0
        own = 0 if seat == 0 else 7
        enemy_discs = [read_checker(scene.pieces[(file, back)]) for file in range(8)]
        own_discs = [read_checker(scene.pieces[(file, own)]) for file in range(8)]
        assert all(disc is not None and disc.piece is None for disc in enemy_discs)
        mine = WHITE_ARRANGEMENT if seat == 0 else BLACK_ARRANGEMENT
        assert [disc.piece for disc in own_discs if disc is not None] == list(mine)
        assert enemy not in repr(scene.pieces)


def test_the_board_offers_exactly_the_legal_moves_and_castling_both_ways() -> None:
    def check(game: CloakChess) -> None:
        seat = game.to_move
        if game.phase != "move" or seat is None:
            return
        view = view_of(game, seat)
        targets = PRESENTER.scene(view).targets
        legal = set(view.legal_moves())
        assert legal == set(game.choices()["moves"])
        offered = set()
        for origin, destinations in targets.items():
            for target, promotions in destinations.items():
                for promotion in promotions or [None]:
                    action = PRESENTER.on_move(view, origin, target, promotion)
                    assert isinstance(action, Move) and action.uci in legal
                    offered.add(action.uci)
        assert offered == legal

    for seed in range(4):
        walk(seed, check, steps=120)


def test_castling_by_the_kings_two_square_step_or_onto_its_rook() -> None:
    table = Table("RNBQKBNR", "RNBQKBNR")
    for white, black in (("e2", "e4"), ("g1", "f3"), ("f1", "e2")):
        table.move(0, white, black)
        table.end_turn(0)
        table.move(1, *{"e2": ("a7", "a6"), "g1": ("a6", "a5"), "f1": ("h7", "h6")}[white])
        table.end_turn(1)
    view = table.view(0)
    targets = PRESENTER.scene(view).targets
    assert "e1h1" in view.legal_moves() and {cell("g1"), cell("h1")} <= set(targets[cell("e1")])
    assert PRESENTER.on_move(view, cell("e1"), cell("g1"), None) == Move("e1h1")
    assert PRESENTER.on_move(view, cell("e1"), cell("h1"), None) == Move("e1h1")
    assert PRESENTER.parse_text(view, "O-O") == Move("e1h1")
    with pytest.raises(InputError):
        PRESENTER.parse_text(view, "O-O-O")
    table.move(0, "e1", "g1")
    moved = table.game.observations(1)[-1]
    assert isinstance(moved, Moved) and moved.castling and moved.revealed == {5: "K", 8: "R"}
    assert PRESENTER.describe(moved, 1) == "White castled king-side: checker 5 is a king, checker 8 is a rook."
    # Told to both: Black's board now shows White's king and rook checkers with their pieces.
    scene = PRESENTER.scene(table.view(1))
    assert read_checker(scene.pieces[cell("g1")]).piece == "K" and read_checker(scene.pieces[cell("f1")]).piece == "R"


# ---- the arrangement ---------------------------------------------------------------------------------------------

def test_the_arrangement_is_built_in_the_seats_own_grid_and_confirmed() -> None:
    game = CloakChess()
    view = view_of(game, 0)
    presenter = PRESENTER.bound(None)
    assert [(c.label, c.enabled) for c in presenter.commands(view)] == [
        ("Random arrangement", True), ("Standard (RNBQKBNR)", True), ("Confirm arrangement", False)]
    assert "click the grid" in presenter.prompt(view)
    marks = None
    for checker, piece in ((2, "K"), (1, "R"), (3, "R")):  # the king outside its rooks: refused in words
        change = PRESENTER.bound(marks).on_zone(view, YOURS, grid_index(checker, piece))
        assert isinstance(change, MarksChange)
        marks = change.marks
    assert marks is not None and marks["draft"] == "RKR....."
    for checker, piece in zip(range(4, 9), "QBBNN"):
        marks = PRESENTER.bound(marks).on_zone(view, YOURS, grid_index(checker, piece)).marks
    presenter = PRESENTER.bound(marks)
    assert presenter.marks.draft == "RKRQBBNN" and arrangement_problem("RKRQBBNN") is None
    scene = presenter.scene(view)
    # The own back rank shows the draft; the grid holds it as circles; the enemy's checkers show nothing.
    assert [read_checker(scene.pieces[(file, 0)]).piece for file in range(8)] == list("RKRQBBNN")
    assert all(read_checker(scene.pieces[(file, 7)]).piece is None for file in range(8))
    own = scene.zone(YOURS)
    assert isinstance(own, GridZone) and own.marks[0][1] == grids.SHOWN_MARKS["o"]
    assert dict((c.id, c.enabled) for c in presenter.commands(view))[buttons.CONFIRM_COMMAND]
    assert presenter.command(view, buttons.CONFIRM_COMMAND) == Arrange("RKRQBBNN")
    # A second click on a placed piece takes it away; the king moves to the checker clicked.
    assert PRESENTER.bound(marks).on_zone(view, YOURS, grid_index(4, "Q")).marks["draft"] == "RKR.BBNN"
    assert PRESENTER.bound(marks).on_zone(view, YOURS, grid_index(8, "K")).marks["draft"] == "R.RQBBNK"
    with pytest.raises(InputError, match="both rooks are placed"):
        PRESENTER.bound(marks).on_zone(view, YOURS, grid_index(5, "R"))


def test_an_invalid_draft_says_why_and_cannot_be_confirmed() -> None:
    view = view_of(CloakChess(), 0)
    presenter = PRESENTER.bound({"draft": "KRNBQBNR"})
    assert presenter.prompt(view) == "Arrange your pieces: the king must stand between the rooks"
    assert not dict((c.id, c.enabled) for c in presenter.commands(view))[buttons.CONFIRM_COMMAND]
    with pytest.raises(InputError, match="king must stand between the rooks"):
        presenter.command(view, buttons.CONFIRM_COMMAND)
    assert "bishops must stand on squares of different colours" in \
        PRESENTER.bound({"draft": "RNBQKNBR"}).prompt(view)
    with pytest.raises(InputError, match="king must stand between"):
        PRESENTER.parse_text(view, "KRNBQBNR")


def test_random_and_standard_fill_the_draft_and_typing_arranges_at_once() -> None:
    view = view_of(CloakChess(), 0)
    drafts = {PRESENTER.command(view, buttons.RANDOM_COMMAND).marks["draft"] for _ in range(12)}
    assert len(drafts) > 1 and all(arrangement_problem(draft) is None for draft in drafts)
    assert PRESENTER.command(view, buttons.STANDARD_COMMAND).marks["draft"] == "RNBQKBNR"
    assert PRESENTER.parse_text(view, " rnbqkbnr ") == Arrange("RNBQKBNR")



def test_dragging_a_checker_onto_another_swaps_their_pieces_in_the_draft() -> None:
    view = view_of(CloakChess(), 0)
    presenter = PRESENTER.bound({"draft": "RNBQKBNR"})
    targets = presenter.scene(view).targets
    assert set(targets) == {(file, 0) for file in range(8)}  # the own back rank, onto each other
    assert set(targets[(3, 0)]) == {(file, 0) for file in range(8)} - {(3, 0)}
    change = presenter.on_move(view, (3, 0), (4, 0), None)  # queen onto king: they change places
    assert isinstance(change, MarksChange) and change.marks["draft"] == "RNBKQBNR"
    assert PRESENTER.bound({"draft": "RN.QKBNR"}).on_move(view, (1, 0), (2, 0), None).marks["draft"] == "R.NQKBNR"
    with pytest.raises(InputError, match="drag one of your checkers"):
        presenter.on_move(view, (3, 0), (3, 3), None)
    black = view_of(CloakChess(), 1)  # not Black's turn to arrange yet: no drags offered, the draft may still change
    assert not PRESENTER.bound({"draft": "RNBQKBNR"}).scene(black).targets

def test_behind_the_first_arrangement_the_other_seat_waits_and_its_draft_is_its_own() -> None:
    game = CloakChess()
    game.play(0, Arrange(WHITE_ARRANGEMENT))
    white = view_of(game, 0)
    assert not any(c.enabled for c in PRESENTER.commands(white) if not c.anytime)
    black = view_of(game, 1)
    assert PRESENTER.bound({"draft": "RNBQKBNR"}).command(black, buttons.CONFIRM_COMMAND) == Arrange("RNBQKBNR")
    assert "White arranged its pieces in secret." in [PRESENTER.describe(o, 1) for o in game.observations(1)]
    assert WHITE_ARRANGEMENT.replace("", " ").strip() not in " ".join(
        filter(None, (PRESENTER.describe(o, 1) for o in game.observations(1))))


# ---- a turn: guess, move, bonus, uncloak ---------------------------------------------------------------------------

def test_a_click_in_the_enemy_grid_in_the_move_phase_marks_and_never_guesses() -> None:
    table = Table()
    view = table.view(0)
    assert view.guessable()  # a guess is allowed now: only the mode decides what a click is
    assert table.presenter(0).prompt(view) == "Your move, or Guess... before moving"
    assert table.presenter(0).scene(view).zone(THEIRS).label == "Their checkers: your notes"
    seen = len(table.game.observations(0))
    for checker in CHECKERS:
        for piece in "KQRBN":
            answer = table.input(0, table.presenter(0).on_zone(view, THEIRS, grid_index(checker, piece)))
            assert isinstance(answer, MarksChange)
    assert table.marks[0] is not None and set(table.marks[0]["grid"].values()) == {"o"}
    assert len(table.marks[0]["grid"]) == 40
    for _ in range(2):  # circle -> cross -> blank, still no guess
        table.input(0, table.presenter(0).on_zone(view, THEIRS, grid_index(3, "K")))
    assert "3K" not in table.marks[0]["grid"]
    assert len(table.game.observations(0)) == seen
    assert not any(isinstance(o, Guessed) for o in table.game.observations(0))
    assert table.game.to_move == 0 and table.game.phase == "move" and table.view(0).guessable()


def test_guess_mode_makes_one_guess_from_one_click_and_ends() -> None:
    table = Table()
    view = table.view(0)
    button = {c.id: c for c in table.presenter(0).commands(view)}[buttons.GUESS_COMMAND]
    assert button.enabled and button.label == "Guess..." and not button.anytime
    on = table.input(0, table.presenter(0).command(view, buttons.GUESS_COMMAND))
    assert isinstance(on, MarksChange) and on.marks["guessing_at"] == moment(view)
    assert table.game.phase == "move" and len(table.game.observations(0)) == 3  # nothing played
    presenter = table.presenter(0)
    assert presenter.prompt(view) == "Click the cell of the checker and piece you guess, or Cancel guess"
    assert {c.id: c for c in presenter.commands(view)}[buttons.GUESS_COMMAND].label == "Cancel guess"
    grid = presenter.scene(view).zone(THEIRS)
    assert isinstance(grid, GridZone) and grid.label == "Their checkers: click to guess"
    # Black's arrangement is unknown; Chess960 keeps the king off the corners: those cells are greyed out.
    assert grid.shade(0, 0) == 0.0 and grid.shade(0, 7) == 0.0 and grid.shade(0, 2) > 0
    with pytest.raises(InputError, match="would be wrong"):
        presenter.on_zone(view, THEIRS, grid_index(1, "K"))
    guess = table.input(0, presenter.on_zone(view, THEIRS, grid_index(3, "K")))
    assert guess == Guess(3, "K")  # Black's arrangement NRKBBQRN: checker 3 is the king
    told = table.game.observations(0)[-1]
    assert isinstance(told, Guessed) and told.right
    assert PRESENTER.describe(told, 1) == "White guessed checker 3 is a king: right, White gets a bonus move after its move."
    # One guess a turn: the mode is over, the button is off, the next click is a mark again.
    view = table.view(0)
    presenter = table.presenter(0)
    assert presenter.prompt(view) == "Your move"
    assert not {c.id: c for c in presenter.commands(view)}[buttons.GUESS_COMMAND].enabled
    assert presenter.scene(view).zone(THEIRS).label == "Their checkers: your notes"
    mark = table.input(0, presenter.on_zone(view, THEIRS, grid_index(5, "Q")))
    assert isinstance(mark, MarksChange) and mark.marks["grid"] == {"5Q": "o"}
    assert table.game.to_move == 0 and table.game.phase == "move"  # a mark is never played
    with pytest.raises(InputError, match="once a turn"):
        table.presenter(0).command(view, buttons.GUESS_COMMAND)
    # The guessed king shows on White's board as Black's checker 3 with its piece.
    assert read_checker(PRESENTER.scene(view).pieces[cell("c8")]).piece == "K"
    with pytest.raises(InputError, match="already know"):
        inputs.guess(view, 3, "Q")


def test_cancel_guess_or_a_move_ends_the_guess_mode_and_a_click_marks_again() -> None:
    table = Table()
    view = table.view(0)
    table.input(0, table.presenter(0).command(view, buttons.GUESS_COMMAND))
    off = table.input(0, table.presenter(0).command(view, buttons.GUESS_COMMAND))  # "Cancel guess"
    assert isinstance(off, MarksChange) and off.marks["guessing_at"] == -1
    assert table.presenter(0).prompt(view) == "Your move, or Guess... before moving"
    assert isinstance(table.input(0, table.presenter(0).on_zone(view, THEIRS, grid_index(3, "K"))), MarksChange)
    # On again, then a move instead of a guess: the mode belonged to that move phase only.
    table.input(0, table.presenter(0).command(view, buttons.GUESS_COMMAND))
    table.move(0, "e2", "e4")
    table.end_turn(0)
    table.move(1, "e7", "e5")
    table.input(1, table.presenter(1).command(table.view(1), buttons.END_COMMAND))
    view = table.view(0)
    presenter = table.presenter(0)
    assert presenter.marks.guessing_at >= 0 and not presenter.marks.guessing(view)  # kept, but stale
    assert presenter.prompt(view) == "Your move, or Guess... before moving"
    assert {c.id: c for c in presenter.commands(view)}[buttons.GUESS_COMMAND].label == "Guess..."
    answer = table.input(0, presenter.on_zone(view, THEIRS, grid_index(4, "Q")))
    assert isinstance(answer, MarksChange) and table.game.to_move == 0
    assert not any(isinstance(o, Guessed) for o in table.game.observations(0))
    # Typed guesses need no mode, and may name a guess the grid would refuse as surely wrong.
    assert presenter.parse_text(view, "1=K") == Guess(1, "K")
    # Not the seat's turn: no mode to turn on.
    table.move(0, "d2", "d4")
    table.end_turn(0)
    with pytest.raises(InputError, match="not your turn"):
        table.presenter(0).command(table.view(0), buttons.GUESS_COMMAND)
    assert not {c.id: c for c in table.presenter(0).commands(table.view(0))}[buttons.GUESS_COMMAND].enabled


def test_in_guess_mode_a_known_checker_is_greyed_out_and_its_cells_refused() -> None:
    table = Table()
    table.move(0, "e2", "e4")
    table.end_turn(0)
    table.move(1, "e7", "e5")
    table.input(1, PRESENTER.on_square(table.view(1), cell("a8")))  # Black uncloaks checker 1, a knight
    table.input(1, table.presenter(1).command(table.view(1), buttons.UNCLOAK_COMMAND))
    view = table.view(0)
    table.input(0, table.presenter(0).command(view, buttons.GUESS_COMMAND))
    presenter = table.presenter(0)
    grid = presenter.scene(view).zone(THEIRS)
    assert isinstance(grid, GridZone)
    assert [grid.shade(row, 0) for row in range(5)] == [0.0] * 5  # checker 1's column: nothing to guess
    assert [grid.note(row, 0) for row in range(5)] == [""] * 5
    assert grid.shade(2, 1) is not None and grid.shade(2, 1) > 0 and grid.note(2, 1)  # checker 2: open, as before
    plain = PRESENTER.scene(view).zone(THEIRS)
    assert plain.shade(4, 0) == 1.0 and plain.note(4, 0) == "100%"  # out of the mode: known to be the knight
    with pytest.raises(InputError, match="not a cloaked checker"):
        presenter.on_zone(view, THEIRS, grid_index(1, "N"))
    assert presenter.marks.guessing(view)  # a refused click leaves the mode on
    assert presenter.on_zone(view, THEIRS, grid_index(2, "R")) == Guess(2, "R")


def test_without_the_deduction_option_guess_mode_greys_out_only_what_cannot_be_guessed() -> None:
    game = CloakChess.from_options({"deduction": "off"})
    game.play(0, Arrange(WHITE_ARRANGEMENT))
    game.play(1, Arrange(BLACK_ARRANGEMENT))
    view = view_of(game, 0)
    presenter = PRESENTER.bound(PRESENTER.command(view, buttons.GUESS_COMMAND).marks)
    grid = presenter.scene(view).zone(THEIRS)
    assert isinstance(grid, GridZone) and not grid.notes
    assert all(grid.shade(row, column) is None for row in range(5) for column in range(8))  # all open
    assert presenter.on_zone(view, THEIRS, grid_index(1, "K")) == Guess(1, "K")  # no deduction to refuse it


def test_a_wrong_guess_gives_the_opponent_its_bonus_with_pawn_moves_and_a_skip() -> None:
    table = Table()
    assert table.guess(0, 2, "K") == Guess(2, "K")
    wrong = table.game.observations(1)[-1]
    assert PRESENTER.describe(wrong, 0) == "White guessed checker 2 is a king: wrong, Black gets a bonus move."
    table.move(0, "e2", "e4")
    table.end_turn(0)
    black = table.view(1)
    assert table.game.phase == "bonus" and table.game.to_move == 1
    scene = PRESENTER.scene(black)
    pawn_moves = {(origin, target) for origin, ds in scene.targets.items() for target in ds}
    assert (cell("d7"), cell("d5")) in pawn_moves and all(scene.pieces[o] == "p" for o, _ in pawn_moves)
    assert [c.label for c in PRESENTER.commands(black)][:1] == ["Skip bonus"]
    assert PRESENTER.on_move(black, cell("d7"), cell("d5"), None) == Bonus("d7d5")
    assert PRESENTER.parse_text(black, "skip") == Bonus(None)
    table.input(1, PRESENTER.command(black, buttons.SKIP_COMMAND))
    assert PRESENTER.describe(table.game.observations(0)[-1], 0) == "Black skipped its bonus move."
    assert table.game.phase == "move" and table.game.to_move == 1  # Black's own turn follows its bonus
    with pytest.raises(InputError):
        PRESENTER.command(table.view(1), buttons.SKIP_COMMAND)


def test_a_drop_is_a_click_on_a_marked_square_after_drop_a_pawn() -> None:
    table = Table("RNBQKBNR", "RNBQKBNR")
    table.move(0, "e2", "e4")
    table.end_turn(0)
    table.move(1, "d7", "d5")
    table.end_turn(1)
    table.move(0, "e4", "d5")  # Black's d-pawn is taken: Black may drop it in a bonus
    table.end_turn(0)
    table.guess(1, 5, "K")  # right: Black's bonus follows
    table.move(1, "g8", "f6")
    black = table.view(1)
    assert table.game.phase == "bonus" and black.pawns_to_drop[1] == 1
    presenter = table.presenter(1)
    scene = presenter.scene(black)
    assert scene.sense_window is None and scene.targets  # pawn moves first, drop squares marked
    drop_marker = next(marker for marker in scene.markers if marker.label == "drop")
    assert drop_marker.squares == (cell("d7"),)
    assert "Drop a pawn" in [c.label for c in presenter.commands(black)]
    table.input(1, presenter.command(black, buttons.DROP_COMMAND))
    presenter = table.presenter(1)
    scene = presenter.scene(black)
    assert scene.sense_window is not None and scene.sense_window(cell("d7")) == [cell("d7")]
    assert scene.sense_window(cell("c7")) == [] and not scene.targets
    assert "Move a pawn instead" in [c.label for c in presenter.commands(black)]
    with pytest.raises(InputError, match="second rank"):
        presenter.on_square(black, cell("c6"))
    assert PRESENTER.parse_text(black, "P@d7") == Bonus("P@d7")
    assert presenter.parse_text(black, "c7c6") == Bonus("c7c6")  # typing still reads pawn moves
    assert presenter.entry_hint(black) == "Type a pawn move (e4e5), a drop (P@c2) or skip"
    table.input(1, presenter.on_square(black, cell("d7")))
    dropped = table.game.observations(0)[-1]
    assert isinstance(dropped, Dropped) and PRESENTER.describe(dropped, 0) == "Bonus: Black dropped a pawn on d7."
    assert table.game.phase == "uncloak"
    assert "P@d7" in PRESENTER.move_list(table.view(0))[-1]


def test_uncloaking_by_clicks_on_own_checkers_then_the_button() -> None:
    table = Table()
    table.move(0, "g1", "f3")
    view = table.view(0)
    assert table.game.phase == "uncloak"
    scene = PRESENTER.scene(view)
    assert scene.sense_window is not None and scene.sense_window(cell("f3")) == [cell("f3")]
    assert scene.sense_window(cell("e2")) == []
    commands = {c.id: c for c in PRESENTER.commands(view)}
    assert commands[buttons.END_COMMAND].enabled and not commands[buttons.UNCLOAK_COMMAND].enabled
    for square in ("f3", "d1", "f3", "a1"):
        table.input(0, table.presenter(0).on_square(view, cell(square)))
    presenter = table.presenter(0)
    assert presenter.marks.pending_uncloak(view) == (1, 4)
    picked = [marker for marker in presenter.scene(view).markers if marker.kind == "reveal"]
    assert picked and set(picked[0].squares) == {cell("a1"), cell("d1")}
    button = {c.id: c for c in presenter.commands(view)}[buttons.UNCLOAK_COMMAND]
    assert button.enabled and button.label == "Uncloak 1, 4 and end turn"
    with pytest.raises(InputError):
        presenter.on_square(view, cell("e2"))  # a pawn is no checker
    table.input(0, presenter.command(view, buttons.UNCLOAK_COMMAND))
    uncloaked = table.game.observations(1)[-1]
    assert isinstance(uncloaked, Uncloaked) and uncloaked.identities == {1: "R", 4: "Q"}
    assert PRESENTER.describe(uncloaked, 1) == "White uncloaked checker 1: rook, checker 4: queen."
    black = PRESENTER.scene(table.view(1))
    assert black.pieces[cell("a1")] == "R" and black.pieces[cell("d1")] == "Q"  # normal pieces now
    # The picks belonged to that turn: the next uncloak phase starts with none.
    table.move(1, "a7", "a6")
    table.end_turn(1)
    table.move(0, "e2", "e4")
    assert PRESENTER.bound(table.marks[0]).marks.pending_uncloak(table.view(0)) == ()
    assert PRESENTER.parse_text(table.view(0), "uncloak 2") == Uncloak((2,))
    with pytest.raises(InputError, match="cloaked"):
        PRESENTER.parse_text(table.view(0), "uncloak 1")


def test_typed_moves_guesses_and_promotions() -> None:
    table = Table()
    view = table.view(0)
    assert PRESENTER.parse_text(view, "guess 6 q") == Guess(6, "Q")
    assert PRESENTER.parse_text(view, "6=B") == Guess(6, "B")
    assert PRESENTER.parse_text(view, "Nf3") == Move("g1f3")  # checker 7 is White's knight
    assert PRESENTER.parse_text(view, "e2e4") == Move("e2e4")
    with pytest.raises(InputError):
        PRESENTER.parse_text(view, "Qh5")
    table.move(0, "e2", "e4")
    with pytest.raises(InputError, match="checkers to uncloak"):
        PRESENTER.parse_text(table.view(0), "Nf3")  # the uncloak phase reads numbers
    table.end_turn(0)
    with pytest.raises(InputError, match="not your turn"):
        PRESENTER.parse_text(table.view(0), "Nf3")


def test_a_promotion_offers_the_four_pieces() -> None:
    table = Table("RNBQKBNR", "RNBQKBNR")
    script = [("h2", "h4"), ("g7", "g5"), ("h4", "g5"), ("h7", "h6"), ("g5", "h6"), ("a7", "a6"), ("h6", "h7"),
              ("a6", "a5")]
    for index, (origin, target) in enumerate(script):
        seat = index % 2
        table.move(seat, origin, target)
        table.end_turn(seat)
    view = table.view(0)
    targets = PRESENTER.scene(view).targets
    assert targets[cell("h7")][cell("g8")] == ["q", "r", "b", "n"]
    assert PRESENTER.on_move(view, cell("h7"), cell("g8"), "n") == Move("h7g8n")
    table.move(0, "h7", "g8", "n")
    moved = table.game.observations(1)[-1]
    assert PRESENTER.describe(moved, 1) == ("White pawn h7 to g8, captured Black checker 7, a knight, promoted to "
                                            "knight.")
    assert PRESENTER.scene(table.view(1)).pieces[cell("g8")] == "N"


# ---- private marks -----------------------------------------------------------------------------------------------

def test_grid_marks_cycle_undo_redo_and_survive_the_records_json() -> None:
    table = Table()
    table.move(0, "e2", "e4")
    table.end_turn(0)
    view = table.view(0)  # Black to move: White marks out of turn
    for _ in range(2):
        table.input(0, table.presenter(0).on_zone(view, THEIRS, grid_index(2, "N")))
    table.input(0, table.presenter(0).on_zone(view, THEIRS, grid_index(6, "R")))
    assert table.marks[0]["grid"] == {"2N": "x", "6R": "o"}
    commands = {c.id: c for c in table.presenter(0).commands(view)}
    assert commands[buttons.UNDO_COMMAND].anytime and commands[buttons.UNDO_COMMAND].enabled
    table.input(0, table.presenter(0).command(view, buttons.UNDO_COMMAND))
    table.input(0, table.presenter(0).command(view, buttons.UNDO_COMMAND))
    assert table.marks[0]["grid"] == {"2N": "o"}
    table.input(0, table.presenter(0).command(view, buttons.REDO_COMMAND))
    assert table.marks[0]["grid"] == {"2N": "x"}
    # Through the record: the session keeps the marks as JSON and gives them back the same.
    session = GameSession(CloakChess())
    session.set_notes(0, marks=table.marks[0])
    again = PRESENTER.bound(session.notes(0).marks)
    assert again.marks == CloakMarks.read(table.marks[0]) and again.marks.to_json() == table.marks[0]
    grid = again.scene(view).zone(THEIRS)
    assert isinstance(grid, GridZone) and grid.marks[4][1] == grids.SHOWN_MARKS["x"]
    with pytest.raises(InputError, match="own checkers"):
        again.on_zone(view, YOURS, 0)


def test_the_grids_show_what_is_still_possible_and_flag_a_contradicted_mark() -> None:
    table = Table()
    table.move(0, "e2", "e4")
    table.end_turn(0)
    table.move(1, "a8", "b6")  # Black's checker 1 jumps: a knight
    table.end_turn(1)
    view = table.view(0)
    presenter = PRESENTER.bound({"grid": {"1N": "x", "1Q": "o", "2R": "o"}})
    grid = presenter.scene(view).zone(THEIRS)
    deduction = Deduction.about(view, 1)
    assert isinstance(grid, GridZone)
    for row, piece in enumerate("KQRBN"):
        for column in range(8):
            chance = deduction.probability(column + 1, piece)
            assert grid.shade(row, column) == chance
            assert grid.note(row, column) == ("" if chance == 0 else f"{round(chance * 100)}%" if chance >= 0.01
                                              else "<1%")
    assert grid.shade(4, 0) == 1.0 and grid.shade(1, 0) == 0.0  # checker 1 is a knight, so not a queen
    assert "every arrangement" in grid.flag(4, 0) and "no arrangement" in grid.flag(1, 0)
    assert grid.flag(2, 1) == ""
    own = presenter.scene(view).zone(YOURS)
    mine = Deduction.about(view, 0)
    assert isinstance(own, GridZone) and own.shade(0, 4) == mine.probability(5, "K")


def test_without_the_deduction_option_the_grids_hold_marks_only() -> None:
    game = CloakChess.from_options({"deduction": "off"})
    game.play(0, Arrange(WHITE_ARRANGEMENT))
    game.play(1, Arrange(BLACK_ARRANGEMENT))
    for seat in (0, 1):
        view = view_of(game, seat)
        assert view.deduction is False
        scene = PRESENTER.bound({"grid": {"1Q": "o"}}).scene(view)
        for zone_id in (THEIRS, YOURS):
            grid = scene.zone(zone_id)
            assert isinstance(grid, GridZone) and not grid.shades and not grid.notes and not grid.flags
        assert scene.zone(YOURS).label == "Your checkers"
    shaded = PRESENTER.scene(view_of(Table().game, 0)).zone(THEIRS)
    assert isinstance(shaded, GridZone) and shaded.shades  # on by default


def test_malformed_marks_are_read_as_none() -> None:
    for bad in (None, [], "x", {"draft": "QQQQQQQQQ", "grid": {"3N": "maybe", "99": "o"}, "undo": "x",
                                "uncloak": [1, "2", 99], "uncloak_at": "3", "guessing_at": "3"}):
        marks = CloakMarks.read(bad)
        assert marks.grid == {} and marks.draft == "." * 8 and marks.uncloak in ((), (1,))
        assert marks.guessing_at == -1 == marks.uncloak_at


# ---- words, the true position, exports ------------------------------------------------------------------------------

def test_the_log_says_moves_captures_and_the_score_sheet_numbers_them() -> None:
    table = Table("RNBQKBNR", "RNBQKBNR")
    table.move(0, "e2", "e4")
    table.end_turn(0)
    table.move(1, "b8", "c6")
    black_move = table.game.observations(0)[-1]
    assert PRESENTER.describe(black_move, 0) == "Black checker 2 (cloaked) b8 to c6."
    table.end_turn(1)
    table.move(0, "f1", "b5")
    table.end_turn(0)
    table.move(1, "a7", "a6")
    table.end_turn(1)
    table.move(0, "b5", "c6")
    capture = table.game.observations(1)[-1]
    assert PRESENTER.describe(capture, 1) == "White checker 6 (cloaked) b5 to c6, captured Black checker 2, a knight."
    assert PRESENTER.move_list(table.view(1)) == ["1. e2-e4  c2:b8-c6", "2. c6:f1-b5  a7-a6", "3. c6:b5xc6"]


def test_the_truth_shows_every_checker_with_its_piece() -> None:
    table = Table()
    scene = PRESENTER.truth_scene(table.game.truth())
    assert [read_checker(scene.pieces[(file, 0)]).piece for file in range(8)] == list(WHITE_ARRANGEMENT)
    assert [read_checker(scene.pieces[(file, 7)]).piece for file in range(8)] == list(BLACK_ARRANGEMENT)
    assert scene.pieces[cell("e2")] == "P"


def test_a_seats_board_image_shows_its_own_pieces_in_the_discs_and_no_enemy_one() -> None:
    from app.engine.record import Timeline
    from app.exports import frame_svg
    session = GameSession(CloakChess())
    session.play(0, Arrange(WHITE_ARRANGEMENT))
    session.play(1, Arrange(BLACK_ARRANGEMENT))
    timeline = Timeline(session.record)
    white = frame_svg("cloak", timeline.frame(timeline.steps, 0))
    black = frame_svg("cloak", timeline.frame(timeline.steps, 1))
    assert white.count('class="checker"') == 16 == black.count('class="checker"')
    # White's own discs carry its pieces (drawn in the contrasting colour); none of Black's do, and back.
    assert '#black-queen' in white and '#white-queen' not in white
    assert '#white-queen' in black and '#black-queen' not in black
    truth = frame_svg("cloak", timeline.frame(timeline.steps, None))
    assert '#white-queen' in truth and '#black-queen' in truth


def test_the_text_export_has_both_arrangements_guesses_bonuses_and_uncloaks() -> None:
    from app.games.cloak.formats import cloak_move_list
    session = GameSession(CloakChess())
    game = session.game
    session.play(0, Arrange("RNBQKBNR"))
    session.play(1, Arrange("NRKBBQRN"))
    session.play(0, Guess(1, "Q"))
    session.play(0, Move("e2e4"))
    session.play(0, Uncloak((4,)))
    session.play(1, Bonus("d7d5"))
    session.play(1, Move("a8b6"))
    session.play(1, Uncloak(()))
    session.play(0, Move("e4d5"))
    from app.engine.core import Resign
    session.play(0, Resign())
    text = cloak_move_list(session.record)
    assert '[WhiteArrangement "RNBQKBNR"]' in text and '[BlackArrangement "NRKBBQRN"]' in text
    assert "1. {White guesses checker 1 is a queen: wrong} e2-e4 {White uncloaks 4 (queen)}" in text
    assert "{Black's bonus: d7-d5} 1... N[1]a8-b6 2. e4xd5 0-1" in " ".join(text.split())
    assert game.outcome is not None


def test_a_draw_is_offered_by_the_button_and_answered_by_the_other_seat() -> None:
    from app.games.cloak.rules import AnswerDraw, OfferDraw
    table = Table()
    view = table.view(0)
    offer = {c.id: c for c in PRESENTER.commands(view)}[buttons.OFFER_DRAW]
    assert offer.enabled and offer.label == "Offer draw"
    assert PRESENTER.parse_text(view, "draw") == OfferDraw()
    table.input(0, PRESENTER.command(view, buttons.OFFER_DRAW))
    black = table.view(1)
    assert table.game.phase == "answer_draw" and table.game.to_move == 1
    assert PRESENTER.prompt(black) == "White offers a draw: Accept draw or Decline draw"
    assert [c.id for c in PRESENTER.commands(black)][:2] == [buttons.ACCEPT_DRAW, buttons.DECLINE_DRAW]
    assert PRESENTER.parse_text(black, "accept") == AnswerDraw(True)
    table.input(1, PRESENTER.command(black, buttons.DECLINE_DRAW))
    lines = [PRESENTER.describe(o, 0) for o in table.game.observations(0)[-2:]]
    assert lines == ["White offered a draw.", "Black declined the draw."]
    view = table.view(0)
    assert table.game.to_move == 0 and not {c.id: c for c in PRESENTER.commands(view)}[buttons.OFFER_DRAW].enabled
    with pytest.raises(InputError, match="once a turn"):
        PRESENTER.command(view, buttons.OFFER_DRAW)
    assert PRESENTER.parse_text(view, "e2e4") == Move("e2e4")  # the turn goes on


def test_check_is_heard_and_said_and_an_arrangement_is_told_in_words() -> None:
    from app.games.cloak.sentences import describe_cloak
    from app.games.cloak.view import Arranged, Checked
    assert PRESENTER.sounds(Checked(1), 0) == ("check",) and PRESENTER.sounds(Checked(1), 1) == ("check",)
    assert describe_cloak(Checked(1), 0) == "Black is in check." and describe_cloak(Checked(1), 1) == \
        "You are in check."
    assert describe_cloak(Arranged(0, "RNBQKBNR"), 0) == ("You arranged your pieces in secret: checkers 1 to 8 are "
                                                         "rook, knight, bishop, queen, king, bishop, knight, rook.")


def test_an_observation_alone_finds_its_words_through_the_game_that_defines_it() -> None:
    # The shared describe() finds a game by the module of an observation's class: the referee's or the view's,
    # the same two the app trusts a bot's answer from.
    from app.games.describe import describe
    guessed = Guessed(0, 3, "N", False)
    assert describe(guessed, False) == PRESENTER.describe(guessed, 1) == \
        "White guessed checker 3 is a knight: wrong, Black gets a bonus move."
