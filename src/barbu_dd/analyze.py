"""The hand analyser: card values, the cost of each card played, a consistent line,
the full table of a deal, and which contract to declare.

Everything here is built on :class:`~barbu_dd.solver.Solver` (one solver per call,
so its transposition table stays warm from one position to the next) and on the
rules engine :mod:`barbu_dd.play` (which checks every card of a play record).  The
answers are frozen dataclasses; the command line only formats them.

- :func:`analyze` — the value of every legal card of the seat to move (from that
  seat's point of view, or another seat's), and with a play record, for every card
  played, the score its player could guarantee before it and after it: a card that
  lowers its own player's guarantee is an error, and costs the difference.
- :func:`playout` — a consistent line: each player, at every turn, plays a card that
  keeps its own guarantee highest; the resulting scores of the four seats.
- :func:`table` — every contract of a rule set by seat, with the declarer's best
  trump suit and starting rank.
- :func:`best_contract` — the declarer's contracts still to play, their value on the
  deal and their gain over the contract's average value (from the averages shipped
  with the package, see :mod:`barbu_dd.averages`).

A player's *guarantee* at some point of the play is what they have won since the
start of the analysed position plus the best score they can guarantee in the rest
of the play against the three others (SPEC §5); in Dominoes, the points of the
place they can guarantee.

N, void in spades, keeps the K♥ instead of discarding it under W's winning S4,
and wins it in the last trick:

>>> a = analyze("N:.K.A. 3.2.. Q2... 4.3..", "barbu", declarer="S",
...             play="S2 S4 DA S3 H3 HK H2 SQ")
>>> [(p.name, p.seat.name, p.before, p.after, p.cost) for p in a.errors]
[('DA', 'N', 0, -20, 20)]
>>> a.costs, a.total_cost, a.scores
((20, 0, 0, 0), 20, (-20, 0, 0, 0))

Decisions:

- **Passes** in a Dominoes / Réussite record are written ``-``, ``pass`` or ``p``; a
  pass is forced, so it may also be left out: when the seat to move has no card to
  play, the next card of the record is taken to be the next seat's, after a pass.
- **Ravage City** is scored on all the cards each player won: after completed
  tricks, the solver is given the cards of each suit each seat has won since the
  analysed position began (the position itself starts with none won).
- **Best cards** (:attr:`CardOption.best`) are the cards that reach the position's
  value for the viewing seat: the highest values when the viewing seat is the one to
  move, the lowest when another seat moves (the three others play against it).
- **The playout's tie-break**: among the cards that keep the mover's guarantee
  highest, the lowest card: lowest rank first (2 … A, also with low Aces), and among
  equal ranks the first suit in the order ♠ ♥ ♦ ♣.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Sequence
from concurrent import futures as cf
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Literal

from .batch import _spawn_pool, _stop_pool, check_workers, table_contracts
from .cards import (
    RANK_CHARS,
    Card,
    Rank,
    Seat,
    card_name,
    parse_card,
    to_seat,
)
from .contracts import (
    Game,
    Scale,
    contracts_of,
    find_contract,
    make_game,
    parse_variants,
    played_set,
)
from .deal import Deal, Trick, as_deal
from .dominoes import possible_starts
from .errors import IllegalPlayError, InvalidPositionError, ParseError
from .pbn import Board, play_sequence
from .play import (
    DominoPosition,
    check_card,
    domino_finished,
    domino_moves,
    domino_places,
    domino_play,
    domino_scores,
    legal_mask,
    score_tricks,
    trick_number,
    trick_value,
)
from .solver import Bounds, Score, Solver, check_limits, leader_for

if TYPE_CHECKING:
    from .averages import Averages

__all__ = [
    "PASS_WORDS",
    "Move",
    "Scores",
    "CardOption",
    "CardValues",
    "PlayedCard",
    "Analysis",
    "LineStep",
    "Playout",
    "TableRow",
    "DealTable",
    "ContractOption",
    "Advice",
    "parse_moves",
    "move_name",
    "board_record",
    "parse_game",
    "analyze",
    "playout",
    "table",
    "best_contract",
    "pick_contract",
]

#: A move: a card, or ``None`` for a pass (Dominoes and Réussite only).
Move = Card | None
#: One score a seat (``None``: not asked, or already out in a Dominoes ending).
Scores = tuple[Score | None, Score | None, Score | None, Score | None]
#: The interval proved for each seat's score by a search a limit stopped.
SeatBounds = tuple[Bounds | None, Bounds | None, Bounds | None, Bounds | None]
#: The words that write a pass in a Dominoes play record.
PASS_WORDS: frozenset[str] = frozenset({"-", "pass", "p"})


def move_name(move: Move) -> str:
    """``'SQ'``, or ``'pass'`` for ``None``.

    >>> move_name(None), move_name(parse_card("qs"))
    ('pass', 'SQ')
    """
    return "pass" if move is None else card_name(move)


def parse_moves(play: str | Iterable[Card | str | None]) -> list[Move]:
    """A play record as moves: text ``"SQ SK S2 SA"`` (spaces or commas) or a sequence
    of cards, names, and passes (``None``, ``'-'``, ``'pass'``).

    :raises ParseError: for a word that is neither a card nor a pass.

    >>> [move_name(m) for m in parse_moves("sq, 10h - pass")]
    ['SQ', 'HT', 'pass', 'pass']
    """
    items: Iterable[Card | str | None]
    items = play.replace(",", " ").split() if isinstance(play, str) else play
    out: list[Move] = []
    for m in items:
        if m is None or (isinstance(m, str) and m.strip().lower() in PASS_WORDS):
            out.append(None)
        elif isinstance(m, str):
            out.append(parse_card(m))
        else:
            out.append(int(m))
    return out


def _num(x: Score | Fraction) -> Score:
    """A score as the solver gives it: ``int`` when whole, else ``float``."""
    if isinstance(x, Fraction):
        return int(x) if x.denominator == 1 else float(x)
    return x


def _four(values: Sequence[Score | None]) -> Scores:
    return (values[0], values[1], values[2], values[3])


def _game_record(game: Game) -> dict[str, object]:
    """The contract part of a JSON record."""
    return {
        "contract": game.contract.name,
        "trump": game.trump_label,
        "start": None if game.start is None else RANK_CHARS[game.start],
        "rules": game.rules,
        "variants": sorted(game.variants),
    }


# -- result types ---------------------------------------------------------------------


@dataclass(frozen=True)
class CardOption:
    """One legal move of the seat to move and its value for the viewing seat.

    ``equals`` are the cards equivalent to ``card`` (the same value, shown once, as
    DDS does); ``card`` is ``None`` for a forced pass in Dominoes.  Under a time
    limit ``bounds`` is the interval the value is proved to lie in (``value`` is
    ``None`` if the search did not finish), and ``best`` says that the card may
    reach the position's value (its interval reaches the position's).
    """

    card: Move
    equals: tuple[Card, ...]
    value: Score | None
    best: bool
    bounds: Bounds | None = None

    @property
    def name(self) -> str:
        """``'SK'``, or ``'pass'``."""
        return move_name(self.card)

    @property
    def cards(self) -> tuple[Move, ...]:
        """The card and its equals."""
        return (self.card, *self.equals)

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready dict."""
        out: dict[str, object] = {
            "card": self.name,
            "equals": [card_name(c) for c in self.equals],
            "value": self.value,
            "best": self.best,
        }
        if self.bounds is not None:
            out["bounds"] = list(self.bounds)
        return out


