"""The ``sightline`` command: the app, headless matches, and record conversion."""

from __future__ import annotations

import argparse
import ctypes
import importlib.util
import os
import sys
import time
from pathlib import Path
from typing import Any, NoReturn, Sequence

from app import games
from app.engine.clock import TimeControl
from app.games.definition import OptionSpec

MESSAGE_LIMIT = 400
"""Characters of one message at most: a message quotes what it was given, and that may be a whole file."""


def _clip(text: str, limit: int = MESSAGE_LIMIT) -> str:
    text = " ".join(text.split())  # one line, whatever was pasted into an argument
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _say(command: str, message: str) -> None:
    print(_clip(f"{command}: {message}"), file=sys.stderr)


def _whole_number(text: str) -> int:
    """argparse ``type`` for integers, with a short message of our own (not Python's int() wording)."""
    stripped = text.strip()
    digits = stripped[1:] if stripped[:1] in "+-" else stripped
    if not digits.isascii() or not digits.isdigit():
        raise argparse.ArgumentTypeError(f"{_clip(text, 40)!r} is not a whole number")
    if len(digits) > 18:
        raise argparse.ArgumentTypeError(f"{_clip(text, 40)!r} is far too large")
    return int(stripped)


def _seconds(text: str) -> float:
    """argparse ``type`` for a positive number of seconds, at most a day (a limit, not a clock)."""
    try:
        value = float(text.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"{_clip(text, 40)!r} is not a number of seconds") from None
    if not 0 < value <= 86400:
        raise argparse.ArgumentTypeError(f"{_clip(text, 40)!r} must be more than 0 and at most 86400 seconds")
    return value


