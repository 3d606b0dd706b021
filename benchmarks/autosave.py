"""Autosave cost after every action, on a 300-ply game with notes at every ply.

Peers measured in the same run: the record's own atomic save (GameRecord.save, indented JSON, one fsync) and a
plain json.dumps + write without fsync. Usage: .venv/bin/python benchmarks/autosave.py [--plies 300] [--repeat 40]
"""
from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app import storage  # noqa: E402
from app.engine.clock import TimeControl  # noqa: E402
from app.games.rbc.rules import MoveAction, ReconChess, Sense  # noqa: E402
from app.engine.record import GameSession  # noqa: E402


def build(plies: int, seed: int = 1) -> GameSession:
    rng = random.Random(seed)
    while True:
        game = ReconChess(draw_rule="none")
        session = GameSession(game, TimeControl(900, 5))
        for ply in range(plies):
            if game.is_over:
                break
            seat = game.to_move
            session.play(seat, Sense(rng.randrange(64)))
            moves = list(game.choices()["move_actions"])
            session.play(seat, MoveAction(rng.choice(moves) if moves else None))
            # Notes at every ply: a belief board of 16 pieces and two arrows.
            session.set_notes(seat, hypotheses={"pieces": {f"{'abcdefgh'[i % 8]}{1 + i // 8}": "pnbrqk"[i % 6]
                                                           for i in range(ply % 3, 16 + ply % 3)}, "ply": ply},
                              annotations=[{"arrow": ["e2", "e4"]}, {"circle": "d5", "ply": ply}])
        if not game.is_over and game.ply >= plies:
            return session
        seed += 1
        rng = random.Random(seed)


def timed(function, repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--plies", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=40)
    args = parser.parse_args()
    session = build(args.plies)
    with tempfile.TemporaryDirectory() as directory:
        os.environ[storage.DATA_DIR_ENV] = directory
        record = session.snapshot()
        size = len(__import__("json").dumps(record.to_json(), separators=(",", ":")))
        plain = Path(directory) / "plain.json"

        def plain_write() -> None:
            plain.write_text(__import__("json").dumps(session.snapshot().to_json()))

        autosave = timed(lambda: storage.autosave(session), args.repeat)
        save = timed(lambda: session.snapshot().save(Path(directory) / "saved.json"), args.repeat)
        peer = timed(plain_write, args.repeat)
        snapshot = timed(session.snapshot, args.repeat)
        load = timed(storage.load_autosave, max(5, args.repeat // 4))
    print(f"game: {session.game.ply} plies, {len(session.record.entries)} actions, "
          f"{len(session.record.notes)} note snapshots, autosave file {size / 1024:.0f} KiB")
    print(f"autosave (snapshot + compact JSON + fsync + 2 renames + dir fsync): {autosave * 1000:.2f} ms")
    print(f"peer GameRecord.save (indented, fsync, 1 rename):                  {save * 1000:.2f} ms")
    print(f"peer plain json.dumps + write, no fsync:                           {peer * 1000:.2f} ms")
    print(f"session.snapshot() alone: {snapshot * 1000:.2f} ms; load_autosave (parse + replay): {load * 1000:.1f} ms")
    print(f"ratio autosave / GameRecord.save: {autosave / save:.2f}x   autosave / plain write: {autosave / peer:.2f}x")


if __name__ == "__main__":
    main()
