"""Dominoes and Réussite, double dummy: the position checks and the call into the core.

The public entry points are :func:`barbu_dd.solver.solve` (``contract="dominoes"`` or
``"reussite"``) and :func:`barbu_dd.solver.best_start`; this module turns a
:class:`~barbu_dd.deal.Deal` into what the compiled search (:mod:`barbu_dd._dominoes`)
reads, checks it first with clear messages, and maps the core's error codes.

A position is four hands of any sizes; every card no seat holds is on the table, and
must form, for each suit, nothing or one unbroken run holding the starting rank
(SPEC §4).  The seat to move is the declarer (the first player of a full deal); a
seat to move with no cards is skipped.  Seats with no cards are already out and get
no score (``None``).

>>> from barbu_dd.contracts import make_game
>>> from barbu_dd._dominoes import DominoSolver
>>> g = make_game("dominoes", start="9")
>>> r = solve_dominoes(DominoSolver(1 << 20), "N:J... KQ... A... ...", g, declarer="N")
>>> r.scores, r.mover
((20, 5, -5, None), <Seat.N: 0>)
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass

from . import _dominoes
from .cards import BB_ALL, RANK_CHARS, SEATS, Rank, Seat, card_name, to_seat
from .contracts import Game
from .deal import Deal, as_deal
from .errors import IllegalPlayError, InvalidPositionError, SolverError
from .play import Layout

__all__ = [
    "DEFAULT_DOMINO_TT_BYTES",
    "DominoResult",
    "domino_hands",
    "check_layout",
    "first_mover",
    "possible_starts",
    "solve_dominoes",
]

#: The largest memory of the Dominoes transposition table (at most the solver's).  The
#: searches are small (a full deal's hardest seat, a few hundred thousand positions):
#: a larger table saves little, and each of its pages costs a fault on first use.
DEFAULT_DOMINO_TT_BYTES = 16 * 1024 * 1024

_SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")


@dataclass(frozen=True)
class DominoResult:
    """What one call into the core gives: the position solved and each seat's points."""

    deal: str
    mover: Seat
    scores: tuple[int | None, int | None, int | None, int | None]
    nodes: int
    seconds: float


def _need_dominoes(game: Game) -> int:
    if game.kind != "dominoes" or game.start is None:
        raise IllegalPlayError(f"{game.contract.name} is not a dominoes contract")
    return int(game.start)


def domino_hands(deal: Deal | str) -> tuple[Deal, tuple[int, int, int, int]]:
    """The deal and its four hands (a single unknown hand of a full deal is filled in).

    :raises InvalidPositionError: for an unknown hand, a card dealt twice, or a trick
        in progress (Dominoes has no tricks).
    :raises ParseError: for a malformed deal string.

    >>> domino_hands("N:AK... - QJ... T...")
    Traceback (most recent call last):
    ...
    barbu_dd.errors.InvalidPositionError: the hand of E is unknown: dominoes needs all four
    """
    d = as_deal(deal)
    if d.trick:
        raise InvalidPositionError("dominoes has no tricks, but a trick is in progress")
    d = d.complete()
    for s in SEATS:
        if not d.is_known(s):
            raise InvalidPositionError(f"the hand of {s.name} is unknown: dominoes needs all four")
    d.validate(equal=False)
    m = d.masks
    return d, (m[0], m[1], m[2], m[3])


def check_layout(hands: Iterable[int], game: Game) -> Layout:
    """The table of a Dominoes position: every card no seat holds.

    :raises InvalidPositionError: naming the suit whose cards on the table are not one
        unbroken run holding the starting rank.

    >>> from barbu_dd.contracts import make_game
    >>> from barbu_dd.cards import hand_from_pbn
    >>> g = make_game("dominoes", start="9")
    >>> str(check_layout([hand_from_pbn(h) for h in ("AK...", "QJ...", "T...", "...")], g))
    'S:2-9 H:2-A D:2-A C:2-A'
    >>> check_layout([hand_from_pbn(h) for h in ("AK...", "QJ...", "9...", "...")], g)
    Traceback (most recent call last):
    ...
    barbu_dd.errors.InvalidPositionError: invalid layout: the spades on the table (T8765432) are ...
    """
    start = _need_dominoes(game)
    held = 0
    for h in hands:
        held |= int(h)
    return Layout.from_cards(BB_ALL & ~held, start, game.low_aces)


