"""A draw offered by a team of two partners, as the four-seat team games play it (Telepathy, Split-Brain).

A draw needs all four players. On its own turn, once a turn, the partner who is to act proposes it
(:class:`OfferDraw`); the other partner agrees or refuses (phase ``agree_draw``). Until the partner agrees the
offer stays inside the team: the opponents are told nothing, and a refusal ends it there. Once agreed, the offer
is told to everyone and the opponents answer (phase ``answer_draw``): first the opponent who acts first for its
team (the game names it), then its partner. A first "yes" is told to that team only, so that the offering team
learns only the team's answer; a "no" from either ends the offer for everyone, and the offerer goes on with its
turn. When the second opponent also accepts, the game is drawn by agreement.

Both games keep a :class:`TeamDraw` in their referee and a :class:`DrawKnowledge` in each seat's view, and
their presenters ask :func:`draw_commands`, :func:`draw_command`, :func:`draw_text`, :func:`draw_prompt` and
:func:`describe_draw` for the buttons, the typing and the words. The actions are new kinds of a record's
actions: records saved before have none, and read as before.

>>> from app.games.telepathy.rules import TelepathyChess
>>> game = TelepathyChess()
>>> game.play(0, OfferDraw())
>>> game.phase, game.seat_names[game.to_move], game.observations(2)[-1]  # W2 must agree; Black knows nothing
('agree_draw', 'W2', Seated(seat=2, predictors=(0, 2), fen='rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'))
>>> game.play(1, AnswerDraw(True))
>>> game.phase, game.seat_names[game.to_move], game.observations(2)[-1]
('answer_draw', 'B1', DrawOffered(team=0, seat=0, asked=2))
>>> game.play(2, AnswerDraw(True))
>>> game.seat_names[game.to_move], game.observations(0)[-1]  # White is not told which of Black said yes first
('B2', DrawOffered(team=0, seat=0, asked=2))
>>> game.play(3, AnswerDraw(True))
>>> game.outcome.reason.value
'draw_agreed'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Mapping, NamedTuple, Sequence

from app.bots.base import ActionRequest, Bot
from app.engine.core import Action, IllegalAction, Outcome, Reason, Seat
from app.games.presenter import Command, InputError

if TYPE_CHECKING:
    from app.engine.core import Game

__all__ = ["AGREE", "ANSWER", "DRAW_ACTIONS", "DRAW_PHASES", "AnswerDraw", "DrawAccepted", "DrawDeclined",
           "DrawKnowledge", "DrawOffered", "DrawProposed", "DrawRefused", "OfferDraw", "TeamDraw", "describe_draw",
           "describe_draw_action", "draw_answer", "draw_command", "draw_commands", "draw_prompt", "draw_text"]

AGREE, ANSWER = "agree_draw", "answer_draw"
"""The phases of an offer: the offerer's partner agrees or refuses; the opponents accept or decline."""
DRAW_PHASES = (AGREE, ANSWER)
OFFER, ACCEPT, DECLINE = "offer_draw", "accept_draw", "decline_draw"
"""The window's command ids (its Offer draw, Accept draw and Decline draw buttons and menu item)."""
CLEARLY_WORSE = 3
"""A built-in bot accepts an opponents' offer when its team is behind by at least this much material (a minor
piece; pawn 1, knight and bishop 3, rook 5, queen 9)."""


# ---- actions -----------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class OfferDraw(Action):
    """Propose a draw: the seat to act, once in its team's turn; its partner must agree before the opponents hear
    of it."""

    kind: ClassVar[str] = "offer_draw"


@dataclass(frozen=True)
class AnswerDraw(Action):
    """Yes or no to a draw: the offerer's partner agreeing to offer it, or an opponent accepting it."""

    accept: bool
    kind: ClassVar[str] = "answer_draw"


