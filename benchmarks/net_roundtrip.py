"""Network play on loopback: an action's round trip, and many games on one referee server.

1. Round trip: RBC games between the host's ``random`` bot and a guest process (``sightline join --bot random``);
   for every request of the guest's seat, the time from the host sending it to the host reading the answer (TLS,
   framing, validation, the codec both ways, and the guest bot's own choice). Peer measured in the same run: the
   same bot in a worker process of the host (``ProcessAgent``, pipes and pickle), as ``sightline match`` hosts
   outside bots.
2. Concurrency: ``--concurrent N`` games at once on one server (the host's ``random`` against a remote ``random``,
   every guest in one other process, one thread each); the server process's memory and processor time per game.

The network games are timed (``--time``, default 900+5), so the clock updates and the lag credit are in what is
measured; ``--time untimed`` measures without them.

Usage: nice -n 10 .venv/bin/python benchmarks/net_roundtrip.py [--games 20] [--concurrent 100] [--time 900+5]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app import games  # noqa: E402
from app.engine.clock import TimeControl  # noqa: E402
from app.hosting.agents import BotSpec  # noqa: E402
from app.hosting.runner import run_game  # noqa: E402


def percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)

    def at(share: float) -> float:
        return ordered[min(len(ordered) - 1, int(share * len(ordered)))] * 1000
    return (f"n={len(ordered):5d}  p50 {at(0.50):6.2f} ms  p90 {at(0.90):6.2f} ms  p99 {at(0.99):6.2f} ms  "
            f"max {ordered[-1] * 1000:6.2f} ms")


def roundtrip(count: int, control: TimeControl) -> None:
    from app.net.server import RefereeServer
    samples: list[float] = []
    firsts: list[float] = []
    with RefereeServer() as server:
        for number in range(count):
            hosted = server.host_game("rbc", [None, "random"], seed=number, max_plies=300, control=control)
            guest = subprocess.Popen([sys.executable, "-m", "app.cli", "join", hosted.invitations()[0].text(),
                                      "--bot", "random", "--seed", str(number)], cwd=ROOT,
                                     env=dict(os.environ, PYTHONPATH=str(ROOT)), stdout=subprocess.DEVNULL)
            hosted.wait(120)
            guest.wait(60)
            answers = hosted.agents[0].answer_seconds  # type: ignore[attr-defined]
            firsts.append(answers[0])
            samples.extend(answers[1:])
    print(f"network guest (TLS, loopback):     {percentiles(samples)}")
    print(f"  its first request of each game:  {percentiles(firsts)}")

    from app.hosting.worker import ProcessAgent
    peer: list[float] = []
    peer_firsts: list[float] = []
    for number in range(count):
        agent = ProcessAgent("random", "rbc", "random", number)
        act = agent.act
        game_samples: list[float] = []

        def timed(request, act=act, game_samples=game_samples):  # type: ignore[no-untyped-def]
            begun = time.perf_counter()
            try:
                return act(request)
            finally:
                game_samples.append(time.perf_counter() - begun)
        agent.act = timed  # type: ignore[method-assign]
        try:
            run_game(games.referee("rbc").from_options({}), [agent, BotSpec("random", "rbc").create(number)],
                     TimeControl(None, 0.0), seed=number, max_plies=300, move_limit=60)
        finally:
            agent.close()
        peer_firsts.append(game_samples[0])
        peer.extend(game_samples[1:])
    print(f"worker process (pipes, pickle):    {percentiles(peer)}")
    print(f"  its first request of each game:  {percentiles(peer_firsts)}")


GUESTS = """
import sys, threading
from app.hosting.agents import BotSpec
from app.net.guest import Guest
from app.net.invitation import Invitation
errors = []
def play(text, seed):
    try:
        Guest(Invitation.parse(text), lambda variant, seat: BotSpec("random", variant).create(seed)).play()
    except Exception as error:
        errors.append(repr(error))
threads = [threading.Thread(target=play, args=(line.strip(), n)) for n, line in enumerate(sys.stdin) if line.strip()]
for thread in threads: thread.start()
for thread in threads: thread.join()
print(len(errors), errors[:3])
"""


def rss_kib() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def concurrent(count: int, control: TimeControl) -> None:
    from app.net.server import RefereeServer
    with RefereeServer() as server:
        before_rss, before_cpu = rss_kib(), resource.getrusage(resource.RUSAGE_SELF)
        begun = time.perf_counter()
        hosted = [server.host_game("rbc", [None, "random"], seed=number, max_plies=300, reconnect_limit=120,
                                   control=control)
                  for number in range(count)]
        guests = subprocess.Popen([sys.executable, "-c", GUESTS], cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert guests.stdin is not None
        guests.stdin.write("".join(game.invitations()[0].text() + "\n" for game in hosted))
        guests.stdin.close()
        peak = [before_rss]
        running = [True]

        def watch() -> None:
            while running[0]:
                peak[0] = max(peak[0], rss_kib())
                time.sleep(0.05)
        watcher = threading.Thread(target=watch, daemon=True)
        watcher.start()
        both = max(0, sum(1 for game in hosted if game.wait(600) is not None))
        seconds = time.perf_counter() - begun
        running[0] = False
        watcher.join()
        after_cpu = resource.getrusage(resource.RUSAGE_SELF)
        assert guests.stdout is not None
        out = guests.stdout.read()
        guests.wait(120)
        results = [game.record.result for game in hosted if game.record is not None and game.record.result]
        bad = [result for result in results if result.reason.value in ("forfeit", "aborted", "timeout")]
        plies = sum(game.game.ply for game in hosted)
        cpu = (after_cpu.ru_utime + after_cpu.ru_stime) - (before_cpu.ru_utime + before_cpu.ru_stime)
        answers = [sample for game in hosted for sample in game.agents[0].answer_seconds]  # type: ignore[attr-defined]
    print(f"{count} games at once: {both} finished, {len(bad)} forfeited or aborted, guest errors: {out.strip()}")
    print(f"  wall {seconds:.1f} s, {plies} plies in all ({plies / seconds:.0f} plies/s)")
    print(f"  server memory: {before_rss / 1024:.0f} MiB before, {peak[0] / 1024:.0f} MiB at the peak: "
          f"{(peak[0] - before_rss) / count:.0f} KiB per game")
    print(f"  server processor time: {cpu:.1f} s in all, {cpu / count * 1000:.0f} ms per game, "
          f"{cpu / max(1, plies) * 1e6:.0f} us per ply")
    print(f"  round trip under that load:      {percentiles(answers)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=20, help="games for the round trip (default 20)")
    parser.add_argument("--concurrent", type=int, default=100, help="games at once (default 100; 0: skip)")
    parser.add_argument("--time", default="900+5", help="the network games' clock (default 900+5; untimed)")
    args = parser.parse_args()
    control = TimeControl.parse(args.time)
    print(f"network games' clock: {control}")
    if args.games:
        roundtrip(args.games, control)
    if args.concurrent:
        concurrent(args.concurrent, control)


if __name__ == "__main__":
    main()
