"""Play one game between programs: the referee, the clock, the record, and the agents' failures.

Each agent is told only its own seat's observations, asked for an action when
its seat must act, and charged for the time it takes. An agent that raises,
answers something that is not one of its actions, or runs out of time loses the
game (the reason is recorded); the game always ends with a record.
"""

from __future__ import annotations

import queue
import random
import threading
import traceback
from typing import Any, Callable

from app.bots.agents import Agent, BotError
from app.bots.base import ActionRequest
from app.engine.clock import TimeControl
from app.engine.core import Adjudication, Game, IllegalAction, Reason
from app.engine.record import GameRecord, GameSession, PlayerInfo


_INF = float("inf")


class _Timeout(Exception):
    pass


class _Caller:
    """Runs an agent's calls on one daemon thread so that a slow call can be abandoned at its deadline."""

    def __init__(self) -> None:
        self._jobs: queue.Queue[tuple[Callable[[], Any], queue.Queue[tuple[bool, Any]]] | None] = queue.Queue()
        self._thread = threading.Thread(target=self._work, daemon=True, name="bot-call")
        self._thread.start()

    def _work(self) -> None:
        while True:
            item = self._jobs.get()
            if item is None:
                return
            job, answer = item
            try:
                answer.put((True, job()))
            except BaseException as error:  # noqa: BLE001 - reported to the runner
                answer.put((False, error))

    def close(self) -> None:
        """Let the thread end once it is idle (a bot stuck in a call keeps it, as a daemon, until exit)."""
        self._jobs.put(None)

    def call(self, job: Callable[[], Any], timeout: float | None) -> Any:
        answer: queue.Queue[tuple[bool, Any]] = queue.Queue(maxsize=1)
        self._jobs.put((job, answer))
        try:
            ok, value = answer.get(timeout=timeout)
        except queue.Empty:
            raise _Timeout() from None
        if not ok:
            raise value
        return value


def _describe(error: BaseException) -> str:
    frames = traceback.extract_tb(error.__traceback__)
    where = f" at {frames[-1].filename.rsplit('/', 1)[-1]}:{frames[-1].lineno}" if frames else ""
    return _shorten(f"{type(error).__name__}: {error}", 1000) + where


