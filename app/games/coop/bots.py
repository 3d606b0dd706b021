"""Cooperative Chess 2 bots: ``partner``, which plans its whole turn for the team's score, and ``random``.

The partner plans each turn from its seat's view only (its own hand, the line, the discard pile, the board and
the cards it has not seen): for each card of its hand, each non-capturing move (or none) and each chain of
captures the line then allows, it scores where the turn would leave the team and plays the best. The score of a
position is the team's points so far (a point a capture, ten a piece type gone) plus what it is likely worth
next: captures the line already allows for either colour, captures the partner's next card would likely allow
(each unseen card weighed by the chance that the partner holds one of its kind), progress toward a piece type
gone, and a king left attacked beside its card once the team has points enough to win. A king is captured as
soon as that gives 32 points or more (a win); below that it is left alone, since the capture would end the game
lost.

Asked a phrased question about its hand it answers truthfully (a free question it cannot read: no). Once a turn
it asks its partner whether it holds the kind of card that would open it the most captures next to the line's
last card, and counts the answer in its later plans (:func:`partner_told`).

>>> from app.games.coop.rules import CoopChess
>>> from app.bots.base import ActionRequest
>>> game = CoopChess(seed=5)
>>> bot = CoopPartnerBot(seed=1)
>>> bot.start(0, {})
>>> for observation in game.observations(0):
...     bot.observe(observation)
>>> bot.act(ActionRequest(0, game.phase, game.choices())) in game.choices()["cards"]
True
"""

from __future__ import annotations

import math
from typing import Any, ClassVar, Sequence

import chess

from app.bots.base import ActionRequest, Bot
from app.engine.core import Action
from app.games.coop import DEFINITION
from app.games.coop.rules import (WIN_SCORE, Answer, Answered, Ask, Asked, CoopMove, CoopView, EndTurn, PlayCard,
                                  capture_cards, captured_piece, move_options, score_of, turn_moves)
from app.games.kit_cards import card_piece, piece_cards

__all__ = ["CoopPartnerBot", "CoopRandomBot", "answer_truly", "plan_turn"]

WIN_BONUS = 100.0
ENABLED = 0.9
"""What a capture the line already allows to the colour moving next is worth (the one after: :data:`LATER`)."""
LATER = 0.5
PARTNER_CARD = 0.7
"""What a capture the partner's next card would allow is worth, times the chance it holds such a card."""
NEAR_GONE = (0.0, 5.0, 2.5, 1.2, 0.6)
"""Progress toward a piece type gone, by the pieces of that type left (1, 2, 3, 4; more: nothing)."""
KING_READY = 6.0
CONTACT = 0.25
"""What a piece attacking a piece of the other colour is worth before any card allows the capture: the cards to
come may (a capture needs the pieces in touch first)."""
APPROACH = 0.05
"""What a step closer to the nearest piece of the other colour is worth (pieces far apart never capture)."""
NODES = 400
"""The most positions a turn's plan looks at."""
KING_SET = 8.0
"""What it is worth that the colour moving next could capture the enemy king in its turn (the king's card beside a
card of one of its piece types, a piece of that type attacking the king now or after one move), once the team has
points enough to win; a quarter of it a few points short (the captures on the way may bring them)."""
CANDIDATES = 8
"""How many of the best plans for this turn are looked at again with the partner's next turn played out."""
PARTNER_WEIGHT = 1.0
"""How much the partner's expected next turn counts against this turn's own valuation of where it ends."""


