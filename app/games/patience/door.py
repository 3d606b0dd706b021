"""The door a solitaire opens to the window and to ``sightline solve``: an object its presenter holds as
``solitaire`` (``PRESENTER.solitaire``), found there without the window naming any game
(:mod:`app.ui.window_solitaire`, :mod:`app.cli`). Parade's is :class:`app.games.parade.solitaire.ParadeSolitaire`.

What the window and the command line ask of it is :class:`SolitaireDoor`; besides, the game's definition takes the
deal number as the option named ``deal_option`` (``sightline match --option deal=N``), the referee's ``options()``
always hold it (a record names its deal), and its outcome has a ``score`` when the game was won.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping, Protocol

from .solver import Progress, Solution

__all__ = ["SolitaireDoor"]


class SolitaireDoor(Protocol):
    """What a numbered-deal solitaire offers the window and ``sightline solve``."""

    deal_option: str
    """The option that numbers the deal (``"deal"``)."""

    def hint(self, view: Any, time_limit: float, should_stop: Callable[[], bool] | None = None) -> tuple[Any, str]:
        """The next action advised from the player's ``view`` alone (``None`` if none) and a sentence about it;
        run in a worker thread, within ``time_limit`` seconds."""

    def solve(self, options: Mapping[str, Any], time_limit: float | None,
              progress: Callable[[Progress], None] | None = None,
              should_stop: Callable[[], bool] | None = None) -> tuple[Solution[Any], Any]:
        """The deal of ``options`` solved knowing every card, and its line as a finished record (a
        :class:`~app.engine.record.GameRecord`, ``None`` without a win); ``ValueError`` with a sentence for a
        bad deal number."""

    def action_words(self, action: Any) -> str:
        """An action of a line in a few characters (``f3-g2``)."""
