"""Sightline's RBC ``belief`` bot against StrangeFish2 (or TroutBot), colours alternating, one game per line.

Run by hand, never in the test suite (a 90+2 game takes about five minutes):

    nice -n 10 .venv/bin/python benchmarks/strangefish.py --games 40 --time 90+2 --level hard \\
        --out /tmp/sf2-run [--opponent strangefish2|trout] [--jobs 1] [--first 0] [--seed 0] [--minutes M]
    .venv/bin/python benchmarks/strangefish.py --merge /tmp/sf2-run/games.jsonl [more.jsonl ...]

StrangeFish2 (github.com/ginoperrotta/reconchess-strangefish2, BSD 3-Clause, the winner of the NeurIPS 2022
RBC competition) is not a dependency of Sightline and never enters its virtual environment. Set it up once,
beside the project (the paths below are the defaults; ``--sf2-python``, ``--sf2-source`` and
``--stockfish`` change them):

    apt-get install -y stockfish                  # Debian's Stockfish 15.1, /usr/games/stockfish
    python3.10 -m venv /work/sf2venv              # 3.10: StrangeFish2 samples from a set, which 3.11 refuses
    /work/sf2venv/bin/pip install reconchess numpy tqdm click
    git clone https://github.com/ginoperrotta/reconchess-strangefish2 /work/sf2/reconchess-strangefish2

How a game is played. Each game runs in a forked process that referees it with ``app.hosting.runner.run_game``
(the function behind ``sightline match``: the same clocks, time losses and forfeits). Both sides are
:class:`~app.hosting.worker.ProcessAgent`\\ s, each in a process of its own: Sightline's bot as
``sightline:belief:LEVEL``; StrangeFish2 as this file's :class:`StrangeFish2Bridge`, a reconchess ``Player``
that Sightline hosts like any outside bot and that forwards every call, as one JSON line, to StrangeFish2
running in a child process under the other venv's Python (``--serve`` below), so its clock counts the
bridge too. TroutBot is reconchess's own (``reconchess.bots.trout_bot``), hosted the same way.

One thread each: StrangeFish2 asks Stockfish for 3 threads and 2 GB of hash; the bridge starts its Stockfish with
1 thread (``--sf2-hash`` MB, 512 by default) instead, and nothing else of StrangeFish2 is changed. It gets no
time on the opponent's turn: its ``while_we_wait`` is called only by its own server client, never by a local game
(reconchess's ``play_local_game`` does not call it either). Its debug logs are switched off (they only cost it
time); what it prints goes to ``strangefish2-NNNN.log`` in ``--out``. It runs without the opening book and the
score cache that its code can load (they are not in its repository). Each game starts a fresh StrangeFish2
process: its configuration objects are shared defaults that a game changes in place (its last-ditch plan).

Game ``i`` gives Sightline's bot White when ``i`` is even. Each game appends one JSON line to
``--out``/games.jsonl (the result for Sightline's bot, the reason, who crashed or ran out of time, the seconds
each side used, the turns, Sightline's seconds per turn) and saves its record beside it. The table lists
crashes, time-outs and aborted games apart from games decided on the board (a king taken or a draw by the
rules), and gives the score on those (a win 1, a draw 1/2) with Wilson's 95% interval (the score taken as a
proportion: slightly too wide when there are draws). The machine is usually busy: say so with the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
import traceback
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve()
ROOT = HERE.parent.parent

try:  # both venvs have reconchess: the bridge is a Player in Sightline's, the server runs in StrangeFish2's
    import chess
    from reconchess import Player
except ImportError:  # pragma: no cover - only --merge works without them
    chess = None  # type: ignore[assignment]
    Player = object  # type: ignore[assignment,misc]

DEFAULT_PYTHON = "/work/sf2venv/bin/python"
DEFAULT_SOURCE = "/work/sf2/reconchess-strangefish2"
DEFAULT_STOCKFISH = "/usr/games/stockfish"
BRIDGE = f"{HERE}:StrangeFish2Bridge"
OPPONENTS = {"strangefish2": (BRIDGE, "StrangeFish2"), "trout": ("reconchess.bots.trout_bot", "TroutBot")}
DECIDED = {"king_capture", "move_limit", "turn_limit", "insufficient_material", "no_moves", "draw_agreed"}
"""Endings on the board (or by the rules); everything else (time, forfeit, abort) is listed apart."""


# ---- the bridge: runs in Sightline's bot process, StrangeFish2 in a child under its own Python ---------------

class StrangeFish2Bridge(Player):  # type: ignore[misc,valid-type]
    """A reconchess player whose every decision is StrangeFish2's, made in a child process (see the module).

    Configured through the environment (the harness sets it): ``SF2_PYTHON``, ``SF2_SOURCE``,
    ``STOCKFISH_EXECUTABLE``, ``SF2_HASH``, ``SF2_LOG`` (a file for what StrangeFish2 prints) and ``SF2_SEED``.
    A failure of the child (it raised, died or answered nonsense) raises here: Sightline then records a forfeit
    by StrangeFish2 ("raised RuntimeError: StrangeFish2 ...").
    """

    def __init__(self) -> None:
        env = dict(os.environ, RC_DISABLE_PBAR="true", PYTHONUNBUFFERED="1")
        log_path = os.environ.get("SF2_LOG")
        self._log = open(log_path, "ab") if log_path else subprocess.DEVNULL
        self.child = subprocess.Popen(
            [os.environ.get("SF2_PYTHON", DEFAULT_PYTHON), "-X", "utf8", str(HERE), "--serve"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log, env=env, text=True, bufsize=1)

    def _call(self, call: str, **fields: Any) -> Any:
        assert self.child.stdin is not None and self.child.stdout is not None
        try:
            self.child.stdin.write(json.dumps({"call": call, **fields}) + "\n")
            self.child.stdin.flush()
            line = self.child.stdout.readline()
        except OSError as error:
            raise RuntimeError(f"StrangeFish2's process cannot be reached ({error})") from None
        if not line:
            raise RuntimeError(f"StrangeFish2's process ended in {call} (exit code {self.child.wait(5)})")
        reply = json.loads(line)
        if "error" in reply:
            raise RuntimeError(f"StrangeFish2 raised in {call}: {reply['error']}")
        return reply.get("value")

    def handle_game_start(self, color: Any, board: Any, opponent_name: str) -> None:
        self._call("start", color=bool(color), fen=board.fen(), opponent=opponent_name,
                   seed=int(os.environ.get("SF2_SEED", "0")))

    def handle_opponent_move_result(self, captured_my_piece: bool, capture_square: Any) -> None:
        self._call("opponent_move_result", captured=bool(captured_my_piece), square=capture_square)

    def choose_sense(self, sense_actions: Any, move_actions: Any, seconds_left: float) -> Any:
        return self._call("choose_sense", senses=[int(s) for s in sense_actions],
                          moves=[m.uci() for m in move_actions], seconds=seconds_left)

    def handle_sense_result(self, sense_result: Any) -> None:
        self._call("sense_result", window=[[square, None if piece is None else piece.symbol()]
                                           for square, piece in sense_result])

    def choose_move(self, move_actions: Any, seconds_left: float) -> Any:
        answer = self._call("choose_move", moves=[m.uci() for m in move_actions], seconds=seconds_left)
        return None if answer is None else chess.Move.from_uci(answer)

    def handle_move_result(self, requested_move: Any, taken_move: Any, captured_opponent_piece: bool,
                           capture_square: Any) -> None:
        self._call("move_result", requested=None if requested_move is None else requested_move.uci(),
                   taken=None if taken_move is None else taken_move.uci(),
                   captured=bool(captured_opponent_piece), square=capture_square)

    def handle_game_end(self, winner_color: Any, win_reason: Any, game_history: Any) -> None:
        try:
            self._call("end", winner=winner_color, reason=getattr(win_reason, "name", None))
        finally:
            try:
                if self.child.stdin is not None:
                    self.child.stdin.close()
                self.child.wait(5)
            except Exception:  # noqa: BLE001 - Sightline kills the whole process group anyway
                self.child.kill()


def serve(source: str) -> int:
    """The child: StrangeFish2 answering the bridge's JSON lines on stdin/stdout (run under its own Python)."""
    import logging
    import random
    protocol = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)  # what StrangeFish2 prints (its INFO log lines) goes to the log, never into the protocol
    # This file is called strangefish.py: its folder must not hide StrangeFish2's own package of that name.
    sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() not in (HERE.parent, ROOT)]
    sys.path.insert(0, source)
    os.environ.setdefault("RC_DISABLE_PBAR", "true")
    import chess as chess_module
    import chess.engine
    import numpy as np
    from reconchess import GameHistory, WinReason
    from strangefish.utilities import stockfish as sf_stockfish

    path = os.environ.get("STOCKFISH_EXECUTABLE", DEFAULT_STOCKFISH)
    hash_mb = int(os.environ.get("SF2_HASH", "512"))

    def one_thread_engine() -> Any:
        # StrangeFish2's create_engine() with Threads 1 (its own asks for 3) and a smaller hash; the engine stays
        # in this process group, so Sightline's kill of the bot stops it too.
        engine = chess.engine.SimpleEngine.popen_uci(path)
        engine.configure({"Hash": hash_mb, "Threads": 1})
        return engine
    sf_stockfish.create_engine = one_thread_engine
    from strangefish.strangefish_strategy import StrangeFish2

    player: Any = None
    for line in sys.stdin:
        message = json.loads(line)
        call = message["call"]
        value: Any = None
        try:
            if call == "start":
                random.seed(message["seed"])
                np.random.seed(message["seed"] % 2**32)
                player = StrangeFish2(log_to_file=False, game_id=f"sightline-{os.getpid()}")
                logging.getLogger("chess.engine").setLevel(logging.WARNING)  # its engine log: time only
                player.handle_game_start(message["color"], chess_module.Board(message["fen"]), message["opponent"])
            elif call == "opponent_move_result":
                player.handle_opponent_move_result(message["captured"], message["square"])
            elif call == "choose_sense":
                moves = [chess_module.Move.from_uci(m) for m in message["moves"]]
                answer = player.choose_sense(message["senses"], moves, message["seconds"])
                value = None if answer is None else int(answer)
            elif call == "sense_result":
                player.handle_sense_result([(square, None if symbol is None else chess_module.Piece.from_symbol(symbol))
                                            for square, symbol in message["window"]])
            elif call == "choose_move":
                moves = [chess_module.Move.from_uci(m) for m in message["moves"]]
                answer = player.choose_move(moves, message["seconds"])
                value = None if answer is None else answer.uci()
            elif call == "move_result":
                def move(text: str | None) -> Any:
                    return None if text is None else chess_module.Move.from_uci(text)
                player.handle_move_result(move(message["requested"]), move(message["taken"]), message["captured"],
                                          message["square"])
            elif call == "end":
                reason = WinReason[message["reason"]] if message["reason"] else None
                player.handle_game_end(message["winner"], reason, GameHistory())
            else:
                raise ValueError(f"unknown call {call!r}")
        except Exception as error:  # noqa: BLE001 - reported to the bridge, which raises it in Sightline
            traceback.print_exc()
            frames = traceback.extract_tb(error.__traceback__)
            where = f" at {os.path.basename(frames[-1].filename)}:{frames[-1].lineno}" if frames else ""
            protocol.write(json.dumps({"error": f"{type(error).__name__}: {error}{where}"}) + "\n")
            continue
        protocol.write(json.dumps({"value": value}) + "\n")
        if call == "end":
            break
    return 0