@dataclass(frozen=True)
class CardValues:
    """The value of every legal move of a position for one viewing seat.

    ``value`` is the position's value for ``view`` (SPEC §5, plus what ``view`` won
    since the analysed position began); ``options`` are the moves, equal cards
    grouped; ``trick`` and ``trick_cards`` (trick contracts) the number of the trick
    in progress and its cards so far; ``layout`` (Dominoes) the table.  Under a time
    limit ``bounds`` is the interval of the position's value (``value`` is ``None``
    unless it is one value).
    """

    game: Game
    deal: str
    mover: Seat
    view: Seat
    value: Score | None
    options: tuple[CardOption, ...]
    trick: int | None = None
    trick_cards: tuple[Card, ...] = ()
    layout: str | None = None
    bounds: Bounds | None = None

    @property
    def best(self) -> tuple[CardOption, ...]:
        """The moves that reach the position's value (see the module's decisions)."""
        return tuple(o for o in self.options if o.best)

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready dict."""
        out: dict[str, object] = {
            "deal": self.deal,
            "mover": self.mover.name,
            "view": self.view.name,
            "value": self.value,
        }
        if self.bounds is not None:
            out["bounds"] = list(self.bounds)
        if self.trick is not None:
            out["trick"] = self.trick
            out["trick_cards"] = [card_name(c) for c in self.trick_cards]
        if self.layout is not None:
            out["layout"] = self.layout
        out["cards"] = [o.as_dict() for o in self.options]
        return out


@dataclass(frozen=True)
class _MoveRecord:
    """A move of a line: its number from 1, the trick number (trick contracts, ``None``
    in Dominoes), who made it and the card (``None``: a pass)."""

    number: int
    trick: int | None
    seat: Seat
    card: Move

    @property
    def name(self) -> str:
        """``'SQ'``, or ``'pass'``."""
        return move_name(self.card)

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready dict."""
        return {
            "number": self.number,
            "trick": self.trick,
            "seat": self.seat.name,
            "card": self.name,
        }


@dataclass(frozen=True)
class PlayedCard(_MoveRecord):
    """One move of a play record and what it did to its player's guarantee.

    ``number`` counts the moves of the record from 1 (inserted forced passes
    included).  ``before`` and ``after`` are the player's guarantee before and after
    the move; ``better``, for an error, lists the moves that kept it.

    Under a time limit (``analyze(..., time_limit=)``) ``before_bounds`` and
    ``after_bounds`` are the intervals the two guarantees are proved to lie in, and
    ``before`` / ``after`` are ``None`` where a search did not finish; ``error`` is
    then a *proved* error (the move's guarantee lies wholly below the one before
    it), ``cost`` what it is proved to cost at least, ``cost_bounds`` the interval
    of its cost, and ``better`` the moves that may have kept the guarantee and are
    proved to keep more than it.
    """

    before: Score | None = 0
    after: Score | None = 0
    better: tuple[Move, ...] = ()
    before_bounds: Bounds | None = None
    after_bounds: Bounds | None = None
    #: the only move (one legal card, or legal cards all equal): its guarantee after
    #: is the one before, so it is never an error
    forced: bool = False

    def _ends(self) -> tuple[Score, Score, Score, Score]:
        b = self.before_bounds or (self.before, self.before)
        a = self.after_bounds or (self.after, self.after)
        assert b[0] is not None and b[1] is not None and a[0] is not None and a[1] is not None
        return b[0], b[1], a[0], a[1]

    @property
    def error(self) -> bool:
        """Whether the move lowered its player's guarantee (under a limit: is proved to)."""
        b_lo, _, _, a_hi = self._ends()
        return a_hi < b_lo

    @property
    def cost(self) -> Score:
        """What the move cost its player (0 when it is not an error; under a limit,
        what it is proved to cost at least)."""
        b_lo, _, _, a_hi = self._ends()
        return b_lo - a_hi if a_hi < b_lo else 0

    @property
    def cost_bounds(self) -> Bounds:
        """The interval of the move's cost (one value without a limit)."""
        _, b_hi, a_lo, _ = self._ends()
        return self.cost, 0 if self.forced else max(b_hi - a_lo, 0)

    @property
    def decided(self) -> bool:
        """Whether it is known if the move is an error (always, without a limit)."""
        return self.error or self.cost_bounds[1] == 0

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready dict (under a limit with ``before_bounds``, ``after_bounds``,
        ``cost_bounds`` and ``decided``)."""
        out: dict[str, object] = {
            **super().as_dict(),
            "before": self.before,
            "after": self.after,
            "cost": self.cost,
            "error": self.error,
            "better": [move_name(m) for m in self.better],
        }
        if self.before_bounds is not None:
            out["before_bounds"] = list(self.before_bounds)
            out["after_bounds"] = list(self.after_bounds or (self.after, self.after))
            out["cost_bounds"] = list(self.cost_bounds)
            out["decided"] = self.decided
            out["forced"] = self.forced
        return out


@dataclass(frozen=True)
class Analysis:
    """A position analysed: the moves of its play record, and the card values where the
    record stops.

    ``costs`` is what the errors cost each seat (N E S W), ``total_cost`` their sum;
    ``position`` the card values after the record (``None`` when the play is over);
    ``won`` what each seat won in the record's completed tricks (trick contracts) or
    the place points of the seats that went out (Dominoes); ``scores`` the final
    scores when the record plays the position to its end.

    With ``time_limit`` (seconds for each search) the guarantees and card values
    are intervals where a search did not finish (see :class:`PlayedCard` and
    :class:`CardOption`): ``errors`` are the proved errors, ``costs`` what they are
    proved to cost at least, ``undecided`` the moves that may or may not be errors,
    and ``cost_bounds`` each player's interval of cost.

    ``complete`` is false for an analysis stopped by Ctrl-C (see :func:`analyze`):
    ``plays`` are then the moves analysed so far, and ``position`` is ``None``.
    """

    game: Game
    deal: str
    leader: Seat
    plays: tuple[PlayedCard, ...]
    costs: tuple[Score, Score, Score, Score]
    position: CardValues | None
    won: Scores
    scores: Scores | None = None
    seconds: float = 0.0
    time_limit: float | None = None
    complete: bool = True

    @property
    def errors(self) -> tuple[PlayedCard, ...]:
        """The moves that lowered their player's guarantee (under a limit: proved to)."""
        return tuple(p for p in self.plays if p.error)

    @property
    def undecided(self) -> tuple[PlayedCard, ...]:
        """The moves a time limit left undecided (none without a limit)."""
        return tuple(p for p in self.plays if not p.decided)

    @property
    def cost_bounds(self) -> tuple[Bounds, Bounds, Bounds, Bounds]:
        """Each player's (N E S W) interval of cost (one value without a limit)."""
        lo: list[Score] = [0, 0, 0, 0]
        hi: list[Score] = [0, 0, 0, 0]
        for p in self.plays:
            c_lo, c_hi = p.cost_bounds
            lo[p.seat] += c_lo
            hi[p.seat] += c_hi
        return (lo[0], hi[0]), (lo[1], hi[1]), (lo[2], hi[2]), (lo[3], hi[3])

    @property
    def exact(self) -> bool:
        """Whether every guarantee and card value is exact (always, without a limit)."""
        ok = all(p.before is not None and p.after is not None for p in self.plays)
        return ok and (
            self.position is None or all(o.value is not None for o in self.position.options)
        )

    @property
    def total_cost(self) -> Score:
        """What the errors cost in all (under a limit: are proved to cost at least)."""
        return sum(self.costs)

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready dict."""
        return {
            **_game_record(self.game),
            "deal": self.deal,
            "leader": self.leader.name,
            "plays": [p.as_dict() for p in self.plays],
            "errors": len(self.errors),
            "costs": {s.name: self.costs[s] for s in Seat},
            "total_cost": self.total_cost,
            "won": {s.name: self.won[s] for s in Seat},
            "scores": None if self.scores is None else {s.name: self.scores[s] for s in Seat},
            "position": None if self.position is None else self.position.as_dict(),
            **(
                {}
                if self.time_limit is None
                else {
                    "time_limit": self.time_limit,
                    "exact": self.exact,
                    "undecided": len(self.undecided),
                    "cost_bounds": {s.name: list(self.cost_bounds[s]) for s in Seat},
                }
            ),
            **({} if self.complete else {"complete": False}),
            "seconds": round(self.seconds, 6),
        }


@dataclass(frozen=True)
class LineStep(_MoveRecord):
    """One move of a :func:`playout` line: who played what, and the mover's guarantee
    (unchanged by the move: each player keeps its own guarantee highest).

    ``winner`` is the seat that won the trick the card completes (trick contracts).
    Under a time limit ``bounds`` is the interval of the mover's guarantee (``value``
    is ``None`` unless it is one value).
    """

    value: Score | None = 0
    winner: Seat | None = None
    bounds: Bounds | None = None

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready dict."""
        out: dict[str, object] = {
            **super().as_dict(),
            "value": self.value,
            "winner": None if self.winner is None else self.winner.name,
        }
        if self.bounds is not None:
            out["bounds"] = list(self.bounds)
        return out