DRAW_ACTIONS: tuple[type[Action], ...] = (OfferDraw, AnswerDraw)
"""The team draw's actions, for a referee's :attr:`~app.engine.core.Game.actions`."""


# ---- observations ------------------------------------------------------------------------------------------------

class DrawProposed(NamedTuple):
    """Told to ``seat``'s team only: ``seat`` proposes offering a draw; its partner must agree or refuse."""

    seat: Seat


class DrawRefused(NamedTuple):
    """Told to ``seat``'s team only: ``seat`` refused to offer the draw its partner proposed; play goes on."""

    seat: Seat


class DrawOffered(NamedTuple):
    """Told to everyone: ``team`` offers a draw (``seat`` proposed it, its partner agreed); ``asked`` answers
    first for the opponents."""

    team: int
    seat: Seat
    asked: Seat


class DrawAccepted(NamedTuple):
    """Told to ``seat``'s team only: ``seat`` accepts the offer; its partner ``asked`` must accept too."""

    seat: Seat
    asked: Seat


class DrawDeclined(NamedTuple):
    """Told to everyone: ``seat`` declined the offer for its team; the offerer goes on with its turn."""

    seat: Seat


def _partner(teams: Sequence[int], seat: Seat) -> Seat:
    return next(other for other, team in enumerate(teams) if team == teams[seat] and other != seat)


# ---- the referee's part ------------------------------------------------------------------------------------------

class TeamDraw:
    """An offer in progress in a referee: who is asked now, and in which turn a team last offered.

    The referee asks :attr:`phase` and :attr:`asked` before its own phase and seat to act, lists
    :meth:`choices` while a question is open, adds :class:`OfferDraw` to its choices where :meth:`may_offer`
    says so, and hands :class:`OfferDraw` to :meth:`offer` and every action during a question to :meth:`answer`.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        self.phase: str | None = None
        self.asked: Seat | None = None
        self.offerer: Seat | None = None
        self._first: Seat | None = None
        self._offered_turn: int | None = None

    def may_offer(self, turn: int) -> bool:
        """Whether the seat to act may propose a draw in the team turn numbered ``turn`` (once a turn)."""
        return self.phase is None and self._offered_turn != turn

    def choices(self) -> dict[str, Any]:
        return {"answers": [AnswerDraw(True), AnswerDraw(False)]}

    def _tell_team(self, seat: Seat, observation: Any) -> None:
        teams = self.game.teams()
        for other, team in enumerate(teams):
            if team == teams[seat]:
                self.game._tell(other, observation)

    def offer(self, seat: Seat, turn: int) -> None:
        if not self.may_offer(turn):
            raise IllegalAction("a team may offer a draw once a turn")
        self._offered_turn, self.offerer = turn, seat
        self.phase, self.asked = AGREE, _partner(self.game.teams(), seat)
        self._tell_team(seat, DrawProposed(seat))

    def answer(self, seat: Seat, action: Action, first_opponent: Callable[[int], Seat]) -> None:
        """``seat``'s answer; ``first_opponent(team)`` names the opponent of ``team`` who answers first."""
        if type(action) is not AnswerDraw or not isinstance(action.accept, bool):
            raise IllegalAction(f"{self.game.seat_names[seat]} must say yes or no to the draw first")
        assert self.offerer is not None
        teams = self.game.teams()
        if self.phase == AGREE:
            if not action.accept:
                self._close()
                self._tell_team(seat, DrawRefused(seat))
                return
            self._first = first_opponent(teams[self.offerer])
            self.phase, self.asked = ANSWER, self._first
            self.game._tell_all(DrawOffered(teams[self.offerer], self.offerer, self._first))
            return
        if not action.accept:
            self._close()
            self.game._tell_all(DrawDeclined(seat))
            return
        if seat == self._first:
            self.asked = _partner(teams, seat)
            self._tell_team(seat, DrawAccepted(seat, self.asked))
            return
        self._close()
        self.game._finish(Outcome(None, Reason.DRAW_AGREED, "drawn by agreement of all four players"))

    def _close(self) -> None:
        self.phase = self.asked = self.offerer = self._first = None