class _Parser(argparse.ArgumentParser):
    """argparse with its error messages cut to a readable length (they quote what was typed)."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(2, _clip(f"{self.prog}: error: {message}") + "\n")


_VALUE_OPTIONS = ("--time",)
"""Options whose values may start with a minus sign: ``--time -5+1`` must reach our own check, not argparse's
"expected one argument"."""


def _join_values(argv: Sequence[str]) -> list[str]:
    joined: list[str] = []
    items = list(argv)
    index = 0
    while index < len(items):
        item = items[index]
        if item in _VALUE_OPTIONS and index + 1 < len(items) and items[index + 1].startswith("-") \
                and items[index + 1] != "--":
            joined.append(f"{item}={items[index + 1]}")
            index += 2
            continue
        joined.append(item)
        index += 1
    return joined


def seat_bots(variant: str, white: str | None, black: str | None, seats: Sequence[str]) -> tuple[str, ...]:
    """The bot of each seat of ``variant``, in seat order, from ``--seat NAME=BOT`` values and the ``--white``
    and ``--black`` shorthands (for the seats called White and Black); ValueError says what is wrong.

    >>> seat_bots(games.default().key, "attacker", None, ["black=random"])
    ('attacker', 'random')
    """
    definition = games.get(variant)
    seat_names = definition.seat_names
    given: dict[int, tuple[str, str]] = {}  # seat -> (bot, the option that gave it)
    wanted = [(name, bot, f"--{name.lower()}") for name, bot in (("White", white), ("Black", black)) if bot is not None]
    for text in seats:
        name, equals, bot = text.partition("=")
        if not equals or not name.strip() or not bot.strip():
            raise ValueError(f"--seat takes NAME=BOT (e.g. --seat {seat_names[0]}=random), not {_clip(text, 40)!r}")
        wanted.append((name.strip(), bot.strip(), f"--seat {_clip(text, 40)}"))
    for name, bot, option in wanted:
        seat = next((index for index, seat_name in enumerate(seat_names)
                     if seat_name.casefold() == name.casefold()), None)
        if seat is None:
            raise ValueError(f"{definition.title} has no seat {_clip(name, 40)!r} "
                             f"(its seats: {', '.join(seat_names)})")
        if seat in given:
            raise ValueError(f"{seat_names[seat]} is given twice ({given[seat][1]} and {option})")
        given[seat] = (bot, option)
    missing = [name for seat, name in enumerate(seat_names) if seat not in given]
    if missing:
        raise ValueError(f"no bot for {' and '.join(missing)}: give --seat NAME=BOT for every seat of "
                         f"{definition.title} ({', '.join(seat_names)})")
    return tuple(given[seat][0] for seat in range(len(seat_names)))


def match_options(variant: str, given: Sequence[str], draw_rule: str | None = None) -> dict[str, str]:
    """The options of a match of ``variant`` from ``--option KEY=VALUE`` values (and ``--draw-rule``, the older
    spelling of ``--option draw_rule=RULE``), checked against the game's options and by its referee;
    ValueError says what is wrong.

    >>> match_options(games.default().key, ["draw_rule=none"])
    {'draw_rule': 'none'}
    """
    definition = games.get(variant)
    pairs = [("draw_rule", draw_rule, f"--draw-rule {_clip(draw_rule, 40)}")] if draw_rule is not None else []
    for text in given:
        key, equals, value = text.partition("=")
        if not equals or not key.strip():
            keys = ", ".join(option.key for option in definition.options) or "none"
            raise ValueError(f"--option takes KEY=VALUE (the keys of {definition.title}: {keys}), "
                             f"not {_clip(text, 40)!r}")
        pairs.append((key.strip(), value, f"--option {_clip(text, 40)}"))
    options: dict[str, str] = {}
    given_by: dict[str, str] = {}
    for key, value, where in pairs:
        checked = definition.checked_options({key: value})
        if key in given_by:
            raise ValueError(f"the option {key} is given twice ({given_by[key]} and {where})")
        options.update(checked)
        given_by[key] = where
    try:  # what only the referee knows (a starting position it cannot read, say)
        definition.referee().from_options(options)
    except ValueError as error:
        raise ValueError(f"{definition.title}: {_clip(str(error), 200)}") from None
    return options


def _option_help() -> str:
    """The ``--option`` help: each game's option keys, with the values a key may take."""
    def shown(option: OptionSpec) -> str:
        return f"{option.key} ({', '.join(option.choices)})" if option.choices else option.key
    per_game = "; ".join(f"{definition.title}: {', '.join(shown(option) for option in definition.options)}"
                         for definition in games.all() if definition.options)
    return f"a game option, once for each (the game's default where not given). {per_game}"


def _max_plies_help() -> str:
    """The ``--max-plies`` help, with the games that stop their bot matches by default."""
    limits = [f"{definition.match_defaults['max_plies']} for {definition.title}" for definition in games.all()
              if definition.match_defaults.get("max_plies")]
    return f"draw a game still going after this many turns (default: none{''.join('; ' + limit for limit in limits)}" \
           f"; 0: none)"


