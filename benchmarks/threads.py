"""One search thread against two, side by side in one process.

``PYTHONPATH=src python benchmarks/threads.py barbu:2 no-hearts:10 … [--runs 2]``

Solves each case (``contract:deal``, a benchmark deal of ``benchmarks/deals.py``,
North alone and on lead, Trumps in spades, the Salad in the French rules) with
``Solver(threads=1)`` and ``Solver(threads=2)`` in turn, a cold table each time,
``--runs`` times, and prints each case's median times, their ratio, the values
(which must agree) and the nodes; then the median of the ratios.  The two-thread
node count is both threads' and varies from run to run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from deals import BENCH_DEALS  # noqa: E402

from barbu_dd.contracts import make_game  # noqa: E402
from barbu_dd.solver import Solver  # noqa: E402

RULES = {"salad": "french"}
TRUMP = {"trumps": "S"}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("cases", nargs="+", help="contract:deal (deal index 0..49)")
    ap.add_argument("--runs", type=int, default=2)
    args = ap.parse_args()
    solver = Solver()
    ratios = []
    for case in args.cases:
        name, index = case.split(":")
        game = make_game(name, rules=RULES.get(name, "classic"), trump=TRUMP.get(name))
        deal = BENCH_DEALS[int(index)]
        times: dict[int, list[float]] = {1: [], 2: []}
        nodes: dict[int, list[int]] = {1: [], 2: []}
        values = set()
        for _ in range(args.runs):
            for threads in (1, 2):
                solver.threads = threads
                solver.clear()
                t = time.perf_counter()
                sol = solver.solve(deal, game, declarer="N", seats="N")
                times[threads].append(time.perf_counter() - t)
                nodes[threads].append(sol.nodes)
                values.add(sol.scores[0])
        if len(values) != 1:
            raise SystemExit(f"{case}: the values differ: {sorted(values)}")
        m1, m2 = statistics.median(times[1]), statistics.median(times[2])
        ratios.append(m1 / m2)
        print(
            f"{case:16s} value {values.pop():5d}  1 thread {m1 * 1000:8.1f} ms"
            f" ({statistics.median(nodes[1]) / 1e6:6.2f} M nodes)  2 threads {m2 * 1000:8.1f} ms"
            f" ({statistics.median(nodes[2]) / 1e6:6.2f} M)  ratio {m1 / m2:.2f}",
            flush=True,
        )
    print(f"median ratio {statistics.median(ratios):.2f} over {len(ratios)} cases")


if __name__ == "__main__":
    main()
