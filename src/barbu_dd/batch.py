"""Many deals at once: random deals, contract lists, and solving on all cores or a Dask cluster.

:func:`solve_many` solves a list of deals for a list of contracts and returns one
array of shape ``(boards, contracts, 4 seats)``; :func:`iter_solve` is its
streaming form (one :class:`BoardResult` per deal, in input order or as they
finish); :func:`solve_files` streams the boards of PBN files (the ``barbu-dd
batch`` command).  The deals go to a pool of worker processes (by default one per
core), to a Dask distributed cluster (``scheduler=``), or with ``workers=1`` are
solved in this process.  Each worker keeps one :class:`~barbu_dd.solver.Solver`,
whose transposition table stays warm from deal to deal.  At most a few tasks per
worker are in flight at any time, so a file of a million boards is never held in
memory.

>>> import numpy as np
>>> a = solve_many(["N:A... 2... 3... 4...", "N:2... A... 3... 4..."],
...                ["no-tricks", "trumps:S"], declarer="N", workers=1)
>>> a.shape
(2, 2, 4)
>>> a[1].tolist()
[[0.0, -2.0, 0.0, 0.0], [0.0, 5.0, 0.0, 0.0]]

Contracts are written ``NAME`` or ``NAME:ARG`` (:func:`parse_contract`): the
argument of ``trumps`` (and of the bridge ``tricks``) is the trump suit
(``trumps:H``, ``tricks:NT``), that of ``dominoes`` the starting rank or ``best``
(``dominoes:9``, ``dominoes:best``: the declarer's best rank, all tried).  The
*table* of a rule set (:func:`table_contracts`) is every contract of it: Trumps
once per suit and Dominoes from the declarer's best rank.

A *time limit* (``time_limit``: seconds a board) bounds a batch whose boards
include the slow ones (a negative contract on a full deal: seconds to minutes, and
a rare deal an hour).  Dominoes and the Réussite always finish (and count against
the board's time); the board's other contracts go positive ones first, each with an
equal share of the board's time left.  A score not finished is ``None`` and
:attr:`BoardResult.bounds` holds the interval its search proved.  What finishes
depends on the machine's speed and load.
"""

from __future__ import annotations

import concurrent.futures as cf
import multiprocessing
import os
import random
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

import numpy as np

from . import errors as errors_module
from .cards import ALL_CARDS, RANK_CHARS, SEATS, SUIT_CHARS, Seat, to_seat
from .contracts import (
    Game,
    Scale,
    contracts_of,
    find_contract,
    load_scale,
    make_game,
    normalize_name,
    parse_variants,
)
from .deal import Deal, as_deal
from .dominoes import domino_hands, possible_starts
from .errors import BarbuError, ParseError, SolverError
from .pbn import BadBoard, Board, make_board, no_board_error, read_pbn
from .solver import MAX_TT_BYTES, Bounds, Score, Solver, check_limits

__all__ = [
    "DEFAULT_BATCH_TT_BYTES",
    "ContractSpec",
    "BatchJob",
    "BoardResult",
    "parse_contract",
    "table_contracts",
    "make_job",
    "random_boards",
    "default_workers",
    "iter_solve",
    "solve_many",
    "solve_files",
    "count_boards",
    "check_files",
    "check_workers",
    "quick_first",
    "share_of",
]

#: The transposition table of each worker (the Dominoes table is at most 64 MiB more).
DEFAULT_BATCH_TT_BYTES = 64 * 1024 * 1024
#: Automatic chunks: boards a task so that a task is about this much search ...
TASK_SECONDS = 0.05
#: ... and never more than this many boards.
MAX_CHUNK = 256

Scores4 = tuple[Score | None, Score | None, Score | None, Score | None]
Bounds4 = tuple[Bounds | None, Bounds | None, Bounds | None, Bounds | None]


# -- contract specs -------------------------------------------------------------------


@dataclass(frozen=True)
class ContractSpec:
    """One contract of a batch: its canonical name, trump suit and Dominoes start.

    ``trump`` is ``'S'``, ``'H'``, ``'D'``, ``'C'``, or ``'NT'`` (bridge only);
    ``start`` a rank character ``'2'`` … ``'A'``, or ``'best'``.

    >>> ContractSpec("trumps", trump="H").label
    'trumps:H'
    """

    contract: str
    trump: str | None = None
    start: str | None = None

    @property
    def label(self) -> str:
        """``'barbu'``, ``'trumps:H'``, ``'dominoes:best'``: how records name the contract."""
        arg = self.trump if self.trump is not None else self.start
        if arg is None or self.contract == "reussite":
            return self.contract
        return f"{self.contract}:{arg}"

    def __str__(self) -> str:
        return self.label


