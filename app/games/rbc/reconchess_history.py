"""Convert Sightline RBC records to and from reconchess's ``GameHistory`` JSON.

``sightline import`` finds :func:`history_to_record` through RBC's definition (its ``imports``), and the
``reconchess`` export through its ``formats``.

reconchess 1.6.9 saves a game with ``GameHistory.save`` (JSON written by
``GameHistoryEncoder``), loads it with ``GameHistory.from_file`` and shows it with
``rc-replay``. The JSON holds, for each colour (keyed ``"true"`` for White and
``"false"`` for Black, as :func:`json.dump` writes boolean keys), one list entry
per turn of that colour: the sensed square, the sense result, the requested
and taken moves, the capture square and the true FEN before and after the move
(``board.fen(en_passant="fen")``, as ``LocalGame`` writes it); then the winner
colour and the win reason. Moves, pieces and win reasons are tagged objects:
``{"type": "Move", "value": "e2e4"}``, ``{"type": "Piece", "value": "p"}``,
``{"type": "WinReason", "value": "KING_CAPTURE"}``.

- :func:`record_to_history` / :func:`export_reconchess`: a Sightline record to
  that JSON. A turn that ended after sensing (resignation, flag fall) has a sense
  and no move, as ``LocalGame`` stores it; a turn that ended before sensing
  stores nothing. Time used, the clock, seeds and the draw rule are not part of
  the format and are lost.
- :func:`history_to_record`: that JSON to a Sightline record, replayed through
  :class:`~app.games.rbc.rules.ReconChess` and checked against every taken move,
  capture square, sense result and FEN of the history.

Results map as follows (Sightline :class:`~app.engine.core.Reason` to reconchess
``WinReason``): ``king_capture`` -> ``KING_CAPTURE``, ``timeout`` -> ``TIMEOUT``,
``resign`` -> ``RESIGN``, ``move_limit`` -> ``MOVE_LIMIT``, ``turn_limit`` ->
``TURN_LIMIT``. reconchess has no *forfeit* (a bot that crashed or answered
illegally): it is exported as ``RESIGN`` by the losing side, and so is any other
adjudicated loss. A draw has a ``null`` winner and the reason ``MOVE_LIMIT`` (or
``TURN_LIMIT``) when that was the reason, ``null`` otherwise (an aborted game);
an unfinished game has ``null`` for both.

Importing, ``KING_CAPTURE`` and ``MOVE_LIMIT`` must come out of the replay;
``TIMEOUT`` becomes an :class:`~app.engine.core.Adjudication` of the loser and
``RESIGN`` a ``{"type": "resign"}`` entry of the loser, after the last turn.
``TURN_LIMIT`` cannot be reproduced (Sightline's RBC has no full-turn limit) and
is refused. Every problem raises :class:`~app.engine.record.RecordError`.

>>> from app.engine.record import GameSession
>>> from app.games.rbc.rules import MoveAction, ReconChess, Sense
>>> session = GameSession(ReconChess())
>>> session.play(0, Sense.parse("e7"))
>>> session.play(0, MoveAction.parse("e2e4"))
>>> history = record_to_history(session.record)
>>> history["taken_moves"]["true"], history["fens_after_move"]["true"][0]
([{'type': 'Move', 'value': 'e2e4'}], 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1')
>>> history_to_record(history).entries[1].action
{'type': 'move', 'move': 'e2e4'}
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, TypeVar

import chess

from app.engine.clock import TimeControl
from app.engine.core import Adjudication, Outcome, Reason, Resign
from app.games.rbc.rules import BLACK_SEAT, WHITE_SEAT, MoveAction, MoveResult, ReconChess, Sense, SenseResult
from app.engine.record import (MAX_ACTIONS, Entry, GameRecord, PlayerInfo, RecordError, _short, atomic_write_text,
                               read_limited, replay)

__all__ = ["HISTORY_TYPE", "STARTING_FEN", "WIN_REASONS", "export_reconchess", "history_to_record",
           "record_to_history"]

HISTORY_TYPE = "GameHistory"
"""The ``"type"`` tag of a saved reconchess ``GameHistory``."""

STARTING_FEN = chess.Board().fen(en_passant="fen")
"""The first ``fens_before_move`` of every reconchess history: the standard position."""

WIN_REASONS: tuple[str, ...] = ("KING_CAPTURE", "TIMEOUT", "RESIGN", "TURN_LIMIT", "MOVE_LIMIT")
"""The names of reconchess's ``WinReason`` members."""

