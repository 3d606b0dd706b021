"""What a game is, as plain data: the record of facts the rest of the app asks a game for.

A :class:`GameDefinition` holds strings, numbers and :class:`Lazy` references only, so that
reading every game's definition costs nothing more than the standard library: the referee,
its views, bots and python-chess are imported the first time someone calls the matching
:class:`Lazy`, never when the definitions are read.

>>> definition = GameDefinition(
...     key="demo", title="Demo Game", description="Two seats and nothing else.",
...     seats=(SeatSpec("North"), SeatSpec("South", team=1)),
...     referee=Lazy("collections:OrderedDict"), view=Lazy("collections:Counter"))
>>> definition.seat_names
('North', 'South')
>>> definition.referee()
<class 'collections.OrderedDict'>
"""

from __future__ import annotations

import importlib
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["ClipboardFormat", "ExportFormat", "GameDefinition", "Lazy", "OptionSpec", "SeatSpec"]


class Lazy:
    """A reference ``"package.module:attribute"`` imported on its first call, then remembered.

    >>> ordered = Lazy("collections:OrderedDict")
    >>> ordered
    Lazy('collections:OrderedDict')
    >>> ordered() is ordered()
    True
    >>> Lazy("os.path:join.__name__")()  # dots after the colon walk attributes
    'join'
    >>> Lazy("collections")
    Traceback (most recent call last):
    ...
    ValueError: a lazy reference is 'module:attribute', not 'collections'
    """

    __slots__ = ("path", "_value", "_resolved")

    def __init__(self, path: str) -> None:
        module, colon, attribute = path.partition(":")
        if not colon or not module or not attribute:
            raise ValueError(f"a lazy reference is 'module:attribute', not {path!r}")
        self.path = path
        self._value: Any = None
        self._resolved = False

    @property
    def module(self) -> str:
        """The module the reference lives in (what has to be imported to resolve it)."""
        return self.path.partition(":")[0]

    def __call__(self) -> Any:
        if not self._resolved:
            module, _, attribute = self.path.partition(":")
            value: Any = importlib.import_module(module)
            for name in attribute.split("."):
                value = getattr(value, name)
            self._value, self._resolved = value, True
        return self._value

    def __repr__(self) -> str:
        return f"Lazy({self.path!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Lazy) and other.path == self.path

    def __hash__(self) -> int:
        return hash(self.path)


class _Plain:
    """Read-only records compared by value. Written out by hand rather than as dataclasses: the registry is
    read while the window starts, and generating dataclass methods would cost it a few milliseconds."""

    __slots__: tuple[str, ...] = ()

    def _fill(self, **values: Any) -> None:
        for name, value in values.items():
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only")

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and isinstance(other, _Plain) and other._values() == self._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{type(self).__name__}({fields})"


class SeatSpec(_Plain):
    """One seat at the table: its name as shown and recorded, the team it plays for, and whether the window
    shows it the board turned half round (its side at the bottom, as Black sees a chessboard).

    >>> SeatSpec("White")
    SeatSpec(name='White', team=0, flipped=False)
    >>> SeatSpec("White") == SeatSpec("White", team=0)
    True
    """

    __slots__ = ("name", "team", "flipped")
    name: str
    team: int
    flipped: bool

    def __init__(self, name: str, team: int = 0, flipped: bool = False) -> None:
        self._fill(name=name, team=team, flipped=flipped)


