"""pytest-benchmark: one seat (North, on lead) solved on each of the 50 benchmark deals.

Run with ``pytest benchmarks/bench_solve.py --benchmark-only``.  Each round solves
the next deal of the set with a cold table, so the statistics (median, max) are
over deals; each contract with one search thread and with two (``Solver(threads=2)``,
the second thread joining solves that last over 100,000 nodes).
``benchmarks/report.py`` prints the median and 95th percentile.
"""

from __future__ import annotations

import itertools

import pytest
from deals import BENCH_DEALS
from report import CONTRACTS as REPORTED

from barbu_dd.contracts import make_game
from barbu_dd.solver import Solver

CONTRACTS = list(REPORTED.values())


@pytest.mark.parametrize("threads", [1, 2], ids=["1t", "2t"])
@pytest.mark.parametrize(("contract", "rules", "trump"), CONTRACTS, ids=list(REPORTED))
def test_solve_one_seat(  # type: ignore[no-untyped-def]
    benchmark, contract: str, rules: str, trump: str | None, threads: int
) -> None:
    game = make_game(contract, rules=rules, trump=trump)
    solver = Solver(threads=threads)  # the default table (256 MiB)
    deals = itertools.cycle(BENCH_DEALS)
    results = []

    def setup():  # type: ignore[no-untyped-def]
        solver.clear()
        return (next(deals),), {}

    def run(deal: str) -> None:
        results.append(solver.solve(deal, game, declarer="N", seats="N").scores[0])

    benchmark.pedantic(run, setup=setup, rounds=len(BENCH_DEALS), iterations=1)
    # a seat's score lies between 0 and the contract's total (negative or positive)
    total = game.total
    assert all(isinstance(v, int) and min(0, total) <= v <= max(0, total) for v in results)