_COLORS: tuple[tuple[chess.Color, str], ...] = ((chess.WHITE, "true"), (chess.BLACK, "false"))
_TURN_KEYS: tuple[str, ...] = ("senses", "sense_results", "requested_moves", "taken_moves", "capture_squares",
                               "fens_before_move", "fens_after_move")
_MOVE_KEYS: tuple[str, ...] = _TURN_KEYS[2:]

_EXPORT_REASONS: dict[Reason, str] = {
    Reason.KING_CAPTURE: "KING_CAPTURE",
    Reason.TIMEOUT: "TIMEOUT",
    Reason.RESIGN: "RESIGN",
    Reason.FORFEIT: "RESIGN",  # reconchess has no forfeit: the losing side "resigned"
    Reason.MOVE_LIMIT: "MOVE_LIMIT",
    Reason.TURN_LIMIT: "TURN_LIMIT",
}

_SOURCE = "reconchess GameHistory"

T = TypeVar("T")


# ---- export -------------------------------------------------------------------------------------------

def _move_json(move: chess.Move | None) -> dict[str, str] | None:
    return None if move is None else {"type": "Move", "value": move.uci()}


def _piece_json(piece: chess.Piece | None) -> dict[str, str] | None:
    return None if piece is None else {"type": "Piece", "value": piece.symbol()}


def _result_json(outcome: Outcome | None) -> tuple[bool | None, dict[str, str] | None]:
    """``(winner_color, win_reason)`` as reconchess stores them."""
    if outcome is None:
        return None, None
    if outcome.winner is None:
        name = _EXPORT_REASONS.get(outcome.reason) if outcome.reason in (Reason.MOVE_LIMIT,
                                                                         Reason.TURN_LIMIT) else None
        return None, None if name is None else {"type": "WinReason", "value": name}
    name = _EXPORT_REASONS.get(outcome.reason, "RESIGN")  # any other adjudicated loss: the loser "resigned"
    return outcome.winner == WHITE_SEAT, {"type": "WinReason", "value": name}


def record_to_history(record: GameRecord) -> dict[str, Any]:
    """The reconchess ``GameHistory`` JSON data of an RBC ``record``.

    The record is replayed first (:func:`app.engine.record.replay`), so a record
    that does not replay raises :class:`RecordError`; so does a record of
    another game or one that starts from a position other than the standard one
    (reconchess always starts there). The result is exactly what
    ``GameHistoryEncoder`` writes for the same game (same keys, same order),
    ready for :func:`json.dump`. A forfeit is exported as ``RESIGN`` by the
    losing side; see the module documentation for the other reasons.
    """
    if record.variant != ReconChess.variant:
        raise RecordError(f"only Reconnaissance Blind Chess records can be exported to reconchess, "
                          f"not {record.variant!r}")
    game = replay(record).game
    if not isinstance(game, ReconChess):  # pragma: no cover - the record's variant is ReconChess.variant
        raise RecordError("the record did not replay as Reconnaissance Blind Chess")
    if chess.Board(game.starting_fen).fen(en_passant="fen") != STARTING_FEN:
        raise RecordError("the record starts from a position other than the standard one; reconchess histories "
                          "always start from the standard position")

    lists: dict[str, dict[str, list[Any]]] = {key: {"true": [], "false": []} for key in _TURN_KEYS}
    for color, key in _COLORS:
        seat = WHITE_SEAT if color else BLACK_SEAT
        for observation in game.observations(seat):
            if isinstance(observation, SenseResult):
                lists["senses"][key].append(observation.square)
                lists["sense_results"][key].append([[square, _piece_json(piece)]
                                                    for square, piece in observation.window])
            elif isinstance(observation, MoveResult):
                lists["requested_moves"][key].append(_move_json(observation.requested))
                lists["taken_moves"][key].append(_move_json(observation.taken))
                lists["capture_squares"][key].append(observation.capture_square)

    board = chess.Board(game.starting_fen)
    for move in game.board.move_stack:
        key = "true" if board.turn == chess.WHITE else "false"
        lists["fens_before_move"][key].append(board.fen(en_passant="fen"))
        board.push(move)
        lists["fens_after_move"][key].append(board.fen(en_passant="fen"))
    for key in ("true", "false"):
        if len(lists["fens_after_move"][key]) != len(lists["taken_moves"][key]):  # pragma: no cover
            raise RecordError("internal error: the replayed moves and move results disagree")

    names = [player.name for player in record.players] + list(game.seat_names[len(record.players):])
    winner_color, win_reason = _result_json(record.result)
    return {
        "type": HISTORY_TYPE,
        "white_name": names[WHITE_SEAT],
        "black_name": names[BLACK_SEAT],
        **lists,
        "winner_color": winner_color,
        "win_reason": win_reason,
    }


