"""Split-Brain Chess as a person meets it: the 6x6 board, picks made by clicking it, the pair shown after the
reveal, and the opponents' and tie questions asked of the right seat.

A pick is a click on the board (or a square typed, ``b1``): only the squares the rules allow are outlined and
accepted (ruling G1). Once both partners have picked, the picked piece is marked "piece" and the picked square
"square". The opponents' chooser answers with one of two buttons; a tie is settled by playing one of the tied
moves on the board (or typing it, ``b1c3``); a promotion is chosen as in chess.

>>> from app.games.splitbrain.rules import SplitBrainChess, SplitBrainView
>>> game = SplitBrainChess()
>>> view = SplitBrainView.from_observations(game.observations(0))
>>> PRESENTER.prompt(view)
'Choose the piece: click one of your pieces that can move'
>>> PRESENTER.parse_text(view, "b1")
PickPiece(square='b1')
"""

from __future__ import annotations

import dataclasses
from functools import singledispatch
from typing import TYPE_CHECKING, Any

from app.games.chess_kit import outcome_sentence
from app.games.presenter import Command, InputError, PresenterBase
from app.games.scene import BoardScene, Cell, MarkerSpec, TrackZone, piece_words
from app.games.splitbrain.losalamos import SIZE, parse_square, square_name
from app.games.splitbrain.rules import (SEATS, TEAM_NAMES, TEAMS, Asked, CoinSwitched, Decide, Decided, Ended,
                                        Moved, Picked, PickPiece, PickSquare, Promote, Revealed, Seated, Settle,
                                        YourPick, legal_pairs, roles)
from app.games.team_draw import (describe_draw, describe_draw_action, draw_command, draw_commands, draw_prompt,
                                 draw_text)
from app.games.splitbrain import DEFINITION

if TYPE_CHECKING:
    from app.engine.core import Action, Seat

__all__ = ["PRESENTER", "SplitBrainPresenter", "cell", "square_number", "describe", "move_words"]

PIECE_COMMAND, SQUARE_COMMAND = "use_piece", "use_square"
COIN_ZONE = "coin"


def cell(square: int) -> Cell:
    """The scene's (file, rank) of a square number."""
    return square % SIZE, square // SIZE


def square_number(square: Cell) -> int:
    return square[1] * SIZE + square[0]


def _side_words(side: str) -> str:
    return "the king side" if side == "king" else "the queen side"


def move_words(move: str, letter: str) -> str:
    """``"knight b1 to c3"``, ``"pawn a5 to a6, becoming a queen"``.

    >>> move_words("b1c3", "N"), move_words("a5a6q", "P")
    ('knight b1 to c3', 'pawn a5 to a6, becoming a queen')
    """
    words = f"{piece_words(letter).split()[-1]} {move[:2]} to {move[2:4]}"
    if len(move) == 5:
        words += f", becoming a {piece_words(move[4]).split()[-1]}"
    return words


@singledispatch
def describe(observation: object, seat: Seat) -> str | None:
    """One line of ``seat``'s log, in plain words (None: not worth a line). Each kind of observation has its own
    function, registered below; what none of them words (the team draw offers) is the team kit's to word."""
    return describe_draw(observation, seat, SEATS, TEAM_NAMES, TEAMS)


@describe.register(Seated)
def _seated(o: Seated, seat: Seat) -> str | None:
    chooser, _mover = roles(0 if o.seat < 2 else 1, o.coin)
    side = "king" if o.seat % 2 == 0 else "queen"
    role = "choose the piece" if chooser == o.seat else "choose the square"
    return (f"You are {SEATS[o.seat]}, playing {TEAM_NAMES[o.seat // 2]} on {_side_words(side)}. The coin is on "
            f"{_side_words(o.coin)}: on your team's first move you {role}.")


@describe.register(YourPick)
def _your_pick(o: YourPick, seat: Seat) -> str | None:
    return f"You picked {square_name(o.square)} ({'the piece' if o.kind == 'piece' else 'the square'})."


