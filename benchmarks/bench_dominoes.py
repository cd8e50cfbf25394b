"""Dominoes / Réussite speed: one seat-solve per round, and the declarer's best start.

pytest-benchmark (``pytest benchmarks/bench_dominoes.py --benchmark-only``): each round
solves the next (deal, seat) of the 50 benchmark deals (seat N, E, S, W in turn; North
moves first), so the statistics are over deals; one table is kept warm across the
rounds, as an application would (each new deal starts a new generation of it, so no
position is shared between deals).  The targets (issue 4): median <= 50 ms a
seat-solve, no deal over 5 s.

As a script it prints median / 95th percentile / max per seat-solve over all 50 deals
and all four seats for each configuration, and for ``best_start`` (13 ranks, the
declarer North) per deal::

    PYTHONPATH=src python benchmarks/bench_dominoes.py [--deals 50] [--configs 9,reussite]
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
import time
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


def test_best_start(benchmark) -> None:  # type: ignore[no-untyped-def]
    solver = Solver(tt_bytes=64 << 20)
    deals = itertools.cycle(BENCH_DEALS)
    results = []

    def setup():  # type: ignore[no-untyped-def]
        return (next(deals),), {}

    def run(deal: str) -> None:
        results.append(solver.best_start(deal, "N"))

    benchmark.pedantic(run, setup=setup, rounds=len(BENCH_DEALS), iterations=1)
    assert all(len(c.scores) == 13 and c.score == max(c.scores.values()) for c in results)


# -- the report ---------------------------------------------------------------------------


def pct(xs: list[float], q: float) -> float:
    """The q-quantile (nearest rank) of xs."""
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, round(q * len(s)) - 1))]


def _line(name: str, xs: list[float]) -> str:
    ms = [1000 * x for x in xs]
    return (
        f"{name:16s} n={len(ms):4d}  median {statistics.median(ms):8.1f} ms  "
        f"p95 {pct(ms, 0.95):8.1f} ms  max {max(ms):8.1f} ms"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description="Dominoes benchmark report")
    ap.add_argument("--deals", type=int, default=len(BENCH_DEALS))
    ap.add_argument("--configs", default=",".join(CONFIGS))
    ap.add_argument("--no-best", action="store_true", help="skip best_start")
    a = ap.parse_args()
    deals = BENCH_DEALS[: a.deals]
    solver = Solver(tt_bytes=64 << 20)
    for name in a.configs.split(","):
        game = config_game(name)
        times = []
        per_deal = []
        for d in deals:
            t_deal = 0.0
            for seat in Seat:
                t0 = time.perf_counter()
                solver.solve(d, game, declarer="N", seats=seat.name)
                dt = time.perf_counter() - t0
                times.append(dt)
                t_deal += dt
            per_deal.append(t_deal)
        four = f"   (4 seats: max {1000 * max(per_deal):.0f} ms)"
        print(_line(f"{name} seat", times) + four, flush=True)
    if not a.no_best:
        times = []
        for d in deals:
            t0 = time.perf_counter()
            solver.best_start(d, "N")
            times.append(time.perf_counter() - t0)
        print(_line("best_start", times), flush=True)


if __name__ == "__main__":
    main()