def parse_contract(
    text: str | ContractSpec,
    rules: str = "classic",
    *,
    trump: str | None = None,
    start: str | None = None,
) -> ContractSpec:
    """A contract spec from ``NAME`` or ``NAME:ARG`` (see the module doc).

    ``trump`` and ``start`` are the defaults of a spec that has no argument
    (``--trump``/``--start``); Dominoes without a start starts from the Jacks.

    :raises ParseError: for an unknown contract or suit or rank, a contract not in
        the rule set, Trumps without a suit, or an argument the contract does not take.

    >>> [parse_contract(t, start="best").label for t in ("Trumps:h", "domino", "kh", "dominoes:9")]
    ['trumps:H', 'dominoes:best', 'barbu', 'dominoes:9']
    """
    if isinstance(text, ContractSpec):
        name, arg = text.contract, text.trump if text.trump is not None else text.start
    else:
        name, _, arg_text = text.partition(":")
        arg = arg_text.strip() or None
    c = find_contract(name, rules)
    if c.name in ("trumps", "tricks"):
        t = arg if arg is not None else trump
        if t is None:
            if c.name == "tricks":
                return ContractSpec(c.name, trump="NT")
            raise ParseError(f"contract {c.name!r} needs a trump suit: {c.name}:S|H|D|C")
        g = make_game(c, rules=rules, trump=t)
        return ContractSpec(c.name, trump="NT" if g.trump is None else SUIT_CHARS[g.trump])
    if c.kind == "dominoes" and c.name != "reussite":
        s = arg if arg is not None else start
        if s is not None and normalize_name(s) == "best":
            return ContractSpec(c.name, start="best")
        g = make_game(c, rules=rules, start=s)
        assert g.start is not None
        return ContractSpec(c.name, start=RANK_CHARS[g.start])
    if arg is not None:
        if c.name == "reussite":
            make_game(c, rules=rules, start=arg)  # only the Jacks pass
            return ContractSpec(c.name, start="J")
        raise ParseError(f"contract {c.name!r} takes no argument, got {text!r}")
    return ContractSpec(c.name, start="J" if c.name == "reussite" else None)


def table_contracts(
    rules: str = "classic", variants: Iterable[str] = ()
) -> tuple[ContractSpec, ...]:
    """Every contract of a rule set (``--table``): Trumps once per suit (S, H, D, C),
    Dominoes from the declarer's best starting rank, the bridge ``tricks`` in NT and
    each suit.

    >>> print(*(s.label for s in table_contracts()), sep=",")
    no-tricks,no-hearts,no-queens,barbu,no-last-two,trumps:S,trumps:H,trumps:D,trumps:C,dominoes:best
    >>> [s.label for s in table_contracts("french")][-2:]
    ['salad', 'reussite']
    """
    out: list[ContractSpec] = []
    for c in contracts_of(rules, variants):
        if c.name == "trumps":
            out.extend(ContractSpec(c.name, trump=s) for s in SUIT_CHARS)
        elif c.name == "tricks":
            out.extend(ContractSpec(c.name, trump=s) for s in ("NT", *SUIT_CHARS))
        elif c.name == "dominoes":
            out.append(ContractSpec(c.name, start="best"))
        elif c.name == "reussite":
            out.append(ContractSpec(c.name, start="J"))
        else:
            out.append(ContractSpec(c.name))
    return tuple(out)


# -- the job: what every worker needs to know ---------------------------------------


@dataclass(frozen=True)
class BatchJob:
    """What every worker needs (picklable): the contracts resolved in their rule set,
    variants and scale, the declarer override and the table size.

    ``games[i]`` is the resolved :class:`~barbu_dd.contracts.Game` of ``specs[i]``,
    ``None`` for ``dominoes:best`` (solved with :meth:`Solver.best_start`).
    ``time_limit``: seconds for each board's searches (``None``: none; see the
    module doc).
    """

    specs: tuple[ContractSpec, ...]
    games: tuple[Game | None, ...]
    rules: str = "classic"
    variants: tuple[str, ...] = ()
    scale: Scale | None = None
    declarer: Seat | None = None
    tt_bytes: int = DEFAULT_BATCH_TT_BYTES
    time_limit: float | None = None

    @property
    def labels(self) -> tuple[str, ...]:
        """The contracts' labels, in order."""
        return tuple(s.label for s in self.specs)

    def declarer_of(self, board: Board) -> Seat:
        """A board's declarer: the override, else from its Dealer tag.

        :raises ParseError: if the board has no Dealer and no override is given.
        """
        return board.declarer(self.variants, self.declarer)


