"""Batch solving: contract specs, the loop, the process pool and Dask agree; result
files, resume after kill -9, bad boards, and the ``deal`` and ``batch`` commands.

Full 52-card deals are slow for the trick contracts, so the boards here are small
random endings (``random_boards(..., cards=4)``) and Dominoes endings.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from reference import random_domino_ending
from typer.testing import CliRunner

from barbu_dd.batch import (
    BoardResult,
    ContractSpec,
    iter_solve,
    make_job,
    parse_contract,
    random_boards,
    solve_files,
    solve_many,
    table_contracts,
)
from barbu_dd.cards import Rank, Seat
from barbu_dd.cli import app
from barbu_dd.contracts import make_game
from barbu_dd.deal import Deal
from barbu_dd.dominoes import possible_starts
from barbu_dd.errors import InvalidPositionError, ParseError
from barbu_dd.pbn import read_pbn, write_pbn
from barbu_dd.records import DoneSet, ResultWriter, errors_path, journal_path, read_records
from barbu_dd.solver import Solver

SRC = Path(__file__).resolve().parents[1] / "src"
CONTRACTS = ["barbu", "no-queens", "trumps:H"]
runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    r = runner.invoke(app, list(args))
    assert "Traceback" not in r.output
    return r.exit_code, r.stdout, r.stderr


@pytest.fixture(scope="module")
def endings(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """36 random 4-card endings, dealer rotating."""
    path = tmp_path_factory.mktemp("batch") / "endings.pbn"
    write_pbn(random_boards(36, 2026, cards=4, event="test"), path)
    return path


@pytest.fixture(scope="module")
def expected(endings: Path) -> np.ndarray:
    """The plain loop: one Solver, board after board."""
    solver = Solver(tt_bytes=1 << 22)
    rows = []
    for b in read_pbn(endings):
        decl = b.declarer()
        rows.append([solver.solve(b.deal, parse_game(c), declarer=decl).scores for c in CONTRACTS])
    return np.array(rows, dtype=float)


def parse_game(label: str):  # type: ignore[no-untyped-def]
    name, _, arg = label.partition(":")
    return make_game(name, trump=arg or None)


def scores_of(rec: dict, labels: list[str]) -> list[list[float]]:  # type: ignore[type-arg]
    """A record's scores (JSON Lines nested, or a flat CSV/Parquet row), NaN for none."""
    if "scores" in rec:
        rows = [[rec["scores"][lb][s] for s in "NESW"] for lb in labels]
    else:
        rows = [[rec[f"{lb}.{s}"] for s in "NESW"] for lb in labels]
    return [[np.nan if v is None else float(v) for v in r] for r in rows]


def by_key(path: Path, labels: list[str]) -> dict[tuple[str, int], list[list[float]]]:
    out = {}
    for rec in read_records(path):
        key = (rec["file"], rec["index"])
        assert key not in out, f"board written twice: {key}"
        out[key] = scores_of(rec, labels)
    return out


def as_array(got: dict[tuple[str, int], list[list[float]]], n: int) -> np.ndarray:
    assert sorted(i for _, i in got) == list(range(1, n + 1))
    return np.array([got[k] for k in sorted(got, key=lambda k: k[1])])


# -- contract specs and jobs ------------------------------------------------------------


def test_parse_contract() -> None:
    assert parse_contract("trumps:h") == ContractSpec("trumps", trump="H")
    assert parse_contract("trumps", trump="C").label == "trumps:C"
    assert parse_contract("dominoes").label == "dominoes:J"
    assert parse_contract("dominoes:best").start == "best"
    assert parse_contract("dominoes", start="9").label == "dominoes:9"
    assert parse_contract("reussite", "french").label == "reussite"
    assert parse_contract("tricks", "bridge").label == "tricks:NT"
    assert parse_contract("tricks:s", "bridge").label == "tricks:S"
    with pytest.raises(ParseError, match="needs a trump suit"):
        parse_contract("trumps")
    with pytest.raises(ParseError, match="takes no argument"):
        parse_contract("barbu:H")
    with pytest.raises(ParseError, match="unknown contract"):
        parse_contract("bogus")
    with pytest.raises(ParseError, match="not played in the french"):
        parse_contract("trumps:H", "french")
    with pytest.raises(ParseError, match="Jacks"):
        parse_contract("reussite:9", "french")


