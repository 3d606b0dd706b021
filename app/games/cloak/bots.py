"""Built-in Cloak and Dagger bots: ``deduce`` (the strong one), ``greedy`` and ``random``.

Every bot keeps a :class:`~app.games.cloak.rules.CloakView` built from its seat's
observations and nothing else; the moves it may make come from the request's
choices, which the referee works out from what the seat knows.

``deduce`` keeps the deduction about the opponent's arrangement
(:mod:`app.games.cloak.deduction`) up to date. To move it draws a few arrangements
consistent with everything seen (more at higher levels), puts the opponent's
checkers on a board with those identities, and scores each of its moves on each
such board: capturing the king wins, a move after which every reply leaves the
king to be taken (a mate, which a cloaked king cannot escape by ignoring check)
is nearly as good, the opponent's best capture or king capture in reply is looked
at (the shared chess evaluator's forcing replies), material and placement count. The scores are averaged over the drawn boards, so a capture
of a checker that is the king on half of them is worth half a win. It guesses an
identity when the deduction makes it likely enough (a right guess earns it a bonus
pawn move, a wrong one gives the opponent one), the king first; it takes the
bonus move that scores best; it uncloaks only to mate an uncloaked king; and it
arranges its pieces uniformly at random among the 960 set-ups: every one is sound,
and any preference the opponent could know of (this code is public) would tell it
something about where the king stands.

``greedy`` takes a king when it can see one to take, otherwise captures the most
valuable piece it can (a cloaked victim is worth its expected value under the
deduction), else moves at random; it never guesses or uncloaks. ``random`` plays
any legal choice in every phase (now and then it offers a draw, and it accepts one
half the time). ``deduce`` and ``greedy`` never offer a draw and decline every offer.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, ClassVar, Sequence

import chess

from app.bots.base import ActionRequest, Bot
from app.bots.chess_eval import WIN, evaluate, evaluate_replies, material_count
from app.bots.timing import Deadline, TurnClock
from app.engine.core import Action, Seat
from app.games.cloak.deduction import PIECES, Deduction, Tracker, arrangements, movers
from app.games.cloak.rules import AnswerDraw, Arrange, Bonus, Guess, Move, OfferDraw, Uncloak
from app.games.cloak.view import CloakView
from app.games.cloak import DEFINITION

_PIECE_TYPES = {"K": chess.KING, "Q": chess.QUEEN, "R": chess.ROOK, "B": chess.BISHOP, "N": chess.KNIGHT,
                "P": chess.PAWN}
_PAWN_UNITS = {"P": 1.0, "N": 3.2, "B": 3.3, "R": 5.0, "Q": 9.0, "K": 20.0}
"""Victim values of the greedy bot, in pawns (a king it is not sure of counts a lot but is not yet a win)."""


def _colour(seat_colour: int) -> chess.Color:
    return chess.WHITE if seat_colour == 0 else chess.BLACK


@dataclass(frozen=True)
class Level:
    """What a level of ``deduce`` spends: arrangements drawn per move, seconds per move at most, when it
    guesses (the probability a guess must reach), and score noise in centipawns."""

    samples: int
    max_seconds: float
    guess_threshold: float
    noise: int = 0
    deep_moves: int = 0
    """How many of the best moves are looked at again with every reply of the opponent (0: none)."""
    deep_boards: int = 0
    """On how many of the drawn arrangements that second look is taken."""
    endings: bool = False
    """Whether it plays endings with a plan (:func:`ending_terms`: the stronger side drives the other king to
    the edge, kings come to the centre, passed pawns run) and shuns positions it has made before when it is not
    behind (no repetition rule ends a Cloak and Dagger game: without this, a won ending can be shuffled for
    hundreds of turns)."""
    repeat_penalty: int = 0
    """Centipawns off a move, per earlier time it made the same placement of pieces (when it is not behind)."""
    push_after: int = 0
    """After this many of its own moves in a row with no capture and no pawn move on the board (0: never), a
    pawn move gains a bonus that grows with the wait: a locked position is opened rather than walked around
    in until the turn limit."""
    chance_scale: float = 0.0
    """When not 0: a move's scores on the drawn arrangements are averaged as chances of winning
    (:func:`win_chance`, centipawns over this scale) instead of as centipawns. In centipawns a capture that takes
    the king on one board in eight is worth an eighth of a win, 12,500, whatever it costs on the other seven;
    as chances it is worth one eighth plus what the other seven leave, so a queen is not thrown at a checker
    that is most likely not the king."""
    checks_out: bool = False
    """Whether the second look (:func:`reply_value`) also sees a check in reply that no move of its own can
    meet (every answer, the capture of the checker included, leaves its king to be taken): a lost king."""
    secrecy: int = 0
    """Centipawns per unit of the chance, as the opponent can work it out from what both have seen, that its
    own king is the checker it is: a move that makes the king easier to tell (castling tells it outright, a
    king step rules other types out) costs that much times the rise; one that blurs it gains (0: not counted)."""


LEVELS: dict[str, Level] = {
    "easy": Level(samples=3, max_seconds=0.3, guess_threshold=1.0, noise=120),
    "medium": Level(samples=8, max_seconds=1.0, guess_threshold=0.6),
    "hard": Level(samples=16, max_seconds=2.5, guess_threshold=0.6, deep_moves=6, deep_boards=6, endings=True,
                  repeat_penalty=60, push_after=12, chance_scale=200.0, secrecy=150,
                  checks_out=True),
}


def board_for(view: CloakView, enemy_arrangement: str | None, turn: int) -> chess.Board:
    """The true board as the seat of ``view`` would see it if the opponent's checkers were
    ``enemy_arrangement`` (8 letters for checkers 1..8; ``None``: the opponent's cloaked checkers are left
    off), with ``turn`` (0 White, 1 Black) to move. No castling rights: castling is only ever played from
    the referee's own list of moves, never searched.
    """
    board = chess.Board(None, chess960=True)
    own = view.own_arrangement or ""
    for square, token in view.board.items():
        kind = token.kind
        if kind == "?":
            letters = own if token.colour == view.seat else enemy_arrangement
            if not letters or token.checker is None:
                continue
            kind = letters[token.checker - 1]
        board.set_piece_at(square, chess.Piece(_PIECE_TYPES[kind], _colour(token.colour)))
    board.turn = _colour(turn)
    board.ep_square = getattr(view, "ep_square", None)
    return board


def play_on(board: chess.Board, choice: str | None) -> None:
    """Play a move, bonus or drop of the referee's choice lists on ``board`` (the side to move plays), then
    hand the turn to the other side. Castling is the king onto its own rook (Chess960 style).

    >>> board = chess.Board("4k3/8/8/8/8/8/8/4K2R w - - 0 1", chess960=True)
    >>> play_on(board, "e1h1"); board.board_fen()
    '4k3/8/8/8/8/8/8/5RK1'
    >>> play_on(board, "P@c7"); board.piece_at(chess.C7)
    Piece.from_symbol('p')
    """
    mover = board.turn
    if choice is None:
        board.turn = not mover
        board.ep_square = None
        return
    if "@" in choice:
        square = chess.parse_square(choice.split("@")[1])
        board.set_piece_at(square, chess.Piece(chess.PAWN, mover))
        board.turn = not mover
        board.ep_square = None
        return
    move = chess.Move.from_uci(choice)
    piece = board.piece_at(move.from_square)
    target = board.piece_at(move.to_square)
    if piece is not None and piece.piece_type == chess.KING and target is not None and target.color == mover:
        rank = chess.square_rank(move.from_square)
        kingside = chess.square_file(move.to_square) > chess.square_file(move.from_square)
        board.remove_piece_at(move.from_square)
        board.remove_piece_at(move.to_square)
        board.set_piece_at(chess.square(6 if kingside else 2, rank), chess.Piece(chess.KING, mover))
        board.set_piece_at(chess.square(5 if kingside else 3, rank), chess.Piece(chess.ROOK, mover))
        board.turn = not mover
        board.ep_square = None
        return
    board.push(move)


class _CloakBot(Bot):
    """What every Cloak and Dagger bot shares: the view from observations and the phase dispatch."""

    variant: ClassVar[str] = DEFINITION.key

    def __init__(self, seed: int | None = None, level: str = "medium") -> None:
        super().__init__(seed, level)
        self.view = CloakView.from_observations(())

    def start(self, seat: Seat, options: dict[str, Any]) -> None:
        super().start(seat, options)
        self.view = CloakView.from_observations(())

    def observe(self, observation: Any) -> None:
        self.view.apply(observation)

    def act(self, request: ActionRequest) -> Action:
        choices = request.choices
        phase = choices.get("phase", request.phase)
        if phase == "arrange":
            return Arrange(self.arrangement())
        if phase == "bonus":
            return Bonus(self.bonus(list(choices.get("bonus") or ()), request))
        if phase == "uncloak":
            return Uncloak(tuple(self.uncloak(list(choices.get("uncloak") or ()), request)))
        if phase == "answer_draw":
            return AnswerDraw(self.accept_draw())
        guesses = [(int(checker), str(piece)) for checker, piece in choices.get("guesses") or ()]
        if guesses:
            guess = self.guess(guesses, request)
            if guess is not None:
                return Guess(guess[0], guess[1])
        if choices.get("offer_draw") and self.offer_draw():
            return OfferDraw()
        return Move(self.move(list(choices.get("moves") or ()), request))

    # Each phase's choice; the random bot's by default.

    def arrangement(self) -> str:
        return self.rng.choice(arrangements())

    def guess(self, guesses: list[tuple[int, str]], request: ActionRequest) -> tuple[int, str] | None:
        return None

    def move(self, moves: list[str], request: ActionRequest) -> str:
        return self.rng.choice(moves)

    def bonus(self, bonuses: list[str], request: ActionRequest) -> str | None:
        options: list[str | None] = [*bonuses, None]
        return self.rng.choice(options)

    def uncloak(self, checkers: list[int], request: ActionRequest) -> list[int]:
        return []

    def offer_draw(self) -> bool:
        return False

    def accept_draw(self) -> bool:
        return False


class CloakRandomBot(_CloakBot):
    """Any legal choice in every phase: a random arrangement, now and then a random guess, a random move and
    bonus, and sometimes a random set of checkers uncloaked."""

    name: ClassVar[str] = "random"

    def guess(self, guesses: list[tuple[int, str]], request: ActionRequest) -> tuple[int, str] | None:
        return self.rng.choice(guesses) if self.rng.random() < 0.15 else None

    def uncloak(self, checkers: list[int], request: ActionRequest) -> list[int]:
        if not checkers or self.rng.random() < 0.7:
            return []
        return sorted(self.rng.sample(checkers, self.rng.randint(1, len(checkers))))

    def offer_draw(self) -> bool:
        return self.rng.random() < 0.01

    def accept_draw(self) -> bool:
        return self.rng.random() < 0.5


class CloakGreedyBot(_CloakBot):
    """Takes a king it can see to take, else the most valuable victim (expected value for a cloaked one),
    else a random move; never guesses, never uncloaks, takes a random bonus."""

    name: ClassVar[str] = "greedy"

    def __init__(self, seed: int | None = None, level: str = "medium") -> None:
        super().__init__(seed, level)
        self.tracker = Tracker(1)

    def start(self, seat: Seat, options: dict[str, Any]) -> None:
        super().start(seat, options)
        self.tracker = Tracker(1 - seat)

    def victim_value(self, square: chess.Square, deduction: Deduction) -> float:
        """What capturing on ``square`` wins, in pawns (0 when no enemy piece stands there)."""
        token = self.view.board.get(square)
        if token is None or token.colour == self.seat:
            return 0.0
        if token.kind != "?":
            return math.inf if token.kind == "K" else _PAWN_UNITS[token.kind]
        if token.checker is None:
            return 0.0
        if deduction.known(token.checker) == "K":
            return math.inf
        return sum(deduction.probability(token.checker, piece) * _PAWN_UNITS[piece] for piece in PIECES)

    def move(self, moves: list[str], request: ActionRequest) -> str:
        deduction = self.tracker.update(self.view)
        best: list[str] = []
        best_value = 0.0
        for uci in moves:
            move = chess.Move.from_uci(uci)
            value = self.victim_value(move.to_square, deduction)
            if value == 0.0 and move.to_square == getattr(self.view, "ep_square", None):
                token = self.view.board.get(move.from_square)
                if token is not None and token.kind == "P":
                    value = 1.0
            if value > best_value:
                best, best_value = [uci], value
            elif value == best_value and value > 0:
                best.append(uci)
        return self.rng.choice(best) if best else self.rng.choice(moves)


class CloakDeduceBot(_CloakBot):
    """The strong bot: sampled arrangements consistent with the deduction, a shallow search on each."""

    name: ClassVar[str] = "deduce"

    def __init__(self, seed: int | None = None, level: str = "medium") -> None:
        super().__init__(seed, level)
        self.settings = LEVELS.get(level, LEVELS["medium"])
        self.clock = TurnClock(max_seconds=self.settings.max_seconds, expected_turns=60)
        self.tracker = Tracker(1)
        self.made: dict[tuple[int, int], int] = {}
        """How often each placement of pieces (white squares, black squares) followed one of its moves."""
        self.quiet = 0
        """Its own moves in a row before which the board had seen no capture and no pawn move."""
        self._last_shape: tuple[int, int] | None = None
        self.own_tracker = Tracker(0)
        """What both players can work out about this seat's own arrangement (what the opponent knows of it)."""

    def start(self, seat: Seat, options: dict[str, Any]) -> None:
        super().start(seat, options)
        self.clock = TurnClock(max_seconds=self.settings.max_seconds, expected_turns=60)
        self.tracker = Tracker(1 - seat)
        self.made = {}
        self.quiet = 0
        self._last_shape = None
        self.own_tracker = Tracker(seat)

    def deduction(self) -> Deduction:
        return self.tracker.update(self.view)

    def guess(self, guesses: list[tuple[int, str]], request: ActionRequest) -> tuple[int, str] | None:
        deduction = self.deduction()
        threshold = self.settings.guess_threshold
        best: tuple[float, int, str] | None = None
        for checker, piece in guesses:
            chance = deduction.probability(checker, piece)
            if chance < threshold:
                continue
            # The king matters most (naming it right tells both who it is, which helps the hunt); then the
            # likeliest guess.
            weight = chance + (0.5 if piece == "K" else 0.0)
            if best is None or weight > best[0]:
                best = (weight, checker, piece)
        return (best[1], best[2]) if best is not None else None

    def _samples(self) -> list[str]:
        deduction = self.deduction()
        drawn = deduction.sample(self.rng, self.settings.samples)
        return drawn or [self.rng.choice(arrangements())]

    def _budget(self, request: ActionRequest) -> Deadline:
        self.clock.turn_started(request.seconds_left)
        return Deadline(self.clock.budget(request.seconds_left), self.now)

    def _score_choices(self, options: Sequence[str | None], request: ActionRequest, reply: bool) -> str | None:
        """The option with the best average score over the drawn arrangements. ``reply``: the opponent moves
        next (else this seat does)."""
        deadline = self._budget(request)
        started = deadline.clock()
        me = _colour(self.seat)
        totals = [0.0] * len(options)
        per_board: list[list[float]] = [[] for _ in options]
        boards = 0
        keys: list[tuple[int, int]] = []
        lead = 0
        for arrangement in self._samples():
            base = board_for(self.view, arrangement, self.seat)
            for index, option in enumerate(options):
                board = base.copy(stack=False)
                play_on(board, option)
                if not reply:
                    board.turn = me
                if not board.kings & board.occupied_co[not me]:
                    score = WIN
                elif reply:
                    score = evaluate_replies(board, me)
                    if score < WIN // 2 and not king_escapes(board, me):
                        score = WIN - 1  # every reply leaves the king to be taken: a mate, cloaked or not
                else:
                    score = evaluate(board, me)
                if self.settings.endings and abs(score) < WIN // 2:
                    score += ending_terms(board, me)
                if boards == 0:
                    keys.append((board.occupied_co[chess.WHITE], board.occupied_co[chess.BLACK]))
                    if index == 0:
                        lead = material_count(base, me) - material_count(base, not me)
                totals[index] += score
                per_board[index].append(score)
            boards += 1
            if deadline.left() < (deadline.clock() - started) / boards * 1.2:
                break  # another board would overrun the budget
        settings = self.settings
        if settings.chance_scale:
            averages = [mean_score(scores, settings.chance_scale) for scores in per_board]
        else:
            averages = [total / boards for total in totals]
        if reply and settings.deep_moves and len(options) > 1:
            self._look_deeper(options, averages, deadline, me)
        penalty = settings.repeat_penalty
        if reply and penalty and lead >= 0:
            for index, key in enumerate(keys):
                if abs(averages[index]) < WIN // 4:
                    averages[index] -= penalty * self.made.get(key, 0)
        push = pawn_push_bonus(self.quiet, settings.push_after) if reply and lead >= 0 else 0
        if push:
            for index, option in enumerate(options):
                if option is not None and "@" not in option and abs(averages[index]) < WIN // 4:
                    token = self.view.board.get(chess.parse_square(option[:2]))
                    if token is not None and token.colour == self.seat and token.kind == "P":
                        averages[index] += push
        if reply and settings.secrecy:
            for index, cost in enumerate(self.secrecy_costs(options)):
                if cost and abs(averages[index]) < WIN // 4:
                    averages[index] -= cost
        noise = settings.noise
        best_index = max(range(len(options)),
                         key=lambda i: averages[i] + (self.rng.uniform(-noise, noise) if noise else 0.0))
        self.clock.turn_ended(request.seconds_left, deadline.elapsed())
        if reply and penalty and keys:
            self.made[keys[best_index]] = self.made.get(keys[best_index], 0) + 1
        return options[best_index]

    def _look_deeper(self, options: Sequence[str | None], averages: list[float], deadline: Deadline,
                     me: chess.Color) -> None:
        """Score the level's best few options again, on a few of the drawn arrangements, against every reply of
        the opponent (:func:`reply_value`), and put those averages in ``averages`` in place of the first look's.

        The first look sees only the opponent's forcing replies; this one also sees a reply that defends, so a
        move that threatens two things, or wins a piece in two moves, is worth what it threatens. Stops when the
        turn's time runs short (the options not reached keep their first score). With
        :attr:`Level.checks_out`, when every option looked at loses the king on most boards, it goes on down the
        list (time allowing) for one that does not: the saving move may be one the first look ranked low.
        """
        settings = self.settings
        ranked = sorted(range(len(options)), key=lambda i: averages[i], reverse=True)
        ranked = [i for i in ranked if abs(averages[i]) < WIN // 4]
        if len(ranked[:settings.deep_moves]) < 2:
            return
        bases = [board_for(self.view, arrangement, self.seat) for arrangement in self._samples()[:settings.deep_boards]]
        deep: dict[int, list[float]] = {}
        started = deadline.clock()
        for index in ranked:
            if len(deep) >= settings.deep_moves and not (settings.checks_out and all(
                    _mostly_lost(values) for values in deep.values())):
                break  # past the level's few, it goes on only while every move it looked at loses the king
            values = []
            for base in bases:
                board = base.copy(stack=False)
                play_on(board, options[index])
                values.append(reply_value(board, me, settings.endings, settings.checks_out))
            deep[index] = values
            done = len(deep)
            if deadline.left() < (deadline.clock() - started) / done * 1.2:
                break
        if len(deep) < 2:
            return
        for index, values in deep.items():
            averages[index] = (mean_score(values, settings.chance_scale) if settings.chance_scale
                               else sum(values) / len(values))
        # The second look is the harsher one: an option it did not reach (ranked lower by the first look, or
        # left for lack of time) must not win on the first look's milder score.
        floor = min(averages[index] for index in deep)
        for index in range(len(options)):
            if index not in deep and abs(averages[index]) < WIN // 4:
                averages[index] = min(averages[index], floor - 1)

    def secrecy_costs(self, options: Sequence[str | None]) -> list[float]:
        """What each option costs in secrecy (centipawns, :attr:`Level.secrecy` per unit): how much it raises the
        chance, as the opponent can work it out from what both have seen, that its own king is the checker it
        is (negative when the option blurs it). Castling tells the king to both; a cloaked checker's move rules
        out the types that could not have made it; pawn moves and uncloaked pieces tell nothing new.
        """
        costs = [0.0] * len(options)
        own, view = self.view.own_arrangement, self.view
        if not own or "K" not in own or self.seat is None:
            return costs
        king = own.index("K") + 1
        if king not in view.cloaked[self.seat]:
            return costs
        public = self.own_tracker.update(view)
        before = public.probability(king, "K")
        if before >= 1.0 or public.count == 0:
            return costs
        occupied = view.position.occupied
        mine = view.position.occupied_co[_colour(self.seat)]
        for index, option in enumerate(options):
            if option is None or "@" in option:
                continue
            move = chess.Move.from_uci(option)
            colour, number = view.checkers.get(move.from_square, (-1, 0))
            if colour != self.seat or number not in view.cloaked[self.seat]:
                continue
            if chess.BB_SQUARES[move.to_square] & mine:  # castling: king onto its own rook, told to both
                after = 1.0
            else:
                allowed = dict(public.allowed)
                allowed[number] = allowed[number] & movers(move.from_square, move.to_square, occupied)
                after = Deduction.from_allowed(allowed).probability(king, "K")
            costs[index] = self.settings.secrecy * (after - before)
        return costs

    def move(self, moves: list[str], request: ActionRequest) -> str:
        # The number of pieces and where the pawns stand change only with a capture, a pawn move or a drop.
        board = self.view.board
        pawns = sum(1 << square for square, token in board.items() if token.kind == "P")
        shape = (len(board), pawns)
        self.quiet = self.quiet + 1 if shape == self._last_shape else 0
        self._last_shape = shape
        if len(moves) == 1:
            return moves[0]
        chosen = self._score_choices(moves, request, reply=True)
        assert chosen is not None
        return chosen

    def bonus(self, bonuses: list[str], request: ActionRequest) -> str | None:
        if not bonuses:
            return None
        guesses = getattr(self.view, "guesses", None) or ()
        last = guesses[-1] if guesses else None
        # After a right guess of ours the opponent moves next; after its wrong guess we move next.
        opponent_next = last is None or (getattr(last, "seat", self.seat) == self.seat)
        return self._score_choices([*bonuses, None], request, reply=opponent_next)

    def uncloak(self, checkers: list[int], request: ActionRequest) -> list[int]:
        """The checkers that give check to an uncloaked enemy king, when uncloaking them mates on every drawn
        arrangement; else none.

        Only a mate pays. A cloaked piece that attacks the king is a threat the opponent may not see (and is
        not obliged to meet: only visible pieces give check), so the king can be taken next turn; uncloaking
        it would tell the opponent to move the king. Uncloaking for material (a checking fork) is therefore
        not done: the hidden threat on the king is worth more.
        """
        enemy_king = [square for square, token in self.view.board.items()
                      if token.colour != self.seat and token.kind == "K"]
        own = self.view.own_arrangement or ""
        if not enemy_king or not checkers or not own:
            return []
        king_square = enemy_king[0]
        boards = [board_for(self.view, arrangement, 1 - self.seat) for arrangement in self._samples()[:6]]
        checking = sorted(token.checker for square, token in self.view.board.items()
                          if token.colour == self.seat and token.checker in checkers and own[token.checker - 1] != "K"
                          and boards[0].attacks_mask(square) & chess.BB_SQUARES[king_square])
        if not checking:
            return []
        shown = 0
        for square, token in self.view.board.items():
            if token.colour == self.seat and (token.kind != "?" or token.checker in checking):
                shown |= chess.BB_SQUARES[square]
        me = _colour(self.seat)
        if all(forced_value(board, me, shown) >= WIN for board in boards):
            return checking
        return []


def _mostly_lost(values: Sequence[float]) -> bool:
    """Whether the king is lost on at least half of the boards a move was scored on."""
    return 2 * sum(1 for value in values if value <= -WIN // 4) >= len(values)


def win_chance(score: float, scale: float) -> float:
    """A score in centipawns as a chance of winning: 1 for a king taken or sure to be (a quarter of
    :data:`WIN` or more), 0 for the opposite, else a logistic curve with ``scale`` centipawns per unit.

    >>> win_chance(WIN, 200), win_chance(-WIN // 2, 200), win_chance(0, 200)
    (1.0, 0.0, 0.5)
    >>> 0.5 < win_chance(300, 200) < 1.0
    True
    """
    if score >= WIN // 4:
        return 1.0
    if score <= -WIN // 4:
        return 0.0
    return 1.0 / (1.0 + math.exp(-score / scale))


def mean_score(scores: Sequence[float], scale: float) -> float:
    """The scores of one move on several drawn boards, averaged as chances of winning (:func:`win_chance`) and
    given back in centipawns. A move that wins (or loses) on every board keeps the plain average, so that
    among sure wins the surest still comes first; a chance strictly between is never a quarter of ``WIN``.

    >>> mean_score([WIN] + [-900.0] * 7, 200) < 0      # the king on one board in eight, a queen lost on seven
    True
    >>> mean_score([WIN] + [0.0] * 7, 200) > 0         # the same chance for nothing
    True
    >>> round(mean_score([100.0, 100.0], 200), 6)
    100.0
    >>> mean_score([WIN, WIN - 1], 200) == (WIN + WIN - 1) / 2
    True
    """
    chance = sum(win_chance(score, scale) for score in scores) / len(scores)
    if chance >= 1.0 or chance <= 0.0:
        return sum(scores) / len(scores)
    return max(-(WIN // 4 - 1), min(WIN // 4 - 1, scale * math.log(chance / (1.0 - chance))))


def mop_up(board: chess.Board, me: chess.Color) -> int:
    """A bonus for the side ahead in material (by a minor piece or more) that grows as the weaker king nears
    the edge and the two kings near each other (centipawns, from ``me``'s side): what drives a won ending to
    the king's capture instead of a shuffle, since the evaluator alone sees no progress there.

    >>> edge = chess.Board("7k/8/6K1/8/8/8/8/R7 w - - 0 1")
    >>> centre = chess.Board("8/8/8/4k3/8/8/8/R5K1 w - - 0 1")
    >>> mop_up(edge, chess.WHITE) > mop_up(centre, chess.WHITE) > 0
    True
    >>> mop_up(edge, chess.BLACK) < 0
    True
    >>> mop_up(chess.Board(), chess.WHITE)
    0
    """
    lead = material_count(board, me) - material_count(board, not me)
    if abs(lead) < 300:
        return 0
    strong = me if lead > 0 else not me
    strong_king, weak_king = board.king(strong), board.king(not strong)
    if strong_king is None or weak_king is None:
        return 0
    file, rank = chess.square_file(weak_king), chess.square_rank(weak_king)
    from_centre = max(3 - file, file - 4) + max(3 - rank, rank - 4)
    apart = chess.square_manhattan_distance(strong_king, weak_king)
    bonus = 12 * from_centre + 6 * (14 - apart)
    return bonus if strong == me else -bonus


def pawn_push_bonus(quiet: int, after: int) -> int:
    """What a pawn move gains (centipawns) after ``quiet`` own moves with nothing taken and no pawn moved, when
    the level starts pushing after ``after`` of them (0: never): 10 more a move, at most 80.

    >>> [pawn_push_bonus(quiet, 12) for quiet in (0, 12, 13, 20, 40)]
    [0, 0, 10, 80, 80]
    >>> pawn_push_bonus(40, 0)
    0
    """
    if not after or quiet <= after:
        return 0
    return min(80, 10 * (quiet - after))


_PASSED_BONUS = (0, 0, 5, 10, 20, 35, 60, 100)
"""A passed pawn's bonus in an ending by its rank counted from its own side (index 1 = its first rank)."""


def _passed_pawns(board: chess.Board, colour: chess.Color) -> int:
    total = 0
    theirs = board.pawns & board.occupied_co[not colour]
    for square in chess.scan_forward(board.pawns & board.occupied_co[colour]):
        file, rank = chess.square_file(square), chess.square_rank(square)
        ahead = range(rank + 1, 8) if colour == chess.WHITE else range(0, rank)
        blockers = 0
        for f in range(max(0, file - 1), min(7, file + 1) + 1):
            for r in ahead:
                blockers |= chess.BB_SQUARES[chess.square(f, r)]
        if not theirs & blockers:
            total += _PASSED_BONUS[rank + 1 if colour == chess.WHITE else 8 - rank]
    return total


def _from_centre(square: int) -> int:
    file, rank = chess.square_file(square), chess.square_rank(square)
    return max(3 - file, file - 4) + max(3 - rank, rank - 4)


def ending_terms(board: chess.Board, me: chess.Color) -> int:
    """What the hard level adds to the evaluator's score for ``me`` (centipawns): :func:`mop_up`, and once the
    queens are off or little is left (each side at most a rook and a minor piece besides pawns), kings towards
    the centre and passed pawns by how far they have run.

    >>> runner = chess.Board("4k3/8/8/P7/8/8/8/4K3 w - - 0 1")
    >>> ending_terms(runner, chess.WHITE) > 0 > ending_terms(runner, chess.BLACK)
    True
    >>> ending_terms(chess.Board(), chess.WHITE)
    0
    """
    total = mop_up(board, me)
    heavy = [material_count(board, colour) - chess.popcount(board.pawns & board.occupied_co[colour]) * 100
             for colour in (chess.WHITE, chess.BLACK)]
    if board.queens and max(heavy) > 830:
        return total
    if max(heavy) > 830 + 500:
        return total
    my_king, their_king = board.king(me), board.king(not me)
    if my_king is not None and their_king is not None:
        total += 10 * (_from_centre(their_king) - _from_centre(my_king))
    total += _passed_pawns(board, me) - _passed_pawns(board, not me)
    return total


def reply_value(board: chess.Board, me: chess.Color, endings: bool = False, checks_out: bool = False) -> float:
    """The value for ``me`` of ``board`` (the opponent to move) after the opponent's best reply, every
    pseudo-legal reply tried and each scored by the shared evaluator with ``me`` to move (so what ``me`` can
    then take, or a king left to be taken, counts). A reply that takes ``me``'s king is a loss; a position
    where the opponent has no king is a win.

    >>> fork = chess.Board("r3k3/8/8/1N6/8/8/8/4K3 w - - 0 1", chess960=True)
    >>> play_on(fork, "b5c7")                     # the knight attacks king and rook: the rook falls next
    >>> quiet = chess.Board("r3k3/8/8/1N6/8/8/8/4K3 w - - 0 1", chess960=True)
    >>> play_on(quiet, "e1d1")
    >>> reply_value(fork, chess.WHITE) > reply_value(quiet, chess.WHITE) + 200
    True
    >>> hanging = chess.Board("4k3/8/8/8/8/8/3q4/4K3 b - - 0 1", chess960=True)
    >>> reply_value(hanging, chess.WHITE) < -WIN // 2
    True

    With ``checks_out``, a reply that attacks ``me``'s king counts as taking it when every move of ``me`` then
    leaves the king to be taken (a boxed-in king whose only answer, taking the checker, opens a line to it):

    >>> boxed = chess.Board("4k3/8/8/4r3/5n2/8/3PPP2/3BKR2 b - - 0 1", chess960=True)   # ...Nd3: exd3 Rxe1
    >>> reply_value(boxed, chess.WHITE) > -WIN // 4, reply_value(boxed, chess.WHITE, checks_out=True) < -WIN // 2
    (True, True)
    """
    them = not me
    if not board.kings & board.occupied_co[them]:
        return float(WIN)
    worst: float | None = None
    my_king = board.king(me)
    for move in list(board.generate_pseudo_legal_moves()):
        if board.is_castling(move):
            continue
        if move.to_square == my_king:
            return float(-WIN)
        board.push(move)
        try:
            value = float(evaluate(board, me))
            if checks_out and abs(value) < WIN // 4 and my_king is not None \
                    and board.attackers_mask(them, my_king) and not king_escapes(board, them):
                value = float(-WIN + 1)  # whatever ``me`` answers, its king is taken
            if endings and abs(value) < WIN // 4:
                value += ending_terms(board, me)
        finally:
            board.pop()
        if worst is None or value < worst:
            worst = value
    if worst is None:
        return float(evaluate(board, me))
    return worst


def king_escapes(board: chess.Board, me: chess.Color) -> bool:
    """Whether the opponent of ``me`` (to move on ``board``) has a reply after which ``me`` cannot take its
    king (or a reply that takes ``me``'s king). True at once when its king is not attacked now.

    A cloaked king ignores check, so a king with no such reply is as good as mated: whatever it does, it is
    taken next turn (unless the opponent does not know what attacks it, which this does not count on).

    >>> board = chess.Board("6k1/5ppp/8/8/8/8/8/R3K3 w - - 0 1", chess960=True)
    >>> _ = board.push_uci("a1a8")
    >>> king_escapes(board, chess.WHITE)
    False
    >>> board = chess.Board("6k1/5pp1/8/8/8/8/8/R3K3 w - - 0 1", chess960=True)
    >>> _ = board.push_uci("a1a8")
    >>> king_escapes(board, chess.WHITE)
    True
    """
    them = not me
    king = board.king(them)
    if king is None or not board.attackers_mask(me, king):
        return True
    for move in list(board.generate_pseudo_legal_moves()):
        target = board.piece_at(move.to_square)
        if target is not None and target.piece_type == chess.KING and target.color == me:
            return True
        board.push(move)
        try:
            moved_king = board.king(them)
            if moved_king is not None and not board.attackers_mask(me, moved_king):
                return True
        finally:
            board.pop()
    return False


def forced_value(board: chess.Board, me: chess.Color, visible: int) -> float:
    """The value for ``me`` of the opponent's best reply on ``board`` (the opponent to move, its king
    uncloaked), when the replies allowed are those that capture a king or leave the opponent's king out of
    reach of ``me``'s pieces on ``visible``; no allowed reply is a mate (a win).

    Each reply is scored by the shared evaluator with ``me`` to move (what ``me`` can then take counts).
    """
    worst: float | None = None
    for move in list(board.generate_pseudo_legal_moves()):
        if board.is_castling(move):
            continue
        target = board.piece_at(move.to_square)
        if target is not None and target.piece_type == chess.KING and target.color == me:
            return -WIN
        board.push(move)
        try:
            king = board.king(not me)
            if king is not None and board.attackers_mask(me, king) & visible & board.occupied_co[me]:
                continue  # leaves the uncloaked king in a visible check: not allowed
            value = float(evaluate(board, me))
        finally:
            board.pop()
        if worst is None or value < worst:
            worst = value
    return float(WIN) if worst is None else worst


BOTS: tuple[type[Bot], ...] = (CloakDeduceBot, CloakGreedyBot, CloakRandomBot)
"""Strongest first, as the game's definition lists them."""
