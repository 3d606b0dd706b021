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

from app.bots.contract import Agent, AgentFailed, AgentTimeout, BotError, HostFailure, error_text
from app.bots.base import ActionRequest
from app.engine.clock import TimeControl
from app.engine.core import Adjudication, Game, IllegalAction, Outcome, Reason
from app.engine.record import GameRecord, GameSession, PlayerInfo


_INF = float("inf")


class _Timeout(Exception):
    pass


class _Caller:
    """Runs an agent's calls on one daemon thread so that a slow call can be abandoned at its deadline."""

    def __init__(self) -> None:
        self._jobs: queue.Queue[tuple[Callable[[], Any], queue.Queue[tuple[bool, Any]]] | None] = queue.Queue()
        self._pending = 0  # calls handed to the thread and not answered yet (counted before the thread takes them)
        self._lock = threading.Lock()
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
            finally:
                with self._lock:
                    self._pending -= 1

    @property
    def stuck(self) -> bool:
        """Whether its thread has a call still to answer (running, or not yet taken up) after one was abandoned."""
        return self._pending > 0 and self._thread.is_alive()

    def close(self) -> None:
        """Let the thread end once it is idle (a bot stuck in a call keeps it, as a daemon, until exit)."""
        self._jobs.put(None)

    def call(self, job: Callable[[], Any], timeout: float | None) -> Any:
        answer: queue.Queue[tuple[bool, Any]] = queue.Queue(maxsize=1)
        with self._lock:
            self._pending += 1
        self._jobs.put((job, answer))
        try:
            ok, value = answer.get(timeout=timeout)
        except queue.Empty:
            _ABANDONED.add(self)
            raise _Timeout() from None
        if not ok:
            raise value
        return value


_ABANDONED: set[_Caller] = set()
"""Callers whose call was given up at its deadline: their threads may still run a bot's code."""


