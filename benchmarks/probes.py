"""The null-window probes of one-seat solves, one line each, with their node counts.

``PYTHONPATH=src python benchmarks/probes.py no-tricks:1 no-queens:4 [--tt-mib 128]``

A solve is a sequence of probes "can the seat score at least t?" (in negative
contracts one just above the lower bound, then down from the upper bound; else
bisection: the core's ``solve_value``, which logs them in ``last_stats["probes"]``);
each returns the bound it proved.  The value needs two proofs, one that the seat
reaches it and one that it cannot score more, and this shows what each costs: in No
Tricks, for example, the proof that the others can force the seat to take its tricks
can cost ten times the other.  Deals are those of ``benchmarks/deals.py``, North
alone and on lead (Trumps: spades), one cold table a solve.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from deals import BENCH_DEALS  # noqa: E402

from barbu_dd.contracts import make_game  # noqa: E402
from barbu_dd.solver import Solver  # noqa: E402

RULES = {"salad": "french"}
TRUMP = {"trumps": "S"}
FAR = 1 << 29


def probes(solver: Solver, name: str, index: int) -> int:
    """Print the probes of North's solve of ``name`` on benchmark deal ``index``
    (the core's own probe log); returns the value."""
    game = make_game(name, rules=RULES.get(name, "classic"), trump=TRUMP.get(name))
    solver.clear()
    solver._load_game(game)
    _, hands, trick, leader = solver._position(BENCH_DEALS[index], game, "N")
    core = solver._core
    lo = core.probe(hands, trick, int(leader), 1, -FAR)[0]
    hi = core.probe(hands, trick, int(leader), 1, FAR)[0]
    print(f"{name} deal {index}: range {lo}..{hi}")
    t = time.perf_counter()
    value, nodes, _ = core.value(hands, trick, int(leader), 1)
    seconds = time.perf_counter() - t
    for target, bound, n in core.last_stats["probes"]:
        verdict = ">=" if bound >= target else "<"
        print(f"  target {target:5d}: {verdict} bound {bound:5d}  {n:>13,d} nodes")
    print(f"  value {value}: {nodes:,d} nodes, {seconds:.1f} s")
    return int(value)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("cases", nargs="+", help="contract:deal (deal index 0..49)")
    ap.add_argument("--tt-mib", type=int, default=128)
    args = ap.parse_args()
    solver = Solver(tt_bytes=args.tt_mib << 20)
    for case in args.cases:
        name, index = case.split(":")
        probes(solver, name, int(index))


if __name__ == "__main__":
    main()
