"""The plain rules engine: legal cards, tricks and scores, Dominoes moves.

Slow and obviously right: this module is the oracle the compiled search is tested
against and the stepper the analyser uses.  Nothing here is clever; every duty of
SPEC §2 and §4 is one readable ``if``.

Trick contracts::

    >>> from barbu_dd.contracts import make_game
    >>> from barbu_dd.deal import Deal
    >>> g = make_game("barbu", rules="french")
    >>> d = Deal("N:A.2.. .K.2. 2.3.. 3.4..", leader="N")
    >>> trick_number(d)
    12
    >>> play_out(d, g, ["SA", "HK", "S2", "S3"])
    (-80, 0, 0, 0)

Dominoes (an ending: the table holds every card no seat holds)::

    >>> from barbu_dd.cards import hand_from_pbn
    >>> g = make_game("dominoes", start="9")
    >>> hands = [hand_from_pbn(h) for h in ("J...", "KQ...", "A...", "...")]
    >>> pos = DominoPosition.from_hands(hands, g, Seat.N)
    >>> str(pos.layout), sorted(pos.already_out)
    ('S:2-T H:2-A D:2-A C:2-A', [<Seat.W: 3>])
    >>> pos = domino_play_out(pos, g, ["SJ", "SQ", "pass", "SK"])
    >>> domino_finished(pos), domino_places(pos), domino_scores(g, domino_places(pos))
    (True, (2, 3, 4, None), (20, 5, -5, None))

Decisions where the SPEC leaves a point open (see also the function docstrings):

- **Trick numbers** are computed from the cards, never from a counter: with ``m``
  cards still held or in the trick in progress, the current trick is number
  ``14 - m // 4`` (an ending with ``n`` cards a hand starts at trick ``14 - n``,
  SPEC §1).  A deal with no cards left is at "trick 14": the play is over.
- **K♥ duty** needs no memory of earlier tricks: a player who is void in the suit led
  and still holds K♥ has never been void with it before (they would have had to
  discard it then), so "the first time they cannot follow suit" is "whenever they
  cannot follow suit while holding it".  In an ending the earlier tricks are unknown,
  and this is the only consistent reading.  Leading K♥ is never forced.
- **Trumps duties** apply only to the following players; the leader is free.
- **Ravage City** is scored once, on the tricks given; when nobody won a trick (no
  tricks at all) every score is 0.  Cards won before an ending are not counted (they
  belong to the uncounted earlier tricks).  Shares are :class:`~fractions.Fraction`
  unless whole, then ``int``.
- **Dominoes endings**: the cards on the table are every card no seat holds.  A seat
  with no cards in the position is *already out*: those seats took the best places
  in some unknown order, so they get no place (``None``) and the seats still holding
  cards take the remaining places in the order they go out (with one seat already
  out, the others finish 2nd, 3rd and 4th).  A seat to move that has no cards is
  skipped.  The deal ends when three seats are out; the fourth is last.
- **Ace replays**: after playing an Ace a player who still has a playable card plays
  again at once; otherwise (or when they went out with it) play passes on.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import TypeAlias

from .cards import (
    BB_ALL,
    BB_HEARTS,
    BB_KH,
    BB_SUITS,
    RANK_CHARS,
    SEATS,
    SUIT_CHARS,
    Card,
    Rank,
    Seat,
    Suit,
    card_name,
    hand_to_pbn,
    iter_cards,
    make_card,
    parse_card,
)
from .contracts import Game
from .deal import Deal, Trick
from .errors import IllegalPlayError, InvalidPositionError

__all__ = [
    "Score",
    "legal_mask",
    "legal_cards",
    "is_legal",
    "check_card",
    "play_card",
    "trick_number",
    "trick_value",
    "points_at_stake",
    "score_tricks",
    "play_out",
    "Layout",
    "DominoPosition",
    "domino_moves",
    "domino_play",
    "domino_play_out",
    "domino_finished",
    "domino_places",
    "domino_scores",
]

#: A seat's score: an ``int``, or a :class:`~fractions.Fraction` for a split
#: Ravage City penalty that is not whole.
Score: TypeAlias = int | Fraction

_SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")


def _whole(x: Fraction | int) -> Score:
    """``x`` as an ``int`` when whole, else the :class:`Fraction`."""
    if isinstance(x, Fraction) and x.denominator == 1:
        return int(x)
    return x


def _as_card(card: Card | str) -> Card:
    return parse_card(card) if isinstance(card, str) else int(card)


# -- trick play ---------------------------------------------------------------------


def _need_tricks(game: Game) -> None:
    if game.kind == "dominoes":
        raise IllegalPlayError(f"{game.contract.name} has no tricks: use the domino functions")


def _hand(deal: Deal, seat: Seat) -> int:
    if not deal.is_known(seat):
        raise InvalidPositionError(f"the hand of {seat.name} is unknown")
    return deal.mask(seat)


def trick_number(deal: Deal) -> int:
    """The number (1..13) of the trick in progress, from the cards held and in the trick.

    An ending with ``n`` cards a hand starts at trick ``14 - n``; 14 means the play is over.

    :raises InvalidPositionError: if a hand is unknown, no leader is set mid-trick, or
        the hand sizes do not fit one ending.

    >>> trick_number(Deal("N:AK... QJ... T9... 87...", leader="N"))
    12
    """
    for s in range(4):
        if not deal.is_known(s):
            raise InvalidPositionError(f"the hand of {Seat(s).name} is unknown")
    sizes = [m.bit_count() for m in deal.masks]
    k = len(deal.trick)
    left = sum(sizes) + k
    if left % 4 or k > 3:
        raise InvalidPositionError(
            "hands of unequal size: " + ", ".join(f"{Seat(s).name} {sizes[s]}" for s in range(4))
        )
    m = left // 4
    if k:
        leader = deal.leader
        if leader is None:
            raise InvalidPositionError("no leader is set for this position")
        expected = [m - (1 if (s - leader) & 3 < k else 0) for s in range(4)]
    else:
        expected = [m] * 4
    if sizes != expected or m > 13:
        raise InvalidPositionError(
            "hands of unequal size: " + ", ".join(f"{Seat(s).name} {sizes[s]}" for s in range(4))
        )
    return 14 - m


def _stages(deal: Deal, game: Game) -> tuple[int, list[tuple[int, str]]]:
    """The hand of the seat to move and the successive restrictions on it.

    Each restriction is ``(allowed mask, reason)``; each mask is a subset of the one
    before, and the last (or the hand) is the set of legal cards.  A card is refused
    by the first restriction that excludes it, which names the precise rule.
    """
    _need_tricks(game)
    seat = deal.to_move
    hand = _hand(deal, seat)
    stages: list[tuple[int, str]] = []
    trick = deal.trick
    if not trick:
        # The leader: only the heart-lead rule restricts a lead.
        if game.heart_lead:
            others = hand & ~BB_HEARTS
            if others and hand & BB_HEARTS:
                stages.append((others, "may not lead a heart while holding another suit"))
        return hand, stages
    led = trick[0] >> 4
    trump = game.trump
    suit = hand & BB_SUITS[led]
    if suit:
        stages.append((suit, "must follow suit"))
        if game.king_duty and led == Suit.H and hand & BB_KH:
            stages.append((BB_KH, "must play HK when hearts are led (king of hearts duty)"))
        if game.trump_duties and trump is not None and led == trump:
            over = _above(suit, _top_trump(trick, trump))
            if over:
                stages.append((over, "must overtrump"))
        return hand, stages
    # Void in the suit led.
    if game.king_duty and hand & BB_KH:
        stages.append((BB_KH, "must discard HK (king of hearts duty)"))
        return hand, stages
    if game.trump_duties and trump is not None:
        trumps = hand & BB_SUITS[trump]
        if trumps:
            top = _top_trump(trick, trump)
            if top is None:
                stages.append((trumps, "must trump"))
            else:
                over = _above(trumps, top)
                if over:
                    stages.append((over, "must overtrump"))
                # else: cannot beat the trump(s) in the trick, any card may be played
    return hand, stages


def _top_trump(trick: Sequence[Card], trump: int) -> Card | None:
    tops = [c for c in trick if c >> 4 == trump]
    return max(tops) if tops else None


def _above(mask: int, card: Card | None) -> int:
    """The cards of ``mask`` above ``card`` in its suit (all of ``mask`` for ``None``)."""
    if card is None:
        return mask
    return mask & BB_SUITS[card >> 4] & ~((1 << (card + 1)) - 1)


def _cards(mask: int) -> list[Card]:
    """The cards of a mask in :func:`~barbu_dd.cards.iter_cards` order (suits S H D C,
    high rank first), visiting only the set bits."""
    out = []
    for s in range(4):
        lane = (mask >> (16 * s)) & 0x1FFF
        while lane:
            r = lane.bit_length() - 1
            out.append(16 * s + r)
            lane ^= 1 << r
    return out


def legal_mask(deal: Deal, game: Game) -> int:
    """The legal cards of the seat to move, as a mask.

    :raises InvalidPositionError: if no leader is set or the hand is unknown.
    :raises IllegalPlayError: for a Dominoes game (no tricks).

    >>> from barbu_dd.contracts import make_game
    >>> from barbu_dd.cards import CardSet
    >>> d = Deal("N:A.2.. K.3.. Q.4.. J.5..", leader="N")
    >>> str(CardSet(legal_mask(d, make_game("no-hearts"))))
    'A...'
    """
    hand, stages = _stages(deal, game)
    return stages[-1][0] if stages else hand


def legal_cards(deal: Deal, game: Game) -> list[Card]:
    """The legal cards of the seat to move, in :func:`~barbu_dd.cards.iter_cards` order.

    :raises InvalidPositionError: if no leader is set or the hand is unknown.
    :raises IllegalPlayError: for a Dominoes game (no tricks).

    >>> from barbu_dd.contracts import make_game
    >>> d = Deal("N:A.2.. K.3.. Q.4.. J.5..", leader="N")
    >>> from barbu_dd.cards import SA
    >>> d.play(SA)
    >>> [card_name(c) for c in legal_cards(d, make_game("no-hearts"))]
    ['SK']
    """
    return _cards(legal_mask(deal, game))


def is_legal(deal: Deal, game: Game, card: Card | str) -> bool:
    """Whether the seat to move may play ``card``.

    :raises InvalidPositionError: if no leader is set or the hand is unknown.
    """
    return bool(legal_mask(deal, game) >> _as_card(card) & 1)


def check_card(deal: Deal, game: Game, card: Card | str) -> None:
    """Check that the seat to move may play ``card``.

    :raises IllegalPlayError: naming the card, the trick number and the rule broken
        (not held, must follow suit, heart lead, K♥ duty, must trump, must overtrump).
    :raises InvalidPositionError: if no leader is set or a hand is unknown.

    >>> from barbu_dd.contracts import make_game
    >>> d = Deal("N:A.2.. K.3.. Q.4.. J.5..", leader="N")
    >>> check_card(d, make_game("no-hearts"), "H2")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    barbu_dd.errors.IllegalPlayError: trick 12: N may not lead a heart while ..., cannot lead H2
    """
    c = _as_card(card)
    seat = deal.to_move
    number = trick_number(deal)
    hand, stages = _stages(deal, game)
    name = card_name(c)
    if not hand >> c & 1:
        raise IllegalPlayError(f"trick {number}: {seat.name} does not hold {name}")
    verb = "lead" if not deal.trick else "play"
    for mask, reason in stages:
        if not mask >> c & 1:
            raise IllegalPlayError(f"trick {number}: {seat.name} {reason}, cannot {verb} {name}")


def play_card(deal: Deal, game: Game, card: Card | str) -> Trick | None:
    """Check and play ``card`` for the seat to move; the completed :class:`Trick`, if any.

    :raises IllegalPlayError: if the card may not be played (see :func:`check_card`).
    :raises InvalidPositionError: if no leader is set or a hand is unknown.
    """
    c = _as_card(card)
    check_card(deal, game, c)
    return deal.play(c, trump=game.trump)


def trick_value(game: Game, cards: Iterable[Card], number: int) -> int:
    """The points of trick number ``number`` holding ``cards``, for its winner.

    :raises ValueError: if ``number`` is not 1..13.

    >>> from barbu_dd.contracts import make_game
    >>> cards = [parse_card(c) for c in ("HQ", "SA", "S2", "S3")]
    >>> trick_value(make_game("salad", rules="french"), cards, 12)  # trick, heart, queen, 12th
    -70
    """
    if not 1 <= number <= 13:
        raise ValueError(f"invalid trick number: {number!r} (1..13)")
    cp = game.card_points
    return game.trick_points[number - 1] + sum(cp[c] for c in cards)


def points_at_stake(deal: Deal, game: Game) -> Score:
    """What the rest of the play hands out in all: every point of the remaining tricks.

    For Ravage City the penalty, if a trick is left to play (else 0).

    :raises InvalidPositionError: if a hand is unknown or the sizes do not fit an ending.
    :raises IllegalPlayError: for a Dominoes game (no tricks).
    """
    _need_tricks(game)
    number = trick_number(deal)
    if number > 13:
        return 0
    if game.kind == "ravage":
        return game.scoring.penalty
    cp = game.card_points
    cards = list(deal.trick)
    for s in range(4):
        cards.extend(iter_cards(deal.mask(s)))
    return sum(game.trick_points[number - 1 : 13]) + sum(cp[c] for c in cards)


def _ravage_shares(game: Game, won: Sequence[Sequence[int]]) -> tuple[Score, Score, Score, Score]:
    """Ravage City scores from the per-seat, per-suit counts of cards won."""
    best = [max(w) for w in won]
    top = max(best)
    if top == 0:
        return (0, 0, 0, 0)
    losers = [s for s in range(4) if best[s] == top]
    share = _whole(Fraction(game.scoring.penalty, len(losers)))
    out: list[Score] = [share if s in losers else 0 for s in range(4)]
    return (out[0], out[1], out[2], out[3])


def score_tricks(
    game: Game, tricks: Sequence[Trick], first_number: int
) -> tuple[Score, Score, Score, Score]:
    """The scores (N, E, S, W) for completed tricks numbered from ``first_number``.

    Ravage City is scored on the tricks given as a whole (a full play-out of the
    position); when there are none, every score is 0.

    :raises ValueError: if the trick numbers leave 1..13.
    :raises IllegalPlayError: for a Dominoes game (no tricks).

    >>> from barbu_dd.contracts import make_game
    >>> from barbu_dd.cards import HQ, HK, HA, H2
    >>> t = Trick(Seat.N, (HQ, HK, HA, H2), Seat.S)
    >>> score_tricks(make_game("no-hearts"), [t], 13)
    (0, 0, -12, 0)
    """
    _need_tricks(game)
    if tricks and not (1 <= first_number and first_number + len(tricks) - 1 <= 13):
        raise ValueError(
            f"invalid trick numbers: {len(tricks)} tricks from number {first_number!r}"
        )
    if game.kind == "ravage":
        won = [[0] * 4 for _ in range(4)]
        for t in tricks:
            for c in t.cards:
                won[t.winner][c >> 4] += 1
        return _ravage_shares(game, won)
    scores = [0, 0, 0, 0]
    for i, t in enumerate(tricks):
        scores[t.winner] += trick_value(game, t.cards, first_number + i)
    return (scores[0], scores[1], scores[2], scores[3])


def play_out(
    deal: Deal, game: Game, cards: Sequence[Card | str]
) -> tuple[Score, Score, Score, Score]:
    """Play ``cards`` (ints or names) on a copy of ``deal``, checking each; the scores of
    the tricks completed.

    The first completed trick is the one in progress (number :func:`trick_number`).
    For Ravage City give the whole rest of the play.

    :raises IllegalPlayError: at the first card that may not be played.
    :raises ParseError: if a name is not a card.
    :raises InvalidPositionError: if no leader is set or a hand is unknown.
    """
    d = deal.copy()
    first = trick_number(d)
    done: list[Trick] = []
    for card in cards:
        t = play_card(d, game, card)
        if t is not None:
            done.append(t)
    return score_tricks(game, done, first)


# -- Dominoes / Réussite --------------------------------------------------------------


def _order(rank: int, low_aces: bool) -> int:
    """The place of a rank in a suit's run: 0..12, 2..A, or A..K with low aces."""
    return (rank + 1) % 13 if low_aces else rank


