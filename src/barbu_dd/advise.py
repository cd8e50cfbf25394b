"""Which contract to declare from one's own 13 cards: single-dummy advice by simulation.

At the table the declarer sees only their own hand.  :func:`advise` deals the 39
unseen cards at random many times (reproducibly from a seed), solves every
available contract double dummy for the declarer on each sample (in parallel, on
all cores), and reports per contract the mean score, its 95% confidence interval,
the gain over the contract's average (the averages shipped for the analyser, see
:mod:`barbu_dd.averages`) and the advice.  Every per-sample score is kept (an array
``samples x options``), so the means, the intervals, the distribution plot
(:func:`plot_advice`) and the doubles all come from the same samples.

Decisions:

- **The declarer** is South by default (:data:`DEFAULT_DECLARER`); the declarer
  leads the first trick and starts Dominoes (the *dealer declares* variant moves
  the lead as in :func:`barbu_dd.solver.leader_for`).  The declarer's seat only
  matters through who leads: the three other hands are dealt at random.
- **Samples**: the 39 other cards are shuffled with one :class:`random.Random`
  seeded with ``seed`` and dealt 13 a hand clockwise from the declarer's left, in
  the parent process, so the samples (and the advice) do not depend on the number
  of workers, and the first ``k`` samples are those of any longer run.
- **Trumps and Dominoes** are named before the other hands are seen: each trump
  suit (each starting rank) is solved on every sample, and the choice is the one
  with the best *mean* over the samples (:func:`choose_option`), never the best of
  each sample.  The first in suit order ♠ ♥ ♦ ♣ (rank order 2 … A) wins a tie.
- **Gain** is the chosen option's mean minus the contract's average for a declarer
  over random deals (double dummy, Trumps with the best suit and Dominoes with the
  best start of each deal: so the gain of a suit or rank named in advance is
  pessimistic).  A contract with no average in the file has no gain (``None``) and
  a note says so; the advice ranks the contracts by gain among those that have one
  (by mean when none has), and says which way it ranked.
- **Confidence intervals**: mean ± t(0.975, n−1) · sd / √n (Student's t).
- **Doubles** (``doubles=CONTRACT``): every sample is played out with the
  analyser's consistent line (:func:`barbu_dd.analyze.playout`) in the contract (a
  Trumps suit or starting rank not given is the advised one), and the settlement
  arithmetic of :func:`barbu_dd.settle.settle` gives, for every pair of seats
  ``(a, b)``, what one double between them is expected to bring ``a``.  SPEC §6
  lets the declarer only *redouble* a player who doubled them: for each other seat
  the report says what that seat's double is expected to bring it, and whether the
  declarer's redouble pays (a positive expected gain for the declarer).
- **Compulsory doubles** (``doubles_left``): how many doubles each other player
  still owes the declarer in the declarer's block of deals (SPEC §6: twice each in
  classic); the reminder counts the deals left from ``played``.
- **Ctrl-C** (:class:`KeyboardInterrupt`) stops the workers and returns the advice
  from the samples finished so far (``complete`` is then false).
- **A time limit** (``time_limit``: seconds for each sample's searches) makes the
  advice's time predictable where the trick contracts' exact solves are not (a
  negative contract on a full deal takes seconds to minutes).  Dominoes and the
  Réussite always finish (milliseconds); the other columns go positive contracts
  first, each with an equal share of the time left to the columns not yet solved.
  A score not finished is the interval its search proved (``lows``, ``highs``);
  it counts as the interval's midpoint (``values``), so a mean (and ``sd``) is the
  midpoints', and each column also says the interval its exact mean is proved to
  lie in (``mean_low`` … ``mean_high``: the means of the bounds) and how many of
  its scores were not finished.  The 95% interval is widened to hold the one the
  exact scores would give, whatever they are (see :func:`_stats`).  The choice of
  suit or rank and the advice rank by the midpoints; ``contenders`` are the
  contracts that the proved intervals do not rule out (the advice is *settled*
  when there are none).  The doubles' playouts take the limit too: each search of
  a sample's line gets 1/64 of it (the first tricks' positions use it, the later
  ones finish at once: a line took 0.1 to 2 times the limit, measured), and each
  player plays the card with the best proved bounds (the consistent line where
  every search finished; see :func:`playout`); a note says so.
- **Settling** (``settle_time``, with a time limit): most open scores do not
  matter to the advice.  After the samples, rounds solve again the open scores of
  the advised contract's chosen option and of the other options that may still
  beat it (see *regret*; widest interval first, each alone, on the workers).  A
  round gives each score its fair share of half the time left, at most the time
  limit doubled each round after the first and at least twice the last round's,
  spent on the one bound that matters (the chosen option's lower bound, the
  others' upper: ``Solver.solve(bound=…)``); each new interval is met with the old
  one (both hold the score).  It stops when the regret is 0 (or within
  ``tolerance``) or ``settle_time`` seconds are spent (a score started near the
  end gets what is left).  A settled advice names the contract the exact scores
  of the same samples would.
- **Regret**: the most the advice (the contract and its chosen suit or rank) may
  fall short, by the proved intervals, of what the exact scores of the samples
  would advise (gain, or mean, in points): the highest proved upper bound of any
  other option, the advised contract's other suits and ranks included, less the
  chosen option's proved lower bound; 0 when all are ruled out (the advice is then
  settled, its suit or rank too).  A contest closer than the samples can tell (the
  means' own 95% intervals are points wide) need not be proved exactly:
  ``tolerance`` stops settling once the regret is within it.

>>> adv = advise("AKQJT98765432...", rules="french", contracts=["reussite"],
...              samples=3, seed=1, workers=1)
>>> adv.best.contract, adv.best.mean, adv.samples
('reussite', 45.0, 3)
"""

from __future__ import annotations

import math
import os
import random
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent import futures as cf
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .batch import (
    ContractSpec,
    _spawn_pool,
    _stop_pool,
    check_workers,
    default_workers,
    quick_first,
    share_of,
)
from .cards import (
    ALL_CARDS,
    RANK_CHARS,
    SUIT_CHARS,
    Rank,
    Seat,
    hand_from_pbn,
    hand_to_pbn,
    to_seat,
)
from .contracts import (
    Contract,
    Game,
    Scale,
    contracts_of,
    find_contract,
    load_scale,
    make_game,
    normalize_name,
    parse_variants,
    played_set,
)
from .deal import Deal
from .errors import BarbuError, ParseError
from .settle import Doubles, may_double, settle
from .solver import Solver, check_limits

if TYPE_CHECKING:
    from .averages import Averages