def _match(args: argparse.Namespace) -> int:
    # Each command imports its own code when it runs (0.1 to 0.3 s each): --help and the others stay quick
    from app.bots.contract import BotError
    from app.hosting.match import MatchError, MatchInterrupted, ProgressBar, format_table, run_match  # (as above)
    if args.games < 1 or args.jobs < 1:
        _say("sightline match", "--games and --jobs must be at least 1")
        return 2
    try:
        bots = seat_bots(args.variant, args.white, args.black, args.seat or [])
    except ValueError as error:
        _say("sightline match", str(error))
        return 2
    try:
        control = TimeControl(None, 0.0) if args.untimed else TimeControl.parse(args.time)
    except ValueError as error:
        _say("sightline match", str(error))
        return 2
    definition = games.get(args.variant)
    try:
        options = match_options(args.variant, args.option or [], draw_rule=args.draw_rule)
    except ValueError as error:
        _say("sightline match", str(error))
        return 2
    max_plies = args.max_plies if args.max_plies is not None else definition.match_defaults.get("max_plies")
    if max_plies is not None and max_plies < 1:
        max_plies = None
    try:
        play: Any = run_match
        where: dict[str, Any] = {"jobs": args.jobs}
        if args.scheduler:  # the same match on a Dask cluster
            from app.hosting.cluster import run_on_cluster
            play, where = run_on_cluster, {"scheduler": args.scheduler}
        result = play(args.variant, seats=bots, games=args.games, seed=args.seed, deal_seed=args.deal_seed,
                      control=control, options=options, swap_colors=args.swap_colors, out_dir=args.out,
                      progress=None if args.quiet else ProgressBar(), max_plies=max_plies, **where,
                      **({} if args.move_limit is None else {"move_limit": args.move_limit}))
    except MatchInterrupted as stopped:  # Ctrl+C: the games finished so far, and their records, stay
        print(format_table(stopped.result))
        _say("sightline match", f"stopped after {len(stopped.result.games)} of {args.games} games"
                                + (f"; their records are in {args.out}" if args.out else ""))
        return 130
    except (BotError, ValueError) as error:
        _say("sightline match", str(error))
        return 2
    except MatchError as error:  # no process could be started to play in (out of memory or processes)
        _say("sightline match", str(error))
        return 1
    except OSError as error:
        _say("sightline match", f"cannot write the records: {error.strerror or 'the system refused'} "
                                f"({error.filename})")
        return 1
    print(format_table(result))
    if args.out:
        print(f"records written to {args.out}")
    return 0


_IMAGE_SUFFIXES = {".svg": "svg", ".png": "png"}


def _suffix_formats(variant: str | None = None) -> dict[str, str]:
    """File name ending -> the export format it means: the formats of the game ``variant`` first (Telepathy's
    ``.pgn`` is its own PGN), then the other games' (the first game to use an ending keeps it), then images."""
    found: dict[str, str] = {}
    own = games.get(variant).formats if variant in games.names() else ()
    for fmt in (*own, *games.formats()):
        found.setdefault(fmt.suffix, fmt.name)
    return found | _IMAGE_SUFFIXES


def _text_formats() -> tuple[str, ...]:
    """The export formats that can go to standard output."""
    return tuple(fmt.name for fmt in games.formats() if fmt.text)


def _format_help() -> str:
    """The ``--format`` help: which extension means which format, and which games write which."""
    endings = ", ".join(f"{suffix}: {name}" for suffix, name in _suffix_formats().items())
    per_game = "; ".join(f"{definition.title}: {', '.join(fmt.name for fmt in definition.formats)}"
                         for definition in games.all() if definition.formats)
    return (f"default: from OUT's extension ({endings}), else {_FALLBACK_FORMAT}. Formats per game: {per_game}; "
            f"svg and png for every game")


_FALLBACK_FORMAT = "reconchess"
"""The format of an output without a known extension: the only one before the others existed."""


def _export(args: argparse.Namespace) -> int:
    from app.engine.record import RecordError, read_record  # deferred like _match's imports: see there
    from app.exports import FORMATS, export_record, export_text, parse_perspective  # (as above)

    def fail(message: str, code: int = 1) -> int:
        _say("sightline export", message)
        return code

    if args.out is not None and args.output is not None and args.out != args.output:
        return fail("give the output file once (OUT or -o OUT)", 2)
    out = args.output if args.output is not None else args.out
    fmt = args.format
    if fmt is None:  # by the output's extension, as the record's game reads it
        variant = None
        try:
            variant = read_record(args.record).variant
        except (RecordError, OSError):
            pass  # reported below, where the record is read again
        fmt = _suffix_formats(variant).get(Path(out).suffix.lower(), _FALLBACK_FORMAT) if out else _FALLBACK_FORMAT
    if fmt not in FORMATS:
        return fail(f"unknown format {fmt!r} (choose from {', '.join(FORMATS)})", 2)
    if out is None and fmt not in _text_formats():
        return fail(f"the {fmt} format needs an output file (-o OUT)", 2)
    if args.ply is not None and args.step is not None:
        return fail("give --ply or --step, not both", 2)
    try:
        record = read_record(args.record)
        perspective = parse_perspective(record, args.perspective)
        if out is None:  # a text format to standard output
            sys.stdout.write(export_text(record, fmt))
            return 0
        export_record(record, fmt, out, step=args.step, ply=args.ply, perspective=perspective, size=args.size,
                      source=args.record)
    except (RecordError, ValueError) as error:
        return fail(str(error))
    except OSError as error:
        return fail(f"cannot write {out}: {error.strerror or 'the system refused'}")
    print(f"wrote {out}")
    return 0