# ---- a seat's view -----------------------------------------------------------------------------------------------

@dataclass
class DrawKnowledge:
    """What one seat knows of draw offers: the question open now as far as it was told (``phase``, the seat
    ``asked``), the offering team, whether its partner already accepted, and the turn in which its own team last
    offered."""

    phase: str | None = None
    asked: Seat | None = None
    team: int | None = None
    """The offering team."""
    partner_accepted: bool = False
    offered_turn: int | None = None

    def apply(self, observation: Any, turn: int, teams: Sequence[int]) -> bool:
        """Takes in a draw observation (``turn``: the team turn the game is in); False for any other."""
        o = observation
        if isinstance(o, DrawProposed):
            self.phase, self.asked, self.team = AGREE, _partner(teams, o.seat), teams[o.seat]
            self.offered_turn, self.partner_accepted = turn, False
        elif isinstance(o, DrawOffered):
            self.phase, self.asked, self.team, self.partner_accepted = ANSWER, o.asked, o.team, False
        elif isinstance(o, DrawAccepted):
            self.asked, self.partner_accepted = o.asked, True
        elif isinstance(o, (DrawRefused, DrawDeclined)):
            self.phase = self.asked = self.team = None
            self.partner_accepted = False
        else:
            return False
        return True

    def may_offer(self, turn: int) -> bool:
        return self.phase is None and self.offered_turn != turn


def draw_answer(phase: str, balance: int) -> bool:
    """A built-in bot's answer, from its team's material ``balance`` (its own minus the opponents'): as the
    offerer's partner it agrees unless its team is ahead; as an opponent it accepts only when clearly behind.

    >>> draw_answer(AGREE, 0), draw_answer(AGREE, 1), draw_answer(ANSWER, -2), draw_answer(ANSWER, -3)
    (True, False, False, True)
    """
    return balance <= 0 if phase == AGREE else balance <= -CLEARLY_WORSE


def playable(request: ActionRequest) -> list[Action]:
    """The choices a built-in bot picks from: every one but a draw offer (the built-in bots never offer one)."""
    return [action for actions in request.choices.values() for action in actions if type(action) is not OfferDraw]


class RandomTeamBot(Bot):
    """A team game's ``random`` bot: any allowed choice, uniformly at random; a draw offer answered by the material
    (the game's :meth:`answer_draw`). It keeps its seat's view (``view_type``) for that."""

    name: ClassVar[str] = "random"
    view_type: ClassVar[type[Any]]

    def __init__(self, seed: int | None = None, level: str = "medium") -> None:
        super().__init__(seed, level)
        self.view = self.view_type()

    def start(self, seat: int, options: dict[str, Any]) -> None:
        super().start(seat, options)
        self.view = self.view_type()

    def observe(self, observation: Any) -> None:
        self.view.apply(observation)

    def act(self, request: ActionRequest) -> Action:
        if request.phase in DRAW_PHASES:
            return self.answer_draw(request.phase)
        return self.rng.choice(playable(request))

    def answer_draw(self, phase: str) -> AnswerDraw:
        """The answer to a draw in ``phase`` (a partner's proposal, or the opponents' offer)."""
        raise NotImplementedError


# ---- what a person sees and does ---------------------------------------------------------------------------------

def draw_commands(view: Any, may_offer: bool) -> list[Command]:
    """The draw buttons for the view's seat: Offer draw (enabled when ``may_offer``), or the two answers while the
    seat is asked."""
    if view.outcome is None and view.my_turn and view.phase == AGREE:
        return [Command(ACCEPT, "Agree to offer a draw", True), Command(DECLINE, "Refuse to offer it", True)]
    if view.outcome is None and view.my_turn and view.phase == ANSWER:
        return [Command(ACCEPT, "Accept draw", True), Command(DECLINE, "Decline draw", True)]
    return [Command(OFFER, "Offer draw", may_offer)]