def export_reconchess(record: GameRecord, path: str | os.PathLike[str]) -> None:
    """Write ``record`` as a reconchess ``GameHistory`` JSON file (atomically), for ``rc-replay``.

    Raises :class:`RecordError` as :func:`record_to_history` does; ``OSError``
    when the file cannot be written.
    """
    atomic_write_text(Path(path), json.dumps(record_to_history(record)))


# ---- import: reading and checking the JSON ----------------------------------------------------------------

@dataclass
class _ColorTurns:
    """One colour's per-turn lists of a history, parsed."""

    senses: list[int | None] = field(default_factory=list)
    sense_results: list[list[tuple[int, chess.Piece | None]]] = field(default_factory=list)
    requested: list[chess.Move | None] = field(default_factory=list)
    taken: list[chess.Move | None] = field(default_factory=list)
    captures: list[int | None] = field(default_factory=list)
    fens_before: list[str] = field(default_factory=list)
    fens_after: list[str] = field(default_factory=list)


@dataclass
class _History:
    white_name: str
    black_name: str
    turns: dict[chess.Color, _ColorTurns]
    winner: chess.Color | None
    reason: str | None


def _color_name(color: chess.Color) -> str:
    return "White" if color else "Black"


def _turn_name(color: chess.Color, number: int) -> str:
    """A turn as reconchess prints it (``Turn(WHITE, 3)``: White's fourth turn, counted from 0)."""
    return f"Turn({chess.COLOR_NAMES[color].upper()}, {number})"


def _read_json(path: Path) -> Any:
    """The file's JSON, read as a record is read (same size limit, a byte-order mark tolerated)."""
    data = read_limited(path, "a reconchess game history")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise RecordError(f"{path} is not a text file (byte {error.start} is not UTF-8)") from None
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as error:
        raise RecordError(f"{path} is not valid JSON (line {error.lineno}, column {error.colno}: {error.msg}); "
                          f"the file may be truncated or corrupt") from None
    except RecursionError:
        raise RecordError(f"{path} is nested too deeply to be a reconchess game history") from None
    except ValueError:  # NaN or Infinity, or an integer with thousands of digits
        raise RecordError(f"{path} holds a number that is not a plain JSON number, or one too long to read") \
            from None


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _square(value: Any) -> int:
    if _is_int(value) and 0 <= value < 64:
        return int(value)
    raise ValueError(f"not a square: {_short(value)}")


def _optional_square(value: Any) -> int | None:
    return None if value is None else _square(value)


def _tagged(value: Any, kind: str) -> str:
    if not isinstance(value, dict) or value.get("type") != kind or not isinstance(value.get("value"), str):
        raise ValueError(f"not a {kind}: {_short(value)}")
    return str(value["value"])


def _move(value: Any) -> chess.Move | None:
    if value is None:
        return None
    uci = _tagged(value, "Move")
    try:
        move = chess.Move.from_uci(uci)
    except ValueError:
        raise ValueError(f"not a move: {_short(uci)}") from None
    if not move or move.drop:
        raise ValueError(f"not a move: {_short(uci)}")
    return move


def _piece(value: Any) -> chess.Piece | None:
    if value is None:
        return None
    symbol = _tagged(value, "Piece")
    try:
        return chess.Piece.from_symbol(symbol)
    except (ValueError, IndexError):
        raise ValueError(f"not a piece: {_short(symbol)}") from None


def _sense_result(value: Any) -> list[tuple[int, chess.Piece | None]]:
    if not isinstance(value, list):
        raise ValueError(f"not a list of (square, piece) pairs: {_short(value)}")
    result = []
    for pair in value:
        if not isinstance(pair, list) or len(pair) != 2:
            raise ValueError(f"not a (square, piece) pair: {_short(pair)}")
        result.append((_square(pair[0]), _piece(pair[1])))
    return result


def _fen(value: Any) -> str:
    if not isinstance(value, str):
        raise ValueError(f"not a FEN: {_short(value)}")
    return value


def _parse_list(data: Mapping[str, Any], key: str, color: chess.Color, color_key: str,
                parse: Callable[[Any], T]) -> list[T]:
    items = data[key][color_key]
    parsed = []
    for number, item in enumerate(items):
        try:
            parsed.append(parse(item))
        except ValueError as error:
            raise RecordError(f"{_turn_name(color, number)}: bad {key} entry: {error}") from None
    return parsed