def _import(args: argparse.Namespace) -> int:
    from app.engine.record import RecordError  # deferred like _match's imports: see there
    from app.exports import check_export_target  # (as above)
    readers = games.imports()
    if args.format not in readers:
        _say("sightline import", f"no game reads {args.format!r} files (formats: {', '.join(readers) or 'none'})")
        return 2
    try:
        record = readers[args.format].reader()(args.history)
        check_export_target(args.out, source=args.history)  # never over the history it was made from
        record.save(args.out)
    except RecordError as error:
        _say("sightline import", str(error))
        return 1
    except OSError as error:
        _say("sightline import", f"cannot write {args.out}: {error.strerror or 'the system refused'}")
        return 1
    print(f"wrote {args.out}")
    return 0


# The system libraries Qt's X11 platform plugin (xcb) loads beyond Qt's own, with the Debian/Ubuntu packages
# that hold them (found with ldd on PySide6's plugins/platforms/libqxcb.so and its libQt6XcbQpa).
XCB_LIBRARIES = {
    "libxcb.so.1": "libxcb1", "libxcb-cursor.so.0": "libxcb-cursor0", "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-image.so.0": "libxcb-image0", "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-randr.so.0": "libxcb-randr0", "libxcb-render.so.0": "libxcb-render0",
    "libxcb-render-util.so.0": "libxcb-render-util0", "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-shm.so.0": "libxcb-shm0", "libxcb-sync.so.1": "libxcb-sync1", "libxcb-util.so.1": "libxcb-util1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0", "libxcb-xkb.so.1": "libxcb-xkb1", "libX11-xcb.so.1": "libx11-xcb1",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0", "libxkbcommon.so.0": "libxkbcommon0",
}


def _missing_libraries(names: Sequence[str]) -> list[str]:
    missing = []
    for name in names:
        try:
            ctypes.CDLL(name)
        except OSError:
            missing.append(name)
    return missing


def _xcb_plugin_error() -> str | None:
    """The system loader's words if Qt's X11 plugin cannot be loaded; None if it loads or cannot be found.

    Loading the plugin itself finds its libraries where Qt will (an installed bundle carries some of its own),
    so a library that is present only there is not reported missing.
    """
    spec = importlib.util.find_spec("PySide6")
    if spec is None or spec.origin is None:
        return None
    plugin = Path(spec.origin).parent / "Qt" / "plugins" / "platforms" / "libqxcb.so"
    if not plugin.is_file():
        return None
    try:
        ctypes.CDLL(str(plugin))
    except OSError as error:
        return str(error)
    return None


