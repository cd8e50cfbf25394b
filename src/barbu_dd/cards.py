"""Seats, suits, ranks, cards and card sets.

A card is an ``int``: bit index ``16 * suit + rank`` with suits in PBN order
(S=0, H=1, D=2, C=3) and ranks 0..12 for 2..A.  A set of cards is a 64-bit mask
with one 16-bit lane per suit, so ``(mask >> 16 * suit) & 0x1FFF`` is a suit
holding in the DDS layout.

>>> card_name(parse_card("10h"))
'HT'
>>> CardSet.from_pbn("AK..Q.")
CardSet.from_pbn('AK..Q.')
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum
from typing import TypeAlias

from .errors import InvalidPositionError, ParseError

__all__ = [
    "Seat",
    "Suit",
    "Rank",
    "Card",
    "SEATS",
    "SUITS",
    "RANKS",
    "RANK_CHARS",
    "SUIT_CHARS",
    "SUIT_SYMBOLS",
    "CARD_NAMES",
    "ALL_CARDS",
    "BB_ALL",
    "BB_SPADES",
    "BB_HEARTS",
    "BB_DIAMONDS",
    "BB_CLUBS",
    "BB_SUITS",
    "BB_QUEENS",
    "BB_KH",
    "BB_AH",
    "CardSet",
    "make_card",
    "card_suit",
    "card_rank",
    "card_name",
    "parse_card",
    "parse_seat",
    "to_seat",
    "parse_suit",
    "parse_rank",
    "popcount",
    "iter_cards",
    "hand_from_pbn",
    "hand_to_pbn",
]

Card: TypeAlias = int


class Seat(IntEnum):
    """A seat at the table, clockwise from North (DDS numbering)."""

    N = 0
    E = 1
    S = 2
    W = 3

    @property
    def left(self) -> Seat:
        """The next seat clockwise (the left of N is E)."""
        return Seat((self + 1) & 3)

    @property
    def right(self) -> Seat:
        """The previous seat clockwise."""
        return Seat((self + 3) & 3)

    @property
    def partner(self) -> Seat:
        """The seat opposite."""
        return Seat((self + 2) & 3)

    def __str__(self) -> str:
        return self.name


class Suit(IntEnum):
    """A suit, in PBN order."""

    S = 0
    H = 1
    D = 2
    C = 3

    def __str__(self) -> str:
        return self.name


class Rank(IntEnum):
    """A rank, 0 for the 2 up to 12 for the Ace."""

    R2 = 0
    R3 = 1
    R4 = 2
    R5 = 3
    R6 = 4
    R7 = 5
    R8 = 6
    R9 = 7
    T = 8
    J = 9
    Q = 10
    K = 11
    A = 12

    def __str__(self) -> str:
        return RANK_CHARS[self]


SEATS: tuple[Seat, ...] = tuple(Seat)
SUITS: tuple[Suit, ...] = tuple(Suit)
RANKS: tuple[Rank, ...] = tuple(Rank)
RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"

_LANE = 0x1FFF
BB_SPADES = _LANE
BB_HEARTS = _LANE << 16
BB_DIAMONDS = _LANE << 32
BB_CLUBS = _LANE << 48
BB_SUITS: tuple[int, int, int, int] = (BB_SPADES, BB_HEARTS, BB_DIAMONDS, BB_CLUBS)
BB_ALL = BB_SPADES | BB_HEARTS | BB_DIAMONDS | BB_CLUBS


def make_card(suit: int, rank: int) -> Card:
    """The card of ``suit`` and ``rank``.

    >>> card_name(make_card(Suit.H, Rank.K))
    'HK'
    """
    return 16 * suit + rank


def card_suit(card: Card) -> Suit:
    """The suit of a card."""
    return Suit(card >> 4)


def card_rank(card: Card) -> Rank:
    """The rank of a card."""
    return Rank(card & 15)


ALL_CARDS: tuple[Card, ...] = tuple(make_card(s, r) for s in range(4) for r in range(12, -1, -1))
CARD_NAMES: dict[Card, str] = {c: SUIT_CHARS[c >> 4] + RANK_CHARS[c & 15] for c in ALL_CARDS}
BB_QUEENS = sum(1 << make_card(s, Rank.Q) for s in range(4))
BB_KH = 1 << make_card(Suit.H, Rank.K)
BB_AH = 1 << make_card(Suit.H, Rank.A)

# Constants SA ... C2, in the way python-chess exposes A1 ... H8.
for _c, _n in CARD_NAMES.items():
    globals()[_n] = _c
    __all__.append(_n)
del _c, _n

_SEAT_BY_CHAR = {"N": Seat.N, "E": Seat.E, "S": Seat.S, "W": Seat.W}
_SUIT_BY_CHAR = {"S": Suit.S, "H": Suit.H, "D": Suit.D, "C": Suit.C}
_SUIT_BY_CHAR.update({sym: Suit(i) for i, sym in enumerate(SUIT_SYMBOLS)})
_SUIT_BY_CHAR.update({"♤": Suit.S, "♡": Suit.H, "♢": Suit.D, "♧": Suit.C})
_RANK_BY_TEXT = {ch: Rank(i) for i, ch in enumerate(RANK_CHARS)}
_RANK_BY_TEXT["10"] = Rank.T


def card_name(card: Card) -> str:
    """The two-character name of a card, suit first: ``'SA'``, ``'HT'``.

    :raises ParseError: for a number that is no card.

    >>> card_name(SQ)
    'SQ'
    """
    try:
        return CARD_NAMES[card]
    except (KeyError, TypeError):
        raise ParseError(f"not a card: {card!r}") from None


def parse_seat(text: str) -> Seat:
    """A seat from ``'N'``, ``'e'``, ``'South'`` ...

    :raises ParseError: if the text names no seat.

    >>> parse_seat("w")
    <Seat.W: 3>
    """
    t = text.strip().upper()
    if t in _SEAT_BY_CHAR:
        return _SEAT_BY_CHAR[t]
    for name, seat in (("NORTH", Seat.N), ("EAST", Seat.E), ("SOUTH", Seat.S), ("WEST", Seat.W)):
        if t == name:
            return seat
    raise ParseError(f"invalid seat: {text!r}")


def to_seat(value: Seat | int | str) -> Seat:
    """A seat from a :class:`Seat`, its number 0..3 or its name (:func:`parse_seat`).

    :raises ParseError: for anything else.

    >>> to_seat(2), to_seat("e")
    (<Seat.S: 2>, <Seat.E: 1>)
    """
    if isinstance(value, Seat):
        return value
    if isinstance(value, str):
        return parse_seat(value)
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 3:
        return Seat(value)
    raise ParseError(f"invalid seat: {value!r}")


def parse_suit(text: str) -> Suit:
    """A suit from ``'S'``, ``'h'``, ``'♦'`` ...

    :raises ParseError: if the text names no suit.

    >>> parse_suit("h")
    <Suit.H: 1>
    """
    t = text.strip().upper()
    if t in _SUIT_BY_CHAR:
        return _SUIT_BY_CHAR[t]
    names = {"SPADES": Suit.S, "HEARTS": Suit.H, "DIAMONDS": Suit.D, "CLUBS": Suit.C}
    if t in names:
        return names[t]
    raise ParseError(f"invalid suit: {text!r}")


def parse_rank(text: str) -> Rank:
    """A rank from ``'A'``, ``'t'``, ``'10'``, ``'9'`` ...

    :raises ParseError: if the text names no rank.

    >>> parse_rank("10")
    <Rank.T: 8>
    """
    t = text.strip().upper()
    if t in _RANK_BY_TEXT:
        return _RANK_BY_TEXT[t]
    raise ParseError(f"invalid rank: {text!r}")


def parse_card(text: str) -> Card:
    """A card from text, suit first or rank first: ``'SQ'``, ``'qs'``, ``'H10'``, ``'♥K'``.

    :raises ParseError: if the text is not a card.

    >>> card_name(parse_card("10d"))
    'DT'
    """
    t = text.strip().upper()
    if len(t) >= 2:
        for suit_part, rank_part in ((t[0], t[1:]), (t[-1], t[:-1])):
            if suit_part in _SUIT_BY_CHAR and rank_part in _RANK_BY_TEXT:
                return make_card(_SUIT_BY_CHAR[suit_part], _RANK_BY_TEXT[rank_part])
    raise ParseError(f"invalid card: {text!r}")


def popcount(mask: int) -> int:
    """The number of cards in a mask."""
    return mask.bit_count()


def iter_cards(mask: int) -> Iterator[Card]:
    """The cards of a mask, by suit in PBN order and high rank first."""
    for s in range(4):
        lane = (mask >> (16 * s)) & _LANE
        for r in range(12, -1, -1):
            if lane >> r & 1:
                yield 16 * s + r


def hand_from_pbn(text: str) -> int:
    """A card mask from a PBN hand ``'KQT2.AT.J6542.85'`` (``10`` accepted for ``T``).

    :raises ParseError: if the hand is malformed or names a card twice.

    >>> hand_to_pbn(hand_from_pbn("AK.10.Q2."))
    'AK.T.Q2.'
    """
    parts = text.strip().split(".")
    if len(parts) != 4:
        raise ParseError(f"invalid hand: {text!r} (need 4 suits separated by '.')")
    mask = 0
    for s, part in enumerate(parts):
        p = part.upper().replace("10", "T")
        for ch in p:
            if ch not in _RANK_BY_TEXT:
                raise ParseError(f"invalid card in hand {text!r}: {SUIT_CHARS[s]}{ch!r}")
            bit = 1 << make_card(s, _RANK_BY_TEXT[ch])
            if mask & bit:
                name = CARD_NAMES[make_card(s, _RANK_BY_TEXT[ch])]
                raise InvalidPositionError(f"duplicate card in hand {text!r}: {name}")
            mask |= bit
    return mask


def hand_to_pbn(mask: int) -> str:
    """The PBN text of a card mask, high ranks first in each suit."""
    out = []
    for s in range(4):
        lane = (mask >> (16 * s)) & _LANE
        out.append("".join(RANK_CHARS[r] for r in range(12, -1, -1) if lane >> r & 1))
    return ".".join(out)


class CardSet:
    """An immutable set of cards backed by a 64-bit mask (cf. python-chess ``SquareSet``).

    >>> s = CardSet([SA, SK, HQ])
    >>> len(s), SK in s, str(s)
    (3, True, 'AK.Q..')
    """

    __slots__ = ("mask",)

    def __init__(self, cards: Iterable[Card] | int = 0) -> None:
        if isinstance(cards, int):
            self.mask = cards & BB_ALL
        else:
            m = 0
            for c in cards:
                m |= 1 << c
            self.mask = m

    @classmethod
    def from_pbn(cls, text: str) -> CardSet:
        """A card set from a PBN hand."""
        return cls(hand_from_pbn(text))

    def __contains__(self, card: object) -> bool:
        return (
            isinstance(card, int)
            and not isinstance(card, bool)
            and 0 <= card < 64
            and bool(self.mask >> card & 1)
        )

    def __iter__(self) -> Iterator[Card]:
        return iter_cards(self.mask)

    def __len__(self) -> int:
        return self.mask.bit_count()

    def __bool__(self) -> bool:
        return self.mask != 0

    def __eq__(self, other: object) -> bool:
        if isinstance(other, CardSet):
            return self.mask == other.mask
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.mask)

    def __or__(self, other: object) -> CardSet:
        if not isinstance(other, CardSet):
            return NotImplemented
        return CardSet(self.mask | other.mask)

    def __and__(self, other: object) -> CardSet:
        if not isinstance(other, CardSet):
            return NotImplemented
        return CardSet(self.mask & other.mask)

    def __sub__(self, other: object) -> CardSet:
        if not isinstance(other, CardSet):
            return NotImplemented
        return CardSet(self.mask & ~other.mask)

    def __int__(self) -> int:
        return self.mask

    def suit(self, suit: int) -> CardSet:
        """The cards of one suit."""
        return CardSet(self.mask & BB_SUITS[suit])

    def __repr__(self) -> str:
        return f"CardSet.from_pbn({hand_to_pbn(self.mask)!r})"

    def __str__(self) -> str:
        return hand_to_pbn(self.mask)
