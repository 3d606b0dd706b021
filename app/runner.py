"""Play one game between programs: the referee, the clock, the record, and the agents' failures.

Each agent is told only its own seat's observations, asked for an action when
its seat must act, and charged for the time it takes. An agent that fails in any
way (raises any exception, even ``KeyboardInterrupt`` or one that cannot be
printed; answers something that is not one of its actions; runs out of time)
loses the game with the reason recorded; the game always ends with a record.
"""

from __future__ import annotations

import queue
import random
import threading
import traceback
from typing import Any, Callable, Sequence

from app.bots.agents import Agent, AgentFailed, AgentTimeout, BotError, HostFailure, error_text
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
    return _shorten(error_text(error), 1000) + where


def _safe_repr(value: Any) -> str:
    try:
        return _shorten(repr(value), 200)
    except BaseException:  # noqa: BLE001 - whatever a bot hands back must not crash the game
        return f"a {type(value).__name__}"


def run_game(game: Game, agents: Sequence[Agent], control: TimeControl | None = None, seed: int | None = None,
             on_step: Callable[[GameSession], None] | None = None,
             on_call: Callable[[int, float | None], None] | None = None, max_plies: int | None = None,
             on_finished: Callable[[GameRecord], None] | None = None,
             move_limit: float | None = None) -> GameRecord:
    """Play ``game`` to its end between ``agents`` (one per seat) and return the record.

    With a timed ``control``, each call into an agent runs on a helper thread and
    is abandoned when the seat's clock runs out (the seat loses on time).
    Untimed games call agents directly: the fastest path, used by benchmarks.
    ``move_limit`` bounds each call of an untimed game: an isolated agent (a bot
    in its own process) that takes longer loses on time; for agents in this
    process it is only passed to ``on_call`` (a match's watchdog enforces it).
    ``max_plies`` ends a game that is still going after that many turns as a draw
    (a safety limit for matches of games that have no automatic draw).
    ``on_call(seat, seconds)`` is told before each call into an agent, and
    ``on_call(-1, None)`` after it returns (a match's watchdog uses it);
    ``on_finished(record)`` gets the final record before the agents' end-of-game
    hooks run.

    As in reconchess, the clock starts once every agent has started, and an agent
    hears the result of its own move on its own time.
    """
    control = control or TimeControl(None, 0.0)
    players = [PlayerInfo(agent.name, "bot", getattr(agent, "spec", None)) for agent in agents]
    session = GameSession(game, control, players, seed, start_clock=False)
    timed = not control.untimed
    callers = [None if agent.isolated else _Caller() for agent in agents] if timed else None
    delivered = [0] * len(agents)
    names = [agent.name for agent in agents]

    def call(seat: int, job: Callable[[], Any], limit: float | None = None) -> Any:
        if limit is None:
            limit = max(0.0, session.seconds_left(seat)) if timed else move_limit
        if on_call is None:
            return call_agent(seat, job, limit)
        on_call(seat, limit)  # lets a match tell which bot was running if the whole process dies
        try:
            return call_agent(seat, job, limit)
        finally:
            on_call(-1, None)  # back in the referee's own code: a crash now is no bot's, and no deadline runs

    def call_agent(seat: int, job: Callable[[], Any], limit: float | None) -> Any:
        agent = agents[seat]
        if agent.isolated:
            agent.time_limit = limit  # it waits for its own process, and gives up at the limit itself
            return job()
        caller = callers[seat] if callers is not None else None
        if caller is None:
            return job()
        return caller.call(job, limit)

    def fail(seat: int, reason: Reason, detail: str) -> None:
        session.adjudicate(Adjudication(seat, reason, _shorten(detail)))

    def failed(seat: int, error: BaseException, doing: str = "raised") -> None:
        """End the game for a failure of ``seat``'s agent (any failure loses the game for that bot)."""
        if isinstance(error, (_Timeout, AgentTimeout)):
            fail(seat, Reason.TIMEOUT, f"{names[seat]} ran out of time" if doing == "raised"
                 else f"{names[seat]} took too long to start")
        elif isinstance(error, HostFailure):
            fail(seat, Reason.ABORTED, f"the game was aborted: {error_text(error)}")
        elif isinstance(error, AgentFailed):
            fail(seat, Reason.FORFEIT, f"{names[seat]} {_shorten(str(error))}")
        elif isinstance(error, BotError) and doing != "start":
            fail(seat, Reason.FORFEIT, f"{names[seat]}: {_shorten(str(error))}")  # our own words, no frame
        elif doing == "start":
            fail(seat, Reason.FORFEIT, f"{names[seat]} failed to start: {_describe(error)}")
        else:
            fail(seat, Reason.FORFEIT, f"{names[seat]} raised {_describe(error)}")

    def deliver(seat: int) -> None:
        agent = agents[seat]
        if not agent.observes:
            return
        log = game.observations(seat)
        while delivered[seat] < len(log):
            observation = log[delivered[seat]]
            delivered[seat] += 1
            call(seat, lambda: agent.observe(observation))

    start_limit = move_limit if control.initial is None else min(60.0, control.initial)
    teams = game.teams()
    for seat, agent in enumerate(agents):
        opponent = opponent_names(teams, names, seat)
        try:
            call(seat, lambda: agent.start(seat, game.options(), opponent), start_limit)
        except BaseException as error:  # noqa: BLE001 - any failure of a bot loses its game
            failed(seat, error, "start")
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
                                    session.seconds_left(seat) if timed else _INF)
            action = call(seat, lambda: agent.act(request))
        except BaseException as error:  # noqa: BLE001 - even KeyboardInterrupt: a bot raised it
            failed(seat, error)
            break
        if timed and session.check_time():
            break
        try:
            session.play(seat, action, defer=agent.observes)
        except IllegalAction as error:
            fail(seat, Reason.FORFEIT, f"{names[seat]} answered an illegal action: {error_text(error)}")
            break
        except Exception as error:  # noqa: BLE001 - whatever a bot hands back must not crash the game
            fail(seat, Reason.FORFEIT, f"{names[seat]} answered {_safe_repr(action)}, "
                                       f"which is not an action ({_describe(error)})")
            break
        if agent.observes and not game.is_over:
            try:
                deliver(seat)  # the mover hears its result at once, on its own time, as in reconchess
            except BaseException as error:  # noqa: BLE001
                failed(seat, error)
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
                on_call(seat, _END_LIMIT)
            caller = callers[seat] if callers is not None else None
            if caller is None:
                if agent.isolated:
                    agent.time_limit = _END_LIMIT
                deliver(seat)
                agent.end(outcome, record)
            else:
                def deliver_and_end(seat: int = seat, agent: Agent = agent) -> None:
                    _drain(game, seat, delivered, agent)
                    agent.end(outcome, record)
                caller.call(deliver_and_end, _END_LIMIT)
        except BaseException:  # noqa: BLE001 - the game is over; a bot failing to clean up changes nothing
            pass
        finally:
            if on_call is not None:
                on_call(-1, None)
    for caller in callers or ():
        if caller is not None:
            caller.close()
    return record


_END_LIMIT = 10.0
"""Seconds an agent may spend hearing the result once the game is over."""


def opponent_names(teams: Sequence[int], names: Sequence[str], seat: int) -> str:
    """The names of the players ``seat`` plays against (every seat of another team), joined by " and ";
    empty in a solitaire or a cooperative game, where nobody plays against it.

    >>> opponent_names((0, 1), ["attacker", "random"], 1)
    'attacker'
    >>> opponent_names((0, 1, 0, 1), ["a", "b", "c", "d"], 0)
    'b and d'
    """
    return " and ".join(name for other, name in enumerate(names) if teams[other] != teams[seat])


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