@dataclass(frozen=True)
class Playout:
    """A consistent line (see :func:`playout`) and its result.

    ``guarantees`` are the seats' optimal scores at the start (SPEC §5); ``scores``
    what the line gives each seat (never less than its guarantee), adding up to
    ``total``: the contract's total for a full deal (``Game.total``), what the
    ending hands out otherwise.  ``tricks`` (trick contracts) are the line's tricks,
    ``places`` (Dominoes) the finishing places.

    With ``time_limit`` (see :func:`playout`) ``guarantee_bounds`` are the
    intervals proved for the guarantees (a guarantee not finished is ``None``), and
    the line is the one the proved bounds pick; it is consistent where every search
    finished (:attr:`exact`).
    """

    game: Game
    deal: str
    leader: Seat
    steps: tuple[LineStep, ...]
    guarantees: Scores
    scores: Scores
    tricks: tuple[Trick, ...] = ()
    places: tuple[int | None, int | None, int | None, int | None] | None = None
    seconds: float = 0.0
    guarantee_bounds: tuple[Bounds, Bounds, Bounds, Bounds] | None = None
    time_limit: float | None = None

    @property
    def exact(self) -> bool:
        """Whether every guarantee of the line is exact (always, without a limit)."""
        steps_ok = all(s.value is not None for s in self.steps)
        return steps_ok and (self.guarantee_bounds is None or None not in self.guarantees)

    @property
    def total(self) -> Score:
        """The sum of the line's scores."""
        return sum(s for s in self.scores if s is not None)

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready dict."""
        out: dict[str, object] = {
            **_game_record(self.game),
            "deal": self.deal,
            "leader": self.leader.name,
            "line": [s.as_dict() for s in self.steps],
        }
        if self.tricks:
            out["tricks"] = [
                {
                    "leader": t.leader.name,
                    "cards": [card_name(c) for c in t.cards],
                    "winner": t.winner.name,
                }
                for t in self.tricks
            ]
        if self.places is not None:
            out["places"] = {s.name: self.places[s] for s in Seat}
        out["guarantees"] = {s.name: self.guarantees[s] for s in Seat}
        if self.guarantee_bounds is not None:
            out["guarantee_bounds"] = {s.name: list(self.guarantee_bounds[s]) for s in Seat}
        if self.time_limit is not None:
            out["time_limit"] = self.time_limit
            out["exact"] = self.exact
        out["scores"] = {s.name: self.scores[s] for s in Seat}
        out["total"] = self.total
        out["seconds"] = round(self.seconds, 6)
        return out


@dataclass(frozen=True)
class TableRow:
    """One contract of a :func:`table`: each seat's optimal score.

    ``label`` names it as batch records do (``'barbu'``, ``'trumps:H'``,
    ``'dominoes:9'``); ``best`` is set on the ``dominoes:best`` row.  Under a time
    limit (a trick contract), ``bounds`` has the interval proved for each seat's
    score, and a score whose search did not finish is ``None``.
    """

    label: str
    contract: str
    title: str
    scores: Scores
    trump: str | None = None
    start: str | None = None
    best: bool = False
    seconds: float = 0.0
    bounds: SeatBounds | None = None

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready dict."""
        out: dict[str, object] = {
            "label": self.label,
            "contract": self.contract,
            "trump": self.trump,
            "start": self.start,
            "best_start": self.best,
            "scores": {s.name: self.scores[s] for s in Seat},
        }
        if self.bounds is not None:
            out["bounds"] = {
                s.name: None if b is None else list(b)
                for s, b in zip(Seat, self.bounds, strict=True)
            }
        out["seconds"] = round(self.seconds, 6)
        return out


@dataclass(frozen=True)
class DealTable:
    """Every contract of a rule set on one deal, by seat (see :func:`table`).

    ``best_trump`` is the declarer's best trump suit (``'S'`` … ``'C'``, ``'NT'`` in
    the bridge rule set), ``best_start`` its best Dominoes starting rank and
    ``start_scores`` its points from each rank tried; ``None`` / empty when the rule
    set has no such contract (or no rank fits the position).  Under a time limit
    the best trump suit is ``None`` unless the bounds decide it (its value then
    ``None`` if its search did not finish).
    """

    deal: str
    declarer: Seat
    rules: str
    variants: tuple[str, ...]
    rows: tuple[TableRow, ...]
    best_trump: str | None = None
    best_trump_value: Score | None = None
    best_start: str | None = None
    best_start_value: Score | None = None
    start_scores: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0

    @property
    def exact(self) -> bool:
        """Whether every score is exact (no search was stopped by a time limit)."""
        return all(s is not None for r in self.rows if r.bounds is not None for s in r.scores)

    def row(self, label: str) -> TableRow:
        """The row of a label (``'trumps:H'``).

        :raises KeyError: if the table has no such row.
        """
        for r in self.rows:
            if r.label == label:
                return r
        raise KeyError(label)

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready dict."""
        return {
            "deal": self.deal,
            "declarer": self.declarer.name,
            "rules": self.rules,
            "variants": list(self.variants),
            "rows": [r.as_dict() for r in self.rows],
            "best_trump": self.best_trump,
            "best_trump_value": self.best_trump_value,
            "best_start": self.best_start,
            "best_start_value": self.best_start_value,
            "start_scores": dict(self.start_scores),
            "exact": self.exact,
            "seconds": round(self.seconds, 6),
        }


@dataclass(frozen=True)
class ContractOption:
    """A contract the declarer may still choose: its value on the deal, the average
    value of the contract for a declarer, and the gain over it.

    ``trump`` / ``start`` are the declarer's best trump suit / starting rank;
    ``deals`` and ``stderr`` describe the average (random deals, standard error).
    Where a time limit stopped the search, ``value`` and ``gain`` are ``None`` and
    ``bounds`` is the interval proved for the value (``gain_bounds`` for the gain).
    Where the averages file has no average for the contract, ``average``, ``gain``,
    ``deals``, ``stderr`` and ``gain_bounds`` are ``None``, and the option is left out
    of the advice.
    """

    contract: str
    title: str
    value: Score | None
    average: float | None
    gain: float | None
    deals: int | None
    stderr: float | None
    trump: str | None = None
    start: str | None = None
    bounds: Bounds | None = None

    @property
    def value_bounds(self) -> Bounds:
        """The interval of the value (one point when exact)."""
        if self.bounds is not None:
            return self.bounds
        assert self.value is not None
        return self.value, self.value

    @property
    def gain_bounds(self) -> tuple[float, float] | None:
        """The interval of the gain (one point when exact; ``None`` without an average)."""
        if self.average is None:
            return None
        lo, hi = self.value_bounds
        return lo - self.average, hi - self.average

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready dict."""
        return {
            "contract": self.contract,
            "trump": self.trump,
            "start": self.start,
            "value": self.value,
            "average": None if self.average is None else round(self.average, 4),
            "gain": None if self.gain is None else round(self.gain, 4),
            "deals": self.deals,
            "stderr": None if self.stderr is None else round(self.stderr, 4),
            **({} if self.bounds is None else {"bounds": list(self.bounds)}),
            **(
                {"gain_bounds": [round(g, 4) for g in gb]}
                if self.bounds is not None and (gb := self.gain_bounds) is not None
                else {}
            ),
        }


