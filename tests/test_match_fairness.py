"""Fair play in headless matches: outside bots in processes of their own, every failure scored with a record,
bots checked before the match without harm, time limits in untimed games, and pools of referees that last."""

from __future__ import annotations

import json
import multiprocessing
import os
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from app.hosting.agents import BotSpec
from app.bots.contract import BotAgent, BotError
from app.bots.base import ActionRequest, Bot
from app.engine.clock import TimeControl
from app.engine.core import Action, Reason
from app.games.rbc.rules import ReconChess
from app.hosting.match import DEFAULT_MOVE_LIMIT, GameSummary, run_match
from app.hosting.runner import run_game

BOTS = Path(__file__).parent / "bots"
HOSTILE = BOTS / "hostile.py"
ROOT = Path(__file__).resolve().parent.parent


def hostile(name: str) -> str:
    return f"{HOSTILE}:{name}"


def reports(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def assert_lost_with_record(game: GameSummary, loser_spec: str, reason: str, words: str) -> None:
    loser = 0 if game.seats[0] == loser_spec else 1
    assert (game.winner, game.reason) == (1 - loser, reason), game
    assert words in game.detail, game.detail
    assert game.path is not None, "no record was written"
    record = json.loads(Path(game.path).read_text())
    assert record["result"]["reason"] == reason and record["result"]["winner"] == 1 - loser


# -- item 4: an outside bot cannot see the referee or the other seat --------------------------------------------

@pytest.mark.parametrize("opponent", ["random", "spy"])
def test_an_outside_bot_finds_neither_the_true_board_nor_the_other_bot(
        opponent: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "reports.jsonl"
    monkeypatch.setenv("SIGHTLINE_HOSTILE_REPORT", str(log))
    other = hostile("Spy") if opponent == "spy" else "random"
    result = run_match("rbc", hostile("Spy"), other, games=2, seed=3, control=TimeControl(None, 0),
                       swap_colors=True, max_plies=30)
    assert all(game.reason != "forfeit" for game in result.games), [game.detail for game in result.games]
    seen = [entry for entry in reports(log) if entry["kind"] == "spy"]
    assert len(seen) >= 4  # it did look, at every move of every game
    for entry in seen:
        assert (entry["referees"], entry["boards"], entry["players"], entry["bots"], entry["agents"],
                entry["frames"]) == (0, 0, 0, 0, 0, 0), entry


# -- item 5: any failure loses the game for that bot, with a record ---------------------------------------------

@pytest.mark.parametrize("name, reason, words", [
    ("Interrupter", "forfeit", "Interrupter raised KeyboardInterrupt"),
    ("Exiter", "forfeit", "Exiter raised SystemExit"),
    ("Unprintable", "forfeit", "_Unprintable (its message cannot be printed)"),
])
def test_a_bot_that_raises_anything_loses_with_a_record(name: str, reason: str, words: str, tmp_path: Path) -> None:
    spec = hostile(name)
    result = run_match("rbc", spec, "random", games=2, seed=1, control=TimeControl(None, 0), swap_colors=True,
                       out_dir=str(tmp_path))
    assert len(result.games) == 2
    for game in result.games:
        assert_lost_with_record(game, spec, reason, words)


class _InterruptingBot(Bot):
    variant = "rbc"
    name = "interrupting"

    def act(self, request: ActionRequest) -> Action:
        raise KeyboardInterrupt


class _Unprintable(Exception):
    def __str__(self) -> str:
        raise RuntimeError("cannot be printed")


class _UnprintableBot(Bot):
    variant = "rbc"
    name = "unprintable"

    def act(self, request: ActionRequest) -> Action:
        raise _Unprintable()


@pytest.mark.parametrize("bot, words", [(_InterruptingBot, "raised KeyboardInterrupt"),
                                        (_UnprintableBot, "_Unprintable (its message cannot be printed)")])
def test_the_runner_scores_any_exception_of_an_agent(bot: type[Bot], words: str) -> None:
    from app.games.rbc.bots import RBCRandomBot
    agents = [BotAgent(RBCRandomBot(seed=1), "random"), BotAgent(bot(), bot.name)]
    record = run_game(ReconChess(), agents)
    assert record.result is not None
    assert (record.result.winner, record.result.reason) == (0, Reason.FORFEIT)
    assert words in record.result.detail


# -- item 6: bots are checked in a worker, with a time limit ---------------------------------------------------

def _cli(*arguments: str, timeout: float = 60.0) -> subprocess.CompletedProcess[str]:
    code = "import sys; from app.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *arguments], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout)


def test_a_bot_that_exits_while_loading_is_refused_and_the_match_says_so() -> None:
    run = _cli("match", "--white", str(BOTS / "exits_at_import.py"), "--black", "random", "--quiet")
    assert run.returncode == 2, (run.returncode, run.stderr)
    assert "exits_at_import.py ended its process while being loaded (exit code 4)" in run.stderr
    assert "Traceback" not in run.stderr


def test_a_bot_that_hangs_while_loading_is_stopped_at_the_limit() -> None:
    run = _cli("match", "--white", str(BOTS / "sleeps_at_import.py"), "--black", "random", "--quiet",
               "--time", "1+0", timeout=30.0)
    assert run.returncode == 2, (run.returncode, run.stderr)
    assert "sleeps_at_import.py took longer than 1 s to load, and was stopped" in run.stderr


def test_another_games_builtin_bot_is_named_as_such() -> None:
    with pytest.raises(BotError, match="'greedy' is not a built-in rbc bot: it is a Blind Chess and Cloak and "
                                      "Dagger bot"):  # every game that has one is named
        BotSpec("greedy", "rbc").check()
    with pytest.raises(BotError, match="it is a Blind Chess and Cloak and Dagger bot"):
        BotSpec("sightline:greedy", "rbc").check()
    with pytest.raises(BotError, match="'search' is not a built-in blind bot: it is a MinitChess bot"):
        run_match("blind", "search", "random")


# -- item 7: untimed games have a limit per call ----------------------------------------------------------------

def test_a_bot_that_never_answers_an_untimed_game_loses_on_time(tmp_path: Path) -> None:
    assert DEFAULT_MOVE_LIMIT >= 60
    spec = hostile("Silent")
    result = run_match("rbc", spec, "random", games=2, control=TimeControl(None, 0), swap_colors=True,
                       out_dir=str(tmp_path), move_limit=0.3)
    for game in result.games:
        assert_lost_with_record(game, spec, "timeout", "Silent ran out of time")


# -- item 8: processes of a bot die with its game; killing the fork server breaks nothing ------------------------

def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")  # a zombie has ended; it only waits for its parent to read its status


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
# A child in the bot's process group; one out of it; one out of it that starts another out of its own (a sweep that
# looked once at what its referee had adopted missed the grandchild, handed over when the child it killed ended).
@pytest.mark.parametrize("bot, started", [("Spawner", 1), ("Escaper", 1), ("Burrower", 2)])
def test_processes_a_bot_starts_do_not_outlive_its_game(bot: str, started: int, tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "reports.jsonl"
    monkeypatch.setenv("SIGHTLINE_HOSTILE_REPORT", str(log))
    result = run_match("rbc", hostile(bot), "random", games=2, control=TimeControl(None, 0),
                       out_dir=str(tmp_path), max_plies=6)
    assert all(game.path is not None for game in result.games)
    children = [entry["child"] for entry in reports(log) if entry["kind"] == "child"]
    assert len(children) == 2 * started
    left = [pid for pid in children if _running(pid)]
    for pid in left:
        os.kill(pid, 9)  # not for the next tests
    assert not left


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_what_a_bot_starts_ends_when_it_kills_its_referee(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Its referee can sweep nothing then: the bot's worker ends what is below it as it leaves (it left at once,
    # when it saw its referee gone, and the child it had started out of its session lived on).
    log = tmp_path / "reports.jsonl"
    monkeypatch.setenv("SIGHTLINE_HOSTILE_REPORT", str(log))
    result = run_match("rbc", hostile("RefereeKiller"), "random", games=1, control=TimeControl(None, 0),
                       out_dir=str(tmp_path), max_plies=6)
    [game] = result.games
    assert (game.winner, game.reason) == (1, "forfeit"), game
    [child] = [entry["child"] for entry in reports(log) if entry["kind"] == "child"]
    deadline = time.monotonic() + 20  # the worker ends it on its own time, once it sees its referee gone
    while _running(child) and time.monotonic() < deadline:
        time.sleep(0.01)
    if _running(child):
        os.kill(child, 9)
        pytest.fail("the child of a bot that killed its referee outlived the game")


def test_a_bot_that_kills_the_fork_server_loses_and_the_match_goes_on(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "reports.jsonl"
    monkeypatch.setenv("SIGHTLINE_HOSTILE_REPORT", str(log))
    spec = hostile("ParentKiller")
    result = run_match("rbc", spec, "random", games=3, control=TimeControl(None, 0), swap_colors=True,
                       out_dir=str(tmp_path))
    assert len([entry for entry in reports(log) if entry["kind"] == "killed"]) == 3  # it did, every game
    for game in result.games:
        assert_lost_with_record(game, spec, "forfeit", "ParentKiller stopped the process that Sightline starts "
                                                       "bots from")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_bot_that_kills_its_referee_during_the_other_bots_turn_does_not_win(tmp_path: Path,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "reports.jsonl"
    monkeypatch.setenv("SIGHTLINE_HOSTILE_REPORT", str(log))
    result = run_match("rbc", hostile("Framer"), hostile("Thinker"), games=1, control=TimeControl(None, 0),
                       out_dir=str(tmp_path), move_limit=60)
    assert [entry["kind"] for entry in reports(log)] == ["framed"]  # it did, while the Thinker was called
    [game] = result.games
    assert (game.winner, game.reason) == (None, "aborted"), game
    assert "Framer" in game.detail and "may have killed it" in game.detail, game.detail


def test_a_dead_referee_is_blamed_on_the_called_seat_when_it_is_the_only_outside_bot() -> None:
    from app.hosting.match import GameJob, _crashed
    job = GameJob(0, "rbc", {}, (hostile("Thinker"), "random"), TimeControl(None, 0), 0, None)
    names = {hostile("Thinker"): "Thinker"}
    game = _crashed(job, -9, 0, names, (0, 1))
    assert (game.winner, game.reason) == (1, "forfeit") and "Thinker crashed" in game.detail
    game = _crashed(job, -9, 1, names, (0, 1))  # random was called, but Thinker runs outside: it may have done it
    assert (game.winner, game.reason) == (None, "aborted")
    both = GameJob(0, "rbc", {}, ("attacker", "random"), TimeControl(None, 0), 0, None)
    assert _crashed(both, -9, 1, {}, (0, 1)).winner == 0


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="prctl")
def test_outside_bots_can_neither_ptrace_nor_read_the_referee_or_each_other(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import app.hosting.match
    log = tmp_path / "reports.jsonl"
    monkeypatch.setenv("SIGHTLINE_HOSTILE_REPORT", str(log))
    run_match("rbc", hostile("Prober"), "random", games=1, control=TimeControl(None, 0), max_plies=2)
    assert [entry["dumpable"] for entry in reports(log)] == [0]  # the bot's worker
    sys.path.insert(0, str(BOTS))
    try:
        from hostile import dumpable
    finally:
        sys.path.remove(str(BOTS))
    play = app.hosting.match._play_job_safely

    def probe(job: Any, on_call: Any, report: Any, names: Any, *more: Any) -> GameSummary:  # in the referee
        def tell(summary: GameSummary) -> None:
            summary.detail = f"dumpable {dumpable()}"
            report(summary)
        return play(job, on_call, tell, names, *more)

    monkeypatch.setattr(app.hosting.match, "_may_fork", lambda: True)
    monkeypatch.setattr(app.hosting.match, "_play_job_safely", probe)
    [game] = run_match("rbc", "random", "random", games=1, control=TimeControl(None, 0), max_plies=2).games
    assert game.detail == "dumpable 0"


def test_a_referee_that_crashes_in_its_own_code_after_a_bot_answered_blames_no_bot(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import signal
    import app.hosting.match
    from app.engine.record import GameSession
    play = GameSession.play

    def crash(self: GameSession, seat: int, action: Any, defer: bool = False) -> None:  # in the forked referee
        if self.game.ply == 3:  # the bot to move has answered: the referee dies in its own code
            os.kill(os.getpid(), signal.SIGKILL)
        play(self, seat, action, defer)

    monkeypatch.setattr(app.hosting.match, "_may_fork", lambda: True)
    monkeypatch.setattr(GameSession, "play", crash)
    [game] = run_match("rbc", "random", "attacker", games=1, control=TimeControl(None, 0)).games
    assert (game.winner, game.reason) == (None, "error"), game
    assert "outside any bot" in game.detail


def test_games_not_played_to_a_result_are_neither_wins_draws_nor_losses() -> None:
    from app.hosting.match import MatchResult, format_table
    games = [GameSummary(0, ("a", "b"), 0, "king_capture", "", 40, None),
             GameSummary(1, ("b", "a"), None, "move_limit", "", 300, None),
             GameSummary(2, ("a", "b"), None, "error", "the referee process died", 0, None),
             GameSummary(3, ("b", "a"), None, "aborted", "the game was aborted: its referee died", 0, None)]
    result = MatchResult(("a", "b"), ("White", "Black"), games)
    assert result.score("a") == (1, 1, 0)
    assert result.unplayed() == games[2:]
    table = format_table(result)
    assert "a: 1 wins, 1 draws, 0 losses" in table
    assert "2 games not played to a result: 1 aborted, 1 error" in table
    assert [line for line in table.splitlines() if line.startswith("draw")] == [
        line for line in table.splitlines() if line.startswith("draw") and "move_limit" in line]


def test_a_game_whose_referee_dies_before_it_begins_is_played_by_another(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import signal
    import app.hosting.match
    play = app.hosting.match._play_job_safely

    def die_once(job: Any, *args: Any) -> GameSummary:  # in the (forked) referee, once it reported idle
        if job.index == 1:
            try:
                os.close(os.open(tmp_path / "died", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            except FileExistsError:
                pass
            else:
                os.kill(os.getpid(), signal.SIGKILL)
        return play(job, *args)

    monkeypatch.setattr(app.hosting.match, "_may_fork", lambda: True)
    monkeypatch.setattr(app.hosting.match, "_play_job_safely", die_once)
    result = run_match("rbc", "random", "attacker", games=3, control=TimeControl(None, 0), jobs=1)
    assert (tmp_path / "died").exists()
    assert [game.index for game in result.games] == [0, 1, 2]
    assert all(game.reason in ("king_capture", "move_limit") for game in result.games), result.games


# -- item 13: jobs are made as they are needed -----------------------------------------------------------------

class _Enough(Exception):
    pass


def test_a_huge_match_starts_at_once_and_stops_cleanly() -> None:
    played: list[int] = []

    def progress(done: int, total: int, summary: GameSummary) -> None:
        played.append(done)
        if done == 3:
            raise _Enough()

    with pytest.raises(_Enough):
        run_match("rbc", "random", "random", games=10 ** 12, control=TimeControl(None, 0), jobs=2,
                  progress=progress)
    assert played == [1, 2, 3]
    assert not [child for child in multiprocessing.active_children() if child.name == "sightline-referee"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_match_stopped_in_a_game_leaves_no_process_a_bot_detached(tmp_path: Path,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    import signal
    import time
    log = tmp_path / "reports.jsonl"
    monkeypatch.setenv("SIGHTLINE_HOSTILE_REPORT", str(log))

    def progress(done: int, total: int, summary: GameSummary) -> None:
        raise _Enough()  # as Ctrl-C would: the referee is still in the game (its bot's end-of-game hook)

    with pytest.raises(_Enough):
        run_match("rbc", hostile("Detacher"), "random", games=2, control=TimeControl(None, 0), max_plies=4,
                  progress=progress)
    children = [entry["child"] for entry in reports(log) if entry["kind"] == "child"]
    assert len(children) == 1
    try:
        for _ in range(500):  # a killed process may take a moment to be gone
            if not _running(children[0]):
                break
            time.sleep(0.01)
        assert not _running(children[0])
    finally:
        try:
            os.kill(children[0], signal.SIGKILL)
        except OSError:
            pass


# -- item 23: referees last from game to game -------------------------------------------------------------------

@pytest.fixture(params=["forked", "from the fork server"])
def referee_start(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Referees of Sightline's own bots are forked when this process runs one thread; otherwise (and for
    outside bots) they come from the fork server. Both ways must behave the same."""
    import app.hosting.match
    if request.param != "forked":
        monkeypatch.setattr(app.hosting.match, "_may_fork", lambda: False)
    return str(request.param)


def referees_started(monkeypatch: pytest.MonkeyPatch) -> list[int | None]:
    """The process ids of the referees a match starts, taken in this process as each is started (a referee that
    reports its game and leaves may be gone before anything here could look for it among the children)."""
    import app.hosting.match
    started: list[int | None] = []

    class Counted(app.hosting.match._Referee):
        def __init__(self, context: Any, setup: Any) -> None:
            super().__init__(context, setup)
            started.append(self.process.pid)

    monkeypatch.setattr(app.hosting.match, "_Referee", Counted)
    return started


def stamp_referee_pids(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each game summary of a forked referee ends with " [referee <pid>]": the process that played it."""
    import app.hosting.match
    play = app.hosting.match._play_job_safely

    def stamped(job: Any, on_call: Any = None, report: Any = None, *more: Any) -> GameSummary:  # in the referee
        def tell(summary: GameSummary) -> None:
            summary.detail += f" [referee {os.getpid()}]"
            if report is not None:
                report(summary)
        return play(job, on_call, tell, *more)

    monkeypatch.setattr(app.hosting.match, "_may_fork", lambda: True)
    monkeypatch.setattr(app.hosting.match, "_play_job_safely", stamped)


def referee_pids(games: Any) -> list[int]:
    """The referee of each game, as :func:`stamp_referee_pids` stamped it."""
    import re
    pids = [re.search(r" \[referee (\d+)\]$", game.detail) for game in games]
    assert all(pids), [game.detail for game in games]
    return [int(pid.group(1)) for pid in pids if pid]


def test_referee_processes_play_game_after_game(referee_start: str, monkeypatch: pytest.MonkeyPatch) -> None:
    referees = referees_started(monkeypatch)
    result = run_match("rbc", "random", "attacker", games=8, seed=2, control=TimeControl(None, 0), jobs=2)
    assert len(result.games) == 8 and all(game.reason in ("king_capture", "move_limit") for game in result.games)
    assert len(referees) == len(set(referees)) == 2
    assert not [child for child in multiprocessing.active_children() if child.name == "sightline-referee"]


def test_matches_are_repeatable_whatever_the_number_of_referees() -> None:
    one = run_match("rbc", "random", "attacker", games=6, seed=9, control=TimeControl(None, 0), jobs=1)
    two = run_match("rbc", "random", "attacker", games=6, seed=9, control=TimeControl(None, 0), jobs=2)
    assert [(g.winner, g.reason, g.plies) for g in one.games] == [(g.winner, g.reason, g.plies) for g in two.games]


def test_the_environment_reaches_outside_bots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "elsewhere.jsonl"
    monkeypatch.setenv("SIGHTLINE_HOSTILE_REPORT", str(log))  # the spy writes where the caller's environment says
    run_match("rbc", hostile("Spy"), "random", games=1, control=TimeControl(None, 0), max_plies=4)
    assert reports(log) and os.environ["SIGHTLINE_HOSTILE_REPORT"] == str(log)


def test_games_of_a_referee_that_dies_are_scored_or_played_elsewhere(referee_start: str) -> None:
    killed: list[int] = []

    def progress(done: int, total: int, summary: GameSummary) -> None:
        if done == 2:  # stop every referee now, whatever it is doing; each holds a game and one queued
            for child in multiprocessing.active_children():
                if child.name == "sightline-referee" and child.pid is not None:
                    os.kill(child.pid, 9)
                    killed.append(child.pid)

    result = run_match("rbc", "random", "attacker", games=12, seed=4, control=TimeControl(None, 0), jobs=2,
                       progress=progress)
    assert killed
    assert [game.index for game in result.games] == list(range(12))  # each game once: none lost, none twice
    broken = [game for game in result.games if game.reason not in ("king_capture", "move_limit")]
    assert len(broken) <= len(killed)  # only the games being played when their referee died
    assert all(game.path is None and "process" in game.detail for game in broken)


def test_a_match_that_cannot_start_a_process_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    import app.hosting.match

    def refuse(*args: Any) -> None:
        raise BlockingIOError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(app.hosting.match, "_Referee", refuse)
    with pytest.raises(app.hosting.match.MatchError, match="cannot start a process to play the games in: "
                                                   "BlockingIOError"):
        run_match("rbc", "random", "random", games=2, control=TimeControl(None, 0))


def test_a_frozen_referee_is_blamed_on_the_called_seat_only_when_no_outside_bot_could_have_frozen_it() -> None:
    from app.hosting.match import GameJob, _overran
    job = GameJob(0, "rbc", {}, (hostile("Thinker"), "random"), TimeControl(60, 0), 0, None)
    names = {hostile("Thinker"): "Thinker"}
    game = _overran(job, 0, names, (0, 1))
    assert (game.winner, game.reason) == (1, "timeout") and "Thinker ran out of time" in game.detail
    game = _overran(job, 1, names, (0, 1))  # random was called, but Thinker runs outside: it may have sent SIGSTOP
    assert (game.winner, game.reason) == (None, "aborted") and "may have stopped it" in game.detail
    both = GameJob(0, "rbc", {}, ("attacker", "random"), TimeControl(60, 0), 0, None)
    assert (_overran(both, 1, {}, (0, 1)).winner, _overran(both, 1, {}, (0, 1)).reason) == (0, "timeout")


# -- issue 26, item 16: a built-in bot stuck in end() -------------------------------------------------------------

class _StuckAtTheEnd(Bot):
    """Plays the first of its choices; its end() waits until the test lets it go (as long as it likes)."""

    release = threading.Event()

    def act(self, request: ActionRequest) -> Action:
        from app.games.rbc.rules import MoveAction, Sense
        return Sense(None) if request.phase == "sense" else MoveAction(None)

    def end(self, outcome: Any) -> None:
        self.release.wait()


@pytest.mark.parametrize("control", [TimeControl(None, 0), TimeControl(60, 0)], ids=["untimed", "timed"])
def test_a_bot_stuck_in_end_does_not_keep_the_game_waiting(control: TimeControl,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """end() is bounded like every other call, untimed games included: the game finishes with its result, the
    runner says a thread was left behind in the bot's code (a thread cannot be stopped; a match's referee then
    leaves), and that thread is the only one of the runner's still running, a daemon, gone once the bot returns."""
    import app.hosting.runner
    monkeypatch.setattr(app.hosting.runner, "_END_LIMIT", 0.2)
    _StuckAtTheEnd.release.clear()
    # The threads themselves, not their idents: a thread that ends during the test (a previous test's, say)
    # hands its ident to the next thread started, which would then pass for one that was already there.
    earlier_done = threading.Event()
    earlier = threading.Thread(target=earlier_done.wait, daemon=True)  # such a thread, ending as the game starts
    earlier.start()
    before = set(threading.enumerate())
    stuck_before = app.hosting.runner.stuck_calls()
    records: list[Any] = []
    agents = [BotAgent(_StuckAtTheEnd(), "stuck"), BotAgent(_StuckAtTheEnd(), "stuck too")]
    host = threading.Thread(target=lambda: records.append(run_game(ReconChess(), agents, control, max_plies=4)),
                            daemon=True)
    try:
        earlier_done.set()
        earlier.join()
        host.start()
        host.join(30.0)  # a bound, not a timing: before the fix an untimed game waited here for ever
        assert not host.is_alive(), "the game waited for a bot's end()"
        [record] = records
        assert record.result is not None and record.result.reason is Reason.TURN_LIMIT
        assert app.hosting.runner.stuck_calls() == stuck_before + 2
        left = [thread for thread in threading.enumerate() if thread not in before]
        assert len(left) == 2 and all(thread.daemon and thread.name == "bot-call" for thread in left), left
    finally:
        _StuckAtTheEnd.release.set()
    for thread in left:
        thread.join(10.0)
    assert app.hosting.runner.stuck_calls() == stuck_before
    assert not [thread for thread in threading.enumerate() if thread not in before]


def test_a_call_given_up_before_its_thread_took_it_counts_as_stuck(monkeypatch: pytest.MonkeyPatch) -> None:
    """A call abandoned at its deadline while its thread has not yet taken it up will still run the bot's code:
    it is stuck from the moment it is handed over until it has answered (a referee with one must leave)."""
    import time

    import app.hosting.runner
    gate = threading.Event()
    work = app.hosting.runner._Caller._work

    def late(self: Any) -> None:  # the thread is slow to take up its first call
        gate.wait(30.0)
        work(self)

    monkeypatch.setattr(app.hosting.runner._Caller, "_work", late)
    caller = app.hosting.runner._Caller()
    ran: list[bool] = []
    try:
        with pytest.raises(app.hosting.runner._Timeout):
            caller.call(lambda: ran.append(True), 0.01)
        assert caller.stuck and not ran
    finally:
        gate.set()
    for _ in range(3000):  # a bound, not a timing: the call runs now, then the thread is idle again
        if not caller.stuck:
            break
        time.sleep(0.01)
    assert ran and not caller.stuck
    caller.close()
    app.hosting.runner._ABANDONED.discard(caller)


def test_a_referee_left_with_a_bot_stuck_in_end_is_replaced(monkeypatch: pytest.MonkeyPatch) -> None:
    """In a match, the referee whose built-in bot's end() never returns finishes the game at the limit, reports
    it, and leaves (its stuck thread with it); the next game is another referee's, as after other bot failures."""
    import time
    import app.hosting.match
    import app.hosting.runner
    from app.games.rbc.bots import RBCRandomBot

    def sleep_for_ever(self: Bot, outcome: Any) -> None:  # in the forked referee, for the White bot only
        while self.seat == 0:
            time.sleep(3600)

    stamp_referee_pids(monkeypatch)
    monkeypatch.setattr(app.hosting.runner, "_END_LIMIT", 0.2)
    monkeypatch.setattr(RBCRandomBot, "end", sleep_for_ever)
    result = run_match("rbc", "random", "random", games=3, seed=1, control=TimeControl(60, 0), jobs=1,
                       max_plies=6)
    assert all(game.reason in ("turn_limit", "king_capture") for game in result.games), result.games
    assert len(set(referee_pids(result.games))) == 3  # each game's referee left after it
    assert not [child for child in multiprocessing.active_children() if child.name == "sightline-referee"]


def test_an_overrun_is_scored_as_the_game_ends_a_flag_fall_unless_an_outside_bot_may_be_to_blame() -> None:
    from app.engine.core import Outcome
    from app.hosting.match import GameJob, _overran
    flagged = Outcome(None, Reason.MATERIAL, "White ran out of time; material is equal (39-39)", (39, 39))
    job = GameJob(0, "blind", {}, ("random", "greedy"), TimeControl(60, 0), 0, None)
    game = _overran(job, 0, {}, (0, 1), flagged)
    assert (game.winner, game.reason, game.scores) == (None, "material", (39, 39))
    assert game.detail.startswith("White ran out of time; material is equal") and "process was stopped" in game.detail
    assert (_overran(job, 0, {}, (0, 1)).winner, _overran(job, 0, {}, (0, 1)).reason) == (1, "timeout")
    outside = GameJob(0, "rbc", {}, (hostile("Thinker"), "random"), TimeControl(60, 0), 0, None)
    assert _overran(outside, 1, {hostile("Thinker"): "Thinker"}, (0, 1), flagged).reason == "aborted"


def test_the_flag_memory_reads_back_what_the_referee_wrote_and_nothing_else() -> None:
    import ctypes
    import json
    from types import SimpleNamespace
    from app.engine.core import Outcome
    from app.hosting.match import _FLAG_BYTES, GameJob, _Referee, _share
    memory = SimpleNamespace(flag_memory=(ctypes.c_ubyte * _FLAG_BYTES)())
    job = GameJob(4, "blind", {}, ("random", "greedy"), TimeControl(60, 0), 0, None)
    assert _Referee.flag_outcome(memory, job, 0, (0, 1)) is None  # nothing written: a plain loss on time
    flagged = Outcome(1, Reason.MATERIAL, "White ran out of time; Black has more material (30-39)", (30, 39))
    _share(memory.flag_memory, json.dumps([4, {"0": flagged.to_json()}]).encode())
    assert _Referee.flag_outcome(memory, job, 0, (0, 1)) == flagged.settled((0, 1))
    assert _Referee.flag_outcome(memory, job, 1, (0, 1)) is None  # not said for that seat
    assert _Referee.flag_outcome(memory, GameJob(5, "blind", {}, ("random", "greedy"), TimeControl(60, 0), 0, None),
                                 0, (0, 1)) is None  # another game's
    for junk in (b"\x80\x04junk", b'[4, {"0": {"winner": 7, "reason": "material"}}]', b"x" * (_FLAG_BYTES + 10)):
        _share(memory.flag_memory, junk)
        assert _Referee.flag_outcome(memory, job, 0, (0, 1)) is None


def test_a_game_handed_to_a_referee_that_has_just_died_is_played_by_another() -> None:
    """The pool hands a referee a game before it notices the referee died (killed between two looks): the
    send finds the pipe closed; the game must be played elsewhere, not end the match with BrokenPipeError."""
    from app.hosting.match import GameJob, _Pool, _Setup
    setup = _Setup("rbc", {"random": "random"}, dict(os.environ), os.getcwd(), (0, 1))
    pool = _Pool(multiprocessing.get_context("fork"), setup, 1)

    def job(index: int) -> GameJob:
        return GameJob(index, "rbc", {}, ("random", "random"), TimeControl(None, 0), index, None)

    try:
        assert pool.take(job(0))
        referee = pool.referees[0]
        os.kill(referee.process.pid, 9)
        referee.process.join(10.0)
        assert pool.take(job(1))  # no BrokenPipeError: the game waits with the referee's others
        deadline = time.monotonic() + 30.0
        while pool.referees and time.monotonic() < deadline:
            pool.wait()
        assert not pool.referees and 1 in [queued.index for queued in pool.returned]
    finally:
        pool.kill()
