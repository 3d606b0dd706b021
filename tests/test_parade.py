"""Parade Chess Solitaire (rulings PA1-PA3, PA2b): the deal, moves and adds, the score, undo and redo in the
record, bad input refused with a sentence, the solver, the bots, the text export and the command line."""

from __future__ import annotations

import json
from pathlib import Path

import chess
import pytest

from app import games
from app.bots.base import ActionRequest
from app.cli import main
from app.engine.core import IllegalAction, Reason, Resign
from app.engine.record import GameSession, RecordError, load_record, parse_record, replay
from app.games.parade.bots import ParadePlannerBot, ParadeRandomBot
from app.games.parade.presenter import PRESENTER
from app.games.parade.rules import (CARDS, ParadeAdd, ParadeChess, ParadeMove, ParadeView, add_allowed, add_square,
                                    board_text, legal_moves, movers_of)
from app.games.parade.solitaire import ParadeProblem, deal_cards, hint, solution_record, solve_deal
from app.games.patience.undo import Redo, Undo
from app.games.presenter import InputError

# The rule text's example, the cards in the order drawn: "from the 9 and 10 of hearts to the 9 of spades". Its
# pictures are not in our copy; the order below is the one that agrees with every square the text names (the white
# bishop moved off c1 by the black knight on d3 to b2, e1, f4, e5 or c5 only, so b4 and f2 are taken; the king with
# two white pieces next to it; the black bishop on e4 moving the white knight from f3 to g2). The text leaves the
# rooks' suits and the black knight's open: 10C, 10D and 8S here. The 8 of diamonds is the pile's top.
EXAMPLE = ["9H", "10H", "KS", "10C", "8S", "8H", "10D", "9S"]
PILE = ["8D", "QS", "KH", "QH", "9C", "9D", "8C", "10S"]


def example() -> ParadeChess:
    return ParadeChess.dealt(EXAMPLE + PILE)


def sq(name: str) -> int:
    return chess.parse_square(name)


def test_the_texts_deal_example_places_the_eight_pieces_with_their_gaps() -> None:
    game = example()
    assert board_text(game.placed) == "c1:B g1:R f2:k b3:r d3:n f3:N b4:R e4:b"
    assert game.cards_left == 8 and game.phase == "play" and game.outcome is None


def test_the_texts_moves_are_the_moves_it_names() -> None:
    game = example()
    moves = legal_moves(game.placed)
    # "black knight at d3 could move the white bishop from c1 to b2, e1, f4, e5, or c5"
    assert sorted(moves[sq("c1")]) == sorted(map(sq, ["b2", "e1", "f4", "e5", "c5"]))
    assert movers_of(game.placed, sq("c1"), sq("b2")) == [sq("d3")]
    # "The king could move either of the white pieces next to it to any of the other spaces next to it."
    around = {sq(name) for name in ["e1", "f1", "g1", "e2", "g2", "e3", "f3", "g3"]}
    for white in ("g1", "f3"):
        by_king = {to for to in around if sq("f2") in movers_of(game.placed, sq(white), to)}
        assert by_king == around - {sq("g1"), sq("f3")}
    # "using the black bishop at e4 to move the white knight from f3 to g2": attacks worked out with f3 empty
    assert sq("e4") in movers_of(game.placed, sq("f3"), sq("g2"))
    game.play(0, ParadeMove("f3", "g2"))
    assert game.placed[sq("g2")] == "8H" and game.cards_left == 7


def test_the_added_knight_goes_where_the_rule_puts_it() -> None:
    # The text says g7 for the 8 of diamonds after the black bishop; the rule (PA2b) stands: one empty square after
    # e4, so g4.
    game = example()
    game.play(0, ParadeAdd())
    assert game.placed[sq("g4")] == "8D" and sq("g7") not in game.placed
    assert game.cards_left == 7 and "8D" in game.seen