def _rank_at(order: int, low_aces: bool) -> int:
    """The rank (0..12) at a place of a suit's run (the inverse of :func:`_order`)."""
    return (order - 1) % 13 if low_aces else order


@dataclass(frozen=True)
class Layout:
    """The cards on the Dominoes table: for each suit ``None`` or its run ``(low, high)``.

    ``low`` and ``high`` are ranks; with ``low_aces`` the Ace is below the 2, so a run
    from the Ace to the 5 is ``(Rank.A, Rank.R5)``.

    >>> from barbu_dd.cards import hand_from_pbn
    >>> lay = Layout.from_cards(hand_from_pbn("T9.9.."), Rank.R9)
    >>> str(lay)
    'S:9-T H:9 D:- C:-'
    >>> [card_name(c) for c in iter_cards(lay.playable)]
    ['SJ', 'S8', 'HT', 'H8', 'D9', 'C9']
    """

    runs: tuple[
        tuple[Rank, Rank] | None,
        tuple[Rank, Rank] | None,
        tuple[Rank, Rank] | None,
        tuple[Rank, Rank] | None,
    ]
    start: Rank
    low_aces: bool = False

    def __post_init__(self) -> None:
        if len(self.runs) != 4:
            raise InvalidPositionError(f"a layout needs 4 suits, got {len(self.runs)}")
        s0 = _order(self.start, self.low_aces)
        for s, run in enumerate(self.runs):
            if run is None:
                continue
            lo, hi = (_order(r, self.low_aces) for r in run)
            if not lo <= s0 <= hi:
                raise InvalidPositionError(
                    f"invalid layout: the {_SUIT_NAMES[s]} run "
                    f"{RANK_CHARS[run[0]]}-{RANK_CHARS[run[1]]} does not contain the "
                    f"{RANK_CHARS[self.start]}"
                )

    @classmethod
    def empty(cls, start: Rank | int, low_aces: bool = False) -> Layout:
        """An empty table."""
        return cls((None, None, None, None), Rank(start), low_aces)

    @classmethod
    def from_cards(cls, mask: int, start: Rank | int, low_aces: bool = False) -> Layout:
        """The layout of the cards ``mask`` on the table.

        :raises InvalidPositionError: if a suit is not one unbroken run containing the
            starting rank.
        """
        st = Rank(start)
        runs: list[tuple[Rank, Rank] | None] = []
        for s in range(4):
            lane = (mask >> (16 * s)) & 0x1FFF
            if not lane:
                runs.append(None)
                continue
            orders = sorted(_order(r, low_aces) for r in range(13) if lane >> r & 1)
            lo, hi = orders[0], orders[-1]
            s0 = _order(st, low_aces)
            if hi - lo + 1 != len(orders) or not lo <= s0 <= hi:
                held = "".join(RANK_CHARS[r] for r in range(12, -1, -1) if lane >> r & 1)
                raise InvalidPositionError(
                    f"invalid layout: the {_SUIT_NAMES[s]} on the table ({held}) are not "
                    f"one unbroken run containing the {RANK_CHARS[st]}"
                )
            runs.append((Rank(_rank_at(lo, low_aces)), Rank(_rank_at(hi, low_aces))))
        return cls((runs[0], runs[1], runs[2], runs[3]), st, low_aces)

    @cached_property
    def mask(self) -> int:
        """The cards on the table."""
        m = 0
        for s, run in enumerate(self.runs):
            if run is None:
                continue
            lo, hi = (_order(r, self.low_aces) for r in run)
            places = ((1 << (hi + 1)) - 1) & ~((1 << lo) - 1)  # bits lo..hi, by place
            if self.low_aces:  # place 0 holds the Ace, place o the rank o - 1
                lane = (places >> 1) | ((places & 1) << Rank.A)
            else:
                lane = places
            m |= lane << (16 * s)
        return m

    @cached_property
    def playable(self) -> int:
        """The cards that may be played next (held by anyone), as a mask."""
        m = 0
        for s, run in enumerate(self.runs):
            if run is None:
                m |= 1 << make_card(s, self.start)
                continue
            lo, hi = (_order(r, self.low_aces) for r in run)
            if lo > 0:
                m |= 1 << make_card(s, _rank_at(lo - 1, self.low_aces))
            if hi < 12:
                m |= 1 << make_card(s, _rank_at(hi + 1, self.low_aces))
        return m

    def add(self, card: Card) -> Layout:
        """The layout with ``card`` played.

        :raises IllegalPlayError: if the card is not playable on this layout.
        """
        if not self.playable >> card & 1:
            raise IllegalPlayError(f"{card_name(card)} is not playable on {self}")
        s, r = card >> 4, Rank(card & 15)
        runs = list(self.runs)
        run = runs[s]
        if run is None:
            runs[s] = (r, r)
        elif _order(r, self.low_aces) < _order(run[0], self.low_aces):
            runs[s] = (r, run[1])
        else:
            runs[s] = (run[0], r)
        return Layout((runs[0], runs[1], runs[2], runs[3]), self.start, self.low_aces)

    def __str__(self) -> str:
        parts = []
        for s, run in enumerate(self.runs):
            if run is None:
                text = "-"
            elif run[0] == run[1]:
                text = RANK_CHARS[run[0]]
            else:
                text = f"{RANK_CHARS[run[0]]}-{RANK_CHARS[run[1]]}"
            parts.append(f"{SUIT_CHARS[s]}:{text}")
        return " ".join(parts)


