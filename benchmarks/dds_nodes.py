"""Search size against DDS: tricks completed in the search, bridge form.

``PYTHONPATH=src python benchmarks/dds_nodes.py [--deals 6]``

DDS reports the size of a search as the number of tricks it completed
(``futureTricks.nodes``); barbu-dd counts the same thing
(``Solver.last_stats["trick_nodes"]``).  For each benchmark deal (notrump, West on
lead, side NS, a cold table for both) this prints both counts and their ratio:
unlike times, the counts are exact and repeatable on a shared machine.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import endplay._dds as _dds  # noqa: E402
from dds_peer import _ensure_single_thread, _flush_tt, _prepare  # noqa: E402
from deals import BENCH_DEALS  # noqa: E402

from barbu_dd.contracts import make_game  # noqa: E402
from barbu_dd.solver import Solver  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=6)
    args = ap.parse_args()
    _ensure_single_thread()
    solver = Solver()
    game = make_game("tricks", rules="bridge", trump="NT")
    ratios = []
    for i, deal in enumerate(BENCH_DEALS[: args.deals]):
        pbn = deal if isinstance(deal, str) else deal.to_pbn()
        _flush_tt()
        fut = _dds.futureTricks()
        _dds.SolveBoard(_prepare(pbn, "NT", "W")._data, -1, 1, 1, fut, 0)
        solver.clear()
        sol = solver.solve(deal, game, declarer="W", side="NS")
        ours = solver._core.last_stats["trick_nodes"]
        ratios.append(ours / fut.nodes)
        print(
            f"deal {i:2d}: DDS {fut.nodes:>9,d} tricks  barbu-dd {ours:>10,d} tricks "
            f"({sol.nodes:,d} nodes)  ratio {ratios[-1]:6.1f}"
        )
    print(f"median ratio {statistics.median(ratios):.1f}")


if __name__ == "__main__":
    main()
