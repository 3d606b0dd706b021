"""Make the record corpus: records of every registered game saved by the app's own code, and what the app makes
of each (its expectations), for ``tests/test_records_corpus.py``.

Run from the repository root::

    PYTHONPATH=$PWD .venv/bin/python tests/data/records/make_corpus.py

Each case below plays one game through the registry's referee, a :class:`GameSession` (the live game the window
and ``sightline match`` drive) with a made-up clock, the games' own seeded ``random`` bots and, where a case needs
a particular ending or move, scripted actions; then saves it as the app saves (``GameRecord.save``, or the
autosave store for an autosave) as ``<game>/<case>.json``, and writes ``<game>/<case>.expected.json`` with the
outputs of today's code. The older-format records kept as they were found are written out verbatim, and one
record is made as ``sightline import`` makes it from a reconchess history.

Regenerate only for a change of outputs that is intended, and say so in the commit: the corpus exists to show
that a change of the code changes nothing a player has (``docs/record-format.md``).
"""

from __future__ import annotations

import json
import os
import random
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[2]

STARTED = "2026-11-27T00:00:00+00:00"
"""The start time written into every made record (a real one says when the game began)."""


# ---- notes a person's window keeps (the shapes the window writes) -----------------------------------------------

ANNOTATIONS = [{"arrow": [[4, 1], [4, 3]]}, {"circle": [3, 4]}]
HYPOTHESES = {"pieces": {"e7": "p", "d8": "q", "g8": "n"}, "since": {"e7": 2, "d8": 2, "g8": 2},
              "history": {"undo": ["", "d8q2", "d8q2 e7p2"], "redo": []}}
HYPOTHESES_LATER = {"pieces": {"e5": "p", "d8": "q"}, "since": {"e5": 6, "d8": 2},
                    "history": {"undo": ["", "d8q2", "d8q2 e5p6"], "redo": ["d8q2 e5p6 f6n6"]}}
SWITCHES = {"ghosts": True, "heat_map": False, "count": True}
CLOAK_MARKS = {"draft": "RN......", "grid": {"3N": "o", "5Q": "x"}, "undo": [["3N", "", "o"], ["5Q", "", "x"]],
               "redo": [], "uncloak": [], "uncloak_at": -1, "dropping_at": -1, "guessing_at": -1}


def notes_for_chess(session: Any, step: int) -> None:
    """Arrows and circles at the start, a belief board and its switches a few steps in, a changed board later."""
    if step == 0:
        session.set_notes(0, annotations=ANNOTATIONS)
    elif step == 3:
        session.set_notes(0, hypotheses=HYPOTHESES, switches=SWITCHES)
        session.set_notes(1, annotations=[{"circle": [4, 4]}])
    elif step == 9:
        session.set_notes(0, hypotheses=HYPOTHESES_LATER, annotations=[])


def notes_for_marks(session: Any, step: int) -> None:
    """A deduction grid's circles and crosses (Cloak and Dagger's private marks) and an arrow."""
    if step == 0:
        session.set_notes(0, marks={**CLOAK_MARKS, "grid": {}, "undo": []})
    elif step == 6:
        session.set_notes(0, marks=CLOAK_MARKS, annotations=ANNOTATIONS)
        session.set_notes(1, marks={**CLOAK_MARKS, "draft": "........", "grid": {"2B": "x"}, "undo": []})


def notes_for_teams(session: Any, step: int) -> None:
    if step == 2:
        session.set_notes(0, annotations=ANNOTATIONS)
        session.set_notes(3, annotations=[{"circle": [0, 0]}])


# ---- scripts: actions a case plays instead of a bot's ------------------------------------------------------------

Script = Callable[[Any, int], "tuple[int, dict[str, Any]] | None"]
"""``script(game, step)`` -> (seat, action JSON) to play now instead of asking the bot, or None."""


