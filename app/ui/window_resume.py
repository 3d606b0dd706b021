"""The offer, when Sightline starts, to continue the unfinished games that no running window holds (a crash may
have left several), and how each is described in it."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Callable, Protocol

from app.ui.disk_errors import os_error_text
from app.ui.window_autosave import mark_older_copies
from app.ui.window_common import bounded, game_title, short_name

if TYPE_CHECKING:
    from app.engine.record import GameRecord
    from app.storage import AutosaveSlot, UnfinishedGame

log = logging.getLogger("sightline.window")


class ResumeHost(Protocol):
    """The window's questions to the player that the offer uses (tests replace them)."""

    def _warn(self, title: str, text: str) -> None: ...

    def _pick_unfinished(self, games: list[UnfinishedGame]) -> UnfinishedGame | None: ...


def offer_unfinished(host: ResumeHost, resume: Callable[[GameRecord, AutosaveSlot], bool]) -> bool:
    """Offer every unfinished game that no running window holds; the chosen one goes to ``resume`` with its slot.
    True if a game was continued."""
    from app.storage import release_all, unfinished_games  # not before the first frame: it loads the records
    problems: list[str] = []
    try:
        games = unfinished_games(report=problems.append)
    except Exception as error:  # noqa: BLE001 - the start must go on to a new game whatever the disk holds
        log.exception("cannot look for unfinished games")
        text = os_error_text(error) if isinstance(error, OSError) else "see the log"
        problems.append(f"the autosaves could not be looked through ({text})")
        games = []
    if problems:
        host._warn("Autosave", "Some autosaves cannot be offered now (nothing was deleted):\n" + "\n".join(problems))
    if not games:
        return False
    games = mark_older_copies(games)
    chosen = host._pick_unfinished(games)
    release_all(games, keep=chosen.slot if chosen is not None else None)
    if chosen is None:
        return False
    if resume(chosen.record, chosen.slot):
        return True
    chosen.slot.release()  # kept for another try (a newer Sightline may continue it)
    return False


def describe_unfinished(game: UnfinishedGame) -> str:
    """The start-up offer's entry for ``game``, in short lines: which game and who; how far and when; what else
    is known of it (an older copy of a game saved elsewhere)."""
    record = game.record
    players = " against ".join(short_name(player.name) for player in record.players[:4])
    import datetime as _dt  # not before the first frame: only the offer to resume dates games (about 20 ms)
    saved = _dt.datetime.fromtimestamp(game.saved).strftime("%Y-%m-%d %H:%M") if game.saved else "an unknown time"
    actions = len(record.entries)
    lines = [f"{game_title(record.variant, 'A game')}: {players}",
             f"{actions} action{'' if actions == 1 else 's'} played, saved {saved}"]
    if game.note:
        note = bounded(game.note, 300)
        lines.append(note[:1].upper() + note[1:])
    return "\n".join(lines)
