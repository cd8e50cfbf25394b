"""The ``table`` of a full deal: every contract of the rule set, all four seats, the
declarer's best Dominoes starting rank (the goal: a median of at most 5 s).

pytest-benchmark (``pytest benchmarks/bench_table.py --benchmark-only``): each round
makes the table of the next benchmark deal (``BENCH_DEALS``, declarer N) with a cold
solver; ``BARBU_BENCH_TABLE_ROUNDS`` rounds (default 3), on
``BARBU_BENCH_TABLE_WORKERS`` processes (default 1; ``table(workers=...)``).

As a script, each deal runs in a child process that is stopped after ``--timeout``
seconds, so a slow deal cannot hold the run up; it prints each deal's time, the time
of every contract, and the median over the deals (a deal that timed out counts as
the timeout, so the median is then a lower bound)::

    python benchmarks/bench_table.py --deals 3 --timeout 600
    python benchmarks/bench_table.py --deals 3 --timeout 600 --workers 2
    python benchmarks/bench_table.py --deals 10 --cards 10 --compare --workers 2

``--cards N`` keeps N random cards of each hand of the benchmark deals (endings, a
fixed seed); ``--compare`` makes each table twice in a row, with one process and
with ``--workers``, and prints the ratio of the medians.
    python benchmarks/bench_table.py --deals 1 --by-contract --timeout 60
"""

from __future__ import annotations

import argparse
import itertools
import multiprocessing as mp
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from deals import BENCH_DEALS  # noqa: E402

from barbu_dd.analyze import table  # noqa: E402
from barbu_dd.solver import Solver  # noqa: E402

GOAL_SECONDS = 5.0


def _check(t: object) -> None:
    from barbu_dd.analyze import DealTable

    assert isinstance(t, DealTable)
    for r in t.rows:
        if r.contract == "dominoes":
            assert set(r.scores) <= {45, 20, 5, -5}
        else:
            assert all(isinstance(v, int) for v in r.scores)
    assert t.best_trump is not None and t.best_start is not None


def test_table_full_deal(benchmark) -> None:  # type: ignore[no-untyped-def]
    rounds = int(os.environ.get("BARBU_BENCH_TABLE_ROUNDS", "3"))
    workers = int(os.environ.get("BARBU_BENCH_TABLE_WORKERS", "1"))
    deals = itertools.cycle(BENCH_DEALS)
    results = []

    def setup():  # type: ignore[no-untyped-def]
        return (next(deals), Solver(tt_bytes=64 << 20)), {}

    def run(deal: str, solver: Solver) -> None:
        results.append(table(deal, declarer="N", solver=solver, workers=workers))

    benchmark.pedantic(run, setup=setup, rounds=rounds, iterations=1)
    for t in results:
        _check(t)


# -- the script -------------------------------------------------------------------------


def _ending(deal: str, cards: int, seed: int) -> str:
    """The benchmark deal with ``cards`` random cards left in each hand."""
    import random

    from barbu_dd.cards import hand_to_pbn, iter_cards
    from barbu_dd.deal import Deal

    if cards >= 13:
        return deal
    rng = random.Random(seed)
    d = Deal(deal)
    hands = []
    for m in d.masks:
        keep = rng.sample(sorted(iter_cards(m)), cards)
        hands.append(hand_to_pbn(sum(1 << c for c in keep)))
    return "N:" + " ".join(hands)


def _timed(deal: str, rules: str, workers: int, timeout: float) -> tuple[float, str] | None:
    """One table in a child process: (seconds, detail), or None after ``timeout``."""
    q: mp.Queue = mp.Queue()  # type: ignore[type-arg]
    proc = mp.Process(target=_child, args=(deal, rules, workers, q))
    proc.start()
    proc.join(timeout)
    if proc.is_alive():
        proc.terminate()
        proc.join()
        return None
    secs, rows = q.get()
    return secs, ", ".join(f"{label} {s:.2f}" for label, s in rows)