def run_game(game: Game, agents: list[Agent], control: TimeControl | None = None, seed: int | None = None,
             on_step: Callable[[GameSession], None] | None = None,
             on_call: Callable[[int, float | None], None] | None = None, max_plies: int | None = None,
             on_finished: Callable[[GameRecord], None] | None = None) -> GameRecord:
    """Play ``game`` to its end between ``agents`` (one per seat) and return the record.

    With a timed ``control``, each call into an agent runs on a helper thread and
    is abandoned when the seat's clock runs out (the seat loses on time).
    Untimed games call agents directly: the fastest path, used by benchmarks.
    ``max_plies`` ends a game that is still going after that many turns as a draw
    (a safety limit for matches of games that have no automatic draw).
    ``on_call(seat, seconds)`` is told before each call into an agent (a match's
    watchdog uses it); ``on_finished(record)`` gets the final record before the
    agents' end-of-game hooks run.

    As in reconchess, the clock starts once every agent has started, and an agent
    hears the result of its own move on its own time.
    """
    control = control or TimeControl(None, 0.0)
    players = [PlayerInfo(agent.name, "bot", getattr(agent, "spec", None)) for agent in agents]
    session = GameSession(game, control, players, seed, start_clock=False)
    callers = [_Caller() for _ in agents] if not control.untimed else None
    delivered = [0] * len(agents)
    names = [agent.name for agent in agents]

    def call(seat: int, job: Callable[[], Any], limit: float | None = None) -> Any:
        if callers is None:
            if on_call is not None:
                on_call(seat, None)  # lets a match tell which bot was running if the whole process dies
            return job()
        seconds = max(0.0, session.seconds_left(seat)) if limit is None else limit
        if on_call is not None:
            on_call(seat, seconds)
        return callers[seat].call(job, seconds)

    def fail(seat: int, reason: Reason, detail: str) -> None:
        session.adjudicate(Adjudication(seat, reason, _shorten(detail)))

    def deliver(seat: int) -> None:
        agent = agents[seat]
        if not agent.observes:
            return
        log = game.observations(seat)
        while delivered[seat] < len(log):
            observation = log[delivered[seat]]
            delivered[seat] += 1
            call(seat, lambda: agent.observe(observation))

    start_limit = None if control.initial is None else min(60.0, control.initial)
    for seat, agent in enumerate(agents):
        opponent = names[1 - seat] if len(agents) == 2 else ""
        try:
            call(seat, lambda: agent.start(seat, game.options(), opponent), start_limit)
        except _Timeout:
            fail(seat, Reason.TIMEOUT, f"{names[seat]} took too long to start")
            break
        except BaseException as error:  # noqa: BLE001 - any failure of a bot loses its game
            fail(seat, Reason.FORFEIT, f"{names[seat]} failed to start: {_describe(error)}")
            break
    session.start_clock()

    while not game.is_over:
        mover = game.to_move
        assert mover is not None
        seat = mover
        agent = agents[seat]
        try:
            if agent.observes:
                deliver(seat)
            request = ActionRequest(seat, game.phase, game.choices(),
                                    session.seconds_left(seat) if callers is not None else _INF)
            action = call(seat, lambda: agent.act(request))
        except _Timeout:
            fail(seat, Reason.TIMEOUT, f"{names[seat]} ran out of time")
            break
        except BotError as error:
            fail(seat, Reason.FORFEIT, f"{names[seat]}: {error}")
            break
        except BaseException as error:  # noqa: BLE001
            if isinstance(error, KeyboardInterrupt):
                raise
            fail(seat, Reason.FORFEIT, f"{names[seat]} raised {_describe(error)}")
            break
        if callers is not None and session.check_time():
            break
        try:
            session.play(seat, action, defer=agent.observes)
        except IllegalAction as error:
            fail(seat, Reason.FORFEIT, f"{names[seat]} answered an illegal action: {error}")
            break
        except Exception as error:  # noqa: BLE001 - whatever a bot hands back must not crash the game
            fail(seat, Reason.FORFEIT, f"{names[seat]} answered {_shorten(repr(action), 200)}, "
                                       f"which is not an action ({_describe(error)})")
            break
        if agent.observes and not game.is_over:
            try:
                deliver(seat)  # the mover hears its result at once, on its own time, as in reconchess
            except _Timeout:
                fail(seat, Reason.TIMEOUT, f"{names[seat]} ran out of time")
                break
            except BaseException as error:  # noqa: BLE001
                fail(seat, Reason.FORFEIT, f"{names[seat]} raised {_describe(error)}")
                break
        session.finish_step()
        if on_step is not None:
            on_step(session)
        if max_plies is not None and not game.is_over and game.ply >= max_plies:
            fail(seat, Reason.TURN_LIMIT, f"the match's limit of {max_plies} turns was reached")
            break
    session.finish_step()

    record = session.record
    outcome = game.outcome
    assert outcome is not None
    if on_finished is not None:
        on_finished(record)
    for seat, agent in enumerate(agents):
        try:
            if on_call is not None:
                on_call(seat, 10.0)
            if callers is None:
                deliver(seat)
                agent.end(outcome, record)
            else:
                def deliver_and_end(seat: int = seat, agent: Agent = agent) -> None:
                    _drain(game, seat, delivered, agent)
                    agent.end(outcome, record)
                callers[seat].call(deliver_and_end, 10.0)
        except BaseException:  # noqa: BLE001 - the game is over; a bot failing to clean up changes nothing
            pass
    for caller in callers or ():
        caller.close()
    return record


def _shorten(text: str, limit: int = 2000) -> str:
    return text if len(text) <= limit else text[:limit - 20] + f"... ({len(text)} characters)"


def _drain(game: Game, seat: int, delivered: list[int], agent: Agent) -> None:
    log = game.observations(seat)
    while delivered[seat] < len(log):
        agent.observe(log[delivered[seat]])
        delivered[seat] += 1


def seed_everything(seed: int) -> None:
    """Seed the global random module: hosted reconchess bots use it."""
    random.seed(seed)
