"""The ``sightline`` command: the app, headless matches, and record conversion."""

from __future__ import annotations

import argparse
import sys
from typing import Sequence

from app.engine.clock import TimeControl


def _match(args: argparse.Namespace) -> int:
    from app.bots.agents import BotError
    from app.match import ProgressBar, format_table, run_match
    if args.games < 1 or args.jobs < 1:
        print("sightline match: --games and --jobs must be at least 1", file=sys.stderr)
        return 2
    try:
        control = TimeControl(None, 0.0) if args.untimed else TimeControl.parse(args.time)
    except ValueError as error:
        print(f"sightline match: {error}", file=sys.stderr)
        return 2
    options = {}
    if args.variant == "rbc":
        options["draw_rule"] = args.draw_rule
    max_plies = args.max_plies
    if max_plies is None and args.variant == "blind":
        max_plies = 1000  # Blind Chess has no automatic draw: keep bot matches finite
    if max_plies is not None and max_plies < 1:
        max_plies = None
    try:
        result = run_match(args.variant, args.white, args.black, games=args.games, seed=args.seed,
                           control=control, options=options, swap_colors=args.swap_colors, jobs=args.jobs,
                           out_dir=args.out, progress=None if args.quiet else ProgressBar(),
                           max_plies=max_plies)
    except (BotError, ValueError) as error:
        print(f"sightline match: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"sightline match: cannot write the records: {error.strerror or error} ({error.filename})",
              file=sys.stderr)
        return 1
    print(format_table(result))
    if args.out:
        print(f"records written to {args.out}")
    return 0


def _export(args: argparse.Namespace) -> int:
    from app.engine.record import RecordError, load_record
    from app.interop.reconchess_history import export_reconchess
    try:
        replayed = load_record(args.record)
        if replayed.record.variant != "rbc":
            raise RecordError(f"only RBC games export to reconchess (this is {replayed.record.variant})")
        export_reconchess(replayed.record, args.out)
    except RecordError as error:
        print(f"sightline export: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"sightline export: cannot write {args.out}: {error.strerror or error}", file=sys.stderr)
        return 1
    print(f"wrote {args.out}")
    return 0


def _import(args: argparse.Namespace) -> int:
    from app.engine.record import RecordError
    from app.interop.reconchess_history import history_to_record
    try:
        record = history_to_record(args.history)
        record.save(args.out)
    except RecordError as error:
        print(f"sightline import: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"sightline import: cannot write {args.out}: {error.strerror or error}", file=sys.stderr)
        return 1
    print(f"wrote {args.out}")
    return 0


def _app(args: argparse.Namespace) -> int:
    try:
        from app.ui.main_window import run_app
    except ImportError as error:  # Qt or its system libraries are missing: say what, do not crash
        print(f"sightline: cannot start the window: {error}", file=sys.stderr)
        print("sightline: scripts/dev.sh run installs what the window needs", file=sys.stderr)
        return 1
    return int(run_app(check=args.check))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="sightline", description="Hidden-information chess.")
    parser.add_argument("--check", action="store_true", help="render one frame offscreen, print OK and exit")
    commands = parser.add_subparsers(dest="command")

    match = commands.add_parser("match", help="play bots against each other without a window")
    match.add_argument("--variant", default="rbc", choices=["rbc", "blind", "minit"],
                       help="the game: rbc, blind or minit (default rbc)")
    match.add_argument("--white", required=True, help="bot for White: a built-in name (random, attacker, "
                       "sightline:NAME[:LEVEL]) or a reconchess player (path/to/bot.py, module, module:Class)")
    match.add_argument("--black", required=True, help="bot for Black (as --white)")
    match.add_argument("--games", type=int, default=1, help="number of games (default 1)")
    match.add_argument("--seed", type=int, default=0, help="random seed of the match (default 0)")
    clock = match.add_mutually_exclusive_group()
    clock.add_argument("--time", default="900+5", help="time control: seconds+increment (default 900+5)")
    clock.add_argument("--untimed", action="store_true", help="no clocks")
    match.add_argument("--draw-rule", default="50-move", choices=["none", "50-move"],
                       help="RBC automatic draws (default 50-move)")
    match.add_argument("--swap-colors", action="store_true", help="alternate colours between games")
    match.add_argument("--jobs", type=int, default=1, help="games played at once (default 1)")
    match.add_argument("--out", help="directory for one record per game")
    match.add_argument("--max-plies", type=int, default=None,
                       help="draw a game still going after this many turns (default: none; 1000 for blind; 0: none)")
    match.add_argument("--quiet", action="store_true", help="no progress bar")
    match.set_defaults(func=_match)

    export = commands.add_parser("export", help="convert a record to another format")
    export.add_argument("--format", default="reconchess", choices=["reconchess"])
    export.add_argument("record", help="a Sightline record (.json)")
    export.add_argument("out", help="the file to write")
    export.set_defaults(func=_export)

    imp = commands.add_parser("import", help="convert a reconchess GameHistory JSON into a record")
    imp.add_argument("history", help="a reconchess GameHistory file")
    imp.add_argument("out", help="the record to write")
    imp.set_defaults(func=_import)

    perft = commands.add_parser("perft", help="count move sequences (a self-check of the move generators)")
    perft.add_argument("--variant", default="chess", choices=["chess", "rbc", "minit"])
    perft.add_argument("--depth", type=int, default=3)
    perft.add_argument("--position", help="a FEN (chess, rbc) or a MinitChess position "
                       "(e.g. \"1 W kqbnr ppppp ..... ..... PPPPP RNBQK\")")
    perft.set_defaults(func=_perft)
    return parser


def _perft(args: argparse.Namespace) -> int:
    import time
    from app.engine.perft import perft
    if args.depth < 1:
        print("sightline perft: --depth must be at least 1", file=sys.stderr)
        return 2
    start = time.perf_counter()
    try:
        counts = perft(args.variant, args.depth, args.position)
    except ValueError as error:
        print(f"sightline perft: {error}", file=sys.stderr)
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
    args = build_parser().parse_args(argv)
    func = getattr(args, "func", None)
    if func is None:
        return _app(args)
    return int(func(args))


if __name__ == "__main__":
    sys.exit(main())
