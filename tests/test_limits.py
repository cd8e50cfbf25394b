"""Solves stopped by a node or time limit: the bounds they give hold the exact value.

The stored reference values of ``tests/data/reference_endings.json`` (exhaustive
minimax, see ``test_core_vs_reference.py``) are the answers; every limit from a
single node up to none at all must give an interval that contains them, and the
table a stopped search leaves behind must not change a later exact answer.
"""

from __future__ import annotations

import json
import os
import random
import signal
import threading
import time
from fractions import Fraction
from pathlib import Path

import pytest
from reference import random_ending
from test_core_vs_reference import COMBOS, GOLDEN, NAMES, position, same, stored
from typer.testing import CliRunner

from barbu_dd.analyze import DealTable, TableRow, _best_trump, table
from barbu_dd.cards import Seat
from barbu_dd.cli import app
from barbu_dd.contracts import Game
from barbu_dd.errors import ParseError
from barbu_dd.solver import Solution, Solver, solve

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
LIMITS = (1, 7, 60, 400, 3000)


def _within(lo: float, hi: float, want: Fraction) -> bool:
    """lo <= want <= hi, for whole numbers and Ravage City's fractions (floats) alike."""
    return float(lo) - 1e-9 <= float(want) <= float(hi) + 1e-9


def _check(sol: Solution, want: list[Fraction], where: str) -> None:
    assert sol.bounds is not None, where
    for seat, (b, w, v) in enumerate(zip(sol.bounds, want, sol.scores, strict=True)):
        assert b is not None, where
        lo, hi = b
        assert _within(lo, hi, w), f"{where} seat {seat}: bounds {b}, value {w}"
        if v is not None:  # finished: exact
            assert same(v, w) and lo == hi, f"{where} seat {seat}: {v} vs {w}"
        else:
            assert lo != hi, where
    assert sol.exact == all(v is not None for v in sol.scores)


