"""The ``barbu-dd`` command line (Typer): thin commands that format what the API returns.

No rules or scoring live here.  Every :class:`~barbu_dd.errors.BarbuError` is caught
once, printed as one ``error: ...`` line on stderr, and the exit code is 1.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from . import __version__
from . import analyze as analysis
from .averages import load_averages
from .batch import check_workers
from .cards import SUIT_SYMBOLS, Seat, hand_to_pbn, parse_seat
from .contracts import (
    Scale,
    contracts_of,
    load_scale,
    parse_variants,
    played_set,
)
from .deal import Deal
from .errors import BarbuError, ParseError
from .pbn import BadBoard, Board, no_board_error, read_pbn
from .settle import ScoreSheet, load_session, score_session
from .solver import MAX_TT_BYTES, Solver, check_limits, default_threads, parse_side

__all__ = ["app", "main"]

app = typer.Typer(
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
    help="Double-dummy solver and hand analyser for the card game Barbu.",
    pretty_exceptions_enable=False,
    add_completion=False,
)


class _Output(Console):
    """stdout's console.  Piped or redirected (no terminal, no ``COLUMNS``), a table is
    printed as wide as it needs instead of at 80 columns, where Rich would cut its
    cells short (``-18..-…``); text still wraps at 80."""

    def print(self, *objects: Any, **kwargs: Any) -> None:
        tables = [o for o in objects if isinstance(o, Table)]
        if not tables or self.is_terminal or os.environ.get("COLUMNS"):
            super().print(*objects, **kwargs)
            return
        from rich.measure import Measurement

        wide = self.options.update_width(10_000)
        need = max(Measurement.get(self, wide, t).maximum for t in tables)
        before = self.width
        self.width = max(before, need)
        try:
            super().print(*objects, **kwargs)
        finally:
            self.width = before


console = _Output()
err_console = Console(stderr=True)

F = TypeVar("F", bound=Callable[..., Any])


def fail(message: str) -> typer.Exit:
    """Print ``error: message`` on stderr and return the exit to raise."""
    err_console.print(f"error: {message}", markup=False, highlight=False, soft_wrap=True)
    return typer.Exit(code=1)


def _at(location: str, e: Exception) -> str:
    """``e``'s message with the board's location in front (once)."""
    msg = str(e)
    return msg if msg.startswith(location) else f"{location}: {msg}"


def handle_errors(func: F) -> F:
    """Turn a :class:`BarbuError` (and unreadable files) into one line and exit code 1."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except BarbuError as e:
            raise fail(str(e)) from None
        except BrokenPipeError:
            # the reader of the output went away (``| head``): stop without a word,
            # and send what is still buffered nowhere (as Python's docs advise)
            try:
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, sys.stdout.fileno())
            except (OSError, ValueError):
                pass
            raise typer.Exit(code=1) from None
        except OSError as e:
            name = getattr(e, "filename", None)
            why = e.strerror or str(e)
            raise fail(f"{name!r}: {why}" if name else f"cannot read or write: {why}") from None
        except UnicodeError as e:  # text or a file name that is no UTF-8
            raise fail(f"text that is not UTF-8: {getattr(e, 'reason', e)}") from None
        except KeyboardInterrupt:
            raise fail("interrupted") from None

    return wrapper  # type: ignore[return-value]


def _version(value: bool) -> None:
    if value:
        typer.echo(f"barbu-dd {__version__}")
        raise typer.Exit()


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Show the version and exit."
        ),
    ] = False,
) -> None:
    """Double-dummy solver and hand analyser for the card game Barbu."""


# == commands: each block below is one command ===================================


# -- score: a session's score sheet (settle.py) ------------------------------------


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def _score_table(sheet: ScoreSheet) -> Table:
    """The score sheet as a Rich table: one row per deal, each player's deal score and total."""
    names = [escape(p) for p in sheet.players]
    table = Table(
        title=escape(sheet.title) or "Score sheet",
        caption=(
            f"{sheet.rules} rules, {sheet.format} format, scale {escape(sheet.scale)}"
            + (f", variants {', '.join(sorted(sheet.variants))}" if sheet.variants else "")
            + "; each cell: deal score after doubles, [dim]running total[/dim]"
        ),
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    table.add_column("#", justify="right")
    table.add_column("By")
    table.add_column("Contract", no_wrap=True)
    table.add_column("Doubles", min_width=7)
    for seat, name in zip("NESW", names, strict=True):
        table.add_column(f"{name} ({seat})", justify="right", no_wrap=True)
    for r in sheet.rows:
        cells = [
            f"{_signed(s)} [dim]{_signed(t)}[/dim]"
            for s, t in zip(r.settled, r.running, strict=True)
        ]
        table.add_row(
            str(r.number),
            r.declarer.name,
            escape(r.short),
            r.doubles_text or "-",
            *cells,
        )
    table.add_section()
    table.add_row("", "", "[b]Total[/b]", "", *(f"[b]{_signed(t)}[/b]" for t in sheet.totals))
    return table


@app.command("score")
@handle_errors
def score(
    session: Annotated[
        Path,
        typer.Argument(
            help="Session file (TOML): players, rules and deals; see examples/session.toml."
        ),
    ],
    as_json: Annotated[bool, typer.Option("--json", help="Print the score sheet as JSON.")] = False,
) -> None:
    """Settle the doubles of a session and print its score sheet and winner."""
    sheet = score_session(load_session(session))
    if as_json:
        typer.echo(json.dumps(sheet.to_dict(), ensure_ascii=False, indent=2))
        return
    console.print(_score_table(sheet))
    best = ", ".join(escape(n) for n in sheet.winner_names)
    top = _signed(sheet.totals[sheet.winners[0]]) if sheet.winners else ""
    if sheet.complete:
        tie = len(sheet.winners) > 1
        console.print(f"[b]{'Winners (tie)' if tie else 'Winner'}: {best}[/b] ({top})")
    else:
        console.print(f"In progress: {sheet.deals_played} of {sheet.deals_total} deals.")
        if sheet.winners:
            console.print(f"Leading: [b]{best}[/b] ({top})")
    for o in sheet.owed:
        console.print(
            f"Compulsory doubles owed: {escape(sheet.players[o.player])} must still double "
            f"{escape(sheet.players[o.declarer])} {o.owed} more time(s) "
            f"in the last {o.deals_left} deal(s) of the block.",
            soft_wrap=True,
        )


# -- solve / show -----------------------------------------------------------------

QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")]
FileArg = Annotated[
    Path, typer.Argument(help="A PBN file of one or more boards.", show_default=False)
]
ContractOpt = Annotated[
    str,
    typer.Option(
        "--contract", "-c", help="Contract name or alias (barbu, no-queens, trumps, ...)."
    ),
]
TrumpOpt = Annotated[
    str | None,
    typer.Option(
        "--trump", "-t", help="Trump suit S|H|D|C (Trumps), or NT in the bridge rule set."
    ),
]
StartOpt = Annotated[
    str | None,
    typer.Option(
        "--start",
        help="Dominoes starting rank (2..A), or 'best': the declarer's best rank (all 13 tried).",
    ),
]
DeclarerOpt = Annotated[
    str | None,
    typer.Option(
        "--declarer", "-d", help="Declarer seat N|E|S|W (default: left of the PBN Dealer)."
    ),
]
RulesOpt = Annotated[
    str, typer.Option("--rules", "-r", help="Rule set: classic, french or bridge.")
]
VariantOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--variant",
        "-V",
        help="A variant (repeatable): free-trumping, king-duty, low-aces, ace-replays, "
        "dealer-declares, other-scores, only-double-declarer, ravage-city.",
    ),
]
ScaleOpt = Annotated[
    Path | None,
    typer.Option("--scale", help="A scale file (TOML) instead of the rule set's default."),
]
SideOpt = Annotated[
    str | None, typer.Option("--side", help="Solve for a side of seats together, e.g. NS.")
]
JsonOpt = Annotated[bool, typer.Option("--json", help="One JSON object per line per board.")]
BoardOpt = Annotated[
    int | None,
    typer.Option("--board", min=1, help="Only this board of the file (1-based; default: all)."),
]
SeatsOpt = Annotated[
    str | None, typer.Option("--seats", help="Only these seats, e.g. N or NE (default: all four).")
]
TimeLimitOpt = Annotated[
    float | None,
    typer.Option(
        "--time-limit",
        help="Stop a board's search after this many seconds and show the proved bounds "
        "(lo..hi) of the scores not finished.",
        show_default=False,
    ),
]
ThreadsOpt = Annotated[
    int | None,
    typer.Option(
        "--threads",
        help="Search threads for one solve, 1 or 2 (default: the machine's cores, at most 2).",
        show_default=False,
    ),
]
NodeLimitOpt = Annotated[
    int | None,
    typer.Option(
        "--node-limit",
        help="Stop a board's search after this many nodes (repeatable, unlike a time "
        "limit) and show the proved bounds of the scores not finished.",
        show_default=False,
    ),
]