class _State:
    """A position inside a turn being planned."""

    __slots__ = ("board", "line", "discard", "captures", "king")

    def __init__(self, board: chess.Board, line: list[str], discard: list[str], captures: int,
                 king: bool = False) -> None:
        self.board, self.line, self.discard, self.captures, self.king = board, line, discard, captures, king

    def after(self, action: CoopMove) -> _State:
        board = self.board.copy(stack=False)
        colour = board.turn
        move = action.move
        captured = captured_piece(board, move)
        capturer = board.piece_at(move.from_square)
        line, discard, captures = list(self.line), list(self.discard), self.captures
        card = action.card
        if captured is not None and capturer is not None:
            card = card or capture_cards(line, capturer, captured)[0]
            line.remove(card)
            discard.append(card)
            captures += 1
        if move.promotion is not None:
            pawns = [c for c in line if card_piece(c) == chess.Piece(chess.PAWN, colour)]
            line.remove(action.pawn_card or pawns[-1])
            promoted = next(c for c in discard if card_piece(c) == chess.Piece(move.promotion, colour))
            discard.remove(promoted)
            line.insert(len(line) if action.place == -1 else action.place, promoted)
        board.push(move)
        board.turn, board.ep_square = colour, None
        king = captured is not None and captured.piece_type == chess.KING
        return _State(board, line, discard, captures, king)


def _attack_pairs(board: chess.Board, colour: chess.Color) -> list[tuple[chess.Piece, chess.Piece, int]]:
    """(attacker, victim, victim's square) for each piece of ``colour`` attacking a piece of the other colour."""
    pairs = []
    enemy = board.occupied_co[not colour]
    for square in chess.SquareSet(board.occupied_co[colour]):
        piece = board.piece_at(square)
        assert piece is not None
        for target in chess.SquareSet(board.attacks_mask(square) & enemy):
            victim = board.piece_at(target)
            assert victim is not None
            pairs.append((piece, victim, target))
    return pairs


def _grow(mask: int) -> int:
    """``mask`` and every square a king step from it."""
    sideways = mask | ((mask << 1) & ~chess.BB_FILE_A & chess.BB_ALL) | ((mask >> 1) & ~chess.BB_FILE_H)
    return sideways | ((sideways << 8) & chess.BB_ALL) | (sideways >> 8)


def _distances(board: chess.Board) -> int:
    """The sum, over the pieces other than kings, of the distance (in king steps) to the nearest piece of the
    other colour."""
    total = 0
    for colour in chess.COLORS:
        own = board.occupied_co[colour] & ~board.kings
        reach = board.occupied_co[not colour]
        if not reach:
            return 0
        for _ in range(7):
            reach = _grow(reach)
            left = own & ~reach
            if not left:
                break
            total += chess.popcount(left)
        total += chess.popcount(own)  # one step to reach the squares next to an enemy... counted from 1
    return total


def evaluate(state: _State, unseen: Sequence[str], partner_cards: int, cards_left: int,
             told: dict[chess.Piece, float] | None = None, king_term: bool = True) -> float:
    """How good ``state`` is for the team when the turn ends there (see the module's words); ``king_term``
    False leaves out :func:`king_ready` (``benchmarks/coop_bound.py`` counts the king its own way)."""
    board = state.board
    score, _ = score_of(board, state.captures)
    if state.king:
        return score + (WIN_BONUS if score >= WIN_SCORE else -WIN_BONUS / 2)
    value = float(score)
    line = state.line
    adjacent = {(a, b) for a, b in zip(line, line[1:])} | {(b, a) for a, b in zip(line, line[1:])}
    adjacent_kinds = {(card_piece(a), card_piece(b)) for a, b in adjacent}
    mover = board.turn
    unseen_kinds: dict[chess.Piece, int] = {}
    for card in unseen:
        piece = card_piece(card)
        if piece is not None:
            unseen_kinds[piece] = unseen_kinds.get(piece, 0) + 1
    last = card_piece(line[-1]) if line else None
    for colour, weight in ((not mover, ENABLED), (mover, LATER)):
        seen_victims: set[int] = set()
        for attacker, victim, square in _attack_pairs(board, colour):
            if victim.piece_type == chess.KING:
                if (attacker, victim) in adjacent_kinds and score >= WIN_SCORE - 4 and colour != mover:
                    value += KING_READY
                continue
            if square in seen_victims:
                continue
            value += CONTACT * weight
            if (attacker, victim) in adjacent_kinds:
                value += weight
                seen_victims.add(square)
            elif colour != mover and last is not None and partner_cards and unseen:
                other = victim if last == attacker else attacker if last == victim else None
                if other is not None:
                    chance = min(1.0, partner_cards * unseen_kinds.get(other, 0) / len(unseen))
                    if told and other in told:  # what the partner said of its hand
                        chance = told[other] if told[other] >= 1.0 else chance * told[other]
                    value += PARTNER_CARD * chance
    value -= APPROACH * _distances(board)
    if king_term and score >= WIN_SCORE - 6:
        value += king_ready(board, line, not mover, unseen, partner_cards, told) * (
            KING_SET if score >= WIN_SCORE else KING_SET / 4)
    for piece_type in (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN):
        left = len(board.pieces(piece_type, chess.WHITE)) + len(board.pieces(piece_type, chess.BLACK))
        if 0 < left < len(NEAR_GONE):
            value += NEAR_GONE[left]
    if cards_left <= 2 and score < WIN_SCORE:
        value -= 5.0  # the cards are nearly out: what is not done now may never be
    return value