@dataclass(frozen=True)
class DominoPosition:
    """A Dominoes / Réussite position: hands, table, seat to move and who is out.

    ``order`` is the finishing order of the seats that went out from this ending on;
    ``already_out`` the seats that held no cards when the ending began (no place).
    """

    hands: tuple[int, int, int, int]
    layout: Layout
    to_move: Seat
    order: tuple[Seat, ...] = ()
    already_out: frozenset[Seat] = frozenset()

    def __post_init__(self) -> None:
        seen = self.layout.mask
        for h in self.hands:
            if seen & h:
                c = ((seen & h) & -(seen & h)).bit_length() - 1
                raise InvalidPositionError(f"card {card_name(c)} is held twice or on the table")
            seen |= h
        if seen != BB_ALL:
            c = ((BB_ALL & ~seen) & -(BB_ALL & ~seen)).bit_length() - 1
            raise InvalidPositionError(f"card {card_name(c)} is neither held nor on the table")
        out = self.already_out | frozenset(self.order)
        if len(out) != len(self.already_out) + len(self.order):
            raise InvalidPositionError("a seat went out twice")
        for s in range(4):
            if (Seat(s) in out) != (not self.hands[s]):
                state = "is out but holds cards" if self.hands[s] else "has no cards but is not out"
                raise InvalidPositionError(f"{Seat(s).name} {state}")
        if not self.hands[self.to_move] and len(out) < 3:
            raise InvalidPositionError(f"the seat to move, {self.to_move.name}, has no cards")

    @classmethod
    def from_hands(cls, hands: Sequence[int], game: Game, to_move: Seat | int) -> DominoPosition:
        """An ending: the table holds every card no seat holds; empty hands are already out.

        :raises InvalidPositionError: for a card held twice or a broken layout.
        """
        _need_dominoes(game)
        if len(hands) != 4:
            raise InvalidPositionError(f"a deal needs 4 hands, got {len(hands)}")
        hs = tuple(int(h) & BB_ALL for h in hands)
        held = 0
        for h in hs:
            if held & h:
                c = ((held & h) & -(held & h)).bit_length() - 1
                raise InvalidPositionError(f"card {card_name(c)} is dealt twice")
            held |= h
        assert game.start is not None
        layout = Layout.from_cards(BB_ALL & ~held, game.start, game.low_aces)
        out = frozenset(Seat(s) for s in range(4) if not hs[s])
        seat = Seat(to_move)
        if not hs[seat] and len(out) < 4:
            seat = _next_in(hs, seat)
        return cls((hs[0], hs[1], hs[2], hs[3]), layout, seat, (), out)

    @classmethod
    def from_deal(cls, deal: Deal, game: Game) -> DominoPosition:
        """An ending from a deal's hands, with its leader to move.

        :raises InvalidPositionError: for an unknown hand, no leader, or a broken layout.
        """
        if deal.leader is None:
            raise InvalidPositionError("no seat to move is set for this position")
        hands = [_hand(deal, Seat(s)) for s in range(4)]
        return cls.from_hands(hands, game, deal.leader)

    @property
    def out(self) -> frozenset[Seat]:
        """Every seat with no cards (already out, or gone out since)."""
        return self.already_out | frozenset(self.order)

    def __str__(self) -> str:
        hands = " ".join(hand_to_pbn(h) for h in self.hands)
        return f"N:{hands} [{self.layout}] {self.to_move.name} to move"


