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
(``benchmarks/HISTORY.md``, session 18); ``no-last-two:0-49`` names a range of them.

``--cap N`` stops each solve after N nodes (the probes share them; an unfinished
solve prints ``over N`` and counts N) and ends with how many finished and the
median: the exact solve's order (``--orders down``) over many deals in a minute,
where ``nodes.py --node-limit`` would follow the limited solve's other order
(session 24 compared move orders and search parameters on the fifty No Last Two
deals this way).
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


class OutOfNodes(Exception):
    """A capped solve used its nodes up."""


class Prober:
    """Probes of one position, counting their nodes (at most ``cap`` in all, once set)."""

    def __init__(self, solver: Solver, name: str, index: int) -> None:
        game = make_game(name, rules=RULES.get(name, "classic"), trump=TRUMP.get(name))
        solver._load_game(game)
        _, self.hands, self.trick, leader = solver._position(BENCH_DEALS[index], game, "N")
        self.leader = int(leader)
        self.core = solver._core
        self.nodes = 0
        self.cap = 0

    def __call__(self, target: int) -> int:
        room = self.cap - self.nodes if self.cap else 0
        if self.cap and room <= 0:
            raise OutOfNodes
        bound, n = self.core.probe(self.hands, self.trick, self.leader, 1, target, cap=room)
        self.nodes += n
        if bound is None:
            raise OutOfNodes
        return int(bound)


def cases(spec: str) -> list[tuple[str, int]]:
    """``contract:deal`` items, a deal given as ``a-b`` standing for a range."""
    out = []
    for case in spec.split(","):
        name, index = case.split(":")
        first, _, last = index.partition("-")
        out += [(name, i) for i in range(int(first), int(last or first) + 1)]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("cases", help="contract:deal,… (deal index 0..49, or a range a-b)")
    ap.add_argument("--orders", default=",".join(ORDERS))
    ap.add_argument("--tt-mib", type=int, default=256)
    ap.add_argument("--cap", type=int, default=0, help="stop each solve after this many nodes")
    args = ap.parse_args()
    orders = args.orders.split(",")
    solver = Solver(tt_bytes=args.tt_mib << 20)
    totals = dict.fromkeys(orders, 0)
    finished = dict.fromkeys(orders, 0)
    counts: dict[str, list[int]] = {k: [] for k in orders}
    todo = cases(args.cases)
    for name, index in todo:
        probe = Prober(solver, name, index)
        solver.clear()
        lo, hi, g = probe(-FAR), probe(FAR), probe.core.gcd
        probe.cap = args.cap
        value: int | None = None
        row = []
        for order in orders:
            solver.clear()
            probe.nodes = 0
            try:
                if order == "ideal":
                    if value is None:  # needs another order's value first
                        raise OutOfNodes
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
                    assert value is None or v == value, (name, index, order, v, value)
                    value = v
                finished[order] += 1
                row.append(f"{order} {probe.nodes:>12,d}")
            except OutOfNodes:
                probe.nodes = args.cap
                row.append(f"{order} over {args.cap:,d}")
            totals[order] += probe.nodes
            counts[order].append(probe.nodes)
        shown = "    ?" if value is None else f"{value:5d}"
        print(f"{name:12s} deal {index:2d}: value {shown} | " + " | ".join(row), flush=True)
    print("total" + "".join(f" | {k} {v:,d}" for k, v in totals.items()))
    if args.cap:
        print(
            "finished"
            + "".join(f" | {k} {finished[k]}/{len(todo)}" for k in orders)
            + "\nmedian"
            + "".join(f" | {k} {sorted(counts[k])[len(todo) // 2]:,d}" for k in orders)
        )


if __name__ == "__main__":
    main()