class OptionSpec(_Plain):
    """An option a new game of this kind takes (the key is the one the referee's ``from_options`` reads).

    ``choices`` are the values it may take (empty for free text), each shown in the new-game dialog with the
    word of ``choice_labels`` at the same place (the value itself where there is none). ``default`` is what a
    game gets when the option is not given (the referee's own default). ``help`` says what it does, in a
    sentence for a tooltip or ``--help``. ``hidden`` options are set by the program (a starting position from
    pasted text, say), never offered in the new-game dialog; ``sightline match --option`` takes them too.

    >>> rule = OptionSpec("draw_rule", "Draw rule", choices=("50-move", "none"), default="50-move")
    >>> rule.default in rule.choices
    True
    >>> rule.label_of("none"), rule.checked(" none ")
    ('none', 'none')
    >>> rule.checked("never")
    Traceback (most recent call last):
    ...
    ValueError: 'never' is not a choice (choose 50-move or none)
    >>> rule.default = "none"
    Traceback (most recent call last):
    ...
    AttributeError: OptionSpec is read-only
    """

    __slots__ = ("key", "label", "choices", "default", "hidden", "choice_labels", "help")
    key: str
    label: str
    choices: tuple[str, ...]
    default: str | None
    hidden: bool
    choice_labels: tuple[str, ...]
    help: str

    def __init__(self, key: str, label: str, choices: tuple[str, ...] = (), default: str | None = None,
                 hidden: bool = False, choice_labels: tuple[str, ...] = (), help: str = "") -> None:  # noqa: A002
        if choice_labels and len(choice_labels) != len(choices):
            raise ValueError(f"option {key!r}: one label for each choice, or none")
        self._fill(key=key, label=label, choices=choices, default=default, hidden=hidden,
                   choice_labels=choice_labels, help=help)

    def label_of(self, choice: str) -> str:
        """The words the new-game dialog shows for ``choice`` (one of :attr:`choices`)."""
        return self.choice_labels[self.choices.index(choice)] if self.choice_labels else choice

    def checked(self, value: str) -> str:
        """``value`` (spaces around it dropped) if this option may take it; else ValueError saying what it may."""
        value = value.strip()
        if self.choices and value not in self.choices:
            shown = value if len(value) <= 40 else value[:37] + "..."
            allowed = self.choices[0] if len(self.choices) == 1 else \
                f"{', '.join(self.choices[:-1])} or {self.choices[-1]}"
            raise ValueError(f"{shown!r} is not a choice (choose {allowed})")
        if not self.choices and not value:
            raise ValueError("no value given")
        return value


class ExportFormat(_Plain):
    """A file format a finished (or, for a seat's own view, unfinished) game can be written as.

    ``name`` is what ``sightline export --format`` takes; games that write the same format list it under the
    same name (each with its own writer). ``label`` is what the window's Export menu says, with ``&`` before
    the menu's access key. ``suffix`` is the file name's ending. ``writer`` is the function that writes a
    record of the game as the file's text (``writer(record) -> str``); it raises ``RecordError`` for a record
    of a game it does not write. ``text`` formats can also go to standard output; ``shows_truth`` formats give
    away what a seat did not see, so they are refused while a game of hidden information goes on.

    >>> pgn = ExportFormat("pgn", "Moves as &PGN", ".pgn", Lazy("app.games.chess_pgn:pgn_text"), text=True)
    >>> pgn.writer.module, pgn.shows_truth, pgn.plain_label
    ('app.games.chess_pgn', True, 'Moves as PGN')
    """

    __slots__ = ("name", "label", "suffix", "writer", "text", "shows_truth")
    name: str
    label: str
    suffix: str
    writer: Lazy
    text: bool
    shows_truth: bool

    def __init__(self, name: str, label: str, suffix: str, writer: Lazy, text: bool = False,
                 shows_truth: bool = True) -> None:
        self._fill(name=name, label=label, suffix=suffix, writer=writer, text=text, shows_truth=shows_truth)

    @property
    def plain_label(self) -> str:
        """The label without its access-key mark, for sentences."""
        return self.label.replace("&", "")


class ImportFormat(_Plain):
    """A file of another program that ``sightline import --format NAME`` turns into a record of the game.

    ``reader`` is the function that reads such a file (``reader(path) -> GameRecord``, raising ``RecordError``
    with what is wrong); ``label`` says what the file is, for the command's help.

    >>> fmt = ImportFormat("demo", "a demo file", Lazy("builtins:str"))
    >>> fmt.name, fmt.reader.module
    ('demo', 'builtins')
    """

    __slots__ = ("name", "label", "reader")
    name: str
    label: str
    reader: Lazy

    def __init__(self, name: str, label: str, reader: Lazy) -> None:
        self._fill(name=name, label=label, reader=reader)


