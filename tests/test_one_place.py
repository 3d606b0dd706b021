"""A game lives in one place: outside its own modules, the app should not say a game's name.

Today the rest of the app still branches on the names in many places; this test counts them so that the
number can only go down while the games move behind the registry (``app/games``).
"""

from __future__ import annotations

import re
from pathlib import Path

from app import games

ROOT = Path(__file__).resolve().parent.parent
APP = ROOT / "app"

GAMES = tuple(games.names())  # every registered game, so a new one's names are counted too

ALLOWED = {
    # the referees and their move generation
    "app/engine/rbc.py", "app/engine/blind.py", "app/engine/minit.py", "app/engine/rbc_moves.py",
    # the bots and belief inference written for one game
    "app/bots/rbc_belief.py", "app/bots/rbc_bots.py", "app/bots/blind_belief.py", "app/bots/blind_bots.py",
    "app/bots/minit_bots.py", "app/engine/inference_rbc.py", "app/engine/inference_blind.py",
}
"""Modules that belong to one game (besides each game's own package, ``app/games/<name>/``)."""

MAX_NAMED = 16  # lower it with every step that removes names (the test says when); issue 13 brings it to 0

_QUOTED = re.compile(r"""(["'])(%s)\1""" % "|".join(GAMES))


def _counted(path: Path) -> bool:
    relative = path.relative_to(ROOT).as_posix()
    own_package = any(relative.startswith(f"app/games/{game}/") for game in GAMES)
    return not own_package and relative not in ALLOWED


def named_places() -> dict[str, int]:
    """File -> how many times it quotes a game's name ("rbc", 'blind', ...), for every counted file of app/."""
    counts = {}
    for path in sorted(APP.rglob("*.py")):
        if _counted(path):
            found = len(_QUOTED.findall(path.read_text(encoding="utf-8")))
            if found:
                counts[path.relative_to(ROOT).as_posix()] = found
    return counts


def test_game_names_are_quoted_in_fewer_places_only() -> None:
    counts = named_places()
    total = sum(counts.values())
    listing = "\n".join(f"  {count:3d} {path}" for path, count in sorted(counts.items(), key=lambda item: -item[1]))
    assert total <= MAX_NAMED, f"{total} quoted game names outside the games' own modules (at most {MAX_NAMED}):\n" \
                               f"{listing}"
    # Equal, not only at most: a step that removes names lowers the constant, so that they cannot come back.
    assert total == MAX_NAMED, f"only {total} quoted game names are left: lower MAX_NAMED to {total}"


def test_the_registry_entries_name_the_games_without_quoting_them() -> None:
    registry = (APP / "games" / "__init__.py").read_text(encoding="utf-8")
    assert not _QUOTED.search(registry)
    for game in GAMES:
        assert (APP / "games" / game / "__init__.py").is_file()


def test_the_allow_list_names_existing_modules() -> None:
    assert all((ROOT / path).is_file() for path in ALLOWED)