@pytest.mark.parametrize("name", NAMES)
def test_node_limits_bound_the_value(name: str) -> None:
    """Twelve stored positions of each combo (endings and mid-trick), each limit."""
    combo = COMBOS[name]
    games: dict[str | None, Game] = {}
    ps = GOLDEN["combos"][name]["positions"]
    picks = ps[:: max(1, len(ps) // 12)][:12]
    stopped = 0
    for rec in picks:
        game = games.setdefault(rec.get("trump"), combo.game(rec.get("trump")))
        want = [stored(v) for v in rec["values"]]
        for limit in LIMITS:
            sol = Solver(tt_bytes=1 << 16).solve(position(rec), game, node_limit=limit)
            where = f"{name} {rec['deal']} leader {rec['leader']} limit {limit}"
            _check(sol, want, where)
            assert sol.nodes <= limit + 4, where
            stopped += not sol.exact
        for side, v in rec.get("sides", {}).items():
            sol = solve(position(rec), game, side=side, node_limit=25)
            assert sol.value_bounds is not None
            lo, hi = sol.value_bounds
            assert _within(lo, hi, stored(v)), f"{name} side {side}: {sol.value_bounds} vs {v}"
            assert (sol.value is None) == (lo != hi)
    assert stopped > 0  # the limits did stop some searches


@pytest.mark.parametrize("name", NAMES)
def test_one_bound_limits_bound_the_value(name: str) -> None:
    """``bound='lower'`` / ``'upper'``: the limit spent on one bound still gives an
    interval holding the value, and with a generous limit the exact value."""
    combo = COMBOS[name]
    games: dict[str | None, Game] = {}
    ps = GOLDEN["combos"][name]["positions"]
    picks = ps[:: max(1, len(ps) // 6)][:6]
    for rec in picks:
        game = games.setdefault(rec.get("trump"), combo.game(rec.get("trump")))
        want = [stored(v) for v in rec["values"]]
        for bound in ("lower", "upper"):
            for limit in (*LIMITS, 10**9):
                sol = Solver(tt_bytes=1 << 16).solve(
                    position(rec), game, node_limit=limit, bound=bound
                )
                where = f"{name} {rec['deal']} leader {rec['leader']} {bound} {limit}"
                _check(sol, want, where)
            assert sol.exact, where  # no limit reached: exact


def test_one_bound_on_a_full_deal() -> None:
    """On a full deal a one-sided limited solve moves its bound at least as far as a
    two-sided one within the same nodes on these deals (the two-sided search
    spends part of them on the other bound), and never crosses the value."""
    deal = "N:KJT872.75.8643.9 Q653.KJT6.72.A62 A94.A9832.A5.J87 .Q4.KQJT9.KQT543"

    def b(bound: str | None) -> tuple[int, int]:
        sol = Solver(tt_bytes=1 << 22).solve(
            deal, "no-tricks", declarer="N", seats="N", node_limit=300_000, bound=bound
        )
        assert sol.bounds is not None and sol.bounds[0] is not None
        return sol.bounds[0]  # type: ignore[return-value]

    both, lower, upper = b(None), b("lower"), b("upper")
    assert lower[0] >= both[0] and upper[1] <= both[1]
    assert max(both[0], lower[0], upper[0]) <= min(both[1], lower[1], upper[1])
    with pytest.raises(ParseError, match="bound is 'lower' or 'upper'"):
        solve(deal, "no-tricks", declarer="N", seats="N", node_limit=10, bound="both")
    with pytest.raises(ParseError, match="bound goes with a time or node limit"):
        solve("N:A.2.. K.3.. Q.4.. J.5..", "no-tricks", declarer="N", bound="lower")


def test_stopped_search_leaves_a_sound_table() -> None:
    """A solver stopped many times (on the same positions) still gives exact values."""
    name = "classic-no-queens"
    combo = COMBOS[name]
    game = combo.game()
    solver = Solver(tt_bytes=1 << 20)
    for rec in GOLDEN["combos"][name]["positions"][:20]:
        want = [stored(v) for v in rec["values"]]
        for limit in (5, 50, 500):
            solver.solve(position(rec), game, node_limit=limit)
        got = solver.solve(position(rec), game).scores
        assert all(same(g, w) for g, w in zip(got, want, strict=True)), rec["deal"]


def test_time_limit_on_a_full_deal() -> None:
    """No Tricks on a full deal takes seconds; a 0.2 s limit gives bounds."""
    deal = "N:KJT872.75.8643.9 Q653.KJT6.72.A62 A94.A9832.A5.J87 .Q4.KQJT9.KQT543"
    sol = solve(deal, "no-tricks", declarer="N", seats="N", time_limit=0.2)
    assert sol.bounds is not None and sol.bounds[1] is None
    b = sol.bounds[0]
    assert b is not None and -26 <= b[0] <= b[1] <= 0
    assert sol.seconds < 10


@pytest.mark.parametrize("threads", [1, 2])
def test_ctrl_c_stops_a_long_solve(threads: int) -> None:
    """SIGINT during an unlimited solve (minutes on this deal) stops it at once with
    KeyboardInterrupt; the solver's table stays sound and SIGINT goes back to Python.
    (Unstopped, this solve takes about 50 s on the 2-core machine.)"""
    # Python's own handler, even where SIGINT came in ignored (a job started in the
    # background): the search routes SIGINT to itself only when it is not ignored
    prev = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        _ctrl_c_checks(threads)
    finally:
        signal.signal(signal.SIGINT, prev)


def _ctrl_c_checks(threads: int) -> None:
    deal = "N:A54.J6.T762.KJ52 76.T85432.AKQ54. KQ83.KQ9.J8.Q983 JT92.A7.93.AT764"
    solver = Solver(tt_bytes=16 << 20, threads=threads)
    timer = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT))
    t0 = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt):
        solver.solve(deal, "no-tricks", declarer="N", seats="N")
    timer.join()
    assert time.monotonic() - t0 < 20
    # the same solver, on the stored reference positions: exact values
    name = "classic-no-queens"
    game = COMBOS[name].game()
    for rec in GOLDEN["combos"][name]["positions"][:5]:
        want = [stored(v) for v in rec["values"]]
        got = solver.solve(position(rec), game).scores
        assert all(same(g, w) for g, w in zip(got, want, strict=True)), rec["deal"]
    # Python's handler is back: a SIGINT now raises at once
    with pytest.raises(KeyboardInterrupt):
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(5)


def test_without_a_limit_no_bounds() -> None:
    sol = solve("N:A.2.. K.3.. Q.4.. J.5..", "no-tricks", declarer="N")
    assert sol.bounds is None and sol.value_bounds is None and sol.exact
    assert "bounds" not in sol.as_dict() and "exact" not in sol.as_dict()


def test_dominoes_ignores_limits() -> None:
    deal = "N:KJT872.75.8643.9 Q653.KJT6.72.A62 A94.A9832.A5.J87 .Q4.KQJT9.KQT543"
    sol = solve(deal, "dominoes", start="8", declarer="N", node_limit=1)
    assert sol.exact and sol.bounds is not None
    assert all(b is None or b[0] == b[1] for b in sol.bounds)


@pytest.mark.parametrize("kw", [{"time_limit": 0.0}, {"time_limit": -1.0}, {"node_limit": 0}])
def test_bad_limits(kw: dict[str, float]) -> None:
    with pytest.raises(ParseError):
        solve("N:A.2.. K.3.. Q.4.. J.5..", "no-tricks", declarer="N", **kw)  # type: ignore[arg-type]


runner = CliRunner()


def test_cli_node_limit() -> None:
    deals = str(EXAMPLES / "deals.pbn")
    r = runner.invoke(app, ["solve", deals, "-c", "no-queens", "--node-limit", "2000"])
    assert r.exit_code == 0 and "Traceback" not in r.output
    assert ".." in r.stdout and "Stopped by the limit" in r.stdout
    r = runner.invoke(app, ["solve", deals, "-c", "no-queens", "--node-limit", "2000", "--json"])
    assert r.exit_code == 0
    for line in r.stdout.splitlines():
        rec = json.loads(line)
        assert rec["exact"] is False
        for s in "NESW":
            lo, hi = rec["bounds"][s]
            assert lo <= hi
            assert (rec["scores"][s] is None) == (lo != hi)


def test_cli_bad_time_limit() -> None:
    r = runner.invoke(
        app, ["solve", str(EXAMPLES / "ending.pbn"), "-c", "barbu", "--time-limit", "0"]
    )
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert "--time-limit" in r.stderr and len(r.stderr.strip().splitlines()) == 1


# -- the table under a time limit -------------------------------------------------------


def _check_table(lim: DealTable, exact: DealTable) -> int:
    """Every bound of ``lim`` holds ``exact``'s score; returns the scores not finished."""
    unfinished = 0
    assert [r.label for r in lim.rows] == [r.label for r in exact.rows]
    for r, x in zip(lim.rows, exact.rows, strict=True):
        if r.bounds is None:  # Dominoes / Réussite: not limited
            assert r.scores == x.scores, r.label
            continue
        for seat in Seat:
            b, v, w = r.bounds[seat], r.scores[seat], x.scores[seat]
            assert b is not None and w is not None
            assert b[0] <= w <= b[1], f"{r.label} {seat.name}: {b} vs {w}"
            assert v is None if b[0] != b[1] else v == w, f"{r.label} {seat.name}"
            unfinished += v is None
    if lim.best_trump is not None:  # decided by the bounds: the exact answer
        assert lim.best_trump == exact.best_trump
        assert lim.best_trump_value in (None, exact.best_trump_value)
    assert lim.exact == (unfinished == 0)
    return unfinished


def test_table_time_limit_bounds_hold() -> None:
    stopped = 0
    for seed in range(3):
        deal = random_ending(random.Random(seed), 8)
        exact = table(deal, declarer="E")
        assert exact.exact and all(r.bounds is None for r in exact.rows)
        lim = table(deal, declarer="E", time_limit=0.01)
        stopped += _check_table(lim, exact)
        assert lim.as_dict()["exact"] == lim.exact
    assert stopped > 0


def test_table_time_limit_on_worker_processes() -> None:
    deal = random_ending(random.Random(3), 8)
    exact = table(deal, declarer="S")
    _check_table(table(deal, declarer="S", time_limit=0.05, workers=2), exact)


def _trump_row(suit: str, lo: int, hi: int) -> TableRow:
    b = (lo, hi)
    v = lo if lo == hi else None
    return TableRow(f"trumps:{suit}", "trumps", suit, (v, 0, 0, 0), trump=suit, bounds=(b,) * 4)


@pytest.mark.parametrize(
    ("rows", "want"),
    [
        ([("S", 10, 10), ("H", 20, 20), ("D", 20, 20)], ("H", 20)),  # the first on a tie
        ([("S", 0, 15), ("H", 20, 30), ("D", 5, 20)], ("H", None)),  # decided, not exact
        ([("S", 0, 25), ("H", 20, 30)], (None, None)),  # overlapping: undecided
        ([("S", 20, 20), ("H", 10, 20)], ("S", 20)),  # a tie with H: S comes first
        ([("S", 10, 20), ("H", 20, 20)], (None, None)),  # S may reach 20 and come first
        ([("S", 10, 15), ("H", 20, 20)], ("H", 20)),
    ],
)
def test_best_trump_from_bounds(
    rows: list[tuple[str, int, int]], want: tuple[object, object]
) -> None:
    assert _best_trump([_trump_row(*r) for r in rows], Seat.N) == want


def test_cli_table_time_limit(tmp_path: Path) -> None:
    deal = "N:KJT872.75.8643.9 Q653.KJT6.72.A62 A94.A9832.A5.J87 .Q4.KQJT9.KQT543"
    f = tmp_path / "one.pbn"
    f.write_text(f'[Board "1"]\n[Dealer "W"]\n[Deal "{deal}"]\n', encoding="utf-8")
    r = runner.invoke(app, ["table", str(f), "--time-limit", "1", "--json"])
    assert r.exit_code == 0 and "Traceback" not in r.output
    rec = json.loads(r.stdout)
    assert rec["exact"] is False  # No Tricks alone takes far longer than a second
    row = next(x for x in rec["rows"] if x["label"] == "no-tricks")
    for s in "NESW":
        lo, hi = row["bounds"][s]
        assert -26 <= lo <= hi <= 0 and (row["scores"][s] is None) == (lo != hi)
    r = runner.invoke(app, ["table", str(f), "--time-limit", "-2"])
    assert r.exit_code == 1 and "--time-limit" in r.stderr