def king_ready(board: chess.Board, line: Sequence[str], colour: chess.Color, unseen: Sequence[str] = (),
               cards: int = 0, told: dict[chess.Piece, float] | None = None) -> float:
    """The chance that ``colour``, moving next, could capture the enemy king in its turn: the king's card lies
    beside a card of one of ``colour``'s piece types (or last in the line, where the card ``colour`` plays next
    will lie: a kind its ``cards`` cards, drawn from ``unseen``, hold by chance), and a piece of that type attacks
    the king now or after one non-capturing move."""
    king = board.king(not colour)
    if king is None:
        return 0.0
    enemy_king = chess.Piece(chess.KING, not colour)
    chances: dict[chess.PieceType, float] = {}
    for index, card in enumerate(line):
        if card_piece(card) != enemy_king:
            continue
        for other in (index - 1, index + 1):
            piece = card_piece(line[other]) if 0 <= other < len(line) else None
            if piece is not None and piece.color == colour:
                chances[piece.piece_type] = 1.0
        if index == len(line) - 1 and cards and unseen:
            for piece_type in (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN):
                kind = chess.Piece(piece_type, colour)
                count = sum(1 for card in unseen if card_piece(card) == kind)
                chance = min(1.0, cards * count / len(unseen))
                if told and kind in told:
                    chance = told[kind] if told[kind] >= 1.0 else chance * told[kind]
                chances[piece_type] = max(chances.get(piece_type, 0.0), chance)
    best = 0.0
    for piece_type, chance in sorted(chances.items(), key=lambda item: -item[1]):
        if chance <= best:
            break
        if any(_attacks_within_a_move(board, square, king, colour) for square in board.pieces(piece_type, colour)):
            best = chance
    return best


def _attacks_within_a_move(board: chess.Board, square: int, king: int, colour: chess.Color) -> bool:
    """Whether the piece on ``square`` attacks ``king``'s square, or would after one non-capturing legal move."""
    target = chess.BB_SQUARES[king]
    if board.attacks_mask(square) & target:
        return True
    probe = board.copy(stack=False)
    probe.turn, probe.ep_square = colour, None
    for move in probe.generate_legal_moves(from_mask=chess.BB_SQUARES[square], to_mask=~probe.occupied):
        probe.push(move)
        hit = bool(probe.attacks_mask(move.to_square) & target)
        probe.pop()
        if hit:
            return True
    return False


def _captures(state: _State) -> list[CoopMove]:
    return move_options(state.board, state.line, state.discard, True)