def _diagram(deal: Deal) -> Table:
    """The four hands as a small compass table."""
    t = Table(box=None, show_header=False, padding=(0, 1))
    for _ in range(3):
        t.add_column()

    def hand(seat: Seat) -> str:
        if not deal.is_known(seat):
            return f"[bold]{seat.name}[/bold]\n(unknown)"
        h = deal.mask(seat)
        lines = []
        for s in range(4):
            lane = (h >> (16 * s)) & 0x1FFF
            ranks = "".join("23456789TJQKA"[r] for r in range(12, -1, -1) if lane >> r & 1)
            lines.append(f"{SUIT_SYMBOLS[s]} {ranks or '-'}")
        return f"[bold]{seat.name}[/bold]\n" + "\n".join(lines)

    t.add_row("", hand(Seat.N), "")
    t.add_row(hand(Seat.W), "", hand(Seat.E))
    t.add_row("", hand(Seat.S), "")
    return t


def _fmt(v: object) -> str:
    if v is None:
        return "-"
    if isinstance(v, int) and v > 0:
        return f"+{v}"
    return str(v)


def _fmt_bounded(v: object, b: tuple[object, object] | None) -> str:
    """A score, or the interval proved for it (``lo..hi``) when its search was stopped."""
    if v is None and b is not None:
        return f"{_fmt(b[0])}..{_fmt(b[1])}"
    return _fmt(v)