def window_problem(environ: "os._Environ[str] | dict[str, str]", platform: str = sys.platform) -> str | None:
    """Why Qt could not open a window here, in words (None when nothing is known to be wrong).

    Without this, Qt aborts the process (status 134) with a message that names the wrong library or none. Only
    Linux's X11 and Wayland are checked; an explicit non-window platform (``QT_QPA_PLATFORM=offscreen``, used
    by ``--check`` in packaging tests and CI) needs neither a display nor the X libraries.
    """
    if not platform.startswith("linux"):
        return None
    chosen = environ.get("QT_QPA_PLATFORM", "").split(";")[0].split(":")[0].strip().lower()
    if chosen not in ("", "xcb", "wayland", "wayland-egl"):
        return None
    x11, wayland = environ.get("DISPLAY", ""), environ.get("WAYLAND_DISPLAY", "")
    if (chosen == "xcb" and not x11) or (chosen.startswith("wayland") and not wayland) or not (x11 or wayland):
        return ("there is no display to open a window on (DISPLAY and WAYLAND_DISPLAY are not set): run "
                "Sightline from a desktop session, or set QT_QPA_PLATFORM=offscreen for `sightline --check`")
    if chosen.startswith("wayland") or (not chosen and wayland and environ.get("XDG_SESSION_TYPE") == "wayland"):
        return None  # Qt uses Wayland here, not the X libraries
    loader_says = _xcb_plugin_error()
    if loader_says is None:
        return None
    missing = _missing_libraries(list(XCB_LIBRARIES))
    if missing:
        packages = " ".join(sorted({XCB_LIBRARIES[name] for name in missing}))
        return (f"Qt's X11 support needs system libraries that are missing ({', '.join(missing)}); "
                f"install them with: sudo apt-get install {packages} (or run scripts/dev.sh run)")
    return f"Qt's X11 support cannot be loaded: {_clip(loader_says, 200)}"


def _window_can_open(command: str) -> bool:
    problem = window_problem(os.environ)
    if problem is not None:
        print(f"{command}: cannot start the window: {problem}", file=sys.stderr)
        return False
    return True


def _app(args: argparse.Namespace) -> int:
    if not _window_can_open("sightline"):
        return 1
    try:
        # Qt only for the window: the other commands run without it (and without a display)
        from app.ui.main_window import run_app
    except ImportError as error:  # Qt or its system libraries are missing: say what, do not crash
        _say("sightline", f"cannot start the window: {error}")
        print("sightline: scripts/dev.sh run installs what the window needs", file=sys.stderr)
        return 1
    return int(run_app(check=args.check))


