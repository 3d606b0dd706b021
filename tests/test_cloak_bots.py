"""Cloak and Dagger bots: whole games between every pair, a king en prise, privacy, illegal answers, time.

The games are driven here directly: each bot is handed its own seat's
observations and the referee's choices, and every answer is checked against those
choices before it is played, so an illegal answer fails the test with the bot,
phase and answer named (it is a bug, not something to survive).
"""

from __future__ import annotations

import io
import pickle
import time
from typing import Any, TypeVar

import chess
import pytest

from app.bots.contract import BotAgent
from app.bots.base import ActionRequest, Bot
from app.engine.core import Action, Game, IllegalAction, Reason
from app.games.cloak import rules
from app.games.cloak.bots import (BOTS, WIN, CloakDeduceBot, CloakGreedyBot, CloakRandomBot, board_for, ending_terms,
                                  mop_up, pawn_push_bonus, play_on, reply_value)
from app.games.cloak.rules import AnswerDraw, Arrange, Bonus, Guess, Move, OfferDraw, Uncloak
from app.games.cloak.view import CloakView
from app.hosting.runner import run_game
from app.hosting.worker import _SafeUnpickler
from tests.clocks import FakeClock


def referee_class() -> type[Game]:
    for value in vars(rules).values():
        if isinstance(value, type) and issubclass(value, Game) and getattr(value, "variant", "") == "cloak":
            return value
    raise AssertionError("no Cloak and Dagger referee in the rules module")


def new_game() -> Game:
    return referee_class().from_options({})


def is_offered(action: Action, choices: dict[str, Any]) -> bool:
    """Whether ``action`` is one of the choices the referee offered the seat to move."""
    phase = choices.get("phase")
    if isinstance(action, Arrange):
        return phase == "arrange"
    if isinstance(action, Guess):
        return (action.checker, action.piece) in [tuple(guess) for guess in choices.get("guesses") or ()]
    if isinstance(action, Move):
        return phase == "move" and action.uci in (choices.get("moves") or ())
    if isinstance(action, Bonus):
        return phase == "bonus" and (action.uci is None or action.uci in (choices.get("bonus") or ()))
    if isinstance(action, Uncloak):
        return phase == "uncloak" and set(action.checkers) <= set(choices.get("uncloak") or ())
    if isinstance(action, OfferDraw):
        return phase == "move" and bool(choices.get("offer_draw"))
    if isinstance(action, AnswerDraw):
        return phase == "answer_draw"
    return False


class Driver:
    """Plays a game between bots, feeding each bot its own seat's observations only."""

    def __init__(self, game: Game, bots: list[Bot]) -> None:
        self.game = game
        self.bots = bots
        self.fed = [0, 0]
        self.actions: list[tuple[int, Action]] = []
        for seat, bot in enumerate(bots):
            bot.start(seat, game.options())

    def feed(self) -> None:
        for seat, bot in enumerate(self.bots):
            observations = self.game.observations(seat)
            for observation in observations[self.fed[seat]:]:
                bot.observe(observation)
            self.fed[seat] = len(observations)

    def step(self) -> Action:
        game = self.game
        seat = game.to_move
        assert seat is not None
        self.feed()
        choices = game.choices()
        action = self.bots[seat].act(ActionRequest(seat, game.phase, choices, 30.0))
        name = type(self.bots[seat]).__name__
        assert is_offered(action, choices), f"{name} (seat {seat}) answered {action!r} in {game.phase}: not offered"
        try:
            game.play(seat, action)
        except IllegalAction as error:
            pytest.fail(f"{name} (seat {seat}) answered {action!r} in {game.phase}, which the referee refused: "
                        f"{error}")
        self.actions.append((seat, action))
        return action

    def play(self, max_steps: int) -> None:
        while not self.game.is_over and len(self.actions) < max_steps:
            self.step()


BOT_CLASSES = [CloakDeduceBot, CloakGreedyBot, CloakRandomBot]


def test_the_bots_are_listed_strongest_first() -> None:
    assert [bot.name for bot in BOTS] == ["deduce", "greedy", "random"]
    assert all(bot.variant == "cloak" for bot in BOTS)