# ---- the harness: runs under Sightline's venv --------------------------------------------------------------

def summarise(record: Any, index: int, bot_seat: int, names: tuple[str, str]) -> dict[str, Any]:
    """One game's JSON line from its record (``names``: Sightline's bot, the opponent)."""
    outcome = record.result
    winner = outcome.winner
    result = "draw" if winner is None else ("win" if winner == bot_seat else "loss")
    reason = outcome.reason.value
    loser = None if winner is None else 1 - winner
    side = {bot_seat: "sightline", 1 - bot_seat: "opponent"}
    used = [0.0, 0.0]
    turns: list[list[float]] = [[], []]
    for entry in record.entries:
        kind = entry.action.get("type")
        used[entry.seat] += entry.elapsed
        if kind == "sense":
            turns[entry.seat].append(entry.elapsed)
        elif kind == "move":
            if turns[entry.seat]:
                turns[entry.seat][-1] += entry.elapsed
            else:  # a move without a sense (never in RBC, where every turn senses first)
                turns[entry.seat].append(entry.elapsed)
    crashed = side[loser] if reason in ("forfeit",) and loser is not None else None
    timed_out = side[loser] if reason == "timeout" and loser is not None else None
    per_turn = turns[bot_seat]
    clock = record.clock
    available = (clock.initial or 0.0) + clock.increment * len(per_turn)  # its clock: the start and its increments
    return {
        "game": index, "sightline": names[0], "opponent": names[1],
        "sightline_color": "white" if bot_seat == 0 else "black",
        "result": result, "reason": reason, "detail": outcome.detail,
        "decided": reason in DECIDED, "crashed": crashed, "timed_out": timed_out,
        "aborted": reason == "aborted",
        "turns": max(len(turns[0]), len(turns[1])),
        "seconds_used": {"sightline": round(used[bot_seat], 2), "opponent": round(used[1 - bot_seat], 2)},
        "sightline_turn_seconds": {
            "mean": round(statistics.fmean(per_turn), 3) if per_turn else None,
            "median": round(statistics.median(per_turn), 3) if per_turn else None,
            "max": round(max(per_turn), 3) if per_turn else None,
        },
        "sightline_turns": [round(seconds, 3) for seconds in per_turn],
        "sightline_clock_share": round(used[bot_seat] / available, 3) if available else None,
        "opponent_turn_seconds_mean": round(statistics.fmean(turns[1 - bot_seat]), 3) if turns[1 - bot_seat]
        else None,
        "clock": record.clock.to_json(),
    }