def _replay(args: argparse.Namespace) -> int:
    if not _window_can_open("sightline replay"):
        return 1
    try:
        # Qt only for the window: the other commands run without it (and without a display)
        from app.ui.replay_window import run_replay
    except ImportError as error:
        _say("sightline replay", f"cannot start the window: {error}")
        return 1
    return run_replay(args.record)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="sightline", description="Hidden-information chess.")
    parser.add_argument("--check", action="store_true", help="render one frame offscreen, print OK and exit")
    commands = parser.add_subparsers(dest="command", parser_class=_Parser)

    names, default = games.names(), games.default().key
    match = commands.add_parser("match", help="play bots against each other without a window")
    match.add_argument("--variant", default=default, choices=list(names),
                       help=f"the game: {', '.join(names[:-1])} or {names[-1]} (default {default})")
    match.add_argument("--seat", action="append", metavar="NAME=BOT",
                       help="the bot for the seat NAME (any case), once for every seat of the game; BOT is a "
                            "built-in name (random, attacker, sightline:NAME[:LEVEL]) or a reconchess player "
                            "(path/to/bot.py, module, module:Class)")
    match.add_argument("--white", metavar="BOT", help="the same as --seat White=BOT")
    match.add_argument("--black", metavar="BOT", help="the same as --seat Black=BOT")
    match.add_argument("--games", type=_whole_number, default=1, help="number of games (default 1)")
    match.add_argument("--seed", type=_whole_number, default=0, help="random seed of the match (default 0)")
    match.add_argument("--deal-seed", type=_whole_number, default=None,
                       help="deal the games of a game of chance from this seed, so that the match deals the same "
                            "cards again (default: fresh deals; it is never given to a bot, unlike --seed)")
    clock = match.add_mutually_exclusive_group()
    clock.add_argument("--time", default="900+5", help="time control: seconds+increment (default 900+5)")
    clock.add_argument("--untimed", action="store_true", help="no clocks")
    match.add_argument("--option", action="append", metavar="KEY=VALUE", help=_option_help())
    match.add_argument("--draw-rule", default=None, metavar="RULE", help="the same as --option draw_rule=RULE")
    match.add_argument("--swap-colors", action="store_true",
                       help="alternate colours between games; with more than two seats, every bot moves one seat "
                            "on from one game to the next")
    match.add_argument("--jobs", type=_whole_number, default=1, help="games played at once (default 1)")
    match.add_argument("--scheduler", default=None, metavar="ADDRESS",
                       help="play the games on a Dask cluster instead (needs sightline[cluster]): tcp://HOST:PORT "
                            "of its scheduler, or local:N for N local workers; --jobs is then ignored")
    match.add_argument("--out", help="directory for one record per game")
    match.add_argument("--max-plies", type=_whole_number, default=None, help=_max_plies_help())
    match.add_argument("--move-limit", type=_seconds, default=None, metavar="SECONDS",
                       help="in an untimed match, the longest a bot may take over one call before it loses "
                            "(default 300)")
    match.add_argument("--quiet", action="store_true", help="no progress bar")
    match.set_defaults(func=_match)

    export = commands.add_parser(
        "export", help="convert a record to another format",
        description="Write a record in one of its game's formats ("
                    + "; ".join(f"{game.title}: {', '.join(fmt.name for fmt in game.formats)}"
                                for game in games.all() if game.formats)
                    + "), or as a board image (SVG, PNG) of any step as the truth or as one seat saw it. While a "
                    "game of hidden information is unfinished, only a seat's own view exports.")
    export.add_argument("--format", default=None, choices=[*games.format_names(), *_IMAGE_SUFFIXES.values()],
                        help=_format_help())
    export.add_argument("record", help="a Sightline record (.json)")
    export.add_argument("out", nargs="?", help="the file to write (or use -o)")
    export.add_argument("-o", "--output", help=f"the file to write; {' and '.join(_text_formats())} go to standard "
                                               "output without it")
    export.add_argument("--ply", type=_whole_number, help="images: the position after this many turns (default: the end)")
    export.add_argument("--step", type=_whole_number, help="images: the position after this many recorded actions")
    export.add_argument("--perspective", default="truth", help="images: truth (default), white or black")
    export.add_argument("--size", type=_whole_number, default=480, help="images: width in pixels (default 480)")
    export.set_defaults(func=_export)

    readers = games.imports()
    imp = commands.add_parser("import", help="convert another program's game file into a record")
    imp.add_argument("history", help="the other program's file: " + "; ".join(
        f"{name}: {fmt.label}" for name, fmt in readers.items()))
    imp.add_argument("out", help="the record to write")
    imp.add_argument("--format", choices=list(readers), default=next(iter(readers), None),
                     help=f"what the file is (default: {next(iter(readers), 'none')})")
    imp.set_defaults(func=_import)

    replay = commands.add_parser("replay", help="open the replay viewer on a finished game")
    replay.add_argument("record", help="a Sightline game record (.json)")
    replay.set_defaults(func=_replay)
    perft = commands.add_parser("perft", help="count move sequences (a self-check of the move generators)")
    perft.add_argument("--variant", default="chess",
                       choices=["chess", *(game.perft_name for game in games.all() if game.perft)])
    perft.add_argument("--depth", type=_whole_number, default=3, help="count sequences up to this length "
                       "(1 to 20, default 3)")
    perft.add_argument("--position", help="a starting position in the game's own notation (a FEN for the "
                       "8x8 chess games; see each game's rules page for the others)")
    perft.set_defaults(func=_perft)
    _add_solve_command(commands)
    _add_network_commands(commands)
    return parser