def moves_script(moves: list[dict[str, Any]]) -> Script:
    """Play these actions first, each by the seat to move."""
    def script(game: Any, step: int) -> tuple[int, dict[str, Any]] | None:
        return (game.to_move, moves[step]) if step < len(moves) else None
    return script


def draw_script(offers: list[tuple[int, list[bool]]], offer_type: str = "offer_draw") -> Script:
    """Offer a draw at (or after) each given step, answered in turn by the given answers (True: accept)."""
    pending: list[tuple[int, list[bool]]] = list(offers)
    answers: list[bool] = []

    def script(game: Any, step: int) -> tuple[int, dict[str, Any]] | None:
        if game.phase in ("answer_draw", "agree_draw") and answers:
            return game.to_move, {"type": "answer_draw", "accept": answers.pop(0)}
        if pending and step >= pending[0][0] and game.choices().get("offer_draw"):
            answers[:] = pending.pop(0)[1]
            return game.to_move, {"type": offer_type}
        return None
    return script


def decline_draws(game: Any, step: int) -> tuple[int, dict[str, Any]] | None:
    """Every draw offer declined (the random bots offer and accept draws; a king capture needs play to go on)."""
    return (game.to_move, {"type": "answer_draw", "accept": False}) if game.phase == "answer_draw" else None


def undo_redo(game: Any, step: int) -> tuple[int, dict[str, Any]] | None:
    """A solitaire's undo at the third action and redo at the fourth, where they may be used."""
    kind = {2: "undo", 3: "redo"}.get(step)
    if kind is not None and kind in game.choices():
        return 0, {"type": kind}
    return None


def adds_stop_undo_redo(game: Any, step: int) -> tuple[int, dict[str, Any]] | None:
    """A solitaire with adds (Neighbour): four adds (a waiting piece to the first square offered), a stop, then the
    stop undone and done again, where each may be."""
    choices = game.choices()
    if step < 6 and "places" in choices:
        return 0, choices["places"][0].to_json()
    kind = {0: "adds", 1: "adds", 2: "adds", 3: "adds", 4: "stop", 5: "undo", 6: "redo"}.get(step)
    if kind is not None and kind in choices:
        return 0, choices[kind][0].to_json()
    return None


def chain(*scripts: Script) -> Script:
    def script(game: Any, step: int) -> tuple[int, dict[str, Any]] | None:
        for part in scripts:
            found = part(game, step)
            if found is not None:
                return found
        return None
    return script


# ---- cases -------------------------------------------------------------------------------------------------------

@dataclass
class Case:
    game: str
    name: str
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    clock: tuple[float | None, float] = (900.0, 5.0)
    steps: int = 2000
    """Actions played before the ending (fewer if the game ends by its rules first)."""
    ending: str = "rules"
    """rules (play on until the game ends; a turn-limit adjudication after ``steps``), resign, timeout,
    turn_limit, forfeit, aborted, unfinished."""
    script: Script | None = None
    notes: Callable[[Any, int], None] | None = None
    humans: tuple[int, ...] = ()
    written_by: str = "save"
    """save: a saved file (``GameRecord.save``); autosave: the autosave store's compact file."""
    paused: bool = False
    """An unfinished game saved with its clock stopped (a hot-seat curtain, a window in the background)."""
    want: Callable[[dict[str, Any]], bool] | None = None
    """A test of the record's JSON the case must pass (else the next seed is tried): the move it must hold."""


def actions(record: dict[str, Any]) -> list[dict[str, Any]]:
    return [entry["action"] for entry in record["actions"]]


def has(kind: str, test: Callable[[dict[str, Any]], bool] = lambda action: True) -> Callable[[dict[str, Any]], bool]:
    return lambda record: any(action["type"] == kind and test(action) for action in actions(record))


def both(*tests: Callable[[dict[str, Any]], bool]) -> Callable[[dict[str, Any]], bool]:
    return lambda record: all(test(record) for test in tests)


def shorter_than(actions: int) -> Callable[[dict[str, Any]], bool]:
    """Records are kept short: a replay's frames are made from the observations so far, so a test's time grows
    with the square of the length."""
    return lambda record: len(record["actions"]) < actions