def first_mover(hands: tuple[int, int, int, int], declarer: Seat) -> Seat:
    """The seat to move: the declarer, or the next seat clockwise holding cards."""
    for i in range(4):
        s = Seat((declarer + i) & 3)
        if hands[s]:
            return s
    return declarer


def possible_starts(hands: Iterable[int], low_aces: bool = False) -> tuple[Rank, ...]:
    """The starting ranks for which the table of this position is a legal layout (all
    13 for a full deal, whose table is empty).

    >>> from barbu_dd.cards import hand_from_pbn
    >>> n = "AKQJT98765432.AKQJT.AKQJT98765432.AKQJT98765432"
    >>> hs = [hand_from_pbn(h) for h in (n, "...", "...", "...")]
    >>> [str(r) for r in possible_starts(hs)]
    ['2', '3', '4', '5', '6', '7', '8', '9']
    """
    held = 0
    for h in hands:
        held |= int(h)
    out = []
    for r in Rank:
        try:
            Layout.from_cards(BB_ALL & ~held, r, low_aces)
        except InvalidPositionError:
            continue
        out.append(r)
    return tuple(out)


def _seat_mask(seats: Iterable[Seat | int | str] | None) -> int:
    if seats is None:
        return 15
    mask = 0
    for s in seats:
        mask |= 1 << to_seat(s)
    return mask


def solve_dominoes(
    core: _dominoes.DominoSolver,
    deal: Deal | str,
    game: Game,
    *,
    declarer: Seat | int | str | None = None,
    seats: Iterable[Seat | int | str] | None = None,
    floor: int | None = None,
) -> DominoResult:
    """Each asked seat's guaranteed place points (``None``: already out, or not asked).

    ``declarer`` moves first (default: the deal's leader); with *dealer declares* the
    declarer is the dealer, and still starts (SPEC §1).  With ``floor``, a score below
    ``floor`` is only an upper bound (the seat cannot guarantee ``floor`` points), which
    takes less search: what :meth:`~barbu_dd.solver.Solver.best_start` needs to rule
    out a starting rank.

    :raises InvalidPositionError: for an unknown hand, a duplicate card, a broken
        layout, or no seat to move.
    :raises IllegalPlayError: if the game is not Dominoes / Réussite.
    :raises SolverError: if the core fails.
    """
    start = _need_dominoes(game)
    d, hands = domino_hands(deal)
    check_layout(hands, game)
    if declarer is not None:
        decl = to_seat(declarer)
    elif d.leader is not None:
        decl = d.leader
    else:
        raise InvalidPositionError("no declarer given: the seat to move is not known")
    mover = first_mover(hands, decl)
    t0 = time.perf_counter()
    code, detail, values, nodes = core.solve_position(
        list(hands),
        int(mover),
        start,
        game.low_aces,
        game.ace_replays,
        list(game.places),
        _seat_mask(seats),
        floor,
    )
    secs = time.perf_counter() - t0
    if code < 0:
        raise _core_error(code, detail, game)
    v = [None if x is None else int(x) for x in values]
    return DominoResult(d.to_pbn(), mover, (v[0], v[1], v[2], v[3]), int(nodes), secs)


def _core_error(code: int, detail: int, game: Game) -> Exception:
    """The exception for an error code of the core (checked before: a core bug if seen)."""
    name = _dominoes.ERRORS.get(code)
    if name == "duplicate":
        return InvalidPositionError(f"card {card_name(detail)} is dealt twice")
    if name == "layout":
        start = RANK_CHARS[game.start] if game.start is not None else "?"
        return InvalidPositionError(
            f"invalid layout: the {_SUIT_NAMES[detail]} on the table are not one unbroken run "
            f"containing the {start}"
        )
    return SolverError(f"dominoes core error {code!r}")
