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
printed: how many, and the widest interval a chosen mean is proved in), ``--settle
S`` at most S more seconds settling the advice (``advise --settle``, ``--tolerance
T`` until the regret is at most T points; printed: the rounds, the regret, each
contender and how far its proved upper bound reaches above the advice's lower
bound, and how many hands ended settled).  Printed:
each hand's time, its samples a second and advice, then the median, the load
average, and whether the median is within ``--goal`` seconds.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time

from barbu_dd.advise import Advice, ContractAdvice, advise
from barbu_dd.cards import ALL_CARDS, hand_to_pbn


def random_hand(rng: random.Random) -> str:
    """Thirteen random cards, as a PBN hand."""
    return hand_to_pbn(sum(1 << c for c in rng.sample(ALL_CARDS, 13)))


def _gaps(adv: Advice) -> str:
    """Each contender and how far its proved upper bound reaches above the advice's
    proved lower bound (by gain, or by mean), in points."""

    def span(c: ContractAdvice) -> tuple[float, float]:
        base = c.average if adv.ranked_by == "gain" and c.average is not None else 0.0
        return (
            max(o.mean_low for o in c.options) - base,
            max(o.mean_high for o in c.options) - base,
        )

    assert adv.best is not None
    floor = span(adv.best)[0]
    return ", ".join(
        f"{c.label} by {span(c)[1] - floor:.2f}" for c in adv.contracts if c.label in adv.contenders
    )


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
    p.add_argument("--settle", type=float, default=None, help="seconds settling (none)")
    p.add_argument("--tolerance", type=float, default=0.0, help="regret to settle to (0)")
    args = p.parse_args()
    contracts = None if args.contracts == "all" else args.contracts.split(",")
    rng = random.Random(args.seed)
    times: list[float] = []
    settled_hands = within = 0
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
            settle_time=args.settle,
            tolerance=args.tolerance,
        )
        secs = time.perf_counter() - t0
        times.append(secs)
        best = "-" if adv.best is None else f"{adv.best.label} ({adv.best.mean:+.2f})"
        limited = ""
        if args.time_limit is not None:
            width = max(c.chosen.mean_high - c.chosen.mean_low for c in adv.contracts)
            settled = "settled" if adv.settled else f"not settled ({_gaps(adv)})"
            settled_hands += adv.settled
            rounds = f" after {adv.settle_rounds} settling round(s)" if args.settle else ""
            rounds += f", regret {adv.regret:.2f}"
            within += adv.regret <= args.tolerance
            limited = (
                f", {adv.unfinished} of {adv.values.size} scores not finished, widest"
                f" proved mean {width:.2f} wide, advice {settled}{rounds}"
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
        f"contracts {args.contracts}, time limit {args.time_limit or 'none'}"
        + (f", settling {args.settle:g} s" if args.settle else "")
        + "); "
        f"load average {load[0]:.1f} {load[1]:.1f}; "
        + (
            f"goal {args.goal:.0f} s: {'met' if med <= args.goal else 'NOT met'}"
            if args.time_limit is None
            else f"advice settled on {settled_hands} of {len(times)} hand(s)"
            + (f", regret within {args.tolerance:g} on {within}" if args.tolerance else "")
        )
    )


if __name__ == "__main__":
    main()