@describe.register(Picked)
def _picked(o: Picked, seat: Seat) -> str | None:
    return None if o.seat == seat else f"{SEATS[o.seat]} has picked a {o.kind}."


@describe.register(Revealed)
def _revealed(o: Revealed, seat: Seat) -> str | None:
    chooser, mover = o.chooser, o.mover
    text = (f"{TEAM_NAMES[o.team]}'s picks: {SEATS[chooser]} the {piece_words(o.letter).split()[-1]} on "
            f"{square_name(o.piece)}, {SEATS[mover]} {square_name(o.square)}")
    return text + (": a move." if o.legal else ": not a move, so the opponents decide what stands.")


@describe.register(Asked)
def _asked(o: Asked, seat: Seat) -> str | None:
    who = "You" if o.seat == seat else SEATS[o.seat]
    if o.phase == "decide":
        return f"{who} must choose: the piece or the square."
    if o.phase == "tie":
        moves = ", ".join(f"{m[0]}-{m[1]}" for m in ((square_name(a), square_name(b)) for a, b in o.moves))
        return f"{who} must choose among equally close moves: {moves}."
    return f"{who} must choose what the pawn becomes."


@describe.register(Decided)
def _decided(o: Decided, seat: Seat) -> str | None:
    who = "You" if o.seat == seat else SEATS[o.seat]
    return f"{who} chose the {o.choice}."


@describe.register(Moved)
def _moved(o: Moved, seat: Seat) -> str | None:
    how = "" if o.how == "as picked" else f" ({o.how})"
    text = f"{TEAM_NAMES[o.team]} played {move_words(o.move, o.letter)}{how}"
    return text + (f", taking the {piece_words(o.captured)}." if o.captured else ".")


@describe.register(CoinSwitched)
def _coin_switched(o: CoinSwitched, seat: Seat) -> str | None:
    return f"The coin moves to {_side_words(o.side)}."


@describe.register(Ended)
def _ended(o: Ended, seat: Seat) -> str | None:
    return outcome_sentence(o.outcome, seat, TEAMS)