@pytest.mark.parametrize("white", BOT_CLASSES, ids=lambda bot: bot.name)
@pytest.mark.parametrize("black", BOT_CLASSES, ids=lambda bot: bot.name)
def test_every_bot_plays_whole_games_against_every_bot_without_an_illegal_answer(white: type[Bot],
                                                                                   black: type[Bot]) -> None:
    finished = 0
    for seed in range(2):
        driver = Driver(new_game(), [white(seed=seed, level="easy"), black(seed=100 + seed, level="easy")])
        driver.play(max_steps=500)
        finished += driver.game.is_over
        phases = {type(action).__name__ for _, action in driver.actions}
        assert {"Arrange", "Move"} <= phases
    # Random play ends most games by a king capture well within the cap; the deduce bot hunts the king.
    if CloakDeduceBot in (white, black):
        assert finished >= 1


def test_the_random_bot_uses_every_phase() -> None:
    kinds: set[str] = set()
    for seed in range(6):
        driver = Driver(new_game(), [CloakRandomBot(seed=seed), CloakRandomBot(seed=50 + seed)])
        driver.play(max_steps=400)
        kinds |= {type(action).__name__ for _, action in driver.actions}
    assert kinds == {"Arrange", "Guess", "Move", "Bonus", "Uncloak", "OfferDraw", "AnswerDraw"}


def play_script(game: Game, script: list[tuple[int, Action]]) -> None:
    for seat, action in script:
        assert game.to_move == seat, (seat, action, game.phase)
        game.play(seat, action)


def _uncloak_if_asked(game: Game, seat: int, checkers: tuple[int, ...] = ()) -> list[tuple[int, Action]]:
    return [(seat, Uncloak(checkers))] if game.phase == "uncloak" and game.to_move == seat else []


def test_the_deduce_bot_takes_a_king_en_prise() -> None:
    # 1. e4 f6 2. Qh5 (the cloaked d-checker) g5, and Black uncloaks its king on e8: Qxe8 wins.
    game = new_game()
    play_script(game, [(0, Arrange("RNBQKBNR")), (1, Arrange("RNBQKBNR"))])
    for seat, uci, uncloak in [(0, "e2e4", ()), (1, "f7f6", ()), (0, "d1h5", ()), (1, "g7g5", (5,))]:
        play_script(game, [(seat, Move(uci))])
        play_script(game, _uncloak_if_asked(game, seat, uncloak))
    assert game.to_move == 0 and game.phase == "move"
    for level in ("easy", "medium", "hard"):
        bot = CloakDeduceBot(seed=3, level=level)
        bot.start(0, game.options())
        for observation in game.observations(0):
            bot.observe(observation)
        action = bot.act(ActionRequest(0, game.phase, game.choices(), 30.0))
        assert action == Move("h5e8"), level


def test_the_greedy_bot_takes_a_visible_king() -> None:
    game = new_game()
    play_script(game, [(0, Arrange("RNBQKBNR")), (1, Arrange("RNBQKBNR"))])
    for seat, uci, uncloak in [(0, "e2e4", ()), (1, "f7f6", ()), (0, "d1h5", ()), (1, "g7g5", (5,))]:
        play_script(game, [(seat, Move(uci))])
        play_script(game, _uncloak_if_asked(game, seat, uncloak))
    bot = CloakGreedyBot(seed=1)
    bot.start(0, game.options())
    for observation in game.observations(0):
        bot.observe(observation)
    assert bot.act(ActionRequest(0, game.phase, game.choices(), 30.0)) == Move("h5e8")


def _pawn_move(choices: dict[str, Any], game_view_board: Any) -> Action:
    """Black's scripted answer: its first pawn move (by the public board), else its first move; never a guess."""
    phase = choices["phase"]
    if phase == "uncloak":
        return Uncloak(())
    if phase == "bonus":
        return Bonus(None)
    moves = sorted(choices["moves"])
    pawn_moves = [uci for uci in moves if (token := game_view_board.get(_square(uci[:2]))) is not None
                  and token.kind == "P"]
    return Move((pawn_moves or moves)[0])


