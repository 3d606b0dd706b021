"""Seats played by programs: built-in bots and players written for other programs.

An :class:`Agent` is what the game runner talks to. :class:`BotAgent` wraps a
built-in :class:`~app.bots.base.Bot`; a game whose definition names
``foreign_players`` (a :class:`ForeignPlayers`) also hosts players written for
another program: RBC hosts reconchess players
(:class:`~app.games.rbc.players.ReconchessAgent`).

Bot specs (``--white``/``--black`` and the new-game dialog):

- ``belief``, ``random``, ``attacker`` ... or ``sightline:random``: a built-in bot of the game
  (``app.hosting.bot_registry``; the names of each game are listed in ``docs/bots.md``);
  ``sightline:NAME:LEVEL`` picks a level (easy, medium or hard; medium by default);
- ``path/to/bot.py``, ``package.module`` or ``package.module:Class``: a player of
  the game's ``foreign_players`` (RBC: a reconchess player, loaded like
  reconchess's ``load_player``); games without them have only built-in bots.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Callable

from app import games
from app.bots.base import Bot
from app.bots.contract import Agent, BotAgent, BotError, ForeignPlayers, error_text
from app.hosting.bot_registry import builtin_bots


@dataclass(frozen=True)
class BotSpec:
    """A parsed bot name; :meth:`create` makes a fresh agent for one game."""

    text: str
    variant: str

    @property
    def builtin(self) -> tuple[str, str] | None:
        """(name, level) for a built-in bot, else None."""
        text = self.text
        if text.startswith("sightline:"):
            parts = text.split(":")[1:]
            name, level = parts[0], (parts[1] if len(parts) > 1 else "medium")
            return name, level
        if not text.isidentifier():
            return None  # a path, a dotted module or module:Class; asking the registry would import every bot
        if text in builtin_bots(self.variant):
            return text, "medium"
        return None

    @property
    def outside(self) -> bool:
        """True for a reconchess player from a file or module (not Sightline's own code): a match runs it
        in a process of its own."""
        return self.builtin is None

    @property
    def display_name(self) -> str:
        builtin = self.builtin
        if builtin:
            return builtin[0] if builtin[1] == "medium" else f"{builtin[0]}:{builtin[1]}"
        return self.text

    def bot_class(self) -> tuple[Callable[..., Any], str | None]:
        """The class this spec names and, for a built-in bot, its level (raises BotError). Creates nothing."""
        builtin = self.builtin
        if builtin is not None:
            name, level = builtin
            bots = builtin_bots(self.variant)
            if name not in bots:
                raise BotError(self._not_builtin(name, bots))
            if level not in ("easy", "medium", "hard"):
                raise BotError(f"unknown level {level!r} (easy, medium or hard)")
            return bots[name], level
        foreign = self._foreign()
        if foreign is None or (not os.path.exists(self.text) and self._elsewhere(self.text)):
            raise BotError(self._not_builtin(self.text, builtin_bots(self.variant)))
        return foreign.load(self.text), None

    def _foreign(self) -> ForeignPlayers | None:
        """The game's hosts for players written for another program (None: it has only built-in bots)."""
        try:
            found = games.get(self.variant).foreign_players
        except KeyError:
            return None
        return None if found is None else found()

    def _elsewhere(self, name: str) -> list[str]:
        """The other games that have a built-in bot called ``name``."""
        if not name.isidentifier():
            return []
        return [variant for variant in games.names() if variant != self.variant and name in builtin_bots(variant)]

    def _not_builtin(self, name: str, bots: dict[str, Any]) -> str:
        titles = {definition.key: definition.title for definition in games.all()}
        title = titles.get(self.variant, self.variant)
        choices = f"{title} bots: {', '.join(bots)}" if bots else f"{title} has no built-in bots"
        others = self._elsewhere(name)
        if others:
            named = " and ".join(titles.get(variant, variant) for variant in others)
            return f"{name!r} is not a built-in {self.variant} bot: it is a {named} bot ({choices})"
        if self._foreign() is None:
            return f"{name!r} is not a built-in {self.variant} bot ({choices})"
        return f"no built-in {self.variant} bot {name!r} ({choices})"

    def check(self) -> None:
        """Report a bad spec before a match starts (raises BotError). Loads the bot's class, creates nothing:
        a player that starts an engine in its constructor must not leave one running here."""
        self.bot_class()

    def create(self, seed: int | None) -> Agent:
        cls, level = self.bot_class()
        if level is not None:
            return BotAgent(cls(seed=seed, level=level), self.display_name)
        try:
            player = cls()
        except Exception as error:
            raise BotError(f"{cls.__name__}() failed: {error_text(error)}") from error
        foreign = self._foreign()
        assert foreign is not None  # bot_class gave no level only to a spec the game's foreign players loaded
        return foreign.host(player, cls.__name__)