def test_a_move_the_rules_forbid_is_refused_with_a_sentence_and_changes_nothing() -> None:
    game = example()
    before = game.truth()
    for action, words in [(ParadeMove("c1", "c2"), "no black piece attacks both c1 and c2"),
                          (ParadeMove("a1", "a2"), "there is no piece on a1"),
                          (ParadeMove("c1", "g1"), "g1 is taken"),
                          (ParadeMove("z9", "a2"), "'z9' is not a square"),
                          (Redo(), "nothing to redo"), (Undo(), "nothing to undo")]:
        with pytest.raises(IllegalAction, match=words):
            game.play(0, action)
    assert game.truth() == before and game.ply == 0


def test_a_piece_no_opposite_colour_piece_attacks_cannot_move() -> None:
    game = example()
    assert sq("d3") not in legal_moves(game.placed)  # nothing white attacks the black knight on d3
    with pytest.raises(IllegalAction, match="no white piece attacks d3"):
        game.play(0, ParadeMove("d3", "d4"))


def test_adding_stops_while_an_unseen_piece_might_not_fit_before_h8() -> None:
    placed = {sq("a1"): "8H", sq("b8"): "8S"}
    unseen = [card for card in CARDS if card not in placed.values()]
    assert add_square(placed, "8D") == sq("d8") and add_square(placed, "KH") is None
    assert not add_allowed(placed, unseen, 5)  # a king could come next: it would need 7 squares after b8
    assert add_allowed(placed, ["8D", "9D"], 5) and not add_allowed(placed, ["8D"], 0)
    game = example()
    game.placed = {sq("a1"): "9H", sq("c8"): "10H"}  # a position late in a game: 5 squares after c8
    with pytest.raises(IllegalAction, match="might not fit before h8"):
        game.play(0, ParadeAdd())
    view = ParadeView(placed=dict(game.placed), seen=list(EXAMPLE), left=8)
    with pytest.raises(InputError, match="would not fit before h8"):
        PRESENTER.command(view, "add")


def test_the_score_is_the_cards_left_and_goes_below_zero_after_the_last_card() -> None:
    solution, _ = solve_deal(2, time_limit=30)
    assert solution.proven and solution.score == 5 and len(solution.line) == 3
    game = ParadeChess(deal=2)
    for action in solution.line:
        game.play(0, action)
    assert game.outcome is not None and game.outcome.winner == 0 and game.outcome.score == 5.0
    assert game.outcome.reason is Reason.SCORE and "5 points" in game.outcome.detail
    # Spend every card on moves that join nothing: the score counts down below zero.
    game = example()
    for _ in range(9):
        frm, targets = next(iter(legal_moves(game.placed).items()))
        to = next(iter(targets))
        game.play(0, ParadeMove(chess.square_name(frm), chess.square_name(to)))
        if game.outcome is not None:
            break
    if game.outcome is None:
        assert game.cards_left == 0 and game.overtime == 1 and game.score == -1
        assert "add" not in game.choices()


def test_giving_up_ends_the_game_lost_without_a_score() -> None:
    game = example()
    game.play(0, Resign())
    assert game.outcome is not None and game.outcome.winner is None and game.outcome.score is None


def test_undo_goes_back_to_the_last_card_turned_up_and_the_record_keeps_it_all(tmp_path: Path) -> None:
    session = GameSession(ParadeChess(deal=5, seed=0))
    game = session.game
    first = game.truth()
    moves = legal_moves(game.placed)
    frm, targets = next(iter(moves.items()))
    move = ParadeMove(chess.square_name(frm), chess.square_name(next(iter(targets))))
    session.play(0, move)
    session.play(0, Undo())
    assert game.truth() == first and game.cards_left == 8 and "redo" in game.choices()
    session.play(0, Redo())
    assert game.cards_left == 7
    session.play(0, ParadeAdd())  # turns a card up: nothing before it can be undone any more
    assert "undo" not in game.choices()
    with pytest.raises(IllegalAction, match="stays seen"):
        game.play(0, Undo())
    path = tmp_path / "parade.json"
    session.snapshot().save(path)
    kinds = [entry["type"] for entry in (e.action for e in session.record.entries)]
    assert kinds == ["move", "undo", "redo", "add"]
    replayed = load_record(path)
    assert replayed.game.truth() == game.truth()
    assert json.loads(path.read_text())["options"] == {"deal": 5}