def _play(config: dict[str, Any], index: int, sender: Any) -> None:
    """One game in a forked process: sends its JSON line (or an error line) to the parent."""
    try:
        from app.engine.clock import TimeControl
        from app.engine.variants import game_type
        from app.hosting.runner import run_game, seed_everything
        from app.hosting.worker import ProcessAgent
        seed = config["seed"] + index
        seed_everything(seed)
        bot_seat = 0 if index % 2 == 0 else 1
        ours = (f"sightline:belief:{config['level']}", f"belief ({config['level']})")
        theirs = OPPONENTS[config["opponent"]]
        seats = (ours, theirs) if bot_seat == 0 else (theirs, ours)
        out = Path(config["out"])
        environment = dict(os.environ, SF2_LOG=str(out / f"{config['opponent']}-{index + 1:04d}.log"),
                           SF2_SEED=str(seed))
        guard_log = out / f"guard-{index + 1:04d}.jsonl"
        theirs_environment = dict(environment)
        if config.get("guard"):  # TroutBot alone gets its Stockfish behind the guard (stockfish_guard.py)
            theirs_environment.update(STOCKFISH_EXECUTABLE=config["guard"], STOCKFISH_GUARD_LOG=str(guard_log))
        agents = [ProcessAgent(spec, "rbc", name, seed * 2 + seat, sole_outsider=False,
                               environment=environment if seat == bot_seat else theirs_environment)
                  for seat, (spec, name) in enumerate(seats)]
        game = game_type("rbc").from_options({})
        for seat, agent in enumerate(agents):  # both load at once, before the clock starts
            agent.launch(seat, game.options(), seats[1 - seat][1])
        initial, increment = config["time"]
        try:
            record = run_game(game, agents, TimeControl(initial, increment), seed)
        finally:
            for agent in agents:
                agent.close()
        record.save(str(out / f"game-{index + 1:04d}.json"))
        line = summarise(record, index, bot_seat, (ours[1], theirs[1]))
        if guard_log.exists():
            counts: dict[str, int] = {}
            for text in guard_log.read_text().splitlines():
                for what, n in json.loads(text).items():
                    counts[what] = counts.get(what, 0) + n
            line["stockfish_guard"] = counts
        sender.send(line)
    except BaseException as error:  # noqa: BLE001 - the harness's own failure: listed apart
        sender.send({"game": index, "result": "error", "reason": "harness", "decided": False,
                     "detail": f"{type(error).__name__}: {error}", "crashed": None, "timed_out": None,
                     "aborted": True, "turns": 0, "sightline_color": "white" if index % 2 == 0 else "black"})
    finally:
        sender.close()