def make_job(
    contracts: str | ContractSpec | Sequence[str | ContractSpec] | None = None,
    *,
    table: bool = False,
    rules: str = "classic",
    variants: Iterable[str] = (),
    scale: Scale | str | Path | None = None,
    trump: str | None = None,
    start: str | None = None,
    declarer: Seat | int | str | None = None,
    tt_bytes: int = DEFAULT_BATCH_TT_BYTES,
    time_limit: float | None = None,
) -> BatchJob:
    """Resolve the contracts of a batch (or with ``table`` every contract of the rule set).

    :raises ParseError: for a bad contract, variant, rule set, seat or scale file; no
        contract at all; a contract given twice; a ``trump``/``start`` no contract
        takes; or a time limit that is not a positive number of seconds.

    >>> make_job(["barbu", "trumps"], trump="S").labels
    ('barbu', 'trumps:S')
    """
    check_limits(time_limit)
    vs = tuple(sorted(parse_variants(variants)))
    sc = load_scale(scale) if isinstance(scale, (str, Path)) else scale
    given: list[str | ContractSpec]
    if contracts is None:
        given = []
    elif isinstance(contracts, (str, ContractSpec)):
        given = [contracts]
    else:
        given = list(contracts)
    specs = list(table_contracts(rules, vs)) if table else []
    specs += [parse_contract(c, rules, trump=trump, start=start) for c in given]
    if not specs:
        raise ParseError("no contract given (give one or more, or the whole table)")
    if not 0 <= tt_bytes <= MAX_TT_BYTES:
        raise ParseError(f"a worker's table must be 0 to {MAX_TT_BYTES >> 30} GiB")
    labels = [s.label for s in specs]
    dup = sorted({x for x in labels if labels.count(x) > 1})
    if dup:
        in_table = {s.label for s in specs[: len(specs) - len(given)]}
        if in_table.issuperset(dup):
            raise ParseError(f"{', '.join(dup)}: already in the whole table (--table)")
        raise ParseError(f"contract given twice: {', '.join(dup)}")
    # the contracts named without their own suit or rank: --trump / --start serve them
    bare = [
        s
        for c, s in zip(given, specs[len(specs) - len(given) :], strict=True)
        if isinstance(c, str) and not c.partition(":")[2].strip()
    ]
    for opt, value, takes, what in (
        ("trump", trump, ("trumps", "tricks"), "suit"),
        ("start", start, ("dominoes",), "starting rank"),
    ):
        if value is not None and not any(s.contract in takes for s in bare):
            raise ParseError(
                f"--{opt} {value!r} is for {' or '.join(takes)} named without a {what}"
                f" (as -c {takes[0]}), and no such contract is given"
            )
    games = tuple(
        None
        if s.start == "best"
        else make_game(
            s.contract,
            rules=rules,
            variants=vs,
            scale=sc,
            trump=None if s.trump == "NT" else s.trump,
            start=s.start,
        )
        for s in specs
    )
    decl = None if declarer is None else to_seat(declarer)
    return BatchJob(tuple(specs), games, normalize_name(rules), vs, sc, decl, tt_bytes, time_limit)


# -- results --------------------------------------------------------------------------


@dataclass(frozen=True)
class BoardResult:
    """The answers for one board: each contract's four scores (``None``: no score).

    ``position`` is the board's place in the input (0-based); for boards read from a
    file, ``file`` and ``index`` (1-based, bad boards counted) say where, and
    ``tags`` are its PBN tags.  A board that could not be solved has ``error`` set
    (its full message, file and board included), ``error_kind`` the name of its
    :class:`~barbu_dd.errors.BarbuError` class, and no scores.  Under a time limit
    ``bounds`` holds each contract's four proved intervals (``(v, v)`` for a score
    ``v`` finished; ``None`` for no score), and a score not finished is ``None``.
    """

    position: int
    scores: tuple[Scores4, ...] = ()
    starts: tuple[str | None, ...] = ()
    nodes: tuple[int, ...] = ()
    seconds: tuple[float, ...] = ()
    declarer: Seat | None = None
    error: str | None = None
    error_kind: str | None = None
    file: str | None = None
    index: int | None = None
    tags: dict[str, str] = field(default_factory=dict)
    bounds: tuple[Bounds4, ...] = ()

    @property
    def ok(self) -> bool:
        """Solved (no error)."""
        return self.error is None

    @property
    def exact(self) -> bool:
        """Every score finished (always, without a time limit)."""
        return all(b is None or b[0] == b[1] for row in self.bounds for b in row)

    def array(self, n_contracts: int | None = None) -> np.ndarray:
        """The scores as a float array of shape ``(contracts, 4)``, NaN for no score
        (and all NaN for a board with an error: give ``n_contracts`` then)."""
        n = len(self.scores) if n_contracts is None else n_contracts
        a = np.full((n, 4), np.nan)
        for i, row in enumerate(self.scores):
            for s, v in enumerate(row):
                if v is not None:
                    a[i, s] = v
        return a


# -- solving one board (in a worker or in this process) --------------------------------

#: One board as sent to a worker: (position, deal, declarer).
_Payload = tuple[int, Deal, int | None]
#: What comes back: (position, scores, starts, nodes, seconds, bounds (under a time
#: limit, else empty), (error class, message)).
_Outcome = tuple[
    int,
    tuple[Scores4, ...],
    tuple[str | None, ...],
    tuple[int, ...],
    tuple[float, ...],
    tuple[Bounds4, ...],
    tuple[str, str] | None,
]
_NONE4: Scores4 = (None, None, None, None)


def quick_first(games: Sequence[Game | None]) -> list[int]:
    """The order a time-limited board's contracts are solved in (indices of
    ``games``): Dominoes and the Réussite (``None``: best start; never limited), then
    the positive trick contracts (quick), then the others.

    >>> quick_first([make_game("no-tricks"), make_game("trumps", trump="S"), None])
    [2, 1, 0]
    """

    def rank(i: int) -> int:
        g = games[i]
        if g is None or g.kind == "dominoes":
            return 0
        return 1 if g.contract.positive else 2

    return sorted(range(len(games)), key=rank)


