"""The result files of batch runs: JSON Lines, CSV and Parquet records, resume and errors.

One record per board.  A board is known by its *key*: the PBN file as given on the
command line and the board's ``index`` in it (1-based, counting every board of
the file, bad ones too).  ``--resume`` reads the keys already in the output and
solves only the other boards; ``--retry-open`` also solves again the boards whose
record is not exact.  A board's later record supersedes an earlier one, and a run
that wrote a board twice rewrites the file with the last record of each board when
it ends (through a temporary file and a rename).

- **jsonl** (default): one JSON object a line, nested::

    {"file": "club.pbn", "index": 1, "tags": {"Board": "1", "Dealer": "N", "Deal": "N:..."},
     "declarer": "E", "rules": "classic", "variants": [],
     "scores": {"barbu": {"N": 0, "E": -20, "S": 0, "W": 0}, "dominoes:best": {...}},
     "starts": {"dominoes:best": "9"}, "nodes": {"barbu": 812, ...},
     "seconds": {"barbu": 0.0042, ...}}

  ``tags`` holds every tag of the board; ``null`` is no score (a seat already out
  in a Dominoes ending); ``starts`` gives the rank chosen for ``dominoes:best``.
  A run with a time limit adds ``time_limit`` (its seconds a board), ``exact``
  (false if a score is not finished: it is ``null``) and ``bounds``, each
  contract's proved intervals (``{"no-tricks": {"N": [-14, -8], …}, …}``;
  ``[v, v]`` for a score finished).
- **csv** and **parquet**: one flat row (:func:`flat_columns`): ``file``, ``index``,
  the tags ``Event``, ``Site``, ``Date``, ``Board``, ``Dealer``, ``Deal``,
  ``declarer``, ``rules``, ``variants`` (comma-separated), then ``LABEL.N`` …
  ``LABEL.W`` for each contract (and ``LABEL.start`` for ``dominoes:best``), and
  the totals ``nodes`` and ``seconds``.  Other tags are only in JSON Lines.
  Parquet scores are ``double`` (null: no score).  With a time limit each score
  column has ``LABEL.N.lo`` and ``LABEL.N.hi`` after the four seats' scores, and
  ``time_limit`` and ``exact`` (``True``/``False``) come before ``nodes``.

Every record is flushed as soon as it is written, so a run killed even with
``kill -9`` leaves a valid file of every board it finished; an unfinished last
line (which a kill could leave) is ignored by :func:`read_records` and cut off
by ``--resume``.  Parquet cannot be appended to nor survive a kill (its footer is
written last): records go to the journal ``OUT.journal.jsonl`` (flat rows as
JSON) while the run goes on, and the Parquet file is written from it (merged with
the rows of an earlier run when resuming) when the run ends; a journal left by a
killed run is taken up by ``--resume``.

Bad boards go to ``OUT.errors.jsonl`` (:class:`ErrorLog`), one object a line:
``file``, ``index``, ``board`` (its Board tag), ``kind`` (the error class) and
``reason``.  It lists the bad boards of the latest run only (a bad board is never
in the output, so a resumed run meets it again).
"""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import sys
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, TextIO

from .batch import BatchJob, BoardResult, Bounds4, Scores4
from .cards import SEATS
from .errors import BarbuError, ParseError

__all__ = [
    "FORMATS",
    "TAG_COLUMNS",
    "guess_format",
    "flat_columns",
    "json_record",
    "flat_row",
    "DoneSet",
    "ResultWriter",
    "ErrorLog",
    "read_records",
    "errors_path",
    "journal_path",
]

FORMATS: tuple[str, ...] = ("jsonl", "csv", "parquet")
#: The board tags that CSV and Parquet rows keep (JSON Lines keeps them all).
TAG_COLUMNS: tuple[str, ...] = ("Event", "Site", "Date", "Board", "Dealer", "Deal")
_PARQUET_ROWS = 50_000  # rows per batch when the Parquet file is written