def _add_solve_command(commands: "argparse._SubParsersAction[_Parser]") -> None:
    """``solve``: the best score of a numbered solitaire deal (the games with a ``deal`` option)."""
    numbered = _numbered_deal_games()
    solve = commands.add_parser("solve", help="the best score of a solitaire's deal, knowing every card",
                                description="Search a numbered deal of a solitaire knowing every card: the best "
                                            "score and a line of play that reaches it, said to be proven best "
                                            "only when the search ran to its end within the time given.")
    solve.add_argument("--variant", default=numbered[0] if numbered else None, choices=numbered,
                       help=f"the solitaire: {', '.join(numbered)}")
    solve.add_argument("--deal", required=True, help="the deal number (1 to 1000000)")
    solve.add_argument("--time", type=_seconds, default=10.0, metavar="SECONDS",
                       help="stop searching after this long (default 10)")
    solve.add_argument("--out", help="write the line found as a record, to step through with sightline replay")
    solve.add_argument("--quiet", action="store_true", help="no progress lines")
    solve.set_defaults(func=_solve)


def _numbered_deal_games() -> list[str]:
    """The games whose deals are numbered (their definition takes a ``deal`` option): the solitaires."""
    return [game.key for game in games.all() if any(option.key == "deal" for option in game.options)]


def _solve(args: argparse.Namespace) -> int:
    from app.games.presenter import presenter_for  # deferred: see _match's imports
    name = "sightline solve"
    door = getattr(presenter_for(args.variant), "solitaire", None) if args.variant else None
    if door is None:
        _say(name, f"{args.variant} has no solver")
        return 2
    last = [0.0]

    def progress(state: object) -> None:
        seconds = getattr(state, "seconds", 0.0)
        if not args.quiet and seconds - last[0] >= 1.0:
            last[0] = seconds
            best = getattr(state, "best", None)
            print(f"  {seconds:4.0f} s: {getattr(state, 'nodes', 0)} positions searched, best score so far "
                  f"{'none' if best is None else best}", file=sys.stderr, flush=True)
    try:
        solution, record = door.solve({door.deal_option: args.deal}, args.time, progress)
    except ValueError as error:
        _say(name, str(error))
        return 2
    title = games.get(args.variant).title
    print(f"{title}, deal {args.deal.strip()}: {solution.words()} ({solution.nodes} positions, "
          f"{solution.seconds:.1f} s)")
    if record is not None:
        print("Line: " + " ".join(door.action_words(action) for action in solution.line))
        if args.out:
            try:
                record.save(args.out)
            except OSError as error:
                _say(name, f"cannot write {args.out}: {error.strerror or error}")
                return 1
            print(f"Wrote {args.out} (sightline replay {args.out} steps through it)")
    return 0


def _add_network_commands(commands: "argparse._SubParsersAction[_Parser]") -> None:
    """``serve`` and ``join``: network play without a window (docs/network.md)."""
    names, default = games.names(), games.default().key
    serve = commands.add_parser("serve", help="host a game for players on other computers (no window)")
    serve.add_argument("--port", type=_whole_number, default=0, help="the TCP port (default: any free one)")
    serve.add_argument("--host", default="127.0.0.1",
                       help="the address to listen on (default 127.0.0.1, this computer only; 0.0.0.0: every "
                            "network)")
    serve.add_argument("--address", default=None, help="the address the invitations name (default: --host, or "
                                                       "this computer's address on its network)")
    serve.add_argument("--variant", default=default, choices=list(names), help=f"the game (default {default})")
    serve.add_argument("--seat", action="append", metavar="NAME=WHO",
                       help="who plays the seat NAME: remote (a guest joins with an invitation) or a built-in bot; "
                            "once for every seat")
    serve.add_argument("--white", metavar="WHO", help="the same as --seat White=WHO")
    serve.add_argument("--black", metavar="WHO", help="the same as --seat Black=WHO")
    clock = serve.add_mutually_exclusive_group()
    clock.add_argument("--time", default="900+5", help="time control: seconds+increment (default 900+5)")
    clock.add_argument("--untimed", action="store_true", help="no clocks")
    serve.add_argument("--option", action="append", metavar="KEY=VALUE", help="a game option, as for match")
    serve.add_argument("--seed", type=_whole_number, default=None, help="seed of the host's bots")
    serve.add_argument("--reconnect-limit", type=_seconds, default=60.0, metavar="SECONDS",
                       help="how long a guest that dropped may take to come back (default 60)")
    serve.add_argument("--abandon", choices=("claim", "abort"), default="claim",
                       help="a guest that does not come back loses the game (claim, default) or the game is "
                            "aborted (abort)")
    serve.add_argument("--move-limit", type=_seconds, default=None, metavar="SECONDS",
                       help="in an untimed game, the longest a seat may take over one turn")
    serve.add_argument("--max-plies", type=_whole_number, default=None, help="draw a game still going after "
                                                                             "this many turns")
    serve.add_argument("--out", help="directory for the game's record")
    serve.add_argument("--state", default=None, metavar="DIR",
                       help="keep the certificate and the game's autosave in DIR; if DIR holds an unfinished game "
                            "(the server crashed), carry it on instead of starting a new one")
    serve.add_argument("--announce", action="store_true", help="announce the game on the local network")
    serve.set_defaults(func=_serve)

    join = commands.add_parser("join", help="play a seat of a hosted game with a built-in bot (no window)")
    join.add_argument("invitation", help="the invitation the host gave (sightline://...)")
    join.add_argument("--bot", required=True, help="the built-in bot that plays the seat")
    join.add_argument("--name", default=None, help="the name the host records (default: the bot's)")
    join.add_argument("--token-file", default=None, metavar="FILE",
                      help="keep the seat token in FILE; run the same command again to come back to the seat")
    join.add_argument("--seed", type=_whole_number, default=None, help="seed of the bot")
    join.add_argument("--reconnect-limit", type=_seconds, default=60.0, metavar="SECONDS",
                      help="how long to keep trying after the connection drops (default 60)")
    join.set_defaults(func=_join)


