"""The command line: exit codes and output (typer's CliRunner)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from barbu_dd.cli import app
from barbu_dd.solver import solve

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"
ENDING = str(EXAMPLES / "ending.pbn")
runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    r = runner.invoke(app, list(args))
    assert "Traceback" not in r.output
    return r.exit_code, r.stdout, r.stderr


def test_version() -> None:
    code, out, _ = run("--version")
    assert code == 0 and out.startswith("barbu-dd ")


def test_solve_table() -> None:
    code, out, _ = run("solve", ENDING, "--contract", "barbu")
    assert code == 0
    assert "Board 1: Barbu" in out and "nodes" in out


def test_solve_json_matches_api() -> None:
    code, out, _ = run("solve", ENDING, "-c", "no-queens", "--json")
    assert code == 0
    lines = [json.loads(x) for x in out.splitlines()]
    assert len(lines) >= 2
    for rec in lines:
        for key in ("board", "contract", "trump", "declarer", "rules", "variants", "scores"):
            assert key in rec
        assert rec["contract"] == "no-queens" and rec["rules"] == "classic"
        want = solve(rec["deal"], "no-queens", declarer=rec["declarer"]).scores
        assert tuple(rec["scores"][s] for s in "NESW") == want


def test_solve_side_and_bridge() -> None:
    code, out, _ = run(
        "solve",
        ENDING,
        "--rules",
        "bridge",
        "-c",
        "tricks",
        "--trump",
        "NT",
        "--side",
        "NS",
        "--json",
    )
    assert code == 0
    rec = json.loads(out.splitlines()[0])
    assert rec["side"] == "NS" and isinstance(rec["value"], int) and "scores" not in rec
    # notrump is named as the table's rows name it, not null
    assert rec["trump"] == "NT" and rec["contract"] == "tricks"
    code, out, _ = run("table", ENDING, "--rules", "bridge", "--board", "1", "--json")
    assert code == 0 and '"trump": "NT"' in out


def test_solve_options() -> None:
    code, out, _ = run(
        "solve",
        ENDING,
        "-c",
        "trumps",
        "--trump",
        "h",
        "--declarer",
        "S",
        "--variant",
        "free-trumping",
        "--json",
    )
    assert code == 0
    rec = json.loads(out.splitlines()[0])
    assert rec["trump"] == "H" and rec["declarer"] == "S" and rec["variants"] == ["free-trumping"]


def test_solve_scale_file(tmp_path: Path) -> None:
    f = tmp_path / "s.toml"
    f.write_text("[contracts.barbu]\ncards = { HK = -100 }\n", encoding="utf-8")
    code, out, _ = run("solve", ENDING, "-c", "barbu", "--scale", str(f), "--json")
    assert code == 0
    scores = json.loads(out.splitlines()[0])["scores"]
    assert set(scores.values()) <= {0, -100} and -100 in scores.values()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-c", "no-jacks"], "unknown contract: 'no-jacks'"),
        (["-c", "trumps"], "needs a trump suit"),
        (["-c", "barbu", "--variant", "jokers"], "unknown variant"),
        (["-c", "barbu", "--rules", "german"], "unknown rule set"),
        (["-c", "barbu", "--side", "NX"], "invalid seat"),
    ],
)
def test_solve_bad_options(args: list[str], message: str) -> None:
    code, out, err = run("solve", ENDING, *args)
    assert code == 1
    assert err.startswith("error: ") and message in err and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    "args",
    [
        ["solve", ENDING, "-c", "barbu", "--declarer", "Q"],
        ["playout", ENDING, "-c", "barbu", "--declarer", "Q"],
        ["analyze", ENDING, "-c", "barbu", "--declarer", "Q"],
        ["table", ENDING, "--declarer", "Q"],
        ["best", ENDING, "--declarer", "Q"],
        ["table", ENDING, "--rules", "german"],
        ["best", ENDING, "--played", "chess"],
    ],
)
def test_bad_options_one_line(args: list[str]) -> None:
    # A bad option is reported once, before any board (the file has three boards).
    code, out, err = run(*args)
    assert code == 1 and out == ""
    assert err.startswith("error: ") and len(err.strip().splitlines()) == 1
    assert "board" not in err


def test_solve_missing_file(tmp_path: Path) -> None:
    code, _, err = run("solve", str(tmp_path / "none.pbn"), "-c", "barbu")
    assert code == 1 and err.startswith("error: ") and "none.pbn" in err


def test_solve_bad_boards_are_reported_and_skipped(tmp_path: Path) -> None:
    f = tmp_path / "mixed.pbn"
    f.write_text(
        '[Board "1"]\n[Dealer "N"]\n[Deal "N:AK... Q2... J3... 54..."]\n\n'
        '[Board "2"]\n[Dealer "N"]\n[Deal "N:AX... Q2... J3... 54..."]\n\n'
        '[Board "3"]\n[Dealer "N"]\n[Deal "N:AK... Q2... J3... 5..."]\n\n'
        '[Board "4"]\n[Dealer "W"]\n[Deal "N:AK... Q2... J3... 54..."]\n',
        encoding="utf-8",
    )
    code, out, err = run("solve", str(f), "-c", "no-queens", "--json")
    assert code == 1
    boards = [json.loads(x)["board"] for x in out.splitlines()]
    assert boards == ["1", "4"]
    errs = err.strip().splitlines()
    assert len(errs) == 2 and all(e.startswith("error: ") for e in errs)
    assert "board 2" in errs[0] and "'X'" in errs[0]
    assert "board 3" in errs[1] and "unequal" in errs[1]


def test_solve_board_without_dealer_names_it_once(tmp_path: Path) -> None:
    f = tmp_path / "nodealer.pbn"
    f.write_text('[Board "5"]\n[Deal "N:AK... Q2... J3... 54..."]\n', encoding="utf-8")
    code, out, err = run("solve", str(f), "-c", "barbu")
    assert code == 1 and out == ""
    why = "no Dealer tag, so the declarer is not known (give one: --declarer)"
    assert err.strip() == f"error: {f}, board 5: {why}"
    code, out, _ = run("solve", str(f), "-c", "barbu", "--declarer", "S", "--json")
    assert code == 0 and json.loads(out)["declarer"] == "S"


def test_show() -> None:
    code, out, _ = run("show", str(EXAMPLES / "deals.pbn"))
    assert code == 0 and "Board 1" in out and "♠" in out


def test_closed_pipe_is_quiet() -> None:
    """``barbu-dd … | head``: the reader goes away; no traceback, no error line."""
    import subprocess
    import sys

    p = subprocess.Popen(
        [sys.executable, "-m", "barbu_dd", "deal", "-n", "3000", "--seed", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert p.stdout is not None and p.stderr is not None
    first = p.stdout.readline()
    p.stdout.close()
    err = p.stderr.read().decode()
    p.wait(timeout=60)
    assert first.startswith(b"%")
    assert "Traceback" not in err and "error" not in err


def test_solve_reports_progress_by_seat() -> None:
    calls: list[tuple[str | None, int, int]] = []
    sol = solve(
        "N:A2... K3... Q4... J5...",
        "no-tricks",
        declarer="N",
        seats="NS",
        on_progress=lambda seat, done, total: calls.append(
            (None if seat is None else seat.name, done, total)
        ),
    )
    # before each seat's search, then once at the end
    assert calls == [("N", 0, 2), ("S", 1, 2), (None, 2, 2)]
    assert sol.scores[0] is not None and sol.scores[2] is not None
    calls.clear()
    solve(
        "N:A2... K3... Q4... J5...",
        "tricks",
        rules="bridge",
        side="NS",
        declarer="N",
        on_progress=lambda seat, done, total: calls.append((seat, done, total)),
    )
    assert calls == [(None, 0, 1), (None, 1, 1)]


def test_solve_progress_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    import contextlib

    from barbu_dd import cli

    seen: list[tuple[str, bool, str | None, int, int]] = []

    @contextlib.contextmanager
    def steps(what: str, quiet: bool):  # type: ignore[no-untyped-def]
        yield lambda label, done, total: seen.append((what, quiet, label, done, total))

    monkeypatch.setattr(cli, "_steps_progress", steps)
    code, out, _ = run("solve", ENDING, "-c", "barbu", "--seats", "NE")
    assert code == 0 and "Board 1: Barbu" in out
    assert seen[:3] == [
        ("board 1", False, "seat N", 0, 2),
        ("board 1", False, "seat E", 1, 2),
        ("board 1", False, None, 2, 2),
    ]
    seen.clear()
    code, _, _ = run("solve", ENDING, "-c", "barbu", "--seats", "N", "-q")
    assert code == 0 and seen and all(q for _, q, *_ in seen)


def test_piped_tables_are_not_cut_short(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a terminal a table is printed as wide as it needs (Rich would cut its
    cells to fit 80 columns: ``-18..-…``); text still wraps at 80."""
    import io

    from rich.table import Table

    from barbu_dd.cli import _Output

    monkeypatch.delenv("COLUMNS", raising=False)
    out = io.StringIO()
    con = _Output(file=out)
    t = Table()
    for name in ("contract", "North", "East", "South", "West", "one more", "and more"):
        t.add_column(name, no_wrap=True)
    t.add_row("Barbu (No King of Hearts)", *["-18..-10"] * 6)
    con.print(t)
    con.print("word " * 30)
    lines = out.getvalue().splitlines()
    assert "…" not in out.getvalue() and "-18..-10" in out.getvalue()
    assert max(len(x) for x in lines) > 80
    assert max(len(x) for x in lines if x.startswith("word")) <= 80
    assert con.width == 80  # the console's own width is left as it was


def test_show_marks_an_unknown_hand(tmp_path: Path) -> None:
    pbn = tmp_path / "u.pbn"
    pbn.write_text('[Board "1"]\n[Dealer "N"]\n[Deal "N:K2.K..3 - Q.AJ.K. J.T.Q.4"]\n')
    r = CliRunner().invoke(app, ["show", str(pbn)])
    assert r.exit_code == 0 and r.stdout.count("(unknown)") == 1 and "♠ K2" in r.stdout
