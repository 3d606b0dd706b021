"""Split-Brain Chess's export: the moves as PGN-like text, each with the partners' picks and how a pair that was no
move was settled, in a comment before it.

Only what every seat is shown goes in (picks are shown once both partners have picked), so the text may be
written while the game goes on: a pick not yet revealed is never in it.

>>> from app.games.splitbrain.rules import Decided, Moved, Revealed
>>> seen = [Revealed(0, 1, 14, True, "N", 0, 1), Moved(0, "b1c3", "as picked", "", "N"),
...         Revealed(1, 30, 23, False, "p", 2, 3), Decided(0, "piece"), Moved(1, "a5a4", "by piece", "", "p")]
>>> " ".join(move_tokens(seen))
'1. {W1 b1, W2 c3} Nb1-c3 {B1 a6, B2 f4: no move; W1 chose the piece} a5-a4'
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any, Iterable

from app import games
from app.engine.record import RecordError, Timeline
from app.games.chess_kit import pgn_headers, pgn_like_text, result_token
from app.games.splitbrain.losalamos import square_name
from app.games.splitbrain.rules import SEATS, TEAM_NAMES, TEAMS, Asked, Decided, Moved, Revealed
from app.games.team_draw import DrawDeclined, DrawOffered, describe_draw

if TYPE_CHECKING:
    from app.engine.record import GameRecord

__all__ = ["move_list_text", "move_tokens"]


def move_list_text(record: GameRecord) -> str:
    """A Split-Brain game as PGN-like tags, then its moves with the picks in comments."""
    if record.variant != "splitbrain":
        raise RecordError(f"the Split-Brain move list is for Split-Brain games, not {record.variant}")
    timeline = Timeline(record)
    game: Any = timeline.game
    headers = pgn_headers(record, games.get(record.variant).title)
    names = [player.name or "?" for player in record.players] + ["?"] * 4
    headers["White"], headers["Black"] = f"{names[0]} & {names[1]}", f"{names[2]} & {names[3]}"
    if game.start_fen:
        headers["FEN"] = game.start_fen
    tokens = move_tokens(game.observations(0))
    tokens.append(result_token(_two_sided(record)))
    return pgn_like_text(headers, tokens, record.result)


def _two_sided(record: GameRecord) -> Any:
    """The result as PGN writes it: a team's win is White's (1-0) or Black's (0-1)."""
    outcome = record.result
    if outcome is None or outcome.team is None:
        return outcome
    return replace(outcome, winner=outcome.team)


def move_tokens(observations: Iterable[Any]) -> list[str]:
    """Move numbers, moves and comments from the public observations of a game (never a seat's own pick)."""
    tokens: list[str] = []
    comment: list[str] = []
    number = 0
    for o in observations:
        if isinstance(o, Revealed):
            text = f"{SEATS[o.chooser]} {square_name(o.piece)}, {SEATS[o.mover]} {square_name(o.square)}"
            comment = [text + ("" if o.legal else ": no move")]
        elif isinstance(o, Decided):
            comment.append(f"{SEATS[o.seat]} chose the {o.choice}")
        elif isinstance(o, Asked) and o.phase == "tie":
            comment.append(f"{SEATS[o.seat]} settled a tie")
        elif isinstance(o, (DrawOffered, DrawDeclined)):  # told to everyone (a proposal inside a team never is)
            tokens.append("{" + str(describe_draw(o, -1, SEATS, TEAM_NAMES, TEAMS)).rstrip(".") + "}")
        elif isinstance(o, Moved):
            if o.team == 0:
                number += 1
                tokens.append(f"{number}.")
            elif not tokens:
                number += 1
                tokens.append(f"{number}...")
            if comment:
                tokens.append("{" + "; ".join(comment) + "}")
            letter = "" if o.letter.upper() == "P" else o.letter.upper()
            move = f"{letter}{o.move[:2]}{'x' if o.captured else '-'}{o.move[2:4]}"
            tokens.append(move + (f"={o.move[4].upper()}" if len(o.move) == 5 else ""))
            comment = []
    return tokens