def guess_format(path: str | Path | None, fmt: str | None = None) -> str:
    """The format asked for, else from the output's suffix (``.csv``, ``.parquet``),
    else ``jsonl``.

    :raises ParseError: for an unknown format.

    >>> guess_format("out.parquet"), guess_format(None), guess_format("x.txt", "CSV")
    ('parquet', 'jsonl', 'csv')
    """
    if fmt is not None:
        f = fmt.strip().lower()
        if f not in FORMATS:
            raise ParseError(f"unknown format: {fmt!r} (known: {', '.join(FORMATS)})")
        return f
    suffix = Path(str(path)).suffix.lower() if path is not None else ""
    return {".csv": "csv", ".parquet": "parquet", ".pq": "parquet"}.get(suffix, "jsonl")


def errors_path(out: str | Path) -> Path:
    """The errors file of an output: ``OUT.errors.jsonl``."""
    return Path(f"{out}.errors.jsonl")


def journal_path(out: str | Path) -> Path:
    """The journal of a Parquet output: ``OUT.journal.jsonl``."""
    return Path(f"{out}.journal.jsonl")


# -- records --------------------------------------------------------------------------


def _best(job: BatchJob) -> list[str]:
    return [s.label for s in job.specs if s.start == "best"]


def flat_columns(job: BatchJob) -> list[str]:
    """The columns of a CSV or Parquet row.

    >>> from barbu_dd.batch import make_job
    >>> flat_columns(make_job("barbu"))[-6:]
    ['barbu.N', 'barbu.E', 'barbu.S', 'barbu.W', 'nodes', 'seconds']
    """
    cols = ["file", "index", *TAG_COLUMNS, "declarer", "rules", "variants"]
    best = set(_best(job))
    limited = job.time_limit is not None
    for label in job.labels:
        cols += [f"{label}.{s.name}" for s in SEATS]
        if limited:
            cols += [f"{label}.{s.name}.{end}" for s in SEATS for end in ("lo", "hi")]
        if label in best:
            cols.append(f"{label}.start")
    return [*cols, *(["time_limit", "exact"] if limited else []), "nodes", "seconds"]


def json_record(r: BoardResult, job: BatchJob) -> dict[str, Any]:
    """The JSON Lines record of a solved board (see the module doc)."""
    labels = job.labels
    rec: dict[str, Any] = {
        "file": r.file,
        "index": r.index,
        "tags": r.tags,
        "declarer": None if r.declarer is None else r.declarer.name,
        "rules": job.rules,
        "variants": list(job.variants),
        "scores": {
            label: {s.name: row[s] for s in SEATS}
            for label, row in zip(labels, r.scores, strict=True)
        },
    }
    best = set(_best(job))
    starts = {lb: st for lb, st in zip(labels, r.starts, strict=True) if lb in best}
    if starts:
        rec["starts"] = starts
    if job.time_limit is not None:
        rec["time_limit"] = job.time_limit
        rec["exact"] = r.exact
        rec["bounds"] = {
            label: {s.name: None if b is None else list(b) for s, b in zip(SEATS, row, strict=True)}
            for label, row in zip(labels, r.bounds, strict=True)
        }
    rec["nodes"] = dict(zip(labels, r.nodes, strict=True))
    rec["seconds"] = {lb: round(s, 6) for lb, s in zip(labels, r.seconds, strict=True)}
    return rec


