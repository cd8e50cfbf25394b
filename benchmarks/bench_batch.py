"""Batch solving: boards a second with 1 and 2 workers, and memory on a 100,000-board file.

Run ``PYTHONPATH=src python benchmarks/bench_batch.py`` (about a minute or two).

1. Throughput: the same file of random endings (``--cards`` a hand, default 6;
   ``--dominoes`` for full deals and Dominoes from the 7) is solved with
   ``workers=1`` (in this process) and ``workers=2`` (a process pool).  Reported:
   the start-up time (to the first result), boards a second after it, and the
   ratio 2 workers / 1 worker, and the CPU time a board (all processes, start-up
   included), and the cores the run got (CPU time / wall time).  On a machine whose
   cores are shared the ratio is below 2: the load average is printed beside it.
   (Linux's autogroup scheduler gives each login session one share of the CPU, so
   under load from other sessions a second worker gets little more CPU: compare
   the cores used.)
2. Memory: a 100,000-board file is generated in a temporary folder (2-card
   endings, so they solve fast) and streamed through ``solve_files`` and a JSON
   Lines writer with 2 workers, stopping after ``--stream`` boards; the parent's
   resident memory (now and peak) and the workers' is printed as it goes.  Flat
   numbers show that neither the input nor the results are held.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import resource
import tempfile
import time
from pathlib import Path

from barbu_dd.batch import make_job, random_boards, solve_files
from barbu_dd.pbn import write_pbn
from barbu_dd.records import ResultWriter


def _rss_mib(pid: int | str = "self") -> float:
    """Resident memory of a process now, MiB (Linux /proc)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _cpu() -> float:
    """CPU seconds of this process and its finished children."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def throughput(
    path: Path, contracts: list[str], workers: int
) -> tuple[float, float, int, float, float]:
    """(seconds to the first result, boards a second after it, boards, CPU seconds,
    wall seconds)."""
    job = make_job(contracts)
    cpu = _cpu()
    t0 = time.perf_counter()
    first = None
    n = 0
    for r in solve_files([path], job, workers=workers):
        assert r.ok, r.error
        n += 1
        if first is None:
            first = time.perf_counter()
    end = time.perf_counter()
    assert first is not None
    return first - t0, (n - 1) / (end - first), n, _cpu() - cpu, end - t0


def memory(folder: Path, total: int, stream: int, workers: int) -> None:
    path = folder / "big.pbn"
    t = time.perf_counter()
    write_pbn(random_boards(total, 1, cards=2), path)
    size = path.stat().st_size / 2**20
    print(f"generated {total:,} boards ({size:.1f} MiB) in {time.perf_counter() - t:.1f} s")
    job = make_job(["barbu", "no-queens", "trumps:H"])
    out = ResultWriter(folder / "big.jsonl", job, force=True)
    marks = {1_000, 5_000, 10_000, 20_000, 50_000, stream}
    print(f"{'boards':>8} {'rss MiB':>8} {'peak MiB':>9} {'workers MiB':>12} {'boards/s':>9}")
    t = time.perf_counter()
    it = solve_files([path], job, workers=workers)
    try:
        for r in it:
            out.write(r)
            if out.written in marks:
                kids = multiprocessing.active_children()  # the pool's workers
                ws = " + ".join(f"{_rss_mib(p.pid or 0):.0f}" for p in kids)
                rate = out.written / (time.perf_counter() - t)
                rss, peak = _rss_mib(), _peak_mib()
                print(f"{out.written:>8,} {rss:>8.1f} {peak:>9.1f} {ws:>12} {rate:>9.0f}")
            if out.written >= stream:
                break
    finally:
        it.close()  # type: ignore[attr-defined]
        out.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--boards", type=int, default=300, help="boards of the throughput file")
    ap.add_argument("--cards", type=int, default=6, help="cards a hand of the endings")
    ap.add_argument("--dominoes", action="store_true", help="full deals, Dominoes from the 7")
    ap.add_argument("--stream", type=int, default=10_000, help="boards streamed for memory")
    ap.add_argument("--total", type=int, default=100_000, help="boards of the memory file")
    ap.add_argument("--skip-throughput", action="store_true")
    ap.add_argument("--skip-memory", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench_batch_") as tmp:
        folder = Path(tmp)
        if not args.skip_throughput:
            path = folder / "bench.pbn"
            if args.dominoes:
                write_pbn(random_boards(args.boards, 11), path)
                contracts = ["dominoes:7"]
            else:
                write_pbn(random_boards(args.boards, 11, cards=args.cards), path)
                contracts = ["barbu", "no-queens", "no-tricks", "trumps:H"]
            what = "full deals" if args.dominoes else f"{args.cards}-card endings"
            print(f"throughput: {args.boards} {what}, contracts {' '.join(contracts)}")
            rates = {}
            for w in (1, 2):
                load = os.getloadavg()[0]
                start, rate, n, cpu, wall = throughput(path, contracts, w)
                rates[w] = rate
                print(
                    f"  workers={w}: {rate:7.1f} boards/s after a {start:.2f} s start, "
                    f"{1000 * cpu / n:.1f} CPU ms a board, {cpu / wall:.2f} cores used "
                    f"({n} boards; load average {load:.2f} on {os.cpu_count()} cores)"
                )
            print(f"  ratio 2 workers / 1 worker: {rates[2] / rates[1]:.2f}")
        if not args.skip_memory:
            print(f"memory: streaming {args.stream:,} of {args.total:,} boards, 2 workers")
            memory(folder, args.total, args.stream, 2)


if __name__ == "__main__":
    main()