def _parse_history(data: Any) -> _History:
    """Check the structure of GameHistory JSON data and parse its values (not yet the moves)."""
    if not isinstance(data, Mapping):
        raise RecordError("not a reconchess game history: the data is not a JSON object")
    if data.get("type") != HISTORY_TYPE:
        raise RecordError(f"not a reconchess game history: 'type' is {_short(data.get('type'))}, "
                          f"not {HISTORY_TYPE!r}")
    missing = [key for key in ("white_name", "black_name", *_TURN_KEYS, "winner_color", "win_reason")
               if key not in data]
    if missing:
        raise RecordError(f"not a complete reconchess game history: missing {', '.join(missing)}")
    for key in _TURN_KEYS:
        value = data[key]
        if not isinstance(value, dict) or not all(isinstance(value.get(c), list) for c in ("true", "false")):
            raise RecordError(f"{key!r} must be an object with a 'true' (White) and a 'false' (Black) list")

    names = []
    for key, default in (("white_name", "White"), ("black_name", "Black")):
        name = data[key]
        if name is not None and not isinstance(name, str):
            raise RecordError(f"{key!r} must be a string or null, not {_short(name)}")
        names.append(name if name else default)

    turns: dict[chess.Color, _ColorTurns] = {}
    for color, key in _COLORS:
        side = _ColorTurns(
            senses=_parse_list(data, "senses", color, key, _optional_square),
            sense_results=_parse_list(data, "sense_results", color, key, _sense_result),
            requested=_parse_list(data, "requested_moves", color, key, _move),
            taken=_parse_list(data, "taken_moves", color, key, _move),
            captures=_parse_list(data, "capture_squares", color, key, _optional_square),
            fens_before=_parse_list(data, "fens_before_move", color, key, _fen),
            fens_after=_parse_list(data, "fens_after_move", color, key, _fen),
        )
        colour = _color_name(color)
        if len(side.sense_results) != len(side.senses):
            raise RecordError(f"{colour} has {len(side.senses)} senses but {len(side.sense_results)} sense results")
        for move_key in _MOVE_KEYS:
            if len(data[move_key][key]) != len(side.requested):
                raise RecordError(f"{colour} has {len(side.requested)} requested moves but "
                                  f"{len(data[move_key][key])} {move_key.replace('_', ' ')}")
        if len(side.requested) > len(side.senses):
            raise RecordError(f"{colour} has more moves ({len(side.requested)}) than senses ({len(side.senses)})")
        turns[color] = side

    winner = data["winner_color"]
    if winner is not None and not isinstance(winner, bool):
        raise RecordError(f"'winner_color' must be true, false or null, not {_short(winner)}")
    reason_data = data["win_reason"]
    reason = None
    if reason_data is not None:
        try:
            reason = _tagged(reason_data, "WinReason")
        except ValueError as error:
            raise RecordError(f"bad 'win_reason': {error}") from None
        if reason not in WIN_REASONS:
            raise RecordError(f"bad 'win_reason': {_short(reason)} is not one of {', '.join(WIN_REASONS)}")
    return _History(names[0], names[1], turns, winner, reason)


def _turn_order(history: _History) -> list[tuple[chess.Color, int]]:
    """Every turn that has a sense, in the order played; checks that the turns follow each other."""
    white, black = history.turns[chess.WHITE], history.turns[chess.BLACK]
    whites, blacks = len(white.senses), len(black.senses)
    if whites not in (blacks, blacks + 1):
        raise RecordError(f"the turns do not alternate: White has {whites} turns and Black {blacks} "
                          f"(White moves first, so White has as many turns as Black or one more)")
    order = []
    for number in range(whites):
        order.append((chess.WHITE, number))
        if number < blacks:
            order.append((chess.BLACK, number))
    for index, (color, number) in enumerate(order[:-1]):
        if number >= len(history.turns[color].requested):
            raise RecordError(f"{_turn_name(color, number)} has a sense but no move, yet the game continues "
                              f"with {_turn_name(*order[index + 1])}")
    return order


def _halfmove_clock(fen: str) -> int:
    fields = fen.split()
    return int(fields[4]) if len(fields) > 4 and fields[4].isdigit() else 0