@dataclass(frozen=True)
class Advice:
    """Which contract to declare, double dummy (see :func:`best_contract`).

    ``best`` is the option with the largest gain (the first in the rule set's order
    on a tie); ``provisional`` is set when an average comes from fewer deals than
    the averages file asks for (see :mod:`barbu_dd.averages`).  Under a time limit,
    ``contenders`` are the options whose gain may still be the largest (by the
    bounds proved), and ``best`` is ``None`` while there are more than one.
    ``missing`` names the contracts the averages file has no average for (values
    only, left out of the advice) and ``notes`` says so.
    """

    deal: str
    declarer: Seat
    rules: str
    variants: tuple[str, ...]
    options: tuple[ContractOption, ...]
    best: ContractOption | None
    averages: str
    provisional: bool = False
    seconds: float = 0.0
    contenders: tuple[ContractOption, ...] = ()
    missing: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def exact(self) -> bool:
        """Whether every value is exact (no time limit stopped a search)."""
        return all(o.bounds is None for o in self.options)

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready dict."""
        return {
            "deal": self.deal,
            "declarer": self.declarer.name,
            "rules": self.rules,
            "variants": list(self.variants),
            "options": [o.as_dict() for o in self.options],
            "advice": None if self.best is None else self.best.contract,
            "advice_trump": None if self.best is None else self.best.trump,
            "advice_start": None if self.best is None else self.best.start,
            "contenders": [o.contract for o in self.contenders],
            "exact": self.exact,
            "averages": self.averages,
            "provisional": self.provisional,
            "missing": list(self.missing),
            "notes": list(self.notes),
            "seconds": round(self.seconds, 6),
        }


# -- the position being stepped through ----------------------------------------------


class _TrickLine:
    """A trick-contract position and what each seat won since it began."""

    def __init__(self, solver: Solver, game: Game, deal: Deal) -> None:
        self.solver = solver
        self.game = game
        self.deal = deal
        self.first = trick_number(deal)
        self.history = len(deal.tricks)
        self._won = [0, 0, 0, 0]
        #: seconds for each search of the ``*_bounds`` methods (``None``: exact)
        self.limit: float | None = None

    @property
    def over(self) -> bool:
        return not self.deal.trick and not any(self.deal.masks)

    @property
    def mover(self) -> Seat:
        return self.deal.to_move

    @property
    def trick(self) -> int | None:
        return self.first + len(self.deal.tricks) - self.history

    def _won_cards(self) -> list[list[int]] | None:
        """Ravage City: the cards of each suit each seat has won since the start."""
        if self.game.kind != "ravage":
            return None
        rows = [[0, 0, 0, 0] for _ in Seat]
        for t in self.tricks():
            for c in t.cards:
                rows[t.winner][c >> 4] += 1
        return rows

    def value(self, seat: Seat) -> Score:
        """``seat``'s guarantee (without a limit)."""
        lo, hi = self.bounds(seat)
        assert lo == hi
        return lo

    def bounds(self, seat: Seat) -> Bounds:
        """The interval of ``seat``'s guarantee (one value without a limit)."""
        if self.over:
            v = self.won()[seat] or 0
            return v, v
        sol = self.solver.solve(
            self.deal, self.game, seats=(seat,), won=self._won_cards(), time_limit=self.limit
        )
        if sol.bounds is None:
            lo = hi = _exact(sol.scores[seat])
        else:
            b = sol.bounds[seat]
            assert b is not None
            lo, hi = b
        return self._won[seat] + lo, self._won[seat] + hi

    def options_bounds(self, view: Seat) -> list[tuple[Move, tuple[Card, ...], Bounds]]:
        """Each move's group and the interval of ``view``'s guarantee after it (one
        value without a limit)."""
        vals = self.solver.card_values(
            self.deal, self.game, seat=view, won=self._won_cards(), time_limit=self.limit
        )
        w = self._won[view]
        out: list[tuple[Move, tuple[Card, ...], Bounds]] = []
        for v in vals:
            lo, hi = v.bounds if v.bounds is not None else (_exact(v.value), _exact(v.value))
            out.append((v.card, v.equals, (w + lo, w + hi)))
        return out

    def after_bounds(self, move: Move, seat: Seat) -> Bounds:
        """The interval of ``seat``'s guarantee after ``move`` (one value without a
        limit)."""
        if self.game.kind == "ravage":  # the core counts the cards this trick wins
            for card, equals, b in self.options_bounds(seat):
                if move == card or move in equals:
                    return b
            raise AssertionError("a legal card is in no group")  # pragma: no cover
        saved = list(self._won)
        self.play(move)
        try:
            return self.bounds(seat)
        finally:
            self.deal.unplay()
            self._won = saved

    def forced(self) -> bool:
        """Whether the seat to move has only one move: one legal card, or legal cards
        that are all equal (one group, one value)."""
        if legal_mask(self.deal, self.game).bit_count() == 1:
            return True
        return len(self.solver._groups(self.deal, self.game)) == 1

    def check(self, move: Move) -> None:
        if move is None:
            raise IllegalPlayError(
                f"trick {self.trick}: {self.mover.name} cannot pass in {self.game.contract.name}"
            )
        check_card(self.deal, self.game, move)

    def play(self, move: Move) -> Seat | None:
        assert move is not None
        number = self.trick
        assert number is not None
        t = self.deal.play(move, trump=self.game.trump)
        if t is None:
            return None
        if self.game.kind != "ravage":
            self._won[t.winner] += trick_value(self.game, t.cards, number)
        return t.winner

    def tricks(self) -> tuple[Trick, ...]:
        return tuple(self.deal.tricks[self.history :])

    def won(self) -> Scores:
        if self.game.kind == "ravage":
            if not self.over:
                return (0, 0, 0, 0)
            return self.scores()
        return _four(self._won)

    def scores(self) -> Scores:
        s = score_tricks(self.game, self.tricks(), self.first)
        return _four([_num(x) for x in s])

    def values_of(self, view: Seat) -> CardValues:
        opts = self.options_bounds(view)
        return _card_values(
            self, view, opts, limited=self.limit is not None, trick_cards=tuple(self.deal.trick)
        )


class _DominoLine:
    """A Dominoes / Réussite position (hands, table, seat to move, who went out)."""

    trick = None

    def __init__(self, solver: Solver, game: Game, pos: DominoPosition) -> None:
        self.solver = solver
        self.game = game
        self.pos = pos

    @property
    def over(self) -> bool:
        return domino_finished(self.pos)

    @property
    def mover(self) -> Seat:
        return self.pos.to_move

    def _value_at(self, pos: DominoPosition, seat: Seat) -> Score | None:
        if seat in pos.already_out:
            return None
        if seat in pos.order:
            return self.game.places[len(pos.already_out) + pos.order.index(seat)]
        if domino_finished(pos):
            place = domino_places(pos)[seat]
            assert place is not None
            return self.game.places[place - 1]
        d = Deal(list(pos.hands))
        return self.solver.solve(d, self.game, declarer=pos.to_move, seats=(seat,)).scores[seat]

    def _view_value(self, pos: DominoPosition, seat: Seat) -> Score:
        v = self._value_at(pos, seat)
        if v is None:
            raise InvalidPositionError(f"{seat.name} was out before the position began")
        return v

    def value(self, seat: Seat) -> Score | None:
        return self._value_at(self.pos, seat)

    # Dominoes is never limited (milliseconds a seat): its intervals are one value.

    def bounds(self, seat: Seat) -> Bounds:
        v = self.value(seat)
        assert v is not None
        return v, v

    def options_bounds(self, view: Seat) -> list[tuple[Move, tuple[Card, ...], Bounds]]:
        moves: list[Move] = list(domino_moves(self.pos, self.game)) or [None]
        return [(m, (), self.after_bounds(m, view)) for m in moves]

    def after_bounds(self, move: Move, seat: Seat) -> Bounds:
        v = self._view_value(domino_play(self.pos, self.game, move), seat)
        return v, v

    def forced(self) -> bool:
        """Whether the seat to move has one move at most (a card, or a pass)."""
        return len(domino_moves(self.pos, self.game)) <= 1

    def check(self, move: Move) -> None:
        domino_play(self.pos, self.game, move)

    def play(self, move: Move) -> Seat | None:
        self.pos = domino_play(self.pos, self.game, move)
        return None

    def won(self) -> Scores:
        return _four([self._value_at(self.pos, s) if s in self.pos.order else None for s in Seat])

    def places(self) -> tuple[int | None, int | None, int | None, int | None]:
        return domino_places(self.pos)

    def scores(self) -> Scores:
        return domino_scores(self.game, domino_places(self.pos))

    def values_of(self, view: Seat) -> CardValues:
        opts = self.options_bounds(view)
        return _card_values(self, view, opts, limited=False, layout=str(self.pos.layout))

    def deal_text(self) -> str:
        return Deal(list(self.pos.hands)).to_pbn()


def _exact(v: Score | None) -> Score:
    assert v is not None
    return v


def _card_values(
    line: _TrickLine | _DominoLine,
    view: Seat,
    opts: list[tuple[Move, tuple[Card, ...], Bounds]],
    *,
    limited: bool,
    trick_cards: tuple[Card, ...] = (),
    layout: str | None = None,
) -> CardValues:
    mover = line.mover
    pick = max if view == mover else min
    lo = pick(b[0] for _, _, b in opts)
    hi = pick(b[1] for _, _, b in opts)
    options = tuple(
        CardOption(
            c,
            eq,
            b[0] if b[0] == b[1] else None,
            b[1] >= lo if view == mover else b[0] <= hi,
            b if limited else None,
        )
        for c, eq, b in opts
    )
    deal = line.deal.to_pbn() if isinstance(line, _TrickLine) else line.deal_text()
    return CardValues(
        line.game,
        deal,
        mover,
        view,
        lo if lo == hi else None,
        options,
        trick=line.trick,
        trick_cards=trick_cards,
        layout=layout,
        bounds=(lo, hi) if limited else None,
    )