def result_is(reason: str) -> Callable[[dict[str, Any]], bool]:
    return lambda record: record["result"] is not None and record["result"]["reason"] == reason


def uci_of(action: dict[str, Any]) -> str:
    return str(action.get("move") or action.get("uci") or "")


def promotes(record: dict[str, Any]) -> bool:
    return any(len(uci_of(action)) == 5 and "@" not in uci_of(action) for action in actions(record))

# RBC and Blind Chess from set positions: en passant, castling both ways, a promotion to a knight, a pass.
SPECIAL_FEN = "r3k2r/p5P1/8/3pP3/8/8/7P/R3K2R w KQkq d6 0 1"
RBC_SPECIAL = [
    {"type": "sense", "square": "d6"}, {"type": "move", "move": "e5d6"},        # en passant
    {"type": "sense", "square": None}, {"type": "move", "move": "e8c8"},        # a skipped sense; queenside
    {"type": "sense", "square": "g7"}, {"type": "move", "move": "e1g1"},        # kingside castling
    {"type": "sense", "square": "g2"}, {"type": "move", "move": None},          # a pass
    {"type": "sense", "square": "b7"}, {"type": "move", "move": "g7g8n"},       # under-promotion
]
BLIND_SPECIAL = [
    {"type": "attempt", "move": "e5d6"}, {"type": "attempt", "move": "e8c8"},
    {"type": "attempt", "move": "e1c1"}, {"type": "attempt", "move": "a7a5"},
    {"type": "attempt", "move": "g7g8q"},
]
RBC_FIFTY = "4k3/8/8/8/8/8/8/R3K3 w - - 96 60"
MINIT_LATE = "39 W k.... ..... ..... ..... ..... ....K"
MINIT_PROMOTION = "5 W ....k P.... ..... ..... ..... ....K"


