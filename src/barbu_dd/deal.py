"""Positions: four hands, the trick in progress, and play/unplay.

A :class:`Deal` is a full deal or an ending (every hand the same size), possibly in
the middle of a trick.  Hands may be unknown (``-`` in PBN).

>>> from barbu_dd.cards import SA
>>> d = Deal("N:AK.Q.. 2.K.. Q.3.. J.2..")
>>> d.leader = Seat.N
>>> d.play(SA); d.to_move
<Seat.E: 1>
>>> str(d)
'N:K.Q.. 2.K.. Q.3.. J.2..'
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import dataclass

from .cards import (
    BB_ALL,
    BB_SUITS,
    CARD_NAMES,
    Card,
    CardSet,
    Seat,
    card_name,
    hand_from_pbn,
    hand_to_pbn,
    parse_seat,
    to_seat,
)
from .errors import IllegalPlayError, InvalidPositionError, ParseError

__all__ = ["as_deal", "Deal", "Trick", "trick_winner"]


@dataclass(frozen=True)
class Trick:
    """A completed trick: who led, the four cards in play order, and who won it."""

    leader: Seat
    cards: tuple[Card, Card, Card, Card]
    winner: Seat

    def seat_of(self, i: int) -> Seat:
        """The seat that played the ``i``-th card of the trick."""
        return Seat((self.leader + i) & 3)


def trick_winner(leader: int, cards: Sequence[Card], trump: int | None = None) -> Seat:
    """The seat that wins a trick: the highest trump, else the highest card of the suit led.

    >>> from barbu_dd.cards import SA, S2, HA, H2
    >>> trick_winner(Seat.N, [S2, SA, HA, H2])
    <Seat.E: 1>
    >>> trick_winner(Seat.N, [S2, SA, HA, H2], trump=1)
    <Seat.S: 2>
    """
    best = 0
    for i in range(1, len(cards)):
        c, b = cards[i], cards[best]
        if (c >> 4) == (b >> 4):
            if c > b:
                best = i
        elif trump is not None and (c >> 4) == trump:
            best = i
    return Seat((leader + best) & 3)


class Deal:
    """Four hands (card masks, ``None`` where unknown), a trick in progress and its leader."""

    def __init__(
        self,
        hands: str | Sequence[int | None] = "N:... ... ... ...",
        *,
        leader: Seat | int | str | None = None,
        first: Seat | int = Seat.N,
    ) -> None:
        self.first: Seat = to_seat(first)
        if isinstance(hands, str):
            self._hands, self.first = _parse_deal(hands)
        else:
            if not isinstance(hands, Sequence) or not all(
                h is None or isinstance(h, numbers.Integral) for h in hands
            ):
                raise ParseError(
                    f"a deal is PBN text or 4 hands as card masks (or None), not {hands!r}"
                )
            if len(hands) != 4:
                raise InvalidPositionError(f"a deal needs 4 hands, got {len(hands)}")
            self._hands = [None if h is None else int(h) & BB_ALL for h in hands]
        self.leader: Seat | None = None if leader is None else to_seat(leader)
        self.trick: list[Card] = []
        self.tricks: list[Trick] = []
        self._history: list[tuple[Seat, Card, Trick | None]] = []

    # -- construction -------------------------------------------------------------
    @classmethod
    def from_pbn(cls, text: str) -> Deal:
        """A deal from a PBN Deal tag value ``'N:KQT2.AT.J6542.85 - ...'``.

        :raises ParseError: if the text is malformed.
        :raises InvalidPositionError: if a card is dealt twice.
        """
        return cls(text)

    def copy(self) -> Deal:
        """An independent copy (trick in progress and history included)."""
        d = Deal(list(self._hands), leader=self.leader, first=self.first)
        d.trick = list(self.trick)
        d.tricks = list(self.tricks)
        d._history = list(self._history)
        return d

    # -- reading ------------------------------------------------------------------
    def hand(self, seat: Seat | int) -> CardSet:
        """The cards a seat holds now.

        :raises InvalidPositionError: if that hand is unknown.
        """
        h = self._hands[int(seat)]
        if h is None:
            raise InvalidPositionError(f"the hand of {Seat(seat).name} is unknown")
        return CardSet(h)

    def mask(self, seat: Seat | int) -> int:
        """The card mask of a seat (0 if unknown)."""
        return self._hands[int(seat)] or 0

    @property
    def masks(self) -> tuple[int, int, int, int]:
        """The four hands as masks, N E S W (0 for unknown hands)."""
        h = self._hands
        return (h[0] or 0, h[1] or 0, h[2] or 0, h[3] or 0)

    def is_known(self, seat: Seat | int) -> bool:
        """Whether a seat's hand is known."""
        return self._hands[int(seat)] is not None

    @property
    def to_move(self) -> Seat:
        """The seat to play the next card.

        :raises InvalidPositionError: if no leader has been set.
        """
        if self.leader is None:
            raise InvalidPositionError("no leader is set for this position")
        return Seat((self.leader + len(self.trick)) & 3)

    def holder(self, card: Card) -> Seat | None:
        """The seat holding a card, or ``None``."""
        for s in range(4):
            h = self._hands[s]
            if h is not None and h >> card & 1:
                return Seat(s)
        return None

    def sizes(self) -> tuple[int, int, int, int]:
        """The number of cards in each hand (unknown hands count 0)."""
        m = self.masks
        return (m[0].bit_count(), m[1].bit_count(), m[2].bit_count(), m[3].bit_count())

    @property
    def tricks_left(self) -> int:
        """The number of tricks still to be completed (the current one included)."""
        return max(self.sizes()) if not self.trick else self.mask(self.to_move).bit_count()

    # -- play ---------------------------------------------------------------------
    def play(self, card: Card, *, trump: int | None = None) -> Trick | None:
        """Play a card for the seat to move (possession only: rules live in :mod:`play`).

        When the card completes a trick the trick's winner leads next and the
        :class:`Trick` is returned.

        :raises IllegalPlayError: if the seat to move does not hold the card.
        """
        seat = self.to_move
        h = self._hands[seat]
        if h is None or not (h >> card & 1):
            raise IllegalPlayError(f"{seat.name} does not hold {card_name(card)}")
        self._hands[seat] = h & ~(1 << card)
        self.trick.append(card)
        done: Trick | None = None
        if len(self.trick) == 4:
            leader = self.leader
            assert leader is not None
            winner = trick_winner(leader, self.trick, trump)
            c = self.trick
            done = Trick(leader, (c[0], c[1], c[2], c[3]), winner)
            self.tricks.append(done)
            self.trick = []
            self.leader = winner
        self._history.append((seat, card, done))
        return done

    def unplay(self) -> Card:
        """Take back the last card played.

        :raises IllegalPlayError: if no card has been played.
        """
        if not self._history:
            raise IllegalPlayError("no card to take back")
        seat, card, done = self._history.pop()
        if done is not None:
            self.tricks.pop()
            self.trick = list(done.cards[:3])
            self.leader = done.leader
        else:
            self.trick.pop()
        h = self._hands[seat] or 0
        self._hands[seat] = h | (1 << card)
        return card

    # -- checks -------------------------------------------------------------------
    def validate(self, *, equal: bool = True, full: bool = False) -> None:
        """Check the position.

        With ``equal`` every known hand must have the size the trick in progress
        implies (an ending); with ``full`` all 52 cards must be dealt.

        :raises InvalidPositionError: naming the problem.
        """
        seen = 0
        for s in range(4):
            h = self._hands[s]
            if h is None:
                continue
            dup = seen & h
            if dup:
                c = (dup & -dup).bit_length() - 1
                raise InvalidPositionError(f"card {CARD_NAMES[c]} is dealt twice")
            seen |= h
        played = 0
        for t in self.tricks:
            for c in t.cards:
                played |= 1 << c
        for c in self.trick:
            played |= 1 << c
        both = seen & played
        if both:
            c = (both & -both).bit_length() - 1
            raise InvalidPositionError(
                f"card {CARD_NAMES[c]} is both held and in the trick or played"
            )
        unknown = [Seat(s) for s in range(4) if self._hands[s] is None]
        if full:
            if unknown:
                raise InvalidPositionError(f"the hand of {unknown[0].name} is unknown")
            total = (seen | played).bit_count()
            if total != 52:
                missing = BB_ALL & ~(seen | played)
                c = (missing & -missing).bit_length() - 1
                raise InvalidPositionError(
                    f"a full deal needs 52 cards, got {total} (missing {CARD_NAMES[c]})"
                )
        if equal:
            sizes = self.sizes()
            n = None
            for s in range(4):
                if self._hands[s] is None:
                    continue
                played = self._played_in_trick(Seat(s))
                k = sizes[s] + played
                if n is None:
                    n = k
                elif k != n:
                    raise InvalidPositionError(
                        "hands of unequal size: "
                        + ", ".join(f"{Seat(t).name} {sizes[t]}" for t in range(4))
                    )
            if n is not None and not 1 <= n <= 13:
                raise InvalidPositionError(f"an ending needs 1 to 13 cards a hand, got {n}")

    def _played_in_trick(self, seat: Seat) -> int:
        if not self.trick or self.leader is None:
            return 0
        return 1 if (seat - self.leader) & 3 < len(self.trick) else 0

    def complete(self) -> Deal:
        """A copy with the one unknown hand filled in, when the other three hold 39 cards."""
        d = self.copy()
        unknown = [s for s in range(4) if d._hands[s] is None]
        if len(unknown) == 1:
            rest = BB_ALL
            for s in range(4):
                rest &= ~(d._hands[s] or 0)
            for c in d.trick:
                rest &= ~(1 << c)
            if rest.bit_count() == 13 and not d.trick and not d.tricks:
                d._hands[unknown[0]] = rest
        return d

    # -- text ---------------------------------------------------------------------
    def to_pbn(self, first: Seat | int | None = None) -> str:
        """The PBN Deal tag value, starting from ``first`` (default: the deal's own first seat)."""
        f = self.first if first is None else Seat(first)
        parts = []
        for i in range(4):
            h = self._hands[(f + i) & 3]
            parts.append("-" if h is None else hand_to_pbn(h))
        return f"{f.name}:" + " ".join(parts)

    def __str__(self) -> str:
        return self.to_pbn()

    def __repr__(self) -> str:
        extra = "" if self.leader is None else f", leader=Seat.{self.leader.name}"
        return f"Deal({self.to_pbn()!r}{extra})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Deal):
            return NotImplemented
        return (
            self._hands == other._hands
            and self.trick == other.trick
            and (self.leader == other.leader or not self.trick)
        )

    def __hash__(self) -> int:
        return hash((tuple(self._hands), tuple(self.trick)))

    def suit_holding(self, seat: Seat | int, suit: int) -> int:
        """A seat's holding in one suit as a 13-bit mask (bit 12 the Ace)."""
        return (self.mask(seat) & BB_SUITS[suit]) >> (16 * suit)


