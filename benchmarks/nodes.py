"""Node counts of the trick search on a fixed set of one-seat full-deal solves.

``PYTHONPATH=src python benchmarks/nodes.py [--cases barbu:1,tricks:1] [--tt-mib 128]``
``PYTHONPATH=src python benchmarks/nodes.py --endings 20:10 [--contracts no-tricks,salad]``
``PYTHONPATH=src python benchmarks/nodes.py --cases no-hearts:0,no-hearts:1 --node-limit 40000000``

Node counts are exact and repeatable for a given build, unlike times on a shared
machine: compare them before and after a change to the search.  The default set
is nine solves of the benchmark deals (``benchmarks/deals.py``), North alone and
North on lead (bridge: side NS, West on lead, notrump), a cold table each.  With
``--endings N:K``: the total nodes per contract over N random endings of K cards a
hand (seed ``--seed``), North alone and on lead.  With ``--node-limit N`` each solve
stops after N nodes and prints the bounds it proved (the limited solve, whose probe
order differs); a list of cases ends with the median node count.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from deals import BENCH_DEALS, random_endings  # noqa: E402

from barbu_dd.contracts import make_game  # noqa: E402
from barbu_dd.solver import Solver  # noqa: E402

DEFAULT = "barbu:1,barbu:3,barbu:5,barbu:6,barbu:8,tricks:1,no-hearts:0,trumps:6,no-last-two:5"
RULES = {"salad": "french", "tricks": "bridge"}
TRUMP = {"trumps": "S", "tricks": "NT"}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--cases", default=DEFAULT, help="contract:deal,… (deal index 0..49)")
    ap.add_argument("--tt-mib", type=int, default=128)
    ap.add_argument("--endings", help="N:K, N random endings of K cards a hand")
    ap.add_argument("--contracts", default="no-tricks,no-hearts,no-queens,barbu,no-last-two,salad")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--node-limit", type=int, help="stop each solve after this many nodes")
    args = ap.parse_args()
    solver = Solver(tt_bytes=args.tt_mib << 20)
    if args.endings:
        count, cards = (int(x) for x in args.endings.split(":"))
        endings(solver, random_endings(count, cards, args.seed), args.contracts.split(","))
        return
    total = 0
    counts: list[int] = []
    for case in args.cases.split(","):
        name, index = case.split(":")
        game = make_game(name, rules=RULES.get(name, "classic"), trump=TRUMP.get(name))
        deal = BENCH_DEALS[int(index)]
        solver.clear()
        t = time.perf_counter()
        if name == "tricks":
            sol = solver.solve(deal, game, declarer="W", side="NS", node_limit=args.node_limit)
            value, bounds = sol.value, sol.value_bounds
        else:
            sol = solver.solve(deal, game, declarer="N", seats="N", node_limit=args.node_limit)
            value, bounds = sol.scores[0], sol.bounds[0] if sol.bounds else None
        ms = (time.perf_counter() - t) * 1000
        total += sol.nodes
        counts.append(sol.nodes)
        if value is None and bounds is not None:
            value = f"{bounds[0]}..{bounds[1]}"  # stopped by --node-limit
        print(f"{name:12s} deal {index:>2s}: value {value} nodes {sol.nodes:>11,d}  {ms:9.0f} ms")
    print(f"total nodes {total:,d}")
    if len(counts) > 1:
        print(f"median nodes {sorted(counts)[len(counts) // 2]:,d}")


def endings(solver: Solver, deals: list[str], contracts: list[str]) -> None:
    """Total nodes (and the sum of the values, a check) per contract over ``deals``."""
    for name in contracts:
        game = make_game(name, rules=RULES.get(name, "classic"), trump=TRUMP.get(name))
        total, values = 0, 0
        t = time.perf_counter()
        for deal in deals:
            solver.clear()
            sol = solver.solve(deal, game, declarer="N", seats="N")
            total += sol.nodes
            values += int(sol.scores[0])
        secs = time.perf_counter() - t
        print(f"{name:12s} nodes {total:>12,d}  values {values:>6d}  {secs:7.1f} s")


if __name__ == "__main__":
    main()