def _square(name: str) -> int:
    import chess
    return chess.parse_square(name)


@pytest.mark.parametrize("level", ["easy", "medium"])
def test_the_deduce_bot_decides_from_its_observations_only(level: str) -> None:
    """Two games in which Black's queen and king stand swapped: as long as White's observations are equal,
    the White bot (same seed) answers the same in both. The bot's clock is a fake one: a busy machine pausing one
    run and not the other would end a turn's look early in one of them (CI saw the answers part that way)."""
    runs = []
    for black in ("RNBQKBNR", "RNBKQBNR"):
        game = new_game()
        bot = CloakDeduceBot(seed=7, level=level)
        bot.now = FakeClock(0.0001)
        bot.start(0, game.options())
        fed = 0
        turns: list[tuple[tuple[Any, ...], Action]] = []   # White's observations so far, White's answer
        game.play(0, Arrange("RBNQKNBR"))
        game.play(1, Arrange(black))
        while not game.is_over and len(turns) < 60:
            seat = game.to_move
            assert seat is not None
            if seat == 0:
                observations = game.observations(0)
                for observation in observations[fed:]:
                    bot.observe(observation)
                fed = len(observations)
                action = bot.act(ActionRequest(0, game.phase, game.choices(), 30.0))
                turns.append((tuple(observations), action))
            else:
                view = CloakView.from_observations(game.observations(1))
                action = _pawn_move(game.choices(), view.board)
            game.play(seat, action)
        runs.append(turns)
    compared = 0
    for (seen_a, answer_a), (seen_b, answer_b) in zip(*runs):
        if seen_a != seen_b:
            break
        assert answer_a == answer_b, f"White's answer {compared} differs while its observations are equal"
        compared += 1
    assert compared >= 8, "the two games should look alike to White for a while"


class IllegalBot(CloakRandomBot):
    """Answers a move nobody offered."""

    def move(self, moves: list[str], request: ActionRequest) -> str:
        return "a1a8"


def test_an_illegal_answer_forfeits_the_game_and_crashes_nothing() -> None:
    record = run_game(new_game(), [BotAgent(IllegalBot(seed=1), "illegal"), BotAgent(CloakRandomBot(seed=2), "r")])
    assert record.result is not None
    assert record.result.reason == Reason.FORFEIT and record.result.winner == 1


def test_the_deduce_bot_answers_within_its_time_budget() -> None:
    game = new_game()
    bots: list[Bot] = [CloakDeduceBot(seed=1, level="hard"), CloakRandomBot(seed=2)]
    bots[0].now = clock = FakeClock(0.001)   # its own clock: a pause of a busy machine is not the bot's doing
    driver = Driver(game, bots)
    slowest = slowest_real = 0.0
    for _ in range(120):
        if game.is_over:
            break
        seat = game.to_move
        assert seat is not None
        driver.feed()
        choices = game.choices()
        started, read = time.perf_counter(), clock.t
        seconds_left = 3.0 if seat == 0 else 30.0
        action = bots[seat].act(ActionRequest(seat, game.phase, choices, seconds_left))
        if seat == 0:
            slowest = max(slowest, clock.t - read)
            slowest_real = max(slowest_real, time.perf_counter() - started)
        game.play(seat, action)
        driver.actions.append((seat, action))
    # With 3 s left a turn may take at most a fifth of it (0.6 s) by its clock; the real time only for a runaway.
    assert slowest <= 0.6 + 0.02
    assert slowest_real < 5.0


def test_board_for_puts_the_drawn_identities_on_the_enemy_checkers() -> None:
    game = new_game()
    play_script(game, [(0, Arrange("RNBQKBNR")), (1, Arrange("RNBKQBNR"))])
    view = CloakView.from_observations(game.observations(0))
    board = board_for(view, "NRBKQBRN"[::-1], 0)
    assert board.fen().split()[0] == "nrbqkbrn/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR"


BotT = TypeVar("BotT", bound=Bot)