def _best_captures(state: _State, unseen: Sequence[str], partner_cards: int, cards_left: int,
                   budget: list[int], told: dict[chess.Piece, float] | None = None) -> tuple[float, list[CoopMove]]:
    """The best chain of captures from ``state`` (stopping is allowed anywhere) and its value."""
    best: tuple[float, list[CoopMove]] = (evaluate(state, unseen, partner_cards, cards_left, told), [])
    if state.king or budget[0] <= 0:
        return best
    for action in _captures(state):
        budget[0] -= 1
        if budget[0] <= 0:
            break
        value, rest = _best_captures(state.after(action), unseen, partner_cards, cards_left, budget, told)
        if value > best[0]:
            best = (value, [action, *rest])
    return best


def unseen_cards(view: CoopView) -> list[str]:
    """The cards this seat has not seen anywhere: in the pile or the partner's hand."""
    known = set(view.hand) | set(view.line) | set(view.discard)
    known |= {played.card for played in view.played}
    return [card for card in piece_cards() if card not in known]


def plan_turn(view: CoopView, rng: Any = None, two_turns: bool = True) -> list[Action]:
    """The rest of this seat's turn, best first: the card to play (in the card step), then the moves. The
    :data:`CANDIDATES` best plans by where this turn ends are then weighed by what the partner's next turn would
    likely make of them (:func:`partner_turn_value`), unless ``two_turns`` is False."""
    unseen = unseen_cards(view)
    # The cards the colour moving next will play: the partner's hand, or in the solitaire the card turned.
    partner = 1 if view.solitaire else view.hand_counts[1 - (view.seat or 0)]
    told = partner_told(view)
    cards_left = view.pile + sum(view.hand_counts)
    state = _State(view.board.copy(stack=False), list(view.line), list(view.discard), view.captures)
    budget = [NODES]
    best: tuple[float, list[Action]] = (float("-inf"), [EndTurn()])
    plans: list[tuple[float, list[Action], _State]] = []
    cards: list[str | None] = list(dict.fromkeys(view.hand)) if view.phase == "card" else [None]
    for card in cards:
        start = state if card is None else _State(state.board, [*state.line, card], state.discard, state.captures)
        head: list[Action] = [] if card is None else [PlayCard(card)]
        captures_only = view.phase == "capture"
        firsts: list[CoopMove | None] = [None]
        if not captures_only:
            firsts += [option for option in move_options(start.board, start.line, start.discard, False)
                       if captured_piece(start.board, option.move) is None]
        for first in firsts:
            after = start if first is None else start.after(first)
            value, chain = _best_captures(after, unseen, partner, cards_left, [budget[0] // max(1, len(firsts))],
                                          told)
            plan = head + ([first] if first is not None else []) + list(chain)
            if value > best[0]:
                best = (value, plan)
            if two_turns:
                end = after
                for capture in chain:
                    end = end.after(capture)
                plans.append((value, plan, end))
    if two_turns and len(plans) > 1 and not any(end.king for _, _, end in plans):
        plans.sort(key=lambda item: -item[0])
        kept = view.hand[:]
        weighed = []
        for value, plan, end in plans[:CANDIDATES]:
            played = next((action.card for action in plan if isinstance(action, PlayCard)), None)
            left = [card for card in kept if card != played] if played else kept
            weighed.append((partner_turn_value(end, unseen, partner, cards_left - 1, told, left), value, plan))
        best = max(weighed, key=lambda item: (item[0], item[1]))[1:]
    return best[1] + [EndTurn()]


def partner_turn_value(state: _State, unseen: Sequence[str], cards: int, cards_left: int,
                       told: dict[chess.Piece, float], own_left: Sequence[str]) -> float:
    """What the team may expect once the colour moving next has played its turn from ``state`` (the position
    where this turn ends): for each kind of card it may play (its ``cards`` cards are drawn from ``unseen``, as
    far as ``told`` says nothing else), its best chain of captures after playing it (a king capture it could set
    up with one move counted as made), and the expectation of the best kind its hand holds."""
    colour = not state.board.turn
    board = state.board.copy(stack=False)
    board.turn, board.ep_square = colour, None
    pool = [card for card in unseen if (card_piece(card) or chess.Piece(chess.KING, True)).piece_type != chess.KING]
    mine = {piece: 1.0 for piece in map(card_piece, own_left) if piece is not None}
    # Seen from the colour moving next, this seat is the partner: the card it keeps is known, one more unknown.
    own_cards = len(own_left) + (1 if cards_left > len(own_left) else 0)

    def turn_value(card: str | None) -> float:
        line = [*state.line, card] if card else list(state.line)
        start = _State(board, line, list(state.discard), state.captures)
        value, chain = _best_captures(start, pool, own_cards, cards_left, [40], mine)
        end = start
        for capture in chain:
            end = end.after(capture)
        if not end.king and score_of(end.board, end.captures)[0] >= WIN_SCORE:
            probe = end.board.copy(stack=False)
            probe.turn = colour
            if king_ready(probe, end.line, colour) >= 1.0:
                value = max(value, score_of(end.board, end.captures)[0] + WIN_BONUS)
        return value

    if not cards or not pool:
        return turn_value(None)
    kinds: dict[chess.Piece, list[str]] = {}
    for card in pool:
        piece = card_piece(card)
        assert piece is not None
        kinds.setdefault(piece, []).append(card)
    values = {kind: turn_value(codes[0]) for kind, codes in kinds.items()}
    held = [kind for kind, chance in told.items() if chance >= 1.0 and kind in values]
    left_out = {kind for kind, chance in told.items() if chance < 1.0}
    floor = max((values[kind] for kind in held), default=float("-inf"))
    draws = max(0, min(cards, 2) - len(held))
    ranked = sorted((kind for kind in values if kind not in left_out or not draws), key=lambda kind: -values[kind])
    if not draws:
        return floor if held else values[ranked[0]]
    total = sum(len(kinds[kind]) for kind in ranked)
    expected, gone = 0.0, 0
    none_before = 1.0
    for kind in ranked:
        gone += len(kinds[kind])
        none_now = _none_of(total, gone, draws)
        expected += max(values[kind], floor) * (none_before - none_now)
        none_before = none_now
    return expected


def _none_of(total: int, marked: int, draws: int) -> float:
    """The chance that ``draws`` cards taken from ``total`` include none of ``marked`` of them."""
    if draws <= 0:
        return 1.0
    if total - marked < draws:
        return 0.0
    return math.comb(total - marked, draws) / math.comb(total, draws)


def partner_told(view: CoopView) -> dict[chess.Piece, float]:
    """What the partner's answer to this seat's last question about a card says of its hand now: a kind it holds
    (chance 1, unless it has played a card of that kind since), or one it did not hold when it answered (its
    chance scaled down: only a card drawn since can be of that kind)."""
    asked = next((item for item in reversed(view.talk) if isinstance(item, Asked) and item.seat == view.seat), None)
    if asked is None or asked.topic != "hold":
        return {}
    position = view.talk.index(asked)
    answer = next((item for item in view.talk[position + 1:] if isinstance(item, Answered)), None)
    if answer is None:
        return {}
    kind = chess.Piece.from_symbol(asked.piece)
    played_then = view.played_at.get(view.talk.index(answer), 0)
    since = [played for played in view.played[played_then:] if played.seat != view.seat]
    if answer.yes:
        return {} if any(card_piece(played.card) == kind for played in since) else {kind: 1.0}
    return {kind: 0.5}


def wantedcard_piece(view: CoopView) -> chess.Piece | None:
    """The kind of card this seat would most like its partner to hold for its coming turn: the one that, played
    beside the line's last card, would allow the most captures to the partner's colour now. None: none would."""
    if view.solitaire or not view.line:
        return None
    last = card_piece(view.line[-1])
    if last is None:
        return None
    partner_colour = not view.board.turn
    counts: dict[chess.Piece, int] = {}
    for attacker, victim, _ in _attack_pairs(view.board, partner_colour):
        if victim.piece_type == chess.KING:
            continue
        other = victim if last == attacker else attacker if last == victim else None
        if other is not None:
            counts[other] = counts.get(other, 0) + 1
    unseen = {card_piece(card) for card in unseen_cards(view)}
    counts = {kind: count for kind, count in counts.items() if kind in unseen}
    return max(counts, key=lambda kind: (counts[kind], kind.symbol())) if counts else None


def answer_truly(view: CoopView, question: Asked) -> bool:
    """The true answer to a phrased question about this seat's hand (a free one: no)."""
    if question.topic == "hold":
        wanted = chess.Piece.from_symbol(question.piece)
        return any(card_piece(card) == wanted for card in view.hand)
    if question.topic == "capture":
        square = chess.parse_square(question.square)
        return _could_capture_on(view, square)
    return False


def _could_capture_on(view: CoopView, square: int) -> bool:
    """Whether this seat's coming turn could capture on ``square``: after playing a card of its hand (or none
    with an empty hand) and at most one non-capturing move, as its first or second capture."""
    state = _State(view.board.copy(stack=False), list(view.line), list(view.discard), view.captures)
    held: list[str | None] = list(view.hand) or [None]
    for card in held:
        start = state if card is None else _State(state.board, [*state.line, card], state.discard, state.captures)
        firsts: list[CoopMove | None] = [None] + [
            option for option in move_options(start.board, start.line, start.discard, False)
            if captured_piece(start.board, option.move) is None]
        for first in firsts:
            after = start if first is None else start.after(first)
            for capture in _captures(after):
                if capture.move.to_square == square:
                    return True
                if any(second.move.to_square == square for second in _captures(after.after(capture))):
                    return True
    return False


class _CoopBot(Bot):
    """What both bots share: the seat's view, built from its observations, and the answers to questions."""

    variant: ClassVar[str] = DEFINITION.key

    def start(self, seat: int, options: dict[str, Any]) -> None:
        super().start(seat, options)
        self.view = CoopView()

    def observe(self, observation: Any) -> None:
        self.view.apply(observation)

    def _answer(self) -> Action:
        question = self.view.question
        return Answer(answer_truly(self.view, question) if question is not None else False)


class CoopRandomBot(_CoopBot):
    """Plays a random card, then random moves and captures, ending its turn at random; answers truly."""

    name: ClassVar[str] = "random"

    def act(self, request: ActionRequest) -> Action:
        choices = request.choices
        if "answers" in choices:
            return self._answer()
        if "cards" in choices:
            card: Action = self.rng.choice(list(choices["cards"]))
            return card
        options: list[Action] = [*choices.get("moves", ()), *choices.get("end", ())]
        return self.rng.choice(options)


class CoopPartnerBot(_CoopBot):
    """Plans its turn for the team's score (see the module's words)."""

    name: ClassVar[str] = "partner"
    _plan: list[Action] = []
    """The rest of the turn planned (kept while the turn goes as planned)."""
    _plan_turn = 0

    def act(self, request: ActionRequest) -> Action:
        choices = request.choices
        if "answers" in choices:
            return self._answer()
        if "questions" in choices and "cards" in choices and not self.view.asked_this_turn:
            kind = wantedcard_piece(self.view)
            if kind is not None:  # a question whose answer would change its next plan
                return Ask("hold", piece=kind.symbol())
        allowed = [*choices.get("cards", ()), *choices.get("moves", ()), *choices.get("end", ())]
        plan = self._plan if self._plan_turn == self.view.number else []
        if not plan or plan[0] not in allowed:  # a new turn (or the turn went otherwise): plan it
            plan = plan_turn(self.view, self.rng)
            self._plan_turn = self.view.number
        self._plan = plan[1:]
        if plan and plan[0] in allowed:
            return plan[0]
        return next((a for a in allowed if isinstance(a, EndTurn)), allowed[0] if allowed else EndTurn())

    def start(self, seat: int, options: dict[str, Any]) -> None:
        super().start(seat, options)
        self._plan = []
        self._plan_turn = 0