def table(lines: list[dict[str, Any]]) -> str:
    """The score on decided games with its interval, then the games listed apart, then time per turn."""
    decided = [line for line in lines if line.get("decided")]
    apart = [line for line in lines if not line.get("decided")]
    wins = sum(line["result"] == "win" for line in decided)
    draws = sum(line["result"] == "draw" for line in decided)
    losses = sum(line["result"] == "loss" for line in decided)
    n = len(decided)
    score = (wins + 0.5 * draws) / n if n else 0.0
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from benchmarks.strength import wilson  # the one interval every benchmark reports
    low, high = wilson(wins + 0.5 * draws, n)
    out = [f"{len(lines)} games; decided on the board: {n}: {wins} won, {draws} drawn, {losses} lost by "
           f"Sightline; score {score:.1%}, 95% interval [{low:.1%}, {high:.1%}]"]
    for colour in ("white", "black"):
        mine = [line for line in decided if line.get("sightline_color") == colour]
        if mine:
            s = sum(1.0 if line["result"] == "win" else 0.5 if line["result"] == "draw" else 0.0 for line in mine)
            out.append(f"  Sightline as {colour}: {s:g} / {len(mine)}")
    kinds = [("crashed", "crashed (forfeit)"), ("timed_out", "ran out of time")]
    for key, words in kinds:
        for who in ("sightline", "opponent"):
            games = [line["game"] + 1 for line in apart if line.get(key) == who]
            if games:
                out.append(f"  apart: {who} {words}: {len(games)} (games {', '.join(map(str, games))})")
    other = [line for line in apart if not line.get("crashed") and not line.get("timed_out")]
    for line in other:
        out.append(f"  apart: game {line['game'] + 1}: {line['reason']}: {line.get('detail', '')[:120]}")
    per_turn = [line["sightline_turn_seconds"]["mean"] for line in lines
                if line.get("sightline_turn_seconds", {}).get("mean") is not None]
    if per_turn:
        worst = max(line["sightline_turn_seconds"]["max"] for line in lines if line.get("sightline_turn_seconds",
                                                                                        {}).get("max") is not None)
        used = [line["seconds_used"]["sightline"] for line in lines if "seconds_used" in line]
        theirs = [line["seconds_used"]["opponent"] for line in lines if "seconds_used" in line]
        opp_turn = [line["opponent_turn_seconds_mean"] for line in lines if line.get("opponent_turn_seconds_mean")]
        turns = [line["turns"] for line in lines if line.get("turns")]
        theirs_a_turn = f"; opponent's {statistics.fmean(opp_turn):.2f}" if opp_turn else ""
        out.append(f"  Sightline's seconds a turn: mean of games {statistics.fmean(per_turn):.2f} "
                   f"(games from {min(per_turn):.2f} to {max(per_turn):.2f}), longest turn {worst:.2f}"
                   + theirs_a_turn)
        every = sorted(seconds for line in lines for seconds in line.get("sightline_turns", ()))
        if every:
            shares = [line["sightline_clock_share"] for line in lines if line.get("sightline_clock_share")]
            out.append(f"  Sightline's turns ({len(every)}): median {every[len(every) // 2]:.2f} s, 90th percentile "
                       f"{every[int(0.9 * len(every))]:.2f} s; share of its clock used (initial + increments): "
                       f"mean {statistics.fmean(shares):.0%}, from {min(shares):.0%} to {max(shares):.0%}")
        out.append(f"  seconds used a game: Sightline {statistics.fmean(used):.0f}, opponent "
                   f"{statistics.fmean(theirs):.0f}; turns a game {statistics.fmean(turns):.0f}")
    guarded: dict[str, int] = {}
    for line in lines:
        for what, n in line.get("stockfish_guard", {}).items():
            guarded[what] = guarded.get(what, 0) + n
    if guarded:
        out.append("  TroutBot's Stockfish guard: " + ", ".join(f"{what} {n}" for what, n in sorted(guarded.items())))
    return "\n".join(out)