def test_table_contracts() -> None:
    labels = [s.label for s in table_contracts("classic", ["ravage-city"])]
    assert labels == [
        "no-tricks",
        "no-hearts",
        "no-queens",
        "barbu",
        "no-last-two",
        "trumps:S",
        "trumps:H",
        "trumps:D",
        "trumps:C",
        "dominoes:best",
        "ravage",
    ]
    assert [s.label for s in table_contracts("french")] == [
        "no-tricks",
        "no-hearts",
        "no-queens",
        "barbu",
        "no-last-two",
        "salad",
        "reussite",
    ]
    assert [s.label for s in table_contracts("bridge")][0] == "tricks:NT"


def test_make_job_errors() -> None:
    with pytest.raises(ParseError, match="no contract"):
        make_job([])
    with pytest.raises(ParseError, match="given twice: barbu"):
        make_job(["barbu", "kh"])
    with pytest.raises(ParseError, match=r"trumps:S: already in the whole table \(--table\)"):
        make_job(["trumps:S"], table=True)
    with pytest.raises(ParseError, match="--trump 'H' is for trumps"):
        make_job(["barbu"], trump="H")
    with pytest.raises(ParseError, match="--start '9' is for dominoes"):
        make_job(["barbu"], start="9")
    job = make_job(None, table=True, declarer="s")
    assert job.declarer == Seat.S and len(job.specs) == 10
    assert job.games[-1] is None  # dominoes:best


# -- the loop, the pool and Dask agree ----------------------------------------------------


def test_loop_matches_solver(endings: Path, expected: np.ndarray) -> None:
    boards = list(read_pbn(endings))
    got = solve_many(boards, CONTRACTS, workers=1)
    assert got.shape == (36, 3, 4) and got.dtype == np.float64
    np.testing.assert_array_equal(got, expected)
    # the iterator form, in input order, with each board's declarer from its Dealer
    res = list(iter_solve(boards, CONTRACTS, workers=1))
    assert [r.position for r in res] == list(range(36))
    assert [r.declarer for r in res[:4]] == [Seat.E, Seat.S, Seat.W, Seat.N]