def flat_row(r: BoardResult, job: BatchJob) -> dict[str, Any]:
    """The CSV / Parquet row of a solved board (see :func:`flat_columns`)."""
    row: dict[str, Any] = {"file": r.file, "index": r.index}
    row.update((t, r.tags.get(t)) for t in TAG_COLUMNS)
    row["declarer"] = None if r.declarer is None else r.declarer.name
    row["rules"] = job.rules
    row["variants"] = ",".join(job.variants)
    best = set(_best(job))
    limited = job.time_limit is not None
    for k, (label, scores, start) in enumerate(zip(job.labels, r.scores, r.starts, strict=True)):
        row.update((f"{label}.{s.name}", scores[s]) for s in SEATS)
        if limited:
            for s in SEATS:
                b = r.bounds[k][s]
                row[f"{label}.{s.name}.lo"] = None if b is None else b[0]
                row[f"{label}.{s.name}.hi"] = None if b is None else b[1]
        if label in best:
            row[f"{label}.start"] = start
    if limited:
        row["time_limit"] = job.time_limit
        row["exact"] = r.exact
    row["nodes"] = sum(r.nodes)
    row["seconds"] = round(sum(r.seconds), 6)
    return row


def _number(text: str) -> int | float | None:
    if text == "":
        return None
    try:
        return int(text)
    except ValueError:
        return float(text)


_NUMBER_ENDS = (".N", ".E", ".S", ".W", ".lo", ".hi")


