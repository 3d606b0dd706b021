"""Split-Brain Chess: every ruling (SB1-SB4, G1, G5 through the session), the privacy of the picks, records,
exports, the perft command and the bots."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from app.bots.base import ActionRequest
from app.engine.clock import TimeControl
from app.engine.core import IllegalAction, Reason
from app.engine.record import GameSession, Timeline
from app.games.presenter import InputError
from app.games.splitbrain.bots import SplitBrainEngineBot, SplitBrainRandomBot, pair_value
from app.games.splitbrain.losalamos import parse_square
from app.games.splitbrain.presenter import PRESENTER, cell
from app.games.splitbrain.rules import (AnswerDraw, Decide, Moved, OfferDraw, Picked, PickPiece, PickSquare, Promote,
                                        Revealed, Settle, SplitBrainChess, SplitBrainView, YourPick)

W1, W2, B1, B2 = range(4)
SEAT_NUMBERS = {"W1": W1, "W2": W2, "B1": B1, "B2": B2}


def flat(choices: dict[str, Any]) -> list[Any]:
    return [action for actions in choices.values() for action in actions]


def moves_of(game: SplitBrainChess) -> list[tuple[str, str]]:
    return [(o.move, o.how) for o in game.observations(0) if isinstance(o, Moved)]


def view(game: SplitBrainChess, seat: int) -> SplitBrainView:
    return SplitBrainView.from_observations(game.observations(seat))


# ---- SB2, SB3: seats, the coin and the picks ----------------------------------------------------------------

def test_a_legal_pair_is_played_and_the_coin_switches_after_each_black_move() -> None:
    game = SplitBrainChess()
    assert (game.to_move, game.coin) == (W1, "king")  # the king-side partners choose first
    game.play(W1, PickPiece("b2"))
    assert game.to_move == W2
    game.play(W2, PickSquare("b3"))
    assert moves_of(game) == [("b2b3", "as picked")] and game.coin == "king" and game.to_move == B1
    game.play(B1, PickPiece("e5"))
    game.play(B2, PickSquare("e4"))
    assert game.coin == "queen" and game.ply == 2
    assert game.to_move == W2  # now the queen-side partner chooses
    game.play(W2, PickPiece("c2"))
    assert game.to_move == W1
    game.play(W1, PickSquare("c3"))
    assert game.to_move == B2 and view(game, B1).roles == (B2, B1)


@pytest.mark.parametrize("seat, action, message", [
    (W1, PickPiece("a1"), "holds no piece"),  # the rook cannot move
    (W1, PickPiece("c3"), "holds no piece"),  # empty
    (W1, PickPiece("b5"), "holds no piece"),  # Black's pawn
    (W1, PickSquare("b3"), "must pick a piece"),
    (W1, PickPiece("z9"), "not a square"),
    (W2, PickPiece("b2"), "not W2's turn"),
])
def test_only_valid_picks_are_taken(seat: int, action: Any, message: str) -> None:
    game = SplitBrainChess()
    with pytest.raises(IllegalAction, match=message):
        game.play(seat, action)
    assert game.to_move == W1 and game.piece is None


def test_the_mover_may_pick_only_a_square_some_piece_reaches() -> None:
    game = SplitBrainChess()
    game.play(W1, PickPiece("b2"))
    with pytest.raises(IllegalAction, match="can move to b4"):
        game.play(W2, PickSquare("b4"))  # no double step in Los Alamos chess
    assert {a.square for a in game.choices()["squares"]} == {"a3", "b3", "c3", "d3", "e3", "f3"}


def test_picks_stay_with_their_seat_until_both_are_in() -> None:
    game = SplitBrainChess()
    game.play(W1, PickPiece("b1"))
    for seat in (W2, B1, B2):
        told = game.observations(seat)
        assert not any(isinstance(o, YourPick) for o in told) and Picked(W1, "piece") in told
        assert view(game, seat).my_pick is None
    assert view(game, W1).my_pick == ("piece", parse_square("b1"))
    game.play(W2, PickSquare("a3"))
    assert all(Revealed(0, parse_square("b1"), parse_square("a3"), True, "N", W1, W2) in game.observations(seat)
               for seat in range(4))


@pytest.mark.parametrize("seed", range(4))
def test_no_other_seat_can_tell_which_pick_was_made_before_the_reveal(seed: int) -> None:
    """At every pick of a random game, the three other seats' observations, views and choices are the same
    whichever valid pick the picking seat made (a second game differing only in that pick is compared)."""
    rng = random.Random(seed)
    game = SplitBrainChess()
    for _ in range(40):
        if game.outcome is not None:
            break
        seat, options = game.to_move, [a for a in flat(game.choices()) if type(a) is not OfferDraw]
        if game.phase == "pick" and len(options) > 1 and game.piece is None:
            first, second = rng.sample(options, 2)
            a, b = copy.deepcopy(game), copy.deepcopy(game)
            a.play(seat, first)
            b.play(seat, second)
            for other in set(range(4)) - {seat}:
                assert a.observations(other) == b.observations(other)
                assert view(a, other) == view(b, other)
            assert a.to_move == b.to_move and a.choices() == b.choices()  # the partner's choices do not depend on it
        game.play(seat, rng.choice(options))


# ---- SB4: resolution ---------------------------------------------------------------------------------------------

def test_the_opponents_chooser_is_asked_whenever_the_pair_is_no_move() -> None:
    game = SplitBrainChess()
    game.play(W1, PickPiece("b1"))  # the knight reaches a3 and c3
    game.play(W2, PickSquare("f3"))  # the f-pawn and the e1 knight reach f3
    assert (game.phase, game.to_move) == ("decide", B1)  # Black's chooser, on the coin's side like W1
    assert game.choices() == {"decisions": [Decide("piece"), Decide("square")]}
    with pytest.raises(IllegalAction, match="piece or the square"):
        game.play(B1, Decide("both"))
    with pytest.raises(IllegalAction, match="not B2's turn"):
        game.play(B2, Decide("piece"))
    game.play(B1, Decide("square"))
    assert moves_of(game) == [("e1f3", "by square")] and game.to_move == B1  # e1 is 3 steps from b1, f2 is 5


def test_the_piece_stands_the_closest_move_and_a_tie_is_the_movers() -> None:
    game = SplitBrainChess()
    game.play(W1, PickPiece("b1"))
    game.play(W2, PickSquare("e3"))
    game.play(B1, Decide("piece"))
    assert moves_of(game) == [("b1c3", "by piece")]  # c3 is 2 steps from e3, a3 is 4
    game = SplitBrainChess()
    game.play(W1, PickPiece("b1"))
    game.play(W2, PickSquare("b3"))  # a3 and c3 are both one step from b3
    game.play(B1, Decide("piece"))
    assert (game.phase, game.to_move) == ("tie", W2)  # the mover settles a tie of the piece
    assert [a.move for a in game.choices()["moves"]] == ["b1a3", "b1c3"]
    with pytest.raises(IllegalAction, match="not one of"):
        game.play(W2, Settle("b2b3"))
    game.play(W2, Settle("b1a3"))
    assert moves_of(game) == [("b1a3", "by piece")]


def test_the_square_stands_the_closest_piece_and_a_tie_is_the_choosers() -> None:
    game = SplitBrainChess()
    game.play(W1, PickPiece("a2"))
    game.play(W2, PickSquare("e3"))  # only the e-pawn reaches e3 (the e1 knight goes to d3 or f3)
    game.play(B1, Decide("square"))
    assert moves_of(game) == [("e2e3", "by square")]
    game = SplitBrainChess()
    game.play(W1, PickPiece("a2"))
    game.play(W2, PickSquare("f3"))  # the f2 pawn and the e1 knight are both 5 steps from a2
    game.play(B1, Decide("square"))
    assert (game.phase, game.to_move) == ("tie", W1)
    game.play(W1, Settle("e1f3"))
    assert moves_of(game) == [("e1f3", "by square")]


def test_a_promotion_is_the_movers_choice() -> None:
    # White pawns on b5 and d5 can both take the knight on c6.
    game = SplitBrainChess.from_options({"fen": "2n2k/1P1P2/6/6/6/R4K w - - 0 1"})
    game.play(W1, PickPiece("a1"))
    game.play(W2, PickSquare("c6"))  # a1-c6 is no rook move
    game.play(B1, Decide("square"))  # b5 is 5 steps from a1, d5 is 7: the b-pawn takes
    assert (game.phase, game.to_move) == ("promote", W2)
    assert [a.piece for a in game.choices()["promotions"]] == ["q", "r", "n"]
    with pytest.raises(IllegalAction, match="q, r or n"):
        game.play(W2, Promote("b"))  # no bishops in Los Alamos chess
    game.play(W2, Promote("n"))
    assert moves_of(game) == [("b5c6n", "by square")] and game.position.board[parse_square("c6")] == "N"


def test_a_tie_then_a_promotion_asks_the_chooser_then_the_mover() -> None:
    game = SplitBrainChess.from_options({"fen": "2n2k/1P1P2/6/6/6/2K3 w - - 0 1"})
    game.play(W1, PickPiece("c1"))  # the king on c1 is 5 steps from b5 and from d5
    game.play(W2, PickSquare("c6"))
    game.play(B1, Decide("square"))
    assert (game.phase, game.to_move) == ("tie", W1)  # the chooser settles the tie of the square
    game.play(W1, Settle("d5c6"))
    assert (game.phase, game.to_move) == ("promote", W2)  # then the mover chooses the promotion
    game.play(W2, Promote("q"))
    assert moves_of(game) == [("d5c6q", "by square")]


# ---- SB1: the end ------------------------------------------------------------------------------------------------

def test_checkmate_wins_for_the_team() -> None:
    game = SplitBrainChess.from_options({"fen": "k5/2K3/1Q4/6/6/6 w - - 0 1"})
    game.play(W1, PickPiece("b4"))
    game.play(W2, PickSquare("b5"))
    assert game.outcome is not None and game.outcome.team == 0 and game.outcome.winner is None
    assert "checkmated" in game.outcome.detail


def test_stalemate_bare_kings_and_fifty_moves_draw() -> None:
    stalemate = SplitBrainChess.from_options({"fen": "k5/6/1QK3/6/6/6 b - - 0 1"})
    assert stalemate.outcome is not None and stalemate.outcome.reason == Reason.NO_MOVES
    assert stalemate.outcome.team is None
    bare = SplitBrainChess.from_options({"fen": "k5/6/6/6/6/4nK w - - 0 1"})
    assert bare.outcome is not None and bare.outcome.reason == Reason.INSUFFICIENT_MATERIAL
    game = SplitBrainChess.from_options({"fen": "k5/6/6/6/6/1R3K w - - 99 80"})
    game.play(W1, PickPiece("b1"))
    game.play(W2, PickSquare("b2"))
    assert game.outcome is not None and game.outcome.reason == Reason.MOVE_LIMIT


def test_bad_options_are_refused_with_a_sentence() -> None:
    for options, message in (({"fen": "8/8 w"}, "bad starting position"), ({"coin": "middle"}, "king or the queen"),
                             ({"speed": 1}, "no option speed")):
        with pytest.raises(ValueError, match=message):
            SplitBrainChess.from_options(options)
    assert SplitBrainChess.from_options({"coin": "queen"}).to_move == W2


# ---- records, team clocks, exports, perft ---------------------------------------------------------------------

def _bot_game(seed: int, bots: tuple[type, ...] = (SplitBrainEngineBot, SplitBrainEngineBot, SplitBrainRandomBot,
                                                    SplitBrainRandomBot)) -> GameSession:
    game = SplitBrainChess()
    session = GameSession(game, TimeControl(None, 0))
    players = [bot(seed=seed * 4 + seat) for seat, bot in enumerate(bots)]
    seen = [0] * 4
    for seat, player in enumerate(players):
        player.start(seat, {})
    while game.outcome is None and game.ply < 200:
        for seat, player in enumerate(players):
            for observation in game.observations(seat)[seen[seat]:]:
                player.observe(observation)
            seen[seat] = len(game.observations(seat))
        seat = game.to_move
        action = players[seat].act(ActionRequest(seat, game.phase, game.choices()))
        assert action in flat(game.choices())
        session.play(seat, action)
    return session


def test_a_record_replays_to_the_same_game_and_reads_back(tmp_path: Path) -> None:
    session = _bot_game(1)
    record = session.record
    path = tmp_path / "game.json"
    record.save(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["variant"] == "splitbrain" and {entry["action"]["type"] for entry in data["actions"]} >= {
        "pick_piece", "pick_square"}
    timeline = Timeline(record)
    assert timeline.game.truth() == session.game.truth() and timeline.game.outcome == session.game.outcome
    for entry in data["actions"]:
        action = SplitBrainChess.action_from_json(entry["action"])
        assert action.to_json() == entry["action"]
    with pytest.raises(ValueError, match="splitbrain action 'pick_piece': square must be text, not 3"):
        SplitBrainChess.action_from_json({"type": "pick_piece", "square": 3})


def test_the_move_list_export_holds_the_picks_and_never_a_pick_not_yet_shown() -> None:
    from app.exports import export_text
    game = SplitBrainChess()
    session = GameSession(game, TimeControl(None, 0))
    session.play(W1, PickPiece("a2"))
    session.play(W2, PickSquare("f3"))
    session.play(B1, Decide("square"))
    session.play(W1, Settle("f2f3"))
    session.play(B1, PickPiece("b6"))  # B1's pick is not shown yet
    text = export_text(session.record, "splitbrain")
    assert "{W1 a2, W2 f3: no move; B1 chose the square; W1 settled a tie} f2-f3" in text
    assert "b6" not in text and text.rstrip().endswith("{the game is still in progress}")


def test_a_board_image_of_the_six_by_six_board() -> None:
    from app.exports import frame_svg
    session = _bot_game(2)
    svg = frame_svg("splitbrain", Timeline(session.record).frame(4, None))
    assert svg.startswith("<svg") and ">f<" in svg and ">6<" in svg and ">g<" not in svg


def test_sightline_perft_counts_los_alamos(capsys: pytest.CaptureFixture[str]) -> None:
    from app.cli import main
    assert main(["perft", "--variant", "losalamos", "--depth", "3"]) == 0
    assert "depth 3: 1212" in capsys.readouterr().out
    assert main(["perft", "--variant", "losalamos", "--depth", "2", "--position", "k5/6/6/6/6/5K w - - 0 1"]) == 0
    assert "depth 2: 9" in capsys.readouterr().out
    assert main(["perft", "--variant", "losalamos", "--position", "rnbqkbnr/8 w"]) == 2
    assert "bad position" in capsys.readouterr().err


# ---- bots ---------------------------------------------------------------------------------------------------------

def test_the_engine_team_beats_the_random_team_in_a_few_games() -> None:
    for seed in range(3):
        outcome = _bot_game(seed).game.outcome
        assert outcome is not None and outcome.team == 0, outcome


def test_the_opponents_decision_is_the_one_worse_for_the_movers() -> None:
    # Black's rook on c4 attacks White's queen on c2. W1 picks the queen, W2 the square a3 (only the a-pawn
    # reaches it). By the piece the queen steps away; by the square the pawn moves and the queen is lost: the
    # engine, deciding for Black, chooses the square.
    game = SplitBrainChess.from_options({"fen": "k5/6/2r3/6/P1Q3/5K w - - 0 1"})
    game.play(W1, PickPiece("c2"))
    game.play(W2, PickSquare("a3"))
    assert game.phase == "decide"
    bot = SplitBrainEngineBot(seed=1)
    bot.start(B1, {})
    for observation in game.observations(B1):
        bot.observe(observation)
    assert bot.act(ActionRequest(B1, "decide", game.choices())) == Decide("square")
    from app.games.splitbrain.bots import pair_scores
    scores = pair_scores(game.position, 2)
    assert pair_value(scores, parse_square("c2"), parse_square("a3")) == scores[(parse_square("a2"),
                                                                                 parse_square("a3"))]


def test_random_bots_repeat_with_their_seed_and_keep_to_the_choices() -> None:
    def actions(seed: int) -> list[Any]:
        return [entry.action for entry in _bot_game(seed, (SplitBrainRandomBot,) * 4).record.entries][:30]
    assert actions(5) == actions(5) and actions(5) != actions(6)


# ---- the presenter -------------------------------------------------------------------------------------------------

def test_the_board_offers_only_valid_picks_and_shows_the_pair_after_the_reveal() -> None:
    game = SplitBrainChess()
    chooser = view(game, W1)
    scene = PRESENTER.scene(chooser)
    assert scene.sense_window is not None
    assert scene.sense_window(cell(parse_square("b1"))) == [cell(parse_square("b1"))]
    assert scene.sense_window(cell(parse_square("a1"))) == []  # the rook cannot move
    with pytest.raises(InputError, match="none of your pieces that can move"):
        PRESENTER.on_square(chooser, cell(parse_square("a1")))
    assert PRESENTER.on_square(chooser, cell(parse_square("b1"))) == PickPiece("b1")
    assert PRESENTER.scene(view(game, W2)).sense_window is None  # not W2's turn yet
    game.play(W1, PickPiece("b1"))
    assert [m.label for m in PRESENTER.scene(view(game, W1)).markers] == ["your piece"]
    assert [m.kind for m in PRESENTER.scene(view(game, W2)).markers] == ["sense_old"]  # W2: its valid squares
    game.play(W2, PickSquare("e3"))
    decider = view(game, B1)
    labels = {m.label: m.squares for m in PRESENTER.scene(decider).markers}
    assert labels == {"piece": (cell(parse_square("b1")),), "square": (cell(parse_square("e3")),)}
    assert [(c.label, c.enabled) for c in PRESENTER.commands(decider)] == [
        ("Use the piece", True), ("Use the square", True), ("Offer draw", False)]
    assert PRESENTER.command(decider, "use_piece") == Decide("piece")
    assert "not a move" in PRESENTER.prompt(decider)
    lines = [PRESENTER.describe(o, B1) for o in game.observations(B1)]
    assert "White's picks: W1 the knight on b1, W2 e3: not a move, so the opponents decide what stands." in lines


def test_typed_picks_and_tie_moves() -> None:
    game = SplitBrainChess()
    game.play(W1, PickPiece("b1"))
    assert PRESENTER.parse_text(view(game, W2), " B3 ") == PickSquare("b3")
    game.play(W2, PickSquare("b3"))
    assert PRESENTER.parse_text(view(game, B1), "piece") == Decide("piece")
    game.play(B1, Decide("piece"))
    mover = view(game, W2)
    assert PRESENTER.parse_text(mover, "b1-c3") == Settle("b1c3")
    with pytest.raises(InputError, match="equally close"):
        PRESENTER.parse_text(mover, "b2b3")
    assert set(PRESENTER.scene(mover).targets[cell(parse_square("b1"))]) == {cell(parse_square("a3")),
                                                                               cell(parse_square("c3"))}
    outlined = [m.squares for m in PRESENTER.scene(mover).markers if m.kind == "sense_old"]
    assert outlined == [tuple(cell(parse_square(name)) for name in ("b1", "a3", "c3"))]  # the tie, seen at once
    assert not any(m.kind == "sense_old" for m in PRESENTER.scene(view(game, W1)).markers)  # not W1's to settle


def test_the_score_sheet_is_written_in_san() -> None:
    from app.games.splitbrain.losalamos import LosAlamosPosition, Move
    from app.games.splitbrain.presenter import PRESENTER
    from app.games.splitbrain.rules import PickPiece, PickSquare, SplitBrainChess, SplitBrainView
    game = SplitBrainChess()
    game.play(0, PickPiece("b1"))
    game.play(1, PickSquare("c3"))
    game.play(2, PickPiece("b6"))
    game.play(3, PickSquare("a4"))
    assert PRESENTER.move_list(SplitBrainView.from_observations(game.observations(1))) == ["1. Nc3  Na4"]
    rooks = LosAlamosPosition.from_fen("5k/6/6/6/6/R3RK w - - 0 1")
    assert rooks.san(Move.parse("a1c1")) == "Rac1" and rooks.san(Move.parse("e1e5")) == "Re5"
    pawn = LosAlamosPosition.from_fen("2r2k/1P4/6/6/6/K5 w - - 0 1")
    assert pawn.san(Move.parse("b5c6q")) == "bxc6=Q+" and pawn.san(Move.parse("b5b6n")) == "b6=N"


# ---- draw offers: a partner proposes, the other agrees, then both opponents must accept --------------------------

def _draw_words(game: SplitBrainChess, seat: int) -> list[str]:
    return [line for line in (PRESENTER.describe(o, seat) for o in game.observations(seat))
            if line and "draw" in line]


def test_a_draw_proposal_stays_inside_the_team_until_the_partner_agrees() -> None:
    game = SplitBrainChess()
    assert game.choices()["offer_draw"] == [OfferDraw()]
    black_before = [list(game.observations(seat)) for seat in (B1, B2)]
    game.play(W1, OfferDraw())  # the chooser, before its pick
    assert (game.phase, game.to_move) == ("agree_draw", W2)
    assert [list(game.observations(seat)) for seat in (B1, B2)] == black_before
    assert view(game, B1).to_move == W1 and view(game, W2).to_move == W2
    with pytest.raises(IllegalAction, match="yes or no to the draw"):
        game.play(W2, PickSquare("c3"))
    game.play(W2, AnswerDraw(False))
    assert (game.phase, game.to_move) == ("pick", W1)
    assert [list(game.observations(seat)) for seat in (B1, B2)] == black_before
    assert _draw_words(game, W2) == ["W1 proposes a draw: agree to offer it to the opponents, or refuse.",
                                     "You refused to offer a draw; the opponents were not told."]
    assert "offer_draw" not in game.choices() and not view(game, W1).can_offer_draw()
    game.play(W1, PickPiece("b1"))
    assert "offer_draw" not in game.choices()  # the mover neither: once in the team's turn
    game.play(W2, PickSquare("c3"))
    assert game.choices()["offer_draw"] == [OfferDraw()]  # Black's turn: Black may


@pytest.mark.parametrize("answers, drawn", [((False,), False), ((True, False), False), ((True, True), True)])
def test_both_opponents_must_accept_the_draw_the_opponents_chooser_first(answers: tuple[bool, ...],
                                                                           drawn: bool) -> None:
    game = SplitBrainChess()
    game.play(W1, PickPiece("b1"))
    game.play(W2, OfferDraw())  # the mover, after the chooser's secret pick
    game.play(W1, AnswerDraw(True))
    assert (game.phase, game.to_move) == ("answer_draw", B1)  # Black's chooser (the coin is on the king side)
    assert all(_draw_words(game, seat)[-1] == "White offers a draw (W2 proposed it, W1 agreed). Both opponents "
               "must accept, B1 first." for seat in range(4))
    assert view(game, W2).my_pick is None and view(game, B1).my_pick is None  # the pick is still W1's secret
    white_before = [list(game.observations(seat)) for seat in (W1, W2)]
    game.play(B1, AnswerDraw(answers[0]))
    if answers[0]:
        assert (game.phase, game.to_move) == ("answer_draw", B2)
        assert [list(game.observations(seat)) for seat in (W1, W2)] == white_before
        game.play(B2, AnswerDraw(answers[1]))
    if drawn:
        assert game.outcome is not None and game.outcome.reason == Reason.DRAW_AGREED and game.outcome.team is None
        return
    assert game.outcome is None and (game.phase, game.to_move) == ("pick", W2)
    decliner = ("B1", "B2")[len(answers) - 1]
    assert all(_draw_words(game, seat)[-1] == f"{decliner} declined the draw for Black; play goes on."
               for seat in (W1, W2))
    assert _draw_words(game, SEAT_NUMBERS[decliner])[-1] == "You declined the draw for Black; play goes on."
    game.play(W2, PickSquare("c3"))
    assert moves_of(game) == [("b1c3", "as picked")]


def test_no_draw_is_offered_while_the_pair_is_being_settled() -> None:
    game = SplitBrainChess()
    game.play(W1, PickPiece("b1"))
    game.play(W2, PickSquare("f3"))
    assert game.phase == "decide" and "offer_draw" not in game.choices()
    with pytest.raises(IllegalAction, match="piece or the square"):
        game.play(B1, OfferDraw())


def test_a_game_with_draw_offers_is_recorded_and_replays(tmp_path: Path) -> None:
    from app.engine.record import load_record
    game = SplitBrainChess()
    session = GameSession(game, TimeControl(None, 0))
    for seat, action in ((W1, OfferDraw()), (W2, AnswerDraw(True)), (B1, AnswerDraw(False)), (W1, PickPiece("b1")),
                         (W2, PickSquare("c3")), (B1, OfferDraw()), (B2, AnswerDraw(True)), (W1, AnswerDraw(True)),
                         (W2, AnswerDraw(True))):
        session.play(seat, action)
    assert game.outcome is not None and game.outcome.reason == Reason.DRAW_AGREED
    path = tmp_path / "draw.json"
    session.record.save(path)
    replayed = load_record(path).game
    assert replayed.outcome == game.outcome and replayed.truth() == game.truth()
    data = json.loads(path.read_text(encoding="utf-8"))
    assert [PRESENTER.describe_action(entry["action"]) for entry in data["actions"]][:3] == [
        "propose a draw", "say yes to the draw", "say no to the draw"]
    for entry in data["actions"]:
        assert SplitBrainChess.action_from_json(entry["action"]).to_json() == entry["action"]


@pytest.mark.parametrize("kind", [SplitBrainEngineBot, SplitBrainRandomBot])
@pytest.mark.parametrize("fen, white_agrees, black_accepts", [
    ("rnqknr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1", True, False),  # even
    ("rn1knr/pppppp/6/6/PPPPPP/RNQKNR w - - 0 1", False, True),  # White a queen up
    ("rnqknr/pppppp/6/6/PPPPPP/RN1KNR w - - 0 1", True, False),  # White a queen down
])
def test_the_bots_answer_a_draw_by_the_material(kind: type, fen: str, white_agrees: bool,
                                                black_accepts: bool) -> None:
    def bot_answer(seat: int) -> Any:
        bot = kind(seed=0)
        bot.start(seat, {})
        for observation in game.observations(seat):
            bot.observe(observation)
        return bot.act(ActionRequest(seat, game.phase, game.choices()))

    game = SplitBrainChess(fen)
    game.play(W1, OfferDraw())
    assert bot_answer(W2) == AnswerDraw(white_agrees)
    game.play(W2, AnswerDraw(True))
    assert bot_answer(B1) == AnswerDraw(black_accepts)


def test_the_bots_never_offer_a_draw() -> None:
    session = _bot_game(2, (SplitBrainRandomBot,) * 4)
    assert not any(entry["action"]["type"] == "offer_draw" for entry in session.record.to_json()["actions"])


def test_the_presenter_offers_the_draw_buttons_to_the_seat_asked_only() -> None:
    game = SplitBrainChess()
    assert [(c.id, c.enabled) for c in PRESENTER.commands(view(game, W1))] == [("offer_draw", True)]
    assert all([(c.id, c.enabled) for c in PRESENTER.commands(view(game, seat))] == [("offer_draw", False)]
               for seat in (W2, B1, B2))
    assert PRESENTER.parse_text(view(game, W1), "offer draw") == OfferDraw()
    assert PRESENTER.parse_text(view(game, W1), "b1") == PickPiece("b1")
    game.play(W1, OfferDraw())
    partner = view(game, W2)
    assert [c.id for c in PRESENTER.commands(partner)] == ["accept_draw", "decline_draw"]
    assert PRESENTER.parse_text(partner, "agree") == AnswerDraw(True)
    assert PRESENTER.command(partner, "decline_draw") == AnswerDraw(False)
    assert PRESENTER.scene(partner).sense_window is None  # no pick while the question is open
    game.play(W2, AnswerDraw(True))
    opponent = view(game, B1)
    assert [c.label for c in PRESENTER.commands(opponent)] == ["Accept draw", "Decline draw"]
    assert PRESENTER.prompt(opponent).startswith("White offers a draw")


def test_the_export_tells_the_offers_everyone_was_told_and_no_proposal_inside_a_team() -> None:
    from app.games.splitbrain.formats import move_tokens
    game = SplitBrainChess()
    for seat, action in ((W1, OfferDraw()), (W2, AnswerDraw(False)), (W1, PickPiece("b1")), (W2, PickSquare("c3")),
                         (B1, OfferDraw()), (B2, AnswerDraw(True)), (W1, AnswerDraw(False))):
        game.play(seat, action)
    text = " ".join(move_tokens(game.observations(0)))
    assert "{Black offers a draw (B1 proposed it, B2 agreed)" in text and "{W1 declined the draw for White" in text
    assert "proposes" not in text and "refused" not in text
