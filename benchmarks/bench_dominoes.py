"""Dominoes / Réussite speed: one seat-solve per round, and the declarer's best start.

pytest-benchmark (``pytest benchmarks/bench_dominoes.py --benchmark-only``): each round
solves the next (deal, seat) of the 50 benchmark deals (seat N, E, S, W in turn; North
moves first), so the statistics are over deals; one table is kept warm across the
rounds, as an application would (each new deal starts a new generation of it, so no
position is shared between deals).  The targets (issue 4): median <= 50 ms a
seat-solve, no deal over 5 s.

As a script it prints median / 95th percentile / max per seat-solve over all 50 deals
and all four seats for each configuration (time, then search nodes: the machine is
shared, node counts are what compares runs), and per deal for ``best_start`` (13
ranks, the declarer North), both with every rank's exact score (the default) and
with ``exact_all=False`` (only the best start)::

    PYTHONPATH=src python benchmarks/bench_dominoes.py [--deals 50] [--configs 9,reussite]
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from deals import BENCH_DEALS  # noqa: E402

from barbu_dd.cards import Seat  # noqa: E402
from barbu_dd.contracts import Game, make_game  # noqa: E402
from barbu_dd.solver import Solver  # noqa: E402

#: name -> (contract, rules, start, variants)
CONFIGS: dict[str, tuple[str, str, str | None, tuple[str, ...]]] = {
    "9": ("dominoes", "classic", "9", ()),
    "2": ("dominoes", "classic", "2", ()),
    "Q": ("dominoes", "classic", "Q", ()),
    "5-low-aces": ("dominoes", "classic", "5", ("low-aces",)),
    "9-ace-replays": ("dominoes", "classic", "9", ("ace-replays",)),
    "reussite": ("reussite", "french", None, ()),
}


def config_game(name: str) -> Game:
    contract, rules, start, variants = CONFIGS[name]
    return make_game(contract, rules=rules, start=start, variants=variants)


@pytest.mark.parametrize("config", list(CONFIGS))
def test_seat_solve(benchmark, config: str) -> None:  # type: ignore[no-untyped-def]
    game = config_game(config)
    solver = Solver(tt_bytes=64 << 20)
    jobs = itertools.cycle([(d, Seat(i % 4)) for i, d in enumerate(BENCH_DEALS)])
    results = []

    def setup():  # type: ignore[no-untyped-def]
        return next(jobs), {}

    def run(deal: str, seat: Seat) -> None:
        results.append(solver.solve(deal, game, declarer="N", seats=seat.name).scores[seat])

    benchmark.pedantic(run, setup=setup, rounds=len(BENCH_DEALS), iterations=1)
    assert all(v in game.places for v in results)


@pytest.mark.parametrize("exact_all", [True, False], ids=["exact-all", "best-only"])
def test_best_start(benchmark, exact_all: bool) -> None:  # type: ignore[no-untyped-def]
    solver = Solver(tt_bytes=64 << 20)
    deals = itertools.cycle(BENCH_DEALS)
    results = []

    def setup():  # type: ignore[no-untyped-def]
        return (next(deals),), {}

    def run(deal: str) -> None:
        results.append(solver.best_start(deal, "N", exact_all=exact_all))

    benchmark.pedantic(run, setup=setup, rounds=len(BENCH_DEALS), iterations=1)
    assert all(c.score == max(c.scores.values()) == c.scores[c.start] for c in results)
    assert all(len(c.scores) == 13 for c in results) or not exact_all


# -- the report ---------------------------------------------------------------------------


def pct(xs: Sequence[float], q: float) -> float:
    """The q-quantile (nearest rank) of xs."""
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, round(q * len(s)) - 1))]


def _line(name: str, xs: list[float], nodes: list[int]) -> str:
    ms = [1000 * x for x in xs]
    return (
        f"{name:20s} n={len(ms):4d}  median {statistics.median(ms):8.1f} ms  "
        f"p95 {pct(ms, 0.95):8.1f} ms  max {max(ms):8.1f} ms  |  nodes median "
        f"{statistics.median(nodes):9.0f}  p95 {pct(nodes, 0.95):9.0f}  max {max(nodes):9d}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description="Dominoes benchmark report")
    ap.add_argument("--deals", type=int, default=len(BENCH_DEALS))
    ap.add_argument("--configs", default=",".join(CONFIGS))
    ap.add_argument("--no-best", action="store_true", help="skip best_start")
    a = ap.parse_args()
    deals = BENCH_DEALS[: a.deals]
    solver = Solver(tt_bytes=64 << 20)
    for name in [c for c in a.configs.split(",") if c]:
        game = config_game(name)
        times = []
        nodes = []
        per_deal = []
        for d in deals:
            t_deal = 0.0
            for seat in Seat:
                t0 = time.perf_counter()
                sol = solver.solve(d, game, declarer="N", seats=seat.name)
                dt = time.perf_counter() - t0
                times.append(dt)
                nodes.append(sol.nodes)
                t_deal += dt
            per_deal.append(t_deal)
        four = f"   (4 seats: max {1000 * max(per_deal):.0f} ms)"
        print(_line(f"{name} seat", times, nodes) + four, flush=True)
    if not a.no_best:
        for exact_all in (True, False):
            times = []
            nodes = []
            for d in deals:
                t0 = time.perf_counter()
                c = solver.best_start(d, "N", exact_all=exact_all)
                times.append(time.perf_counter() - t0)
                nodes.append(c.nodes)
            name = "best_start" if exact_all else "best_start best-only"
            print(_line(name, times, nodes), flush=True)


if __name__ == "__main__":
    main()