def parse_game(
    contract: str | Game,
    *,
    rules: str = "classic",
    variants: Iterable[str] = (),
    scale: Scale | str | Path | None = None,
    trump: str | int | None = None,
    start: str | int | None = None,
) -> tuple[Game, bool]:
    """The game, and whether ``start`` is ``'best'`` (the declarer's best Dominoes
    starting rank, found per deal; the game then starts from the Jacks until it is).

    :raises ParseError: for an unknown contract, rule set, variant or suit, or
        ``'best'`` for another contract than Dominoes.

    >>> g, best = parse_game("dominoes", start="best")
    >>> g.contract.name, best
    ('dominoes', True)
    """
    if isinstance(contract, Game):
        return contract, False
    best = isinstance(start, str) and start.strip().lower() == "best"
    game = make_game(
        contract,
        rules=rules,
        variants=variants,
        scale=scale,
        trump=trump,
        start=None if best else start,
    )
    if best and game.contract.name != "dominoes":
        raise ParseError(f"start 'best' is for dominoes, not {game.contract.name!r}")
    return game, best


def _resolve_game(
    solver: Solver,
    deal: Deal | str,
    contract: str | Game,
    trump: str | int | None,
    start: str | int | None,
    declarer: Seat | None,
    rules: str,
    variants: tuple[str, ...],
    scale: Scale | str | Path | None,
) -> Game:
    """The game, with ``start='best'`` resolved to the declarer's best starting rank."""
    game, best = parse_game(
        contract, rules=rules, variants=variants, scale=scale, trump=trump, start=start
    )
    if best:
        choice = solver.best_start(deal, declarer, rules=rules, variants=variants, scale=scale)
        game = replace(game, start=choice.start)
    return game


def _start_line(
    solver: Solver, game: Game, deal: Deal | str, declarer: Seat | None
) -> _TrickLine | _DominoLine:
    """The position to step through, its first mover set."""
    d = as_deal(deal).copy()
    d = d.complete()
    if game.kind == "dominoes":
        if d.trick:
            raise InvalidPositionError("dominoes has no tricks, but a trick is in progress")
        mover = declarer if declarer is not None else d.leader
        if mover is None:
            raise InvalidPositionError("no declarer given (and the position has no seat to move)")
        hands = []
        for s in Seat:
            if not d.is_known(s):
                raise InvalidPositionError(f"the hand of {s.name} is unknown: all four are needed")
            hands.append(d.mask(s))
        return _DominoLine(solver, game, DominoPosition.from_hands(hands, game, mover))
    if not d.trick:
        if declarer is not None:
            d.leader = leader_for(declarer, game.variants)
        elif d.leader is None:
            raise InvalidPositionError("no declarer given (and the position has no leader)")
    elif d.leader is None:
        raise InvalidPositionError("a trick is in progress but its leader is not set")
    for s in Seat:
        if not d.is_known(s):
            raise InvalidPositionError(f"the hand of {s.name} is unknown: all four are needed")
    d.validate(equal=True)
    return _TrickLine(solver, game, d)


def _first_mover(line: _TrickLine | _DominoLine) -> Seat:
    if isinstance(line, _TrickLine):
        leader = line.deal.leader
        assert leader is not None
        return leader
    return line.pos.to_move


def _deal_text(line: _TrickLine | _DominoLine) -> str:
    return line.deal.to_pbn() if isinstance(line, _TrickLine) else line.deal_text()


def _setup(
    solver: Solver | None,
    deal: Deal | str,
    contract: str | Game,
    trump: str | int | None,
    start: str | int | None,
    declarer: Seat | int | str | None,
    rules: str,
    variants: Iterable[str],
    scale: Scale | str | Path | None,
) -> _TrickLine | _DominoLine:
    """The position to step through, on ``solver`` (a new one if ``None``)."""
    sv = solver if solver is not None else Solver()
    decl = None if declarer is None else to_seat(declarer)
    vs = tuple(variants)
    game = _resolve_game(sv, deal, contract, trump, start, decl, rules, vs, scale)
    return _start_line(sv, game, deal, decl)


def board_record(
    board: Board, game: Game, declarer: Seat | int | str | None = None
) -> tuple[Deal, list[Move]] | None:
    """The play record of a board's PBN ``Play`` section: the deal with the seat that
    plays first set (the ``Play`` tag's seat), and the moves in play order; ``None``
    without a Play section.

    Trick contracts: the tricks in play order (:func:`barbu_dd.pbn.play_sequence`
    with the game's trump).  Dominoes and Réussite: the rows read left to right,
    ``-`` skipped (passes are forced, so they are implied), the columns being the
    seats from the Play tag's, one row a round.

    :raises ParseError: if ``declarer`` is given and would lead (start) from another
        seat than the Play section's, or for a malformed section.

    >>> from barbu_dd.pbn import parse_pbn
    >>> b = parse_pbn('''[Dealer "W"]
    ... [Deal "N:A2... K3... Q4... J5..."]
    ... [Play "N"]
    ... S2 S3 S4 S5''')[0]
    >>> d, moves = board_record(b, make_game("no-tricks"))
    >>> d.leader, [move_name(m) for m in moves]
    (<Seat.N: 0>, ['S2', 'S3', 'S4', 'S5'])
    """
    if board.play_section is None or board.play_first is None:
        return None
    first = board.play_first
    if declarer is not None:
        decl = to_seat(declarer)
        lead = decl if game.kind == "dominoes" else leader_for(decl, game.variants)
        if lead != first:
            raise ParseError(
                f"the Play section starts with {first.name}, but {lead.name} plays first "
                f"with declarer {decl.name}"
            )
    if game.kind == "dominoes":
        moves = [parse_card(t) for row in board.play_section for t in row if t != "-"]
    else:
        moves = [parse_card(t) for t in play_sequence(board, game.trump)]
    d = board.deal.copy()
    d.leader = first
    return d, list(moves)


# -- analyze ----------------------------------------------------------------------------


def _analyse_moves(
    line: _TrickLine | _DominoLine,
    moves: list[Move],
    plays: list[PlayedCard],
    limited: bool,
    on_progress: Callable[[int, int], None] | None,
) -> None:
    """Analyse the moves of a play record one by one, appending each to ``plays``
    once it is played (so that an interrupt leaves ``plays`` and ``line`` agreeing)."""
    k = 0
    i = 0
    steps = len(moves) + 1
    while i < len(moves):
        move = moves[i]
        if on_progress is not None:
            on_progress(min(k, steps - 1), steps)
        k += 1
        where = f"card {k} of the play" if isinstance(line, _TrickLine) else f"move {k}"
        if line.over:
            raise IllegalPlayError(f"{where}: {move_name(move)} comes after the end of the play")
        mover, number = line.mover, line.trick
        if (
            isinstance(line, _DominoLine)
            and move is not None
            and not domino_moves(line.pos, line.game)
        ):
            move = None  # a forced pass left out of the record
        else:
            i += 1
        try:
            line.check(move)
        except IllegalPlayError as e:
            raise IllegalPlayError(f"{where}: {e}") from None
        before = line.bounds(mover)
        forced = line.forced()
        after = before if forced else line.after_bounds(move, mover)
        better: tuple[Move, ...] = ()
        if after[1] < before[0]:
            # the moves that kept the guarantee; under a limit, those that may have
            # kept it and are proved to keep more than this one
            better = tuple(
                m
                for c, eq, b in line.options_bounds(mover)
                if b[1] >= before[0] and b[0] > after[1]
                for m in (c, *eq)
            )
        played = PlayedCard(
            k,
            number,
            mover,
            move,
            before[0] if before[0] == before[1] else None,
            after[0] if after[0] == after[1] else None,
            better,
            before if limited else None,
            after if limited else None,
            forced,
        )
        line.play(move)
        plays.append(played)