def test_the_players_view_keeps_the_line_and_what_was_undone() -> None:
    game = example()
    game.play(0, ParadeMove("f3", "g2"))
    game.play(0, ParadeMove("c1", "b2"))
    game.play(0, Undo())
    view = ParadeView.from_observations(game.observations(0))
    assert PRESENTER.move_list(view) == ["1. f3-g2"] and view.can_redo and view.left == 7
    assert [command.id for command in PRESENTER.commands(view) if command.enabled] == ["add", "undo", "redo"]


@pytest.mark.parametrize("deal", ["0", "1000001", "-4", "twelve", ""])
def test_a_deal_number_out_of_range_is_refused_with_a_sentence(deal: str) -> None:
    with pytest.raises(ValueError, match="a deal number is a whole number from 1 to 1000000"):
        ParadeChess.from_options({"deal": deal})


def test_the_same_deal_number_is_the_same_deal() -> None:
    # Pinned: deal 1's cards, top first (the first eight are dealt onto the board).
    assert deal_cards(1) == ['9C', 'QH', '9S', '10D', '8C', 'KS', '10S', '9D', 'QS', '8S', '9H', '10H', '10C',
                             '8D', '8H', 'KH']
    assert ParadeChess(deal=1).truth() == ParadeChess(deal=1).truth() != ParadeChess(deal=2).truth()
    assert ParadeChess.from_options({}).deal in range(1, 1_000_001)
    with pytest.raises(ValueError, match="no option colour"):
        ParadeChess.from_options({"colour": "red"})


@pytest.mark.parametrize("action", [{"type": "move", "frm": "c1"}, {"type": "move", "frm": "c1", "to": "q9"},
                                    {"type": "castle"}, {"type": "add", "card": "8D"}])
def test_a_malformed_record_is_refused_with_a_sentence(action: dict[str, object]) -> None:
    session = GameSession(ParadeChess(deal=3, seed=0))
    data = session.snapshot().to_json()
    data["actions"] = [{"seat": 0, **action, "elapsed": 0.0}]
    with pytest.raises(RecordError) as caught:
        replay(parse_record(json.dumps(data)))
    assert len(str(caught.value)) > 10


def test_the_solvers_line_is_a_record_that_replays_to_its_score(tmp_path: Path) -> None:
    solution, _ = solve_deal(3, time_limit=30)
    record = solution_record(3, solution)
    assert record is not None and record.result is not None and record.result.score == solution.score
    path = tmp_path / "line.json"
    record.save(path)
    assert load_record(path).game.outcome.score == solution.score


def test_the_problem_bound_never_undercuts_a_score_found() -> None:
    game = example()
    problem = ParadeProblem(game.pile)
    state = problem.start(game.placed)
    assert problem.bound(state) is not None and problem.bound(state) <= 7


def test_the_hint_and_the_bots_see_only_the_players_view() -> None:
    game = ParadeChess(deal=3, seed=0)
    view = ParadeView.from_observations(game.observations(0))
    found = hint(view, time_limit=1.0, samples=3)
    assert found.action is None or found.action in [a for key in ("moves", "add") for a in game.choices().get(key, [])]
    # The bots decide the same whether or not they are told the deal number (they never read it).
    answers = []
    for options in ({}, {"deal": 3}):
        bot = ParadeRandomBot(seed=4)
        bot.start(0, options)
        for observation in game.observations(0):
            bot.observe(observation)
        answers.append(bot.act(ActionRequest(0, game.phase, game.choices())))
    assert answers[0] == answers[1]


@pytest.mark.parametrize("bot_class", [ParadeRandomBot, ParadePlannerBot])
def test_a_bot_plays_a_deal_to_its_end(bot_class: type) -> None:
    game = ParadeChess(deal=2, seed=0)
    bot = bot_class(seed=1, level="easy")
    bot.start(0, {})
    seen = 0
    for _ in range(60):
        if game.outcome is not None:
            break
        for observation in game.observations(0)[seen:]:
            bot.observe(observation)
        seen = len(game.observations(0))
        game.play(0, bot.act(ActionRequest(0, game.phase, game.choices())))
    assert game.outcome is not None