CASES = [
    # Reconnaissance Blind Chess: every option, every ending it can have, notes, the special moves.
    Case("rbc", "king-capture", 11, notes=notes_for_chess, humans=(0,), want=shorter_than(120)),
    Case("rbc", "resign-no-draw-rule", 12, {"draw_rule": "none"}, steps=40, ending="resign", clock=(None, 0.0)),
    Case("rbc", "timeout", 13, clock=(60.0, 1.0), steps=25, ending="timeout"),
    Case("rbc", "fifty-move-draw", 14, {"fen": RBC_FIFTY}),
    Case("rbc", "special-moves-turn-limit", 15, {"fen": SPECIAL_FEN}, steps=30, ending="turn_limit",
         script=moves_script(RBC_SPECIAL)),
    Case("rbc", "unfinished-autosave", 16, steps=21, ending="unfinished", notes=notes_for_chess, humans=(0, 1),
         written_by="autosave"),
    Case("rbc", "unfinished-saved-paused", 17, {"draw_rule": "none"}, steps=12, ending="unfinished", humans=(1,),
         paused=True),
    # Blind Chess: a draw agreed after one refused, a flag fall decided on material, refused attempts.
    Case("blind", "king-capture", 21, notes=notes_for_chess, humans=(1,), want=both(promotes, shorter_than(110))),
    Case("blind", "draw-agreed", 22, steps=400, script=draw_script([(6, [False]), (14, [True])])),
    Case("blind", "timeout-material", 23, clock=(45.0, 2.0), steps=30, ending="timeout"),
    Case("blind", "special-moves-forfeit", 24, {"fen": SPECIAL_FEN}, steps=20, ending="forfeit",
         script=moves_script(BLIND_SPECIAL)),
    Case("blind", "unfinished-autosave", 25, steps=15, ending="unfinished", notes=notes_for_chess, humans=(0, 1),
         written_by="autosave", clock=(None, 0.0)),
    # MinitChess: king capture, the 40-move limit, a promotion, an unfinished game.
    Case("minit", "king-capture", 31, humans=(0,), notes=notes_for_chess),
    Case("minit", "move-limit", 32, {"position": MINIT_LATE}, clock=(None, 0.0)),
    Case("minit", "promotion-resign", 33, {"position": MINIT_PROMOTION}, steps=6, ending="resign",
         script=moves_script([{"type": "move", "move": "a5-a6"}])),
    Case("minit", "unfinished", 34, steps=9, ending="unfinished", humans=(0, 1), clock=(300.0, 3.0)),
    Case("minit", "aborted", 35, steps=5, ending="aborted"),
    # Cloak and Dagger: both settings of its option, guesses, bonus moves, drops, uncloaking, a draw, marks.
    Case("cloak", "king-capture", 41, notes=notes_for_marks, humans=(0,), script=decline_draws,
         want=both(has("guess"), result_is("king_capture"))),
    Case("cloak", "drops-turn-limit", 45, script=decline_draws, steps=120,
         want=both(has("bonus", lambda action: "@" in str(action["uci"])), result_is("turn_limit"))),
    Case("cloak", "deduction-off-draw-agreed", 42, {"deduction": "off"}, steps=600,
         script=draw_script([(8, [False]), (30, [True])])),
    Case("cloak", "timeout", 43, {"deduction": "on"}, clock=(90.0, 0.0), steps=40, ending="timeout"),
    Case("cloak", "unfinished-autosave", 44, steps=17, ending="unfinished", notes=notes_for_marks, humans=(0, 1),
         written_by="autosave"),
    # Telepathy Chess: both predictor options, removals, team draw offers (refused, declined, agreed).
    Case("telepathy", "king-capture", 51, notes=notes_for_teams, humans=(0,),
         want=both(has("remove"), result_is("king_capture"))),
    Case("telepathy", "second-predictors-team-draw", 52,
         {"white_first_predictor": "W2", "black_first_predictor": "B2"}, steps=800,
         script=draw_script([(4, [False]), (9, [True, False]), (20, [True, True, False]), (30, [True, True, True])])),
    Case("telepathy", "timeout", 53, clock=(120.0, 0.0), steps=30, ending="timeout"),
    Case("telepathy", "unfinished-autosave", 54, {"fen": SPECIAL_FEN}, steps=11, ending="unfinished",
         notes=notes_for_teams, humans=(0, 1, 2, 3), written_by="autosave"),
    # Split-Brain Chess: its secret picks, the opponents' decisions, promotions, team draw offers.
    Case("splitbrain", "no-moves", 61, notes=notes_for_teams, humans=(2,),
         want=both(has("decide"), has("promote"), result_is("no_moves"), shorter_than(130))),
    Case("splitbrain", "team-draw", 62, steps=800,
         script=draw_script([(5, [False]), (12, [True, True, False]), (25, [True, True, True])])),
    Case("splitbrain", "resign", 63, steps=24, ending="resign", clock=(None, 0.0)),
    Case("splitbrain", "unfinished", 64, steps=13, ending="unfinished", humans=(0, 1, 2, 3), paused=True),
    # Cooperative Chess 2 and its solitaire: cards, captures, the cards running out, an unfinished hot-seat game.
    Case("coop", "cards-run-out", 71, humans=(0, 1), want=has("move", lambda action: "card" in action)),
    Case("coop", "unfinished-autosave", 72, steps=9, ending="unfinished", humans=(0, 1), written_by="autosave"),
    Case("coop_solitaire", "played-out", 73, humans=(0,)),
    # Booster Chess: cards, booster steps and a mate; a position with checkers from its options; a resignation.
    Case("booster", "checkmate", 71, humans=(0,), want=both(has("card"), has("step"), result_is("no_moves"))),
    Case("booster", "checkers-unfinished-autosave", 72, {"fen": SPECIAL_FEN, "checkers": "h1:+2 a8:-1 e5:+1 g7:-1"},
         steps=15, ending="unfinished", humans=(0, 1), written_by="autosave"),
    Case("booster", "resign", 73, steps=30, ending="resign", clock=(None, 0.0)),
    # Gravity Chess: a dealt game (its chance seed), passes, a last turn without a card, the score.
    Case("gravity", "score", 71, humans=(0,), clock=(None, 0.0), want=has("pass")),
    Case("gravity", "unfinished-autosave", 72, steps=23, ending="unfinished", humans=(0, 1), written_by="autosave"),
    Case("parade", "undo-redo-played-out", 81, {"deal": 77}, humans=(0,), clock=(None, 0.0), script=undo_redo,
         want=both(has("undo"), has("redo"), has("add"))),
    Case("parade", "unfinished-autosave", 82, steps=5, ending="unfinished", humans=(0,), clock=(None, 0.0),
         written_by="autosave"),
    # Neighbour Chess Solitaire: a numbered deal, adds, undo and redo, the end by its rules; an unfinished autosave.
    Case("neighbour", "undo-redo-played-out", 91, humans=(0,), clock=(None, 0.0), script=adds_stop_undo_redo,
         want=both(has("undo"), has("add"))),
    Case("neighbour", "unfinished-autosave", 92, steps=3, ending="unfinished", humans=(0,), clock=(None, 0.0),
         written_by="autosave"),
]


