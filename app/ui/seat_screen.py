"""What one seat may see, as one value, and the one way the window's widgets are given it.

Privacy behind the hot-seat curtain is kept by construction, not by a list of widgets to clear: everything
private to a seat (its board scene, log, move list, clocks, commands, typing hint, view) travels in a
:class:`SeatScreen`, and every widget that shows any of it registers one function with the window's
:class:`PrivateSurfaces`. When the screen changes hands the window shows :meth:`SeatScreen.nobody`'s screen
through the very same functions, so a widget fed from a seat's screen is emptied because it is fed, never
because someone remembered to list it. A new panel or hand widget that registers cannot stay showing the
last seat's secrets; one that reads a seat's view any other way is caught by the whole-window pixel test.

No Qt here: the surfaces are plain callables (the window's own methods).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from app.engine.core import Seat
    from app.games.presenter import Command
    from app.games.scene import BoardScene

ClockLine = tuple[str, str, bool]
"""(seat name, time shown, running low)."""


@dataclass(frozen=True)
class SeatScreen:
    """Everything of one seat the window may put in sight now; ``seat`` None is nobody's (behind the curtain).

    ``view`` is the seat's view (a view that knows nothing for nobody), for panels that draw from it (the belief
    board). ``status`` is the line under the clocks: the seat's prompt, or, for nobody, only who is to play.
    """

    seat: Seat | None
    scene: BoardScene
    view: Any
    status: str = ""
    log: tuple[str, ...] = ()
    moves: tuple[str, ...] = ()
    clocks: tuple[ClockLine, ...] = ()
    commands: tuple[Command, ...] = ()
    entry_hint: str = ""
    looking_at: int | None = None
    """The line of ``moves`` whose moment the screen shows (the seat looking back); None: the present."""

    @classmethod
    def nobody(cls, scene: BoardScene, view: Any, status: str = "", commands: tuple[Command, ...] = (),
               entry_hint: str = "") -> "SeatScreen":
        """The screen of nobody: an empty board of the game's size, a view that knows nothing, no log, no moves,
        no clocks; only public words (who is to play) and the game's commands as nobody has them (disabled)."""
        return cls(None, scene, view, status, (), (), (), commands, entry_hint)


@dataclass
class PrivateSurfaces:
    """The widgets that show what a seat knows, each as one function given every :class:`SeatScreen` the window
    shows (the seat's own, or nobody's behind the curtain), in the order they were added."""

    _surfaces: list[tuple[str, Callable[[SeatScreen], None]]] = field(default_factory=list)
    shown: SeatScreen | None = None
    """The screen shown last (None before the first)."""

    def add(self, name: str, show: Callable[[SeatScreen], None]) -> None:
        """Feed ``show`` every screen from now on; it is given the one shown last at once, so a panel made while
        the curtain is up starts empty and one made for a seat starts with that seat's screen. A name is added
        once (adding it again replaces its function)."""
        self._surfaces = [(known, function) for known, function in self._surfaces if known != name]
        self._surfaces.append((name, show))
        if self.shown is not None:
            show(self.shown)

    def names(self) -> list[str]:
        """The surfaces fed, in order."""
        return [name for name, _show in self._surfaces]

    def show(self, screen: SeatScreen) -> None:
        """Give ``screen`` to every surface: the only path by which a seat's knowledge reaches a widget."""
        self.shown = screen
        for _name, show in self._surfaces:
            show(screen)
