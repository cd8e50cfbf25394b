"""Median and 95th percentile of one-seat solves per contract, and the bridge ratio to DDS.

``python benchmarks/report.py [--deals N] [--contracts barbu,no-queens] [--bridge]
[--time-limit S] [--threads 1|2]`` solves the benchmark deals (North's score, North on lead, a cold
table each) and prints median / p95 / max in ms and how many deals took over 2 s.
With ``--time-limit`` each solve stops after S seconds; a stopped solve counts as
taking forever (shown as ``>S s``), so a median under the limit is still exact.
``--threads 2`` gives each solve two search threads (``Solver(threads=2)``).  With
``--bridge`` it solves the same deals in bridge form (side NS, West on lead,
notrump) with barbu-dd and with DDS (one thread each, ``benchmarks/dds_peer.py``) in
the same process and prints the ratio of the medians.  It also prints the process's peak memory.
"""

from __future__ import annotations

import argparse
import math
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from deals import BENCH_DEALS  # noqa: E402

from barbu_dd.contracts import make_game  # noqa: E402
from barbu_dd.solver import Solver  # noqa: E402

#: label -> (contract, rule set, trump).  French No Tricks and No Queens are the
#: classic ones scaled (x5, x10/3: the same search), so they are not listed apart.
CONTRACTS = {
    "no-tricks": ("no-tricks", "classic", None),
    "no-hearts": ("no-hearts", "classic", None),
    "no-queens": ("no-queens", "classic", None),
    "barbu": ("barbu", "classic", None),
    "no-last-two": ("no-last-two", "classic", None),
    "trumps": ("trumps", "classic", "S"),
    "salad": ("salad", "french", None),
    "french-barbu": ("barbu", "french", None),
    "french-no-hearts": ("no-hearts", "french", None),
    "french-no-last-two": ("no-last-two", "french", None),
    "ravage": ("ravage", "classic", None),
}


def pct(xs: list[float], q: float) -> float:
    """The q-quantile (nearest rank) of xs."""
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, int(round(q * len(s) + 0.5)) - 1))]


def ms(x: float, limit: float | None) -> str:
    """A time in ms for the report, or ``>S s`` for a solve the limit stopped."""
    return f"{x:9.1f} ms" if math.isfinite(x) else f"{'>' + format(limit, 'g') + ' s':>12s}"


def over_2s(times: list[float], limit: float | None) -> str:
    """How many solves took over 2 s (a stopped one does if the limit is 2 s or more)."""
    stopped = sum(not math.isfinite(t) for t in times)
    slow = sum(math.isfinite(t) and t > 2000 for t in times)
    if stopped and limit is not None and limit < 2:
        return f"{slow} (+{stopped} stopped at {limit:g} s)"
    return str(slow + stopped)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=50)
    ap.add_argument(
        "--contracts",
        default=",".join(CONTRACTS),
        help=f"comma-separated, of: {', '.join(CONTRACTS)}",
    )
    ap.add_argument("--bridge", action="store_true")
    ap.add_argument("--time-limit", type=float, default=None, metavar="S")
    ap.add_argument("--threads", type=int, default=1, choices=(1, 2))
    args = ap.parse_args()
    deals = BENCH_DEALS[: args.deals]
    solver = Solver(threads=args.threads)  # the default table (256 MiB)
    names = [c for c in args.contracts.split(",") if c]
    for name in names:
        if name not in CONTRACTS:
            ap.error(f"unknown contract {name!r} (known: {', '.join(CONTRACTS)})")
    for name in names:
        contract, rules, trump = CONTRACTS[name]
        game = make_game(contract, rules=rules, trump=trump)
        times = []
        for d in deals:
            solver.clear()
            t = time.perf_counter()
            sol = solver.solve(d, game, declarer="N", seats="N", time_limit=args.time_limit)
            done = sol.scores[0] is not None
            times.append((time.perf_counter() - t) * 1000 if done else math.inf)
        print(
            f"{name:18s} median {ms(statistics.median(times), args.time_limit)}"
            f"  p95 {ms(pct(times, 0.95), args.time_limit)}"
            f"  max {ms(max(times), args.time_limit)}"
            f"  over 2 s: {over_2s(times, args.time_limit)}  ({len(times)} deals)",
            flush=True,
        )
    if args.bridge:
        from dds_peer import dds_solve_ns_tricks

        game = make_game("tricks", rules="bridge", trump="NT")
        solver.threads = 1  # DDS runs one thread too
        mine, theirs = [], []
        for d in deals:
            solver.clear()
            t = time.perf_counter()
            v = solver.solve(d, game, declarer="W", side="NS").value
            mine.append(time.perf_counter() - t)
            t = time.perf_counter()
            w = dds_solve_ns_tricks(d, "NT", "W")
            theirs.append(time.perf_counter() - t)
            assert v == w, (d, v, w)
        m1, m2 = statistics.median(mine) * 1000, statistics.median(theirs) * 1000
        print(
            f"bridge NT, W leads: barbu-dd median {m1:.1f} ms, DDS median {m2:.1f} ms,"
            f" ratio {m1 / m2:.2f}"
        )
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"peak memory {peak:.0f} MiB")


if __name__ == "__main__":
    main()