def share_of(end: float | None, left: int) -> float | None:
    """The time limit of the next of ``left`` searches that share what is left
    until ``end`` (a :func:`time.monotonic` time; ``None``: no limit) equally."""
    if end is None:
        return None
    return max(end - time.monotonic(), 1e-3) / left


def _layout_fits(deal: Deal, game: Game | None, job: BatchJob) -> bool:
    """Whether a Dominoes or Réussite ending's table is a layout for ``game``'s
    starting rank (``None``, ``dominoes:best``: for some rank); a full deal always is."""
    low_aces = "low-aces" in job.variants if game is None else game.low_aces
    starts = possible_starts([deal.mask(x) for x in Seat], low_aces)
    return bool(starts) if game is None else game.start in starts


def _solve_board(
    solver: Solver, job: BatchJob, position: int, deal: Deal, decl: int | None
) -> _Outcome:
    n_specs = len(job.specs)
    scores: list[Scores4] = [_NONE4] * n_specs
    bounds: list[Bounds4] = [(None, None, None, None)] * n_specs
    starts: list[str | None] = [None] * n_specs
    nodes: list[int] = [0] * n_specs
    secs: list[float] = [0.0] * n_specs
    end = None if job.time_limit is None else time.monotonic() + job.time_limit
    order = quick_first(job.games)
    for k, i in enumerate(order):
        spec, game = job.specs[i], job.games[i]
        try:
            if game is None or game.kind == "dominoes":
                # an unknown hand is a bad board, as in `solve` (domino_hands says so;
                # the one unknown hand of a full deal it fills in)
                full, _ = domino_hands(deal)
                if not _layout_fits(full, game, job):
                    # an ending whose table is no Dominoes layout for this start (for
                    # dominoes:best, for any start): no scores, the other contracts count
                    continue
            if game is None:
                ch = solver.best_start(
                    deal, decl, rules=job.rules, variants=job.variants, scale=job.scale
                )
                sol, n, s = ch.solution, ch.nodes, ch.seconds
                starts[i] = RANK_CHARS[ch.start]
            else:
                limit = share_of(end, n_specs - k) if game.kind != "dominoes" else None
                sol = solver.solve(deal, game, declarer=decl, time_limit=limit)
                starts[i], n, s = spec.start, sol.nodes, sol.seconds
        except BarbuError as e:
            return position, (), (), (), (), (), (type(e).__name__, f"{spec.label}: {e}")
        scores[i], nodes[i], secs[i] = sol.scores, n, s
        if sol.bounds is not None:
            bounds[i] = sol.bounds
        else:
            b = [None if v is None else (v, v) for v in sol.scores]
            bounds[i] = (b[0], b[1], b[2], b[3])
    return (
        position,
        tuple(scores),
        tuple(starts),
        tuple(nodes),
        tuple(secs),
        tuple(bounds) if end is not None else (),
        None,
    )


_local = threading.local()


def _worker_solver(tt_bytes: int) -> Solver:
    """This thread's solver (one per worker thread, made on first use, kept warm)."""
    made: tuple[int, Solver] | None = getattr(_local, "solver", None)
    if made is None or made[0] != tt_bytes:
        made = (tt_bytes, Solver(tt_bytes=tt_bytes))
        _local.solver = made
    return made[1]


def solve_chunk(job: BatchJob, chunk: Sequence[_Payload]) -> list[_Outcome]:
    """Solve a few boards with this thread's solver (the task a worker runs)."""
    solver = _worker_solver(job.tt_bytes)
    return [_solve_board(solver, job, p, d, decl) for p, d, decl in chunk]


# -- where the work runs --------------------------------------------------------------


class _Backend(Protocol):
    slots: int
    #: ``submit`` solves the chunk before it returns (so each result is written before
    #: the next chunk starts: a kill loses no finished board).
    synchronous: bool

    def submit(self, chunk: list[_Payload]) -> Any: ...

    def wait_any(self, futures: Iterable[Any]) -> set[Any]: ...

    def close(self, abort: bool) -> None: ...


class _LoopBackend:
    """Solve in this process, one task at a time (``workers=1``)."""

    slots = 1
    synchronous = True

    def __init__(self, job: BatchJob) -> None:
        self.job = job
        self.solver = Solver(tt_bytes=job.tt_bytes)

    def submit(self, chunk: list[_Payload]) -> cf.Future[list[_Outcome]]:
        f: cf.Future[list[_Outcome]] = cf.Future()
        f.set_result([_solve_board(self.solver, self.job, p, d, decl) for p, d, decl in chunk])
        return f

    def wait_any(self, futures: Iterable[Any]) -> set[Any]:
        return set(futures)

    def close(self, abort: bool) -> None:
        pass


_JOB: BatchJob | None = None


