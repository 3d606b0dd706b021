from multiprocessing.resource_tracker import main as _tracker  # noqa: F401 - see below: this line must come first
# Checks, run inside a frozen bundle, of what `sightline --check` does not reach:
#
#     dist/sightline/sightline -I -B -S -c "$(cat packaging/frozen_check.py)"
#
# - a bot game played through app.hosting.worker.BotProcess: each bot in its own worker process, started from a
#   fork server (spawn on Windows) by re-running the bundle's executable, exactly as the game window does;
# - the files the app reads beside its modules (rules, icon) and, when the bundle has it, cairosvg's PNG export
#   (it loads the system's libcairo at run time);
# - the compiled inference kernels (numba, llvmlite's LLVM): compiled on the first run, loaded from numba's cache
#   (the user's cache folder, sightline_numba_cache.py) on later ones, and one expansion checked;
# - the inference of a finished game (numpy and its libraries).
# Prints "OK ..." and exits 0, or says what failed and exits 1.
#
# How it gets in: a frozen app has no `python -c`, but PyInstaller's multiprocessing hook (run by
# multiprocessing.freeze_support() at the start of app.cli.main) executes `-c` code that follows the
# interpreter's flags (-I -B -S in a bundle) and starts like multiprocessing's own helpers, as the first line
# above does. exec() runs it inside a function, so everything lives in _check().
def _check():
    import os
    import sys
    from pathlib import Path

    import app
    from app.bots.base import ActionRequest
    from app.hosting.worker import BotProcess, _context
    from app.engine.clock import TimeControl
    from app.engine.record import GameSession, PlayerInfo
    from app.engine.variants import game_type

    here = Path(app.__file__).resolve().parent
    for needed in (here / "assets" / "icon.svg", here.parent / "docs" / "rules" / "rbc.md",
                   here.parent / "docs" / "window.md"):
        if not needed.is_file():
            sys.exit(f"FAILED: {needed} is not in the bundle")

    method = _context().get_start_method()
    game = game_type("rbc")()
    specs = ["random", "attacker"]
    bots = [BotProcess(spec, "rbc", seat, game.options(), specs[1 - seat], seat) for seat, spec in enumerate(specs)]
    session = GameSession(game, TimeControl(None, 0.0), [PlayerInfo(s, "bot", s) for s in specs], 0)
    delivered = [0, 0]
    workers = sorted(bot.pid for bot in bots)
    try:
        while not game.is_over:
            seat = game.to_move
            log = game.observations(seat)
            bots[seat].observe(list(log[delivered[seat]:]))
            delivered[seat] = len(log)
            bots[seat].request(ActionRequest(seat, game.phase, game.choices(), session.seconds_left(seat)))
            event = bots[seat].wait(60.0)
            if event is None or event.kind != "action":
                sys.exit(f"FAILED: the {specs[seat]} bot's worker answered {event}")
            session.play(seat, event.action)
    finally:
        for bot in bots:
            bot.kill()
    if os.getpid() in workers:
        sys.exit("FAILED: the bots ran in the host process")

    png = "not in the bundle"
    try:
        import cairosvg
    except ImportError:
        pass
    else:
        data = cairosvg.svg2png(bytestring=(here / "assets" / "icon.svg").read_bytes(), output_width=32)
        if not data.startswith(b"\x89PNG"):
            sys.exit("FAILED: cairosvg did not render a PNG")
        png = f"{len(data)} bytes"
    # The compiled kernels, before anything else uses them, so that the time is that of compiling or loading them.
    import time

    import chess
    import numpy as np

    from app.engine import inference_jit, inference_vec
    from app.engine.inference_core import PASS_ALWAYS, compiled, opponent_key
    started = time.perf_counter()
    kernels = compiled()
    if kernels is None:
        sys.exit("FAILED: compiled inference kernels: " + str(inference_jit.WHY_NOT))
    seconds = time.perf_counter() - started
    dispatchers = [value for value in vars(kernels).values() if hasattr(value, "stats")]
    hits = sum(sum(dispatcher.stats.cache_hits.values()) for dispatcher in dispatchers)
    misses = sum(sum(dispatcher.stats.cache_misses.values()) for dispatcher in dispatchers)
    # One expansion (White's first move, as in inference_jit's docstring), against the numpy kernels' result.
    start = np.array([opponent_key(chess.Board(), chess.WHITE)], dtype=np.uint64).T.copy()
    expansion = (start, np.ones(1), chess.BB_RANK_7 | chess.BB_RANK_8, chess.WHITE, None, 0, PASS_ALWAYS)
    rows, weights, made = kernels.expand(*expansion)
    want_rows, want_weights, want_made = inference_vec.expand(*expansion)
    if rows.shape[1] < 2 or made != want_made or not (np.array_equal(rows, want_rows)
                                                        and np.array_equal(weights, want_weights)):
        sys.exit(f"FAILED: compiled inference kernels: {rows.shape[1]} positions ({made} made) after White's first "
                 f"move, the numpy kernels {want_rows.shape[1]} ({want_made} made)")
    cache = getattr(getattr(dispatchers[0], "_cache", None), "_cache_path", "?") if dispatchers else "?"
    jit = (f"{'loaded' if hits and not misses else 'compiled'} in {seconds:.1f} s ({hits} from the cache, "
           f"{misses} compiled, cache {cache})")

    # The inference runs on numpy arrays: its compiled modules and libraries must be in the bundle too.
    from app.inference_jobs import WINDOW_OPTIONS, summarize
    summary = summarize("check", "rbc", 0, list(game.observations(0)), WINDOW_OPTIONS)
    if summary.problem or summary.count < 1:
        sys.exit(f"FAILED: inference in the bundle: {summary.problem or 'no position'}")
    print(f"OK bots: {method} workers {workers} (host {os.getpid()}), {len(session.record.entries)} plies, "
          f"{game.outcome.reason.value}; cairosvg PNG: {png}; kernels: {jit}; inference: {summary.count_text()}")


_check()