def test_pool_and_dask_match_the_loop(endings: Path, expected: np.ndarray) -> None:
    distributed = pytest.importorskip("distributed")
    boards = list(read_pbn(endings))
    pool = solve_many(boards, CONTRACTS, workers=2, chunk_size=2)
    np.testing.assert_array_equal(pool, expected)
    with (
        # worker processes, as on a cluster: the tasks and results cross process lines
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        assert os.getpid() not in client.run(os.getpid).values()
        dask = solve_many(boards, CONTRACTS, scheduler=client)
        np.testing.assert_array_equal(dask, expected)
        # the CLI on the same cluster, by its address
        code, out, err = run(
            "batch", str(endings), *sum((["-c", c] for c in CONTRACTS), []),
            "--scheduler", cluster.scheduler_address, "-q",
        )  # fmt: skip
        assert code == 0, err
        recs = [json.loads(line) for line in out.splitlines()]
        got = {r["index"]: scores_of(r, CONTRACTS) for r in recs}
        np.testing.assert_array_equal(np.array([got[i] for i in range(1, 37)]), expected)


def test_unordered_and_window(endings: Path, expected: np.ndarray) -> None:
    boards = list(read_pbn(endings))
    res = list(iter_solve(boards, CONTRACTS, workers=1, ordered=False, max_pending=3))
    assert sorted(r.position for r in res) == list(range(36))
    for r in res:
        np.testing.assert_array_equal(r.array(), expected[r.position])


def test_dominoes_best_and_no_score() -> None:
    rng = random.Random(5)
    game = make_game("dominoes", start="9")
    deals = []
    for _ in range(6):
        pos = random_domino_ending(rng, game, sizes=(2, 5), max_out=1)
        deals.append(Deal(list(pos.hands), leader=pos.to_move))
    got = solve_many(deals, ["dominoes:best", "dominoes:9"], workers=1)
    solver = Solver(tt_bytes=1 << 22)
    for k, d in enumerate(deals):
        assert d.leader is not None
        choice = solver.best_start(d, d.leader)
        want = [np.nan if v is None else v for v in choice.solution.scores]
        np.testing.assert_array_equal(got[k, 0], want)
        nine = solver.solve(d, game, declarer=d.leader).scores
        np.testing.assert_array_equal(got[k, 1], [np.nan if v is None else v for v in nine])
    assert np.isnan(got).any()  # a seat already out has no score


def test_dominoes_layout_that_does_not_fit_has_no_score() -> None:
    # 3-card endings: a Dominoes start or the Réussite's Jacks whose table is no
    # layout gives null scores, and the board's other contracts still count.
    boards = list(random_boards(12, 4, cards=3))
    rs = list(iter_solve(boards, ["barbu", "dominoes:9", "dominoes:best"], workers=1))
    starts = [possible_starts([b.deal.mask(s) for s in Seat]) for b in boards]
    assert not all(Rank.R9 in st for st in starts)
    for r, st in zip(rs, starts, strict=True):
        assert r.ok and None not in r.scores[0]
        assert (r.scores[1] == (None,) * 4) == (Rank.R9 not in st)
        assert (r.scores[2] == (None,) * 4) == (not st) and (r.starts[2] is None) == (not st)
    french = list(iter_solve(boards, table_contracts("french"), rules="french", workers=1))
    assert all(r.ok for r in french)
    assert any(r.scores[-1] == (None,) * 4 for r in french)  # the Réussite


def test_solve_many_errors() -> None:
    deals = ["N:A... 2... 3... 4...", "N:A... 2... 3... 45..."]
    with pytest.raises(InvalidPositionError, match="deal 1: barbu: "):
        solve_many(deals, "barbu", declarer="N", workers=1)
    got = solve_many(deals, "barbu", declarer="N", workers=1, errors="nan")
    assert not np.isnan(got[0]).any() and np.isnan(got[1]).all()
    with pytest.raises(InvalidPositionError, match="no declarer"):
        solve_many(["N:A... 2... 3... 4..."], "barbu", workers=1)
    assert solve_many([], "barbu", workers=1).shape == (0, 1, 4)


# -- bad boards ---------------------------------------------------------------------------

BAD_PBN = """\
[Board "1"]
[Dealer "N"]
[Deal "N:A... 2... 3... 4..."]

[Board "2"]
[Dealer "N"]
[Deal "N:AX... 2... 3... 4..."]

[Board "3"]
[Dealer "E"]
[Deal "N:A... A... 3... 4..."]

[Board "4"]
[Deal "N:K... 2... 3... 4..."]

[Board "5"]
[Dealer "S"]
[Deal "N:AK... 2... 3... 4..."]

[Board "6"]
[Dealer "W"]
[Deal "N:.A.. .2.. .3.. .4.."]
"""


def test_bad_boards_skipped_and_reported(tmp_path: Path) -> None:
    src = tmp_path / "bad.pbn"
    src.write_text(BAD_PBN)
    out = tmp_path / "out.jsonl"
    code, _, err = run("batch", str(src), "-c", "barbu", "-o", str(out), "-w", "1")
    assert code == 1
    assert "2 boards solved, 0 already done, 4 bad" in err
    assert f"{src}, board 2: invalid card" in err
    recs = list(read_records(out))
    assert [r["index"] for r in recs] == [1, 6]
    errors = [json.loads(x) for x in errors_path(out).read_text().splitlines()]
    assert [(e["index"], e["board"], e["kind"]) for e in errors] == [
        (2, "2", "ParseError"),
        (3, "3", "InvalidPositionError"),
        (4, "4", "ParseError"),
        (5, "5", "InvalidPositionError"),
    ]
    assert "dealt twice" in errors[1]["reason"] and "no Dealer" in errors[2]["reason"]
    assert errors[3]["reason"].startswith(f"{src}, board 5: barbu: ")
    # resuming solves nothing more, reports the bad boards again, writes no board twice
    code, _, err = run("batch", str(src), "-c", "barbu", "-o", str(out), "-w", "1", "--resume")
    assert code == 1 and "0 boards solved, 2 already done, 4 bad" in err
    assert len(list(read_records(out))) == 2
    assert len(errors_path(out).read_text().splitlines()) == 4


def test_solve_files_skips_done(endings: Path) -> None:
    job = make_job(["barbu"])
    done = DoneSet()
    for i in range(1, 31):
        done.add(str(endings), i)
    counts: dict[str, int] = {}
    res = list(solve_files([endings], job, workers=1, done=done, counts=counts, ordered=True))
    assert [r.index for r in res] == list(range(31, 37)) and counts["skipped"] == 30
    assert all(isinstance(r, BoardResult) and r.ok for r in res)


# -- result files, resume -------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "parquet"])
def test_formats_and_resume(tmp_path: Path, endings: Path, expected: np.ndarray, fmt: str) -> None:
    if fmt == "parquet":
        pytest.importorskip("pyarrow")
    out = tmp_path / f"out.{fmt}"
    args = ["batch", str(endings), *sum((["-c", c] for c in CONTRACTS), []), "-w", "1"]
    code, _, err = run(*args, "-o", str(out))
    assert code == 0, err
    assert "36 boards solved, 0 already done, 0 bad" in err
    np.testing.assert_array_equal(as_array(by_key(out, CONTRACTS), 36), expected)
    # an existing output is not replaced without --force
    code, _, err = run(*args, "-o", str(out))
    assert code == 1 and "exists: give --resume" in err
    # a run cut short: the first 10 records and half a line (parquet: a journal)
    recs = list(read_records(out))
    cut = out if fmt != "parquet" else journal_path(out)
    if fmt == "parquet":
        out.unlink()
        lines = [json.dumps(r) + "\n" for r in recs[:10]]
    elif fmt == "csv":
        lines = out.read_text().splitlines(keepends=True)[:11]
    else:
        lines = out.read_text().splitlines(keepends=True)[:10]
    cut.write_text("".join(lines) + lines[-1][:25])
    assert len(list(read_records(out))) == 10  # the unfinished line is left out
    code, _, err = run(*args, "-o", str(out), "--resume")
    assert code == 0, err
    assert "26 boards solved, 10 already done, 0 bad" in err
    np.testing.assert_array_equal(as_array(by_key(out, CONTRACTS), 36), expected)
    assert not journal_path(out).exists()
    # resuming with other contracts is refused
    code, _, err = run("batch", str(endings), "-c", "barbu", "-o", str(out), "--resume")
    assert code == 1 and "other contracts" in err
    # --force replaces
    code, _, err = run("batch", str(endings), "-c", "barbu", "-o", str(out), "--force", "-w", "1")
    assert code == 0 and len(list(read_records(out))) == 36


def test_parquet_resume_merges(tmp_path: Path, endings: Path) -> None:
    pytest.importorskip("pyarrow")
    first = tmp_path / "first.pbn"
    write_pbn(list(read_pbn(endings))[:5], first)
    out = tmp_path / "out.parquet"
    assert run("batch", str(first), "-c", "barbu", "-o", str(out), "-w", "1")[0] == 0
    code, _, err = run(
        "batch", str(first), str(endings), "-c", "barbu", "-o", str(out), "-w", "1", "--resume"
    )
    assert code == 0 and "36 boards solved, 5 already done" in err
    keys = [(r["file"], r["index"]) for r in read_records(out)]
    assert len(keys) == len(set(keys)) == 41


def test_parquet_by_other_names(tmp_path: Path, endings: Path) -> None:
    # A Parquet output named .pq, or given by --format with another suffix, is never
    # cut like a line file when resumed, and a journal holding a board twice is
    # written out with its last record.
    pytest.importorskip("pyarrow")
    first = tmp_path / "first.pbn"
    write_pbn(list(read_pbn(endings))[:5], first)
    for out, extra in [(tmp_path / "out.pq", []), (tmp_path / "out.bin", ["-f", "parquet"])]:
        args = ["batch", str(first), "-c", "barbu", "-o", str(out), "-w", "1", *extra]
        assert run(*args)[0] == 0
        size = out.stat().st_size
        code, _, err = run(*args, "--resume")
        assert code == 0 and "0 boards solved, 5 already done" in err, err
        assert out.stat().st_size == size and len(list(read_records(out, "parquet"))) == 5
        recs = list(read_records(out, "parquet"))
        late = dict(recs[2], nodes=777)
        out.unlink()
        journal_path(out).write_text("".join(json.dumps(r) + "\n" for r in [*recs, late]))
        code, _, err = run(*args, "--resume")
        assert code == 0 and "5 already done" in err, err
        after = list(read_records(out, "parquet"))
        assert len(after) == 5 and after[-1]["nodes"] == 777 and not journal_path(out).exists()


def test_json_record_fields(tmp_path: Path, endings: Path) -> None:
    code, out, _ = run(
        "batch", str(endings), "-c", "barbu", "-c", "trumps", "--trump", "S",
        "-w", "1", "-q", "--declarer", "W", "--variant", "king-duty",
    )  # fmt: skip
    assert code == 0
    rec = json.loads(out.splitlines()[0])
    assert rec["file"] == str(endings) and rec["index"] == 1
    assert rec["tags"]["Event"] == "test" and rec["tags"]["Board"] == "1"
    assert rec["declarer"] == "W" and rec["variants"] == ["king-duty"]
    assert list(rec["scores"]) == ["barbu", "trumps:S"]
    assert set(rec["nodes"]) == set(rec["seconds"]) == {"barbu", "trumps:S"}
    want = Solver().solve(rec["tags"]["Deal"], "barbu", declarer="W", variants=["king-duty"])
    assert tuple(rec["scores"]["barbu"][s] for s in "NESW") == want.scores


def test_batch_cli_errors(tmp_path: Path, endings: Path) -> None:
    e = str(endings)
    for args, msg in [
        (["-c", "bogus"], "unknown contract"),
        ([], "no contract given"),
        (["-c", "barbu", "--format", "xml"], "unknown format"),
        (["-c", "barbu", "--format", "parquet"], "parquet output needs a file"),
        (["-c", "barbu", "--resume"], "--resume needs the output file"),
        (["-c", "barbu", "--retry-open", "--time-limit", "1"], "--retry-open needs the output"),
        (["-c", "barbu", "--dask", "remote"], "--dask takes 'local'"),
        (["-c", "barbu", "--dask", "local", "--scheduler", "tcp://x:1"], "not both"),
        (["-c", "barbu", e], "a file is given twice"),
        (["-c", "barbu", "--rules", "french", "--table"], "already in the whole table"),
    ]:
        code, _, err = run("batch", e, *args)
        assert code == 1 and msg in err and err.count("\n") == 1, (args, err)
    code, _, err = run("batch", str(tmp_path / "none.pbn"), "-c", "barbu", "-w", "1")
    assert code == 1 and "none.pbn" in err


# -- a time limit a board ---------------------------------------------------------------

#: Two full deals: No Tricks takes seconds on each, far more than a millisecond.
FULL = [
    "N:J843.A85.AQJ84.2 KQ9.T963.97.T965 752.KJ72.K5.AQJ4 AT6.Q4.T632.K873",
    "E:QJ653.AQ92.2.432 K84.KT76.J9.AJ85 .J853.AK8643.KT7 AT972.4.QT75.Q96",
]


def check_bounds(r: BoardResult) -> None:
    """A limited result's scores and bounds agree: a score is given iff its interval
    is one value, and ``exact`` iff every interval is."""
    assert len(r.bounds) == len(r.scores)
    for row, brow in zip(r.scores, r.bounds, strict=True):
        for v, b in zip(row, brow, strict=True):
            assert b is not None and b[0] <= b[1]
            assert v == (b[0] if b[0] == b[1] else None)
    assert r.exact == all(b is not None and b[0] == b[1] for row in r.bounds for b in row)


def test_time_limit_bounds_hold_the_exact_scores(endings: Path, expected: np.ndarray) -> None:
    # The endings under a limit (most finish at once): every exact score lies in
    # the interval proved, and a finished one is the exact score.
    job = make_job(CONTRACTS, time_limit=1e-3)
    results = list(solve_files([endings], job, workers=1, ordered=True))
    assert len(results) == 36
    for r, want in zip(results, expected, strict=True):
        check_bounds(r)
        for brow, wrow in zip(r.bounds, want, strict=True):
            for b, w in zip(brow, wrow, strict=True):
                assert b is not None and b[0] <= w <= b[1]
    # without a limit a result has no bounds and is exact
    r0 = next(iter_solve([FULL[0]], "trumps:S", declarer="N", workers=1))
    assert r0.bounds == () and r0.exact


def test_time_limit_stops_a_slow_board() -> None:
    # No Tricks on full deals with a millisecond: intervals; Dominoes still exact;
    # solve_many gives NaN for what is not finished.
    rs = list(iter_solve(FULL, ["no-tricks", "dominoes:best"], declarer="S", workers=1,
                         time_limit=1e-3))  # fmt: skip
    for r in rs:
        check_bounds(r)
        assert not r.exact
        assert all(v is None for v in r.scores[0]) and None not in r.scores[1]
        assert all(b is not None and -26 <= b[0] < b[1] <= 0 for b in r.bounds[0])
    a = solve_many(FULL, "no-tricks", declarer="S", workers=1, time_limit=1e-3)
    assert a.shape == (2, 1, 4) and np.isnan(a).all()
    with pytest.raises(ParseError, match="time limit"):
        make_job("barbu", time_limit=0)
    with pytest.raises(ParseError, match="own time limit"):
        iter_solve(FULL, make_job("barbu"), time_limit=1.0)


def test_one_worker_gives_each_board_before_the_next() -> None:
    # In this process each board's result comes out before the next board is read
    # (and solved): a run killed loses no board it finished.
    pulled = 0

    def deals():  # type: ignore[no-untyped-def]
        nonlocal pulled
        for b in random_boards(5, 7, cards=3):
            pulled += 1
            yield b

    for k, r in enumerate(iter_solve(deals(), "barbu", workers=1)):
        assert r.ok and pulled == k + 1


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "parquet"])
def test_time_limit_records(tmp_path: Path, fmt: str) -> None:
    if fmt == "parquet":
        pytest.importorskip("pyarrow")
    pbn = tmp_path / "full.pbn"
    pbn.write_text(
        "".join(f'[Board "{i}"]\n[Dealer "N"]\n[Deal "{d}"]\n\n' for i, d in enumerate(FULL, 1))
    )
    out = tmp_path / f"out.{fmt}"
    args = ["batch", str(pbn), "-c", "no-tricks", "-c", "dominoes:9", "-w", "1", "-o", str(out)]
    code, _, err = run(*args, "--time-limit", "0.001")
    assert code == 0, err
    assert "2 boards solved (2 with scores not finished)" in err
    recs = list(read_records(out))
    assert len(recs) == 2
    for rec in recs:
        assert rec["exact"] is False and rec["time_limit"] == 0.001
        if fmt == "jsonl":
            lo, hi = rec["bounds"]["no-tricks"]["N"]
            assert rec["scores"]["no-tricks"]["N"] is None and -26 <= lo < hi <= 0
            assert rec["bounds"]["dominoes:9"]["S"] == [rec["scores"]["dominoes:9"]["S"]] * 2
        else:
            lo, hi = rec["no-tricks.N.lo"], rec["no-tricks.N.hi"]
            assert rec["no-tricks.N"] is None and -26 <= lo < hi <= 0
            assert rec["dominoes:9.S.lo"] == rec["dominoes:9.S.hi"] == rec["dominoes:9.S"]
    # resuming needs the same options: with a limit again, not without one
    code, _, err = run(*args, "--resume")
    assert code == 1 and "resume with the same options" in err and err.count("\n") == 1
    code, _, err = run(*args, "--time-limit", "0.001", "--resume")
    assert code == 0 and "0 boards solved (0 with scores not finished), 2 already done" in err
    code, _, err = run("batch", str(pbn), "-c", "barbu", "--time-limit", "-1")
    assert code == 1 and err.startswith("error: --time-limit must be") and err.count("\n") == 1