class ClipboardFormat(_Plain):
    """How a game's position goes to the clipboard as text, and a new game starts from pasted text.

    ``copy(game) -> str`` is given the game in play (only a game that hides nothing offers it: the text is the
    true position); ``paste(text) -> options`` reads pasted text into the options of a new game of this kind,
    raising ``ValueError`` with what is wrong. ``copy_label`` and ``paste_label`` are what the window's menus
    say (``&`` before the access key); ``what`` names the thing copied in the window's sentences.

    >>> clip = ClipboardFormat("&Copy position", "New game from the &pasted position",
    ...                        Lazy("builtins:str"), Lazy("builtins:dict"))
    >>> clip.what, clip.copy()(42)
    ('position', '42')
    """

    __slots__ = ("copy_label", "paste_label", "copy", "paste", "what")
    copy_label: str
    paste_label: str
    copy: Lazy
    paste: Lazy
    what: str

    def __init__(self, copy_label: str, paste_label: str, copy: Lazy, paste: Lazy, what: str = "position") -> None:
        self._fill(copy_label=copy_label, paste_label=paste_label, copy=copy, paste=paste, what=what)


class GameDefinition(_Plain):
    """Everything the app needs to know about one game, by its ``key`` (the ``variant`` of its records).

    ``board`` is (files, ranks), or None for a game without a board. ``bots`` lists (name, class) with
    the strongest first, as the new-game dialog offers them. ``inference`` is the belief inference of a
    game of hidden information (None when the seats see everything). ``belief`` is the game's part of the
    belief board kit (a :class:`~app.engine.belief.BeliefKit`), or None: a person gets the kit only where
    there is one. ``match_defaults`` are settings of ``sightline match`` this game changes.
    ``foreign_players`` hosts players written for another program (a
    :class:`~app.bots.contract.ForeignPlayers`; RBC: reconchess players; None: only built-in bots play).
    ``perft`` is the game's move counter for ``sightline perft`` (``perft(depth, position) -> counts``; None:
    it has none), and ``perft_name`` the name ``--variant`` knows it by (the key unless the counter is for the
    board's chess rules rather than the game: Split-Brain counts Los Alamos chess moves). ``preload`` names
    modules a bot worker's fork server imports ahead of time for this game. ``rules_doc`` is the file name of the rules
    in the documentation's rules folder. ``formats`` are the files a record of the game exports to, in the
    order the window's Export menu offers them; ``imports`` the files of other programs ``sightline import``
    turns into records of the game; ``clipboard`` says how a position is copied and pasted as text
    (None: it is not). ``presenter`` is the game's
    :class:`~app.games.presenter.Presenter` (what the window draws and how a person acts), imported when a game
    of this kind is first shown. ``variant_of`` names another game this one is a form of (its solitaire, say),
    and ``variant_label`` what that game's form choice calls it: the new-game dialog lists such a definition not
    as a game but as a choice of the game it is a form of (empty: a game of its own). ``bot_words`` says, in a
    player's words, what each bot is like to play at each level (measured strength where there is a measure);
    a bot whose level changes nothing has one entry, under ``""``. The new-game dialog shows them.
    """

    __slots__ = ("key", "title", "description", "seats", "referee", "view", "board", "hidden_information",
                 "options", "match_defaults", "rules_doc", "bots", "inference", "belief", "formats", "imports",
                 "clipboard", "perft", "perft_name", "preload", "presenter", "foreign_players", "variant_of",
                 "variant_label", "bot_words")
    key: str
    title: str
    description: str
    seats: tuple[SeatSpec, ...]
    referee: Lazy
    view: Lazy
    board: tuple[int, int] | None
    hidden_information: bool
    options: tuple[OptionSpec, ...]
    match_defaults: Mapping[str, Any]
    rules_doc: str
    bots: tuple[tuple[str, Lazy], ...]
    inference: Lazy | None
    belief: Lazy | None
    formats: tuple[ExportFormat, ...]
    imports: tuple[ImportFormat, ...]
    clipboard: ClipboardFormat | None
    perft: Lazy | None
    perft_name: str
    preload: tuple[str, ...]
    presenter: Lazy | None
    foreign_players: Lazy | None
    variant_of: str
    variant_label: str
    bot_words: Mapping[str, Mapping[str, str]]

    def __init__(self, *, key: str, title: str, description: str, seats: tuple[SeatSpec, ...], referee: Lazy,
                 view: Lazy, board: tuple[int, int] | None = (8, 8), hidden_information: bool = False,
                 options: tuple[OptionSpec, ...] = (), match_defaults: Mapping[str, Any] | None = None,
                 rules_doc: str = "", bots: tuple[tuple[str, Lazy], ...] = (), inference: Lazy | None = None,
                 belief: Lazy | None = None, formats: tuple[ExportFormat, ...] = (),
                 imports: tuple[ImportFormat, ...] = (), clipboard: ClipboardFormat | None = None,
                 perft: Lazy | None = None,
                 perft_name: str = "", preload: tuple[str, ...] = (), presenter: Lazy | None = None,
                 foreign_players: Lazy | None = None, variant_of: str = "", variant_label: str = "",
                 bot_words: Mapping[str, Mapping[str, str]] | None = None) -> None:
        self._fill(key=key, title=title, description=description, seats=seats, referee=referee, view=view,
                   board=board, hidden_information=hidden_information, options=options,
                   match_defaults=MappingProxyType(dict(match_defaults or {})), rules_doc=rules_doc, bots=bots,
                   inference=inference, belief=belief, formats=formats, imports=imports, clipboard=clipboard,
                   perft=perft,
                   perft_name=perft_name or key, preload=preload, presenter=presenter,
                   foreign_players=foreign_players, variant_of=variant_of, variant_label=variant_label,
                   bot_words=MappingProxyType({bot: MappingProxyType(dict(words))
                                               for bot, words in (bot_words or {}).items()}))

    def __hash__(self) -> int:
        return hash(self.key)

    @property
    def seat_names(self) -> tuple[str, ...]:
        """The seats' names, in seat order (the referee's ``seat_names``)."""
        return tuple(seat.name for seat in self.seats)

    @property
    def seat_teams(self) -> tuple[int, ...]:
        """Each seat's team, in seat order (the referee's ``seat_teams``)."""
        return tuple(seat.team for seat in self.seats)

    @property
    def offered_options(self) -> tuple[OptionSpec, ...]:
        """The options a person chooses in the new-game dialog (the ones not set by the program)."""
        return tuple(option for option in self.options if not option.hidden)

    def checked_options(self, given: Mapping[str, str]) -> dict[str, str]:
        """``given`` options (key -> value as typed) checked against :attr:`options`: ValueError says which key
        this game does not take, or which value an option does not.

        >>> demo = GameDefinition(key="demo", title="Demo", description="", seats=(SeatSpec("Solo"),),
        ...                       referee=Lazy("builtins:dict"), view=Lazy("builtins:dict"),
        ...                       options=(OptionSpec("speed", "Speed", choices=("slow", "fast")),))
        >>> demo.checked_options({"speed": "fast"})
        {'speed': 'fast'}
        >>> demo.checked_options({"colour": "red"})
        Traceback (most recent call last):
        ...
        ValueError: Demo takes no option 'colour' (its options: speed)
        """
        by_key = {option.key: option for option in self.options}
        checked = {}
        for key, value in given.items():
            option = by_key.get(key.strip())
            if option is None:
                shown = key if len(key) <= 40 else key[:37] + "..."
                known = ", ".join(by_key) or "none"
                raise ValueError(f"{self.title} takes no option {shown!r} (its options: {known})")
            try:
                checked[option.key] = option.checked(value)
            except ValueError as error:
                raise ValueError(f"{self.title} option {option.key}: {error}") from None
        return checked

    def words_for(self, bot: str, level: str) -> str:
        """What playing ``bot`` at ``level`` is like, in a player's words ("" when the game does not say).

        >>> from app import games
        >>> games.get("minit").words_for("random", "hard") == games.get("minit").words_for("random", "easy")
        True
        """
        words = self.bot_words.get(bot, {})
        return words.get(level) or words.get("", "")

    def bot_has_levels(self, bot: str) -> bool:
        """Whether ``bot``'s level changes how it plays (True for a bot the game says nothing about)."""
        words = self.bot_words.get(bot)
        return words is None or any(level for level in words)

    def bot_classes(self) -> dict[str, Any]:
        """Name -> bot class, strongest first (imports the bots' modules)."""
        return {name: bot() for name, bot in self.bots}

    def lazies(self) -> list[Lazy]:
        """Every :class:`Lazy` this definition holds (a test resolves them all)."""
        found = [self.referee, self.view, *(bot for _, bot in self.bots), *(fmt.writer for fmt in self.formats),
                 *(fmt.reader for fmt in self.imports)]
        optional = [lazy for lazy in (self.inference, self.belief, self.presenter, self.perft, self.foreign_players)
                    if lazy is not None]
        clipboard = [self.clipboard.copy, self.clipboard.paste] if self.clipboard is not None else []
        return found + optional + clipboard
