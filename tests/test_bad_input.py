"""Bad input: one clear line naming the problem and a non-zero exit, never a traceback,
and no finished result lost (an audit of every command's inputs)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from barbu_dd.averages import load_averages
from barbu_dd.batch import _drive, _file_items, make_job, solve_files
from barbu_dd.cards import Seat, to_seat
from barbu_dd.cli import app
from barbu_dd.contracts import MAX_SCALE_TOTAL, MAX_SCALE_VALUE, load_scale
from barbu_dd.errors import BarbuError, ParseError
from barbu_dd.solver import Solver, check_limits, parse_side, solve

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
ENDING = str(EXAMPLES / "ending.pbn")
FULL = str(EXAMPLES / "deals.pbn")
DEAL = "N:K2.K..3 A.Q.A.2 Q.AJ.K. J.T.Q.4"
FULL_DEAL = "N:.AQ94.AKQJ62.AQ2 QJ54.KJT.3.KT653 T932.62.T98.J987 AK876.8753.754.4"
runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    r = runner.invoke(app, list(args))
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    assert "Traceback" not in r.output
    return r.exit_code, r.stdout, r.stderr


def one_error(args: list[str], *needles: str) -> str:
    """Run the CLI; it must fail with exactly one ``error:`` line holding the needles."""
    code, _, err = run(*args)
    lines = [x for x in err.splitlines() if x.strip()]
    assert code == 1 and len(lines) == 1 and lines[0].startswith("error: "), (args, err)
    for n in needles:
        assert n in lines[0], (args, lines[0], n)
    return lines[0]


# -- scale files ----------------------------------------------------------------------


def test_scale_values_are_bounded(tmp_path: Path) -> None:
    # the search adds scores in 32-bit integers: larger values were wrapped round
    big = tmp_path / "big.toml"
    big.write_text("[contracts.no-tricks]\nper_trick = 1000000000\n")
    with pytest.raises(ParseError, match=r"big.toml: \[contracts.no-tricks\] per_trick: .*large"):
        load_scale(big)
    total = tmp_path / "total.toml"
    total.write_text(f"[contracts.barbu]\ncards = {{all = {MAX_SCALE_VALUE}}}\n")
    load_scale(total)  # 52 million: allowed
    total.write_text(
        f"[contracts.barbu]\ncards = {{all = {MAX_SCALE_VALUE}}}\n"
        f"[contracts.no-tricks]\ncombine = ['barbu', 'barbu']\n"
    )
    with pytest.raises(ParseError, match=r"\[contracts.no-tricks\] is too large"):
        load_scale(total)
    assert 104 * MAX_SCALE_VALUE > MAX_SCALE_TOTAL
    one_error(["solve", ENDING, "-c", "no-tricks", "--scale", str(big)], "big.toml", "too large")


def test_scale_names_a_card_once(tmp_path: Path) -> None:
    dup = tmp_path / "dup.toml"
    dup.write_text("[contracts.barbu]\ncards = { HK = -20, KH = -10 }\n")
    one_error(["solve", ENDING, "-c", "barbu", "--scale", str(dup)], "'HK' and 'KH' name the same")
    dup.write_text("[contracts.no-hearts]\ncards = { hearts = -2, Hearts = -3, HA = -6 }\n")
    with pytest.raises(ParseError, match="'hearts' and 'Hearts' name the same cards"):
        load_scale(dup)


def test_scale_at_the_bound_solves_exactly(tmp_path: Path) -> None:
    sc = tmp_path / "s.toml"
    sc.write_text(f"[contracts.no-tricks]\nper_trick = -{MAX_SCALE_VALUE}\n")
    plain = solve(DEAL, "no-tricks", declarer="N").scores
    scaled = solve(DEAL, "no-tricks", declarer="N", scale=sc).scores
    assert scaled == tuple(v * MAX_SCALE_VALUE // 2 for v in plain)


def test_scale_names_are_reported_with_the_file(tmp_path: Path) -> None:
    for text, what in [
        ('rules = "spanish"\n', "unknown rule set"),
        ("[contracts.foo]\nper_trick = 1\n", "unknown contract"),
        ("[contracts.no-tricks]\ncombine = ['nope']\n", "unknown contract"),
    ]:
        f = tmp_path / "x.toml"
        f.write_text(text)
        with pytest.raises(ParseError, match=rf"x.toml: {what}"):
            load_scale(f)


# -- batch ------------------------------------------------------------------------------


def test_batch_checks_every_input_before_writing(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    out.write_text("earlier results\n")
    one_error(
        ["batch", ENDING, str(tmp_path / "nope.pbn"), "-c", "barbu", "-o", str(out), "--force"],
        "nope.pbn",
    )
    assert out.read_text() == "earlier results\n"  # --force replaced nothing
    one_error(["batch", str(tmp_path), "-c", "barbu", "-w", "1", "-q"], "cannot read")
    with pytest.raises(ParseError, match="nope.pbn"):
        solve_files([ENDING, tmp_path / "nope.pbn"], make_job(["barbu"]), workers=1)


@pytest.mark.parametrize("workers", [1, 2])
def test_batch_keeps_results_when_reading_fails(tmp_path: Path, workers: int) -> None:
    # a file that stops being readable half-way: every board read before it comes back
    job = make_job(["barbu"])

    def items():  # type: ignore[no-untyped-def]
        yield from _file_items([ENDING], job, None, {})
        raise ParseError("cannot read 'gone.pbn': No such file or directory")

    got = []
    with pytest.raises(ParseError, match="gone.pbn"):
        for r in _drive(items(), job, workers, None, ordered=False, chunk_size=1, max_pending=2):
            got.append(r)
    assert sorted(r.index for r in got) == [1, 2, 3] and all(r.ok for r in got)


def _damaged(tmp_path: Path, fmt: str, damage: str) -> Path:
    out = tmp_path / f"out.{fmt}"
    code, _, _ = run("batch", ENDING, "-c", "barbu", "-w", "1", "-q", "-o", str(out))
    assert code == 0
    lines = out.read_bytes().splitlines(keepends=True)
    if damage == "bytes":
        lines.append(b"\xff\xfe\n")
    elif fmt == "csv":  # the last row's index
        cells = lines[-1].decode().split(",")
        cells[1] = "one"
        lines[-1] = ",".join(cells).encode()
    else:
        rec = json.loads(lines[-1])
        if damage == "no-index":
            del rec["index"]
        else:
            rec["index"] = "one"
        lines.append(json.dumps(rec).encode() + b"\n")
    out.write_bytes(b"".join(lines))
    return out


@pytest.mark.parametrize(
    "fmt, damage, why",
    [
        ("jsonl", "no-index", "record 4: not a barbu-dd batch record"),
        ("jsonl", "index", "record 4: not a barbu-dd batch record"),
        ("jsonl", "bytes", "not UTF-8"),
        ("csv", "index", "record 3: cannot resume from it"),
    ],
)
def test_batch_resume_from_a_damaged_file(tmp_path: Path, fmt: str, damage: str, why: str) -> None:
    out = _damaged(tmp_path, fmt, damage)
    one_error(["batch", ENDING, "-c", "barbu", "-w", "1", "-q", "--resume", "-o", str(out)], why)


def test_batch_resume_from_a_file_not_parquet(tmp_path: Path) -> None:
    pytest.importorskip("pyarrow")
    out = tmp_path / "out.parquet"
    out.write_text("not parquet at all\n")
    one_error(
        ["batch", ENDING, "-c", "barbu", "-w", "1", "-q", "--resume", "-o", str(out)],
        "cannot resume from it",
    )


def test_batch_option_errors() -> None:
    for args, why in [
        (["--scheduler", "foo"], "invalid Dask scheduler address 'foo'"),
        (["--workers", "100000"], "workers must be 1 to"),
        (["--table"], "barbu: already in the whole table"),
    ]:
        one_error(["batch", ENDING, "-c", "barbu", "-q", *args], why)


# -- advise, best -----------------------------------------------------------------------


def test_advise_plot_checked_before_sampling(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    hand = "AQT8.K7.A9.J9843"
    for plot, why in [
        (str(tmp_path / "none" / "x.png"), "none' does not exist"),
        (ENDING + "/x.png", "ending.pbn' is not a directory"),
        (str(tmp_path / "x.txt"), "ending in .png"),
        (str(tmp_path / "x"), "ending in .png"),
        (str(tmp_path), "ending in .png"),
    ]:
        # 10**6 samples: the error must come before any of them is dealt
        one_error(["advise", hand, "-c", "reussite", "--rules", "french", "--samples",
                   "1000000", "--plot", plot], why)  # fmt: skip


def _averages_with(tmp_path: Path, **change: object) -> Path:
    data = json.loads(json.dumps(load_averages().records[0]))
    data.update(change)
    data = {k: v for k, v in data.items() if v is not None}
    f = tmp_path / "avg.json"
    f.write_text(json.dumps({"format": 1, "about": "test", "averages": [data]}))
    return f


@pytest.mark.parametrize(
    "change, why",
    [
        ({"stderr": None}, "stderr is not a number"),
        ({"sd": "x"}, "sd is not a number"),
        ({"mean": float("nan")}, "mean is not a number"),
        ({"deals": -5}, "deals is not a count"),
        ({"sd": -1.0}, "sd is negative"),
    ],
)
def test_averages_file_numbers_checked(tmp_path: Path, change: dict[str, object], why: str) -> None:
    f = _averages_with(tmp_path, **change)
    with pytest.raises(ParseError, match=f"avg.json, record 1: {why}"):
        load_averages(f)
    # the command names the problem once, before any board
    line = one_error(["best", FULL, "--averages", str(f)], why)
    assert "board" not in line


def test_averages_file_not_utf8(tmp_path: Path) -> None:
    f = tmp_path / "avg.json"
    f.write_bytes(b"\xff\xfe{}")
    with pytest.raises(ParseError, match="not UTF-8"):
        load_averages(f)


# -- solve ------------------------------------------------------------------------------


def test_solve_contradictory_options() -> None:
    for args, why in [
        (["-c", "barbu", "--seats", "NS", "--side", "EW"], "not both"),
        (["-c", "barbu", "--side", "NN"], "seat N given twice"),
        (["-c", "barbu", "--seats", ""], "no seat"),
        (["-c", "dominoes", "--start", "best", "--side", "NS"], "no side solving in dominoes"),
        (["-c", "dominoes", "--start", "9", "--side", "NS"], "no side solving in dominoes"),
        (["-c", "dominoes", "--start", "best", "--seats", "E"], "--seats does not go"),
        (["-c", "barbu", "--node-limit", str(10**20)], "--node-limit must be 1 to"),
    ]:
        line = one_error(["solve", FULL, *args], why)
        assert "board" not in line  # once, before any board


def test_api_arguments_raise_barbu_errors() -> None:
    for call in [
        lambda: solve(DEAL, "barbu", declarer=7),
        lambda: solve(DEAL, "barbu", declarer=1.5),  # type: ignore[arg-type]
        lambda: solve(DEAL, "barbu", declarer="N", side=[7]),
        lambda: solve(DEAL, "barbu", declarer="N", side=5),  # type: ignore[arg-type]
        lambda: solve(DEAL, "barbu", declarer="N", seats="N", side="S"),
        lambda: Solver(tt_bytes=-1),
        lambda: Solver(tt_bytes="x"),  # type: ignore[arg-type]
        lambda: check_limits("abc"),  # type: ignore[arg-type]
        lambda: check_limits(None, 2.5),  # type: ignore[arg-type]
        lambda: check_limits(float("inf")),
    ]:
        with pytest.raises(BarbuError):
            call()
    assert to_seat(Seat.E) is Seat.E and to_seat(3) is Seat.W and to_seat("s") is Seat.S
    assert parse_side([0, "s"]) == (Seat.N, Seat.S)


# -- usage errors, empty files, messages -------------------------------------------------


def test_usage_errors_are_one_line_with_code_2(capsys: pytest.CaptureFixture[str]) -> None:
    from barbu_dd.cli import main

    for args, why in [
        (
            ["solve", ENDING, "-c", "barbu", "--time-limit", "abc"],
            "Invalid value for '--time-limit'",
        ),
        (["table", ENDING, "--workers", "0"], "Invalid value for '--workers'"),
        (["solve", ENDING], "Missing option '--contract'"),
        (["frobnicate"], "No such command 'frobnicate'"),
        (["solve", ENDING, "-c", "barbu", "--bogus"], "No such option: --bogus"),
    ]:
        with pytest.raises(SystemExit) as e:
            main(args)
        err = capsys.readouterr().err
        lines = [x for x in err.splitlines() if x.strip()]
        assert e.value.code == 2 and len(lines) == 1, (args, err)
        assert lines[0].startswith("error: ") and why in lines[0] and "--help" in lines[0]
    with pytest.raises(SystemExit) as e:  # bad input (not usage): code 1, one line
        main(["solve", ENDING, "-c", "nope"])
    assert e.value.code == 1 and capsys.readouterr().err.startswith("error: unknown contract")
    with pytest.raises(SystemExit) as e:
        main(["solve", ENDING, "-c", "barbu", "--json"])
    assert e.value.code == 0 and '"board": "1"' in capsys.readouterr().out


def test_a_file_without_a_board_is_an_error(tmp_path: Path) -> None:
    empty = tmp_path / "empty.pbn"
    empty.write_text("% a comment and nothing else\n")
    for args in (
        ["solve", str(empty), "-c", "barbu"],
        ["show", str(empty)],
        ["playout", str(empty), "-c", "barbu"],
        ["table", str(empty)],
        ["advise", str(empty)],
    ):
        one_error(args, "holds no board")
    out = tmp_path / "out.jsonl"
    code, _, err = run("batch", str(empty), ENDING, "-c", "barbu", "-w", "1", "-q", "-o", str(out))
    assert code == 1 and "1 bad" in err and len(out.read_text().splitlines()) == 3
    assert "holds no board" in (tmp_path / "out.jsonl.errors.jsonl").read_text()


def test_messages_name_the_option_file_and_board(tmp_path: Path) -> None:
    nodealer = tmp_path / "nd.pbn"
    nodealer.write_text('[Board "5"]\n[Deal "N:AK... Q2... J3... 54..."]\n')
    one_error(["solve", str(nodealer), "-c", "barbu"], "board 5", "give one: --declarer")
    one_error(["advise", str(tmp_path / "missing.pbn")], "cannot read", "missing.pbn")
    one_error(["advise", ENDING], "board 1", "13 cards")
    one_error(["advise", "AQT8.K7.A9.J9843", "-c", "dominoes:best"], "give -c dominoes")
    out = tmp_path / "d.pbn"
    one_error(["deal", "-n", "1", "--event", "a\nb", "-o", str(out)], "--event must be one line")
    assert not out.exists()
    res = tmp_path / "r.jsonl"
    code, _, _ = run("batch", ENDING, "-c", "barbu", "-w", "1", "-q", "-o", str(res))
    assert code == 0
    one_error(
        ["batch", ENDING, "-c", "barbu", "-q", "-o", str(res), "--resume", "--force"], "not both"
    )
    one_error(
        ["batch", ENDING, "-c", "barbu", "-q", "-o", str(res), "--resume", "--declarer", "S"],
        "declarer",
    )


def test_scale_of_other_rules_is_refused(tmp_path: Path) -> None:
    sc = tmp_path / "fr.toml"
    sc.write_text('rules = "french"\n')
    one_error(["solve", ENDING, "-c", "barbu", "--scale", str(sc)], "is for the french rules")
    code, _, _ = run("solve", ENDING, "-c", "barbu", "--rules", "french", "--scale", str(sc))
    assert code == 0


def test_more_api_arguments_raise_barbu_errors() -> None:
    from barbu_dd.advise import advise
    from barbu_dd.analyze import analyze
    from barbu_dd.batch import solve_many
    from barbu_dd.cards import card_name
    from barbu_dd.deal import Deal

    hand = "AQT8.K7.A9.J9843"
    for call in [
        lambda: solve(None, "barbu", declarer="N"),  # type: ignore[arg-type]
        lambda: solve(DEAL, None),  # type: ignore[arg-type]
        lambda: solve(DEAL, "barbu", declarer="N", rules=None),  # type: ignore[arg-type]
        lambda: solve(DEAL, "barbu", declarer="N", variants=[5]),  # type: ignore[list-item]
        lambda: solve(DEAL, "barbu", declarer="N", scale=5),  # type: ignore[arg-type]
        lambda: solve(DEAL, "trumps", declarer="N", trump=5),
        lambda: solve(DEAL, "dominoes", declarer="N", start=99),
        lambda: Deal(5),  # type: ignore[arg-type]
        lambda: card_name(999),
        lambda: analyze(DEAL, "barbu", declarer="N", play=[999]),
        lambda: advise(None),  # type: ignore[arg-type]
        lambda: advise(hand, samples="x"),  # type: ignore[arg-type]
        lambda: advise(hand, contracts=["reussite"], rules="french", doubles_left=2),
        lambda: solve_many([DEAL], "barbu", errors="foo"),  # type: ignore[arg-type]
    ]:
        with pytest.raises(BarbuError):
            call()
    # one contract name is one name, not its letters
    adv = advise(hand, contracts="reussite", rules="french", samples=1, workers=1, seed=1)
    assert [c.contract for c in adv.contracts] == ["reussite"]


def test_variants_and_played_contracts_checked(tmp_path: Path) -> None:
    one_error(["solve", ENDING, "-c", "barbu", "--rules", "french", "--variant", "other-scores"],
              "'other-scores' is not one of the french rules")  # fmt: skip
    one_error(
        ["solve", ENDING, "-c", "tricks", "--rules", "bridge", "--trump", "NT", "-V", "king-duty"],
        "not one of the bridge rules",
    )
    one_error(["best", FULL, "--played", "barbu,kh"], "contract played twice: barbu")
    one_error(["advise", "AQT8.K7.A9.J9843", "--played", "barbu,barbu"], "played twice")
    one_error(["solve", ENDING, "-c", "dominoes", "--start", "best"], "no starting rank fits")


def test_write_errors_name_the_file(tmp_path: Path) -> None:
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full")
    one_error(["deal", "-n", "3", "-o", "/dev/full"], "cannot write '/dev/full'")


def test_pbn_tags_in_any_order() -> None:
    from barbu_dd.pbn import parse_pbn

    # a board whose Deal comes before its Board and Dealer tags is one board
    text = (
        '[Deal "N:A... K... Q... J..."]\n[Board "1"]\n[Dealer "W"]\n\n'
        '[Deal "N:A... K... Q... 2..."]\n[Board "2"]\n[Dealer "N"]\n'
    )
    assert [(b.number, b.dealer) for b in parse_pbn(text)] == [(1, Seat.W), (2, Seat.N)]
    # without blank lines, a Board or Event tag after a board's Deal and Board starts the next
    text = '[Board "1"]\n[Deal "N:A... K... Q... J..."]\n[Event "x"]\n[Board "2"]\n'
    text += '[Deal "N:A... K... Q... 2..."]\n'
    assert [(b.number, b.tags.get("Event")) for b in parse_pbn(text)] == [(1, None), (2, "x")]


def test_batch_table_on_endings_no_rank_fits(tmp_path: Path) -> None:
    # board 2 of the example endings fits no Dominoes start: its Dominoes scores are
    # null, its trick contracts are solved (before: the whole board was bad)
    out = tmp_path / "t.jsonl"
    code, _, err = run("batch", ENDING, "--table", "-w", "1", "-q", "-o", str(out))
    assert code == 0, err
    recs = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(recs) == 3
    b2 = next(r for r in recs if r["index"] == 2)
    assert b2["scores"]["dominoes:best"] == {"N": None, "E": None, "S": None, "W": None}
    assert b2["starts"]["dominoes:best"] is None
    want = solve(b2["tags"]["Deal"], "barbu", declarer=b2["declarer"]).scores
    assert tuple(b2["scores"]["barbu"][s] for s in "NESW") == want


def test_failed_batch_leaves_no_empty_output(tmp_path: Path) -> None:
    out = tmp_path / "o.jsonl"
    one_error(["batch", ENDING, "-c", "barbu", "-q", "--scheduler", "foo", "-o", str(out)], "foo")
    assert not out.exists()  # so the same command, mended, needs no --force


def test_board_option_picks_one_board(tmp_path: Path) -> None:
    code, out, _ = run("analyze", ENDING, "-c", "barbu", "--play", "SK SA", "--board", "1")
    assert code == 0 and out.count("Board 1") + out.count("board 1") >= 1
    code, out, _ = run("playout", ENDING, "-c", "barbu", "--board", "2", "--json")
    assert code == 0 and len(out.splitlines()) == 1
    one_error(["playout", ENDING, "-c", "barbu", "--board", "4"], "has no board 4 (it holds 3)")


def test_deal_header_records_the_event(tmp_path: Path) -> None:
    out = tmp_path / "d.pbn"
    code, _, _ = run("deal", "-n", "1", "--seed", "3", "--event", "club night", "-o", str(out))
    assert code == 0
    assert out.read_text().splitlines()[1] == '% barbu-dd deal -n 1 --seed 3 --event "club night"'


def test_deal_keeps_an_existing_file_unless_forced(tmp_path: Path) -> None:
    out = tmp_path / "d.pbn"
    assert run("deal", "-n", "2", "--seed", "3", "-o", str(out))[0] == 0
    first = out.read_text()
    one_error(["deal", "-n", "2", "--seed", "4", "-o", str(out)], "exists: give --force")
    assert out.read_text() == first
    assert run("deal", "-n", "2", "--seed", "4", "-o", str(out), "--force")[0] == 0
    assert out.read_text() != first and "--seed 4" in out.read_text()


def test_best_start_json_under_a_limit_is_exact(tmp_path: Path) -> None:
    one = tmp_path / "one.pbn"
    one.write_text('[Board "1"]\n[Dealer "N"]\n[Deal "' + FULL_DEAL + '"]\n')
    code, out, _ = run("solve", str(one), "-c", "dominoes", "--start", "best", "--json",
                       "--time-limit", "30")  # fmt: skip
    rec = json.loads(out)
    assert code == 0 and rec["exact"] is True
    assert rec["bounds"] == {s: [v, v] for s, v in rec["scores"].items()}


def test_averages_job_input_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from barbu_dd.averages import main as averages_main

    base = ["--cards", "2", "--deals", "2", "--jobs", "1", "-o", str(tmp_path / "a.json")]
    foreign = tmp_path / "f.jsonl"
    foreign.write_text('{"file": "x.pbn", "index": 1}\n')
    for extra, why in [
        (["--contracts", "barbu,nqueenz"], "unknown contract: 'nqueenz'"),
        (["--contracts", "salad"], "'salad' is not a contract of the classic rules"),
        (["--contracts", "dominoes"], "need full deals"),
        (["--contracts", "barbu", "--samples", str(tmp_path)], "cannot read samples file"),
        (["--contracts", "barbu", "--samples", str(foreign)], "not an averages sample"),
    ]:
        assert averages_main([*base, *extra]) == 1
        err = capsys.readouterr().err
        assert err.startswith("error: ") and why in err, (extra, err)
    assert foreign.read_text() == '{"file": "x.pbn", "index": 1}\n'  # nothing appended
    for extra in (["--time-limit", "-1"], ["--jobs", "0"], ["--tt-mib", "0"]):
        with pytest.raises(SystemExit) as e:
            averages_main([*base, "--contracts", "barbu", *extra])
        assert e.value.code == 2
    capsys.readouterr()


# -- a review's findings (session 40) -----------------------------------------------------


def test_batch_never_writes_over_its_inputs(tmp_path: Path) -> None:
    src = tmp_path / "in.pbn"
    src.write_text(Path(ENDING).read_text(encoding="utf-8"), encoding="utf-8")
    text = src.read_text(encoding="utf-8")
    scale = tmp_path / "s.toml"
    scale.write_text("[contracts.barbu]\ncards = { HK = -20 }\n", encoding="utf-8")
    for extra in (["--force"], ["--resume"], []):
        one_error(["batch", str(src), "-c", "barbu", "-q", "-w", "1", "-o", str(src), *extra],
                  "would write over the input")  # fmt: skip
        assert src.read_text(encoding="utf-8") == text
    one_error(["batch", str(src), "-c", "barbu", "-q", "-w", "1", "--scale", str(scale),
               "-o", str(scale), "--force"], "would write over the input")  # fmt: skip
    assert "HK = -20" in scale.read_text(encoding="utf-8")


def test_batch_resume_leaves_a_file_that_is_no_output_alone(tmp_path: Path) -> None:
    mine = tmp_path / "mine.jsonl"
    mine.write_text('[Board "1"]\n[Deal "N:K2.K..3 A.Q.A.2 Q.AJ.K. J.T.Q.4"]', encoding="utf-8")
    before = mine.read_bytes()
    one_error(["batch", ENDING, "-c", "barbu", "-q", "-w", "1", "-o", str(mine), "--resume"],
              "is not a barbu-dd batch output")  # fmt: skip
    assert mine.read_bytes() == before
    table = tmp_path / "mine.csv"
    table.write_text("a,b\n1,2", encoding="utf-8")
    one_error(["batch", ENDING, "-c", "barbu", "-q", "-w", "1", "-o", str(table), "--resume"],
              "no batch output")  # fmt: skip
    assert table.read_text(encoding="utf-8") == "a,b\n1,2"


def test_batch_force_replaces_only_a_regular_file(tmp_path: Path) -> None:
    d = tmp_path / "dir.jsonl"
    d.mkdir()
    one_error(["batch", ENDING, "-c", "barbu", "-q", "-w", "1", "-o", str(d), "--force"],
              "is not a regular file")  # fmt: skip
    assert d.is_dir()
    # the errors file a directory: refused before OUT is made
    (tmp_path / "m.jsonl.errors.jsonl").mkdir()
    one_error(["batch", ENDING, "-c", "barbu", "-q", "-w", "1", "-o", str(tmp_path / "m.jsonl")],
              "m.jsonl.errors.jsonl' is not a regular file")  # fmt: skip
    assert not (tmp_path / "m.jsonl").exists()
    # through a symbolic link: the target is replaced, the link stays
    target = tmp_path / "real.jsonl"
    target.write_text('{"old": 1}\n', encoding="utf-8")
    link = tmp_path / "link.jsonl"
    link.symlink_to(target)
    code, _, err = run("batch", ENDING, "-c", "barbu", "-q", "-w", "1", "-o", str(link), "--force")
    assert code == 0, err
    assert link.is_symlink() and '"old"' not in target.read_text(encoding="utf-8")
    assert len(target.read_text(encoding="utf-8").splitlines()) == 3


def test_batch_dominoes_with_an_unknown_hand_is_a_bad_board(tmp_path: Path) -> None:
    pbn = tmp_path / "unk.pbn"
    pbn.write_text('[Board "1"]\n[Dealer "N"]\n[Deal "N:K2.K..3 - Q.AJ.K. J.T.Q.4"]\n')
    for c in ("dominoes:9", "dominoes:best"):
        code, out, err = run("batch", str(pbn), "-c", c, "-q", "-w", "1")
        assert code == 1 and out == "" and "the hand of E is unknown" in err and "1 bad" in err


def test_batch_trump_or_start_no_contract_uses() -> None:
    one_error(["batch", ENDING, "-q", "-w", "1", "-c", "trumps:H", "-t", "S"],
              "--trump 'S' is for trumps or tricks named without a suit")  # fmt: skip
    one_error(["batch", ENDING, "-q", "-w", "1", "-c", "dominoes:best", "--start", "9"],
              "--start '9' is for dominoes named without a starting rank")  # fmt: skip
    code, out, _ = run("batch", ENDING, "-q", "-w", "1", "-c", "trumps:H", "-c", "trumps",
                       "-t", "S")  # fmt: skip
    assert code == 0 and "trumps:H" in out and "trumps:S" in out


def test_advise_pbn_without_dealer_or_hand(tmp_path: Path) -> None:
    pbn = tmp_path / "nd.pbn"
    pbn.write_text('[Board "1"]\n[Deal "N:AK32.Q54.T98.762 - - -"]\n', encoding="utf-8")
    one_error(["advise", str(pbn), "-n", "1", "-c", "dominoes:9"], "no Dealer tag", "--declarer")
    one_error(["advise", str(pbn), "-n", "1", "-c", "dominoes:9", "-d", "E"],
              "the hand of E is unknown")  # fmt: skip


def test_small_option_checks() -> None:
    code, _, err = run("advise", "AK32.Q54.T98.762", "-c", "barbu", "--doubles", "barbu",
                       "--doubles-left", "3")  # fmt: skip
    assert code == 2 and "--doubles-left" in err
    one_error(["solve", ENDING, "-c", "barbu", "-t", ""], "invalid trump suit: ''")
    one_error(["analyze", ENDING, "-c", "barbu", "--play", "SK ZZ"], "--play: invalid card: 'ZZ'")
    code, _, err = run("batch", ENDING, "-c", "barbu", "-q", "--memory", "99999999")
    assert code == 2 and "--memory" in err
