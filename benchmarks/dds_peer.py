"""Bridge double-dummy peer for barbu-dd benchmarks: one DDS solve per call.

``dds_solve_ns_tricks`` solves ONE strain with ONE opening leader using
``endplay.dds.solve_board`` in ``SolveMode.OptimalOne``, i.e. DDS
``SolveBoard(deal, target=-1, solutions=1, mode=1, futp, threadIndex=0)``:
DDS finds only the optimum score of the side on lead (one best card), always
searching, on DDS thread 0 of a DDS instance configured with
``SetMaxThreads(1)``.  The return value is converted to North-South tricks.

What it measures: a complete single-threaded DDS search of a 52-card deal from
the opening lead to the end.  DDS keeps its transposition table between
``SolveBoard`` calls when the deal and trump are unchanged (e.g. only the leader
differs), even with ``mode=1``; by default (``reuse_tt=False``) this module
forces a cold table by first solving a tiny one-trick deal, so every call costs
as much as a fresh solve.  ``time_solves`` times only the ``SolveBoard`` call
(PBN parsing and the flush, together under 1 ms, are outside the timer).

Usage::

    from dds_peer import dds_solve_ns_tricks
    dds_solve_ns_tricks("N:AKQ.... E... S... W...", "NT", "E")

``python benchmarks/dds_peer.py`` times solves on ``tests/data/dds_bridge.json``
(checking them against the stored answers) and prints the median ms per solve.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

import endplay._dds as _dds
from endplay.dds import solve_board
from endplay.dds.solve import SolveMode
from endplay.types import Deal, Denom, Player

__all__ = ["dds_solve_ns_tricks", "time_solves"]

STRAINS: dict[str, Denom] = {
    "S": Denom.spades,
    "H": Denom.hearts,
    "D": Denom.diamonds,
    "C": Denom.clubs,
    "NT": Denom.nt,
}
LEADERS: dict[str, Player] = {
    "N": Player.north,
    "E": Player.east,
    "S": Player.south,
    "W": Player.west,
}
# One card per hand: solving it overwrites DDS thread 0's cached deal, so the
# next real deal is "new" and DDS resets its transposition table.
_FLUSH_DEAL = "N:2... .2.. ..2. ...2"
_DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "dds_bridge.json"

_configured = False


def _ensure_single_thread() -> None:
    """Configure DDS for one thread (once per process)."""
    global _configured
    if not _configured:
        _dds.SetMaxThreads(1)
        _configured = True


def _flush_tt() -> None:
    """Make DDS forget the previous deal so the next solve starts cold."""
    solve_board(Deal(_FLUSH_DEAL, first=Player.north, trump=Denom.nt), SolveMode.OptimalOne)


def _prepare(pbn_deal: str, strain: str, leader: str) -> Deal:
    """Parse a PBN deal and set trump and opening leader."""
    return Deal(pbn_deal, first=LEADERS[leader.upper()], trump=STRAINS[strain.upper()])


def _solve(deal: Deal) -> int:
    """One DDS ``SolveBoard`` call (optimum score only); returns NS tricks."""
    best = next(iter(solve_board(deal, SolveMode.OptimalOne)))[1]  # leading side's tricks
    return best if deal.first in (Player.north, Player.south) else 13 - best


def dds_solve_ns_tricks(pbn_deal: str, strain: str, leader: str, *, reuse_tt: bool = False) -> int:
    """North-South double-dummy tricks for ``strain`` with ``leader`` on lead.

    :param pbn_deal: full 52-card deal, e.g. ``"N:AKQ2.K3.T98.7654 ..."``
    :param strain: ``"S"``, ``"H"``, ``"D"``, ``"C"`` or ``"NT"``
    :param leader: opening leader, ``"N"``, ``"E"``, ``"S"`` or ``"W"``
    :param reuse_tt: let DDS keep its transposition table from the previous
        call (DDS's own behaviour for an identical deal and trump)
    """
    _ensure_single_thread()
    deal = _prepare(pbn_deal, strain, leader)
    if not reuse_tt:
        _flush_tt()
    return _solve(deal)


def time_solves(
    cases: list[tuple[str, str, str]], *, reuse_tt: bool = False
) -> tuple[list[float], list[int]]:
    """Time the DDS solve for each (deal, strain, leader); returns (ms per solve, NS tricks).

    Only the ``SolveBoard`` call is timed: PBN parsing and the table flush
    (together well under 1 ms) happen outside the timer.  One untimed warm-up
    solve is done first so DDS's first-call memory allocation is not counted.
    """
    _ensure_single_thread()
    if cases:
        dds_solve_ns_tricks(*cases[0])
    times: list[float] = []
    results: list[int] = []
    for pbn, strain, leader in cases:
        deal = _prepare(pbn, strain, leader)
        if not reuse_tt:
            _flush_tt()
        t0 = time.perf_counter()
        results.append(_solve(deal))
        times.append((time.perf_counter() - t0) * 1000.0)
    return times, results


def main() -> None:
    """Time solves on the reference deals and print the median."""
    p = argparse.ArgumentParser(description="Time single-strain, single-leader DDS solves.")
    p.add_argument("--data", type=Path, default=_DATA)
    p.add_argument("--boards", type=int, default=10, help="number of boards (%(default)s)")
    p.add_argument("--reuse-tt", action="store_true", help="do not force a cold DDS table")
    args = p.parse_args()
    data = json.loads(args.data.read_text(encoding="utf-8"))
    cases: list[tuple[str, str, str]] = []
    expected: list[int] = []
    for board in data["boards"][: args.boards]:
        for strain in data["strains"]:
            for i, leader in enumerate(data["leaders"]):
                cases.append((board["deal"], strain, leader))
                expected.append(board["ns_tricks"][strain][i])
    times, results = time_solves(cases, reuse_tt=args.reuse_tt)
    wrong = sum(r != e for r, e in zip(results, expected, strict=True))
    q = statistics.quantiles(times, n=4)
    print(
        f"{len(times)} solves, {wrong} mismatches vs {args.data.name}; ms per solve: "
        f"median {statistics.median(times):.1f}, p25 {q[0]:.1f}, p75 {q[2]:.1f}, "
        f"min {min(times):.1f}, max {max(times):.1f}"
    )


if __name__ == "__main__":
    main()