def _need_dominoes(game: Game) -> None:
    if game.kind != "dominoes" or game.start is None:
        raise IllegalPlayError(f"{game.contract.name} is not a dominoes contract")


def _next_in(hands: Sequence[int], seat: Seat) -> Seat:
    """The next seat clockwise after ``seat`` that holds cards (``seat`` if none does)."""
    for i in range(1, 5):
        s = Seat((seat + i) & 3)
        if hands[s]:
            return s
    return seat


def domino_finished(pos: DominoPosition) -> bool:
    """Whether the deal is over: three seats (or more) are out."""
    return len(pos.out) >= 3


def domino_moves(pos: DominoPosition, game: Game) -> list[Card]:
    """The cards the seat to move may play (empty: it must pass, or the deal is over).

    :raises IllegalPlayError: if the game is not Dominoes / Réussite.
    """
    _need_dominoes(game)
    if domino_finished(pos):
        return []
    return _cards(pos.hands[pos.to_move] & pos.layout.playable)


def domino_play(pos: DominoPosition, game: Game, card: Card | str | None) -> DominoPosition:
    """The position after the seat to move plays ``card`` (``None``: passes).

    :raises IllegalPlayError: if the deal is over, the card is not held or not
        playable, or the seat passes while it has a playable card.
    """
    _need_dominoes(game)
    seat = pos.to_move
    if domino_finished(pos):
        raise IllegalPlayError("dominoes: the deal is over")
    moves = domino_moves(pos, game)
    if card is None:
        if moves:
            names = ", ".join(card_name(c) for c in moves)
            raise IllegalPlayError(f"dominoes: {seat.name} must play ({names}), cannot pass")
        return DominoPosition(
            pos.hands, pos.layout, _next_in(pos.hands, seat), pos.order, pos.already_out
        )
    c = _as_card(card)
    if not pos.hands[seat] >> c & 1:
        raise IllegalPlayError(f"dominoes: {seat.name} does not hold {card_name(c)}")
    if c not in moves:
        raise IllegalPlayError(
            f"dominoes: {seat.name} cannot play {card_name(c)}, it does not fit the table "
            f"[{pos.layout}]"
        )
    hands = list(pos.hands)
    hands[seat] &= ~(1 << c)
    layout = pos.layout.add(c)
    order = pos.order + (seat,) if not hands[seat] else pos.order
    hs = (hands[0], hands[1], hands[2], hands[3])
    nxt = _next_in(hs, seat)
    if game.ace_replays and c & 15 == Rank.A and hs[seat] and hs[seat] & layout.playable:
        nxt = seat
    return DominoPosition(hs, layout, nxt, order, pos.already_out)