def _bot_after(game: Game, seat: int, bot: BotT) -> BotT:
    bot.start(seat, game.options())
    for observation in game.observations(seat):
        bot.observe(observation)
    return bot


def _play_turns(game: Game, turns: list[tuple[int, str, tuple[int, ...]]]) -> None:
    """Play regular moves, each followed by its uncloaking when the referee asks for one."""
    for seat, uci, uncloak in turns:
        play_script(game, [(seat, Move(uci))])
        play_script(game, _uncloak_if_asked(game, seat, uncloak))


def test_the_deduce_bot_guesses_what_it_is_sure_of() -> None:
    game = new_game()
    play_script(game, [(0, Arrange("RNBQKBNR")), (1, Arrange("RNBQKBNR"))])
    _play_turns(game, [(0, "e2e4", ()), (1, "b8c6", ())])   # Black's checker 2 jumped: a knight
    bot = _bot_after(game, 0, CloakDeduceBot(seed=1, level="medium"))
    assert bot.act(ActionRequest(0, game.phase, game.choices(), 30.0)) == Guess(2, "N")
    # The easy level guesses only certainties too; with nothing certain, nobody guesses.
    fresh = new_game()
    play_script(fresh, [(0, Arrange("RNBQKBNR")), (1, Arrange("RNBQKBNR"))])
    _play_turns(fresh, [(0, "e2e4", ()), (1, "e7e5", ())])
    for level in ("easy", "medium", "hard"):
        action = _bot_after(fresh, 0, CloakDeduceBot(seed=1, level=level)).act(
            ActionRequest(0, fresh.phase, fresh.choices(), 30.0))
        assert isinstance(action, Move), (level, action)


def test_the_deduce_bot_prefers_guessing_the_king() -> None:
    game = new_game()
    play_script(game, [(0, Arrange("RNBQKBNR")), (1, Arrange("RNBKQBNR"))])
    # Black's d-checker steps d8-d7... only a king, queen or rook steps straight; then it steps diagonally
    # (king, queen or bishop): king or queen. Black's b-checker jumps: a knight (certain).
    _play_turns(game, [(0, "a2a3", ()), (1, "d7d5", ()), (0, "a3a4", ()), (1, "d8d7", ()), (0, "h2h3", ()),
                       (1, "d7e6", ()), (0, "h3h4", ()), (1, "b8c6", ())])
    bot = _bot_after(game, 0, CloakDeduceBot(seed=1, level="hard"))
    deduction = bot.deduction()
    assert deduction.known(2) == "N"
    assert [piece for piece, chance in deduction.distribution(4).items() if chance] == ["K", "Q"]
    assert deduction.probability(4, "K") == pytest.approx(56 / 88)   # more set-ups have the king there
    # A sure knight, or a likely king: the king is worth more to name.
    assert bot.act(ActionRequest(0, game.phase, game.choices(), 30.0)) == Guess(4, "K")
    # The easy level names certainties only.
    easy = _bot_after(game, 0, CloakDeduceBot(seed=1, level="easy"))
    assert easy.act(ActionRequest(0, game.phase, game.choices(), 30.0)) == Guess(2, "N")


def _fools_mate(last_white_move: str) -> Game:
    """White uncloaks everything at once (its king too), then 1. f3 e5 2. ``last_white_move`` Qh4."""
    game = new_game()
    play_script(game, [(0, Arrange("RNBQKBNR")), (1, Arrange("RNBQKBNR"))])
    _play_turns(game, [(0, "f2f3", tuple(range(1, 9))), (1, "e7e5", ()), (0, last_white_move, ())])
    play_script(game, [(1, Move("d8h4"))])
    assert game.phase == "uncloak" and game.to_move == 1
    return game


def test_the_deduce_bot_uncloaks_to_mate_an_uncloaked_king() -> None:
    game = _fools_mate("g2g4")
    action = _bot_after(game, 1, CloakDeduceBot(seed=1)).act(ActionRequest(1, game.phase, game.choices(), 30.0))
    assert action == Uncloak((4,))
    game.play(1, action)
    assert game.outcome is not None and game.outcome.winner == 1 and game.outcome.reason == Reason.NO_MOVES