# ---- older records kept as they were found ----------------------------------------------------------------------

OLDER = {
    # tests/test_storage.py's V1_RECORD: a version 1 file (before notes and the live clock), unfinished.
    "rbc/version-1-unfinished": {
        "format": "sightline-record", "version": 1, "variant": "rbc", "options": {"draw_rule": "50-move"},
        "players": [{"name": "Ann", "kind": "human"}, {"name": "random", "kind": "bot", "spec": "random"}],
        "seed": 42, "clock": {"initial": 900, "increment": 5}, "started": "2026-11-21T23:40:00+00:00",
        "actions": [
            {"seat": 0, "action": {"type": "sense", "square": "e7"}, "elapsed": 4.25},
            {"seat": 0, "action": {"type": "move", "move": "e2e4"}, "elapsed": 5.25},
            {"seat": 1, "action": {"type": "sense", "square": "d2"}, "elapsed": 1.25},
            {"seat": 1, "action": {"type": "move", "move": None}, "elapsed": 0.25},
        ],
        "result": None,
    },
}


# ---- playing a case ---------------------------------------------------------------------------------------------

def play(case: Case, seed: int) -> Any:
    """The record of ``case`` played with ``seed`` (the bots' and the clock's), as the app keeps it."""
    from app import games
    from app.bots.base import ActionRequest
    from app.engine.clock import TimeControl
    from app.engine.core import Adjudication, Reason, Resign
    from app.engine.record import GameSession, PlayerInfo

    definition = games.get(case.game)
    referee = definition.referee()
    game = referee.create(case.options, seed if referee.uses_chance else None)  # a deal repeats with the case
    seats = len(definition.seats)
    bot_class = dict(definition.bots)["random"]()
    bots = [bot_class(seed=seed * 10 + seat) for seat in range(seats)]
    players = [PlayerInfo(["Ann", "Ben", "Cy", "Di"][seat]) if seat in case.humans
               else PlayerInfo("random", "bot", "random") for seat in range(seats)]
    now = [0.0]
    session = GameSession(game, TimeControl(*case.clock), players, seed, time_source=lambda: now[0])
    for seat, bot in enumerate(bots):
        bot.start(seat, game.options())
    told = [0] * seats
    rng = random.Random(seed)
    step = 0
    while not game.is_over and step < case.steps:
        if case.notes is not None:
            case.notes(session, step)
        now[0] += round(rng.uniform(0.1, 4.0), 3)
        scripted = case.script(game, step) if case.script is not None else None
        if scripted is not None:
            seat, action = scripted[0], referee.action_from_json(scripted[1])
        else:
            seat = game.to_move
            bot = bots[seat]
            for observation in game.observations(seat)[told[seat]:]:
                bot.observe(observation)
            told[seat] = len(game.observations(seat))
            action = bot.act(ActionRequest(seat, game.phase, game.choices(), session.seconds_left(seat)))
        session.play(seat, action)
        step += 1
    if not game.is_over:
        mover = game.to_move
        if case.ending == "resign":
            now[0] += 2.5
            session.play(1 - mover if seats == 2 else mover ^ 2, Resign())
        elif case.ending == "timeout":
            now[0] += 10_000.0
            assert session.check_time(), case
        elif case.ending in ("turn_limit", "rules"):
            now[0] += 1.0
            session.adjudicate(Adjudication(mover, Reason.TURN_LIMIT, f"the match's limit of {step} steps was reached"))
        elif case.ending == "forfeit":
            now[0] += 1.0
            session.adjudicate(Adjudication(mover, Reason.FORFEIT, "random answered an illegal action: e9e9"))
        elif case.ending == "aborted":
            session.adjudicate(Adjudication(mover, Reason.ABORTED))
        elif case.ending == "unfinished":
            now[0] += 7.125
            if case.paused:
                session.pause()
        else:
            raise ValueError(case.ending)
    record = session.snapshot()
    record.started = STARTED
    return record