def _draw_rule(history: _History) -> str:
    """``"50-move"`` unless the history goes on past a halfmove clock of 100 (no reversible-move limit then)."""
    if history.reason == "MOVE_LIMIT":
        return "50-move"
    clocks = (_halfmove_clock(fen) for side in history.turns.values() for fen in side.fens_after)
    return "none" if any(clock >= 100 for clock in clocks) else "50-move"


def _window_text(window: list[tuple[int, chess.Piece | None]]) -> str:
    return " ".join(f"{chess.SQUARE_NAMES[square]}={piece.symbol() if piece else '.'}" for square, piece in window)


def _uci(move: chess.Move | None) -> str:
    return "nothing (pass)" if move is None else move.uci()


def _square_text(square: int | None) -> str:
    return "none" if square is None else chess.SQUARE_NAMES[square]


# ---- import: replaying ---------------------------------------------------------------------------------------

def history_to_record(data: Mapping[str, Any] | str | os.PathLike[str]) -> GameRecord:
    """A Sightline RBC record rebuilt from reconchess ``GameHistory`` JSON (a file path or parsed data).

    The players are the history's names, as bots; the clock is untimed; each turn
    becomes a :class:`~app.games.rbc.rules.Sense` and a
    :class:`~app.games.rbc.rules.MoveAction` with the requested move (elapsed 0). The
    record is replayed through :class:`~app.games.rbc.rules.ReconChess` and every sense
    result, taken move, capture square and FEN must equal the history's; the
    result must come out of the replay (king capture, 50-move draw) or is added
    after the last turn (timeout as an adjudication, resignation as a resign
    entry, both by the loser). The draw rule is ``"50-move"`` unless the history
    plays on past it (a game without reversible-move limit): then ``"none"``.

    Raises :class:`RecordError`, naming the turn and the problem, for a file that
    cannot be read, data that is not a history, a history that does not start
    from the standard position or does not replay exactly, and for a
    ``TURN_LIMIT`` result (Sightline's RBC has no full-turn limit).
    """
    if isinstance(data, (str, os.PathLike)):
        data = _read_json(Path(data))
    history = _parse_history(data)
    if history.reason == "TURN_LIMIT":
        raise RecordError("the game ended by reconchess's full-turn limit (TURN_LIMIT), which Sightline's "
                          "Reconnaissance Blind Chess does not have, so the result cannot be reproduced")
    if history.reason in ("KING_CAPTURE", "TIMEOUT", "RESIGN") and history.winner is None:
        raise RecordError(f"the history ends by {history.reason} but names no winner")
    if history.reason in ("MOVE_LIMIT", None) and history.winner is not None:
        raise RecordError(f"the history names a winner ({_color_name(history.winner)}) but the reason "
                          f"{history.reason or 'null'} has none")
    white_turns = history.turns[chess.WHITE]
    if white_turns.fens_before and white_turns.fens_before[0] != STARTING_FEN:
        raise RecordError(f"{_turn_name(chess.WHITE, 0)}: the game starts from "
                          f"{_short(white_turns.fens_before[0], 100)}, "
                          f"not the standard starting position; reconchess games (and their import) always "
                          f"start from the standard position")
    order = _turn_order(history)
    steps = sum(len(side.senses) + len(side.requested) for side in history.turns.values()) + 1
    if steps > MAX_ACTIONS:  # the record could not be loaded again (nor exported): refuse it now
        raise RecordError(f"the history is too long: its record would hold {steps} steps, and a record may hold "
                          f"at most {MAX_ACTIONS}")

    game = ReconChess(draw_rule=_draw_rule(history))
    entries: list[Entry] = []
    for color, number in order:
        turn = _turn_name(color, number)
        side = history.turns[color]
        seat = WHITE_SEAT if color else BLACK_SEAT
        if game.outcome is not None:
            raise RecordError(f"{turn}: the game already ended ({game.outcome.detail or game.outcome.reason.value})"
                              f" on the previous turn, but the history continues")
        if game.to_move != seat:  # pragma: no cover - the order alternates from White, as the referee does
            raise RecordError(f"{turn}: it is not {_color_name(color)}'s turn in the replay")
        _play(game, entries, seat, Sense(side.senses[number]), turn)
        sensed = game.observations(seat)[-1]
        expected_window = side.sense_results[number]
        if not isinstance(sensed, SenseResult) or list(sensed.window) != expected_window:
            replayed = _window_text(list(sensed.window)) if isinstance(sensed, SenseResult) else "nothing"
            raise RecordError(f"{turn}: the sense result at {_square_text(side.senses[number])} is "
                              f"[{_window_text(expected_window)}] in the history but [{replayed}] on replay")
        if number >= len(side.requested):
            break  # the game ended after this sense (the last turn: see _turn_order)
        fen = game.board.fen(en_passant="fen")
        if side.fens_before[number] != fen:
            raise RecordError(f"{turn}: the position before the move is {_short(side.fens_before[number], 100)} "
                              f"in the history but {_short(fen, 100)} on replay")
        _play(game, entries, seat, MoveAction(side.requested[number]), turn)
        result = next((item for item in reversed(game.observations(seat)) if isinstance(item, MoveResult)), None)
        if result is None:  # pragma: no cover - a move always reports its result
            raise RecordError(f"{turn}: the move did not report a result on replay")
        if result.taken != side.taken[number]:
            raise RecordError(f"{turn}: the requested move {_uci(side.requested[number])} took "
                              f"{_uci(side.taken[number])} in the history but {_uci(result.taken)} on replay")
        if result.capture_square != side.captures[number]:
            raise RecordError(f"{turn}: the capture square is {_square_text(side.captures[number])} in the "
                              f"history but {_square_text(result.capture_square)} on replay")
        fen = game.board.fen(en_passant="fen")
        if side.fens_after[number] != fen:
            raise RecordError(f"{turn}: the position after the move is {_short(side.fens_after[number], 100)} "
                              f"in the history but {_short(fen, 100)} on replay")

    _finish(game, entries, history, order)
    record = GameRecord(
        variant=ReconChess.variant,
        options=game.options(),
        players=[PlayerInfo(history.white_name, "bot", None), PlayerInfo(history.black_name, "bot", None)],
        seed=None,
        clock=TimeControl(None, 0),
        entries=entries,
        result=game.outcome,
        extra={"imported_from": _SOURCE},
    )
    replay(record)  # the record must stand on its own; raises RecordError otherwise
    return record