def stuck_calls() -> int:
    """How many threads of this process are still running a bot's call that was abandoned at its deadline
    (a thread cannot be stopped: a match's referee that has any leaves and another takes its place)."""
    for caller in [caller for caller in _ABANDONED if not caller.stuck]:
        _ABANDONED.discard(caller)
    return len(_ABANDONED)


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
             move_limit: float | None = None, on_clock: Callable[[], None] | None = None,
             session: GameSession | None = None) -> GameRecord:
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
    hooks run; ``on_clock()`` is told once every agent has started and the clock
    runs (not when an agent failed to start: that agent's team has lost).

    As in reconchess, the clock starts once every agent has started, and an agent
    hears the result of its own move on its own time.

    ``session`` continues a game resumed from its autosave (``GameSession.from_snapshot`` with
    ``start_clock=False``; ``game`` is its game): every agent is started and then told all its seat has been
    told so far, as it is asked.
    """
    run = _Run(game, agents, control or TimeControl(None, 0.0), seed, on_call, move_limit, session)
    run.start()
    if on_clock is not None and not game.is_over:
        on_clock()
    while not game.is_over:
        if not run.take_turn(on_step, max_plies):
            break
    return run.finish(on_finished)


_FAILED = object()
"""What :meth:`_Run.ask` answers when the agent failed (the game is then over): ``None`` may be a bot's answer."""


class _Run:
    """One game of :func:`run_game`: the session, the agents, and how each call into an agent is made and timed.

    :meth:`start` starts the agents and the clock, :meth:`take_turn` plays one step of the seat to move and
    :meth:`finish` tells every agent how the game ended. Whatever an agent does wrong ends the game through
    :meth:`failed` (its seat loses), with the reason recorded.
    """

    def __init__(self, game: Game, agents: Sequence[Agent], control: TimeControl, seed: int | None,
                 on_call: Callable[[int, float | None], None] | None, move_limit: float | None,
                 session: GameSession | None = None) -> None:
        self.game = game
        self.agents = agents
        self.control = control
        players = [PlayerInfo(agent.name, "bot", getattr(agent, "spec", None)) for agent in agents]
        self.session = session if session is not None else GameSession(game, control, players, seed,
                                                                       start_clock=False)
        self.timed = not control.untimed
        self.callers = [None if agent.isolated else _Caller() for agent in agents] if self.timed else None
        self.delivered = [0] * len(agents)
        self.names = [agent.name for agent in agents]
        self.on_call = on_call
        self.move_limit = move_limit

    # -- the three steps of a game ---------------------------------------------------------------------------
    def start(self) -> None:
        """Start every agent (the first that fails loses the game), then the clock."""
        game, agents, control = self.game, self.agents, self.control
        start_limit = self.move_limit if control.initial is None else min(60.0, control.initial)
        teams = game.teams()
        for seat, agent in enumerate(agents):
            opponent = opponent_names(teams, self.names, seat)
            try:
                self.call(seat, lambda: agent.start(seat, game.options(), opponent), start_limit)
            except BaseException as error:  # noqa: BLE001 - any failure of a bot loses its game
                self.failed(seat, error, "start")
                break
        self.session.start_clock()

    def take_turn(self, on_step: Callable[[GameSession], None] | None, max_plies: int | None) -> bool:
        """One step of the seat to move: ask its agent, play the answer, let the mover hear its result.

        False when the game ended on the way (a failing agent, a flag fall, an illegal answer, the turn limit);
        True when the game goes on or ended by its own rules.
        """
        game = self.game
        seat = game.to_move
        assert seat is not None
        action = self.ask(seat)
        if action is _FAILED:
            return False
        if self.timed and self.session.check_time():
            return False
        if not self.play(seat, action):
            return False
        self.session.finish_step()
        if on_step is not None:
            on_step(self.session)
        if max_plies is not None and not game.is_over and game.ply >= max_plies:
            self.fail(seat, Reason.TURN_LIMIT, f"the match's limit of {max_plies} turns was reached")
            return False
        return True

    def finish(self, on_finished: Callable[[GameRecord], None] | None) -> GameRecord:
        """Close the last step, hand the record to ``on_finished``, tell every agent the result, stop the threads."""
        self.session.finish_step()
        record = self.session.record
        outcome = self.game.outcome
        assert outcome is not None
        if on_finished is not None:
            on_finished(record)
        for seat, agent in enumerate(self.agents):
            self.end(seat, agent, outcome, record)
        for caller in self.callers or ():
            if caller is not None:
                caller.close()
        return record

    # -- a turn, in parts ------------------------------------------------------------------------------------
    def ask(self, seat: int) -> Any:
        """The action ``seat``'s agent answers (after it heard what it had not heard yet), or ``_FAILED``."""
        agent = self.agents[seat]
        try:
            if agent.observes:
                self.deliver(seat)
            request = ActionRequest(seat, self.game.phase, self.game.choices(),
                                    self.session.seconds_left(seat) if self.timed else _INF)
            return self.call(seat, lambda: agent.act(request))
        except BaseException as error:  # noqa: BLE001 - even KeyboardInterrupt: a bot raised it
            self.failed(seat, error)
            return _FAILED

    def play(self, seat: int, action: Any) -> bool:
        """Play ``seat``'s answer and let its agent hear the result at once, on its own time (as in reconchess);
        False when the answer or the hearing failed (the game is then over)."""
        agent, name = self.agents[seat], self.names[seat]
        try:
            self.session.play(seat, action, defer=agent.observes)
        except IllegalAction as error:
            self.fail(seat, Reason.FORFEIT, f"{name} answered an illegal action: {error_text(error)}")
            return False
        except Exception as error:  # noqa: BLE001 - whatever a bot hands back must not crash the game
            self.fail(seat, Reason.FORFEIT, f"{name} answered {_safe_repr(action)}, "
                                            f"which is not an action ({_describe(error)})")
            return False
        if agent.observes and not self.game.is_over:
            try:
                self.deliver(seat)
            except BaseException as error:  # noqa: BLE001
                self.failed(seat, error)
                return False
        return True

    def end(self, seat: int, agent: Agent, outcome: Outcome, record: GameRecord) -> None:
        """Let ``seat``'s agent hear what it has not heard yet and the result; its failures change nothing now.

        Bounded by :data:`_END_LIMIT` like every other call, untimed games included: an agent of this process
        hears it on a helper thread (the seat's own in a timed game, a fresh one otherwise), given up at the
        limit; an isolated agent bounds the call itself. An agent still inside a call given up earlier is not
        told (the call would wait behind that one)."""
        on_call = self.on_call
        try:
            if on_call is not None:
                on_call(seat, _END_LIMIT)
            if agent.isolated:
                agent.time_limit = _END_LIMIT
                self.deliver(seat)
                agent.end(outcome, record)
                return
            caller = self.callers[seat] if self.callers is not None else None
            if caller is not None and caller.stuck:
                return  # still inside a call given up earlier: end() would only wait behind it
            own = caller is None
            if caller is None:
                caller = _Caller()

            def deliver_and_end(seat: int = seat, agent: Agent = agent) -> None:
                if agent.observes:
                    _drain(self.game, seat, self.delivered, agent)
                agent.end(outcome, record)
            try:
                caller.call(deliver_and_end, _END_LIMIT)
            finally:
                if own:
                    caller.close()
        except BaseException:  # noqa: BLE001 - the game is over; a bot failing to clean up changes nothing
            pass
        finally:
            if on_call is not None:
                on_call(-1, None)

    # -- calling an agent, and its failures ------------------------------------------------------------------
    def call(self, seat: int, job: Callable[[], Any], limit: float | None = None) -> Any:
        if limit is None:
            limit = max(0.0, self.session.seconds_left(seat)) if self.timed else self.move_limit
        on_call = self.on_call
        if on_call is None:
            return self.call_agent(seat, job, limit)
        on_call(seat, limit)  # lets a match tell which bot was running if the whole process dies
        try:
            return self.call_agent(seat, job, limit)
        finally:
            on_call(-1, None)  # back in the referee's own code: a crash now is no bot's, and no deadline runs

    def call_agent(self, seat: int, job: Callable[[], Any], limit: float | None) -> Any:
        agent = self.agents[seat]
        if agent.isolated:
            agent.time_limit = limit  # it waits for its own process, and gives up at the limit itself
            return job()
        caller = self.callers[seat] if self.callers is not None else None
        if caller is None:
            return job()
        return caller.call(job, limit)

    def fail(self, seat: int, reason: Reason, detail: str) -> None:
        self.session.adjudicate(Adjudication(seat, reason, _shorten(detail)))

    def failed(self, seat: int, error: BaseException, doing: str = "raised") -> None:
        """End the game for a failure of ``seat``'s agent (any failure loses the game for that bot). An agent too
        slow to start forfeits: no clock has run yet, so it is no flag fall (which some games decide otherwise,
        as Blind Chess does on material)."""
        name = self.names[seat]
        if isinstance(error, (_Timeout, AgentTimeout)):
            if doing == "start":
                self.fail(seat, Reason.FORFEIT, f"{name} took too long to start")
            else:
                self.fail(seat, Reason.TIMEOUT, f"{name} ran out of time")
        elif isinstance(error, HostFailure):
            self.fail(seat, Reason.ABORTED, f"the game was aborted: {error_text(error)}")
        elif isinstance(error, AgentFailed):
            self.fail(seat, Reason.FORFEIT, f"{name} {_shorten(str(error))}")
        elif isinstance(error, BotError) and doing != "start":
            self.fail(seat, Reason.FORFEIT, f"{name}: {_shorten(str(error))}")  # our own words, no frame
        elif doing == "start":
            self.fail(seat, Reason.FORFEIT, f"{name} failed to start: {_describe(error)}")
        else:
            self.fail(seat, Reason.FORFEIT, f"{name} raised {_describe(error)}")

    def deliver(self, seat: int) -> None:
        """Tell ``seat``'s agent (if it listens) the observations it has not been told yet, one call each."""
        agent = self.agents[seat]
        if not agent.observes:
            return
        log = self.game.observations(seat)
        delivered = self.delivered
        while delivered[seat] < len(log):
            observation = log[delivered[seat]]
            delivered[seat] += 1
            self.call(seat, lambda: agent.observe(observation))


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
