#!/usr/bin/env python3
"""Generate the fixed bridge double-dummy reference data used by the test suite.

Deals are drawn with ``random.Random(seed)`` and solved with DDS through endplay
(``endplay.dds.calc_dd_table``, i.e. DDS ``CalcDDtable``).  For every strain
(S, H, D, C, NT) and every opening leader (N, E, S, W) we store the number of
tricks North-South take with best play by both sides.

DDS tables are indexed by *declarer*; the opening leader is declarer's left-hand
opponent, so ``declarer = seat before leader`` (N->E->S->W->N), and the table
gives declarer's side's tricks.  A subset of boards is re-checked with
``endplay.dds.solve_board`` (DDS ``SolveBoard``) with the leader on lead and an
empty trick, which returns the leading side's tricks for each card.

Outputs (by default next to this script):
  * ``dds_bridge.json`` -- deals and NS trick counts;
  * ``dds_bridge.pbn``  -- the same deals as a PBN file.

Regenerate with::

    python tests/data/make_dds_data.py            # seed 20261130, 120 deals

Only the standard library and endplay are used.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any

from endplay.config import __version__ as endplay_version
from endplay.dds import calc_dd_table, solve_board
from endplay.types import Deal, Denom, Player

DEFAULT_SEED = 20261130
DEFAULT_COUNT = 120
DEFAULT_OUT = Path(__file__).resolve().parent / "dds_bridge.json"

SEATS = "NESW"  # clockwise, PBN order from North
SUITS = "SHDC"  # PBN suit order within a hand
RANKS = "AKQJT98765432"  # high to low
STRAINS = ("S", "H", "D", "C", "NT")
LEADERS = ("N", "E", "S", "W")

DENOM = {
    "S": Denom.spades,
    "H": Denom.hearts,
    "D": Denom.diamonds,
    "C": Denom.clubs,
    "NT": Denom.nt,
}
PLAYER = {"N": Player.north, "E": Player.east, "S": Player.south, "W": Player.west}

NsTricks = dict[str, list[int]]


def random_deal(rng: random.Random) -> str:
    """Return a random full deal as a PBN string ``"N:<N> <E> <S> <W>"``."""
    deck = [(s, r) for s in range(4) for r in range(13)]  # indices into SUITS/RANKS
    rng.shuffle(deck)
    hands: list[str] = []
    for seat in range(4):
        cards = deck[13 * seat : 13 * (seat + 1)]
        hands.append(
            ".".join(
                "".join(RANKS[r] for r in sorted(r for s2, r in cards if s2 == s)) for s in range(4)
            )
        )
    return "N:" + " ".join(hands)


def declarer_for(leader: str) -> str:
    """The declarer whose left-hand opponent is ``leader``."""
    return SEATS[(SEATS.index(leader) - 1) % 4]


def is_ns(seat: str) -> bool:
    """True for North and South."""
    return seat in ("N", "S")


def ns_tricks_from_table(pbn: str) -> NsTricks:
    """NS tricks for every strain and leader, from one DDS ``CalcDDtable`` call."""
    table = calc_dd_table(Deal(pbn))
    result: NsTricks = {}
    for strain in STRAINS:
        row: list[int] = []
        for leader in LEADERS:
            declarer = declarer_for(leader)
            decl_tricks = table[DENOM[strain], PLAYER[declarer]]
            row.append(decl_tricks if is_ns(declarer) else 13 - decl_tricks)
        result[strain] = row
    return result


def ns_tricks_by_solve_board(pbn: str, strain: str, leader: str) -> int:
    """NS tricks via DDS ``SolveBoard`` with ``leader`` on lead to an empty trick.

    ``solve_board`` (default mode: all cards scored) gives the leading side's
    tricks for each card; the best lead is the maximum.
    """
    deal = Deal(pbn, first=PLAYER[leader], trump=DENOM[strain])
    lead_side = max(score for _card, score in solve_board(deal))
    return lead_side if is_ns(leader) else 13 - lead_side


def check_board(pbn: str, ns: NsTricks) -> None:
    """Basic consistency checks; raises ``ValueError`` on failure."""
    if Deal(pbn).to_pbn() != pbn:
        raise ValueError(f"endplay does not round-trip deal {pbn!r}")
    for strain, row in ns.items():
        if len(row) != 4 or not all(0 <= t <= 13 for t in row):
            raise ValueError(f"bad trick counts {strain}={row} for {pbn}")


def verify_board(pbn: str, ns: NsTricks) -> None:
    """Cross-check all 20 table entries of one board against ``solve_board``."""
    for strain in STRAINS:
        for i, leader in enumerate(LEADERS):
            got = ns_tricks_by_solve_board(pbn, strain, leader)
            if got != ns[strain][i]:
                raise ValueError(
                    f"{pbn} {strain} lead {leader}: table says {ns[strain][i]}, "
                    f"SolveBoard says {got}"
                )


def write_json(path: Path, seed: int, boards: list[tuple[str, NsTricks]]) -> None:
    """Write the JSON reference file (one board per line, deterministic)."""
    header: dict[str, Any] = {
        "generator": f"tests/data/make_dds_data.py (endplay {endplay_version}, "
        "DDS CalcDDtable; NS tricks per strain, leaders N,E,S,W)",
        "seed": seed,
        "strains": list(STRAINS),
        "leaders": list(LEADERS),
    }
    lines = ["{"]
    for key, value in header.items():
        lines.append(f"  {json.dumps(key)}: {json.dumps(value)},")
    lines.append('  "boards": [')
    for n, (pbn, ns) in enumerate(boards):
        item = json.dumps({"deal": pbn, "ns_tricks": {s: ns[s] for s in STRAINS}})
        lines.append(f"    {item}" + ("," if n < len(boards) - 1 else ""))
    lines.append("  ]")
    lines.append("}")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def write_pbn(path: Path, deals: list[str]) -> None:
    """Write the deals as a minimal PBN file."""
    blocks = [
        f'[Board "{i}"]\n[Dealer "N"]\n[Deal "{pbn}"]\n' for i, pbn in enumerate(deals, start=1)
    ]
    path.write_text("\n".join(blocks), encoding="utf-8")


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """Command-line options."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seed", type=int, default=DEFAULT_SEED, help="RNG seed (%(default)s)")
    p.add_argument("--count", type=int, default=DEFAULT_COUNT, help="number of deals (%(default)s)")
    p.add_argument(
        "--out",
        type=Path,
        default=DEFAULT_OUT,
        help="output JSON path; the PBN file gets the same name with .pbn",
    )
    p.add_argument(
        "--verify",
        type=int,
        default=10,
        metavar="K",
        help="cross-check the first K boards with SolveBoard "
        "(20 solves each; -1 = all; default %(default)s)",
    )
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Generate, check and write the data."""
    args = parse_args(argv)
    rng = random.Random(args.seed)
    deals = [random_deal(rng) for _ in range(args.count)]
    boards = [(pbn, ns_tricks_from_table(pbn)) for pbn in deals]
    n_verify = len(boards) if args.verify < 0 else min(args.verify, len(boards))
    for pbn, ns in boards:
        check_board(pbn, ns)
    for pbn, ns in boards[:n_verify]:
        verify_board(pbn, ns)
    out: Path = args.out
    out.parent.mkdir(parents=True, exist_ok=True)
    write_json(out, args.seed, boards)
    write_pbn(out.with_suffix(".pbn"), deals)
    print(
        f"wrote {len(boards)} boards to {out} and {out.with_suffix('.pbn')} "
        f"({n_verify} cross-checked with SolveBoard)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