def _open_up(rec: dict, labels: list[str]) -> dict:  # type: ignore[type-arg]
    """A finished record made to look left open by a time limit (North's first score)."""
    rec = json.loads(json.dumps(rec))
    lb = labels[0]
    rec["exact"] = False
    if "scores" in rec:
        v = rec["scores"][lb]["N"]
        rec["scores"][lb]["N"] = None
        rec["bounds"][lb]["N"] = [v - 20, v]
    else:
        v = rec[f"{lb}.N"]
        rec[f"{lb}.N"] = None
        rec[f"{lb}.N.lo"] = v - 20
    return rec


def _rewrite(out: Path, fmt: str, recs: list[dict]) -> None:  # type: ignore[type-arg]
    """Put records back in an output (Parquet: as the journal of a killed run)."""
    if fmt == "jsonl":
        out.write_text("".join(json.dumps(r) + "\n" for r in recs))
    elif fmt == "csv":
        import csv

        with open(out, "w", newline="") as f:
            w = csv.DictWriter(f, list(recs[0]), lineterminator="\n")
            w.writeheader()
            w.writerows(recs)
    else:
        out.unlink()
        journal_path(out).write_text("".join(json.dumps(r) + "\n" for r in recs))


@pytest.mark.parametrize("fmt", ["jsonl", "csv", "parquet"])
def test_retry_open(tmp_path: Path, endings: Path, expected: np.ndarray, fmt: str) -> None:
    # Boards left open are solved again with --retry-open and their new records
    # replace the old; a board written twice (a retry killed before its end) keeps
    # its last record after any resume.
    if fmt == "parquet":
        pytest.importorskip("pyarrow")
    out = tmp_path / f"out.{fmt}"
    args = ["batch", str(endings), *sum((["-c", c] for c in CONTRACTS), []), "-w", "1"]
    args += ["-o", str(out), "--time-limit", "30"]
    code, _, err = run(*args)
    assert code == 0 and "36 boards solved (0 with scores not finished)" in err, err
    recs = list(read_records(out))
    assert all(r["exact"] is True for r in recs)
    opened = {3, 7, 20}
    _rewrite(out, fmt, [_open_up(r, CONTRACTS) if r["index"] in opened else r for r in recs])
    got = by_key(out, CONTRACTS)
    assert all(np.isnan(got[(str(endings), i)][0][0]) for i in opened)
    # --resume alone keeps them as they are
    code, _, err = run(*args, "--resume")
    assert code == 0 and "0 boards solved (0 with scores not finished), 36 already done" in err
    # --retry-open solves them again, and each board has one record, the new one
    code, _, err = run(*args, "--retry-open")
    assert code == 0, err
    assert "3 boards solved (0 with scores not finished), 33 already done, 3 of 3 open" in err
    np.testing.assert_array_equal(as_array(by_key(out, CONTRACTS), 36), expected)
    recs = list(read_records(out))
    assert len(recs) == 36 and all(r["exact"] is True for r in recs)
    assert not journal_path(out).exists() and not Path(f"{out}.tmp").exists()
    # a later record of a board supersedes an earlier one, kept at the next resume
    late = json.loads(json.dumps(recs[4]))
    late["nodes" if fmt != "jsonl" else "tags"] = 12345 if fmt != "jsonl" else {"Board": "x"}
    _rewrite(out, fmt, [*recs, late])
    code, _, err = run(*args, "--resume")
    assert code == 0 and "36 already done" in err
    after = list(read_records(out))
    assert len(after) == 36 and after[35] == late and sum(r == late for r in after) == 1
    # needs a limit; not with --force
    for extra, msg in [(["--retry-open"], "needs --time-limit"),
                       (["--retry-open", "--force", "--time-limit", "1"], "not both")]:  # fmt: skip
        code, _, err = run(*args[:-2], *extra)
        assert code == 1 and msg in err and err.count("\n") == 1, err


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_retry_meets_the_old_intervals(tmp_path: Path, fmt: str) -> None:
    # A board solved again keeps what its old record proved: each new interval is
    # met with the old one, and one that meets in a single value is a score.
    pbn = tmp_path / "full.pbn"
    pbn.write_text(
        "".join(f'[Board "{i}"]\n[Dealer "N"]\n[Deal "{d}"]\n\n' for i, d in enumerate(FULL, 1))
    )
    out = tmp_path / f"out.{fmt}"
    args = ["batch", str(pbn), "-c", "no-tricks", "-w", "1", "-o", str(out), "--time-limit", "0.05"]
    assert run(*args)[0] == 0
    job = make_job(["no-tricks"], time_limit=0.05)
    old = {r["index"]: r for r in read_records(out)}

    def proved(rec: dict) -> list[tuple[int, int]]:  # type: ignore[type-arg]
        if fmt == "jsonl":
            return [tuple(rec["bounds"]["no-tricks"][s]) for s in "NESW"]  # type: ignore[misc]
        return [(rec[f"no-tricks.{s}.lo"], rec[f"no-tricks.{s}.hi"]) for s in "NESW"]

    w = ResultWriter(out, job, retry_open=True)
    assert w.reopened == 2 and len(w.done) == 0
    before = proved(old[1])
    # the new search proves less on N..W, but meets N's old lower bound from below
    wide = [(-26, 0)] * 4
    wide[0] = (before[0][0] - 8, before[0][0])
    r = BoardResult(0, scores=((None,) * 4,), starts=(None,), nodes=(1,), seconds=(0.1,),
                    declarer=Seat.E, file=str(pbn), index=1, tags={"Board": "1"},
                    bounds=(tuple(wide),))  # type: ignore[arg-type]  # fmt: skip
    met = w.write(r)
    assert met.bounds[0][0] == (before[0][0],) * 2 and met.scores[0][0] == before[0][0]
    w.close()
    recs = {r["index"]: r for r in read_records(out)}
    assert len(recs) == 2 and len(list(read_records(out))) == 2
    got = proved(recs[1])
    assert got[0] == (before[0][0], before[0][0]) and got[1:] == before[1:]
    n_score = recs[1]["scores"]["no-tricks"]["N"] if fmt == "jsonl" else recs[1]["no-tricks.N"]
    assert n_score == before[0][0]
    assert recs[2] == old[2]


