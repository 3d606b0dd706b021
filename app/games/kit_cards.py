"""The chess kit's playing cards: which card stands for which piece (the kit's "Appendix A"), for the kit games
dealt from a deck (Cooperative Chess 2, Booster, Parade and Neighbour solitaires). Plain codes, no Qt: a card is
its code, rank then suit letter (``"10H"``, ``"QS"``), as records and scenes write it
(:class:`app.games.scene.Card` draws one).

Red cards (hearts, diamonds) are White's pieces, black cards (spades, clubs) Black's. Pawns are the 2 to 5 of
a colour's two suits, knights its 8s, bishops its 9s, rooks its 10s; the queen is the queen of hearts (White)
or spades (Black), the king the king of hearts or spades. The 6s and 7s stand for no piece (Booster uses the
four 6s as checker cards). A game that deals pieces onto the board leaves a gap of empty squares before each
piece: :data:`GAP`.

>>> len(piece_cards()), len(set(piece_cards()))
(32, 32)
>>> card_piece("QH"), card_piece("8S"), card_piece("6D")
(Piece.from_symbol('Q'), Piece.from_symbol('n'), None)
>>> card_colour("6D"), card_colour("10C")
(True, False)
>>> cards_of(chess.Piece(chess.PAWN, chess.BLACK))
('2S', '3S', '4S', '5S', '2C', '3C', '4C', '5C')
>>> card_face("10H"), card_words("9D"), card_words("6S")
('10♥', 'white bishop (9♦)', 'black checker card (6♠)')
"""

from __future__ import annotations

import random
from typing import Iterable, Sequence

import chess

from app.engine import codec

WHITE_SUITS = ("H", "D")
BLACK_SUITS = ("S", "C")
SUIT_SIGNS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
PIECE_RANKS: dict[chess.PieceType, tuple[str, ...]] = {
    chess.PAWN: ("2", "3", "4", "5"), chess.KNIGHT: ("8",), chess.BISHOP: ("9",), chess.ROOK: ("10",),
    chess.QUEEN: ("Q",), chess.KING: ("K",)}
"""The ranks of each piece type's cards (queens and kings: of the first suit of the colour only)."""
SINGLE_SUIT = (chess.QUEEN, chess.KING)
GAP: dict[chess.PieceType, int] = {chess.KNIGHT: 1, chess.BISHOP: 2, chess.ROOK: 3, chess.QUEEN: 5, chess.KING: 6}
"""Empty squares left before a piece dealt onto the board (the card's rank among the kit's non-pawn cards)."""


def suits_of(colour: chess.Color) -> tuple[str, ...]:
    return WHITE_SUITS if colour == chess.WHITE else BLACK_SUITS


def cards_of(piece: chess.Piece) -> tuple[str, ...]:
    """The cards that stand for ``piece`` (eight for a pawn, two for a knight, bishop or rook, one for a queen or
    a king), suit by suit."""
    suits = suits_of(piece.color)[:1] if piece.piece_type in SINGLE_SUIT else suits_of(piece.color)
    return tuple(rank + suit for suit in suits for rank in PIECE_RANKS[piece.piece_type])


def piece_cards(types: Iterable[chess.PieceType] = chess.PIECE_TYPES) -> tuple[str, ...]:
    """The cards of the pieces of ``types`` of both colours in a fixed order, Black's first (deals are shuffled
    from this order, so it never changes): the 32 piece cards by default; ``(KNIGHT, BISHOP, ROOK, QUEEN, KING)``
    gives the 16 non-pawn cards."""
    wanted = tuple(types)
    return tuple(card for colour in chess.COLORS[::-1] for piece_type in wanted
                 for card in cards_of(chess.Piece(piece_type, colour)))


def checker_cards() -> tuple[str, ...]:
    """The four sixes: White's two (red) then Black's two."""
    return tuple("6" + suit for suit in WHITE_SUITS + BLACK_SUITS)


def is_card(code: str) -> bool:
    """Whether ``code`` names a card of the kit (a piece card or a six)."""
    return code in _PIECES or code in checker_cards()


def card_colour(code: str) -> chess.Color:
    """The colour a card belongs to: ``chess.WHITE`` for a red card."""
    return chess.WHITE if code[-1] in WHITE_SUITS else chess.BLACK


def card_piece(code: str) -> chess.Piece | None:
    """The piece a card stands for, ``None`` for a card that stands for none (a six)."""
    return _PIECES.get(code)


def card_face(code: str) -> str:
    """A card's face in a few characters: ``"9♦"``."""
    return code[:-1] + SUIT_SIGNS[code[-1]]


def card_words(code: str) -> str:
    """How a card is named in sentences: its piece and its face (``"white bishop (9♦)"``)."""
    piece = card_piece(code)
    colour = "white" if card_colour(code) == chess.WHITE else "black"
    what = chess.piece_name(piece.piece_type) if piece else "checker card"
    return f"{colour} {what} ({card_face(code)})"


def shuffled(cards: Sequence[str], rng: random.Random) -> list[str]:
    """``cards`` in the order ``rng`` (a game's own generator, see G2) shuffles them; the first is the top."""
    deck = list(cards)
    rng.shuffle(deck)
    return deck


def read_card(text: str) -> str:
    """A card's code from its text (``"10h"`` -> ``"10H"``); ``ValueError`` with a sentence if it is no kit card."""
    code = str(text).strip().upper()
    if not is_card(code):
        raise ValueError(f"{str(text)[:12]!r} is not a card of the chess kit (such as '10H' or 'QS')")
    return code


CARD = codec.Text(str, read_card, "a card such as '10H'")
"""A card written by its code in records (``dataclasses.field(metadata=codec.spec(text=CARD))``)."""

_PIECES: dict[str, chess.Piece] = {card: piece for colour in chess.COLORS for piece_type in chess.PIECE_TYPES
                                   for piece in [chess.Piece(piece_type, colour)] for card in cards_of(piece)}