def write(case: Case) -> Path:
    from app import storage
    target = HERE / case.game / f"{case.name}.json"
    target.parent.mkdir(exist_ok=True)
    for attempt in range(200):
        seed = case.seed * 1000 + attempt
        record = play(case, seed)
        if case.ending == "unfinished" and record.result is not None:
            continue
        if case.want is None or case.want(record.to_json()):
            break
    else:
        raise SystemExit(f"{case.game}/{case.name}: no seed gave the record the case wants")
    if case.written_by == "autosave":
        with tempfile.TemporaryDirectory() as folder:
            os.environ["SIGHTLINE_DATA_DIR"] = folder
            try:
                shutil.copyfile(storage.autosave(record), target)
            finally:
                del os.environ["SIGHTLINE_DATA_DIR"]
    else:
        record.save(target)
    return target


def imported(source: Path, target: Path) -> None:
    """A record as ``sightline import`` makes it from a reconchess GameHistory (here, ``sightline export``'s
    history of ``source``): no clock, no seed, ``extra`` naming where it came from."""
    from app.cli import main as sightline
    with tempfile.TemporaryDirectory() as folder:
        history = Path(folder) / "history.json"
        assert sightline(["export", "--format", "reconchess", str(source), str(history)]) == 0
        assert sightline(["import", str(history), str(target)]) == 0


def expect(path: Path, written_by: str) -> None:
    from tests.test_records_corpus import expected_path, outputs_of
    outputs = outputs_of(path, written_by)
    expected_path(path).write_text(json.dumps(outputs, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def main() -> int:
    sys.path.insert(0, str(ROOT))
    os.chdir(ROOT)
    for name, data in OLDER.items():
        path = HERE / f"{name}.json"
        path.parent.mkdir(exist_ok=True)
        path.write_text(json.dumps(data), encoding="utf-8")  # as tests/test_storage.py writes it
        expect(path, "save")
        print(f"{name}: kept as found")
    only = set(sys.argv[1:])  # games named on the command line: only their cases are written again
    for case in CASES:
        if only and case.game not in only:
            continue
        path = write(case)
        expect(path, case.written_by)
        record = json.loads(path.read_text(encoding="utf-8"))
        result = record["result"]["reason"] if record["result"] else "unfinished"
        kinds = sorted({action["type"] for action in actions(record)})
        print(f"{case.game}/{case.name}: {len(record['actions'])} actions, {result}, seed {record['seed']}, "
              f"{', '.join(kinds)}")
    if only and "rbc" not in only:
        return 0
    path = HERE / "rbc" / "imported-reconchess.json"
    imported(HERE / "rbc" / "king-capture.json", path)
    expect(path, "save")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