def domino_play_out(
    pos: DominoPosition, game: Game, moves: Sequence[Card | str | None]
) -> DominoPosition:
    """Play a sequence of moves (cards, names, or ``None`` / ``'pass'`` for a pass).

    :raises IllegalPlayError: at the first move that is not allowed.
    """
    for m in moves:
        if isinstance(m, str) and m.strip().lower() in ("pass", "-", "p"):
            m = None
        pos = domino_play(pos, game, m)
    return pos


def domino_places(pos: DominoPosition) -> tuple[int | None, int | None, int | None, int | None]:
    """The finishing place (1..4) of each seat, ``None`` for seats already out at the start.

    :raises InvalidPositionError: if the deal is not over.
    """
    if not domino_finished(pos):
        raise InvalidPositionError("the dominoes deal is not over")
    places: list[int | None] = [None] * 4
    k = len(pos.already_out)
    for i, s in enumerate(pos.order):
        places[s] = k + i + 1
    for seat in SEATS:
        if seat not in pos.out:
            places[seat] = 4
    return (places[0], places[1], places[2], places[3])


def domino_scores(
    game: Game, places: Sequence[int | None]
) -> tuple[int | None, int | None, int | None, int | None]:
    """The points of each seat's finishing place (``None`` stays ``None``).

    :raises ValueError: for a place outside 1..4.
    """
    out: list[int | None] = []
    for p in places:
        if p is None:
            out.append(None)
        elif 1 <= p <= 4:
            out.append(game.places[p - 1])
        else:
            raise ValueError(f"invalid finishing place: {p!r} (1..4)")
    return (out[0], out[1], out[2], out[3])
