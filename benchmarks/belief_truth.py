"""How much of its belief's weight the RBC ``belief`` bot gives the true position, under each way of weighing it.

Run by hand on records of games the bot played (any RBC record whose seat was played by ``sightline:belief``;
``benchmarks/strangefish.py`` saves one per game):

    .venv/bin/python benchmarks/belief_truth.py /tmp/sf2-run/game-*.json [--level hard] [--standing 50 100 200]
        [--share] [--spared 0.2]

For every move decision of the bot's seat the record is replayed up to it, the seat's observations are fed to a
fresh bot of ``--level`` (its cap and tracker; no engine), and the bot's belief after its sense is weighed:

- ``belief``: the weights the belief holds (each position it stands for counts once), the peer;
- ``threat``: times the level's king-threat prior (what the bot samples its boards with today);
- ``threat + standing T``: times the ``standing`` prior at temperature ``T`` as well (positions the opponent
  stands well in count ``exp(s / T)`` times, raids on the king never less).

With ``--danger F1 F2 ...`` it weighs the bot's king danger instead: at each decision, for every candidate move,
the share of the belief on which the opponent could take the king right after it (:func:`king_danger`, positions
that attack the king already counted ``F`` times), against what happens on the true board. Printed per factor:
the mean log loss and Brier score of those shares as forecasts (lower is better), the mean forecast against the
true rate, and how often the move the forecast calls safest is truly safe where some move was.

Printed per weighing: the mean natural log of the true position's share (higher is better; a turn where the
belief lost the true position is counted apart), its mean share, and the ratio to the peer, ``exp`` of the
difference of the mean logs: how many times likelier the weighing makes the truth, on the geometric mean.
Positions beyond ``--most`` of a belief are a uniform draw standing for the rest (the truth always kept).
With ``--share`` (and ``--spared``) the belief itself is another one (its weights shared among the opponent's
moves), so compare the runs' ``belief`` rows (and how often the truth was held), not the ratios across runs.
The bot's own decisions are not replayed (the moves are the record's), so the weighing is judged on the very
beliefs the bot had, whatever it would have chosen with them.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, Iterator

import chess

HERE = Path(__file__).resolve()
sys.path.insert(0, str(HERE.parent.parent))

import app.games  # noqa: E402,F401 - registers the games with the engine
from app.bots.belief_common import king_threat_prior  # noqa: E402
from app.bots.timing import Deadline  # noqa: E402
from app.engine.inference import Hypothesis, opponent_key  # noqa: E402
from app.engine.record import read_record  # noqa: E402
from app.engine.timeline import replay  # noqa: E402
from app.games.rbc import belief_bot  # noqa: E402


def decisions(path: Path, level: str, cap: int | None = None, share: bool = False,
              spared: float = 1.0) -> Iterator[tuple[belief_bot.RBCBeliefBot, Any, int]]:
    """For each seat of ``path`` played by the belief bot, at each of its move decisions: a bot of ``level``
    (holding at most ``cap`` positions, if given) holding the belief it had then, the true board, and the seat."""
    record = read_record(str(path))
    if record.variant != "rbc":
        return
    seats = [seat for seat, player in enumerate(record.players) if (player.spec or "").startswith("sightline:belief")]
    for seat in seats:
        bot = belief_bot.RBCBeliefBot(seed=0, level=level)
        bot.settings = replace(bot.settings, engine=False, cap=cap or bot.settings.cap, share_weight=share,
                               spared_king_weight=spared)
        bot.start(seat, dict(record.options))
        fed = 0
        for upto in range(len(record.entries) + 1):
            game = replay(record, upto=upto).game
            if game.is_over:
                break
            if game.to_move != seat or game.phase != "move":
                continue
            observations = game.observations(seat)
            for observation in observations[fed:]:
                bot.observe(observation)
            fed = len(observations)
            bot.tracker.catch_up(Deadline(30.0, time.monotonic))
            yield bot, game.truth(), seat


def weighings(bot: belief_bot.RBCBeliefBot, temperatures: list[float]) -> dict[str, Callable[[Hypothesis], float]]:
    inference = bot.tracker.inference
    threat = king_threat_prior(inference.own, bot.color, bot.settings.threat_prior)
    found: dict[str, Callable[[Hypothesis], float]] = {"belief": lambda h: 1.0, "threat": threat}
    for temperature in temperatures:
        bot.settings = replace(bot.settings, standing=temperature)
        bot._standing_of = None
        standing = bot._standing(inference)
        assert standing is not None
        found[f"threat + standing {temperature:g}"] = (lambda s: lambda h: threat(h) * s(h))(standing)
    return found


def true_dangers(truth: Any, color: bool, candidates: list[Any]) -> list[bool]:
    """For each candidate: could the opponent take the king right after it on the true board?"""
    found = []
    for move in candidates:
        board = truth.copy(stack=False)
        board.turn = color
        taken = None if move is None else belief_bot._resolve(board, move)
        if taken is not None and board.kings & board.occupied_co[not color] & (1 << taken.to_square):
            found.append(False)
            continue
        board.push(taken if taken is not None else chess.Move.null())
        king = board.king(color)
        found.append(king is None or bool(board.attackers_mask(not color, king)))
    return found


def danger_calibration(args: argparse.Namespace) -> int:
    """The king danger's shares as forecasts of the true board's outcome (``--danger``)."""
    import numpy as np
    from app.bots.belief_common import king_attacked, king_danger_rows
    from app.games.rbc.moves import move_actions

    factors = list(args.danger)
    loss = {f: 0.0 for f in factors}
    brier = {f: 0.0 for f in factors}
    forecast = {f: 0.0 for f in factors}
    safest_safe = {f: 0 for f in factors}
    count = decisions_with_choice = true_rate = 0
    started = time.perf_counter()
    for path in args.records:
        for bot, truth, seat in decisions(path, args.level, args.cap, args.share, args.spared):
            color = seat == 0
            inference = bot.tracker.inference
            candidates = belief_bot._candidates(move_actions(truth, color).as_list())
            truths = np.array(true_dangers(truth, color, candidates))
            dangers, weights = king_danger_rows(inference, candidates, color, belief_bot._resolve)
            if not weights.size:
                continue
            rows, _ = inference.arrays()
            rows = np.asarray(rows, dtype=np.uint64)
            king = inference.own.king(color)
            attacked = (king_attacked(king, color, inference.own.occupied, *rows[:6]) if king is not None
                        else np.zeros(rows.shape[1], dtype=bool))
            count += len(candidates)
            true_rate += int(truths.sum())
            some_safe = not truths.all()
            decisions_with_choice += some_safe
            for f in factors:
                w = weights * np.where(attacked, f, 1.0)
                shares = (dangers * w).sum(axis=1) / (w.sum() or 1.0)
                p = np.clip(shares, 1e-3, 1 - 1e-3)
                loss[f] += float(-(truths * np.log(p) + (~truths) * np.log(1 - p)).sum())
                brier[f] += float(((shares - truths) ** 2).sum())
                forecast[f] += float(shares.sum())
                if some_safe:
                    safest_safe[f] += not truths[int(np.argmin(shares))]
        print(f"{path.name}: {count} forecasts so far", file=sys.stderr, flush=True)
    if not count:
        print("no decision of a belief bot in these records")
        return 1
    print(f"{len(args.records)} records, {count} candidate moves ({args.level}, cap "
          f"{args.cap or belief_bot.LEVELS[args.level].cap}{', shared weights' if args.share else ''}); "
          f"truly dangerous {true_rate / count:.3%}; {time.perf_counter() - started:.0f} s")
    print(f"{'threat factor':>13s} {'log loss':>9s} {'Brier':>8s} {'forecast':>9s} {'safest truly safe':>18s}")
    for f in factors:
        print(f"{f:13g} {loss[f] / count:9.4f} {brier[f] / count:8.4f} {forecast[f] / count:9.3%} "
              f"{safest_safe[f] / max(1, decisions_with_choice):18.1%}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("records", nargs="+", type=Path)
    parser.add_argument("--level", default="hard", choices=sorted(belief_bot.LEVELS))
    parser.add_argument("--standing", nargs="*", type=float, default=[50.0, 100.0, 200.0])
    parser.add_argument("--most", type=int, default=600, help="positions weighed per belief besides the truth")
    parser.add_argument("--cap", type=int, help="positions the belief holds (default: the level's)")
    parser.add_argument("--share", action="store_true",
                        help="the belief shares each position's weight among the opponent's moves (share_weight)")
    parser.add_argument("--spared", type=float, default=1.0,
                        help="weight of a position where the king could have been taken and was not")
    parser.add_argument("--danger", nargs="*", type=float,
                        help="weigh the king danger's forecasts at these threat factors instead")
    args = parser.parse_args(argv)
    if args.danger:
        return danger_calibration(args)
    rng = random.Random(0)
    logs: dict[str, list[float]] = {}
    turns = lost = 0
    started = time.perf_counter()
    for path in args.records:
        for bot, truth, seat in decisions(path, args.level, args.cap, args.share, args.spared):
            turns += 1
            inference = bot.tracker.inference
            key = opponent_key(truth, seat == 0)
            held = list(inference.hypotheses())
            mine = [(h, w) for h, w in held if h == key]
            if not mine:
                lost += 1
                continue
            others = [(h, w) for h, w in held if h != key]
            scale = 1.0
            if len(others) > args.most:
                scale = len(others) / args.most
                others = rng.sample(others, args.most)
            for name, prior in weighings(bot, args.standing).items():
                truth_weight = sum(w * prior(h) for h, w in mine)
                total = truth_weight + scale * sum(w * prior(h) for h, w in others)
                logs.setdefault(name, []).append(math.log(truth_weight / total))
        print(f"{path.name}: {turns} decisions so far, the truth lost in {lost}", file=sys.stderr, flush=True)
    if not logs:
        print("no decision of a belief bot with the truth held in these records")
        return 1
    peer = sum(logs["belief"]) / len(logs["belief"])
    print(f"{len(args.records)} records, {turns} decisions of the belief bot ({args.level}, "
          f"cap {args.cap or belief_bot.LEVELS[args.level].cap}{', shared weights' if args.share else ''}"
          f"{f', spared king {args.spared:g}' if args.spared != 1.0 else ''}), the truth held in "
          f"{turns - lost}; {time.perf_counter() - started:.0f} s")
    print(f"{'weighing':28s} {'mean log share':>15s} {'mean share':>11s} {'vs belief':>10s}")
    for name, values in logs.items():
        mean = sum(values) / len(values)
        share = sum(math.exp(v) for v in values) / len(values)
        print(f"{name:28s} {mean:15.3f} {share:11.3f} {math.exp(mean - peer):9.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