def draw_command(view: Any, command_id: str, may_offer: bool) -> Action | None:
    """The action of a draw button, None for another command; raises ``InputError`` when it cannot be used."""
    if command_id == OFFER:
        if not may_offer:
            raise InputError("a draw may be offered on your turn, once a turn, and your partner must agree")
        return OfferDraw()
    if command_id in (ACCEPT, DECLINE):
        if not (view.my_turn and view.phase in DRAW_PHASES):
            raise InputError("no draw offer waits for your answer")
        return AnswerDraw(command_id == ACCEPT)
    return None


_YES, _NO = ("accept", "yes", "agree", "accept draw"), ("decline", "no", "refuse", "decline draw")


def draw_text(view: Any, text: str, may_offer: bool) -> Action | None:
    """A typed draw word as an action (``draw``, ``accept``, ``decline`` ...), None for other text; raises
    ``InputError`` when only an answer will do."""
    word = " ".join(text.lower().split())
    if view.my_turn and view.phase in DRAW_PHASES:
        if word in _YES:
            return AnswerDraw(True)
        if word in _NO:
            return AnswerDraw(False)
        raise InputError("a draw is offered: type accept or decline")
    if word in ("draw", "offer draw"):
        return draw_command(view, OFFER, may_offer)
    return None


def draw_prompt(view: Any, seat_names: Sequence[str], team_names: Sequence[str]) -> str | None:
    """The status line while the view's seat is asked about a draw, None otherwise."""
    knowledge: DrawKnowledge = view.draw
    if not view.my_turn or view.outcome is not None or view.phase not in DRAW_PHASES:
        return None
    if view.phase == AGREE:
        return "Your partner proposes a draw: Agree to offer it, or Refuse"
    team = team_names[knowledge.team] if knowledge.team is not None else "The opponents"
    if knowledge.partner_accepted:
        return f"{team} offers a draw and your partner accepts: Accept or Decline"
    return f"{team} offers a draw: Accept or Decline (your partner is asked next)"


def describe_draw(observation: Any, seat: Seat, seat_names: Sequence[str], team_names: Sequence[str],
                  teams: Sequence[int]) -> str | None:
    """A draw observation as a line of ``seat``'s log; None for any other observation."""
    o = observation

    def who(other: Seat) -> str:
        return "You" if other == seat else seat_names[other]

    if isinstance(o, DrawProposed):
        if o.seat == seat:
            name = seat_names[_partner(teams, seat)]
            return f"You proposed a draw; {name} must agree before the opponents hear of it."
        return f"{seat_names[o.seat]} proposes a draw: agree to offer it to the opponents, or refuse."
    if isinstance(o, DrawRefused):
        return f"{who(o.seat)} refused to offer a draw; the opponents were not told."
    if isinstance(o, DrawOffered):
        partner = _partner(teams, o.seat)
        return (f"{team_names[o.team]} offers a draw ({seat_names[o.seat]} proposed it, {seat_names[partner]} "
                f"agreed). Both opponents must accept, {seat_names[o.asked]} first.")
    if isinstance(o, DrawAccepted):
        return f"{who(o.seat)} accepted the draw; {'you' if o.asked == seat else seat_names[o.asked]} must accept too."
    if isinstance(o, DrawDeclined):
        return f"{who(o.seat)} declined the draw for {team_names[teams[o.seat]]}; play goes on."
    return None


def describe_draw_action(action: Mapping[str, Any]) -> str | None:
    """A recorded draw action in words (the replay's list), None for any other action."""
    if action.get("type") == OfferDraw.kind:
        return "propose a draw"
    if action.get("type") == AnswerDraw.kind:
        return "say yes to the draw" if action.get("accept") else "say no to the draw"
    return None
