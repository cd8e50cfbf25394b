"""Single-dummy advice: wall time of ``advise`` on random hands.

Run ``PYTHONPATH=src python benchmarks/bench_advise.py`` for the issue's benchmark:
``--samples 100`` and every classic contract (the four trump suits and the thirteen
starting ranks each solved on every sample), ``--hands 3`` random hands, all cores;
the goal is a median of at most 60 s.  With the current trick-contract search that
run takes hours (a full deal is seconds to minutes per trick contract), so the
options make smaller runs possible::

    python benchmarks/bench_advise.py --contracts dominoes --samples 100
    python benchmarks/bench_advise.py --contracts barbu --samples 4 --hands 2

``--contracts`` is a comma-separated list (``all``: the rule set's), ``--workers``
the worker processes (default: all cores), ``--seed`` the seed of the hands (each
hand's samples use the seed ``seed + k``), ``--time-limit S`` the seconds for each
sample's searches (``advise --time-limit``: the scores not finished are intervals;
printed: how many, and the widest interval a chosen mean is proved in).  Printed:
each hand's time, its samples a second and advice, then the median, the load
average, and whether the median is within ``--goal`` seconds.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from barbu_dd.advise import advise
from barbu_dd.cards import ALL_CARDS, hand_to_pbn


def random_hand(rng: random.Random) -> str:
    """Thirteen random cards, as a PBN hand."""
    return hand_to_pbn(sum(1 << c for c in rng.sample(ALL_CARDS, 13)))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--samples", type=int, default=100, help="samples a hand (100)")
    p.add_argument("--contracts", default="all", help="comma-separated, or 'all' (all)")
    p.add_argument("--hands", type=int, default=3, help="random hands timed (3)")
    p.add_argument("--workers", type=int, default=None, help="processes (all cores)")
    p.add_argument("--rules", default="classic", help="rule set (classic)")
    p.add_argument("--seed", type=int, default=1, help="seed of the hands (1)")
    p.add_argument("--goal", type=float, default=60.0, help="goal for the median, s (60)")
    p.add_argument("--time-limit", type=float, default=None, help="seconds a sample (none)")
    args = p.parse_args()
    contracts = None if args.contracts == "all" else args.contracts.split(",")
    rng = random.Random(args.seed)
    times: list[float] = []
    for k in range(args.hands):
        hand = random_hand(rng)
        t0 = time.perf_counter()
        adv = advise(
            hand,
            contracts=contracts,
            samples=args.samples,
            seed=args.seed + k,
            workers=args.workers,
            rules=args.rules,
            time_limit=args.time_limit,
        )
        secs = time.perf_counter() - t0
        times.append(secs)
        best = "-" if adv.best is None else f"{adv.best.label} ({adv.best.mean:+.2f})"
        limited = ""
        if args.time_limit is not None:
            width = max(c.chosen.mean_high - c.chosen.mean_low for c in adv.contracts)
            settled = "settled" if adv.settled else f"not settled ({', '.join(adv.contenders)})"
            limited = (
                f", {adv.unfinished} of {adv.values.size} scores not finished, widest"
                f" proved mean {width:.2f} wide, advice {settled}"
            )
        print(
            f"hand {k + 1} {hand}: {secs:.1f} s, {secs / max(adv.samples, 1):.2f} s a sample, "
            f"{len(adv.labels)} columns, {adv.workers} worker(s), advice {best}{limited}",
            flush=True,
        )
    med = statistics.median(times)
    load = os.getloadavg()
    print(
        f"median {med:.1f} s over {len(times)} hand(s) ({args.samples} samples, "
        f"contracts {args.contracts}, time limit {args.time_limit or 'none'}); "
        f"load average {load[0]:.1f} {load[1]:.1f}; "
        + (
            f"goal {args.goal:.0f} s: {'met' if med <= args.goal else 'NOT met'}"
            if args.time_limit is None
            else "the goal is for the exact advice (no time limit)"
        )
    )


if __name__ == "__main__":
    main()