@app.command("solve")
@handle_errors
def solve_cmd(
    file: FileArg,
    contract: ContractOpt,
    trump: TrumpOpt = None,
    start: StartOpt = None,
    declarer: DeclarerOpt = None,
    rules: RulesOpt = "classic",
    variant: VariantOpt = None,
    scale: ScaleOpt = None,
    side: SideOpt = None,
    seats: SeatsOpt = None,
    time_limit: TimeLimitOpt = None,
    node_limit: NodeLimitOpt = None,
    threads: ThreadsOpt = None,
    json_out: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Solve every board of a PBN file double dummy: each seat's optimal score."""
    variants, sc = _options(rules, variant, scale, declarer)
    game, best = analysis.parse_game(
        contract, rules=rules, variants=variants, scale=sc, trump=trump, start=start
    )
    if side is not None:
        parse_side(side)
        if seats is not None:
            raise ParseError("give --side or --seats, not both")
        if game.kind == "dominoes":
            raise ParseError(
                f"--side: no side solving in {game.contract.name} (each seat plays for its own"
                " place)"
            )
    if seats is not None:
        parse_side(seats)
        if best:
            raise ParseError("--start best solves every seat: --seats does not go with it")
    check_limits(time_limit, node_limit, names=("--time-limit", "--node-limit"))
    if threads is not None and threads not in (1, 2):
        raise ParseError(f"--threads must be 1 or 2, not {threads}")
    solver = Solver(threads=default_threads() if threads is None else threads)
    bad = 0
    for item in _boards(file):
        if isinstance(item, BadBoard):
            bad += 1
            err_console.print(
                f"error: {item.reason}", markup=False, highlight=False, soft_wrap=True
            )
            continue
        board = item
        try:
            decl = board.declarer(variants, declarer)
            choice = None
            if best:
                choice = solver.best_start(
                    board.deal, decl, rules=rules, variants=variants, scale=sc
                )
                sol = choice.solution
            else:
                with _steps_progress(board.label, quiet) as update:
                    sol = solver.solve(
                        board.deal,
                        game,
                        declarer=decl,
                        side=side,
                        seats=seats,
                        time_limit=time_limit,
                        node_limit=node_limit,
                        on_progress=lambda seat, done, total: update(
                            None if seat is None else f"seat {seat.name}", done, total
                        ),
                    )
        except BarbuError as e:
            bad += 1
            err_console.print(
                f"error: {_at(board.location, e)}", markup=False, highlight=False, soft_wrap=True
            )
            continue
        if json_out:
            rec: dict[str, object] = {"board": board.tags.get("Board", board.number)}
            d = sol.as_dict()
            rec.update(
                contract=d["contract"],
                trump=d["trump"],
                start=d["start"],
                declarer=decl.name,
                rules=d["rules"],
                variants=d["variants"],
            )
            if side is not None:
                rec.update(side=d["side"], value=d["value"])
            else:
                rec["scores"] = d["scores"]
            if "bounds" in d:
                rec.update(exact=d["exact"], bounds=d["bounds"])
            elif best and (time_limit is not None or node_limit is not None):
                # Dominoes always finishes: under a limit its record says so too
                bounds = {
                    s.name: None if v is None else [v, v]
                    for s, v in zip(Seat, sol.scores, strict=True)
                }
                rec.update(exact=True, bounds=bounds)
            rec.update(deal=d["deal"], leader=d["leader"], nodes=d["nodes"], seconds=d["seconds"])
            if choice is not None:
                c = choice.as_dict()
                rec.update(
                    best_starts=c["best_starts"],
                    start_scores=c["start_scores"],
                    nodes=c["nodes"],
                    seconds=c["seconds"],
                )
            typer.echo(json.dumps(rec, ensure_ascii=False))
            continue
        title = (
            f"{board.label.capitalize()}: {sol.game.describe()}, declarer {decl.name}, "
            f"{sol.leader.name} leads"
        )
        res = Table(box=box.SIMPLE_HEAD, title=None)
        if side is not None:
            res.add_column("side")
            res.add_column("value", justify="right")
            res.add_row(
                "".join(s.name for s in sol.side or ()), _fmt_bounded(sol.value, sol.value_bounds)
            )
        else:
            for s in Seat:
                res.add_column(s.name, justify="right")
            res.add_row(*(_fmt_bounded(sol.scores[s], sol.bounds and sol.bounds[s]) for s in Seat))
        console.print(f"[bold]{escape(title)}[/bold]")
        outer = Table.grid(padding=(0, 4))
        outer.add_row(_diagram(board.deal), res)
        console.print(outer)
        nodes, secs = sol.nodes, sol.seconds
        if choice is not None:
            ranks = "  ".join(f"{r}: {_fmt(v)}" for r, v in choice.scores.items())
            console.print(
                f"Best start for {decl.name}: [bold]{choice.start}[/bold] "
                f"({_fmt(choice.score)}); {escape(ranks)}"
            )
            nodes, secs = choice.nodes, choice.seconds
        if not sol.exact:
            console.print(
                "[yellow]Stopped by the limit: lo..hi is the interval proved for a score.[/yellow]"
            )
        console.print(f"[dim]{nodes:,} nodes, {secs * 1000:.1f} ms[/dim]\n")
    if bad:
        raise typer.Exit(code=1)


@app.command("show")
@handle_errors
def show_cmd(file: FileArg) -> None:
    """Print every board of a PBN file: its tags and the four hands."""
    bad = 0
    for item in _boards(file):
        if isinstance(item, BadBoard):
            bad += 1
            err_console.print(
                f"error: {item.reason}", markup=False, highlight=False, soft_wrap=True
            )
            continue
        tags = ", ".join(f"{k} {v}" for k, v in item.tags.items() if k != "Deal")
        console.print(f"[bold]{escape(item.label.capitalize())}[/bold]  {escape(tags)}")
        console.print(_diagram(item.deal))
    if bad:
        raise typer.Exit(code=1)


# -- deal / batch: random deals, and many boards at once (batch.py, records.py) -------


@app.command("deal")
@handle_errors
def deal_cmd(
    boards: Annotated[int, typer.Option("-n", "--boards", min=0, help="How many boards.")],
    seed: Annotated[
        int | None,
        typer.Option("--seed", help="Random seed (default: a fresh one, written in the file)."),
    ] = None,
    out: Annotated[
        Path | None, typer.Option("--output", "-o", help="The PBN file (default: stdout).")
    ] = None,
    cards: Annotated[
        int, typer.Option("--cards", min=1, max=13, help="Cards a hand (below 13: endings).")
    ] = 13,
    first: Annotated[int, typer.Option("--first", min=1, help="The first board's number.")] = 1,
    event: Annotated[
        str | None, typer.Option("--event", help="An Event tag for every board.")
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace an existing -o file.")] = False,
) -> None:
    """Random deals in PBN, reproducible with --seed; Board and Dealer rotate as at a table."""
    import secrets

    from .batch import random_boards
    from .pbn import write_pbn

    if seed is None:
        seed = secrets.randbelow(2**63)
    opts = f"-n {boards} --seed {seed}" + (f" --cards {cards}" if cards != 13 else "")
    opts += f" --first {first}" if first != 1 else ""
    opts += f" --event {json.dumps(event, ensure_ascii=False)}" if event is not None else ""
    header = f"% PBN 2.1\n% barbu-dd deal {opts}\n"
    if event is not None:
        if "\n" in event or "\r" in event or '"' in event:
            raise ParseError("--event must be one line, without double quotes")
        try:
            event.encode("utf-8")
        except UnicodeEncodeError:
            raise ParseError(f"--event {event!r} is not UTF-8 text") from None
    if out is not None and out.is_file() and not force:
        # a fresh seed would not give the old deals back: never replace them unasked
        raise ParseError(f"{str(out)!r} exists: give --force to replace it")
    gen = random_boards(boards, seed, cards=cards, first=first, event=event)
    if out is None:
        sys.stdout.write(header + "\n")
        write_pbn(gen, sys.stdout, header=False)
        return
    try:
        with open(out, "w", encoding="utf-8", newline="\n") as f:
            f.write(header + "\n")
            write_pbn(gen, f, header=False)
    except OSError as e:
        raise ParseError(f"cannot write {str(out)!r}: {e.strerror or e}") from None


@contextlib.contextmanager
def _steps_progress(what: str, quiet: bool) -> Iterator[Callable[[str | None, int, int], None]]:
    """A progress bar on stderr, gone when done, for one board's solves (none when
    quiet or not a terminal); yields the ``on_progress(label, done, total)`` callback."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    progress = Progress(
        TextColumn(f"[bold]{escape(what)}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.description}"),
        console=err_console,
        transient=True,
        disable=quiet or not err_console.is_terminal,
    )
    with progress:
        task = progress.add_task("", total=None)

        def update(label: str | None, done: int, total: int) -> None:
            progress.update(task, completed=done, total=total, description=label or "")

        yield update


def _rate_column() -> Any:
    from rich.progress import ProgressColumn
    from rich.text import Text

    class RateColumn(ProgressColumn):
        """Boards a second."""

        def render(self, task: Any) -> Text:
            speed = task.finished_speed or task.speed
            return Text("-- boards/s" if speed is None else f"{speed:.1f} boards/s")

    return RateColumn()


@app.command("batch")
@handle_errors
def batch_cmd(
    files: Annotated[list[Path], typer.Argument(help="PBN files of boards.", show_default=False)],
    contract: Annotated[
        list[str] | None,
        typer.Option(
            "--contract",
            "-c",
            help="A contract, repeatable: NAME or NAME:ARG (trumps:H, dominoes:9, dominoes:best).",
        ),
    ] = None,
    table: Annotated[
        bool, typer.Option("--table", help="Every contract of the rule set (see README).")
    ] = False,
    trump: TrumpOpt = None,
    start: StartOpt = None,
    declarer: DeclarerOpt = None,
    rules: RulesOpt = "classic",
    variant: VariantOpt = None,
    scale: ScaleOpt = None,
    out: Annotated[
        Path | None, typer.Option("--output", "-o", help="The result file (default: stdout).")
    ] = None,
    fmt: Annotated[
        str | None,
        typer.Option("--format", "-f", help="jsonl, csv or parquet (default: from -o's suffix)."),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option("--workers", "-w", min=1, help="Worker processes (default: all cores)."),
    ] = None,
    scheduler: Annotated[
        str | None,
        typer.Option("--scheduler", help="Run on a Dask cluster: its address, tcp://HOST:8786."),
    ] = None,
    dask: Annotated[
        str | None,
        typer.Option("--dask", help="'local': run on a local Dask cluster of --workers processes."),
    ] = None,
    resume: Annotated[
        bool, typer.Option("--resume", help="Go on with OUT: skip the boards already in it.")
    ] = False,
    force: Annotated[bool, typer.Option("--force", help="Replace an existing OUT.")] = False,
    retry_open: Annotated[
        bool,
        typer.Option(
            "--retry-open",
            help="Go on with OUT as --resume does, and solve again its boards with scores "
            "not finished (with this run's --time-limit); their new records replace the old.",
        ),
    ] = False,
    quiet: QuietOpt = False,
    chunk: Annotated[
        int | None, typer.Option("--chunk", min=1, help="Boards a task (default: automatic).")
    ] = None,
    memory: Annotated[
        int,
        typer.Option(
            "--memory", min=1, max=MAX_TT_BYTES >> 20, help="Transposition table MiB a worker."
        ),
    ] = 64,
    time_limit: Annotated[
        float | None,
        typer.Option(
            "--time-limit",
            help="Seconds for each board's searches: a score not finished is null, with "
            "the interval proved for it in the record (bounds, exact).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Solve every board of PBN files for some contracts, on all cores or a Dask cluster."""
    import time

    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from .batch import check_files, count_boards, make_job, solve_files
    from .records import ErrorLog, ResultWriter, errors_path

    if scheduler is not None and dask is not None:
        raise ParseError("give --scheduler or --dask, not both")
    if (resume or retry_open) and force:
        flag = "--retry-open" if retry_open else "--resume"
        raise ParseError(f"give {flag} (go on with OUT) or --force (replace it), not both")
    if retry_open and time_limit is None:
        raise ParseError(
            "--retry-open needs --time-limit (the boards left open were solved with one):"
            " give a larger one"
        )
    check_limits(time_limit, names=("--time-limit", "--node-limit"))
    if dask is not None and dask.strip().lower() != "local":
        raise ParseError(f"--dask takes 'local' (for a cluster give --scheduler), got {dask!r}")
    seen = {p.resolve() for p in files}
    if len(seen) != len(files):
        raise ParseError("a file is given twice")
    job = make_job(
        contract,
        table=table,
        rules=rules,
        variants=variant or [],
        scale=scale,
        trump=trump,
        start=start,
        declarer=declarer,
        tt_bytes=memory << 20,
        time_limit=time_limit,
    )
    check_files(files)  # before --force replaces OUT
    if out is not None:
        _check_not_an_input(out, [*files, *([scale] if scale is not None else [])])
    writer = ResultWriter(out, job, fmt=fmt, resume=resume, force=force, retry_open=retry_open)
    log = ErrorLog(None if out is None else errors_path(out))
    show = not quiet and err_console.is_terminal
    total = max(count_boards(files) - len(writer.done), 0) if show else None
    counts: dict[str, int] = {}
    open_boards = 0  # boards with a score not finished (under --time-limit)
    shown: list[str] = []  # the first bad boards, for the summary
    progress = Progress(
        TextColumn("[bold]solving"),
        BarColumn(),
        MofNCompleteColumn(),
        _rate_column(),
        TimeElapsedColumn(),
        TextColumn("elapsed,"),
        TimeRemainingColumn(),
        TextColumn("left"),
        console=err_console,
        disable=not show,
    )
    t0 = time.perf_counter()
    interrupted = False
    try:
        with progress:
            task = progress.add_task("solving", total=total)
            for r in solve_files(
                files,
                job,
                workers=workers,
                scheduler=scheduler if dask is None else "local",
                done=writer.done,
                chunk_size=chunk,
                counts=counts,
            ):
                if r.ok:
                    open_boards += not writer.write(r).exact  # (met with the old record)
                else:
                    log.write(r)
                    if len(shown) < 20:
                        shown.append(f"error: {r.error}")
                progress.advance(task)
    except KeyboardInterrupt:
        interrupted = True
    except BarbuError:
        writer.discard()  # no empty output left behind by a run that never began
        raise
    finally:
        writer.close()
        log.close()
    secs = time.perf_counter() - t0
    n = writer.written + log.count
    unfinished = f" ({open_boards} with scores not finished)" if time_limit is not None else ""
    retried = (
        f", {writer.replaced} of {writer.reopened} open ones solved again" if retry_open else ""
    )
    summary = (
        f"{writer.written} boards solved{unfinished}, {counts.get('skipped', 0)} already done"
        f"{retried}, {log.count} bad; {secs:.1f} s, {n / secs if secs > 0 else 0.0:.1f} boards/s"
    )
    if log.count > len(shown):
        shown.append(f"... and {log.count - len(shown)} more bad boards")
    if log.count and log.path is not None:
        summary += f"; bad boards in {str(log.path)!r}"
    for line in [*shown, summary]:
        err_console.print(line, markup=False, highlight=False, soft_wrap=True)
    if interrupted:
        flag = "--retry-open" if retry_open else "--resume"
        raise fail(f"interrupted: run again with {flag} to go on")
    if log.count:
        raise typer.Exit(code=1)


# -- analyze / playout / table / best: the hand analyser (analyze.py) --------------------

PlayOpt = Annotated[
    str | None,
    typer.Option(
        "--play",
        help="A play record from the start, e.g. 'SQ SK S2 SA ...' (may stop anywhere; "
        "Dominoes passes '-'). Default: the board's PBN Play section.",
    ),
]
ViewOpt = Annotated[
    str | None,
    typer.Option("--seat", help="Show the card values from this seat's point of view."),
]
PlayStartOpt = Annotated[
    str | None,
    typer.Option("--start", help="Dominoes starting rank (2..A), or 'best' (the declarer's)."),
]


def _card_text(move: int | None) -> str:
    """``♠Q``, or ``pass``."""
    if move is None:
        return "pass"
    return SUIT_SYMBOLS[move >> 4] + "23456789TJQKA"[move & 15]


def _boards(file: Path) -> Iterator[Board | BadBoard]:
    """``read_pbn(file, errors="yield")``, and an error for a file without a board.

    :raises ParseError: (at the end) for a file without a board."""
    n = 0
    for item in read_pbn(file, errors="yield"):
        n += 1
        yield item
    if n == 0:
        raise no_board_error(file)


def _each_board(file: Path, each: Callable[[Board], None], only: int | None = None) -> None:
    """Run ``each`` on every board of a PBN file (or its board number ``only``, 1-based);
    a bad board is reported on stderr (and gives exit code 1) while the others go on."""
    bad = seen = 0
    for seen, item in enumerate(_boards(file), 1):
        if only is not None and seen != only:
            continue
        if isinstance(item, BadBoard):
            bad += 1
            err_console.print(
                f"error: {item.reason}", markup=False, highlight=False, soft_wrap=True
            )
            continue
        try:
            each(item)
        except BarbuError as e:
            bad += 1
            err_console.print(
                f"error: {_at(item.location, e)}", markup=False, highlight=False, soft_wrap=True
            )
    if only is not None and seen < only:
        raise ParseError(f"{str(file)!r} has no board {only} (it holds {seen})")
    if bad:
        raise typer.Exit(code=1)


def _options(
    rules: str, variant: list[str] | None, scale: Path | None, declarer: str | None = None
) -> tuple[list[str], Scale | None]:
    """The variants (canonical) and the scale file; the rule set and the declarer are
    checked too, once before any board."""
    contracts_of(rules)
    if declarer is not None:
        parse_seat(declarer)
    return sorted(parse_variants(variant or [], rules)), (load_scale(scale) if scale else None)


def _board_key(board: Board) -> object:
    return board.tags.get("Board", board.number)


def _values_table(pv: analysis.CardValues) -> Table:
    """The card values of a position, best cards starred."""
    t = Table(box=box.SIMPLE_HEAD)
    t.add_column("card")
    t.add_column("equals")
    t.add_column(f"value for {pv.view.name}", justify="right")
    t.add_column("")
    for o in pv.options:
        eq = " ".join(_card_text(c) for c in o.equals)
        star = "[bold green]*[/bold green]" if o.best else ""
        style = "bold" if o.best else ""
        t.add_row(_card_text(o.card), eq, _fmt_bounded(o.value, o.bounds), star, style=style)
    return t


def _cost_text(p: analysis.PlayedCard) -> str:
    """A move's cost: empty when it is no error, ``lo..hi`` when a time limit left the
    cost open, with ``?`` when it left open whether the move is an error at all."""
    lo, hi = p.cost_bounds
    if hi == 0:
        return ""
    text = str(lo) if lo == hi else f"{lo}..{hi}"
    return text if p.decided else text + "?"


@app.command("analyze")
@handle_errors
def analyze_cmd(
    file: FileArg,
    contract: ContractOpt,
    trump: TrumpOpt = None,
    start: PlayStartOpt = None,
    seat: ViewOpt = None,
    play: PlayOpt = None,
    declarer: DeclarerOpt = None,
    rules: RulesOpt = "classic",
    variant: VariantOpt = None,
    scale: ScaleOpt = None,
    board: BoardOpt = None,
    json_out: JsonOpt = False,
    time_limit: Annotated[
        float | None,
        typer.Option(
            "--time-limit",
            help="Seconds for each search (each guarantee before and after a card, each "
            "card value); one not finished shows the interval proved for it (lo..hi).",
            show_default=False,
        ),
    ] = None,
    quiet: QuietOpt = False,
) -> None:
    """Card values, and the cost of each card of a play record (errors per player)."""
    check_limits(time_limit, names=("--time-limit", "--node-limit"))
    variants, sc = _options(rules, variant, scale, declarer)
    game, best = analysis.parse_game(
        contract, rules=rules, variants=variants, scale=sc, trump=trump, start=start
    )
    if seat is not None:
        parse_seat(seat)
    try:
        moves = analysis.parse_moves(play) if play is not None else None
    except ParseError as e:
        raise ParseError(f"--play: {e}") from None
    solver = Solver()

    def each(board: Board) -> None:
        # Without --play, the board's Play section (its Play tag's seat plays first).
        found = analysis.board_record(board, game, declarer) if moves is None else None
        decl: Seat | None = None
        record: list[int | None] | None = moves
        if found is not None:
            deal, record = found
        else:
            deal, decl = board.deal, board.declarer(variants, declarer)
        with _steps_progress(board.label, quiet) as update:
            a = analysis.analyze(
                deal,
                game if not best else contract,
                play=record,
                seat=seat,
                declarer=decl,
                trump=trump,
                start=start,
                rules=rules,
                variants=variants,
                scale=sc,
                solver=solver,
                time_limit=time_limit,
                on_progress=lambda done, total: update(None, done, total),
            )
        if json_out:
            rec: dict[str, object] = {"board": _board_key(board)}
            rec.update(a.as_dict())
            typer.echo(json.dumps(rec, ensure_ascii=False))
        else:
            _print_analysis(board, a)
        if not a.complete:
            n = len(record) if record is not None else 0
            err_console.print(
                f"interrupted: the analysis above stops after {len(a.plays)} of {n} cards",
                markup=False,
                highlight=False,
            )
            raise typer.Exit(code=130)

    _each_board(file, each, board)


def _print_analysis(board: Board, a: analysis.Analysis) -> None:
    """An analysis as text: the deal, the cards of the record, the card values."""
    title = f"{board.label.capitalize()}: {a.game.describe()}, {a.leader.name} plays first"
    console.print(f"[bold]{escape(title)}[/bold]")
    console.print(_diagram(Deal(a.deal)))
    if a.plays:
        t = Table(box=box.SIMPLE_HEAD)
        for name in ("#", "trick", "seat", "card", "before", "after", "cost", "better"):
            right = name in ("before", "after", "cost")
            t.add_column(name, justify="right" if right else "left")
        for p in a.plays:
            t.add_row(
                str(p.number),
                "" if p.trick is None else str(p.trick),
                p.seat.name,
                _card_text(p.card),
                _fmt_bounded(p.before, p.before_bounds),
                _fmt_bounded(p.after, p.after_bounds),
                _cost_text(p),
                " ".join(_card_text(m) for m in p.better),
                style="bold red" if p.error else "" if p.decided else "yellow",
            )
        console.print(t)
        if a.time_limit is None:
            costs = ", ".join(f"{s.name} {a.costs[s]}" for s in Seat)
            console.print(f"Errors: {len(a.errors)}; cost by player: {costs}; total {a.total_cost}")
        else:
            cb = a.cost_bounds
            costs = ", ".join(
                f"{s.name} {lo}" if lo == hi else f"{s.name} {lo}..{hi}"
                for s, (lo, hi) in zip(Seat, cb, strict=True)
            )
            console.print(
                f"Errors: {len(a.errors)} proved, {len(a.undecided)} undecided (the time "
                f"limit); cost by player: {costs}; proved in all {a.total_cost}"
            )
    if a.scores is not None:
        res = ", ".join(f"{s.name} {_fmt(a.scores[s])}" for s in Seat)
        console.print(f"Result: {res}")
    pv = a.position
    if pv is not None:
        where = f"trick {pv.trick}" if pv.trick is not None else f"table [{pv.layout}]"
        if pv.trick_cards:
            where += ", cards so far " + " ".join(_card_text(c) for c in pv.trick_cards)
        console.print(
            f"{pv.mover.name} to play ({escape(where)}); values for {pv.view.name}, "
            f"position {_fmt_bounded(pv.value, pv.bounds)}:"
        )
        console.print(_values_table(pv))
    console.print(f"[dim]{a.seconds * 1000:.1f} ms[/dim]\n")


def _line_rows(p: analysis.Playout) -> Table:
    """The line trick by trick (seat columns), or Dominoes round by round."""
    t = Table(box=box.SIMPLE_HEAD)
    t.add_column("trick" if p.tricks else "round", justify="right")
    for s in Seat:
        t.add_column(s.name)
    if p.tricks:
        t.add_column("won by")
        numbers = [s.trick for s in p.steps if s.winner is not None]
        for tr, number in zip(p.tricks, numbers, strict=True):
            cells = [""] * 4
            for i, c in enumerate(tr.cards):
                seat = tr.seat_of(i)
                text = _card_text(c)
                cells[seat] = f"[bold]{text}[/bold]" if seat == tr.winner else text
                if i == 0:
                    cells[seat] += "[dim]<[/dim]"
            t.add_row(str(number), *cells, tr.winner.name)
        return t
    # A round ends when play comes back round the table (an Ace replayed shares a cell).
    row: list[str] = [""] * 4
    last = -1
    n = 0
    for step in p.steps:
        col = (step.seat - p.leader) & 3
        if col < last:
            n += 1
            t.add_row(str(n), *row)
            row = [""] * 4
        row[step.seat] = f"{row[step.seat]} {_card_text(step.card)}".strip()
        last = col
    if any(row):
        t.add_row(str(n + 1), *row)
    return t


@app.command("playout")
@handle_errors
def playout_cmd(
    file: FileArg,
    contract: ContractOpt,
    trump: TrumpOpt = None,
    start: PlayStartOpt = None,
    declarer: DeclarerOpt = None,
    rules: RulesOpt = "classic",
    variant: VariantOpt = None,
    scale: ScaleOpt = None,
    board: BoardOpt = None,
    json_out: JsonOpt = False,
    time_limit: Annotated[
        float | None,
        typer.Option(
            "--time-limit",
            help="Seconds for each search (each guarantee, each card value); each player "
            "then plays the card with the best proved bounds.",
            show_default=False,
        ),
    ] = None,
    quiet: QuietOpt = False,
) -> None:
    """A consistent line: each player always keeps its own guarantee highest."""
    check_limits(time_limit, names=("--time-limit", "--node-limit"))
    variants, sc = _options(rules, variant, scale, declarer)
    analysis.parse_game(
        contract, rules=rules, variants=variants, scale=sc, trump=trump, start=start
    )
    solver = Solver()

    def each(board: Board) -> None:
        with _steps_progress(board.label, quiet) as update:
            p = analysis.playout(
                board.deal,
                contract,
                declarer=board.declarer(variants, declarer),
                trump=trump,
                start=start,
                rules=rules,
                variants=variants,
                scale=sc,
                solver=solver,
                time_limit=time_limit,
                on_progress=lambda done, total: update(None, done, total),
            )
        if json_out:
            rec: dict[str, object] = {"board": _board_key(board)}
            rec.update(p.as_dict())
            typer.echo(json.dumps(rec, ensure_ascii=False))
            return
        title = f"{board.label.capitalize()}: {p.game.describe()}, {p.leader.name} plays first"
        console.print(f"[bold]{escape(title)}[/bold]")
        console.print(_diagram(Deal(p.deal)))
        console.print(_line_rows(p))
        res = Table(box=box.SIMPLE_HEAD)
        res.add_column("")
        for s in Seat:
            res.add_column(s.name, justify="right")
        res.add_column("total", justify="right")
        g, gb = p.guarantees, p.guarantee_bounds
        res.add_row(
            "guaranteed", *(_fmt_bounded(g[s], None if gb is None else gb[s]) for s in Seat), ""
        )
        if p.places is not None:
            res.add_row("place", *(_fmt(p.places[s]) for s in Seat), "")
        res.add_row("line", *(_fmt(p.scores[s]) for s in Seat), _fmt(p.total), style="bold")
        console.print(res)
        if not p.exact:
            open_steps = sum(st.value is None for st in p.steps)
            open_start = sum(v is None for v in p.guarantees)
            console.print(
                f"The time limit left guarantees open ({open_start} of the four at the start, "
                f"{open_steps} of the line's {len(p.steps)} moves): each player played the "
                "card with the best proved bounds."
            )
        console.print(f"[dim]{p.seconds * 1000:.1f} ms[/dim]\n")

    _each_board(file, each, board)


@app.command("table")
@handle_errors
def table_cmd(
    file: FileArg,
    declarer: DeclarerOpt = None,
    rules: RulesOpt = "classic",
    variant: VariantOpt = None,
    scale: ScaleOpt = None,
    dominoes: Annotated[
        str,
        typer.Option(
            "--dominoes", help="Dominoes rows: 'best' (the declarer's best rank) or 'all' (13)."
        ),
    ] = "best",
    workers: Annotated[
        int,
        typer.Option(
            "--workers",
            "-w",
            min=1,
            help="Processes for the trick contracts' solves (2 on two cores: full deals).",
        ),
    ] = 1,
    time_limit: Annotated[
        float | None,
        typer.Option(
            "--time-limit",
            help="Seconds for a board's trick-contract searches; a score not finished "
            "shows the interval proved for it (lo..hi).",
            show_default=False,
        ),
    ] = None,
    board: BoardOpt = None,
    json_out: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Every contract of the rule set by seat, with the declarer's best trump and start."""
    variants, sc = _options(rules, variant, scale, declarer)
    mode = dominoes.strip().lower()
    if mode not in ("best", "all"):
        raise ParseError(f"--dominoes must be 'best' or 'all', got {dominoes!r}")
    check_limits(time_limit, names=("--time-limit", "--node-limit"))
    check_workers(workers)
    solver = Solver(threads=default_threads())

    def each(board: Board) -> None:
        decl = board.declarer(variants, declarer)
        with _steps_progress(board.label, quiet) as on_progress:
            t = analysis.table(
                board.deal,
                declarer=decl,
                rules=rules,
                variants=variants,
                scale=sc,
                dominoes="all" if mode == "all" else "best",
                solver=solver,
                workers=workers,
                time_limit=time_limit,
                on_progress=on_progress,
            )
        if json_out:
            rec: dict[str, object] = {"board": _board_key(board)}
            rec.update(t.as_dict())
            typer.echo(json.dumps(rec, ensure_ascii=False))
            return
        title = f"{board.label.capitalize()}: {rules} rules, declarer {decl.name}"
        res = Table(box=box.SIMPLE_HEAD, title=None)
        res.add_column("contract")
        for s in Seat:
            res.add_column(f"{s.name}{' (decl.)' if s == decl else ''}", justify="right")
        for r in t.rows:
            res.add_row(
                escape(r.title),
                *(_fmt_bounded(r.scores[s], r.bounds and r.bounds[s]) for s in Seat),
            )
        console.print(f"[bold]{escape(title)}[/bold]")
        outer = Table.grid(padding=(0, 4))
        outer.add_row(_diagram(board.deal), res)
        console.print(outer)
        notes = []
        if t.best_trump is not None:
            sym = SUIT_SYMBOLS["SHDC".index(t.best_trump)] if t.best_trump != "NT" else "NT"
            notes.append(f"best trump for {decl.name}: {sym} ({_fmt(t.best_trump_value)})")
        elif not t.exact and any(r.trump is not None for r in t.rows):
            notes.append(f"best trump for {decl.name}: not decided within the time limit")
        if t.best_start is not None:
            notes.append(f"best start: {t.best_start} ({_fmt(t.best_start_value)})")
        if notes:
            console.print("; ".join(notes))
        if not t.exact:
            console.print(
                "[yellow]Stopped by the time limit: lo..hi is the interval proved for a "
                "score.[/yellow]"
            )
        console.print(f"[dim]{t.seconds * 1000:.1f} ms[/dim]\n")

    _each_board(file, each, board)


def _fmt_gain(o: analysis.ContractOption) -> str:
    """A contract's gain, or the interval proved for it (``lo..hi``); ``-`` without
    an average."""
    if (g := o.gain_bounds) is None:
        return "-"
    lo, hi = g
    return f"{lo:+.2f}" if o.bounds is None else f"{lo:+.2f}..{hi:+.2f}"


@app.command("best")
@handle_errors
def best_cmd(
    file: FileArg,
    declarer: DeclarerOpt = None,
    played: Annotated[
        str | None,
        typer.Option("--played", help="Contracts this declarer already played, e.g. barbu,trumps."),
    ] = None,
    averages: Annotated[
        Path | None,
        typer.Option("--averages", help="An averages file (default: the one shipped)."),
    ] = None,
    rules: RulesOpt = "classic",
    variant: VariantOpt = None,
    scale: ScaleOpt = None,
    time_limit: Annotated[
        float | None,
        typer.Option(
            "--time-limit",
            help="Seconds for a board's searches; a value not finished shows the interval "
            "proved for it (lo..hi), and the advice waits until one contract's gain is proved "
            "the largest.",
            show_default=False,
        ),
    ] = None,
    board: BoardOpt = None,
    json_out: JsonOpt = False,
    quiet: QuietOpt = False,
) -> None:
    """Which contract to declare, double dummy: the largest gain over the average."""
    variants, sc = _options(rules, variant, scale, declarer)
    done = [p for p in (played or "").split(",") if p.strip()]
    played_set(done, rules)  # checked once, before any board
    check_limits(time_limit, names=("--time-limit", "--node-limit"))
    table_ = load_averages(averages)  # once, before any board
    solver = Solver(threads=default_threads())

    def each(board: Board) -> None:
        decl = board.declarer(variants, declarer)
        with _steps_progress(board.label, quiet) as on_progress:
            adv = analysis.best_contract(
                board.deal,
                declarer=decl,
                played=done,
                rules=rules,
                variants=variants,
                scale=sc,
                averages=table_,
                solver=solver,
                time_limit=time_limit,
                on_progress=on_progress,
            )
        if json_out:
            rec: dict[str, object] = {"board": _board_key(board)}
            rec.update(adv.as_dict())
            typer.echo(json.dumps(rec, ensure_ascii=False))
            return
        console.print(f"[bold]{escape(board.label.capitalize())}: declarer {decl.name}[/bold]")
        res = Table(box=box.SIMPLE_HEAD)
        for name in ("contract", "value", "average", "gain", "deals"):
            res.add_column(name, justify="left" if name == "contract" else "right")
        for o in adv.options:
            what = o.title
            if o.trump is not None:
                what += f" ({SUIT_SYMBOLS['SHDC'.index(o.trump)] if o.trump != 'NT' else 'NT'})"
            if o.start is not None and o.contract == "dominoes":
                what += f" from the {o.start}"
            res.add_row(
                escape(what),
                _fmt_bounded(o.value, o.bounds),
                "-" if o.average is None else f"{o.average:.2f} ± {o.stderr or 0:.2f}",
                _fmt_gain(o),
                "-" if o.deals is None else str(o.deals),
                style="bold green" if o is adv.best else "",
            )
        outer = Table.grid(padding=(0, 4))
        outer.add_row(_diagram(board.deal), res)
        console.print(outer)
        if adv.best is not None:
            console.print(
                f"Advice: [bold]{escape(adv.best.title)}[/bold] (gain {_fmt_gain(adv.best)})"
            )
        else:
            names = ", ".join(o.title for o in adv.contenders)
            console.print(f"Advice: not decided within the time limit, between {escape(names)}")
        if not adv.exact:
            console.print(
                "[yellow]Stopped by the time limit: lo..hi is the interval proved for a "
                "value and its gain.[/yellow]"
            )
        if adv.provisional:
            console.print(
                f"[yellow]warning: provisional averages ({escape(adv.averages)}: fewer deals "
                "than asked for)[/yellow]"
            )
        for note in adv.notes:
            console.print(f"[yellow]note: {escape(note)}[/yellow]")
        console.print(f"[dim]{adv.seconds * 1000:.1f} ms[/dim]\n")

    _each_board(file, each, board)


def _check_not_an_input(out: Path, inputs: list[Path]) -> None:
    """``batch -o OUT`` must not write over one of its own inputs (with ``--force``
    it would empty it, with ``--resume`` cut its last line): OUT, its errors file or
    its Parquet journal being one of ``inputs`` is an error; so is an errors file that
    is no regular file (a directory, say: found before OUT is made, so that no empty
    OUT is left behind; OUT and the journal ResultWriter checks itself)."""
    from .records import errors_path, journal_path

    errors = errors_path(out)
    if errors.exists() and not errors.resolve().is_file():
        raise ParseError(f"{str(errors)!r} is not a regular file: move it out of the way")
    for o in (out, errors, journal_path(out)):
        for f in inputs:
            try:
                same = o.exists() and f.exists() and os.path.samefile(o, f)
            except OSError:
                same = False
            if same:
                raise ParseError(
                    f"-o {str(out)!r} would write over the input {str(f)!r}:"
                    " give another output file"
                )


# -- advise: which contract from one's own hand, by simulation (advise.py) ----------------


def _advise_hand(
    hand: str, board_no: int | None, declarer: str | None, variants: list[str]
) -> tuple[str, str]:
    """The declarer's hand and seat: a PBN hand, or a PBN file's board and a seat (by
    default its declarer: the Dealer's left, or the Dealer with *dealer declares*)."""
    from .advise import DEFAULT_DECLARER

    path = Path(hand)
    if not path.is_file():
        if board_no is not None:
            raise ParseError(f"--board is for a PBN file, and {hand!r} is not a file")
        if "/" in hand or hand.lower().endswith(".pbn") or path.exists():
            raise ParseError(f"cannot read {hand!r}: no such file (or not a file)")
        return hand, declarer or DEFAULT_DECLARER.name
    for i, item in enumerate(_boards(path), 1):
        if board_no is not None and i != board_no:
            continue
        if isinstance(item, BadBoard):
            raise ParseError(item.reason)
        seat = item.declarer(variants, declarer)  # no Dealer and no --declarer: an error
        if not item.deal.is_known(seat):
            raise ParseError(
                f"{item.location}: the hand of {seat.name} is unknown ('-'): advise needs"
                " the declarer's 13 cards"
            )
        if item.deal.sizes()[seat] != 13:
            raise ParseError(
                f"{item.location}: advise needs a full hand of 13 cards, {seat.name} holds"
                f" {item.deal.sizes()[seat]}"
            )
        return hand_to_pbn(item.deal.mask(seat)), seat.name
    raise ParseError(f"{hand!r} has no board {board_no if board_no is not None else 1}")


def _advice_name(c: Any) -> str:
    """``'Trumps (♥)'``, ``'Dominoes from the 9'``, ``'Barbu (No King of Hearts)'``."""
    what = str(c.title)
    if c.choice is not None and c.contract in ("trumps", "tricks"):
        what += f" ({SUIT_SYMBOLS['SHDC'.index(c.choice)] if c.choice != 'NT' else 'NT'})"
    elif c.choice is not None and c.contract == "dominoes":
        what += f" from the {c.choice}"
    return what


def _advice_table(adv: Any) -> Table:
    """The contracts of an advice: mean, 95% interval, average, gain."""
    t = Table(box=box.SIMPLE_HEAD)
    limited = adv.unfinished > 0  # under a time limit: the interval each mean is proved in
    names = ["contract", "mean", *(["proved (open)"] if limited else []), "95% interval"]
    longest_word = max((len(w) for c in adv.contracts for w in _advice_name(c).split()), default=8)
    for name in (*names, "average", "gain"):
        if name == "contract":
            t.add_column(name, min_width=max(longest_word, len(name)))
        else:  # numbers stay whole; an interval may break at its " … "
            t.add_column(name, justify="right", no_wrap="interval" not in name)
    for c in adv.contracts:
        o = c.chosen
        proved = f"{o.mean_low:+.1f}…{o.mean_high:+.1f} ({o.unfinished})"
        t.add_row(
            escape(_advice_name(c)),
            f"{c.mean:+.2f}",
            *([proved] if limited else []),
            f"{c.chosen.low:+.2f} … {c.chosen.high:+.2f}",
            "-" if c.average is None else f"{c.average:+.2f}",
            "-" if c.gain is None else f"{c.gain:+.2f}",
            style="bold green" if c is adv.best else "",
        )
    return t


def _doubles_table(d: Any) -> Table:
    name, _, arg = str(d.label).partition(":")
    what = str(d.title)
    if arg and name in ("trumps", "tricks"):
        what += f" ({SUIT_SYMBOLS['SHDC'.index(arg)] if arg != 'NT' else 'NT'})"
    elif arg and name == "dominoes":
        what += f" from the {arg}"
    t = Table(box=box.SIMPLE_HEAD, title=f"Doubles in {escape(what)} ({d.samples} samples)")
    for name in ("seat", "one double brings you", "95% interval", "if they double you"):
        t.add_column(name, justify="left" if name == "seat" else "right")
    for s in d.seats:
        if not s.may_double:
            what = "may not double you"
        elif s.redouble_pays:
            what = "[green]redouble[/green]"
        else:
            what = "do not redouble"
        t.add_row(s.seat.name, f"{s.mean:+.2f}", f"{s.low:+.2f} … {s.high:+.2f}", what)
    return t


@app.command("advise")
@handle_errors
def advise_cmd(
    hand: Annotated[
        str,
        typer.Argument(
            help="The declarer's hand, spades.hearts.diamonds.clubs (AK32.Q54.T98.762), "
            "or a PBN file (its first board, or --board; the hand of --declarer).",
            show_default=False,
        ),
    ],
    declarer: Annotated[
        str | None,
        typer.Option(
            "--declarer",
            "-d",
            help="Declarer seat N|E|S|W (default: S; for a PBN file, left of its Dealer).",
        ),
    ] = None,
    board: Annotated[
        int | None, typer.Option("--board", min=1, help="Which board of the PBN file (1-based).")
    ] = None,
    played: Annotated[
        str | None,
        typer.Option("--played", help="Contracts this declarer already played, e.g. barbu,trumps."),
    ] = None,
    contract: Annotated[
        list[str] | None,
        typer.Option(
            "--contract",
            "-c",
            help="Only these contracts (repeatable): NAME, or trumps:H / dominoes:9 to fix "
            "the suit or rank (default: every contract of the rule set).",
        ),
    ] = None,
    samples: Annotated[
        int, typer.Option("--samples", "-n", min=1, help="Random deals of the 39 other cards.")
    ] = 100,
    seed: Annotated[
        int | None,
        typer.Option("--seed", help="Seed of the samples (default: a fresh one, reported)."),
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option("--workers", "-w", min=1, help="Worker processes (default: all cores)."),
    ] = None,
    doubles: Annotated[
        str | None,
        typer.Option(
            "--doubles",
            help="Estimate the doubles of this contract (samples played out; Trumps / "
            "Dominoes without a suit or rank: the advised one).",
        ),
    ] = None,
    doubles_left: Annotated[
        int | None,
        typer.Option(
            "--doubles-left",
            min=0,
            max=2,
            help="Compulsory doubles (0-2) each other player still owes you (with --doubles).",
        ),
    ] = None,
    averages: Annotated[
        Path | None,
        typer.Option("--averages", help="An averages file (default: the one shipped)."),
    ] = None,
    plot: Annotated[
        Path | None,
        typer.Option("--plot", help="Draw the score distribution per contract to FILE.png."),
    ] = None,
    rules: RulesOpt = "classic",
    variant: VariantOpt = None,
    scale: ScaleOpt = None,
    time_limit: Annotated[
        float | None,
        typer.Option(
            "--time-limit",
            help="Seconds for each sample's searches (Dominoes and the Réussite always "
            "finish): a score not finished counts as the midpoint of the interval proved "
            "for it, and each mean shows the interval it is proved to lie in.",
            show_default=False,
        ),
    ] = None,
    settle: Annotated[
        float | None,
        typer.Option(
            "--settle",
            help="With --time-limit: then at most SECONDS more solving again, in rounds "
            "with more time each, the scores not finished that leave the advice "
            "unsettled (the advised option's and those of the options that may beat it).",
            show_default=False,
        ),
    ] = None,
    tolerance: Annotated[
        float,
        typer.Option(
            "--tolerance",
            min=0.0,
            help="With --settle: stop once the advice is proved within POINTS of the "
            "best contract on these samples (0: until it is settled).",
        ),
    ] = 0.0,
    json_out: Annotated[bool, typer.Option("--json", help="Print the advice as JSON.")] = False,
    quiet: QuietOpt = False,
) -> None:
    """Which contract to declare from your own 13 cards: random deals of the rest, solved."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
    )

    from .advise import advise, check_plot_path, plot_advice

    if doubles_left is not None and doubles is None:
        raise ParseError("--doubles-left goes with --doubles CONTRACT")
    check_limits(time_limit, names=("--time-limit", "--node-limit"))
    check_limits(settle, names=("--settle", ""))
    if settle is not None and time_limit is None:
        raise ParseError("--settle goes with --time-limit (without one every score is exact)")
    if tolerance and settle is None:
        raise ParseError("--tolerance goes with --settle")
    if plot is not None:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise BarbuError(
                "--plot needs matplotlib, which is not installed: pip install 'barbu-dd[plot]'"
            ) from None
        check_plot_path(plot)
    table_ = load_averages(averages)
    text, seat = _advise_hand(hand, board, declarer, variant or [])
    progress = Progress(
        TextColumn("[bold]sampling"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.description}"),
        console=err_console,
        disable=quiet or not err_console.is_terminal,
    )
    with progress:
        task = progress.add_task("", total=samples)

        def on_progress(done: int, total: int, leader: str | None) -> None:
            # the settling rounds say so themselves ("settling, round 2: barbu")
            if leader and not leader.startswith("settling"):
                leader = f"best so far: {leader}"
            progress.update(task, total=total, completed=done, description=leader or "")

        adv = advise(
            text,
            declarer=seat,
            played=[p for p in (played or "").split(",") if p.strip()],
            contracts=contract or None,
            samples=samples,
            seed=seed,
            workers=workers,
            rules=rules,
            variants=variant or [],
            scale=scale,
            averages=table_,
            doubles=doubles,
            doubles_left=doubles_left,
            on_progress=on_progress,
            time_limit=time_limit,
            settle_time=settle,
            tolerance=tolerance,
        )
    if json_out:
        typer.echo(json.dumps(adv.as_dict(), ensure_ascii=False))
    else:
        console.print(
            f"[bold]{escape(adv.hand)}[/bold], declarer {adv.declarer.name}: "
            f"{adv.samples} samples (seed {adv.seed}), {adv.rules} rules"
        )
        console.print(_advice_table(adv))
        if adv.best is not None:
            how = "gain over the average" if adv.ranked_by == "gain" else "mean score"
            line = f"Advice: [bold]{escape(_advice_name(adv.best))}[/bold] (by {how})"
            if not adv.settled:
                line += (
                    "; [yellow]not settled under the time limit"
                    + (" and the settling time" if adv.settle_time is not None else "")
                    + "[/yellow]: "
                    f"{escape(', '.join(adv.contenders))} may rank higher, by at most "
                    f"{adv.regret:.2f} points"
                    + (" (within the tolerance)" if adv.regret <= adv.tolerance else "")
                )
            elif adv.regret > 0:
                what = "suit" if adv.best.contract in ("trumps", "tricks") else "rank"
                line += (
                    f"; [yellow]its {what} is not settled[/yellow]: another may be better"
                    f" by at most {adv.regret:.2f} points"
                )
            console.print(line, soft_wrap=True)
        if adv.doubles is not None:
            console.print(_doubles_table(adv.doubles))
            if adv.doubles.reminder:
                console.print(escape(adv.doubles.reminder), soft_wrap=True)
        for note in adv.notes:
            console.print(f"[yellow]note: {escape(note)}[/yellow]", soft_wrap=True)
        console.print(f"[dim]{adv.seconds:.1f} s on {adv.workers} worker(s)[/dim]")
    if plot is not None:  # after the advice is out: a failure here loses none of it
        plot_advice(adv, plot)
        if not json_out:
            console.print(f"plot: {escape(str(plot))}")
    if not adv.complete:
        err_console.print(
            f"interrupted: the advice above is from {adv.samples} of {adv.requested} samples",
            markup=False,
            highlight=False,
        )
        raise typer.Exit(code=130)


def main(argv: list[str] | None = None) -> None:
    """Entry point of the ``barbu-dd`` script.

    A usage error (an unknown option, a value of the wrong type or out of range, a
    missing argument) is one ``error:`` line too, with exit code 2; other bad input
    exits with 1 (see :func:`handle_errors`).
    """
    # Click's base of its errors: click's own, or the copy newer typers carry
    click_error: type[Exception] = next(
        c for c in typer.BadParameter.__mro__ if c.__name__ == "ClickException"
    )
    try:
        code = app(args=argv, standalone_mode=False)
    except typer.Abort:  # pragma: no cover - interactive only
        print("error: interrupted", file=sys.stderr)
        sys.exit(130)
    except click_error as e:
        ctx = getattr(e, "ctx", None)
        msg = " ".join(e.format_message().split())  # type: ignore[attr-defined]
        if msg:  # (no arguments at all: the help is already shown)
            where = f" (see {ctx.command_path} --help)" if ctx is not None else ""
            print(f"error: {msg}{where}", file=sys.stderr)
        sys.exit(e.exit_code)  # type: ignore[attr-defined]
    sys.exit(code if isinstance(code, int) else 0)
