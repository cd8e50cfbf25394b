"""The ``barbu-dd`` command line (Typer): thin commands that format what the API returns.

No rules or scoring live here.  Every :class:`~barbu_dd.errors.BarbuError` is caught
once, printed as one ``error: ...`` line on stderr, and the exit code is 1.
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, TypeVar

import typer
from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from . import __version__
from .cards import SUIT_SYMBOLS, Seat
from .contracts import load_scale, make_game, parse_variants
from .deal import Deal
from .errors import BarbuError, ParseError
from .pbn import BadBoard, read_pbn
from .settle import ScoreSheet, load_session, score_session
from .solver import Solver, parse_side

__all__ = ["app", "main"]

app = typer.Typer(
    no_args_is_help=True,
    context_settings={"help_option_names": ["-h", "--help"]},
    help="Double-dummy solver and hand analyser for the card game Barbu.",
    pretty_exceptions_enable=False,
    add_completion=False,
)
console = Console()
err_console = Console(stderr=True)

F = TypeVar("F", bound=Callable[..., Any])


def fail(message: str) -> typer.Exit:
    """Print ``error: message`` on stderr and return the exit to raise."""
    err_console.print(f"error: {message}", markup=False, highlight=False, soft_wrap=True)
    return typer.Exit(code=1)


def handle_errors(func: F) -> F:
    """Turn a :class:`BarbuError` (and unreadable files) into one line and exit code 1."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except BarbuError as e:
            raise fail(str(e)) from None
        except OSError as e:
            name = getattr(e, "filename", None)
            raise fail(f"{name!r}: {e.strerror}" if name else str(e)) from None
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
        help="A variant (repeatable): free-trumping, king-duty, low-aces, ace-replays, dealer-declares, other-scores.",
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
SeatsOpt = Annotated[
    str | None, typer.Option("--seats", help="Only these seats, e.g. N or NE (default: all four).")
]


def _diagram(deal: Deal) -> Table:
    """The four hands as a small compass table."""
    t = Table(box=None, show_header=False, padding=(0, 1))
    for _ in range(3):
        t.add_column()

    def hand(seat: Seat) -> str:
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
    json_out: JsonOpt = False,
) -> None:
    """Solve every board of a PBN file double dummy: each seat's optimal score."""
    variants = sorted(parse_variants(variant or []))
    sc = load_scale(scale) if scale is not None else None
    best = start is not None and start.strip().lower() == "best"
    game = make_game(
        contract,
        rules=rules,
        variants=variants,
        scale=sc,
        trump=trump,
        start=None if best else start,
    )
    if best and game.contract.name != "dominoes":
        raise ParseError(f"--start best is for dominoes, not {game.contract.name!r}")
    if side is not None:
        parse_side(side)
    if seats is not None:
        parse_side(seats)
    solver = Solver()
    bad = 0
    for item in read_pbn(file, errors="yield"):
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
                sol = solver.solve(board.deal, game, declarer=decl, side=side, seats=seats)
        except BarbuError as e:
            bad += 1
            err_console.print(
                f"error: {board.location}: {e}", markup=False, highlight=False, soft_wrap=True
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
        title = f"{board.label.capitalize()}: {sol.game.describe()}, declarer {decl.name}, {sol.leader.name} leads"
        res = Table(box=box.SIMPLE_HEAD, title=None)
        if side is not None:
            res.add_column("side")
            res.add_column("value", justify="right")
            res.add_row("".join(s.name for s in sol.side or ()), _fmt(sol.value))
        else:
            for s in Seat:
                res.add_column(s.name, justify="right")
            res.add_row(*(_fmt(sol.scores[s]) for s in Seat))
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
        console.print(f"[dim]{nodes:,} nodes, {secs * 1000:.1f} ms[/dim]\n")
    if bad:
        raise typer.Exit(code=1)


@app.command("show")
@handle_errors
def show_cmd(file: FileArg) -> None:
    """Print every board of a PBN file: its tags and the four hands."""
    bad = 0
    for item in read_pbn(file, errors="yield"):
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


def main() -> None:
    """Entry point of the ``barbu-dd`` script."""
    try:
        app()
    except KeyboardInterrupt:  # pragma: no cover - interactive only
        print("error: interrupted", file=sys.stderr)
        sys.exit(130)
