"""reconchess players that attack the match around them (used by tests/test_match_fairness.py).

Each reports what it did through a file named by the environment variable SIGHTLINE_HOSTILE_REPORT (one JSON
line per report), since it runs in a process of its own.
"""

import gc
import json
import os
import signal
import subprocess
import sys
import time

import chess
from reconchess import Player


def report(**fields):
    path = os.environ.get("SIGHTLINE_HOSTILE_REPORT")
    if path:
        with open(path, "a") as stream:
            stream.write(json.dumps(dict(fields, pid=os.getpid())) + "\n")


class _Base(Player):
    def handle_game_start(self, color, board, opponent_name):
        self.color = color
        self.board = board

    def handle_opponent_move_result(self, captured_my_piece, capture_square):
        pass

    def choose_sense(self, sense_actions, move_actions, seconds_left):
        return sense_actions[0]

    def handle_sense_result(self, sense_result):
        pass

    def choose_move(self, move_actions, seconds_left):
        return None

    def handle_move_result(self, requested_move, taken_move, captured_opponent_piece, capture_square):
        pass

    def handle_game_end(self, winner_color, win_reason, game_history):
        pass


class Spy(_Base):
    """Looks through its whole process for the referee, the true board and other bots, on every move."""

    def choose_move(self, move_actions, seconds_left):
        from app.bots.contract import Agent
        from app.bots.base import Bot
        from app.engine.core import Game
        found = {"referees": 0, "boards": 0, "players": 0, "bots": 0, "agents": 0, "frames": 0}
        for obj in gc.get_objects():
            if isinstance(obj, Game):
                found["referees"] += 1
            elif isinstance(obj, chess.Board) and obj is not self.board:
                found["boards"] += 1  # the only board it was given is its own starting position
            elif isinstance(obj, Player) and obj is not self:
                found["players"] += 1
            elif isinstance(obj, Bot):
                found["bots"] += 1
            elif isinstance(obj, Agent) and getattr(obj, "player", None) is not self:
                found["agents"] += 1
        for frame in sys._current_frames().values():  # every thread's stack, down to its first frame
            while frame is not None:
                for value in list(frame.f_locals.values()):
                    if isinstance(value, (Game, Bot)) or (isinstance(value, Player) and value is not self):
                        found["frames"] += 1
                frame = frame.f_back
        report(kind="spy", **found)
        return move_actions[0] if move_actions else None


class Interrupter(_Base):
    def choose_move(self, move_actions, seconds_left):
        raise KeyboardInterrupt


class Exiter(_Base):
    def choose_sense(self, sense_actions, move_actions, seconds_left):
        raise SystemExit(0)


class _Unprintable(Exception):
    def __str__(self):
        raise RuntimeError("this exception cannot be printed")


class Unprintable(_Base):
    def choose_move(self, move_actions, seconds_left):
        raise _Unprintable()


class Silent(_Base):
    """Never answers (an untimed game must still end)."""

    def choose_move(self, move_actions, seconds_left):
        while True:
            time.sleep(0.05)


class ParentKiller(_Base):
    """Stops its parent process (for a hosted bot, the fork server its process came from) and plays on."""

    def choose_sense(self, sense_actions, move_actions, seconds_left):
        if not getattr(self, "done", False):
            self.done = True
            report(kind="killed", target=os.getppid())
            os.kill(os.getppid(), signal.SIGKILL)
        return sense_actions[0]


class Spawner(_Base):
    """Starts a long-lived child process, which must not outlive the game."""

    def handle_game_start(self, color, board, opponent_name):
        super().handle_game_start(color, board, opponent_name)
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
        report(kind="child", child=child.pid)


class Escaper(_Base):
    """Starts a long-lived child in a session of its own (out of the bot's process group)."""

    def handle_game_start(self, color, board, opponent_name):
        super().handle_game_start(color, board, opponent_name)
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"], start_new_session=True)
        report(kind="child", child=child.pid)


class Burrower(_Base):
    """Starts a long-lived child in a session of its own, which starts another in a session of its own: killing the
    child hands the grandchild over only once the child has ended."""

    def handle_game_start(self, color, board, opponent_name):
        super().handle_game_start(color, board, opponent_name)
        code = ("import subprocess, sys, time; grandchild = subprocess.Popen([sys.executable, '-c', "
                "'import time; time.sleep(120)'], start_new_session=True, stdout=subprocess.DEVNULL); "
                "print(grandchild.pid, flush=True); time.sleep(120)")
        child = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                                 start_new_session=True)
        grandchild = int(child.stdout.readline())
        report(kind="child", child=child.pid)
        report(kind="child", child=grandchild)


def _parent_of(pid):
    with open(f"/proc/{pid}/stat") as stream:
        return int(stream.read().rsplit(")", 1)[1].split()[1])


class RefereeKiller(Escaper):
    """Starts a long-lived child in a session of its own (as an Escaper), then kills its referee (its grandparent:
    bot -> the referee's fork server -> referee), which can then sweep nothing, and waits."""

    def choose_sense(self, sense_actions, move_actions, seconds_left):
        referee = _parent_of(os.getppid())
        report(kind="killed", target=referee)
        os.kill(referee, signal.SIGKILL)
        time.sleep(30)
        return sense_actions[0]


def _thinking_mark():
    return os.environ["SIGHTLINE_HOSTILE_REPORT"] + ".thinking"


class Framer(_Base):
    """Kills its referee (its grandparent: bot -> the referee's fork server -> referee) while the *other* bot is
    being called: it waits for a Thinker to say it is thinking."""

    def handle_game_start(self, color, board, opponent_name):
        super().handle_game_start(color, board, opponent_name)
        import threading
        referee = _parent_of(os.getppid())

        def frame():
            mark = _thinking_mark()
            for _ in range(3000):  # at most about 30 s
                if os.path.exists(mark):
                    report(kind="framed", target=referee)
                    os.kill(referee, signal.SIGKILL)
                    return
                time.sleep(0.01)

        threading.Thread(target=frame, daemon=True).start()


class Thinker(_Base):
    """Says it is thinking (for a Framer), then thinks until its process ends."""

    def choose_move(self, move_actions, seconds_left):
        with open(_thinking_mark(), "w"):
            pass
        for _ in range(3000):
            time.sleep(0.01)
        return None


def dumpable():
    """This process's PR_GET_DUMPABLE flag (Linux)."""
    import ctypes
    return ctypes.CDLL(None).prctl(3, 0, 0, 0, 0)


class Prober(_Base):
    """Reports whether its own process may be ptraced or read by other processes of its user."""

    def handle_game_start(self, color, board, opponent_name):
        super().handle_game_start(color, board, opponent_name)
        report(kind="dumpable", dumpable=dumpable())


class Detacher(_Base):
    """Leaves a long-lived process behind at once (double fork, a session of its own: its referee adopts it),
    then takes its time over the end of the game."""

    def handle_game_start(self, color, board, opponent_name):
        super().handle_game_start(color, board, opponent_name)
        child = os.fork()
        if child == 0:
            try:
                os.setsid()
                grandchild = os.fork()
                if grandchild == 0:
                    os.execv(sys.executable, [sys.executable, "-c", "import time; time.sleep(120)"])
                report(kind="child", child=grandchild)
            finally:
                os._exit(0)
        os.waitpid(child, 0)

    def handle_game_end(self, winner_color, win_reason, game_history):
        for _ in range(3000):  # at most about 30 s; its referee waits for it
            time.sleep(0.01)
