#!/usr/bin/env python3
"""Bridge endings solved by DDS, for the regular test run.

Each of the first ``--count`` deals of ``dds_bridge.json`` is cut to an ending of
5 to 7 cards a hand (cards chosen at random from each hand), and DDS
(``endplay.dds.solve_board``) gives North-South's tricks for every strain
(S, H, D, C, NT) and every leader (N, E, S, W).  Full deals stay in
``dds_bridge.json`` (checked by the ``slow`` test run).

Regenerate with::

    python tests/data/make_dds_endings.py        # writes dds_endings.json
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from endplay.dds import solve_board
from endplay.types import Deal
from make_dds_data import DENOM, LEADERS, PLAYER, RANKS, STRAINS

HERE = Path(__file__).resolve().parent


def cut(deal: str, n: int, rng: random.Random) -> str:
    """Keep ``n`` random cards of each hand of a full PBN deal."""
    first, hands = deal.split(":")
    out = []
    for hand in hands.split():
        cards = [(s, r) for s, suit in enumerate(hand.split(".")) for r in suit]
        keep = set(rng.sample(cards, n))
        suits = ["".join(r for r in RANKS if (s, r) in keep) for s in range(4)]
        out.append(".".join(suits))
    return first + ":" + " ".join(out)


def ns_tricks(deal: str, strain: str, leader: str, n: int) -> int:
    """North-South's tricks with ``leader`` on lead, by DDS."""
    d = Deal(deal)
    d.first = PLAYER[leader]
    d.trump = DENOM[strain]
    best = max(t for _, t in solve_board(d))
    return best if leader in "NS" else n - best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seed", type=int, default=20261201)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--out", type=Path, default=HERE / "dds_endings.json")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    src = json.loads((HERE / "dds_bridge.json").read_text())
    boards = []
    for b in src["boards"][: args.count]:
        n = rng.choice([5, 6, 7])
        deal = cut(b["deal"], n, rng)
        boards.append(
            {
                "deal": deal,
                "cards": n,
                "ns_tricks": {s: [ns_tricks(deal, s, ld, n) for ld in LEADERS] for s in STRAINS},
            }
        )
    data = {
        "generator": "tests/data/make_dds_endings.py (endplay.dds.solve_board)",
        "seed": args.seed,
        "strains": list(STRAINS),
        "leaders": list(LEADERS),
        "boards": boards,
    }
    args.out.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {len(boards)} endings to {args.out}")


if __name__ == "__main__":
    main()