__all__ = [
    "DEFAULT_DECLARER",
    "DEFAULT_SAMPLES",
    "OptionStats",
    "ContractAdvice",
    "SeatDouble",
    "DoublesAdvice",
    "Advice",
    "parse_hand",
    "deal_samples",
    "mean_ci",
    "choose_option",
    "advise",
    "plot_advice",
    "check_plot_path",
]

#: The declarer's seat when none is given.
DEFAULT_DECLARER = Seat.S
#: Samples when none is asked for.
DEFAULT_SAMPLES = 100
#: Transposition table of each worker's solver.
_TT_BYTES = 64 << 20
#: A settling task with less time left than this (seconds) is not started.
_MIN_CELL = 0.01

#: Student's t quantile 0.975 for 1..10 degrees of freedom (larger: an expansion).
_T975 = (12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281)


def _t975(df: int) -> float:
    if df <= len(_T975):
        return _T975[df - 1]
    z = 1.959964
    return (
        z
        + (z**3 + z) / (4 * df)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * df**3)
    )


def mean_ci(values: Sequence[float] | np.ndarray) -> tuple[float, float, float, float]:
    """The mean, standard deviation and 95% confidence interval (Student's t) of values.

    With one value the interval is the value itself; with none everything is NaN.

    >>> mean_ci([1.0, 2.0, 3.0])
    (2.0, 1.0, -0.484..., 4.484...)
    """
    a = np.asarray(values, dtype=float)
    n = len(a)
    if n == 0:
        nan = float("nan")
        return nan, nan, nan, nan
    mean = float(a.mean())
    if n == 1:
        return mean, 0.0, mean, mean
    sd = float(a.std(ddof=1))
    half = _t975(n - 1) * sd / math.sqrt(n)
    return mean, sd, mean - half, mean + half


def choose_option(values: np.ndarray) -> int:
    """The column with the best mean (the first on a tie): a trump suit or a starting
    rank is named before the other hands are seen.

    >>> choose_option(np.array([[10.0, 0.0], [0.0, 6.0]]))
    0
    """
    means = np.asarray(values, dtype=float).mean(axis=0)
    return int(np.flatnonzero(means == means.max())[0])


def parse_hand(text: str) -> int:
    """The declarer's 13 cards from ``spades.hearts.diamonds.clubs`` (``AK2.QJ..``).

    :raises ParseError: for a malformed hand or one of another size than 13 cards.
    :raises InvalidPositionError: for a card given twice.

    >>> hand_to_pbn(parse_hand("akqjt98765432..."))
    'AKQJT98765432...'
    """
    mask = hand_from_pbn(text)
    n = mask.bit_count()
    if n != 13:
        raise ParseError(f"a hand must hold 13 cards, got {n}: {text!r}")
    return mask


def deal_samples(hand: int, declarer: Seat | int | str, n: int, seed: int) -> list[Deal]:
    """``n`` random deals where the declarer holds ``hand`` (see the module's decisions).

    :raises ValueError: for ``n < 0`` or a hand of another size than 13 cards.

    >>> d = deal_samples(parse_hand("AKQJT98765432..."), "S", 1, 7)[0]
    >>> d.hand(Seat.S).mask == parse_hand("AKQJT98765432..."), sorted(d.sizes())
    (True, [13, 13, 13, 13])
    """
    if n < 0:
        raise ValueError(f"the number of samples must be 0 or more, got {n}")
    if hand.bit_count() != 13:
        raise ValueError("the declarer's hand must hold 13 cards")
    decl = to_seat(declarer)
    rest = [c for c in ALL_CARDS if not hand >> c & 1]
    others = (decl.left, decl.left.left, decl.right)
    rng = random.Random(seed)
    out: list[Deal] = []
    for _ in range(n):
        deck = list(rest)
        rng.shuffle(deck)
        hands = [0, 0, 0, 0]
        hands[decl] = hand
        for k, s in enumerate(others):
            hands[s] = sum(1 << c for c in deck[13 * k : 13 * k + 13])
        out.append(Deal(hands))
    return out


# -- result types ---------------------------------------------------------------------


def _r(x: float | None, nd: int = 4) -> float | None:
    return None if x is None or math.isnan(x) else round(x, nd)


@dataclass(frozen=True)
class OptionStats:
    """One column of the samples: a contract, or one trump suit / starting rank of it.

    ``label`` names it as batch records do (``'barbu'``, ``'trumps:H'``,
    ``'dominoes:9'``); ``mean``, ``sd`` and the 95% interval ``low`` … ``high`` are
    over ``samples`` samples of the declarer's score.  Under a time limit,
    ``unfinished`` of the scores are intervals (each counted as its midpoint) and
    the true mean is proved to lie in ``mean_low`` … ``mean_high`` (both ``mean``
    when every score is exact).
    """

    label: str
    mean: float
    sd: float
    low: float
    high: float
    samples: int
    mean_low: float = math.nan
    mean_high: float = math.nan
    unfinished: int = 0

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready dict."""
        return {
            "label": self.label,
            "mean": _r(self.mean),
            "sd": _r(self.sd),
            "ci": [_r(self.low), _r(self.high)],
            "samples": self.samples,
            "mean_bounds": [_r(self.mean_low), _r(self.mean_high)],
            "unfinished": self.unfinished,
        }


@dataclass(frozen=True)
class ContractAdvice:
    """A contract the declarer may still name, over the samples.

    ``choice`` is the trump suit / starting rank named in advance (best mean), and
    ``chosen`` its column; ``options`` all the columns of the contract (four suits,
    thirteen ranks, or the contract alone).  ``average`` is the contract's average
    for a declarer (``None``: not in the averages file), ``gain`` = ``mean`` −
    ``average``.
    """

    contract: str
    title: str
    choice: str | None
    chosen: OptionStats
    options: tuple[OptionStats, ...]
    average: float | None = None
    gain: float | None = None
    average_deals: int | None = None
    provisional: bool = False

    @property
    def label(self) -> str:
        """The chosen column's label (``'trumps:H'``)."""
        return self.chosen.label

    @property
    def mean(self) -> float:
        """The declarer's mean score with the choice."""
        return self.chosen.mean

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready dict."""
        return {
            "contract": self.contract,
            "title": self.title,
            "choice": self.choice,
            "label": self.label,
            "mean": _r(self.mean),
            "sd": _r(self.chosen.sd),
            "ci": [_r(self.chosen.low), _r(self.chosen.high)],
            "mean_bounds": [_r(self.chosen.mean_low), _r(self.chosen.mean_high)],
            "unfinished": self.chosen.unfinished,
            "average": _r(self.average),
            "gain": _r(self.gain),
            "average_deals": self.average_deals,
            "provisional": self.provisional,
            "options": [o.as_dict() for o in self.options],
        }


@dataclass(frozen=True)
class SeatDouble:
    """One other seat and the declarer, in the doubled contract.

    ``mean`` (interval ``low`` … ``high``) is what one double between the declarer
    and ``seat`` is expected to bring the declarer (``seat`` gets the opposite):
    the declarer's line score minus ``seat``'s, by :func:`~barbu_dd.settle.settle`.
    ``may_double`` says whether ``seat`` may double the declarer, ``redouble_pays``
    whether the declarer's redouble of a double by ``seat`` is expected to gain.
    """

    seat: Seat
    mean: float
    low: float
    high: float
    may_double: bool
    redouble_pays: bool

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready dict."""
        return {
            "seat": self.seat.name,
            "declarer_gain": _r(self.mean),
            "ci": [_r(self.low), _r(self.high)],
            "seat_gain_if_doubling": _r(-self.mean),
            "may_double_declarer": self.may_double,
            "redouble_pays": self.redouble_pays,
        }


