"""The ``table`` of a full deal: every contract of the rule set, all four seats, the
declarer's best Dominoes starting rank (the goal: a median of at most 5 s).

pytest-benchmark (``pytest benchmarks/bench_table.py --benchmark-only``): each round
makes the table of the next benchmark deal (``BENCH_DEALS``, declarer N) with a cold
solver; ``BARBU_BENCH_TABLE_ROUNDS`` rounds (default 3).

As a script, each deal runs in a child process that is stopped after ``--timeout``
seconds, so a slow deal cannot hold the run up; it prints each deal's time, the time
of every contract, and the median over the deals (a deal that timed out counts as
the timeout, so the median is then a lower bound)::

    python benchmarks/bench_table.py --deals 3 --timeout 600
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
    deals = itertools.cycle(BENCH_DEALS)
    results = []

    def setup():  # type: ignore[no-untyped-def]
        return (next(deals), Solver(tt_bytes=64 << 20)), {}

    def run(deal: str, solver: Solver) -> None:
        results.append(table(deal, declarer="N", solver=solver))

    benchmark.pedantic(run, setup=setup, rounds=rounds, iterations=1)
    for t in results:
        _check(t)


# -- the script -------------------------------------------------------------------------


def _child(deal: str, rules: str, out: mp.Queue) -> None:  # type: ignore[type-arg]
    t = table(deal, declarer="N", rules=rules, solver=Solver(tt_bytes=64 << 20))
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
    p.add_argument(
        "--by-contract",
        action="store_true",
        help="time each contract of the table alone (the --timeout applies to each)",
    )
    args = p.parse_args(argv)
    if args.by_contract:
        for i in range(args.first, args.first + args.deals):
            print(f"deal {i}: {BENCH_DEALS[i]}", flush=True)
            _by_contract(BENCH_DEALS[i], args.rules, args.timeout)
        return 0
    times: list[float] = []
    for i in range(args.first, args.first + args.deals):
        deal = BENCH_DEALS[i]
        q: mp.Queue = mp.Queue()  # type: ignore[type-arg]
        proc = mp.Process(target=_child, args=(deal, args.rules, q))
        t0 = time.perf_counter()
        proc.start()
        proc.join(args.timeout)
        if proc.is_alive():
            proc.terminate()
            proc.join()
            times.append(args.timeout)
            print(f"deal {i}: timed out after {args.timeout:.0f} s  {deal}", flush=True)
            continue
        secs, rows = q.get()
        times.append(secs)
        detail = ", ".join(f"{label} {s:.2f}" for label, s in rows)
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