def analyze(
    deal: Deal | str,
    contract: str | Game,
    *,
    play: str | Iterable[Card | str | None] | None = None,
    seat: Seat | int | str | None = None,
    declarer: Seat | int | str | None = None,
    trump: str | int | None = None,
    start: str | int | None = None,
    rules: str = "classic",
    variants: Iterable[str] = (),
    scale: Scale | str | Path | None = None,
    solver: Solver | None = None,
    time_limit: float | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> Analysis:
    """Analyse a position and, with ``play``, the cost of every move of a play record.

    Without a trick in progress the declarer leads (the seat to move in Dominoes;
    default: the deal's leader).  ``play`` (see :func:`parse_moves`) may stop
    anywhere.  For every move: its player's guarantee before and after it; a move
    that lowers it is an error costing the difference.  Where the record stops
    (before the end), the value of every legal move of the seat to move, from that
    seat's point of view or from ``seat``'s.  ``start='best'``: the declarer's best
    Dominoes starting rank.

    ``time_limit``: seconds for each search (each guarantee before and after a move,
    each card value; Dominoes is never limited).  A search that does not finish
    gives the interval proved (see :class:`Analysis`): on full deals of the
    negative contracts the early moves take minutes each without a limit.
    ``on_progress(done, total)`` is called before each move of the record is
    analysed and before the card values, with ``(total, total)`` at the end.
    **Ctrl-C** (:class:`KeyboardInterrupt`) returns the moves analysed so far
    (``complete`` false) instead of raising.

    :raises IllegalPlayError: naming the card (or pass), its number in the record and
        the trick, for a move that may not be played, or a move after the end.
    :raises ParseError: for bad names, or a time limit that is not a positive number.
    :raises InvalidPositionError: for an impossible position, or a viewing seat that
        was out before a Dominoes ending began.

    >>> a = analyze("N:A.2.. K.3.. Q.4.. J.5..", "no-tricks", declarer="N")
    >>> [(o.name, o.value, o.best) for o in a.position.options]
    [('SA', -2, True), ('H2', -2, True)]
    """
    t0 = time.perf_counter()
    check_limits(time_limit)
    line = _setup(solver, deal, contract, trump, start, declarer, rules, variants, scale)
    if isinstance(line, _TrickLine):
        line.limit = time_limit
    limited = time_limit is not None
    view = None if seat is None else to_seat(seat)
    start_text, leader = _deal_text(line), _first_mover(line)
    moves = parse_moves(play) if play is not None else []
    plays: list[PlayedCard] = []
    position = None
    complete = True
    try:
        _analyse_moves(line, moves, plays, limited, on_progress)
        steps = len(moves) + 1
        if not line.over:
            if on_progress is not None:
                on_progress(steps - 1, steps)
            position = line.values_of(view if view is not None else line.mover)
        if on_progress is not None:
            on_progress(steps, steps)
    except KeyboardInterrupt:
        complete = False  # what was analysed so far (a move counts once played)
        position = None
    costs: list[Score] = [0, 0, 0, 0]
    for p in plays:
        costs[p.seat] += p.cost
    final = line.scores() if complete and line.over else None
    return Analysis(
        line.game,
        start_text,
        leader,
        tuple(plays),
        (costs[0], costs[1], costs[2], costs[3]),
        position,
        line.won(),
        final,
        time.perf_counter() - t0,
        time_limit,
        complete,
    )


# -- playout ------------------------------------------------------------------------------


def _tie_key(move: Move) -> tuple[int, int]:
    """The playout's tie-break: the lowest rank, then the first suit (♠ ♥ ♦ ♣)."""
    if move is None:
        return (-1, -1)
    return (move & 15, move >> 4)


def playout(
    deal: Deal | str,
    contract: str | Game,
    *,
    declarer: Seat | int | str | None = None,
    trump: str | int | None = None,
    start: str | int | None = None,
    rules: str = "classic",
    variants: Iterable[str] = (),
    scale: Scale | str | Path | None = None,
    solver: Solver | None = None,
    time_limit: float | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> Playout:
    """A consistent line: at every turn the seat to move plays a card that keeps its own
    guarantee highest (SPEC §5 from its point of view), to the end of the deal.

    Ties are broken by a fixed rule: among the best cards, the lowest rank (2 … A),
    and among equal ranks the first suit in the order ♠ ♥ ♦ ♣.  No player's score
    ends below its guarantee at the start, and the scores add up to what the
    position hands out (the contract's total for a full deal).

    ``time_limit``: seconds for each search (each guarantee at the start, each card
    value; Dominoes is never limited).  Each mover then plays the card with the
    highest proved lower bound (then the highest upper bound, then the tie rule):
    where every search finished that is the consistent line, elsewhere the line the
    bounds pick, and its scores still add up to the total.
    ``on_progress(done, total)`` is called before each move, with ``(total,
    total)`` at the end (the moves of the line, a full deal's 52).

    :raises ParseError: for bad names, or a time limit that is not a positive number.
    :raises InvalidPositionError: for an impossible position.

    >>> p = playout("N:A2... K3... Q4... J5...", "no-tricks", declarer="N")
    >>> [s.name for s in p.steps], p.scores, p.total
    (['S2', 'S3', 'S4', 'S5', 'SJ', 'SA', 'SK', 'SQ'], (-2, 0, 0, -2), -4)
    """
    t0 = time.perf_counter()
    check_limits(time_limit)
    line = _setup(solver, deal, contract, trump, start, declarer, rules, variants, scale)
    limited = time_limit is not None and isinstance(line, _TrickLine)
    if isinstance(line, _TrickLine):
        line.limit = time_limit
        total = sum(m.bit_count() for m in line.deal.masks)
    else:
        total = sum(h.bit_count() for h in line.pos.hands)
    start_text, leader = _deal_text(line), _first_mover(line)
    g_bounds: tuple[Bounds, Bounds, Bounds, Bounds] | None = None
    if limited:
        gb = [line.bounds(s) for s in Seat]
        g_bounds = (gb[0], gb[1], gb[2], gb[3])
        guarantees = _four([b[0] if b[0] == b[1] else None for b in gb])
    else:
        guarantees = _four([line.value(s) for s in Seat])
    steps: list[LineStep] = []
    while not line.over:
        if on_progress is not None:
            on_progress(min(len(steps), total), max(total, len(steps) + 1))
        mover, number = line.mover, line.trick
        opts = line.options_bounds(mover)
        lo = max(b[0] for _, _, b in opts)
        hi = max(b[1] for _, _, b in opts)
        pick = max(b for _, _, b in opts)  # the highest lower bound, then upper bound
        choices = [m for c, eq, b in opts if b == pick for m in (c, *eq)]
        move = min(choices, key=_tie_key)
        winner = line.play(move)
        value = lo if lo == hi else None
        bounds = (lo, hi) if limited else None
        steps.append(LineStep(len(steps) + 1, number, mover, move, value, winner, bounds))
    if on_progress is not None:
        on_progress(len(steps), len(steps))
    scores = line.scores()
    tricks: tuple[Trick, ...] = ()
    places = None
    if isinstance(line, _TrickLine):
        tricks = line.tricks()
    else:
        places = line.places()
    return Playout(
        line.game,
        start_text,
        leader,
        tuple(steps),
        guarantees,
        scores,
        tricks,
        places,
        time.perf_counter() - t0,
        g_bounds,
        time_limit,
    )


# -- table ----------------------------------------------------------------------------------


def _dominoes_rows(
    sv: Solver,
    d: Deal,
    decl: Seat,
    starts: Sequence[Rank],
    *,
    rules: str,
    variants: tuple[str, ...],
    scale: Scale | str | Path | None,
) -> tuple[list[TableRow], dict[str, int]]:
    """One Dominoes row for each starting rank, and the declarer's points with each."""
    rows: list[TableRow] = []
    by_rank: dict[str, int] = {}
    for r in starts:
        t1 = time.perf_counter()
        g = make_game("dominoes", rules=rules, variants=variants, scale=scale, start=r)
        sol = sv.solve(d, g, declarer=decl)
        v = sol.scores[decl]
        assert isinstance(v, int)
        by_rank[RANK_CHARS[r]] = v
        rows.append(
            TableRow(
                f"dominoes:{RANK_CHARS[r]}",
                "dominoes",
                g.describe(),
                sol.scores,
                start=RANK_CHARS[r],
                seconds=time.perf_counter() - t1,
            )
        )
    return rows, by_rank


# -- table: the trick contracts' solves on worker processes --------------------------

_SEAT_SOLVER: Solver | None = None


def _keep_solver(tt_bytes: int) -> None:
    global _SEAT_SOLVER
    _SEAT_SOLVER = Solver(tt_bytes)


def _seat_task(
    deal: Deal, game: Game, declarer: Seat, seat: Seat, clock: _Clock | None = None
) -> tuple[Score | None, float, Bounds | None]:
    """One seat's optimal score in one contract (a pool worker's task), with its
    proved bounds under a time limit."""
    assert _SEAT_SOLVER is not None
    limit = None if clock is None else clock.share()
    sol = _SEAT_SOLVER.solve(deal, game, declarer=declarer, seats=seat.name, time_limit=limit)
    return sol.scores[seat], sol.seconds, None if sol.bounds is None else sol.bounds[seat]


@dataclass(frozen=True)
class _Clock:
    """A table's time limit for one search: it is the ``index``-th of ``total``
    searches run ``workers`` at a time until ``end`` (a :func:`time.time`, which
    worker processes share), and gets an equal part of the time left to the
    searches not yet started (those before it have had theirs)."""

    end: float
    index: int
    total: int
    workers: int

    def share(self) -> float:
        rounds = -(-(self.total - self.index) // self.workers)
        return max(self.end - time.time(), 1e-3) / max(rounds, 1)


def _solve_order(games: dict[str, Game], limited: bool) -> list[str]:
    """The order the trick contracts are solved in: the 1-against-3 negative
    contracts, the longest solves, first (with workers); under a time limit last,
    so that the quick ones finish and leave them the time."""
    return sorted(games, key=lambda label: games[label].contract.positive != limited)


class _SeatPool:
    """The process pool of :func:`table` (``workers`` > 1): one task a contract and
    a seat, the most expensive contracts (those that hand out points) first."""

    def __init__(self, workers: int, tt_bytes: int) -> None:
        self.workers = workers
        self.pool = _spawn_pool(workers, _keep_solver, (tt_bytes,)) if workers > 1 else None
        self.futures: dict[str, list[cf.Future[tuple[Score | None, float, Bounds | None]]]] = {}

    @property
    def active(self) -> bool:
        return self.pool is not None

    def submit_all(
        self, d: Deal, decl: Seat, games: dict[str, Game], end: float | None = None
    ) -> None:
        """Submit every contract and seat; ``end``: the time limit's end (a
        :func:`time.time`), each search then getting a fair part of what is left."""
        assert self.pool is not None
        order = _solve_order(games, end is not None)
        n = 4 * len(order)
        for k, label in enumerate(order):
            self.futures[label] = [
                self.pool.submit(
                    _seat_task,
                    d,
                    games[label],
                    decl,
                    seat,
                    None if end is None else _Clock(end, 4 * k + seat, n, self.workers),
                )
                for seat in Seat
            ]

    def result(self, label: str) -> tuple[Scores, float, SeatBounds | None]:
        """The four seats' scores of a contract, the seconds its solves took, and
        the bounds proved under a time limit."""
        got = [f.result() for f in self.futures[label]]
        scores = (got[0][0], got[1][0], got[2][0], got[3][0])
        b = [g[2] for g in got]
        bounds = None if all(x is None for x in b) else (b[0], b[1], b[2], b[3])
        return scores, sum(g[1] for g in got), bounds

    def __enter__(self) -> _SeatPool:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self.pool is not None:
            _stop_pool(self.pool, abort=kind is not None)


def table(
    deal: Deal | str,
    *,
    declarer: Seat | int | str,
    rules: str = "classic",
    variants: Iterable[str] = (),
    scale: Scale | str | Path | None = None,
    dominoes: Literal["best", "all"] = "best",
    solver: Solver | None = None,
    workers: int = 1,
    time_limit: float | None = None,
    on_progress: Callable[[str | None, int, int], None] | None = None,
) -> DealTable:
    """Every contract of the rule set on one deal, each seat's optimal score (SPEC §5).

    The contracts are those of :func:`barbu_dd.batch.table_contracts`: Trumps once
    for each suit, Dominoes from the declarer's best starting rank (``dominoes='all'``:
    one row for each starting rank), the Réussite from the Jacks.  The declarer leads
    (starts Dominoes).  For an ending, Dominoes rows only for the ranks its table
    allows (none for most trick endings).

    ``workers`` > 1: the trick contracts' 1-against-3 solves (a contract and a seat
    each) run on that many spawned processes, each with its own table of the
    solver's size, while this process solves Dominoes; the answers are the same.
    Starting the processes costs about a second: worth it for full deals.  (As with
    any spawned pool, a script that calls this needs the ``if __name__ ==
    "__main__":`` guard.)

    ``on_progress(label, done, total)`` is called as each row starts (its label, the
    rows done before it, how many in all), and with ``(None, total, total)`` at the end.

    ``time_limit``: seconds for the trick contracts' searches (Dominoes and the
    Réussite, quick, are not limited).  The quick contracts are solved first, and
    each search gets an equal part of the time the searches before it left; a
    search that does not finish leaves its score ``None`` and the interval proved
    for it in the row's ``bounds`` (see :func:`barbu_dd.solver.solve`).

    :raises ParseError: for an unknown rule set, variant or seat, ``dominoes`` other
        than ``'best'`` or ``'all'``, ``workers`` below 1, or a time limit that is
        not a positive number.
    :raises InvalidPositionError: for an impossible position.

    >>> t = table("N:A... 2... 3... 4...", declarer="N")
    >>> [r.label for r in t.rows][4:]
    ['no-last-two', 'trumps:S', 'trumps:H', 'trumps:D', 'trumps:C', 'dominoes:best']
    >>> t.row("no-last-two").scores, t.best_trump, t.best_trump_value
    ((-20, 0, 0, 0), 'S', 5)
    """
    if dominoes not in ("best", "all"):
        raise ParseError(f"dominoes must be 'best' or 'all', got {dominoes!r}")
    check_workers(workers)
    check_limits(time_limit)
    t0 = time.perf_counter()
    end = None if time_limit is None else time.time() + time_limit
    sv = solver if solver is not None else Solver()
    decl = to_seat(declarer)
    vs = tuple(sorted(parse_variants(variants)))
    d = as_deal(deal)
    specs = table_contracts(rules, vs)
    trick_games = {
        spec.label: make_game(
            spec.contract, rules=rules, variants=vs, scale=scale, trump=spec.trump
        )
        for spec in specs
        if find_contract(spec.contract, rules).kind != "dominoes"
    }
    trick_order = _solve_order(trick_games, end is not None)
    with _SeatPool(workers, sv.tt_bytes) as pool:
        if pool.active:
            pool.submit_all(d, decl, trick_games, end)
        # A full deal's table is empty (every rank fits); an ending's decides.
        starts = tuple(Rank) if sum(d.sizes()) == 52 else possible_starts(d.masks, "low-aces" in vs)
        done: dict[int, list[TableRow]] = {}
        by_rank: dict[str, int] = {}
        best_start: str | None = None
        best_start_value: Score | None = None

        # with workers, this process solves Dominoes while they solve the trick
        # contracts; without, the trick contracts go in their solving order
        def rank(i: int) -> int:
            label = specs[i].label
            if label not in trick_games:
                return 0 if pool.active else len(specs)
            return len(specs) if pool.active else trick_order.index(label)

        order = sorted(range(len(specs)), key=rank)
        for k, i in enumerate(order):
            spec = specs[i]
            if on_progress is not None:
                on_progress(spec.label, k, len(order))
            t1 = time.perf_counter()
            if spec.contract == "dominoes" and starts:
                if dominoes == "all":
                    more, by_rank = _dominoes_rows(
                        sv, d, decl, starts, rules=rules, variants=vs, scale=scale
                    )
                    done[i] = more
                    best_start_value = max(by_rank.values())
                    best_start = next(r for r, v in by_rank.items() if v == best_start_value)
                    continue
                ch = sv.best_start(d, decl, rules=rules, variants=vs, scale=scale)
                by_rank = {RANK_CHARS[r]: v for r, v in ch.scores.items()}
                best_start, best_start_value = RANK_CHARS[ch.start], ch.score
                sol = ch.solution
            elif find_contract(spec.contract, rules).kind == "dominoes":
                if spec.contract == "dominoes" or Rank.J not in starts:
                    continue  # no rank fits this ending's table
                g = make_game(spec.contract, rules=rules, variants=vs, scale=scale)
                sol = sv.solve(d, g, declarer=decl)
            elif pool.active:
                g = trick_games[spec.label]
                scores, secs, bounds = pool.result(spec.label)
                done[i] = [
                    TableRow(
                        spec.label,
                        spec.contract,
                        g.describe(),
                        scores,
                        trump=spec.trump,
                        seconds=secs,
                        bounds=bounds,
                    )
                ]
                continue
            else:
                limit = None
                if end is not None:
                    k = trick_order.index(spec.label)
                    limit = 4 * _Clock(end, 4 * k, 4 * len(trick_order), 1).share()
                sol = sv.solve(d, trick_games[spec.label], declarer=decl, time_limit=limit)
            g = sol.game
            done[i] = [
                TableRow(
                    spec.label,
                    spec.contract,
                    g.describe(),
                    sol.scores,
                    trump=spec.trump,
                    start=None if g.start is None else RANK_CHARS[g.start],
                    best=spec.start == "best",
                    seconds=time.perf_counter() - t1,
                    bounds=sol.bounds,
                )
            ]
    if on_progress is not None:
        on_progress(None, len(specs), len(specs))
    rows = [r for i in range(len(specs)) for r in done.get(i, ())]
    best_trump, best_trump_value = _best_trump(rows, decl)
    return DealTable(
        d.to_pbn(),
        decl,
        rules,
        vs,
        tuple(rows),
        best_trump,
        best_trump_value,
        best_start,
        best_start_value,
        by_rank,
        time.perf_counter() - t0,
    )


def _best_trump(rows: Sequence[TableRow], decl: Seat) -> tuple[str | None, Score | None]:
    """The declarer's best trump suit and its value (the first suit on a tie); under
    a time limit the suit whose proved lower bound reaches every other suit's upper
    bound, if there is one, else ``None``."""
    cands: list[tuple[str, Score | None, Bounds]] = []
    for r in rows:
        if r.trump is None:
            continue
        v = r.scores[decl]
        b = r.bounds[decl] if r.bounds is not None else None
        if b is None:
            if v is None:
                continue
            b = (v, v)
        cands.append((r.trump, v, b))
    for i, (suit, v, (lo, _)) in enumerate(cands):
        if all(lo >= hi for j, (_, _, (_, hi)) in enumerate(cands) if j != i) and all(
            lo > hi for _, _, (_, hi) in cands[:i]
        ):
            return suit, v
    return None, None


# -- best contract -------------------------------------------------------------------------


def best_contract(
    deal: Deal | str,
    *,
    declarer: Seat | int | str,
    played: Iterable[str] = (),
    rules: str = "classic",
    variants: Iterable[str] = (),
    scale: Scale | str | Path | None = None,
    averages: str | Path | Averages | None = None,
    solver: Solver | None = None,
    time_limit: float | None = None,
    on_progress: Callable[[str | None, int, int], None] | None = None,
) -> Advice:
    """Which contract the declarer should choose, double dummy.

    For each contract of the rule set not in ``played``: the declarer's optimal score
    on this deal (Trumps: its best trump suit; Dominoes: its best starting rank), the
    average value of that contract for a declarer over random deals (the averages
    file shipped with the package, or ``averages``), and the gain over it.  The advice
    is the contract with the largest gain (the first in the rule set's order on a tie).
    On an ending (averages made with ``--cards``, for tests) Dominoes and the
    Réussite are left out.  A contract the averages file has no average for (another
    rule set's variant, a scale of one's own) is still valued, with no gain, and left
    out of the advice (``missing``, ``notes``).

    ``time_limit`` (seconds for the deal; Dominoes and the Réussite, quick, are not
    limited): the positive contracts are solved first, and each contract's searches
    get an equal part of the time left to the contracts not yet solved; the time
    still left then goes, in the same way, to a second try at the values not
    finished.  A value not finished is an interval (``bounds``); the advice is the
    contract whose gain is proved at least every other's, and where no contract is,
    ``best`` is ``None`` and ``contenders`` lists those still in the running.

    ``on_progress(name, done, total)`` is called as each contract's solve starts (a
    second try counts again), and with ``(None, total, total)`` at the end.

    :raises ParseError: for an unknown contract in ``played``, a rule set, variant or
        scale the averages file has no average for at all, no contract left, or a time
        limit that is not a positive number.
    :raises InvalidPositionError: for an impossible position.
    """
    # here, not at the top: importing barbu_dd must not load the module that
    # `python -m barbu_dd.averages` runs
    from .averages import Averages, declarer_value, load_averages

    check_limits(time_limit)
    t0 = time.perf_counter()
    end = None if time_limit is None else time.monotonic() + time_limit
    sv = solver if solver is not None else Solver()
    decl = to_seat(declarer)
    vs = tuple(sorted(parse_variants(variants)))
    d = as_deal(deal)
    done = played_set(played, rules)
    cards = max(d.sizes())
    # Dominoes on an ending has no averages (most endings fit no starting rank).
    todo = [
        c
        for c in contracts_of(rules, vs)
        if c.name not in done and (cards == 13 or c.kind != "dominoes")
    ]
    if not todo:
        raise ParseError("no contract left: every contract of the rule set was played")
    table_ = averages if isinstance(averages, Averages) else load_averages(averages)
    looked = [(c, table_.find(c, rules=rules, variants=vs, scale=scale, cards=cards)) for c in todo]
    if all(avg is None for _, avg in looked):
        # no average at all: nothing to advise on (the error names the command)
        table_.lookup(todo[0], rules=rules, variants=vs, scale=scale, cards=cards)
    missing = tuple(c.name for c, avg in looked if avg is None)
    notes = (
        (
            f"no average for {', '.join(missing)} in {table_.source}: gain unavailable, "
            "left out of the advice",
        )
        if missing
        else ()
    )
    # Under a limit the positive contracts (quick) first, then the others; the time
    # left at the end goes to a second try at the values not finished.
    order = sorted(range(len(looked)), key=lambda i: end is not None and not looked[i][0].positive)
    found: dict[int, ContractOption] = {}
    steps = 0
    for attempt in range(1 if end is None else 2):
        if attempt:
            assert end is not None
            order = [i for i in order if found[i].bounds is not None]
            if not order or end - time.monotonic() < 0.05:
                break
        for k, i in enumerate(order):
            c, avg = looked[i]
            if on_progress is not None:
                on_progress(c.name, steps, steps + len(order) - k)
            steps += 1
            limit = None
            if end is not None and c.kind != "dominoes":
                limit = max(end - time.monotonic(), 1e-3) / (len(order) - k)
            val = declarer_value(
                sv, d, c.name, decl, rules=rules, variants=vs, scale=scale, time_limit=limit
            )
            found[i] = ContractOption(
                c.name,
                c.title,
                val.value if val.exact else None,
                None if avg is None else avg.mean,
                val.value - avg.mean if val.exact and avg is not None else None,
                None if avg is None else avg.deals,
                None if avg is None else avg.stderr,
                trump=val.trump,
                start=val.start,
                bounds=val.bounds,
            )
    if on_progress is not None:
        on_progress(None, steps, steps)
    options = tuple(found[i] for i in range(len(looked)))
    best, contenders = pick_contract(options)
    return Advice(
        d.to_pbn(),
        decl,
        rules,
        vs,
        options,
        best,
        table_.source,
        any(avg is not None and avg.provisional for _, avg in looked),
        time.perf_counter() - t0,
        contenders,
        missing,
        notes,
    )


def pick_contract(
    options: Sequence[ContractOption],
) -> tuple[ContractOption | None, tuple[ContractOption, ...]]:
    """The advice among the options, and the contenders: the options whose gain may
    be the largest, by the intervals proved.  The advice is the first contender (in
    the rule set's order) whose gain is proved at least every other's, else ``None``;
    with exact values, the largest gain, the first on a tie.  An option without an
    average (no gain) is never a contender.

    >>> o = [ContractOption("a", "A", 3, 0.0, 3.0, 1, 0.0),
    ...      ContractOption("b", "B", None, 0.0, None, 1, 0.0, bounds=(1, 5)),
    ...      ContractOption("c", "C", 0, 0.0, 0.0, 1, 0.0)]
    >>> best, contenders = pick_contract(o)
    >>> best, [x.contract for x in contenders]
    (None, ['a', 'b'])
    >>> pick_contract(o[::2])[0].contract
    'a'
    >>> pick_contract([o[1], ContractOption("d", "D", 5, 0.0, 5.0, 1, 0.0)])[0].contract
    'd'
    """
    gains = [(o, g) for o in options if (g := o.gain_bounds) is not None]
    if not gains:
        return None, ()
    floor = max(lo for _, (lo, _) in gains)
    contenders = [(o, g) for o, g in gains if g[1] >= floor]
    best = next(
        (
            x
            for x, (lo, _) in contenders
            if all(lo >= hi for y, (_, hi) in contenders if y is not x)
        ),
        None,
    )
    return best, tuple(o for o, _ in contenders)