def as_deal(value: Deal | str) -> Deal:
    """A :class:`Deal`, or one read from a PBN deal string (the deal itself, not a copy).

    :raises ParseError: for anything else, or malformed text.
    :raises InvalidPositionError: for a card dealt twice.
    """
    if isinstance(value, Deal):
        return value
    if isinstance(value, str):
        return Deal(value)
    raise ParseError(f"a deal is a Deal or PBN text such as 'N:AK.. ...', not {value!r}")


def _parse_deal(text: str) -> tuple[list[int | None], Seat]:
    t = text.strip()
    if len(t) < 2 or t[1] != ":":
        raise ParseError(f"invalid deal: {text!r} (expected 'N:hand hand hand hand')")
    first = parse_seat(t[0])
    fields = t[2:].split()
    if len(fields) != 4:
        raise ParseError(f"invalid deal: {text!r} (expected 4 hands, got {len(fields)})")
    hands: list[int | None] = [None, None, None, None]
    seen = 0
    for i, f in enumerate(fields):
        seat = (first + i) & 3
        if f == "-":
            continue
        h = hand_from_pbn(f)
        dup = seen & h
        if dup:
            c = (dup & -dup).bit_length() - 1
            raise InvalidPositionError(f"card {CARD_NAMES[c]} is dealt twice in {text!r}")
        seen |= h
        hands[seat] = h
    return hands, first