def warm_numba() -> None:
    """Compile (or load from numba's cache) the belief kernels once here, so no game compiles them on its clock
    (the cache sits beside the sources: a fresh worktree has none)."""
    from app.engine import inference_jit
    inference_jit.warm_up()


def run(config: dict[str, Any]) -> list[dict[str, Any]]:
    import multiprocessing
    import multiprocessing.connection
    context = multiprocessing.get_context("fork")
    out = Path(config["out"])
    out.mkdir(parents=True, exist_ok=True)
    log_path = out / "games.jsonl"
    initial, increment = config["time"]
    limit = 2 * initial + 500 * increment + 600  # a referee that never comes back
    waiting = list(range(config["first"], config["first"] + config["games"]))
    running: dict[int, tuple[Any, Any, float]] = {}
    lines: list[dict[str, Any]] = []
    started = time.monotonic()
    while waiting or running:
        if config.get("minutes") is not None and time.monotonic() - started > config["minutes"] * 60:
            waiting = []  # --minutes: no new game; the ones running finish
        while waiting and len(running) < config["jobs"]:
            index = waiting.pop(0)
            receiver, sender = context.Pipe(duplex=False)
            process = context.Process(target=_play, args=(config, index, sender), daemon=False)
            process.start()
            sender.close()
            running[index] = (process, receiver, time.monotonic())
        multiprocessing.connection.wait([r for _, r, _ in running.values()]
                                        + [p.sentinel for p, _, _ in running.values()], timeout=5.0)
        for index, (process, receiver, begun) in list(running.items()):
            line = None
            try:
                if receiver.poll():
                    line = receiver.recv()
            except (EOFError, OSError):
                line = None
            if line is None and not process.is_alive():
                line = {"game": index, "result": "error", "reason": "harness", "decided": False, "aborted": True,
                        "detail": f"the referee's process died (exit {process.exitcode})", "turns": 0}
            if line is None and time.monotonic() - begun > limit:
                process.kill()
                line = {"game": index, "result": "error", "reason": "harness", "decided": False, "aborted": True,
                        "detail": f"no result after {limit:.0f} s", "turns": 0}
            if line is None:
                continue
            line["load_average"] = [round(x, 2) for x in os.getloadavg()]
            line["time"] = f"{initial:g}+{increment:g}"
            process.join(10.0)
            receiver.close()
            del running[index]
            lines.append(line)
            with open(log_path, "a", encoding="utf-8") as handle:
                handle.write(json.dumps(line) + "\n")
            used = line.get("seconds_used", {})
            print(f"  game {index + 1:3d} (Sightline {line.get('sightline_color', '?'):5s}): {line['result']:5s} "
                  f"{line['reason']:13s} {line.get('turns', 0):3d} turns  Sightline {used.get('sightline', 0):5.0f} s "
                  f"({(line.get('sightline_turn_seconds') or {}).get('mean') or 0:.2f} s a turn), opponent "
                  f"{used.get('opponent', 0):5.0f} s  {line.get('detail', '')[:80]}", flush=True)
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--serve", action="store_true", help="(internal) be StrangeFish2's side of the bridge")
    parser.add_argument("--merge", nargs="+", metavar="FILE", help="print the table of games.jsonl files")
    parser.add_argument("--opponent", choices=sorted(OPPONENTS), default="strangefish2")
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--first", type=int, default=0, help="number the games from N (colours and seeds follow)")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--level", default="hard", choices=("easy", "medium", "hard"))
    parser.add_argument("--time", default="90+2", help="seconds+increment for both sides")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--minutes", type=float, help="start no game after this many minutes")
    parser.add_argument("--out", default="/tmp/sightline-strangefish")
    parser.add_argument("--sf2-python", default=os.environ.get("SF2_PYTHON", DEFAULT_PYTHON))
    parser.add_argument("--sf2-source", default=os.environ.get("SF2_SOURCE", DEFAULT_SOURCE))
    parser.add_argument("--sf2-hash", type=int, default=int(os.environ.get("SF2_HASH", "512")))
    parser.add_argument("--stockfish", default=os.environ.get("STOCKFISH_EXECUTABLE", DEFAULT_STOCKFISH))
    parser.add_argument("--no-guard", action="store_true",
                        help="give TroutBot Stockfish itself, not behind stockfish_guard.py (it then dies on "
                             "impossible boards)")
    args = parser.parse_args(argv)
    if args.serve:
        return serve(os.environ.get("SF2_SOURCE", DEFAULT_SOURCE))
    if args.merge:
        lines = [json.loads(text) for name in args.merge for text in Path(name).read_text().splitlines() if text]
        print(table(lines))
        return 0
    sys.path.insert(0, str(ROOT))
    for path, what in ((args.stockfish, "Stockfish (apt-get install stockfish)"),
                       *(((args.sf2_python, "StrangeFish2's Python (see the set-up above)"),
                          (args.sf2_source, "StrangeFish2's source (see the set-up above)"))
                         if args.opponent == "strangefish2" else ())):
        if not os.path.exists(path):
            print(f"missing {what}: {path}", file=sys.stderr)
            return 2
    # Both sides and their engines read these (TroutBot and Sightline's hard level: STOCKFISH_EXECUTABLE).
    os.environ.update(STOCKFISH_EXECUTABLE=args.stockfish, SF2_PYTHON=args.sf2_python, SF2_SOURCE=args.sf2_source,
                      SF2_HASH=str(args.sf2_hash))
    initial, _, increment = args.time.partition("+")
    config = {"opponent": args.opponent, "games": args.games, "first": args.first, "jobs": args.jobs,
              "level": args.level, "time": (float(initial), float(increment or 0)), "seed": args.seed,
              "out": args.out, "minutes": args.minutes, "guard": None}
    if args.opponent == "trout" and not args.no_guard:
        Path(args.out).mkdir(parents=True, exist_ok=True)
        launcher = Path(args.out) / "guarded-stockfish"
        launcher.write_text(f'#!/bin/sh\nexec "{sys.executable}" "{HERE.parent / "stockfish_guard.py"}" '
                            f'"{args.stockfish}" "$@"\n')
        launcher.chmod(0o755)
        config["guard"] = str(launcher)
    version = subprocess.run([args.stockfish], input="uci\nquit\n", capture_output=True, text=True,
                             timeout=30).stdout.splitlines()[0]
    print(f"strangefish: Sightline belief ({args.level}) against {OPPONENTS[args.opponent][1]}, {args.games} games "
          f"from game {args.first + 1}, {args.time}, {args.jobs} at once, seed {args.seed}, records in {args.out}")
    print(f"machine: {os.cpu_count()} cores, load average {', '.join(f'{x:.2f}' for x in os.getloadavg())}; "
          f"{version}; StrangeFish2 Stockfish: 1 thread, {args.sf2_hash} MB hash")
    warm_numba()
    lines = run(config)
    print()
    print(table(lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