def _compare(deals: list[str], rules: str, workers: int, timeout: float) -> None:
    """Each table with one process and with ``workers``, side by side."""
    one: list[float] = []
    many: list[float] = []
    for i, deal in enumerate(deals):
        a = _timed(deal, rules, 1, timeout)
        b = _timed(deal, rules, workers, timeout)
        if a is None or b is None:
            print(f"deal {i}: timed out after {timeout:.0f} s  {deal}", flush=True)
            continue
        one.append(a[0])
        many.append(b[0])
        print(f"deal {i}: {a[0]:.2f} s, {workers} workers {b[0]:.2f} s  {deal}", flush=True)
    if one:
        m1, m2 = statistics.median(one), statistics.median(many)
        print(
            f"median {m1:.2f} s with 1 process, {m2:.2f} s with {workers} "
            f"(ratio {m1 / m2:.2f}) over {len(one)} deal(s)"
        )


def _child(deal: str, rules: str, workers: int, out: mp.Queue) -> None:  # type: ignore[type-arg]
    solver = Solver(tt_bytes=64 << 20)
    t = table(deal, declarer="N", rules=rules, solver=solver, workers=workers)
    out.put((t.seconds, [(r.label, r.seconds) for r in t.rows]))


def _child_contract(deal: str, rules: str, label: str, out: mp.Queue) -> None:  # type: ignore[type-arg]
    from barbu_dd.batch import table_contracts

    solver = Solver(tt_bytes=64 << 20)
    spec = next(s for s in table_contracts(rules) if s.label == label)
    t0 = time.perf_counter()
    if spec.start == "best":
        solver.best_start(deal, "N", rules=rules)
    else:
        solver.solve(deal, spec.contract, trump=spec.trump, declarer="N", rules=rules)
    out.put(time.perf_counter() - t0)


def _by_contract(deal: str, rules: str, timeout: float) -> None:
    """Each contract of the table alone (all four seats), with its own time limit."""
    from barbu_dd.batch import table_contracts

    for spec in table_contracts(rules):
        q: mp.Queue = mp.Queue()  # type: ignore[type-arg]
        proc = mp.Process(target=_child_contract, args=(deal, rules, spec.label, q))
        proc.start()
        proc.join(timeout)
        if proc.is_alive():
            proc.terminate()
            proc.join()
            print(f"  {spec.label}: timed out after {timeout:.0f} s", flush=True)
        else:
            print(f"  {spec.label}: {q.get():.2f} s", flush=True)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--deals", type=int, default=3, help="how many benchmark deals (3)")
    p.add_argument("--first", type=int, default=0, help="the first deal's index (0)")
    p.add_argument("--timeout", type=float, default=600.0, help="seconds a deal (600)")
    p.add_argument("--rules", default="classic")
    p.add_argument("--workers", type=int, default=1, help="processes of table() (1)")
    p.add_argument("--cards", type=int, default=13, help="cards a hand: endings below 13")
    p.add_argument(
        "--compare", action="store_true", help="one process against --workers, side by side"
    )
    p.add_argument(
        "--by-contract",
        action="store_true",
        help="time each contract of the table alone (the --timeout applies to each)",
    )
    args = p.parse_args(argv)
    picked = [
        _ending(BENCH_DEALS[i], args.cards, i) for i in range(args.first, args.first + args.deals)
    ]
    if args.compare:
        _compare(picked, args.rules, args.workers, args.timeout)
        return 0
    if args.by_contract:
        for i in range(args.first, args.first + args.deals):
            print(f"deal {i}: {picked[i - args.first]}", flush=True)
            _by_contract(picked[i - args.first], args.rules, args.timeout)
        return 0
    times: list[float] = []
    for i in range(args.first, args.first + args.deals):
        deal = picked[i - args.first]
        t0 = time.perf_counter()
        got = _timed(deal, args.rules, args.workers, args.timeout)
        if got is None:
            times.append(args.timeout)
            print(f"deal {i}: timed out after {args.timeout:.0f} s  {deal}", flush=True)
            continue
        secs, detail = got
        times.append(secs)
        wall = time.perf_counter() - t0
        print(f"deal {i}: {secs:.2f} s (wall {wall:.2f} s): {detail}", flush=True)
    med = statistics.median(times)
    timed_out = sum(1 for t in times if t >= args.timeout)
    bound = " (a lower bound: deals timed out)" if timed_out else ""
    verdict = "met" if med <= GOAL_SECONDS and not timed_out else "not met"
    print(
        f"median {med:.2f} s over {len(times)} deal(s){bound}; "
        f"goal <= {GOAL_SECONDS:.0f} s: {verdict}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