def _typed_csv_row(raw: dict[str, str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in raw.items():
        if k in ("index", "nodes") or k.endswith(_NUMBER_ENDS):
            out[k] = _number(v)
        elif k == "exact":
            out[k] = {"True": True, "False": False}.get(v)
        elif k in ("seconds", "time_limit"):
            out[k] = float(v) if v else None
        else:
            out[k] = v if v != "" else None
    return out


# -- reading back ---------------------------------------------------------------------


def _complete_lines(path: Path) -> Iterator[tuple[int, str]]:
    """The lines of a file that end with a newline (an unfinished last one is left out)."""
    with open(path, encoding="utf-8", newline="") as f:
        for n, line in enumerate(f, 1):
            if line.endswith("\n"):
                yield n, line


def _json_lines(path: Path) -> Iterator[dict[str, Any]]:
    for n, line in _complete_lines(path):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            raise ParseError(f"{str(path)!r}, line {n}: not a JSON record") from None
        if not isinstance(rec, dict):
            raise ParseError(f"{str(path)!r}, line {n}: not a JSON record")
        yield rec


def _csv_rows(path: Path) -> Iterator[dict[str, Any]]:
    lines = (line for _, line in _complete_lines(path))
    for raw in csv.DictReader(lines):
        yield _typed_csv_row(raw)


def _parquet_rows(path: Path) -> Iterator[dict[str, Any]]:
    pq = _pyarrow_parquet()
    for batch in pq.ParquetFile(path).iter_batches(batch_size=_PARQUET_ROWS):
        yield from batch.to_pylist()


def read_records(path: str | Path, fmt: str | None = None) -> Iterator[dict[str, Any]]:
    """The records of a result file, one at a time, as written (JSON Lines: nested
    dicts; CSV and Parquet: flat rows with numbers typed, ``None`` for empty cells).

    For Parquet, the rows of a journal left by a killed run come after the file's.
    An unfinished last line is left out.

    :raises ParseError: for a line that is not a record, or Parquet without pyarrow.
    """
    p = Path(path)
    f = guess_format(p, fmt)
    if f == "jsonl":
        yield from _json_lines(p)
    elif f == "csv":
        yield from _csv_rows(p)
    else:
        if p.exists():
            yield from _parquet_rows(p)
        if journal_path(p).exists():  # typed as the Parquet file will have them
            for rec in _json_lines(journal_path(p)):
                yield {k: _as_parquet(k, v) for k, v in rec.items()}


def _as_parquet(name: str, value: Any) -> Any:
    """A journal row's value as the Parquet column holds it (scores are doubles)."""
    if value is not None and (name in ("seconds", "time_limit") or name.endswith(_NUMBER_ENDS)):
        return float(value)
    return value


def _pyarrow_parquet() -> Any:
    try:
        import pyarrow.parquet as pq  # type: ignore[import-untyped]
    except ImportError:
        raise ParseError("parquet needs pyarrow: pip install 'barbu-dd[parquet]'") from None
    return pq


def _check_json_lines(path: Path) -> None:
    """Refuse to resume from a file that is no JSON lines output (a PBN file, say):
    its first byte must open a record."""
    with open(path, "rb") as f:
        head = f.read(1)
    if head and head != b"{":
        raise ParseError(
            f"{str(path)!r} is not a barbu-dd batch output (its first line is no JSON"
            " record): resume only from a file batch wrote"
        )


def _cut_unfinished_line(path: Path) -> None:
    """Cut an unfinished last line off a file (one a killed run may leave)."""
    with open(path, "r+b") as f:
        size = f.seek(0, os.SEEK_END)
        if size == 0:
            return
        f.seek(size - 1)
        if f.read(1) == b"\n":
            return
        pos = size
        while pos > 0:
            step = min(65536, pos)
            f.seek(pos - step)
            block = f.read(step)
            k = block.rfind(b"\n")
            if k >= 0:
                f.truncate(pos - step + k + 1)
                return
            pos -= step
        f.truncate(0)


# -- resume ---------------------------------------------------------------------------


class DoneSet:
    """The keys (file, index) of finished boards: a bit per index, per file.

    >>> d = DoneSet()
    >>> d.add("a.pbn", 3); ("a.pbn", 3) in d, ("a.pbn", 2) in d, len(d)
    (True, False, 1)
    """

    def __init__(self) -> None:
        self._bits: dict[str, bytearray] = {}
        self._n = 0

    def add(self, file: str, index: int) -> None:
        """Mark a board finished."""
        bits = self._bits.setdefault(file, bytearray())
        byte, bit = divmod(index, 8)
        if byte >= len(bits):
            bits.extend(bytes(max(byte + 1 - len(bits), len(bits) // 2)))
        if not bits[byte] >> bit & 1:
            bits[byte] |= 1 << bit
            self._n += 1

    def discard(self, file: str, index: int) -> None:
        """Mark a board not finished (a no-op if it was not marked)."""
        bits = self._bits.get(file)
        byte, bit = divmod(index, 8)
        if bits is not None and byte < len(bits) and bits[byte] >> bit & 1:
            bits[byte] &= ~(1 << bit) & 0xFF
            self._n -= 1

    def __contains__(self, key: object) -> bool:
        if not isinstance(key, tuple) or len(key) != 2:
            return False
        bits = self._bits.get(key[0])
        if bits is None:
            return False
        byte, bit = divmod(key[1], 8)
        return byte < len(bits) and bool(bits[byte] >> bit & 1)

    def __len__(self) -> int:
        return self._n


def _check_record(rec: dict[str, Any], job: BatchJob, where: str, columns: Sequence[str]) -> None:
    """The first record of an output to resume must come from the same contracts and rules."""
    if "scores" in rec:  # JSON Lines
        labels = list(rec.get("scores") or {})
        variants = list(rec.get("variants") or [])
        same = labels == list(job.labels) and ("bounds" in rec) == (job.time_limit is not None)
    else:
        variants = [v for v in str(rec.get("variants") or "").split(",") if v]
        same = list(rec) == list(columns)
    if not same or rec.get("rules") != job.rules or variants != list(job.variants):
        raise ParseError(
            f"{where} holds results of other contracts, rules or variants (or was made"
            " with or without --time-limit): resume with the same options, or write to"
            " another file"
        )
    if job.declarer is not None and rec.get("declarer") != job.declarer.name:
        raise ParseError(
            f"{where} holds results for declarer {rec.get('declarer')}, not "
            f"{job.declarer.name}: resume with the same options, or write to another file"
        )


def _whole(x: Any) -> Any:
    """A number read back from a record, whole numbers as ``int`` (Parquet stores doubles)."""
    return int(x) if isinstance(x, float) and x.is_integer() else x


def _record_bounds(rec: dict[str, Any], job: BatchJob) -> list[list[tuple[Any, Any] | None]]:
    """The intervals a limited record proved: per contract, per seat (``None``: none)."""
    out: list[list[tuple[Any, Any] | None]] = []
    for label in job.labels:
        row: list[tuple[Any, Any] | None] = []
        for s in SEATS:
            if "bounds" in rec:  # JSON Lines
                b = (rec["bounds"].get(label) or {}).get(s.name)
                lo, hi = (None, None) if b is None else b
            else:
                lo, hi = rec.get(f"{label}.{s.name}.lo"), rec.get(f"{label}.{s.name}.hi")
            row.append(None if lo is None or hi is None else (_whole(lo), _whole(hi)))
        out.append(row)
    return out


def _met(
    a: list[list[tuple[Any, Any] | None]] | None, b: list[list[tuple[Any, Any] | None]]
) -> list[list[tuple[Any, Any] | None]]:
    """Two sets of proved intervals of the same scores, met (``None``: nothing proved)."""
    if a is None:
        return b
    return [
        [y if x is None else x if y is None else (max(x[0], y[0]), min(x[1], y[1])) for x, y in
         zip(ra, rb, strict=True)]
        for ra, rb in zip(a, b, strict=True)
    ]  # fmt: skip


def _narrowed(r: BoardResult, old: list[list[tuple[Any, Any] | None]]) -> BoardResult:
    """``r`` with its intervals met with ``old`` (a score whose interval meets in one
    value is then exact)."""
    bounds: list[Bounds4] = []
    scores: list[Scores4] = []
    for row, old_row, srow in zip(r.bounds, old, r.scores, strict=True):
        met = _met([list(row)], [old_row])[0]
        if any(b is not None and b[0] > b[1] for b in met):  # pragma: no cover - never
            met = list(row)  # disjoint intervals: keep the new ones
        bounds.append((met[0], met[1], met[2], met[3]))
        sc = [
            v if b is None else (b[0] if b[0] == b[1] else None)
            for v, b in zip(srow, met, strict=True)
        ]
        scores.append((sc[0], sc[1], sc[2], sc[3]))
    return replace(r, bounds=tuple(bounds), scores=tuple(scores))


# -- writing --------------------------------------------------------------------------


class ResultWriter:
    """Writes the records of a run as they come (to a file, or to ``stream``).

    With ``resume`` the records already in ``path`` are kept and their keys are in
    :attr:`done`; without it an existing output is an error unless ``force``
    (which replaces it).  With ``retry_open`` too, a board whose record is not
    exact (a score a time limit left open) is left out of :attr:`done` (counted in
    :attr:`reopened`), so that the run solves it again, and its new record replaces
    the old one.  A board's later record always supersedes an earlier one: at
    :meth:`close` a file that holds a board twice (this run's new records, or those
    of a run killed before its end) is rewritten with the last record of each
    board only.  :meth:`close` ends the file (for Parquet: writes it).

    :raises ParseError: for an output that exists (without ``resume`` or
        ``force``), one written with other options, a format that needs a file,
        or Parquet without pyarrow.
    """

    def __init__(
        self,
        path: str | Path | None,
        job: BatchJob,
        *,
        fmt: str | None = None,
        resume: bool = False,
        force: bool = False,
        retry_open: bool = False,
        stream: TextIO | None = None,
    ) -> None:
        self.path = None if path is None else Path(path)
        self.job = job
        self.format = guess_format(path, fmt)
        self.columns = flat_columns(job)
        #: the boards to skip: those of the output, but the open ones with ``retry_open``
        self.done = DoneSet()
        #: boards of the output left open that this run solves again (``retry_open``)
        self.reopened = 0
        #: records written this run that replace one of the output's
        self.replaced = 0
        self.written = 0
        self._retry = retry_open
        resume = resume or retry_open
        self._seen = DoneSet()  # every board the output holds a record of
        self._twice: set[tuple[str, int]] = set()  # boards with more than one record
        # the intervals proved for the open boards (retry_open), met with the new ones
        self._proved: dict[tuple[str, int], list[list[tuple[Any, Any] | None]]] = {}
        self._csv: Any = None
        if self.path is None:
            if self.format == "parquet":
                raise ParseError("parquet output needs a file: give -o OUT.parquet")
            if resume or retry_open:
                flag = "--retry-open" if retry_open else "--resume"
                raise ParseError(f"{flag} needs the output file: give -o OUT")
            self._f: TextIO = stream if stream is not None else sys.stdout
            self._own = False
        else:
            if self.format == "parquet":
                _pyarrow_parquet()
            self._fresh = not resume or not any(p.exists() for p in self._targets(self.path))
            self._f = self._open_file(self.path, resume, force)
            self._own = True
        if self.format == "csv":
            self._csv = csv.DictWriter(self._f, self.columns, lineterminator="\n")
            if not self._own or self._f.tell() == 0:
                self._csv.writeheader()
                self._f.flush()

    def _targets(self, path: Path) -> list[Path]:
        return [path, journal_path(path)] if self.format == "parquet" else [path]

    def _open_file(self, path: Path, resume: bool, force: bool) -> TextIO:
        existing = [p for p in self._targets(path) if p.exists()]
        for p in existing:
            if not p.resolve().is_file():
                # a directory, a device, a pipe: never replaced, nor read as results
                raise ParseError(f"{str(p)!r} is not a regular file: write the results to a file")
        if existing and not resume:
            if not force:
                raise ParseError(
                    f"{str(existing[0])!r} exists: give --resume to go on with it, "
                    "or --force to replace it"
                )
            for p in existing:
                # a symbolic link's target goes, not the link (as _swap_in replaces it)
                p.resolve().unlink()
        if resume:
            self._load_done(path)
            self.reopened = len(self._seen) - len(self.done)
        target = journal_path(path) if self.format == "parquet" else path
        return open(target, "a", encoding="utf-8", newline="")

    def _load_done(self, path: Path) -> None:
        first = True
        if self.format == "csv" and path.exists():
            with open(path, encoding="utf-8", errors="replace", newline="") as f:
                header = f.readline().rstrip("\r\n")
            if header and next(csv.reader([header])) != self.columns:
                raise ParseError(
                    f"{str(path)!r} holds results of other contracts or options, or is no"
                    " batch output: resume with the same options, or write to another file"
                )
            _cut_unfinished_line(path)
        for p in self._targets(path):
            # (a Parquet output's only line file is its journal, whatever its suffix)
            if p.exists() and (self.format != "parquet" or p != path):
                if self.format != "csv":
                    _check_json_lines(p)  # before a line of someone else's file is cut
                _cut_unfinished_line(p)
        if not any(p.exists() for p in self._targets(path)):
            return
        n = 0
        try:
            for n, rec in enumerate(read_records(path, self.format), 1):
                if first:
                    _check_record(rec, self.job, repr(str(path)), self.columns)
                    first = False
                file, index = rec.get("file"), rec.get("index")
                if (
                    not isinstance(file, str)
                    or isinstance(index, bool)
                    or not isinstance(index, int)
                ):
                    raise ParseError(
                        f"{str(path)!r}, record {n}: not a barbu-dd batch record (no file"
                        " and board index): resume only from a file batch wrote"
                    )
                if (file, index) in self._seen:
                    self._twice.add((file, index))
                self._seen.add(file, index)
                if self._retry and rec.get("exact") is False:
                    self.done.discard(file, index)
                    self._proved[file, index] = _met(
                        self._proved.get((file, index)), _record_bounds(rec, self.job)
                    )
                else:
                    self.done.add(file, index)
                    self._proved.pop((file, index), None)
        except BarbuError:
            raise
        except ValueError as e:  # not UTF-8, a CSV cell that is no number, not Parquet
            why = "not UTF-8 text" if isinstance(e, UnicodeDecodeError) else str(e).splitlines()[0]
            raise ParseError(
                f"{str(path)!r}, record {n + 1}: cannot resume from it ({why})"
            ) from None

    def write(self, r: BoardResult) -> BoardResult:
        """Write one solved board's record, and flush it; returns the result written.

        A board solved again (``retry_open``) has its intervals met with those its
        old records proved (both hold the exact score): never wider than before (the
        result returned is the one met).

        :raises BarbuError: naming the output, if it cannot be written (disk full).
        """
        old = None
        if r.file is not None and r.index is not None:
            old = self._proved.pop((r.file, r.index), None)
        if old is not None and r.bounds:
            r = _narrowed(r, old)
        try:
            if self.format == "csv":
                self._csv.writerow(flat_row(r, self.job))
            else:
                rec = json_record(r, self.job) if self.format == "jsonl" else flat_row(r, self.job)
                self._f.write(json.dumps(rec, ensure_ascii=False) + "\n")
            self._f.flush()
        except OSError as e:
            where = "the output" if self.path is None else repr(str(self.path))
            raise BarbuError(f"cannot write {where}: {e.strerror or e}") from None
        if r.file is not None and r.index is not None:
            if (r.file, r.index) in self._seen:
                self._twice.add((r.file, r.index))
                self.replaced += 1
            self._seen.add(r.file, r.index)
            self.done.add(r.file, r.index)
        self.written += 1
        return r

    def discard(self) -> None:
        """Close, and remove the output if this run made it and wrote nothing to it (a
        run that failed before its first board leaves no empty file behind)."""
        if not self._own or self.written or not self._fresh:
            self.close()
            return
        self._f.close()
        assert self.path is not None
        for p in self._targets(self.path):
            p.unlink(missing_ok=True)

    def close(self) -> None:
        """End the output: sync it to disk; for Parquet write the file from the journal."""
        if not self._own:
            self._f.flush()
            return
        if self._f.closed:
            return
        self._f.flush()
        os.fsync(self._f.fileno())
        self._f.close()
        if self.format == "parquet" and self.path is not None:
            _write_parquet(self.path, self.columns, self._twice)
        elif self._twice and self.path is not None:
            _keep_last(self.path, self.format, self._twice)


def _last_of(keys: Iterator[tuple[Any, Any]], twice: set[tuple[str, int]]) -> dict[Any, int]:
    """For each board of ``twice``, the position of its last record among ``keys``."""
    last: dict[Any, int] = {}
    for n, key in enumerate(keys):
        if key in twice:
            last[key] = n
    return last


def _keep_last(path: Path, fmt: str, twice: set[tuple[str, int]]) -> None:
    """Rewrite a JSON Lines or CSV output with only the last record of each board of
    ``twice`` (the others as they are), through a temporary file and a rename, so
    that a kill leaves the old file or the new one."""
    tmp = Path(f"{path.resolve()}.tmp")
    if fmt == "csv":
        with open(path, encoding="utf-8", newline="") as f:
            rows = csv.reader(f)
            header = next(rows)
            at, ai = header.index("file"), header.index("index")
            last = _last_of(((r[at], int(r[ai])) for r in rows), twice)
        with (
            open(path, encoding="utf-8", newline="") as f,
            open(tmp, "w", encoding="utf-8", newline="") as g,
        ):
            rows = csv.reader(f)
            w = csv.writer(g, lineterminator="\n")
            w.writerow(next(rows))
            for n, r in enumerate(rows):
                key = (r[at], int(r[ai]))
                if key not in twice or last[key] == n:
                    w.writerow(r)
            g.flush()
            os.fsync(g.fileno())
    else:
        keys = ((rec.get("file"), rec.get("index")) for rec in _json_lines(path))
        last = _last_of(keys, twice)
        with open(tmp, "w", encoding="utf-8", newline="") as g:
            n = 0
            for _, line in _complete_lines(path):
                if not line.strip():
                    continue
                rec = json.loads(line)
                key = (rec.get("file"), rec.get("index"))
                if key not in twice or last[key] == n:
                    g.write(line)
                n += 1
            g.flush()
            os.fsync(g.fileno())
    _swap_in(tmp, path)


def _swap_in(tmp: Path, path: Path) -> None:
    """Put ``tmp`` in the place of ``path`` (atomically, keeping its permissions; a
    symbolic link's target is replaced, not the link)."""
    target = path.resolve()
    if target.exists():
        shutil.copymode(target, tmp)
    os.replace(tmp, target)
    try:  # the rename itself survives a crash once the directory is on disk
        fd = os.open(target.parent, os.O_RDONLY)
    except OSError:  # pragma: no cover - a directory that cannot be opened
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - file systems without directory fsync
        pass
    finally:
        os.close(fd)


def _parquet_schema(columns: Sequence[str]) -> Any:
    import pyarrow as pa

    def typ(name: str) -> Any:
        if name in ("index", "nodes"):
            return pa.int64()
        if name in ("seconds", "time_limit") or name.endswith(_NUMBER_ENDS):
            return pa.float64()
        if name == "exact":
            return pa.bool_()
        return pa.string()

    return pa.schema([(c, typ(c)) for c in columns])


def _write_parquet(path: Path, columns: Sequence[str], twice: set[tuple[str, int]]) -> None:
    """Write ``path`` from its old rows (if any) and its journal, then drop the journal;
    of each board of ``twice`` only the last row is kept."""
    import pyarrow as pa

    pq = _pyarrow_parquet()
    schema = _parquet_schema(columns)
    journal = journal_path(path)
    tmp = Path(f"{path.resolve()}.tmp")
    last = {}
    if twice:
        keys = ((r.get("file"), r.get("index")) for r in read_records(path, "parquet"))
        last = _last_of(keys, twice)
    n = 0

    def kept(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
        nonlocal n
        out = []
        for rec in rows:
            key = (rec.get("file"), rec.get("index"))
            if key not in twice or last[key] == n:
                out.append(rec)
            n += 1
        return out

    with pq.ParquetWriter(tmp, schema) as w:
        if path.exists():
            old = pq.ParquetFile(path)
            if old.schema_arrow.names != list(columns):
                raise ParseError(f"{str(path)!r} holds results of other contracts")
            for batch in old.iter_batches(batch_size=_PARQUET_ROWS):
                if twice:
                    w.write_table(pa.Table.from_pylist(kept(batch.to_pylist()), schema))
                else:
                    w.write_table(pa.Table.from_batches([batch]).cast(schema))
        rows: list[dict[str, Any]] = []
        for rec in _json_lines(journal) if journal.exists() else iter(()):
            rows.append(rec)
            if len(rows) == _PARQUET_ROWS:
                w.write_table(pa.Table.from_pylist(kept(rows), schema))
                rows.clear()
        if rows:
            w.write_table(pa.Table.from_pylist(kept(rows), schema))
    _swap_in(tmp, path)
    if journal.exists():
        journal.unlink()


class ErrorLog:
    """The bad boards of a run, in ``OUT.errors.jsonl`` (made on the first one; a
    file left by an earlier run is removed at the start)."""

    def __init__(self, path: str | Path | None) -> None:
        self.path = None if path is None else Path(path)
        self.count = 0
        self._f: io.TextIOWrapper | None = None
        if self.path is not None and self.path.exists():
            self.path.unlink()

    def write(self, r: BoardResult) -> None:
        """Log one bad board."""
        self.count += 1
        if self.path is None:
            return
        if self._f is None:
            self._f = open(self.path, "a", encoding="utf-8", newline="")  # noqa: SIM115
        rec = {
            "file": r.file,
            "index": r.index,
            "board": r.tags.get("Board"),
            "kind": r.error_kind,
            "reason": r.error,
        }
        self._f.write(json.dumps(rec, ensure_ascii=False) + "\n")
        self._f.flush()

    def close(self) -> None:
        """Close the file."""
        if self._f is not None:
            self._f.close()
            self._f = None