def _serve(args: argparse.Namespace) -> int:
    from app.net.commands import serve_game  # deferred like _match's imports: see there
    try:
        who = seat_bots(args.variant, args.white, args.black, args.seat or [])
        control = TimeControl(None, 0.0) if args.untimed else TimeControl.parse(args.time)
        options = match_options(args.variant, args.option or [])
    except ValueError as error:
        _say("sightline serve", str(error))
        return 2
    seats = [None if bot.casefold() == "remote" else bot for bot in who]
    return serve_game(args.variant, seats, host=args.host, port=args.port, address=args.address, options=options,
                      control=control, seed=args.seed, reconnect_limit=args.reconnect_limit,
                      on_abandon=args.abandon, out_dir=args.out,
                      max_plies=args.max_plies if args.max_plies else None, move_limit=args.move_limit,
                      announce=args.announce, state_dir=args.state)


def _join(args: argparse.Namespace) -> int:
    from app.net.commands import join_game  # deferred like _match's imports: see there
    return join_game(args.invitation, args.bot, name=args.name, token_file=args.token_file, seed=args.seed,
                     reconnect_limit=args.reconnect_limit)


def _perft(args: argparse.Namespace) -> int:
    from app.engine.perft import MAX_DEPTH, perft  # deferred like _match's imports: see there
    if not 1 <= args.depth <= MAX_DEPTH:
        _say("sightline perft", f"--depth must be from 1 to {MAX_DEPTH}")
        return 2
    start = time.perf_counter()
    try:
        counts = perft(args.variant, args.depth, args.position)
    except ValueError as error:
        _say("sightline perft", str(error))
        return 2
    for depth, count in enumerate(counts, start=1):
        print(f"depth {depth}: {count}")
    print(f"{sum(counts)} move sequences in {time.perf_counter() - start:.2f} s")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    # A frozen (PyInstaller) build starts bot workers by re-running this executable; freeze_support lets those
    # children run the worker instead of a second app. It does nothing outside a frozen build.
    import multiprocessing
    multiprocessing.freeze_support()
    args = build_parser().parse_args(_join_values(sys.argv[1:] if argv is None else argv))
    func = getattr(args, "func", None)
    if func is None:
        return _app(args)
    return int(func(args))


if __name__ == "__main__":
    sys.exit(main())