# -- kill -9 and resume ------------------------------------------------------------------


def _children(pid: int) -> list[int]:
    out = []
    for d in Path("/proc").iterdir():
        if d.name.isdigit():
            try:
                stat = (d / "stat").read_text()
            except OSError:
                continue
            if int(stat.rpartition(")")[2].split()[1]) == pid:
                out.append(int(d.name))
    return out


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rpartition(")")[2].split()[0] != "Z"


def test_kill_9_and_resume(tmp_path: Path) -> None:
    src = tmp_path / "many.pbn"
    n = 500
    write_pbn(random_boards(n, 99, cards=3), src)
    out = tmp_path / "out.jsonl"
    args = ["batch", str(src), "-c", "barbu", "-c", "no-queens", "-o", str(out), "-q"]
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    # One board a task: with automatic chunks an idle machine solves the 500 tiny
    # boards in a few tasks, all written before the kill lands.
    proc = subprocess.Popen(
        [sys.executable, "-m", "barbu_dd", *args, "-w", "2", "--chunk", "1"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            workers = [w for w in _children(proc.pid) if w != proc.pid] or workers
            if out.exists() and out.read_bytes().count(b"\n") >= 30:
                break
            time.sleep(0.01)
        assert proc.poll() is None, "the run ended before it could be killed"
        workers = _children(proc.pid)
        proc.send_signal(signal.SIGKILL)
        proc.wait(10)
        # the pool's workers see their parent die and exit
        deadline = time.monotonic() + 20
        while any(_alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(_alive(w) for w in workers)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(10)
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    partial = len(list(read_records(out)))
    assert 30 <= partial < n
    code, _, err = run(*args, "-w", "1", "--resume")
    assert code == 0, err
    assert f"{n - partial} boards solved, {partial} already done, 0 bad" in err
    got = as_array(by_key(out, ["barbu", "no-queens"]), n)
    want = solve_many(read_pbn(src), ["barbu", "no-queens"], workers=1)
    np.testing.assert_array_equal(got, want)


# -- deal --------------------------------------------------------------------------------


def test_deal_reproducible_and_rotating(tmp_path: Path) -> None:
    code, out, _ = run("deal", "-n", "6", "--seed", "42")
    assert code == 0 and out.startswith("% PBN 2.1\n% barbu-dd deal -n 6 --seed 42\n")
    assert run("deal", "-n", "6", "--seed", "42")[1] == out
    assert run("deal", "-n", "6", "--seed", "43")[1] != out
    boards = list(read_pbn(__import__("io").StringIO(out)))
    assert [b.number for b in boards] == [1, 2, 3, 4, 5, 6]
    assert [b.tags["Dealer"] for b in boards] == ["N", "E", "S", "W", "N", "E"]
    assert [b.tags["Deal"][0] for b in boards] == ["N", "E", "S", "W", "N", "E"]
    for b in boards:
        b.deal.validate(full=True)
    # the first boards of a longer run are the same
    path = tmp_path / "d.pbn"
    assert run("deal", "-n", "9", "--seed", "42", "-o", str(path), "--event", "Club")[0] == 0
    longer = list(read_pbn(path))
    assert [b.deal for b in longer[:6]] == [b.deal for b in boards]
    assert longer[0].tags["Event"] == "Club"
    # endings, and the first board number
    code, out, _ = run("deal", "-n", "2", "--seed", "1", "--cards", "3", "--first", "7")
    ends = list(read_pbn(__import__("io").StringIO(out)))
    assert [(b.number, b.tags["Dealer"]) for b in ends] == [(7, "S"), (8, "W")]
    assert ends[0].deal.sizes() == (3, 3, 3, 3)
    # a seed is always written in the file
    code, out, _ = run("deal", "-n", "1")
    assert code == 0 and "--seed " in out.splitlines()[1]
    assert run("deal", "-n", "1", "--cards", "14")[0] != 0


def test_writer_to_stream() -> None:
    import io

    job = make_job(["barbu"])
    buf = io.StringIO()
    w = ResultWriter(None, job, fmt="csv", stream=buf)
    r = BoardResult(0, ((0, -20, 0, 0),), (None,), (5,), (0.1,), Seat.E, file="f", index=1)
    w.write(r)
    w.close()
    lines = buf.getvalue().splitlines()
    assert lines[0].startswith("file,index,Event") and lines[1].startswith("f,1,")
    assert lines[1].endswith(",E,classic,,0,-20,0,0,5,0.1")