def _worker_startup(parent: int) -> None:
    """Pool worker start-up: leave Ctrl-C to the parent (which stops the workers), and
    exit if the parent process dies (kill -9).  Also used by :mod:`barbu_dd.advise`."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="barbu-dd-parent-watch").start()


def _stop_pool(pool: cf.ProcessPoolExecutor, abort: bool) -> None:
    """Shut a process pool down; with ``abort`` at once, its workers terminated (a
    search can run for minutes and ``shutdown()`` would wait for it)."""
    if abort:
        procs = list(getattr(pool, "_processes", {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for p in procs:
            p.terminate()
    else:
        pool.shutdown(wait=True)


def _start_worker(parent: int, init: Callable[..., None] | None, args: tuple[Any, ...]) -> None:
    _worker_startup(parent)
    if init is not None:
        init(*args)


def _spawn_pool(
    workers: int, init: Callable[..., None] | None = None, args: tuple[Any, ...] = ()
) -> cf.ProcessPoolExecutor:
    """A pool of ``workers`` spawned processes (see :func:`_worker_startup`), each
    running ``init(*args)`` first (a module-level function).  Used by the batch, by
    :mod:`barbu_dd.advise` and by :func:`barbu_dd.analyze.table`."""
    return cf.ProcessPoolExecutor(
        workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_start_worker,
        initargs=(os.getpid(), init, args),
    )


def _keep_job(job: BatchJob) -> None:
    """Pool worker start-up: keep the job."""
    global _JOB
    _JOB = job


def _pool_task(chunk: list[_Payload]) -> list[_Outcome]:
    assert _JOB is not None
    return solve_chunk(_JOB, chunk)


class _PoolBackend:
    """A pool of worker processes (spawned: nothing of the parent's threads is forked)."""

    synchronous = False

    def __init__(self, job: BatchJob, workers: int) -> None:
        self.slots = workers
        self.pool = _spawn_pool(workers, _keep_job, (job,))

    def submit(self, chunk: list[_Payload]) -> cf.Future[list[_Outcome]]:
        return self.pool.submit(_pool_task, chunk)

    def wait_any(self, futures: Iterable[Any]) -> set[Any]:
        return set(cf.wait(list(futures), return_when=cf.FIRST_COMPLETED).done)

    def close(self, abort: bool) -> None:
        _stop_pool(self.pool, abort)


class _DaskBackend:
    """A Dask distributed cluster: a scheduler address, ``'local'``, or a ``Client``."""

    synchronous = False

    def __init__(self, job: BatchJob, scheduler: Any, workers: int | None) -> None:
        try:
            import distributed
        except ImportError:
            raise SolverError(
                "Dask is not installed: pip install 'barbu-dd[cluster]' (dask[distributed])"
            ) from None
        self._distributed = distributed
        self.cluster: Any = None
        self.own_client = not isinstance(scheduler, distributed.Client)
        if not self.own_client:
            self.client = scheduler
        elif scheduler == "local":
            self.cluster = distributed.LocalCluster(  # type: ignore[no-untyped-call]
                n_workers=workers or default_workers(),
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
            )
            self.client = distributed.Client(self.cluster)  # type: ignore[no-untyped-call]
        else:
            try:
                self.client = distributed.Client(  # type: ignore[no-untyped-call]
                    str(scheduler), timeout="20s"
                )
            except (OSError, TimeoutError) as e:
                raise SolverError(f"cannot reach the Dask scheduler {scheduler!r}: {e}") from None
            except ValueError as e:  # a malformed address
                raise ParseError(
                    f"invalid Dask scheduler address {scheduler!r} ({e}): give tcp://HOST:PORT"
                ) from None
            except Exception as e:  # something that is no Dask scheduler answered
                why = str(e).splitlines()[0] if str(e) else type(e).__name__
                raise SolverError(f"cannot use {scheduler!r} as a Dask scheduler: {why}") from None
        self.slots = max(1, sum(self.client.nthreads().values()))
        self.job = self.client.scatter(job, broadcast=True, hash=False)

    def submit(self, chunk: list[_Payload]) -> Any:
        return self.client.submit(solve_chunk, self.job, chunk, pure=False)

    def wait_any(self, futures: Iterable[Any]) -> set[Any]:
        done = self._distributed.wait(  # type: ignore[no-untyped-call]
            list(futures), return_when="FIRST_COMPLETED"
        ).done
        return set(done)

    def close(self, abort: bool) -> None:
        self.job = None
        if self.own_client:
            self.client.close()
            if self.cluster is not None:
                self.cluster.close()


def default_workers() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def check_workers(workers: int) -> int:
    """``workers`` if it is 1 to 4 times this machine's cores (more only thrash).

    :raises ParseError: otherwise.
    """
    most = 4 * default_workers()
    if not 1 <= workers <= most:
        raise ParseError(f"workers must be 1 to {most} (4 a core on this machine), got {workers}")
    return workers


def _backend(job: BatchJob, workers: int | None, scheduler: Any) -> _Backend:
    if isinstance(scheduler, str) and scheduler == "local" and workers is not None:
        check_workers(workers)  # the local cluster's processes
    if scheduler is not None:
        return _DaskBackend(job, scheduler, workers)
    n = check_workers(default_workers() if workers is None else workers)
    if n == 1:
        return _LoopBackend(job)
    return _PoolBackend(job, n)


# -- the driver: a bounded window of tasks --------------------------------------------


@dataclass
class _Item:
    """A board on its way: where it came from, and what to send (or why it is bad)."""

    position: int
    deal: Deal | None
    declarer: int | None
    file: str | None = None
    index: int | None = None
    tags: dict[str, str] = field(default_factory=dict)
    where: str = ""
    error: str | None = None
    error_kind: str | None = None


def _drive(
    items: Iterator[_Item],
    job: BatchJob,
    workers: int | None,
    scheduler: Any,
    *,
    ordered: bool,
    chunk_size: int | None,
    max_pending: int | None,
) -> Iterator[BoardResult]:
    """Start the workers, feed them at most ``max_pending`` boards at a time, and
    yield the results; the workers are stopped when the generator ends or is closed."""
    if chunk_size is not None and chunk_size < 1:
        raise ParseError(f"chunk_size must be 1 or more, got {chunk_size}")
    if max_pending is not None and max_pending < 1:
        raise ParseError(f"max_pending must be 1 or more, got {max_pending}")
    backend = _backend(job, workers, scheduler)
    # Auto chunks: tasks of about TASK_SECONDS of search, so that the round trip to a
    # worker (milliseconds on a busy machine) costs little even for tiny endings.
    auto = chunk_size is None and backend.slots > 1
    size = chunk_size or 1
    busy, solved = 0.0, 0
    in_flight: dict[Any, list[_Item]] = {}
    n_in_flight = 0
    ready: dict[int, BoardResult] = {}  # finished, waiting for their turn (ordered)
    next_out = 0
    exhausted = False
    failed: BarbuError | None = None  # reading the boards failed: raised once the rest is in
    done_ok = False

    def flush() -> Iterator[BoardResult]:
        nonlocal next_out
        if ordered:
            while next_out in ready:
                yield ready.pop(next_out)
                next_out += 1
        else:
            out = sorted(ready.items())
            ready.clear()
            for _, r in out:
                yield r

    try:
        while True:
            window = max_pending or 4 * backend.slots * size
            while not exhausted and n_in_flight + len(ready) + min(size, window) <= window:
                chunk: list[_Item] = []
                try:
                    for it in items:
                        if it.error is not None:
                            ready[it.position] = _result(it, None)
                            break
                        chunk.append(it)
                        if len(chunk) >= min(size, window):
                            break
                    else:
                        exhausted = True
                except BarbuError as e:  # the boards sent so far still come back
                    failed, exhausted = e, True
                if chunk:
                    payload = [(it.position, it.deal, it.declarer) for it in chunk]
                    in_flight[backend.submit(payload)] = chunk  # type: ignore[arg-type]
                    n_in_flight += len(chunk)
                    if backend.synchronous:
                        break  # its results go out before the next chunk is solved
            yield from flush()
            if not in_flight:
                if exhausted:
                    if failed is not None:
                        done_ok = True  # nothing left running
                        raise failed
                    break
                continue
            done = backend.wait_any(in_flight)
            for f in [f for f in in_flight if f in done]:  # in submission order
                chunk = in_flight.pop(f)
                n_in_flight -= len(chunk)
                for it, out in zip(chunk, f.result(), strict=True):
                    ready[it.position] = _result(it, out)
                    busy += sum(out[4])
                    solved += 1
            if auto and busy > 0:
                size = max(1, min(MAX_CHUNK, round(TASK_SECONDS * solved / busy)))
            yield from flush()
        done_ok = True
    finally:
        backend.close(abort=not done_ok)


def _result(it: _Item, out: _Outcome | None) -> BoardResult:
    common: dict[str, Any] = {
        "declarer": None if it.declarer is None else Seat(it.declarer),
        "file": it.file,
        "index": it.index,
        "tags": it.tags,
    }
    if out is None:
        return BoardResult(it.position, error=it.error, error_kind=it.error_kind, **common)
    if out[6] is not None:
        kind, msg = out[6]
        return BoardResult(it.position, error=f"{it.where}: {msg}", error_kind=kind, **common)
    _, scores, starts, nodes, secs, bounds, _ = out
    return BoardResult(it.position, scores, starts, nodes, secs, **common, bounds=bounds)


# -- public entry points --------------------------------------------------------------


def _kind(e: BaseException) -> str:
    return type(e).__name__


def _deal_items(deals: Iterable[Deal | str | Board], job: BatchJob) -> Iterator[_Item]:
    for pos, d in enumerate(deals):
        where = f"deal {pos}"
        try:
            if isinstance(d, Board):
                where = d.location
                yield _Item(pos, d.deal, int(job.declarer_of(d)), d.source, None, d.tags, where)
                continue
            deal = as_deal(d)
            decl = None if job.declarer is None else int(job.declarer)
            yield _Item(pos, deal, decl, where=where)
        except BarbuError as e:
            yield _Item(pos, None, None, where=where, error=f"{where}: {e}", error_kind=_kind(e))


def iter_solve(
    deals: Iterable[Deal | str | Board],
    contracts: str | ContractSpec | Sequence[str | ContractSpec] | BatchJob,
    *,
    rules: str = "classic",
    variants: Iterable[str] = (),
    scale: Scale | str | Path | None = None,
    declarer: Seat | int | str | None = None,
    workers: int | None = None,
    scheduler: Any = None,
    ordered: bool = True,
    chunk_size: int | None = None,
    max_pending: int | None = None,
    tt_bytes: int = DEFAULT_BATCH_TT_BYTES,
    time_limit: float | None = None,
) -> Iterator[BoardResult]:
    """Solve deals for a list of contracts, one :class:`BoardResult` per deal.

    ``contracts`` are specs (:func:`parse_contract`), or a :class:`BatchJob` made by
    :func:`make_job` (then ``rules`` … ``declarer``, ``tt_bytes`` and ``time_limit``
    are its own).  ``time_limit``: seconds for each deal's searches (a score not
    finished is ``None``, its interval in :attr:`BoardResult.bounds`).
    ``deals`` are :class:`~barbu_dd.deal.Deal` objects, PBN deal strings or
    :class:`~barbu_dd.pbn.Board` objects (their declarer is read from the Dealer
    tag); the input is read lazily.  ``declarer`` overrides every deal's
    declarer (needed for deals without one).  ``workers`` processes solve them (all
    cores by default; ``1``: in this process); with ``scheduler`` (a Dask
    scheduler address, ``"local"`` for a local Dask cluster of ``workers`` processes,
    or a ``distributed.Client``) a Dask cluster does.  With ``ordered`` results come
    in input order, else as they finish.  Tasks of ``chunk_size`` deals are sent
    (default: as many as make about :data:`TASK_SECONDS` of search, learnt as
    results come), at most ``max_pending`` deals at a time (default: 4 tasks a
    worker).  A deal that cannot be solved gives a result with ``error`` set; the
    others go on.

    :raises ParseError: for a bad contract, variant, rule set, seat or scale.
    :raises SolverError: (while iterating) if a solver cannot allocate its table,
        the Dask scheduler cannot be reached, or Dask is not installed.

    >>> [r.scores for r in iter_solve(["N:A... 2... 3... 4..."], "barbu", declarer="N", workers=1)]
    [((0, 0, 0, 0),)]
    """
    if isinstance(contracts, BatchJob) and time_limit is not None:
        raise ParseError("a job has its own time limit: give it to make_job")
    job = (
        contracts
        if isinstance(contracts, BatchJob)
        else make_job(
            contracts,
            rules=rules,
            variants=variants,
            scale=scale,
            declarer=declarer,
            tt_bytes=tt_bytes,
            time_limit=time_limit,
        )
    )
    return _drive(
        _deal_items(deals, job),
        job,
        workers,
        scheduler,
        ordered=ordered,
        chunk_size=chunk_size,
        max_pending=max_pending,
    )


def solve_many(
    deals: Iterable[Deal | str | Board],
    contracts: str | ContractSpec | Sequence[str | ContractSpec],
    *,
    rules: str = "classic",
    variants: Iterable[str] = (),
    scale: Scale | str | Path | None = None,
    declarer: Seat | int | str | None = None,
    workers: int | None = None,
    scheduler: Any = None,
    errors: Literal["raise", "nan"] = "raise",
    chunk_size: int | None = None,
    tt_bytes: int = DEFAULT_BATCH_TT_BYTES,
    time_limit: float | None = None,
) -> np.ndarray:
    """Every seat's optimal score, for every deal and contract, as one array.

    The array has shape ``(deals, contracts, 4)`` (seats N, E, S, W), dtype
    ``float64``; NaN marks no score (a seat already out in a Dominoes ending, or
    under ``time_limit`` a score not finished: :func:`iter_solve` gives its
    interval).  Dominoes ``best`` gives the scores with the declarer's best rank.
    See :func:`iter_solve` for the arguments.

    :raises BarbuError: (with ``errors="raise"``) for the first deal that cannot be
        solved, naming it; with ``errors="nan"`` its row is NaN.
    :raises ParseError: as :func:`make_job`.
    :raises SolverError: as :func:`iter_solve`.

    >>> solve_many(["N:AK... Q2... J3... 54..."], "no-queens", declarer="N", workers=1)[0, 0]
    array([-6.,  0.,  0.,  0.])
    """
    if errors not in ("raise", "nan"):
        raise ParseError(f"errors must be 'raise' or 'nan', got {errors!r}")
    job = make_job(
        contracts,
        rules=rules,
        variants=variants,
        scale=scale,
        declarer=declarer,
        tt_bytes=tt_bytes,
        time_limit=time_limit,
    )
    rows: list[np.ndarray] = []
    it = iter_solve(deals, job, workers=workers, scheduler=scheduler, chunk_size=chunk_size)
    try:
        for r in it:
            if r.error is not None and errors == "raise":
                cls = getattr(errors_module, r.error_kind or "", BarbuError)
                raise cls(r.error)
            rows.append(r.array(len(job.specs)))
    finally:
        it.close()  # type: ignore[attr-defined]
    if not rows:
        return np.empty((0, len(job.specs), 4))
    return np.stack(rows)


def _file_items(
    files: Sequence[str | Path],
    job: BatchJob,
    done: Any,
    counts: dict[str, int],
) -> Iterator[_Item]:
    pos = 0
    for f in files:
        name = str(f)
        index = 0
        for index, b in enumerate(read_pbn(f, errors="yield"), 1):
            if done is not None and (name, index) in done:
                counts["skipped"] = counts.get("skipped", 0) + 1
                continue
            if isinstance(b, BadBoard):
                kind = _kind(b.error) if b.error is not None else "ParseError"
                tags = {} if b.number is None else {"Board": str(b.number)}
                yield _Item(pos, None, None, name, index, tags, b.reason, b.reason, kind)
            else:
                try:
                    decl: int | None = int(job.declarer_of(b))
                    err = kind = None
                except BarbuError as e:  # no Dealer (its message names the board)
                    decl, err, kind = None, str(e), _kind(e)
                yield _Item(pos, b.deal, decl, name, index, b.tags, b.location, err, kind)
            pos += 1
        if index == 0:
            why = str(no_board_error(name))
            yield _Item(pos, None, None, name, None, {}, name, why, "ParseError")
            pos += 1


def solve_files(
    files: Sequence[str | Path],
    job: BatchJob,
    *,
    workers: int | None = None,
    scheduler: Any = None,
    done: Any = None,
    ordered: bool = False,
    chunk_size: int | None = None,
    max_pending: int | None = None,
    counts: dict[str, int] | None = None,
) -> Iterator[BoardResult]:
    """Solve every board of PBN files (streamed), one :class:`BoardResult` each.

    A board is known by its file (as given) and its ``index`` in it (1-based, bad
    boards counted); a board whose key is ``in done`` is skipped (``--resume``) and
    counted in ``counts["skipped"]``.  A bad board (malformed, wrong cards, no
    declarer) gives a result with ``error``; reading goes on.  Results come as they
    finish unless ``ordered``.

    :raises ParseError: for a file that cannot be read (see :func:`check_files`);
        (while iterating, after every board read before it) for one that stops being
        readable.
    :raises SolverError: as :func:`iter_solve`.
    """
    check_files(files)
    return _drive(
        _file_items(files, job, done, counts if counts is not None else {}),
        job,
        workers,
        scheduler,
        ordered=ordered,
        chunk_size=chunk_size,
        max_pending=max_pending,
    )


def check_files(files: Sequence[str | Path]) -> None:
    """Check, before any work, that each file can be read (opened, and is no directory).

    :raises ParseError: naming the first that cannot.
    """
    for f in files:
        try:
            str(f).encode("utf-8")
        except UnicodeEncodeError:
            raise ParseError(f"file name {str(f)!r} is not UTF-8 (the records name it)") from None
        try:
            with open(f, "rb") as fh:
                fh.read(1)
        except OSError as e:
            raise ParseError(f"cannot read {str(f)!r}: {e.strerror}") from None


def count_boards(files: Sequence[str | Path]) -> int:
    """About how many boards the files hold (their ``[Deal`` tags): for a progress bar.

    :raises OSError: for a file that cannot be read.
    """
    n = 0
    for f in files:
        tail = b""
        with open(f, "rb") as fh:
            while block := fh.read(1 << 20):
                n += (tail + block).count(b"[Deal ") - tail.count(b"[Deal ")
                tail = block[-5:]
    return n


# -- random deals ---------------------------------------------------------------------


def random_boards(
    n: int,
    seed: int,
    *,
    cards: int = 13,
    first: int = 1,
    event: str | None = None,
) -> Iterator[Board]:
    """``n`` random boards, reproducible from ``seed`` (the ``barbu-dd deal`` command).

    The algorithm (fixed, so a seed always gives the same boards): a
    :class:`random.Random` seeded with ``seed``; for each board a fresh copy of the
    52 cards in the order ♠A … ♠2, ♥A … ♣2 is shuffled with ``rng.shuffle``; the
    first ``cards`` cards go to N, the next ``cards`` to E, then S, then W (with
    ``cards < 13`` the board is an ending).  Boards are numbered from ``first``;
    the dealer rotates N, E, S, W from board 1 (board ``b`` is dealt by
    ``NESW[(b - 1) % 4]``), and the Deal tag starts with the dealer.  The first
    ``k`` boards of a run are those of any longer run with the same seed.

    :raises ValueError: for ``n < 0``, ``cards`` outside 1..13 or ``first < 1``.

    >>> b = next(random_boards(1, 7))
    >>> b.tags["Board"], b.tags["Dealer"], b.deal.sizes()
    ('1', 'N', (13, 13, 13, 13))
    """
    if n < 0:
        raise ValueError(f"the number of boards must be 0 or more, got {n}")
    if not 1 <= cards <= 13:
        raise ValueError(f"cards a hand must be 1..13, got {cards}")
    if first < 1:
        raise ValueError(f"the first board number must be 1 or more, got {first}")
    rng = random.Random(seed)
    for number in range(first, first + n):
        deck = list(ALL_CARDS)
        rng.shuffle(deck)
        hands = [sum(1 << c for c in deck[cards * k : cards * (k + 1)]) for k in range(4)]
        dealer = SEATS[(number - 1) % 4]
        deal = Deal(hands, first=dealer)
        tags = {} if event is None else {"Event": event}
        yield make_board(deal, number, dealer, **tags)
