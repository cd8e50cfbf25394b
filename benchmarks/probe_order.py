"""Node counts of one-seat solves under other orders of the null-window probes.

``PYTHONPATH=src python benchmarks/probe_order.py no-hearts:1,no-hearts:3 [--orders down,gallop]``

The core finds a value by probes "can the seat score at least t?" (``solve_value``:
in negative contracts one probe just above the lower bound, then down from the upper
bound; bisection elsewhere).  This
driver repeats a solve with the probes chosen in Python (``Solver._core.probe``,
the same search and table) and prints the nodes each order takes, from a cold
table each:

- ``down``: the core's order (within 1 % of ``nodes.py``'s counts: here each probe
  starts from a fresh search context, there one context serves all the probes);
- ``gallop``: the core's order before session 20, galloping up from the lower bound,
  then bisection;
- ``bisect``: bisection from the start;
- ``g1``: one probe just above the lower bound, then bisection;
- ``g4``: galloping with steps four times larger each probe;
- ``ideal``: the two probes an oracle would make, at the value and one step above
  it (the cheaper of the two orders), for comparison.

The deals are those of ``benchmarks/deals.py``, North alone and on lead
(``benchmarks/HISTORY.md``, session 18).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from deals import BENCH_DEALS  # noqa: E402

from barbu_dd.contracts import make_game  # noqa: E402
from barbu_dd.solver import Solver  # noqa: E402

RULES = {"salad": "french"}
TRUMP = {"trumps": "S"}
FAR = 1 << 29
ORDERS = ("down", "gallop", "bisect", "g1", "g4", "ideal")


def solve(probe: Callable[[int], int], lo: int, hi: int, g: int, order: str) -> int:
    """The value in ``lo..hi`` (multiples of ``g``) found by ``probe`` (the fail-soft
    bound proved at a target) in the given order."""
    if order in ("gallop", "g4"):
        step = g
        while lo < hi:
            mid = lo + step
            if mid > hi:
                break
            v = probe(mid)
            if v < mid:
                hi = v
                break
            lo = v
            step *= 2 if order == "gallop" else 4
    elif order in ("g1", "down") and lo < hi:
        v = probe(lo + g)
        lo, hi = (v, hi) if v >= lo + g else (lo, v)
    while lo < hi:
        mid = hi if order == "down" else lo + ((hi - lo) // g + 1) // 2 * g
        v = probe(mid)
        lo, hi = (v, hi) if v >= mid else (lo, v)
    return lo


class Prober:
    """Probes of one position, counting their nodes."""

    def __init__(self, solver: Solver, name: str, index: int) -> None:
        game = make_game(name, rules=RULES.get(name, "classic"), trump=TRUMP.get(name))
        solver._load_game(game)
        _, self.hands, self.trick, leader = solver._position(BENCH_DEALS[index], game, "N")
        self.leader = int(leader)
        self.core = solver._core
        self.nodes = 0

    def __call__(self, target: int) -> int:
        bound, n = self.core.probe(self.hands, self.trick, self.leader, 1, target)
        self.nodes += n
        return int(bound)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("cases", help="contract:deal,… (deal index 0..49)")
    ap.add_argument("--orders", default=",".join(ORDERS))
    ap.add_argument("--tt-mib", type=int, default=256)
    args = ap.parse_args()
    orders = args.orders.split(",")
    solver = Solver(tt_bytes=args.tt_mib << 20)
    totals = dict.fromkeys(orders, 0)
    for case in args.cases.split(","):
        name, index = case.split(":")
        probe = Prober(solver, name, int(index))
        solver.clear()
        lo, hi, g = probe(-FAR), probe(FAR), probe.core.gcd
        value = None
        row = []
        for order in orders:
            solver.clear()
            probe.nodes = 0
            if order == "ideal":
                assert value is not None, "ideal needs another order first"
                probe(value)
                probe(value + g)
                first = probe.nodes
                solver.clear()
                probe.nodes = 0
                probe(value + g)
                probe(value)
                probe.nodes = min(first, probe.nodes)
            else:
                v = solve(probe, lo, hi, g, order)
                assert value is None or v == value, (case, order, v, value)
                value = v
            totals[order] += probe.nodes
            row.append(f"{order} {probe.nodes:>12,d}")
        print(f"{name:12s} deal {int(index):2d}: value {value:5d} | " + " | ".join(row), flush=True)
    print("total" + "".join(f" | {k} {v:,d}" for k, v in totals.items()))


if __name__ == "__main__":
    main()