@dataclass(frozen=True)
class DoublesAdvice:
    """The doubles of one contract, estimated from the samples played out.

    ``line_means`` are the seats' mean scores in the consistent line; ``pairs[a][b]``
    what one double between ``a`` and ``b`` is expected to bring ``a``;
    ``seats`` the three other seats against the declarer; ``reminder`` the
    compulsory doubles note (or ``None``).
    """

    label: str
    title: str
    samples: int
    line_means: tuple[float, float, float, float]
    pairs: tuple[tuple[float, ...], ...]
    seats: tuple[SeatDouble, ...]
    reminder: str | None = None

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready dict."""
        return {
            "label": self.label,
            "title": self.title,
            "samples": self.samples,
            "line_means": {s.name: _r(self.line_means[s]) for s in Seat},
            "pairs": {a.name: {b.name: _r(self.pairs[a][b]) for b in Seat if b != a} for a in Seat},
            "seats": [s.as_dict() for s in self.seats],
            "reminder": self.reminder,
        }


@dataclass(frozen=True)
class Advice:
    """Single-dummy advice for one hand (see :func:`advise`).

    ``values`` (``samples x len(labels)``) are the declarer's score on each sample
    in each column; ``samples`` how many were solved out of ``requested``
    (``complete`` is false after Ctrl-C).  ``best`` is the advised contract,
    ``ranked_by`` ``'gain'`` or ``'mean'``; ``notes`` say what the reader should know.
    Under ``time_limit`` (seconds for each sample's searches) ``unfinished`` of the
    scores were not finished: ``lows`` and ``highs`` hold every score's proved
    interval, ``values`` its midpoint (with no limit all three are equal), and
    ``contenders`` names the contracts (chosen labels) that, by the intervals the
    means are proved in, may still rank above ``best``: the advice is *settled*
    when there is none.  ``regret`` is the most the advice (with its suit / rank)
    may fall short of what the exact scores would advise on these samples (gain,
    or mean; 0 when it and its suit / rank are settled).  With
    ``settle_time`` the open scores that kept it from being settled (or its regret
    above ``tolerance``) were solved again in ``settle_rounds`` rounds.
    """

    hand: str
    declarer: Seat
    rules: str
    variants: tuple[str, ...]
    played: tuple[str, ...]
    seed: int
    requested: int
    samples: int
    contracts: tuple[ContractAdvice, ...]
    best: ContractAdvice | None
    ranked_by: str
    labels: tuple[str, ...]
    values: np.ndarray = field(compare=False, repr=False)
    notes: tuple[str, ...] = ()
    doubles: DoublesAdvice | None = None
    averages: str = ""
    complete: bool = True
    workers: int = 1
    seconds: float = 0.0
    time_limit: float | None = None
    unfinished: int = 0
    contenders: tuple[str, ...] = ()
    lows: np.ndarray | None = field(default=None, compare=False, repr=False)
    highs: np.ndarray | None = field(default=None, compare=False, repr=False)
    settle_time: float | None = None
    settle_rounds: int = 0
    regret: float = 0.0
    tolerance: float = 0.0

    @property
    def settled(self) -> bool:
        """No other contract may rank above the advice, whatever the scores not
        finished under the time limit are (always, without a limit)."""
        return not self.contenders

    def contract(self, name: str) -> ContractAdvice:
        """The advice for one contract (canonical name).

        :raises KeyError: if it was not evaluated.
        """
        for c in self.contracts:
            if c.contract == name:
                return c
        raise KeyError(name)

    def column(self, label: str) -> np.ndarray:
        """The declarer's score on each sample for one column label (``'trumps:H'``).

        :raises KeyError: for an unknown label.
        """
        if label not in self.labels:
            raise KeyError(label)
        return self.values[:, self.labels.index(label)]

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready dict (the ``--json`` record)."""
        return {
            "hand": self.hand,
            "declarer": self.declarer.name,
            "rules": self.rules,
            "variants": list(self.variants),
            "played": list(self.played),
            "seed": self.seed,
            "requested": self.requested,
            "samples": self.samples,
            "complete": self.complete,
            "contracts": [c.as_dict() for c in self.contracts],
            "advice": None if self.best is None else self.best.contract,
            "advice_choice": None if self.best is None else self.best.choice,
            "advice_settled": self.settled,
            "contenders": list(self.contenders),
            "ranked_by": self.ranked_by,
            "notes": list(self.notes),
            "doubles": None if self.doubles is None else self.doubles.as_dict(),
            "averages": self.averages,
            "workers": self.workers,
            "seconds": round(self.seconds, 3),
            "time_limit": self.time_limit,
            "unfinished": self.unfinished,
            "settle_time": self.settle_time,
            "settle_rounds": self.settle_rounds,
            "regret": _r(self.regret),
            "tolerance": self.tolerance,
        }


# -- the columns: what each sample is solved for --------------------------------------


class _Column(ContractSpec):
    """A column of the samples: a contract, or one trump suit / starting rank of it."""

    @property
    def choice(self) -> str | None:
        return self.start if self.contract == "dominoes" else self.trump


def _columns_of(
    c: Contract, arg: str | None, rules: str, variants: tuple[str, ...]
) -> list[_Column]:
    """The columns of a contract: each trump suit / starting rank unless ``arg`` fixes one."""
    if c.name in ("trumps", "tricks"):
        suits = list(SUIT_CHARS) if c.name == "trumps" else ["NT", *SUIT_CHARS]
        if arg is not None:
            g = make_game(c, rules=rules, variants=variants, trump=arg)
            suits = ["NT" if g.trump is None else SUIT_CHARS[g.trump]]
        return [_Column(c.name, trump=t) for t in suits]
    if c.name == "dominoes":
        ranks = [RANK_CHARS[r] for r in Rank]
        if arg is not None:
            g = make_game(c, rules=rules, variants=variants, start=arg)
            assert g.start is not None
            ranks = [RANK_CHARS[g.start]]
        return [_Column(c.name, start=r) for r in ranks]
    if arg is not None and c.name != "reussite":
        raise ParseError(f"contract {c.name!r} takes no argument, got {arg!r}")
    return [_Column(c.name, start="J" if c.name == "reussite" else None)]


def _names(names: str | Iterable[str]) -> list[str]:
    """Contract names: one name, or several (a string is not split into letters)."""
    return [names] if isinstance(names, str) else list(names)


def _parse_spec(text: str, rules: str) -> tuple[Contract, str | None]:
    name, _, arg = text.partition(":")
    c = find_contract(name.strip(), rules)
    if normalize_name(arg) == "best":
        raise ParseError(f"advise names the best {c.name} choice itself: give -c {c.name}")
    return c, (arg.strip() or None)


@dataclass(frozen=True)
class _Job:
    """What every worker needs (picklable)."""

    games: tuple[Game, ...]
    declarer: Seat
    tt_bytes: int = _TT_BYTES
    time_limit: float | None = None


def _game_of(col: _Column, rules: str, variants: tuple[str, ...], scale: Scale | None) -> Game:
    trump = None if col.trump in (None, "NT") else col.trump
    return make_game(
        col.contract, rules=rules, variants=variants, scale=scale, trump=trump, start=col.start
    )


# -- the work: in this process or in a pool ---------------------------------------------

_solver: Solver | None = None
_job: _Job | None = None


def _worker_solver(tt_bytes: int) -> Solver:
    global _solver
    if _solver is None or _solver.tt_bytes != tt_bytes:
        _solver = Solver(tt_bytes)
    return _solver


def _values(job: _Job, deal: str) -> list[float]:
    """A sample's task: the declarer's score in every column, the lower bounds then
    the upper bounds (equal where the search finished: always without a time limit).

    Under ``job.time_limit`` the columns that always finish (Dominoes, the Réussite)
    go first, unlimited, then the positive trick contracts (quick), then the others;
    each trick column gets an equal share of the time left to the columns not yet
    solved.
    """
    sv = _worker_solver(job.tt_bytes)
    n = len(job.games)
    lows = [math.nan] * n
    highs = [math.nan] * n
    end = None if job.time_limit is None else time.monotonic() + job.time_limit
    for k, i in enumerate(quick_first(job.games)):
        g = job.games[i]
        limit = share_of(end, n - k) if g.kind != "dominoes" else None
        lows[i], highs[i] = _bounds(sv, deal, g, job.declarer, limit)
    return lows + highs


def _bounds(
    sv: Solver, deal: str, game: Game, decl: Seat, limit: float | None, bound: str | None = None
) -> tuple[float, float]:
    """The declarer's score in one column: the interval proved within ``limit``
    (spent on one ``bound`` if given; Dominoes and the Réussite are always exact)."""
    sol = sv.solve(deal, game, declarer=decl, seats=(decl,), time_limit=limit, bound=bound)
    b = sol.bounds[decl] if sol.bounds is not None else None
    if b is None:
        v = sol.scores[decl]
        assert v is not None
        b = (v, v)
    return float(b[0]), float(b[1])


def _cell(job: _Job, item: tuple[str, int, str, float, float]) -> list[float]:
    """A settling task: column ``j`` of one sample solved again within ``limit``
    seconds, the time spent on one ``bound`` (``'lower'`` or ``'upper'``), cut to
    what is left before ``deadline`` (a :func:`time.monotonic` time, one clock for
    every process of the machine).  NaNs when no time was left."""
    deal, j, bound, limit, deadline = item
    limit = min(limit, deadline - time.monotonic())
    if limit < _MIN_CELL:
        return [math.nan, math.nan]
    sv = _worker_solver(job.tt_bytes)
    return list(_bounds(sv, deal, job.games[j], job.declarer, limit, bound))


#: Under a time limit, a doubles playout's searches get this part of a sample's time
#: each: the first tricks' positions (a dozen moves of a few cards each) take it,
#: the later ones finish at once.
_LINE_SHARE = 64


def _line(job: _Job, deal: str) -> list[float]:
    """A sample's doubles task: the four scores of the consistent line in ``games[0]``
    (under a time limit, the line the proved bounds pick; see :func:`playout`)."""
    from .analyze import playout

    limit = None if job.time_limit is None else job.time_limit / _LINE_SHARE
    p = playout(
        deal,
        job.games[0],
        declarer=job.declarer,
        solver=_worker_solver(job.tt_bytes),
        time_limit=limit,
    )
    return [float(s) if s is not None else 0.0 for s in p.scores]


_TASKS: dict[str, Callable[[_Job, Any], list[float]]] = {
    "values": _values,
    "line": _line,
    "cell": _cell,
}


def _run_chunk(
    kind: str, job: _Job, chunk: Sequence[tuple[int, Any]]
) -> list[tuple[int, list[float]]]:
    f = _TASKS[kind]
    return [(i, f(job, d)) for i, d in chunk]


class _Runner:
    """Runs sample tasks in this process (``workers=1``) or in a spawned process pool."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.pool: cf.ProcessPoolExecutor | None = None
        if workers > 1:
            self.pool = _spawn_pool(workers)

    def run(
        self,
        kind: str,
        job: _Job,
        deals: Sequence[Any],
        each: Callable[[int, list[float]], None],
    ) -> None:
        """Run task ``kind`` on every item (a deal, or a settling cell), calling
        ``each(index, row)`` as results come."""
        items = list(enumerate(deals))
        if self.pool is None:
            for i, d in items:
                each(*_run_chunk(kind, job, [(i, d)])[0])
            return
        # Small chunks: a sample is 10 ms to minutes, and the results feed a progress bar.
        size = max(1, min(4, len(items) // (8 * self.workers)))
        futs = [
            self.pool.submit(_run_chunk, kind, job, items[k : k + size])
            for k in range(0, len(items), size)
        ]
        for f in cf.as_completed(futs):
            for i, row in f.result():
                each(i, row)

    def close(self, abort: bool) -> None:
        if self.pool is not None:
            _stop_pool(self.pool, abort)


# -- the summary ---------------------------------------------------------------------------


def _stats(label: str, low: np.ndarray, high: np.ndarray) -> OptionStats:
    """A column's statistics from its scores' proved intervals (``low == high``: exact).

    With intervals the 95% interval is widened to hold the one the exact scores
    would give, whatever they are: their mean lies in ``mean_low`` … ``mean_high``,
    and their sd is at most the midpoints' sd plus ``sqrt(sum((w / 2)**2) / (n - 1))``
    (``w`` the intervals' widths), since each differs from its midpoint by at most
    ``w / 2``.
    """
    mid = (low + high) / 2
    mean, sd, lo, hi = mean_ci(mid)
    n = len(mid)
    open_ = int((low != high).sum())
    m_lo = float(low.mean()) if n else math.nan
    m_hi = float(high.mean()) if n else math.nan
    if open_:
        if n == 1:
            lo, hi = m_lo, m_hi
        else:
            half_w = (high - low) / 2
            sd_max = sd + math.sqrt(float((half_w**2).sum()) / (n - 1))
            half = _t975(n - 1) * sd_max / math.sqrt(n)
            lo, hi = m_lo - half, m_hi + half
    return OptionStats(label, mean, sd, lo, hi, n, m_lo, m_hi, open_)


def _summaries(
    groups: Sequence[tuple[Contract, list[int]]],
    labels: Sequence[str],
    choices: Sequence[str | None],
    lows: np.ndarray,
    highs: np.ndarray,
    averages: Any,
    rules: str,
    variants: tuple[str, ...],
    scale: Scale | None,
) -> tuple[list[ContractAdvice], list[str]]:
    out: list[ContractAdvice] = []
    missing: list[str] = []
    for c, cols in groups:
        lo, hi = lows[:, cols], highs[:, cols]
        opts = tuple(_stats(labels[j], lo[:, k], hi[:, k]) for k, j in enumerate(cols))
        k = choose_option((lo + hi) / 2) if len(lo) else 0
        avg = gain = None
        deals: int | None = None
        provisional = False
        if averages is not None:
            a = averages.find(c, rules=rules, variants=variants, scale=scale)
            if a is None:
                missing.append(c.name)
            else:
                avg, deals, provisional = a.mean, a.deals, a.provisional
                gain = opts[k].mean - a.mean
        out.append(
            ContractAdvice(
                c.name, c.title, choices[cols[k]], opts[k], opts, avg, gain, deals, provisional
            )
        )
    return out, missing


def _base(c: ContractAdvice, ranked_by: str) -> float:
    """What a contract's means are ranked against: its average by gain, else 0."""
    return c.average if ranked_by == "gain" and c.average is not None else 0.0


def _floor(best: ContractAdvice, ranked_by: str) -> float:
    """The advice's proved lower bound (of its gain, or mean): the best of its
    options' proved means."""
    return max(o.mean_low for o in best.options) - _base(best, ranked_by)


def _rivals(
    contracts: Sequence[ContractAdvice], best: ContractAdvice, ranked_by: str
) -> list[ContractAdvice]:
    """The other contracts the advice is ranked against (by gain: those with one)."""
    pool = [c for c in contracts if c is not best and not math.isnan(c.mean)]
    return [c for c in pool if c.gain is not None] if ranked_by == "gain" else pool


def _reach(
    contracts: Sequence[ContractAdvice], best: ContractAdvice | None, ranked_by: str
) -> dict[str, float]:
    """How far each other ranked contract's proved upper bound (of its best option's
    gain, or mean) reaches above the advice's proved lower bound, by label."""
    if best is None:
        return {}
    floor = _floor(best, ranked_by)
    return {
        c.label: max(o.mean_high for o in c.options) - _base(c, ranked_by) - floor
        for c in _rivals(contracts, best, ranked_by)
    }


def _contenders(
    contracts: Sequence[ContractAdvice], best: ContractAdvice | None, ranked_by: str
) -> tuple[str, ...]:
    """The contracts that may still rank above the advice, by the intervals the
    samples' means are proved in (none when every score is exact): those whose best
    option's upper bound beats the advice's lower bound (both less the average when
    ranked by gain)."""
    return tuple(k for k, r in _reach(contracts, best, ranked_by).items() if r > 0)


def _tops(
    contracts: Sequence[ContractAdvice], best: ContractAdvice, ranked_by: str
) -> list[tuple[ContractAdvice, OptionStats, float]]:
    """Every option the advice (its contract and chosen suit / rank) competes with —
    each ranked contract's, and the advised contract's other suits / ranks — with
    its proved upper bound (of gain, or mean)."""
    pool = _rivals(contracts, best, ranked_by)
    out = [(c, o, o.mean_high - _base(c, ranked_by)) for c in pool for o in c.options]
    out += [(best, o, o.mean_high - _base(best, ranked_by)) for o in best.options]
    return [t for t in out if t[1] is not best.chosen]


def _regret(
    contracts: Sequence[ContractAdvice], best: ContractAdvice | None, ranked_by: str
) -> float:
    """The most the advice (its contract and chosen suit / rank) may fall short, on
    these samples, of what the exact scores would advise, by the proved intervals:
    the highest upper bound of any other option less the chosen one's lower bound
    (gains, or means); 0 when every such option is ruled out."""
    if best is None:
        return 0.0
    low = best.chosen.mean_low - _base(best, ranked_by)
    return max([0.0, *(top - low for _, _, top in _tops(contracts, best, ranked_by))])


def _to_settle(
    contracts: Sequence[ContractAdvice],
    best: ContractAdvice | None,
    ranked_by: str,
    labels: Sequence[str],
    lows: np.ndarray,
    highs: np.ndarray,
    tolerance: float = 0.0,
) -> list[tuple[int, int, str]]:
    """The open scores (sample, column, bound to narrow) that keep the advice's
    :func:`_regret` above ``tolerance`` (points), widest first: those of the chosen
    option (its proved lower bound must rise: ``'lower'``) and of every other option
    whose proved upper bound is above that lower bound plus the tolerance (it must
    fall: ``'upper'``).  None when the regret is within the tolerance (with 0: the
    advice and its suit / rank are settled)."""
    if best is None or _regret(contracts, best, ranked_by) <= tolerance:
        return []
    top = best.chosen.mean_low - _base(best, ranked_by) + tolerance
    cols = {labels.index(best.label): "lower"}
    for _, o, high in _tops(contracts, best, ranked_by):
        if high > top:
            cols[labels.index(o.label)] = "upper"
    cells = [
        (int(i), j, cols[j])
        for j in sorted(cols)
        for i in np.flatnonzero(lows[:, j] != highs[:, j])
    ]
    cells.sort(key=lambda c: -(highs[c[0], c[1]] - lows[c[0], c[1]]))
    return cells


def _round_limit(
    last: float, time_limit: float, rounds: int, left: float, workers: int, cells: int
) -> float:
    """A settling round's time for each score: its fair share of half the time left
    (``left`` seconds on ``workers``), at most ``time_limit`` doubled each round after
    the first, and at least twice the last round's (``last``; the same time again
    would prove the same bounds)."""
    fair = left * workers / (2 * cells)
    return max(2 * last, 2 * _MIN_CELL, min(math.ldexp(time_limit, rounds - 1), fair))


def _settle_round(
    runner: _Runner,
    job: _Job,
    items: Sequence[tuple[str, int, str, float, float]],
    cells: Sequence[tuple[int, int, str]],
    lows: np.ndarray,
    highs: np.ndarray,
    report: Callable[[int, int], object],
) -> int:
    """One settling round: every cell solved again (``items``, see :func:`_cell`),
    its new interval met with the old one in ``lows`` / ``highs`` (both hold the
    score); ``report(done, total)`` as they come.  How many got a new interval."""
    done = got = 0

    def each(k: int, row: list[float]) -> None:
        nonlocal done, got
        i, j, _ = cells[k]
        if not math.isnan(row[0]):
            lows[i, j] = max(lows[i, j], row[0])
            highs[i, j] = min(highs[i, j], row[1])
            got += 1
        done += 1
        report(done, len(cells))

    runner.run("cell", job, items, each)
    return got


def _pick(contracts: Sequence[ContractAdvice]) -> tuple[ContractAdvice | None, str]:
    with_gain = [c for c in contracts if c.gain is not None and not math.isnan(c.gain)]
    if with_gain:
        top = max(c.gain for c in with_gain if c.gain is not None)
        return next(c for c in with_gain if c.gain == top), "gain"
    ok = [c for c in contracts if not math.isnan(c.mean)]
    if not ok:
        return None, "mean"
    top_mean = max(c.mean for c in ok)
    return next(c for c in ok if c.mean == top_mean), "mean"


def _doubles_advice(
    label: str,
    title: str,
    lines: np.ndarray,
    declarer: Seat,
    contract: Contract,
    variants: tuple[str, ...],
    reminder: str | None,
) -> DoublesAdvice:
    n = len(lines)
    # What one double between a and b brings a, by settle()'s arithmetic, per sample.
    gains = np.zeros((n, 4, 4))
    for i, row in enumerate(lines):
        s = [int(round(x)) for x in row]
        for a in Seat:
            for b in Seat:
                if a != b:
                    gains[i, a, b] = settle(s, Doubles([(b, a)]))[a] - s[a]
    pairs = tuple(
        tuple(float(gains[:, a, b].mean()) if n else float("nan") for b in Seat) for a in Seat
    )
    seats: list[SeatDouble] = []
    for x in (declarer.left, declarer.left.left, declarer.right):
        mean, _, lo, hi = mean_ci(gains[:, declarer, x])
        doubled = Doubles([(x, declarer)])
        seats.append(
            SeatDouble(
                x,
                mean,
                lo,
                hi,
                may_double(x, declarer, declarer, contract, (), variants),
                bool(mean > 0) and may_double(declarer, x, declarer, contract, doubled, variants),
            )
        )
    line_means = lines.mean(axis=0) if n else np.full(4, np.nan)
    lm = (float(line_means[0]), float(line_means[1]), float(line_means[2]), float(line_means[3]))
    return DoublesAdvice(label, title, n, lm, pairs, tuple(seats), reminder)


def _reminder(rules: str, doubles_left: int, deals_left: int, declarer: Seat) -> str:
    if rules != "classic":
        return f"the {rules} rules have no compulsory doubles"
    if doubles_left <= 0:
        return "the other players owe you no more compulsory doubles"
    text = (
        f"compulsory doubles: each other player must still double you ({declarer.name}) "
        f"{doubles_left} more time(s) in your last {deals_left} deal(s), this one included"
    )
    if doubles_left >= deals_left:
        text += ": they must double you on this deal, so redouble every double that pays"
    return text


# -- advise -------------------------------------------------------------------------------


def advise(
    hand: str | int,
    *,
    declarer: Seat | int | str = DEFAULT_DECLARER,
    played: Iterable[str] = (),
    contracts: Iterable[str] | None = None,
    samples: int = DEFAULT_SAMPLES,
    seed: int | None = None,
    workers: int | None = None,
    rules: str = "classic",
    variants: Iterable[str] = (),
    scale: Scale | str | Path | None = None,
    averages: str | Path | Averages | None = None,
    doubles: str | None = None,
    doubles_left: int | None = None,
    on_progress: Callable[[int, int, str | None], None] | None = None,
    tt_bytes: int = _TT_BYTES,
    time_limit: float | None = None,
    settle_time: float | None = None,
    tolerance: float = 0.0,
) -> Advice:
    """Which contract to declare from one's own 13 cards, by simulation.

    ``hand`` is the declarer's hand (PBN ``spades.hearts.diamonds.clubs`` or a card
    mask).  ``contracts`` restricts the contracts (names, ``trumps:H`` or
    ``dominoes:9`` to fix the suit / rank; default: the rule set's), minus
    ``played``.  ``samples`` random deals from ``seed`` (a fresh seed when ``None``,
    reported in the advice) are solved on ``workers`` processes (default: all
    cores; 1: in this process).  ``doubles`` names the contract whose doubles are
    estimated (its samples played out); ``doubles_left`` adds the compulsory
    doubles reminder.  ``on_progress(done, total, leader)`` is called as samples
    finish (``leader``: the running best contract's label).  Ctrl-C returns the
    advice from the samples finished (``complete=False``).  ``time_limit``: seconds
    for each sample's searches (see the module's decisions: a score not finished is
    an interval, counted as its midpoint).  ``settle_time`` (with ``time_limit``):
    then at most that many more seconds solving again, in rounds, the scores not
    finished that keep the advice from being settled (see the module's *settling*),
    until it is settled, or with ``tolerance`` (points) until its ``regret`` is at
    most that.

    :raises ParseError: for a bad hand, contract, rule set, variant, seat, scale or
        averages file, a contract given twice, no contract left, ``samples < 1``, a
        time limit that is not a positive number, or ``settle_time`` without one.
    :raises InvalidPositionError: for a card given twice in the hand.
    """
    t0 = time.perf_counter()
    if isinstance(hand, bool) or not isinstance(hand, str | int):
        raise ParseError(
            f"a hand is PBN text such as 'AK2.Q.JT9.8765' or a card mask, not {hand!r}"
        )
    mask = parse_hand(hand) if isinstance(hand, str) else hand
    if mask.bit_count() != 13:
        raise ParseError(f"a hand must hold 13 cards, got {mask.bit_count()}")
    if isinstance(samples, bool) or not isinstance(samples, int) or samples < 1:
        raise ParseError(f"samples must be 1 or more, got {samples}")
    check_limits(time_limit)
    check_limits(settle_time, names=("the settling time", ""))
    if settle_time is not None and time_limit is None:
        raise ParseError("settling goes with a time limit (without one every score is exact)")
    if (
        isinstance(tolerance, bool)
        or not isinstance(tolerance, int | float)
        or not (0 <= tolerance < math.inf)
    ):
        raise ParseError(
            f"the tolerance must be a finite number of points, 0 or more, not {tolerance!r}"
        )
    decl = to_seat(declarer)
    rules = normalize_name(rules)
    vs = tuple(sorted(parse_variants(variants)))
    sc = load_scale(scale) if isinstance(scale, (str, Path)) else scale
    done = played_set(played, rules)
    specs: list[tuple[Contract, str | None]]
    if contracts is None:
        specs = [(c, None) for c in contracts_of(rules, vs)]
    else:
        specs = [_parse_spec(t, rules) for t in _names(contracts) if t.strip()]
    if doubles_left is not None and (doubles is None or not 0 <= doubles_left <= 2):
        raise ParseError(
            "doubles_left is 0, 1 or 2 (SPEC §6: each other player doubles the declarer"
            " at least twice in its seven deals), and goes with doubles (the contract to"
            f" estimate them in), got {doubles_left!r}"
        )
    dbl: tuple[Contract, str | None] | None = None
    extra: str | None = None  # the doubles' contract when not among those asked for
    if doubles is not None:
        dbl = _parse_spec(doubles, rules)
        if all(c.name != dbl[0].name for c, _ in specs):
            # solved for its doubles (and to choose its suit or rank), not advised
            specs.append(dbl)
            extra = dbl[0].name
    names = [c.name for c, _ in specs]
    dup = sorted({n for n in names if names.count(n) > 1})
    if dup:
        raise ParseError(f"contract given twice: {', '.join(dup)}")
    specs = [(c, a) for c, a in specs if c.name not in done]
    if not specs:
        raise ParseError("no contract left: every contract asked for was played")
    if dbl is not None and dbl[0].name in done:
        raise ParseError(f"{dbl[0].name!r} was played already: no doubles to estimate")
    columns: list[_Column] = []
    groups: list[tuple[Contract, list[int]]] = []
    for c, arg in specs:
        cols = _columns_of(c, arg, rules, vs)
        groups.append((c, list(range(len(columns), len(columns) + len(cols)))))
        columns.extend(cols)
    labels = tuple(col.label for col in columns)
    games = tuple(_game_of(col, rules, vs, sc) for col in columns)
    # here, not at the top: importing barbu_dd must not load the module that
    # `python -m barbu_dd.averages` runs
    from .averages import Averages, load_averages

    table_ = averages if isinstance(averages, Averages) else load_averages(averages)
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 31)
    n_workers = min(check_workers(default_workers() if workers is None else workers), samples)
    deals = [d.to_pbn() for d in deal_samples(mask, decl, samples, seed)]

    width = len(columns)
    row_lo = np.full((samples, width), np.nan)
    row_hi = np.full((samples, width), np.nan)
    got = np.zeros(samples, dtype=bool)
    count = 0
    choices = [c.choice for c in columns]

    def asked(cs: list[ContractAdvice]) -> list[ContractAdvice]:
        """The contracts advised on: not the doubles' own when not asked for."""
        return [c for c in cs if c.contract != extra]

    def leader() -> str | None:
        if not got.any():
            return None
        cs, _ = _summaries(groups, labels, choices, row_lo[got], row_hi[got], table_, rules, vs, sc)
        best, _ = _pick(asked(cs))
        return None if best is None else best.label

    def each(i: int, row: list[float]) -> None:
        nonlocal count
        row_lo[i], row_hi[i] = row[:width], row[width:]
        got[i] = True
        count += 1
        if on_progress is not None:
            on_progress(count, samples, leader())

    complete = True
    runner = _Runner(n_workers)
    lines: np.ndarray | None = None
    dbl_label = ""
    notes: list[str] = []
    rounds = redone = 0
    settling = False
    t_settle = 0.0

    def settle_progress(done: int, total: int, r: int) -> None:
        if on_progress is not None:
            on_progress(done, total, f"settling, round {r}: {leader()}")

    try:
        runner.run("values", _Job(games, decl, tt_bytes, time_limit), deals, each)
        if settle_time is not None and time_limit is not None:
            settling = True
            t_settle = time.monotonic()
            deadline = t_settle + settle_time
            limit = 0.0
            while deadline - time.monotonic() >= _MIN_CELL:
                cs, _ = _summaries(groups, labels, choices, row_lo, row_hi, table_, rules, vs, sc)
                cs = asked(cs)
                best, ranked_by = _pick(cs)
                cells = _to_settle(cs, best, ranked_by, labels, row_lo, row_hi, tolerance)
                if not cells:
                    break
                rounds += 1
                limit = _round_limit(
                    limit, time_limit, rounds, deadline - time.monotonic(), n_workers, len(cells)
                )
                redone += _settle_round(
                    runner,
                    _Job(games, decl, tt_bytes),
                    [(deals[i], j, bound, limit, deadline) for i, j, bound in cells],
                    cells,
                    row_lo,
                    row_hi,
                    partial(settle_progress, r=rounds),
                )
            t_settle = time.monotonic() - t_settle
            settling = False
        if dbl is not None:
            if dbl[1] is not None or len(_columns_of(dbl[0], None, rules, vs)) == 1:
                # The suit / rank is given (or the contract has only one).
                col = _columns_of(dbl[0], dbl[1], rules, vs)[0]
                g, dbl_label = _game_of(col, rules, vs, sc), col.label
            else:
                cs, _ = _summaries(groups, labels, choices, row_lo, row_hi, None, rules, vs, sc)
                chosen = next(c for c in cs if c.contract == dbl[0].name)
                g, dbl_label = games[labels.index(chosen.label)], chosen.label
            line_rows = np.full((samples, 4), np.nan)
            line_got = np.zeros(samples, dtype=bool)
            count = 0

            def each_line(i: int, row: list[float]) -> None:
                nonlocal count
                line_rows[i] = row
                line_got[i] = True
                count += 1
                if on_progress is not None:
                    on_progress(count, samples, f"doubles {dbl_label}")

            lines = line_rows
            runner.run("line", _Job((g,), decl, tt_bytes, time_limit), deals, each_line)
    except KeyboardInterrupt:
        complete = False
        runner.close(abort=True)
    except BaseException:
        runner.close(abort=True)
        raise
    else:
        runner.close(abort=False)

    lows, highs = row_lo[got], row_hi[got]
    values = (lows + highs) / 2
    n_done = int(got.sum())
    unfinished = int((lows != highs).sum())
    cs, missing = _summaries(groups, labels, choices, lows, highs, table_, rules, vs, sc)
    cs = asked(cs)
    missing = [m for m in missing if m != extra]
    best, ranked_by = _pick(cs)
    if missing:
        notes.append(
            f"no average for {', '.join(missing)} in {table_.source}: gain unavailable"
            + (", advice ranked by gain among the others" if ranked_by == "gain" else "")
        )
    if ranked_by == "mean" and best is not None:
        notes.append("no contract has an average: advice ranked by mean score")
    if any(c.provisional for c in cs):
        notes.append(f"provisional averages in {table_.source} (fewer deals than asked for)")
    if unfinished:
        notes.append(
            f"time limit {time_limit:g} s a sample: {unfinished} of {lows.size} scores (all"
            " suits and ranks) not finished count as the midpoints of their proved"
            " intervals; each mean is proved to lie in its 'proved' interval"
        )
    if rounds or settling:
        notes.append(
            f"settling: {redone} score(s) solved again in {rounds} round(s)"
            + (" (interrupted)" if settling else f", {t_settle:.1f} s of {settle_time:g} s")
        )
    if not complete:
        notes.append(
            "interrupted while settling"
            if settling
            else f"interrupted: {n_done} of {samples} samples solved"
        )
    dadv: DoublesAdvice | None = None
    if dbl is not None and lines is not None:
        deals_left = max(1, len(contracts_of(rules, vs)) - len(done))
        reminder = (
            None if doubles_left is None else _reminder(rules, doubles_left, deals_left, decl)
        )
        ok = lines[~np.isnan(lines).any(axis=1)]
        title = dbl[0].title
        dadv = _doubles_advice(dbl_label, title, ok, decl, dbl[0], vs, reminder)
        if not complete and len(ok) < n_done:
            notes.append(f"doubles from {len(ok)} sample(s) played out")
        if time_limit is not None and dbl[0].kind != "dominoes":
            notes.append(
                "doubles from lines played out under the time limit: each player played"
                " the card with the best proved bounds (the consistent line only where"
                " every search finished)"
            )
    return Advice(
        hand_to_pbn(mask),
        decl,
        rules,
        vs,
        tuple(sorted(done)),
        seed,
        samples,
        n_done,
        tuple(cs),
        best,
        ranked_by,
        labels,
        values,
        tuple(notes),
        dadv,
        table_.source,
        complete,
        n_workers,
        time.perf_counter() - t0,
        time_limit,
        unfinished,
        _contenders(cs, best, ranked_by),
        lows,
        highs,
        settle_time,
        rounds,
        _regret(cs, best, ranked_by),
        tolerance,
    )


# -- the picture ----------------------------------------------------------------------------


def check_plot_path(path: str | Path) -> None:
    """Check, before any work, that :func:`plot_advice` can write ``path``: a ``.png``
    name in a directory that exists and may be written to.

    :raises ParseError: naming the path and the problem.
    """
    p = Path(path)
    if p.suffix.lower() != ".png":
        raise ParseError(f"--plot wants a file name ending in .png, got {str(path)!r}")
    parent = p.parent if str(p.parent) else Path(".")
    if p.is_dir():
        raise ParseError(f"cannot write plot {str(path)!r}: it is a directory")
    if not parent.is_dir():
        why = "is not a directory" if parent.exists() else "does not exist"
        raise ParseError(f"cannot write plot {str(path)!r}: {str(parent)!r} {why}")
    if not os.access(parent, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise ParseError(f"cannot write plot {str(path)!r}: permission denied")


def plot_advice(advice: Advice, path: str | Path) -> None:
    """Draw the distribution of the declarer's score per contract (the chosen suit or
    rank) to an image file (PNG), the mean and its 95% interval marked (a score not
    finished under a time limit: its interval's midpoint, as in the means).

    :raises BarbuError: if matplotlib is not installed (``pip install 'barbu-dd[plot]'``)
        or the file cannot be written.
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise BarbuError(
            "--plot needs matplotlib, which is not installed: pip install 'barbu-dd[plot]'"
        ) from None
    version = tuple(int(x) for x in matplotlib.__version__.split(".")[:2] if x.isdigit())
    # ``vert`` is deprecated from Matplotlib 3.10 on, ``orientation`` new in it.
    horizontal: dict[str, Any] = (
        {"orientation": "horizontal"} if version >= (3, 10) else {"vert": False}
    )
    cs = advice.contracts
    fig, ax = plt.subplots(figsize=(8, 0.7 * len(cs) + 1.8))
    rng = np.random.default_rng(0)
    for y, c in enumerate(cs):
        col = advice.column(c.label)
        if len(col):
            ax.boxplot(col, positions=[y], widths=0.6, showfliers=False, **horizontal)
            jitter = rng.uniform(-0.2, 0.2, len(col))
            ax.scatter(col, y + jitter, s=8, alpha=0.35)
        if not math.isnan(c.mean):
            ax.errorbar(
                c.mean,
                y,
                xerr=[[c.mean - c.chosen.low], [c.chosen.high - c.mean]],
                fmt="D",
                color="black",
                capsize=4,
            )
    names = [
        c.title + (f" ({c.choice})" if c.choice and c.contract != "reussite" else "") for c in cs
    ]
    ax.set_yticks(range(len(cs)), names)
    label = f"declarer's score ({advice.declarer.name}), {advice.samples} samples"
    shown_open = sum(c.chosen.unfinished for c in cs)
    if shown_open:
        label += f" ({shown_open} scores not finished: their intervals' midpoints)"
    ax.set_xlabel(label)
    ax.set_title(f"{advice.hand}: score per contract (mean and 95% interval)")
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    try:
        fig.savefig(str(path), dpi=100, format="png")
    except OSError as e:
        raise BarbuError(f"cannot write plot {str(path)!r}: {e.strerror or e}") from None
    finally:
        plt.close(fig)