def test_the_deduce_bot_stays_cloaked_when_uncloaking_does_not_mate() -> None:
    game = _fools_mate("a2a3")   # g2-g3 still blocks the check
    action = _bot_after(game, 1, CloakDeduceBot(seed=1)).act(ActionRequest(1, game.phase, game.choices(), 30.0))
    assert action == Uncloak(())


def test_forced_value_sees_a_mate_and_only_a_mate_as_a_win() -> None:
    import chess

    from app.bots.chess_eval import WIN
    from app.games.cloak.bots import forced_value
    white_visible = chess.BB_RANK_2 | chess.BB_E1
    # A back-rank mate by a rook once it is visible: Black's king has nowhere to go.
    mate = chess.Board("6k1/5ppp/8/8/8/8/PPPPPPPP/R3K3 b - - 0 1", chess960=True)
    assert forced_value(mate.copy(), chess.WHITE, white_visible) < WIN      # the rook still cloaked: Black is free
    mate.set_piece_at(chess.A8, chess.Piece(chess.ROOK, chess.WHITE))
    mate.remove_piece_at(chess.A1)
    assert forced_value(mate, chess.WHITE, white_visible | chess.BB_A8) == WIN
    # A knight's check that forks king and queen is no mate: the king steps away.
    fork = chess.Board("q3k3/2N5/8/8/8/8/PPPPPPPP/4K3 b - - 0 1", chess960=True)
    assert forced_value(fork, chess.WHITE, white_visible | chess.BB_C7) < WIN


@pytest.mark.parametrize("bot_class", [CloakDeduceBot, CloakGreedyBot])
def test_deduce_and_greedy_decline_a_draw_and_never_offer_one(bot_class: type[Bot]) -> None:
    game = new_game()
    play_script(game, [(0, Arrange("RNBQKBNR")), (1, Arrange("RNBQKBNR")), (0, OfferDraw())])
    assert game.phase == "answer_draw" and game.to_move == 1
    bot = _bot_after(game, 1, bot_class(seed=1))
    assert bot.act(ActionRequest(1, game.phase, game.choices(), 30.0)) == AnswerDraw(False)
    driver = Driver(new_game(), [bot_class(seed=2), CloakRandomBot(seed=3)])
    driver.play(max_steps=300)
    assert not any(isinstance(action, OfferDraw) for seat, action in driver.actions if seat == 0)


def test_the_greedy_bot_prefers_the_checker_it_expects_to_be_worth_most() -> None:
    # 1. e4 d5 2. a3 Bf5 (Black's c-checker slid diagonally: a bishop or the queen). The e-pawn can take
    # a pawn on d5 or that checker on f5.
    game = new_game()
    play_script(game, [(0, Arrange("RNBQKBNR")), (1, Arrange("RNBQKBNR"))])
    _play_turns(game, [(0, "e2e4", ()), (1, "d7d5", ()), (0, "a2a3", ()), (1, "c8f5", ())])
    bot = _bot_after(game, 0, CloakGreedyBot(seed=1))
    assert bot.victim_value(_square("f5"), bot.tracker.update(bot.view)) > 3.0
    assert bot.act(ActionRequest(0, game.phase, game.choices(), 30.0)) == Move("e4f5")


def test_the_hard_level_shuns_a_placement_it_made_before() -> None:
    # No repetition rule ends a Cloak and Dagger game: the hard level must not shuffle the same two moves for
    # hundreds of turns. With the placement after its favourite move made often before, it picks another.
    game = new_game()
    play_script(game, [(0, Arrange("RNBQKBNR")), (1, Arrange("RNBQKBNR"))])
    bot = _bot_after(game, 0, CloakDeduceBot(seed=4, level="hard"))
    bot.now = FakeClock(0.0001)   # every board looked at, however busy the machine
    first = bot.act(ActionRequest(0, game.phase, game.choices(), float("inf")))
    assert isinstance(first, Move)
    after = chess.Board(chess960=True)
    play_on(after, first.uci)
    again = _bot_after(game, 0, CloakDeduceBot(seed=4, level="hard"))
    again.now = FakeClock(0.0001)
    again.made[(after.occupied_co[chess.WHITE], after.occupied_co[chess.BLACK])] = 10
    second = again.act(ActionRequest(0, game.phase, game.choices(), float("inf")))
    assert isinstance(second, Move) and second != first