class SplitBrainPresenter(PresenterBase):
    """Picks by clicks, questions by buttons, tie and promotion choices as moves on the board."""

    key = DEFINITION.key
    entry_text = "Type a square (b1) or a move (b1c3)"

    # -- drawing ------------------------------------------------------------------------------------------------
    def scene(self, view: Any) -> BoardScene:
        position = view.position
        scene = BoardScene(files=SIZE, ranks=SIZE,
                           pieces={cell(square): piece for square, piece in enumerate(position.board)
                                   if piece != "."})
        if view.history:
            move = view.history[-1].move
            scene.last_move = (cell(parse_square(move[:2])), cell(parse_square(move[2:4])))
        chooser, mover = view.roles
        revealed = view.revealed if view.revealed is not None and view.picked else None
        if revealed is not None:
            scene.markers.append(MarkerSpec("reveal", (cell(revealed.piece),), label="piece"))
            scene.markers.append(MarkerSpec("captured", (cell(revealed.square),), label="square"))
        elif view.my_pick is not None:
            kind, square = view.my_pick
            scene.markers.append(MarkerSpec("sense", (cell(square),), label=f"your {kind}"))
        if view.outcome is None and view.my_turn:
            if view.phase == "pick":
                valid = self._valid_picks(view)
                scene.markers.append(MarkerSpec("sense_old", tuple(cell(s) for s in sorted(valid)), opacity=0.7))
                scene.sense_window = lambda square: [square] if square_number(square) in valid else []
            elif view.phase in ("tie", "promote"):
                letters = [] if view.phase == "tie" else ["q", "r", "n"]
                for a, b in view.asked.moves:
                    scene.targets.setdefault(cell(a), {})[cell(b)] = list(letters)
                if view.phase == "tie":  # outline the tied moves' pieces and squares, so the choice is seen at once
                    ends = sorted({square for pair in view.asked.moves for square in pair})
                    scene.markers.append(MarkerSpec("sense_old", tuple(cell(s) for s in ends), opacity=0.7))
        positions, coin = ("a-c", "d-f"), 1 if view.coin == "king" else 0
        if view.seat in (2, 3):  # Black's board is turned: the king side is on its left
            positions, coin = ("d-f", "a-c"), 1 - coin
        scene.zones.append(TrackZone(id=COIN_ZONE, place="below", label=self._roles_line(view),
                                     positions=positions, marker=coin))
        return scene

    def premove_scene(self, view: Any) -> BoardScene | None:
        """While others act: the seat's board with the picks it may queue for its team's next pick, as the board
        stands (for the opponents' turn, with the seat's side to move and the coin where it will be by then). A
        seat that has picked already, or whose team's move is being settled, queues nothing."""
        if view.seat is None or view.outcome is not None or view.my_turn:
            return None
        own = 0 if view.seat < 2 else 1
        if view.team == own:
            if view.phase != "pick" or view.seat in view.picked:
                return None
            position, coin = view.position, view.coin
        else:
            position = dataclasses.replace(view.position, white_to_move=own == 0)
            coin = view.coin if view.team == 0 else ("queen" if view.coin == "king" else "king")  # after Black moves
        chooser, _mover = roles(own, coin)
        pairs = legal_pairs(position)
        valid = {a for a, _ in pairs} if view.seat == chooser else {b for _, b in pairs}
        scene = self.scene(view)
        scene.sense_window = lambda square: [square] if square_number(square) in valid else []
        scene.pick_word = "pick"
        return scene

    def _roles_line(self, view: Any) -> str:
        side = f"Coin: {view.coin} side"
        if view.outcome is not None:
            return side
        chooser, mover = view.roles
        return f"{side} · {SEATS[chooser]} piece, {SEATS[mover]} square"

    def _valid_picks(self, view: Any) -> set[int]:
        pairs = view.legal_pairs()
        chooser, _mover = view.roles
        return {a for a, _ in pairs} if view.seat == chooser else {b for _, b in pairs}

    def truth_scene(self, truth: Any, last_move: Any = None) -> BoardScene:
        position = getattr(truth, "position", truth)
        scene = BoardScene(files=SIZE, ranks=SIZE,
                           pieces={cell(square): piece for square, piece in enumerate(position.board)
                                   if piece != "."})
        if last_move is not None:
            scene.last_move = (cell(last_move.from_sq), cell(last_move.to_sq))
        return scene

    # -- words --------------------------------------------------------------------------------------------------
    def sounds(self, observation: Any, seat: Seat) -> tuple[str, ...]:
        o = observation
        if isinstance(o, YourPick):
            return ("sense",)
        if isinstance(o, Moved):
            ours = o.team == seat // 2
            cue = ("capture" if ours else "captured") if o.captured else "move"
            changed = ("failed",) if ours and o.how != "as picked" else ()  # the pair was no move: settled otherwise
            return changed + ((cue, "check") if o.check else (cue,))
        return super().sounds(observation, seat)

    def describe(self, observation: Any, seat: Seat) -> str | None:
        return describe(observation, seat)

    def move_list(self, view: Any) -> list[str]:
        lines: list[str] = []
        for index, (moved, text) in enumerate(zip(view.history, view.sans)):
            if moved.how != "as picked":
                text += f" ({moved.how})"
            if moved.team == 0:
                lines.append(f"{index // 2 + 1}. {text}")
            elif lines:
                lines[-1] += f"  {text}"
            else:
                lines.append(f"{index // 2 + 1}. …  {text}")
        return lines

    def prompt(self, view: Any) -> str:
        if view.outcome is not None or not view.my_turn:
            return "Your move"
        asked = draw_prompt(view, SEATS, TEAM_NAMES)
        if asked is not None:
            return asked
        phase = view.phase
        if phase == "pick":
            chooser, _mover = view.roles
            if view.seat == chooser:
                return "Choose the piece: click one of your pieces that can move"
            return "Choose the square: click a square one of your pieces can move to"
        if phase == "decide":
            revealed = view.revealed
            return (f"The opponents' pair {square_name(revealed.piece)} / {square_name(revealed.square)} is not a "
                    "move: choose whether the piece or the square stands")
        if phase == "tie":
            moves = " or ".join(f"{square_name(a)}-{square_name(b)}" for a, b in view.asked.moves)
            return f"Equally close: play {moves} on the board"
        return "Choose what the pawn becomes"

    def entry_hint(self, view: Any) -> str:
        if view.my_turn and view.phase in ("agree_draw", "answer_draw"):
            return "Type accept or decline"
        return self.entry_text

    def describe_action(self, action: Any) -> str:
        return describe_draw_action(action) or super().describe_action(action)

    # -- input --------------------------------------------------------------------------------------------------
    def on_square(self, view: Any, square: Cell) -> Action:
        if view.phase != "pick" or not view.my_turn:
            raise InputError("there is nothing to pick now")
        number = square_number(square)
        valid = self._valid_picks(view)
        chooser, _mover = view.roles
        if number not in valid:
            if view.seat == chooser:
                raise InputError(f"{square_name(number)} holds none of your pieces that can move")
            raise InputError(f"none of your pieces can move to {square_name(number)}")
        name = square_name(number)
        return PickPiece(name) if view.seat == chooser else PickSquare(name)

    def on_move(self, view: Any, from_square: Cell, to_square: Cell, promotion: str | None) -> Action:
        pair = (square_number(from_square), square_number(to_square))
        if view.phase == "tie" and view.my_turn:
            if pair not in view.asked.moves:
                raise InputError("play one of the equally close moves")
            return Settle(square_name(pair[0]) + square_name(pair[1]))
        if view.phase == "promote" and view.my_turn:
            if promotion not in ("q", "r", "n"):
                raise InputError("a pawn becomes a queen, a rook or a knight")
            return Promote(promotion)
        raise InputError("moves are made from the partners' picks: pick a square")

    def parse_text(self, view: Any, text: str) -> Action:
        draw = draw_text(view, text, view.can_offer_draw())
        if draw is not None:
            return draw
        cleaned = text.strip().lower().replace("-", "")
        if view.phase == "decide" and cleaned in ("piece", "square"):
            return Decide(cleaned)
        if view.phase == "promote" and cleaned in ("q", "r", "n"):
            return Promote(cleaned)
        if len(cleaned) == 2:
            try:
                return self.on_square(view, cell(parse_square(cleaned)))
            except ValueError as error:
                raise InputError(str(error)) from None
        if len(cleaned) == 4:
            try:
                start, end = parse_square(cleaned[:2]), parse_square(cleaned[2:])
            except ValueError as error:
                raise InputError(str(error)) from None
            return self.on_move(view, cell(start), cell(end), None)
        raise InputError("type a square such as b1, or a move such as b1c3")

    def commands(self, view: Any) -> list[Command]:
        """Offer draw (the partner must agree, then both opponents accept) or the answers when asked; the
        piece-or-square question when it is asked."""
        draws = draw_commands(view, view.can_offer_draw())
        if view.phase != "decide":
            return draws
        mine = view.my_turn and view.outcome is None
        return [Command(PIECE_COMMAND, "Use the piece", mine), Command(SQUARE_COMMAND, "Use the square", mine),
                *draws]

    def command(self, view: Any, command_id: str) -> Action:
        draw = draw_command(view, command_id, view.can_offer_draw())
        if draw is not None:
            return draw
        if command_id not in (PIECE_COMMAND, SQUARE_COMMAND) or view.phase != "decide":
            raise InputError("there is no such choice now")
        return Decide("piece" if command_id == PIECE_COMMAND else "square")


PRESENTER = SplitBrainPresenter()