def test_the_text_export_names_the_deal_and_every_action() -> None:
    session = GameSession(ParadeChess(deal=2, seed=0))
    for action in solve_deal(2)[0].line:
        session.play(0, action)
    text = games.get("parade").formats[0].writer()(session.snapshot())
    assert text.startswith("Parade Chess Solitaire, deal 2") and "Won: one group with 5 cards left" in text


def test_sightline_solve_says_the_best_score_and_writes_the_line(tmp_path: Path,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "line.json"
    assert main(["solve", "--variant", "parade", "--deal", "2", "--out", str(out)]) == 0
    said = capsys.readouterr().out
    assert "best score 5, proven best" in said and "h4-e3" in said
    assert load_record(out).game.outcome.score == 5
    assert main(["solve", "--variant", "parade", "--deal", "0"]) == 2
    assert "a deal number" in capsys.readouterr().err


def test_the_true_position_marks_the_last_move() -> None:
    game = example()
    game.play(0, ParadeMove("f3", "g2"))
    assert PRESENTER.truth_scene(game.truth()).last_move == ((5, 2), (6, 1))
    game.play(0, Undo())
    assert PRESENTER.truth_scene(game.truth()).last_move is None


def test_an_unfinished_game_resumes_with_its_undo_and_redo(tmp_path: Path) -> None:
    from app import storage
    from app.engine.record import GameSession as Session
    session = Session(ParadeChess(deal=2, seed=0))
    session.play(0, ParadeMove("h4", "e3"))
    session.play(0, ParadeMove("a2", "c2"))
    session.play(0, Undo())
    path = storage.autosave(session)  # what the window writes after every action (a kill loses nothing)
    resumed = Session.from_snapshot(storage.load_autosave() or load_record(path).record)
    game = resumed.game
    assert game.cards_left == 7 and "undo" in game.choices() and "redo" in game.choices()
    resumed.play(0, Redo())
    resumed.play(0, ParadeMove("g1", "d2"))
    assert game.outcome is not None and game.outcome.score == 5.0


def test_a_match_deals_each_game_its_own_deal_again_from_its_deal_seed(tmp_path: Path) -> None:
    """A match's options were checked by making a game from them, which drew one deal number: every game of the
    match then played that deal, whatever the seeds."""
    from app.hosting.match import run_match

    def deals(out: Path, deal_seed: int) -> list[int]:
        run_match("parade", seats=["random"], games=3, seed=5, out_dir=str(out), deal_seed=deal_seed, max_plies=4)
        return [json.loads(path.read_text(encoding="utf-8"))["options"]["deal"] for path in sorted(out.glob("*.json"))]

    first = deals(tmp_path / "a", 99)
    assert len(set(first)) == 3 and deals(tmp_path / "b", 99) == first
    chosen = tmp_path / "c"
    run_match("parade", seats=["random"], games=2, seed=5, out_dir=str(chosen), options={"deal": 1234}, max_plies=4)
    assert [json.loads(p.read_text(encoding="utf-8"))["options"]["deal"] for p in chosen.glob("*.json")] == [1234] * 2


def test_the_replay_of_a_solitaire_counts_steps_not_turns(qtbot) -> None:  # type: ignore[no-untyped-def]
    """The replay viewer numbered turns as if two sides alternated; a solitaire has one player and steps only."""
    from app.ui.replay_window import ReplayWindow
    game = ParadeChess(7, seed=0)
    session = GameSession(game)
    bot = ParadeRandomBot(seed=1)
    bot.start(0, game.options())
    for _ in range(6):
        session.play(0, bot.act(ActionRequest(0, game.phase, game.choices(), float("inf"))))
    session.play(0, Resign())  # the player gives the deal up: a finished record
    replay = ReplayWindow(session.record)
    qtbot.addWidget(replay)
    replay.show_step(3)
    assert replay.step_label.text().startswith("Step 3 of ") and "turn" not in replay.step_label.text()
