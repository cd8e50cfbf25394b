"""The public double-dummy API: :func:`solve`, :func:`card_values` and :class:`Solver`.

The compiled core (:mod:`barbu_dd._core`) stays private behind this module: here
Python input is converted and checked, the search runs without the GIL, and the
answers come back as frozen dataclasses.

>>> sol = solve("N:AK... Q2... J3... 54...", "no-queens", declarer="N")
>>> sol.scores
(-6, 0, 0, 0)
"""

from __future__ import annotations

import functools
import json
import math
import numbers
import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from importlib import resources
from pathlib import Path

from . import _core, _dominoes
from .cards import Card, Rank, Seat, card_name, to_seat
from .contracts import Game, Scale, make_game
from .deal import Deal, as_deal
from .dominoes import (
    DEFAULT_DOMINO_TT_BYTES,
    check_layout,
    domino_hands,
    possible_starts,
    solve_dominoes,
)
from .errors import InvalidPositionError, ParseError, SolverError

__all__ = [
    "Score",
    "Solution",
    "CardValue",
    "Solver",
    "solve",
    "StartChoice",
    "best_start",
    "card_values",
    "parse_side",
    "leader_for",
    "check_limits",
    "MAX_TT_BYTES",
    "MAX_NODE_LIMIT",
    "default_threads",
]

Score = int | float
Bounds = tuple[Score, Score]
DEFAULT_TT_BYTES = 256 * 1024 * 1024
#: The largest table a solver may ask for (1 TiB) and the largest node limit.
MAX_TT_BYTES = 1 << 40
MAX_NODE_LIMIT = 10**18


