"""Premoves: the move and the pick a person queues while a bot thinks, played when the person's turn comes if the
game still allows them.

:class:`Premoves` belongs to a :class:`~app.ui.game_controller.GameController`, which decides when something may
be queued and hands it the board the next turn is read on (the game's premove scene, drawn from the person's own
view only); this module checks what is queued against that board and keeps it.

A game whose turn begins by playing a card (its premove scene names the hand in ``queue_zones``) also lets a card
be queued: at the turn's start the card is played first, then the queued move if the game still allows it; a
card the turn can no longer take drops the whole queue.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any, Callable

from app.games.move_input import parse_move_text
from app.games.presenter import InputError, Presenter
from app.games.kit_cards import SUIT_SIGNS
from app.games.scene import BoardScene, Card, Cell, HandZone, read_checker

Reader = Callable[[Presenter, Any], Any]
"""How a seat's presenter reads an input from the seat's view (an action, or a change of the seat's marks)."""
Premove = tuple[str, Any, str, tuple[Cell, ...]]
"""A queued item: its kind ("sense", "card" or "move"), what (a sense's square, a card's (zone id, card code), a
move's (from, to, promotion)), the words the window shows for it and the squares it marks."""
ORDER = ("sense", "card", "move")
"""The order a turn takes queued items in: it senses, or plays its card, before it moves."""


class Premoves:
    """What a person queued while a bot thinks: at most one item of each kind, in the order of :data:`ORDER`."""

    def __init__(self) -> None:
        self.items: list[Premove] = []

    def has(self, kind: str) -> bool:
        return any(queued[0] == kind for queued in self.items)

    def words(self) -> str:
        """The queued items as the status line names them: "sense d6 and g1-f3"."""
        return " and ".join(words for _kind, _what, words, _squares in self.items)

    def squares(self) -> list[tuple[Cell, ...]]:
        """The squares each queued item marks on the board."""
        return [squares for *_rest, squares in self.items if squares]

    def show(self, scene: BoardScene) -> None:
        """Raise each queued card in its zone of ``scene`` (the board the window draws)."""
        for kind, what, _words, _squares in self.items:
            if kind != "card":
                continue
            zone_id, code = what
            for place, zone in enumerate(scene.zones):
                if zone.id == zone_id and isinstance(zone, HandZone):
                    raised = tuple(i for i, card in enumerate(zone.cards) if isinstance(card, Card) and card.code == code)
                    scene.zones[place] = dataclasses.replace(zone, selected=raised[:1])

    def add(self, ahead: BoardScene, kind: str, what: Any) -> bool:
        """Queue a move (``what`` = (from, to, promotion)), a sense (a square) or a card (``what`` = (zone id,
        index of the card in that zone)) read on ``ahead``, the board of the next turn, in place of one of that kind
        queued before; False when ``ahead`` does not allow it."""
        squares: tuple[Cell, ...]
        if kind == "card":
            zone_id, index = what
            card = _zone_card(ahead, zone_id, index) if zone_id in ahead.queue_zones else None
            if card is None:
                return False
            what, squares, words = (zone_id, card.code), (), f"play {card.rank}{SUIT_SIGNS.get(card.suit, card.suit)}"
        elif kind == "sense":
            if ahead.sense_window is None:
                return False
            squares = tuple(square for square in ahead.sense_window(what)
                            if 0 <= square[0] < ahead.files and 0 <= square[1] < ahead.ranks)
            if not squares:
                return False  # a square the game would refuse for its next pick
            words = f"{ahead.pick_word} {cell_name(what)}"
        else:
            origin, target, _promotion = what
            if target not in ahead.targets.get(origin, {}):
                return False
            squares, words = (origin, target), f"{cell_name(origin)}-{cell_name(target)}"
        self.items = [queued for queued in self.items if queued[0] != kind]
        self.items.append((kind, what, words, squares))
        self.items.sort(key=lambda queued: ORDER.index(queued[0]))
        return True

    def add_typed(self, ahead: BoardScene, text: str) -> None:
        """Queue what ``text`` names on ``ahead``, as the same move or pick made on the board would be. A move is
        read against the moves the next turn may queue (coordinates or SAN, own pieces only); a bare square is the
        pick the next turn starts with while none is queued (RBC's sense, as typed in the sense phase; a
        Split-Brain pick), and ``sense e2`` / ``pick e2`` always names one. Raises :class:`InputError` saying why
        the text names nothing the next turn could take."""
        raw = text.strip()
        words = raw.lower().split()
        picking = ahead.sense_window is not None
        named = len(words) == 2 and words[0] in {ahead.pick_word, "sense", "pick"}
        bare = len(words) == 1 and typed_square(raw, ahead.files, ahead.ranks) is not None
        if named or (bare and picking and not self.has("sense")):
            square = typed_square(words[-1], ahead.files, ahead.ranks)
            if not picking:
                raise InputError(f"nothing can be queued to {ahead.pick_word} now: type a move")
            if square is None:
                raise InputError(f"not a square: {words[-1]!r}")
            if not self.add(ahead, "sense", square):
                raise InputError(f"{cell_name(square)} cannot be picked at the start of your next turn")
            return
        if not ahead.targets:
            raise InputError(f"type a square to {ahead.pick_word}, for example c3")
        letters = {cell: piece_letter(code) for cell, code in ahead.pieces.items()}
        move = parse_move_text(raw, letters, ahead.targets, ahead.files, ahead.ranks)
        if not self.add(ahead, "move", move):
            raise InputError("that move cannot be queued now")

    def clear(self) -> bool:
        """Forget everything queued; False when nothing was."""
        had, self.items = bool(self.items), []
        return had

    def after_pick(self, presenter: Presenter, view: Any) -> BoardScene | None:
        """On the person's own turn (``view`` the seat's), while a queued move waits for the pick the turn asks
        first (RBC's sense): the board of the moves that may replace it (the game's premove scene), else None."""
        if not self.has("move"):
            return None
        now = presenter.scene(view)
        if now.sense_window is None or now.targets:
            return None
        return presenter.premove_scene(view)

    def take(self, now: BoardScene) -> tuple[str, Reader | None] | None:
        """The first queued item the turn takes on the board ``now`` (a sense in a sense phase, a card once the
        turn takes its card, a move once moves are asked for), taken off the queue: its words, and how the seat's
        presenter reads it as the person's input (None when the board no longer allows it); None if nothing queued
        fits the turn yet. A queued card comes before the moves: while it waits (the turn first asks something
        else, an answer), they wait; when the turn is past its card step, or the card is no longer there, the
        whole queue is dropped (its words, None)."""
        for index, (kind, what, words, _squares) in enumerate(self.items):
            if kind == "card":
                zone_id, code = what
                if zone_id not in now.queue_zones:
                    if not now.targets and now.sense_window is None:
                        return None  # the turn asks something else first: the card and what follows it wait
                    return self._drop_all()
                codes = [card.code if isinstance(card, Card) else "" for card in _zone_cards(now, zone_id)]
                if code not in codes:
                    return self._drop_all()
                del self.items[index]
                position = codes.index(code)
                return words, lambda presenter, view: presenter.on_zone(view, zone_id, position)
            if kind == "sense" and now.sense_window is not None:
                del self.items[index]
                if not now.sense_window(what):  # a pick the board now refuses covers no square
                    return words, None
                return words, lambda presenter, view: presenter.on_square(view, what)
            if kind == "move" and now.targets:
                del self.items[index]
                origin, target, promotion = what
                if target not in now.targets.get(origin, {}):
                    return words, None
                return words, lambda presenter, view: presenter.on_move(view, origin, target, promotion)
        return None

    def _drop_all(self) -> tuple[str, None]:
        words, self.items = self.words(), []
        return words, None


def _zone_cards(scene: BoardScene, zone_id: str) -> tuple[Any, ...]:
    """The cards of the zone ``zone_id`` of ``scene`` (faces, or None for a back); empty if it has none."""
    try:
        zone = scene.zone(zone_id)
    except KeyError:
        return ()
    cards = getattr(zone, "cards", ())
    return tuple(cards) if isinstance(cards, tuple) else ()


def _zone_card(scene: BoardScene, zone_id: str, index: int) -> Card | None:
    """The face of card ``index`` of the zone ``zone_id`` of ``scene``, or None (a back, no such card)."""
    cards = _zone_cards(scene, zone_id)
    if not isinstance(index, int) or not 0 <= index < len(cards):
        return None
    card = cards[index]
    return card if isinstance(card, Card) else None


def typed_square(text: str, files: int, ranks: int) -> Cell | None:
    """A square typed as ``d7`` on a board of ``files`` x ``ranks``, or None."""
    match = re.fullmatch(r"([a-z])([1-9][0-9]?)", text.strip().lower())
    if match is None:
        return None
    square = (ord(match[1]) - 97, int(match[2]) - 1)
    return square if square[0] < files and 0 <= square[1] < ranks else None


def piece_letter(code: str) -> str:
    """A scene's piece as a piece letter for typed moves: a checker token as the piece it stands for, when the
    seat knows it (its own always), else nothing."""
    checker = read_checker(code)
    if checker is None:
        return code
    if checker.piece is None:
        return ""
    return checker.piece.upper() if checker.white else checker.piece.lower()


def cell_name(square: Cell) -> str:
    """A board square's name, ``a1`` style, on a board of any size."""
    return f"{chr(ord('a') + square[0])}{square[1] + 1}"