def test_the_hard_level_looks_at_every_reply_of_its_best_moves() -> None:
    # A knight move that attacks king and rook at once wins the rook whatever the reply; a quiet move does not.
    fork = chess.Board("r3k3/8/8/1N6/8/8/8/4K3 w - - 0 1", chess960=True)
    play_on(fork, "b5c7")
    quiet = chess.Board("r3k3/8/8/1N6/8/8/8/4K3 w - - 0 1", chess960=True)
    play_on(quiet, "e1d1")
    assert reply_value(fork, chess.WHITE) > reply_value(quiet, chess.WHITE) + 200
    # A reply that takes the king loses; a board without the enemy king is won.
    hanging = chess.Board("4k3/8/8/8/8/8/3q4/4K3 b - - 0 1", chess960=True)
    assert reply_value(hanging, chess.WHITE) == -WIN
    assert reply_value(chess.Board("8/8/8/8/8/8/8/4K3 b - - 0 1"), chess.WHITE) == WIN


def test_the_hard_level_plays_endings_with_a_plan() -> None:
    # The stronger side drives the weaker king to the edge with its own king; passed pawns run.
    edge = chess.Board("7k/8/6K1/8/8/8/8/R7 w - - 0 1")
    centre = chess.Board("8/8/8/4k3/8/8/8/R5K1 w - - 0 1")
    assert mop_up(edge, chess.WHITE) > mop_up(centre, chess.WHITE) > 0
    assert ending_terms(edge, chess.BLACK) < 0
    far = chess.Board("4k3/P7/8/8/8/8/8/4K3 w - - 0 1")
    near = chess.Board("4k3/8/8/8/8/8/P7/4K3 w - - 0 1")
    assert ending_terms(far, chess.WHITE) > ending_terms(near, chess.WHITE) > 0
    assert ending_terms(chess.Board(), chess.WHITE) == 0


def test_the_hard_level_counts_quiet_moves_and_then_pushes_pawns() -> None:
    game = new_game()
    play_script(game, [(0, Arrange("RNBQKBNR")), (1, Arrange("RNBQKBNR"))])
    bot = _bot_after(game, 0, CloakDeduceBot(seed=2, level="hard"))
    seen = []
    fed = len(game.observations(0))
    shuffle = [("b1c3", "b8c6"), ("c3b1", "c6b8"), ("b1c3", "b8c6"), ("c3b1", "e7e5"), ("b1c3", "c6b8")]
    for white, black in shuffle:
        for observation in game.observations(0)[fed:]:
            bot.observe(observation)
        fed = len(game.observations(0))
        bot.move(list(game.choices()["moves"]), ActionRequest(0, game.phase, game.choices(), float("inf")))
        seen.append(bot.quiet)
        _play_turns(game, [(0, white, ()), (1, black, ())])
    assert seen == [0, 1, 2, 3, 0]   # the pawn move e7e5 starts the count again
    assert pawn_push_bonus(0, 12) == 0 < pawn_push_bonus(14, 12) < pawn_push_bonus(30, 12)
    assert pawn_push_bonus(30, 0) == 0   # the lower levels never push for the sake of it


@pytest.mark.parametrize("action", [Arrange("RNBQKBNR"), Guess(3, "N"), Move("e2e4"), Bonus(None), Bonus("P@c2"),
                                    Uncloak((2, 5)), OfferDraw(), AnswerDraw(True)], ids=lambda action: action.kind)
def test_every_action_a_bot_answers_from_its_own_process_is_read_by_the_app(action: Action) -> None:
    # The app reads a bot process's answer with an unpickler that builds only classes defined in the modules the
    # game's definition names (its referee's and its view's): an action class anywhere else forfeits every game
    # a bot plays from its own process.
    assert _SafeUnpickler(io.BytesIO(pickle.dumps(action))).load() == action