@dataclass(frozen=True)
class Solution:
    """The optimal (1-against-3) score of each seat asked for, or a side's value.

    ``scores[i]`` is ``None`` for a seat that was not asked for (or that is already
    out in Dominoes).  With a side, ``value`` is the side's summed score.

    A solve under a time or node limit also has ``bounds``: for each seat asked
    for, the interval ``(lo, hi)`` its score is proved to lie in (``lo == hi``: the
    search finished), ``None`` for the others; a seat whose search did not finish
    has the score ``None``.  With a side, ``value_bounds`` is that interval for the
    side's value (``value`` is ``None`` if not finished).
    """

    game: Game
    deal: str
    leader: Seat
    scores: tuple[Score | None, Score | None, Score | None, Score | None]
    side: tuple[Seat, ...] | None = None
    value: Score | None = None
    nodes: int = 0
    seconds: float = 0.0
    bounds: tuple[Bounds | None, Bounds | None, Bounds | None, Bounds | None] | None = None
    value_bounds: Bounds | None = None

    def score(self, seat: Seat | int | str) -> Score | None:
        """The optimal score of one seat."""
        s = to_seat(seat)
        return self.scores[s]

    @property
    def exact(self) -> bool:
        """Whether every score asked for is exact (the search was not stopped by a
        limit before it finished)."""
        if self.value_bounds is not None and self.value_bounds[0] != self.value_bounds[1]:
            return False
        return self.bounds is None or all(b is None or b[0] == b[1] for b in self.bounds)

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready dict (the CLI's ``--json`` record without board tags)."""
        g = self.game
        out: dict[str, object] = {
            "contract": g.contract.name,
            "trump": g.trump_label,
            "start": None if g.start is None else "23456789TJQKA"[g.start],
            "rules": g.rules,
            "variants": sorted(g.variants),
            "deal": self.deal,
            "leader": self.leader.name,
        }
        if self.side is not None:
            out["side"] = "".join(s.name for s in self.side)
            out["value"] = self.value
        else:
            out["scores"] = {s.name: self.scores[s] for s in Seat}
        if self.value_bounds is not None:
            out["exact"] = self.exact
            out["bounds"] = list(self.value_bounds)
        elif self.bounds is not None:
            out["exact"] = self.exact
            out["bounds"] = {
                s.name: None if b is None else list(b)
                for s, b in zip(Seat, self.bounds, strict=True)
            }
        out["nodes"] = self.nodes
        out["seconds"] = round(self.seconds, 6)
        return out


@dataclass(frozen=True)
class CardValue:
    """The value of playing a card (and its equals) for the seat whose view is taken.

    Under a time or node limit, ``bounds`` is the interval ``(lo, hi)`` the value is
    proved to lie in (``lo == hi``: the search finished), and ``value`` is ``None``
    if it did not finish.
    """

    card: Card
    equals: tuple[Card, ...] = field(default_factory=tuple)
    value: Score | None = 0
    bounds: Bounds | None = None

    @property
    def name(self) -> str:
        """The card's name, ``'SQ'``."""
        return card_name(self.card)


@dataclass(frozen=True)
class StartChoice:
    """The declarer's best starting rank in Dominoes.

    ``start`` is the lowest rank (in rank order 2..A) reaching the best ``score``
    the declarer can guarantee, and ``solution`` solves all four seats with it.

    With ``complete`` (``best_start(exact_all=True)``, the default), ``scores`` maps
    every rank tried to the declarer's guaranteed points with it (all 13 for a full
    deal; for an ending only the ranks its table allows) and ``best`` holds every
    rank reaching ``score``.  Without it (``exact_all=False``: only the search needed
    to find ``start``), ``scores`` holds just the ranks whose score was computed
    exactly (``start`` among them; every other rank scores at most ``score``) and
    ``best`` is ``(start,)``.
    """

    declarer: Seat
    start: Rank
    score: int
    best: tuple[Rank, ...]
    scores: dict[Rank, int]
    solution: Solution
    nodes: int = 0
    seconds: float = 0.0
    complete: bool = True

    def as_dict(self) -> dict[str, object]:
        """A JSON-ready dict: the solution's record with the start and the ranks' scores."""
        out = self.solution.as_dict()
        out["declarer"] = self.declarer.name
        out["best_starts"] = [str(r) for r in self.best]
        out["start_scores"] = {str(r): v for r, v in self.scores.items()}
        out["complete"] = self.complete
        out["nodes"] = self.nodes
        out["seconds"] = round(self.seconds, 6)
        return out


def parse_side(side: str | Iterable[Seat | int | str]) -> tuple[Seat, ...]:
    """Seats from ``'NS'``, ``'n+s'`` or an iterable of seats.

    :raises ParseError: on an unknown seat or an empty side.

    >>> parse_side("ns")
    (<Seat.N: 0>, <Seat.S: 2>)
    """
    items: Iterable[Seat | int | str]
    if isinstance(side, str):
        items = [ch for ch in side if ch not in "+, "]
    elif isinstance(side, Iterable):
        items = side
    else:
        raise ParseError(f"a side is seats such as 'NS', got {side!r}")
    seats: set[Seat] = set()
    for x in items:
        s = to_seat(x)
        if s in seats:
            raise ParseError(f"seat {s.name} given twice in {side!r}")
        seats.add(s)
    if not seats:
        raise ParseError(f"no seat in {side!r}")
    return tuple(sorted(seats))


def leader_for(declarer: Seat | int | str, variants: Iterable[str] = ()) -> Seat:
    """Who leads the first trick: the declarer, or the dealer's left with *dealer declares*."""
    d = to_seat(declarer)
    return d.left if "dealer-declares" in set(variants) else d


def _game(
    contract: str | Game,
    rules: str,
    variants: Iterable[str],
    scale: Scale | str | Path | None,
    trump: str | int | None,
    start: str | int | None,
) -> Game:
    """The contract as given, or resolved with :func:`make_game`."""
    if isinstance(contract, Game):
        return contract
    return make_game(
        contract, rules=rules, variants=variants, scale=scale, trump=trump, start=start
    )


def _won_rows(won: Sequence[Sequence[int]] | None, d: Deal, game: Game) -> list[list[int]] | None:
    """Ravage City's cards won in earlier tricks, checked against the cards left."""
    if won is None or game.kind != "ravage":
        return None
    rows = [[int(x) for x in row] for row in won]
    if len(rows) != 4 or any(len(r) != 4 for r in rows):
        raise InvalidPositionError("won: give 4 rows (N E S W) of 4 counts (♠ ♥ ♦ ♣)")
    left = [0, 0, 0, 0]
    for c in [*d.trick, *(c for m in d.masks for c in range(64) if m >> c & 1)]:
        left[c >> 4] += 1
    for s in range(4):
        taken = sum(r[s] for r in rows)
        if min(r[s] for r in rows) < 0 or taken + left[s] > 13:
            raise InvalidPositionError(
                f"won: {taken} cards of suit {'SHDC'[s]} won, but {left[s]} are still in play"
            )
    return rows


#: ``solve(bound=…)``: the core's ``want`` (0 both bounds, 1 the lower, 2 the upper).
_BOUNDS: dict[str | None, int] = {None: 0, "lower": 1, "upper": 2}


def check_limits(
    time_limit: float | None,
    node_limit: int | None = None,
    *,
    names: tuple[str, str] = ("the time limit", "the node limit"),
) -> None:
    """Check a search's limits (``None``: none); ``names`` name them in the error.

    :raises ParseError: for a time limit that is not a positive number of seconds,
        or a node limit below 1.
    """
    if time_limit is not None:
        if isinstance(time_limit, bool) or not isinstance(time_limit, numbers.Real):
            raise ParseError(f"{names[0]} must be a number of seconds, not {time_limit!r}")
        if not 0 < time_limit < math.inf:
            raise ParseError(f"{names[0]} must be a positive number of seconds, not {time_limit}")
    if node_limit is not None:
        if isinstance(node_limit, bool) or not isinstance(node_limit, numbers.Integral):
            raise ParseError(f"{names[1]} must be a whole number of nodes, not {node_limit!r}")
        if not 1 <= node_limit <= MAX_NODE_LIMIT:
            raise ParseError(f"{names[1]} must be 1 to {MAX_NODE_LIMIT:.0e}, not {node_limit}")


def default_threads() -> int:
    """The search threads this machine can give one solve: its cores, at most 2."""
    if hasattr(os, "sched_getaffinity"):
        cores = len(os.sched_getaffinity(0))
    else:  # pragma: no cover - macOS, Windows
        cores = os.cpu_count() or 1
    return max(1, min(2, cores))


def _to_score(v: int, game: Game) -> Score:
    if game.kind == "ravage":
        q = Fraction(v, 12)
        return int(q) if q.denominator == 1 else float(q)
    return v


class Solver:
    """A reusable solver: its transposition table stays warm across calls.

    ``tt_bytes`` bounds the table (default 256 MiB); beside it the search keeps a
    refutation memory of a 32nd of that, at most 512 KiB, which orders moves only.

    ``threads`` (1 or 2; :func:`default_threads` gives what the machine has, at most
    2): with 2, a trick-contract solve that is still running after 100,000 nodes
    goes on in two threads sharing the table (a second refutation memory beside
    it), each with its own move order; the answer is the same exact value, and the
    node count is both threads' (it then varies from run to run).  A time limit
    alone is shared by both threads; solves under a node limit (repeatable), card
    values and Dominoes use one thread.  Use 1 where several solvers already run in
    parallel (batch workers).

    >>> s = Solver(tt_bytes=1 << 20)
    >>> s.solve("N:A... 2... 3... 4...", "no-tricks", declarer="N").scores
    (-2, 0, 0, 0)
    """

    def __init__(self, tt_bytes: int = DEFAULT_TT_BYTES, *, threads: int = 1) -> None:
        if isinstance(tt_bytes, bool) or not isinstance(tt_bytes, numbers.Integral):
            raise ParseError(f"the table size is a number of bytes, not {tt_bytes!r}")
        if not 0 <= tt_bytes <= MAX_TT_BYTES:
            raise ParseError(
                f"the table size must be 0 to {MAX_TT_BYTES >> 30} GiB, not {tt_bytes} bytes"
            )
        try:
            self._core: _core.Solver = _core.Solver(int(tt_bytes))
        except MemoryError:
            raise SolverError(f"out of memory for a {tt_bytes}-byte table") from None
        self.threads = threads

    @property
    def threads(self) -> int:
        """How many threads a solve may use (1 or 2); settable."""
        return int(self._core.threads)

    @threads.setter
    def threads(self, n: int) -> None:
        if n not in (1, 2):
            raise ParseError(f"threads must be 1 or 2, not {n}")
        self._core.threads = n

    @property
    def tt_bytes(self) -> int:
        """The memory of the transposition table."""
        return int(self._core.tt_bytes)

    @property
    def hint_bytes(self) -> int:
        """The memory of the refutation memory (the move order's, beside the table)."""
        return int(self._core.hint_bytes)

    def clear(self) -> None:
        """Forget every stored position."""
        self._core.clear()
        dom: _dominoes.DominoSolver | None = getattr(self, "_dom", None)
        if dom is not None:
            dom.clear()

    def _load_game(self, game: Game) -> None:
        helper = _helper_weights().get(game.contract.name)
        rid = (
            game.card_points,
            game.trick_points,
            game.trump,
            game.heart_lead,
            game.king_duty,
            game.trump_duties,
            game.kind,
            game.scoring.penalty,
            helper,
        )
        self._core.set_rules(
            list(game.card_points),
            list(game.trick_points),
            trump=-1 if game.trump is None else int(game.trump),
            heart_lead=game.heart_lead,
            king_duty=game.king_duty,
            trump_duties=game.trump_duties,
            ravage=game.kind == "ravage",
            ravage_penalty=game.scoring.penalty,
            rules_id=rid,
            helper_weights=helper,
        )

    def _position(
        self, deal: Deal | str, game: Game, declarer: Seat | int | str | None
    ) -> tuple[Deal, list[int], list[int], Seat]:
        d = as_deal(deal)
        d = d.complete()
        for s in Seat:
            if not d.is_known(s):
                raise InvalidPositionError(
                    f"the hand of {s.name} is unknown: the solver needs all four"
                )
        if d.trick:
            if d.leader is None:
                raise InvalidPositionError("a trick is in progress but its leader is not set")
            leader = d.leader
        elif declarer is not None:
            leader = leader_for(declarer, game.variants)
        elif d.leader is not None:
            leader = d.leader
        else:
            raise InvalidPositionError("no declarer given (and the position has no leader)")
        d.leader = leader
        d.validate(equal=True)
        if d.trick:
            for c in d.trick:
                if not 0 <= c < 64 or (c & 15) > 12:
                    raise InvalidPositionError(f"invalid card in the trick: {c!r}")
            self._check_trick_legal(d, game)
        return d, list(d.masks), list(d.trick), leader

    def _check_trick_legal(self, d: Deal, game: Game) -> None:
        # Replay the trick in progress on the core's rules: a card that could not have
        # been played (a revoke) makes the position impossible.
        leader = d.leader
        assert leader is not None
        hands = list(d.masks)
        for i in reversed(range(len(d.trick))):
            hands[(leader + i) & 3] |= 1 << d.trick[i]
        for i, c in enumerate(d.trick):
            legal = self._core.legal(hands, d.trick[:i], int(leader))
            if not legal >> c & 1:
                seat = Seat((leader + i) & 3)
                raise InvalidPositionError(
                    f"{seat.name} could not have played {card_name(c)} to the current trick"
                )
            hands[(leader + i) & 3] &= ~(1 << c)

    def solve(
        self,
        deal: Deal | str,
        contract: str | Game,
        *,
        trump: str | int | None = None,
        start: str | int | None = None,
        declarer: Seat | int | str | None = None,
        seats: str | Iterable[Seat | int | str] | None = None,
        side: str | Iterable[Seat | int | str] | None = None,
        rules: str = "classic",
        variants: Iterable[str] = (),
        scale: Scale | str | Path | None = None,
        won: Sequence[Sequence[int]] | None = None,
        time_limit: float | None = None,
        node_limit: int | None = None,
        bound: str | None = None,
        on_progress: Callable[[Seat | None, int, int], None] | None = None,
    ) -> Solution:
        """Solve a position; see :func:`solve`.

        ``won`` (Ravage City only): the cards of each suit (♠ ♥ ♦ ♣) each seat (N E
        S W) won in earlier tricks, 4 rows of 4 counts; by default none.
        """
        game = _game(contract, rules, variants, scale, trump, start)
        check_limits(time_limit, node_limit)
        if side is not None and seats is not None:
            raise ParseError("give seats or a side, not both")
        limited = time_limit is not None or node_limit is not None
        want = _BOUNDS.get(bound) if isinstance(bound, str | None) else None
        if want is None:
            raise ParseError(f"bound is 'lower' or 'upper' (or None: both), not {bound!r}")
        if want and not limited:
            raise ParseError(
                "bound goes with a time or node limit (without one the score is exact)"
            )
        if game.kind == "dominoes":
            sol = self._solve_dominoes(deal, game, declarer=declarer, seats=seats, side=side)
            if limited:  # Dominoes always finishes (milliseconds a seat): exact bounds
                eb = [None if v is None else (v, v) for v in sol.scores]
                sol = replace(sol, bounds=(eb[0], eb[1], eb[2], eb[3]))
            return sol
        self._load_game(game)
        d, hands, trick, leader = self._position(deal, game, declarer)
        w = _won_rows(won, d, game)
        t0 = time.perf_counter()
        nodes = 0
        scores: list[Score | None] = [None, None, None, None]
        bounds: list[Bounds | None] = [None, None, None, None]
        side_seats: tuple[Seat, ...] | None = None
        value: Score | None = None
        value_bounds: Bounds | None = None
        masks: list[int]
        if side is not None:
            side_seats = parse_side(side)
            masks = [sum(1 << s for s in side_seats)]
        else:
            wanted = tuple(Seat) if seats is None else parse_side(seats)
            masks = [1 << s for s in wanted]
        for k, mask in enumerate(masks):
            if on_progress is not None:
                on_progress(None if side_seats else Seat(mask.bit_length() - 1), k, len(masks))
            if limited:
                # each search gets an equal share of what is left of the limits
                share = len(masks) - k
                secs_left = 0.0
                if time_limit is not None:
                    secs_left = max(time_limit - (time.perf_counter() - t0), 1e-6) / share
                nodes_left = 0
                if node_limit is not None:
                    nodes_left = max((node_limit - nodes) // share, 1)
                lo, hi, n, _ = self._core.value_bounds(
                    hands,
                    trick,
                    int(leader),
                    mask,
                    w,
                    max_nodes=nodes_left,
                    seconds=secs_left,
                    want=want,
                )
            else:
                lo, n, _ = self._core.value(hands, trick, int(leader), mask, w)
                hi = lo
            nodes += n
            b = (_to_score(lo, game), _to_score(hi, game))
            v = b[0] if lo == hi else None
            if side_seats is not None:
                value, value_bounds = v, b
            else:
                seat = mask.bit_length() - 1
                scores[seat], bounds[seat] = v, b
        secs = time.perf_counter() - t0
        if on_progress is not None:
            on_progress(None, len(masks), len(masks))
        return Solution(
            game,
            d.to_pbn(),
            leader,
            (scores[0], scores[1], scores[2], scores[3]),
            side_seats,
            value,
            nodes,
            secs,
            (bounds[0], bounds[1], bounds[2], bounds[3]) if limited and side is None else None,
            value_bounds if limited else None,
        )

    # -- Dominoes and Réussite (issue 4) ------------------------------------------
    def _domino_core(self) -> _dominoes.DominoSolver:
        """The Dominoes search (its own table, made on first use)."""
        core: _dominoes.DominoSolver | None = getattr(self, "_dom", None)
        if core is None:
            size = min(DEFAULT_DOMINO_TT_BYTES, max(self.tt_bytes, 1 << 20))
            try:
                core = _dominoes.DominoSolver(size)
            except MemoryError:
                raise SolverError(f"out of memory for a {size}-byte table") from None
            self._dom = core
        return core

    def _solve_dominoes(
        self,
        deal: Deal | str,
        game: Game,
        *,
        declarer: Seat | int | str | None,
        seats: str | Iterable[Seat | int | str] | None,
        side: str | Iterable[Seat | int | str] | None,
    ) -> Solution:
        if side is not None:
            raise ParseError(
                f"{game.contract.name}: no side solving in dominoes "
                "(each seat plays for its own place)"
            )
        wanted = None if seats is None else parse_side(seats)
        r = solve_dominoes(self._domino_core(), deal, game, declarer=declarer, seats=wanted)
        return Solution(game, r.deal, r.mover, r.scores, None, None, r.nodes, r.seconds)

    def best_start(
        self,
        deal: Deal | str,
        declarer: Seat | int | str | None = None,
        *,
        rules: str = "classic",
        variants: Iterable[str] = (),
        scale: Scale | str | Path | None = None,
        exact_all: bool = True,
    ) -> StartChoice:
        """The declarer's best starting rank in Dominoes; see :func:`best_start`."""
        vs = tuple(variants)
        game = make_game("dominoes", rules=rules, variants=vs, scale=scale, start="2")
        d, hands = domino_hands(deal)
        if declarer is None:
            if d.leader is None:
                raise InvalidPositionError("no declarer given: the seat to move is not known")
            declarer = d.leader
        decl = to_seat(declarer)
        starts = possible_starts(hands, game.low_aces)
        if not starts:
            try:
                check_layout(hands, game)  # raises, naming a broken suit
            except InvalidPositionError as e:
                raise InvalidPositionError(f"no starting rank fits this ending: {e}") from None
        if not hands[decl]:
            raise InvalidPositionError(f"the declarer, {decl.name}, has no cards (already out)")
        t0 = time.perf_counter()
        nodes = 0
        by_rank: dict[Rank, int] = {}
        # The table is kept across the ranks: positions with every suit started are
        # the same whatever the start.  Without exact_all, a rank after the first is
        # only asked whether it beats the best so far (a cheaper search: usually it
        # cannot), and solved exactly only if it does.
        ceiling = max(game.places)
        top: int | None = None
        first: Rank | None = None
        for r in starts:
            g = replace(game, start=r)
            floor = None if exact_all or top is None else top + 1
            res = solve_dominoes(
                self._domino_core(), d, g, declarer=decl, seats=(decl,), floor=floor
            )
            nodes += res.nodes
            v = res.scores[decl]
            assert v is not None
            if floor is None or v >= floor:
                by_rank[r] = v
            if top is None or v > top:
                top, first = v, r
                if not exact_all and top >= ceiling:
                    break
        assert top is not None and first is not None
        if exact_all:
            best = tuple(r for r in starts if by_rank[r] == top)
        else:
            best = (first,)
        g = replace(game, start=first)
        others = tuple(s for s in Seat if s != decl)
        res = solve_dominoes(self._domino_core(), d, g, declarer=decl, seats=others)
        scores = list(res.scores)
        scores[decl] = top  # known already
        nodes += res.nodes
        secs = time.perf_counter() - t0
        sol = Solution(
            g,
            res.deal,
            res.mover,
            (scores[0], scores[1], scores[2], scores[3]),
            None,
            None,
            nodes,
            secs,
        )
        return StartChoice(decl, first, top, best, by_rank, sol, nodes, secs, exact_all)

    # -------------------------------------------------------------------------------
    def card_values(
        self,
        deal: Deal | str,
        contract: str | Game,
        *,
        seat: Seat | int | str | None = None,
        side: str | Iterable[Seat | int | str] | None = None,
        trump: str | int | None = None,
        start: str | int | None = None,
        declarer: Seat | int | str | None = None,
        rules: str = "classic",
        variants: Iterable[str] = (),
        scale: Scale | str | Path | None = None,
        won: Sequence[Sequence[int]] | None = None,
        time_limit: float | None = None,
        node_limit: int | None = None,
    ) -> list[CardValue]:
        """The value of every legal card of the seat to move; see :func:`card_values`
        (``won``: as for :meth:`solve`)."""
        game = _game(contract, rules, variants, scale, trump, start)
        check_limits(time_limit, node_limit)
        limited = time_limit is not None or node_limit is not None
        self._load_game(game)
        d, hands, trick, leader = self._position(deal, game, declarer)
        w = _won_rows(won, d, game)
        mover = Seat((leader + len(trick)) & 3)
        if side is not None:
            view = parse_side(side)
        elif seat is not None:
            view = (to_seat(seat),)
        else:
            view = (mover,)
        mask = sum(1 << s for s in view)
        out: list[CardValue] = []
        for group in self._core.groups(hands, trick, int(leader)):
            c = group[0]
            lo, hi = self._value_after(d, game, c, mask, w, time_limit, node_limit)
            b = (_to_score(lo, game), _to_score(hi, game))
            value = b[0] if lo == hi else None
            out.append(CardValue(c, tuple(group[1:]), value, b if limited else None))
        return out

    def _groups(self, deal: Deal, game: Game) -> list[tuple[Card, ...]]:
        """The legal cards of the seat to move in groups of equal cards (equal under the
        contract's scoring: one value each, as :meth:`card_values` gives them)."""
        self._load_game(game)
        _, hands, trick, leader = self._position(deal, game, None)
        return [tuple(g) for g in self._core.groups(hands, trick, int(leader))]

    def _value_after(
        self,
        d: Deal,
        game: Game,
        card: Card,
        mask: int,
        won: list[list[int]] | None = None,
        time_limit: float | None = None,
        node_limit: int | None = None,
    ) -> tuple[int, int]:
        """The interval of the side's value after ``card`` (one value without a limit),
        the points of a trick it completes included."""
        assert d.leader is not None
        lo, hi, _ = self._core.value_after(
            list(d.masks),
            list(d.trick),
            int(d.leader),
            mask,
            card,
            won,
            seconds=time_limit or 0.0,
            max_nodes=node_limit or 0,
        )
        return int(lo), int(hi)


@functools.cache
def _helper_weights() -> dict[str, tuple[float, ...]]:
    """The second search thread's order for the others against a lone seat, by
    contract (``data/helper_order.json``, made by ``benchmarks/helper_order.py``)."""
    text = resources.files("barbu_dd").joinpath("data/helper_order.json").read_text()
    return {k: tuple(w) for k, w in json.loads(text)["weights"].items()}


_default: Solver | None = None


def _solver() -> Solver:
    global _default
    if _default is None:
        _default = Solver()
    return _default


def solve(
    deal: Deal | str,
    contract: str | Game,
    *,
    trump: str | int | None = None,
    start: str | int | None = None,
    declarer: Seat | int | str | None = None,
    seats: str | Iterable[Seat | int | str] | None = None,
    side: str | Iterable[Seat | int | str] | None = None,
    rules: str = "classic",
    variants: Iterable[str] = (),
    scale: Scale | str | Path | None = None,
    won: Sequence[Sequence[int]] | None = None,
    time_limit: float | None = None,
    node_limit: int | None = None,
    bound: str | None = None,
    on_progress: Callable[[Seat | None, int, int], None] | None = None,
) -> Solution:
    """The optimal score of each seat (SPEC §5), or with ``side`` the side's value.

    ``deal`` is a :class:`Deal` or a PBN deal string (a full deal or an ending; a
    trick may be in progress, with ``deal.leader`` set).  Without a trick in
    progress the declarer leads (``declarer`` gives it; with the *dealer declares*
    variant the declarer's left leads).  ``seats`` limits the seats solved.
    ``won`` (Ravage City only) gives the cards of each suit (♠ ♥ ♦ ♣) each seat
    (N E S W) won in earlier tricks, 4 rows of 4 counts (default: none).

    ``time_limit`` (seconds) and ``node_limit`` (search nodes) stop the search of a
    trick contract early; they hold for the whole call, each seat's search getting
    an equal share of what the seats before it left.  The solution then has
    ``bounds`` (``value_bounds`` for a side): the interval each score is proved to
    lie in; the score of a seat whose search did not finish is ``None``.  Under a limit the
    search narrows the interval from both ends (probes far from the value are
    cheap), so it gives useful bounds early but takes longer to finish than without
    one; ``bound="lower"`` (``"upper"``) spends the limit on raising the lower
    bound (lowering the upper) alone, for a caller who needs only that one: every
    probe is just above the lower bound (at the upper bound).  Dominoes and the
    Réussite always finish (milliseconds a seat).

    ``on_progress(seat, done, total)`` (trick contracts) is called before each
    seat's search (``seat`` the seat searched next, ``None`` for a side) with the
    searches done so far, and once more at the end (``seat`` ``None``, ``done`` equal
    to ``total``), so that a caller can show how far a long solve has got.

    :raises ParseError: for an unknown contract, rule set, variant, seat or trump.
    :raises InvalidPositionError: for an impossible position.
    :raises SolverError: if the core fails.

    >>> solve("N:A.2.. K.3.. Q.4.. J.5..", "tricks", rules="bridge", side="NS", declarer="N").value
    1
    """
    return _solver().solve(
        deal,
        contract,
        trump=trump,
        start=start,
        declarer=declarer,
        seats=seats,
        side=side,
        rules=rules,
        variants=variants,
        scale=scale,
        won=won,
        time_limit=time_limit,
        node_limit=node_limit,
        bound=bound,
        on_progress=on_progress,
    )


def card_values(
    deal: Deal | str,
    contract: str | Game,
    *,
    seat: Seat | int | str | None = None,
    side: str | Iterable[Seat | int | str] | None = None,
    trump: str | int | None = None,
    start: str | int | None = None,
    declarer: Seat | int | str | None = None,
    rules: str = "classic",
    variants: Iterable[str] = (),
    scale: Scale | str | Path | None = None,
    won: Sequence[Sequence[int]] | None = None,
    time_limit: float | None = None,
    node_limit: int | None = None,
) -> list[CardValue]:
    """The value of every legal card of the seat to move (equal cards grouped, as DDS).

    A card's value is the score the viewing seat (the mover by default, or
    ``seat``/``side``) can guarantee after that card is played (``won``: as for
    :func:`solve`).  ``time_limit`` (seconds) and ``node_limit`` bound each card's
    search: a value not finished is ``None``, with the interval proved for it in
    ``bounds`` (see :class:`CardValue`).

    :raises ParseError: for bad names.
    :raises InvalidPositionError: for an impossible position.

    >>> vals = card_values("N:AK... Q2... J3... 54...", "no-queens", declarer="N")
    >>> [(v.name, v.value) for v in vals]
    [('SA', -6)]
    """
    return _solver().card_values(
        deal,
        contract,
        seat=seat,
        side=side,
        trump=trump,
        start=start,
        declarer=declarer,
        rules=rules,
        variants=variants,
        scale=scale,
        won=won,
        time_limit=time_limit,
        node_limit=node_limit,
    )


def best_start(
    deal: Deal | str,
    declarer: Seat | int | str | None = None,
    *,
    rules: str = "classic",
    variants: Iterable[str] = (),
    scale: Scale | str | Path | None = None,
    exact_all: bool = True,
) -> StartChoice:
    """The declarer's best starting rank in Dominoes: every rank tried, the declarer's
    guaranteed points with each, and all four seats solved with the best one.

    The declarer starts (also with *dealer declares*: the dealer declares and starts).
    Ties go to the lowest rank (2..A order); ``best`` lists them all.  With
    ``exact_all=False`` only the best start is searched for (each later rank is only
    asked whether it beats the best so far): the same ``start``, ``score`` and
    ``solution``, faster, but ``scores`` holds only the ranks solved exactly and
    ``best`` only ``start`` (see :class:`StartChoice`).

    :raises ParseError: for an unknown seat, variant or rule set.
    :raises InvalidPositionError: for an impossible position, or a declarer with no cards.

    >>> c = best_start("N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432", "N")
    >>> c.score, len(c.scores)
    (45, 13)
    """
    return _solver().best_start(
        deal, declarer, rules=rules, variants=variants, scale=scale, exact_all=exact_all
    )