def _play(game: ReconChess, entries: list[Entry], seat: int, action: Sense | MoveAction | Resign,
          turn: str) -> None:
    try:
        game.play(seat, action)
    except ValueError as error:  # IllegalAction, GameOver
        what = action.to_json()
        raise RecordError(f"{turn}: {what.get('type')} {what.get('square', what.get('move', ''))} "
                          f"does not replay: {error}") from None
    entries.append(Entry(seat, action.to_json(), 0.0))


def _finish(game: ReconChess, entries: list[Entry], history: _History,
            order: list[tuple[chess.Color, int]]) -> None:
    """Reproduce the history's result at the end of the replay, or raise RecordError."""
    last = _turn_name(*order[-1]) if order else "the start"
    outcome = game.outcome
    ended = "not ended" if outcome is None else f"ended by {outcome.reason.value}" + (
        f" ({outcome.detail})" if outcome.detail else "")
    reason, winner = history.reason, history.winner
    if reason in ("KING_CAPTURE", "MOVE_LIMIT"):
        expected = Reason.KING_CAPTURE if reason == "KING_CAPTURE" else Reason.MOVE_LIMIT
        winner_seat = None if winner is None else (WHITE_SEAT if winner else BLACK_SEAT)
        if outcome is None or outcome.reason is not expected or outcome.winner != winner_seat:
            who = "a draw" if winner is None else f"a win for {_color_name(winner)}"
            hint = (" (Sightline's 50-move rule draws when the halfmove clock reaches 100: was the game played "
                    "with another reversible_moves_limit?)" if reason == "MOVE_LIMIT" and outcome is None else "")
            raise RecordError(f"the history ends by {reason} ({who}), but after {last} the replayed game has "
                              f"{ended}{hint}")
        return
    if reason is None:
        if outcome is not None:
            raise RecordError(f"the history records no result, but the replayed game {ended} at {last}")
        return
    # TIMEOUT or RESIGN: imposed on the loser after the last turn.
    assert winner is not None
    if outcome is not None:
        raise RecordError(f"the history ends by {reason} ({_color_name(not winner)} lost), but the replayed "
                          f"game already {ended} at {last}; Sightline ends the game there, so the "
                          f"{reason.lower()} cannot be reproduced")
    loser = BLACK_SEAT if winner else WHITE_SEAT
    if reason == "RESIGN":
        _play(game, entries, loser, Resign(), f"after {last}")
    else:
        adjudication = Adjudication(loser, Reason.TIMEOUT)
        game.adjudicate(adjudication)
        entries.append(Entry(loser, adjudication.to_json(), 0.0))
