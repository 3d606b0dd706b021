"""MinitChess's export formats (ruling M4): a position in the rule text's notation, for the clipboard
(:func:`position_text` / :func:`parse_position_text`), and a game as PGN-like tags and numbered ``a2-a3`` moves
(:func:`minit_move_list`), which :func:`parse_minit_move_list` reads back."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from app import games
from app.games.minit.rules import HEIGHT, MinitPosition, Move
from app.engine.record import RecordError, Timeline
from app.games.chess_kit import pgn_headers, pgn_like_text, result_token, unescape_tag

if TYPE_CHECKING:
    from app.engine.record import GameRecord

__all__ = ["copy_position", "minit_move_list", "options_from_position_text", "parse_minit_move_list",
           "parse_position_text", "position_text"]


def position_text(position: MinitPosition) -> str:
    """A position in the rule text's notation, for copying (ruling M4).

    >>> position_text(MinitPosition.start())
    '1 W kqbnr ppppp ..... ..... PPPPP RNBQK'
    """
    return position.text()


def parse_position_text(text: str) -> MinitPosition:
    """Read a pasted MinitChess position; ``ValueError`` says what is wrong.

    Accepts the rule text's notation, with the ranks on one line or on several
    (as copied from a grid), separated by spaces or ``/``; without a move number
    and side the position is taken as move 1, White to move.

    >>> str(parse_position_text('''kqbnr
    ... ppppp
    ... .....
    ... .....
    ... PPPPP
    ... RNBQK'''))
    '1 W kqbnr ppppp ..... ..... PPPPP RNBQK'
    >>> parse_position_text("12 B k.... ..... ..... ..... ..... ....K").turn
    False
    """
    if not isinstance(text, str):
        raise ValueError("a position must be text")
    if len(text) > 1000:
        raise ValueError("that is too long to be a MinitChess position")
    fields = text.replace("/", " ").split()
    if len(fields) == HEIGHT:
        fields = ["1", "W", *fields]
    elif len(fields) == HEIGHT + 1 and fields[0] in ("W", "B", "w", "b"):
        fields = ["1", *fields]
    if len(fields) >= 2:
        fields[1] = fields[1].upper()
    return MinitPosition.parse(" ".join(fields))


def copy_position(game: Any) -> str:
    """The clipboard's text for a game in play: its position (MinitChess hides nothing from either seat)."""
    return position_text(game.position)


def options_from_position_text(text: str) -> dict[str, str]:
    """The options of a new game starting from a pasted position; ``ValueError`` says what is wrong with it.

    >>> options_from_position_text("kqbnr ppppp ..... ..... PPPPP RNBQK")
    {'position': '1 W kqbnr ppppp ..... ..... PPPPP RNBQK'}
    """
    return {"position": str(parse_position_text(text))}


def minit_move_list(record: GameRecord) -> str:
    """A MinitChess game as PGN-like tags, then numbered moves in the rule text's notation and the result.

    The ``Position`` tag holds the start and ``FinalPosition`` the end, both as in
    the rule text (ruling M4).
    """
    if record.variant != "minit":
        raise RecordError(f"the minit format is for MinitChess games, not {record.variant}")
    timeline = Timeline(record)
    game: Any = timeline.game
    start: MinitPosition = game.starting_position
    headers = pgn_headers(record, games.get(record.variant).title)
    headers["Position"] = start.text()
    headers["FinalPosition"] = game.position.text()
    tokens: list[str] = []
    position = start
    for index, move in enumerate(game.moves):
        if position.turn:
            tokens.append(f"{position.move_number}. {move}")  # a number stays on the line of its move
        elif index == 0:
            tokens.append(f"{position.move_number}... {move}")
        else:
            tokens.append(str(move))
        position = position.play(move)
    tokens.append(result_token(record.result))
    return pgn_like_text(headers, tokens, record.result)


_TAG = re.compile(r'^\[(\w+)\s+"((?:[^"\\]|\\.)*)"\]\s*$')


def parse_minit_move_list(text: str) -> tuple[dict[str, str], MinitPosition, list[Move]]:
    """Read what :func:`minit_move_list` writes: (tags, starting position, moves); ``ValueError`` if it is wrong.

    Every move is checked against the position it is played in.

    >>> tags, start, moves = parse_minit_move_list('[Position "1 W kqbnr ppppp ..... ..... PPPPP RNBQK"]\\n\\n'
    ...                                            '1. b1-c3 e5-e4 *')
    >>> [str(move) for move in moves]
    ['b1-c3', 'e5-e4']
    """
    tags: dict[str, str] = {}
    moves_text = []
    for line in text.splitlines():
        match = _TAG.match(line.strip())
        if match:
            tags[match.group(1)] = unescape_tag(match.group(2))
        else:
            moves_text.append(line)
    start = parse_position_text(tags.get("Position", MinitPosition.start().text()))
    body = re.sub(r"\{[^}]*\}", " ", " ".join(moves_text))
    position = start
    moves: list[Move] = []
    for token in body.split():
        if re.fullmatch(r"\d+\.(\.\.)?", token) or token in ("*", "1-0", "0-1", "1/2-1/2"):
            continue
        token = re.sub(r"^\d+\.(\.\.)?", "", token)
        try:
            move = position.parse_move(token)
        except ValueError as error:
            raise ValueError(f"move {len(moves) + 1}: {error}") from None
        moves.append(move)
        position = position.play(move)
    return tags, start, moves
