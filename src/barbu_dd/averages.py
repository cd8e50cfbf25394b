"""The average value of each contract for its declarer, over random deals.

:func:`barbu_dd.analyze.best_contract` compares a contract's value on a deal with
its average: the file ``barbu_dd/data/averages.json``, shipped with the package and
made by this module from random deals::

    python -m barbu_dd.averages --rules classic --rules french --deals 2000 --seed 1 \\
        -o src/barbu_dd/data/averages.json

The value of a contract on a deal is the declarer's optimal score (SPEC §5), the
declarer leading (starting Dominoes): Trumps with the declarer's best trump suit,
Dominoes from its best starting rank (:func:`declarer_value`).  The deals are those
of ``barbu-dd deal --seed S`` (:func:`barbu_dd.batch.random_boards`): board ``i``
is dealt by ``NESW[(i - 1) % 4]`` and declared by the dealer's left, so every seat
declares a quarter of them.

The job is long, so it streams: each deal's values go, as soon as they are known,
to a *samples* file (JSON lines, by default beside the output:
``averages.samples.jsonl``), and a run that is stopped and started again skips the
deals already there.  The output holds one record for each contract (rule set,
variants that change it, scoring, cards a hand) with the mean, the standard
deviation and error, the number of deals and the command; the records of other
contracts already in the output are kept.  ``--samples`` may be repeated: every
file is read (runs made elsewhere are merged, a deal counted once) and the first
is appended to.  A record from fewer deals than ``--deals`` asked for is marked
``"provisional": true``; ``--skip B`` leaves board ``B`` for a later run (a deal
that would hold a worker for hours), and the records stay provisional until it is
in; ``--deal-limit S`` does it for every deal whose searches take over ``S`` seconds
(the samples file notes it, with the bounds proved, and later runs try it again only
with a larger limit or none; the record counts such deals, ``left_out``, and gives
the interval of the mean with them, ``mean_with_left_out``).  A contract that is
another's scaled (:func:`scaled_twins`: French No Queens is classic No Queens times
10/3) takes its values from the other's samples (``scaled_from`` in its record) and
is not solved again.  Worker processes
(``--jobs``, default: one a core) each keep one :class:`~barbu_dd.solver.Solver`.

>>> from barbu_dd.solver import Solver
>>> declarer_value(Solver(1 << 20), "N:A2... K3... Q4... J5...", "trumps", "N")
DeclarerValue(value=5, trump='S', start=None, bounds=None)
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, replace
from fractions import Fraction
from importlib import resources
from pathlib import Path

from .cards import RANK_CHARS, SUIT_CHARS, Seat, to_seat
from .contracts import (
    RULE_SETS,
    Contract,
    ContractScale,
    Game,
    Scale,
    contracts_of,
    find_contract,
    load_scale,
    make_game,
    parse_variants,
)
from .deal import Deal
from .errors import BarbuError, ParseError
from .solver import Bounds, Score, Solver

__all__ = [
    "DEFAULT_PATH",
    "DeclarerValue",
    "Average",
    "Averages",
    "declarer_value",
    "contract_key",
    "load_averages",
    "make_averages",
    "scaled_twins",
    "main",
]

#: The averages shipped with the package.
DEFAULT_PATH = "data/averages.json"
#: The variants that change each contract's value for its declarer (the scoring,
#: ``other-scores`` included, is compared on its own).
_RELEVANT: dict[str, frozenset[str]] = {
    "trumps": frozenset({"free-trumping", "dealer-declares"}),
    "barbu": frozenset({"king-duty", "dealer-declares"}),
    "dominoes": frozenset({"low-aces", "ace-replays"}),
    "reussite": frozenset({"low-aces", "ace-replays"}),
}
_TRICKS_RELEVANT = frozenset({"dealer-declares"})


@dataclass(frozen=True)
class DeclarerValue:
    """A contract's value for its declarer on one deal, with the best trump / start.

    ``bounds`` is set only when a time limit stopped a search first: the interval
    ``(lo, hi)`` proved for the value, and ``value`` is then ``lo``.
    """

    value: Score
    trump: str | None = None
    start: str | None = None
    bounds: Bounds | None = None

    @property
    def exact(self) -> bool:
        """Whether ``value`` is the exact value (no time limit stopped a search)."""
        return self.bounds is None


def declarer_value(
    solver: Solver,
    deal: Deal | str,
    contract: str | Contract,
    declarer: Seat | int | str,
    *,
    rules: str = "classic",
    variants: Iterable[str] = (),
    scale: Scale | str | Path | None = None,
    time_limit: float | None = None,
) -> DeclarerValue:
    """The declarer's optimal score in a contract: Trumps with its best trump suit
    (the first of ♠ ♥ ♦ ♣ on a tie; the bridge ``tricks`` also tries NT), Dominoes
    from its best starting rank, the declarer leading.

    ``time_limit`` (seconds, for all the searches together; Dominoes, which takes
    milliseconds, is not limited) may stop the search: the answer then has
    ``bounds``, the interval proved (for Trumps, that of the best suit's value).

    :raises ParseError: for an unknown contract, rule set or variant.
    :raises InvalidPositionError: for an impossible position.
    """
    c = contract if isinstance(contract, Contract) else find_contract(contract, rules)
    decl = to_seat(declarer)
    vs = tuple(variants)
    if c.name == "dominoes":
        ch = solver.best_start(deal, decl, rules=rules, variants=vs, scale=scale)
        return DeclarerValue(ch.score, start=RANK_CHARS[ch.start])
    deadline = None if time_limit is None else time.monotonic() + time_limit

    def one(game: Game, shares: int = 1) -> tuple[Score, Score]:
        # an equal part of the time left to this search and the ``shares - 1`` after it
        left = None if deadline is None else max(deadline - time.monotonic(), 1e-3) / shares
        sol = solver.solve(deal, game, declarer=decl, seats=(decl,), time_limit=left)
        b = sol.bounds[decl] if sol.bounds is not None else None
        if b is not None:
            return b
        v = sol.scores[decl]
        assert v is not None
        return v, v

    if c.name in ("trumps", "tricks"):
        suits = list(SUIT_CHARS) if c.name == "trumps" else ["NT", *SUIT_CHARS]
        found = [
            (one(make_game(c, rules=rules, variants=vs, scale=scale, trump=t), len(suits) - i), t)
            for i, t in enumerate(suits)
        ]
        (lo, _), trump = max(found, key=lambda f: f[0][0])  # the first best lower bound
        hi = max(b[1] for b, _ in found)
        return DeclarerValue(lo, trump=trump, bounds=None if lo == hi else (lo, hi))
    g = make_game(c, rules=rules, variants=vs, scale=scale)
    lo, hi = one(g)
    start = None if g.start is None else RANK_CHARS[g.start]
    return DeclarerValue(lo, start=start, bounds=None if lo == hi else (lo, hi))


def _scoring_digest(game: Game) -> str:
    """A short fingerprint of a contract's scoring tables."""
    s = game.scoring
    text = json.dumps([s.card_points, s.trick_points, s.places, s.penalty])
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def contract_key(
    contract: str | Contract,
    *,
    rules: str = "classic",
    variants: Iterable[str] = (),
    scale: Scale | str | Path | None = None,
    cards: int = 13,
) -> dict[str, object]:
    """What identifies a contract's average: rule set, contract, the variants that
    change it, a fingerprint of its scoring, and the cards a hand.

    :raises ParseError: for an unknown contract, rule set or variant.

    >>> k = contract_key("barbu", variants=["king-duty", "low-aces"])
    >>> k["contract"], k["variants"], k["cards"]
    ('barbu', ['king-duty'], 13)
    """
    c = contract if isinstance(contract, Contract) else find_contract(contract, rules)
    vs = parse_variants(variants)
    g = make_game(c, rules=rules, variants=vs, scale=scale, trump="S" if c.needs_trump else None)
    relevant = _RELEVANT.get(c.name, _TRICKS_RELEVANT)
    return {
        "rules": g.rules,
        "contract": c.name,
        "variants": sorted(vs & relevant),
        "scoring": _scoring_digest(g),
        "cards": cards,
    }


_KEY_FIELDS = ("rules", "contract", "variants", "scoring", "cards")


def _key_text(key: dict[str, object]) -> str:
    return json.dumps(key, sort_keys=True)


def _record_key(record: dict[str, object]) -> str:
    """The key text of a record of the averages file."""
    return _key_text({k: record[k] for k in _KEY_FIELDS})


def _play_form(g: Game) -> tuple[object, ...]:
    """Everything of a game but its scoring that a declarer's value depends on: the
    play duties and how :func:`declarer_value` chooses a trump suit or a start."""
    c = g.contract
    how = c.name if c.name in ("trumps", "tricks", "dominoes") else c.kind
    return (how, g.heart_lead, g.king_duty, g.trump_duties, g.low_aces, g.ace_replays, g.start)


def _factor(a: ContractScale, b: ContractScale) -> Fraction | None:
    """The ``f > 0`` with ``a = f * b`` entry by entry, if there is one."""
    xs = [*a.card_points, *a.trick_points, *a.places, a.penalty]
    ys = [*b.card_points, *b.trick_points, *b.places, b.penalty]
    f = next((Fraction(x, y) for x, y in zip(xs, ys, strict=True) if y), None)
    if f is None or f <= 0 or any(Fraction(x) != f * y for x, y in zip(xs, ys, strict=True)):
        return None
    return f


def _times(v: object, f: Fraction) -> Score:
    """``v * f``, exact (an int where it is whole)."""
    assert isinstance(v, int | float)
    q = Fraction(v) * f
    return int(q) if q.denominator == 1 else float(q)


def scaled_twins(
    contract: str,
    *,
    rules: str = "classic",
    variants: Iterable[str] = (),
    scale: Scale | None = None,
    cards: int = 13,
) -> list[tuple[dict[str, object], Fraction]]:
    """The contracts of every rule set whose value for the declarer is this one's
    times a factor: the same play (duties, trump or start chosen the same way) and
    a scoring that is the other's times ``f > 0`` entry by entry, so every optimal
    score is too.  Each comes as its key (:func:`contract_key`) and ``f``.

    French No Tricks is classic No Tricks times 5, French No Queens classic No
    Queens times 10/3; the French No Hearts is not classic No Hearts scaled (the A♥).

    >>> [(k["rules"], str(f)) for k, f in scaled_twins("no-queens", rules="french")]
    [('classic', '10/3')]
    """
    vs = tuple(variants)

    def game(c: Contract, r: str) -> Game:
        return make_game(c, rules=r, variants=vs, scale=scale, trump="S" if c.needs_trump else None)

    me = find_contract(contract, rules)
    g = game(me, rules)
    key = contract_key(me, rules=rules, variants=vs, scale=scale, cards=cards)
    out: list[tuple[dict[str, object], Fraction]] = []
    for r in RULE_SETS:
        for c in contracts_of(r, vs):
            try:
                g2 = game(c, r)
            except ParseError:
                continue
            k2 = contract_key(c, rules=r, variants=vs, scale=scale, cards=cards)
            f = _factor(g.scoring, g2.scoring) if _play_form(g) == _play_form(g2) else None
            if f is not None and k2 != key:
                out.append((k2, f))
    return out


@dataclass(frozen=True)
class Average:
    """A contract's average value for its declarer over ``deals`` random deals."""

    mean: float
    deals: int
    sd: float
    stderr: float
    provisional: bool = False


@dataclass(frozen=True)
class Averages:
    """The records of an averages file (see the module doc)."""

    records: tuple[dict[str, object], ...]
    source: str

    def find(
        self,
        contract: str | Contract,
        *,
        rules: str = "classic",
        variants: Iterable[str] = (),
        scale: Scale | str | Path | None = None,
        cards: int = 13,
    ) -> Average | None:
        """:meth:`lookup`, or ``None`` where the file has no record for the contract.

        :raises ParseError: for an unknown contract, rule set or variant.
        """
        return self._find(
            contract_key(contract, rules=rules, variants=variants, scale=scale, cards=cards)
        )

    def _find(self, key: dict[str, object]) -> Average | None:
        for r in self.records:
            if all(r.get(k) == v for k, v in key.items()):
                return Average(
                    float(r["mean"]),  # type: ignore[arg-type]
                    int(r["deals"]),  # type: ignore[call-overload]
                    float(r["sd"]),  # type: ignore[arg-type]
                    float(r["stderr"]),  # type: ignore[arg-type]
                    bool(r.get("provisional", False)),
                )
        return None

    def lookup(
        self,
        contract: str | Contract,
        *,
        rules: str = "classic",
        variants: Iterable[str] = (),
        scale: Scale | str | Path | None = None,
        cards: int = 13,
    ) -> Average:
        """The average of a contract in a rule set, with variants and a scale.

        :raises ParseError: if the file has no record for it (naming the command that
            makes one).
        """
        key = contract_key(contract, rules=rules, variants=variants, scale=scale, cards=cards)
        found = self._find(key)
        if found is not None:
            return found
        variants_ = [str(v) for v in key["variants"]]  # type: ignore[attr-defined]
        what = f"{key['contract']} ({key['rules']} rules"
        what += f", variants {', '.join(variants_)}" if variants_ else ""
        what += f", {cards} cards a hand" if cards != 13 else ""
        args = [f"--rules {key['rules']}", *(f"--variant {v}" for v in variants_)]
        args += ["--scale FILE"] if scale is not None else []
        args += [f"--cards {cards}"] if cards != 13 else []
        raise ParseError(
            f"no average for {what}{', this scale' if scale is not None else ''}) in "
            f"{self.source}; make one with "
            f"python -m barbu_dd.averages {' '.join(args)} --deals 2000 -o FILE "
            "and pass it with --averages FILE"
        )


def load_averages(path: str | Path | None = None) -> Averages:
    """Read an averages file (default: the one shipped with the package).

    :raises ParseError: if the file cannot be read or is not an averages file.
    """
    if path is None:
        res = resources.files("barbu_dd").joinpath(DEFAULT_PATH)
        where = f"the shipped {DEFAULT_PATH}"
        try:
            text = res.read_text("utf-8")
        except OSError:
            raise ParseError(
                f"{where} is missing: make it with python -m barbu_dd.averages"
            ) from None
    else:
        where = str(path)
        try:
            text = Path(path).read_text("utf-8")
        except OSError as e:
            raise ParseError(f"cannot read averages file {where!r}: {e.strerror}") from None
        except UnicodeDecodeError:
            raise ParseError(f"averages file {where!r} is not UTF-8 text") from None
    try:
        data = json.loads(text)
        records = tuple(data["averages"])
        for r in records:
            _record_key(r)
    except (ValueError, KeyError, TypeError):
        raise ParseError(f"{where} is not an averages file") from None
    for n, r in enumerate(records, 1):
        _check_numbers(r, f"{where}, record {n}")
    return Averages(records, where)


def _check_numbers(r: dict[str, object], where: str) -> None:
    """A record's mean, sd and standard error finite numbers, its deals a count."""
    for k in ("mean", "sd", "stderr"):
        v = r.get(k)
        if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
            raise ParseError(f"{where}: {k} is not a number: {v!r}")
        if k != "mean" and v < 0:
            raise ParseError(f"{where}: {k} is negative: {v!r}")
    deals = r.get("deals")
    if isinstance(deals, bool) or not isinstance(deals, int) or deals < 1:
        raise ParseError(f"{where}: deals is not a count of 1 or more: {deals!r}")


# -- making the file ----------------------------------------------------------------------


@dataclass(frozen=True)
class _Set:
    """One rule set's job: the contracts, their keys and resolved options."""

    rules: str
    variants: tuple[str, ...]
    scale: Scale | None
    contracts: tuple[str, ...]
    keys: tuple[str, ...]


_worker: Solver | None = None


def _init_worker(tt_bytes: int) -> None:
    global _worker
    _worker = Solver(tt_bytes)


#: A worker's answer for one deal: the exact values, the bounds of the values a time
#: limit stopped (contract key → (lo, hi)), and the seconds taken.
_DealResult = tuple[dict[str, Score], dict[str, Bounds], float]


def _deal_values(job: _Set, deal: str, declarer: str, limit: float | None = None) -> _DealResult:
    """A worker's task: the declarer's value of each contract of a set on one deal,
    within ``limit`` seconds for the deal (a value not finished comes as bounds)."""
    global _worker
    if _worker is None:
        _worker = Solver()
    t0 = time.perf_counter()
    out: dict[str, Score] = {}
    cut: dict[str, Bounds] = {}
    for name, key in zip(job.contracts, job.keys, strict=True):
        left = None if limit is None else max(limit - (time.perf_counter() - t0), 1e-3)
        dv = declarer_value(
            _worker,
            deal,
            name,
            declarer,
            rules=job.rules,
            variants=job.variants,
            scale=job.scale,
            time_limit=left,
        )
        if dv.bounds is None:
            out[key] = dv.value
        else:
            cut[key] = dv.bounds
    return out, cut, time.perf_counter() - t0


def _read_samples(paths: Sequence[Path]) -> Iterator[dict[str, object]]:
    """The sample lines of samples files (a missing file has none).

    :raises ParseError: for a file that cannot be read, or that holds a record of
        another kind (so it is no samples file, and must not be appended to).
    """
    for p in paths:
        if not p.exists():
            continue
        try:
            with p.open(encoding="utf-8") as f:
                for n, line in enumerate(f, 1):
                    if not line.strip():
                        continue
                    try:
                        rec = json.loads(line)
                    except ValueError:
                        # A line cut short by a stopped run: skip it (its deal is redone).
                        print(f"{p}:{n}: skipping a broken line", file=sys.stderr)
                        continue
                    if not (
                        isinstance(rec, dict)
                        and "deal" in rec
                        and ("values" in rec or "unfinished" in rec)
                    ):
                        raise ParseError(f"{str(p)!r}, line {n}: not an averages sample")
                    yield rec
        except OSError as e:
            raise ParseError(f"cannot read samples file {str(p)!r}: {e.strerror}") from None
        except UnicodeDecodeError:
            raise ParseError(f"samples file {str(p)!r} is not UTF-8 text") from None


def _summary(values: Sequence[float]) -> tuple[float, float, float]:
    n = len(values)
    mean = sum(values) / n
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1)) if n > 1 else 0.0
    return mean, sd, sd / math.sqrt(n) if n else 0.0


def make_averages(
    output: str | Path,
    *,
    deals: int = 2000,
    seed: int = 1,
    rules: Sequence[str] = ("classic",),
    variants: Iterable[str] = (),
    scale: str | Path | None = None,
    cards: int = 13,
    contracts: Sequence[str] | None = None,
    samples: Sequence[str | Path] = (),
    jobs: int | None = None,
    tt_bytes: int = 64 << 20,
    time_limit: float | None = None,
    deal_limit: float | None = None,
    skip: Iterable[int] = (),
    command: str | None = None,
    log: bool = True,
) -> dict[str, object]:
    """Solve deals ``1..deals`` of ``seed`` (skipping those already in the samples),
    stream their values to the samples file, and write the averages to ``output``.

    ``contracts`` limits the contracts (default: all of each rule set); with ``cards``
    below 13 the deals are endings (for tests) and Dominoes / Réussite are left out.
    After ``time_limit`` seconds no new deal is started (the output is then written
    from the deals done, marked provisional).  The boards in ``skip`` are left for a
    later run (a record without them is provisional).  With ``deal_limit`` (seconds)
    a deal whose searches take longer is left out: the samples file notes it with
    the bounds proved for its values (``"unfinished"``), and later runs leave it
    alone unless given a larger limit or none.  Returns the output's content.

    :raises ParseError: for an unknown rule set, variant, contract or scale file.
    """
    from .batch import random_boards

    out_path = Path(output)
    if out_path.is_dir():
        raise ParseError(f"-o {str(out_path)!r} is a directory")
    if out_path.exists():
        load_averages(out_path)  # its records are kept: it must be an averages file
    sample_paths = [Path(p) for p in samples] or [out_path.with_suffix(".samples.jsonl")]
    vs = tuple(sorted(parse_variants(variants)))
    sc = load_scale(scale) if scale is not None else None
    if contracts is not None:
        for c in contracts:
            find_contract(c)  # an unknown name is an error, not left out
            if not any(_in_rules(c, r) for r in rules):
                raise ParseError(f"{c!r} is not a contract of the {' or '.join(rules)} rules")
    sets: list[_Set] = []
    for r in rules:
        names = [c.name for c in contracts_of(r, vs)]
        if contracts is not None:
            wanted = {find_contract(c, r).name for c in contracts if _in_rules(c, r)}
            names = [n for n in names if n in wanted]
        if cards < 13:
            names = [n for n in names if find_contract(n).kind != "dominoes"]
        keys = [
            _key_text(contract_key(n, rules=r, variants=vs, scale=sc, cards=cards)) for n in names
        ]
        if names:
            sets.append(_Set(r, vs, sc, tuple(names), tuple(keys)))
    if not sets:
        why = " (Dominoes and the Réussite need full deals)" if cards < 13 else ""
        raise ParseError(f"no contract to average{why}")
    # What is done already (deal text and declarer identify a sample).
    have: dict[tuple[str, str], dict[str, object]] = {}
    # The largest deal limit at which a deal's contract was tried and not finished,
    # and the bounds proved for it.
    tried: dict[tuple[str, str], dict[str, float]] = {}
    cut: dict[tuple[str, str], dict[str, Bounds]] = {}
    for line in _read_samples(sample_paths):
        k = (str(line.get("deal")), str(line.get("declarer")))
        vals = have.setdefault(k, {})
        vals.update(line.get("values", {}))  # type: ignore[call-overload]
        lim = float(line.get("limit", 0.0))  # type: ignore[arg-type]
        for key, (lo, hi) in line.get("unfinished", {}).items():  # type: ignore[attr-defined]
            t = tried.setdefault(k, {})
            t[key] = max(t.get(key, 0.0), lim)
            _narrow(cut.setdefault(k, {}), key, (lo, hi))

    # A contract that is another's scaled (scaled_twins) takes its values from the
    # other's, and is not solved when the other is asked for before it in this run.
    order = {k: i for i, k in enumerate(k for s in sets for k in s.keys)}
    twins: dict[str, list[tuple[str, Fraction]]] = {}
    for s in sets:
        for name, key in zip(s.contracts, s.keys, strict=True):
            found = scaled_twins(name, rules=s.rules, variants=vs, scale=sc, cards=cards)
            # those solved in this run first, then the others
            twins[key] = sorted(
                ((_key_text(k2), f) for k2, f in found),
                key=lambda t: order.get(t[0], len(order)),
            )
    # key -> twin key -> (factor, how many values taken from it)
    scaled: dict[str, dict[str, tuple[Fraction, int]]] = {}

    def derive(deal_key: tuple[str, str]) -> None:
        vals = have.setdefault(deal_key, {})
        bounds = cut.get(deal_key, {})
        for key, pairs in twins.items():
            if key in vals:
                continue
            for k2, f in pairs:
                if k2 in vals:
                    vals[key] = _times(vals[k2], f)
                    from_twin = scaled.setdefault(key, {})
                    from_twin[k2] = (f, from_twin.get(k2, (f, 0))[1] + 1)
                    break
                if k2 in bounds and key not in bounds:
                    lo, hi = bounds[k2]
                    bounds[key] = (_times(lo, f), _times(hi, f))
                    tried.setdefault(deal_key, {})[key] = tried[deal_key][k2]

    for deal_key in list(have):
        derive(deal_key)

    def needed(deal_key: tuple[str, str], key: str) -> bool:
        if key in have.get(deal_key, {}):
            return False
        if any(order.get(k2, len(order)) < order[key] for k2, _ in twins[key]):
            return False  # taken from a twin solved first
        at = tried.get(deal_key, {}).get(key)
        return at is None or deal_limit is None or deal_limit > at

    skipped = set(skip)
    boards = [b for b in random_boards(deals, seed, cards=cards) if b.number not in skipped]
    todo: list[tuple[_Set, str, str, int]] = []
    done = held = 0  # deals with every contract of the set in already; left out
    for s in sets:
        for b in boards:
            deal, decl = b.deal.to_pbn(), b.declarer().name
            full = all(k in have.get((deal, decl), {}) for k in s.keys)
            missing = [
                (n, k) for n, k in zip(s.contracts, s.keys, strict=True) if needed((deal, decl), k)
            ]
            done += full
            held += not (full or missing) and any(k in tried.get((deal, decl), {}) for k in s.keys)
            if missing:
                # Only the contracts this deal still lacks.
                part = replace(
                    s, contracts=tuple(n for n, _ in missing), keys=tuple(k for _, k in missing)
                )
                assert b.number is not None
                todo.append((part, deal, decl, b.number))
    if log:
        print(
            f"{len(todo)} deal(s) to solve, {done} done"
            + (f", {held} left out at an earlier deal limit" if held else ""),
            file=sys.stderr,
        )
    sample_paths[0].parent.mkdir(parents=True, exist_ok=True)
    workers = jobs or os.cpu_count() or 1
    t0 = time.perf_counter()
    deadline = None if time_limit is None else time.monotonic() + time_limit
    left_out: list[int] = []
    try:
        with sample_paths[0].open("a", encoding="utf-8") as f:
            for s, deal, decl, number, (values, part_cut, secs) in _run(
                todo, workers, tt_bytes, deadline, deal_limit
            ):
                rec: dict[str, object] = {
                    "rules": s.rules,
                    "seed": seed,
                    "board": number,
                    "deal": deal,
                    "declarer": decl,
                    "values": values,
                    "seconds": round(secs, 3),
                }
                if part_cut:
                    unfinished = {k: list(b) for k, b in part_cut.items()}
                    rec.update(unfinished=unfinished, limit=deal_limit)
                    left_out.append(number)
                f.write(json.dumps(rec, ensure_ascii=False) + "\n")
                f.flush()
                have.setdefault((deal, decl), {}).update(values)
                for key, bounds in part_cut.items():
                    _narrow(cut.setdefault((deal, decl), {}), key, bounds)
                    t = tried.setdefault((deal, decl), {})
                    t[key] = max(t.get(key, 0.0), deal_limit or 0.0)
                derive((deal, decl))
                if log:
                    what = f"{secs:.1f} s"
                    if part_cut:
                        spans = ", ".join(f"{lo}..{hi}" for lo, hi in part_cut.values())
                        what = f"not finished in {deal_limit:g} s ({spans}), left out"
                    print(
                        f"{s.rules} board {number}: {what} "
                        f"({time.perf_counter() - t0:.0f} s in all)",
                        file=sys.stderr,
                    )
    finally:
        data = _write_output(out_path, sets, have, deals, seed, command, cut, scaled)
        if log and left_out:
            print(
                f"{len(left_out)} deal(s) left out at the {deal_limit:g} s limit: boards "
                + ", ".join(map(str, sorted(left_out))),
                file=sys.stderr,
            )
    return data


def _in_rules(name: str, rules: str) -> bool:
    try:
        find_contract(name, rules)
    except ParseError:
        return False
    return True


def _run(
    todo: list[tuple[_Set, str, str, int]],
    workers: int,
    tt_bytes: int,
    deadline: float | None = None,
    deal_limit: float | None = None,
) -> Iterator[tuple[_Set, str, str, int, _DealResult]]:
    """Solve the deals on ``workers`` processes (in this one for 1), as they finish,
    each within ``deal_limit`` seconds; after ``deadline`` (a :func:`time.monotonic`
    time) no new deal is started."""

    def more() -> bool:
        return deadline is None or time.monotonic() < deadline

    if workers <= 1:
        _init_worker(tt_bytes)
        for s, deal, decl, number in todo:
            if not more():
                return
            yield s, deal, decl, number, _deal_values(s, deal, decl, deal_limit)
        return
    with ProcessPoolExecutor(workers, initializer=_init_worker, initargs=(tt_bytes,)) as pool:
        pending: dict[Future[_DealResult], tuple[_Set, str, str, int]] = {}
        queue = list(reversed(todo))
        try:
            while pending or (queue and more()):
                while queue and more() and len(pending) < 2 * workers:
                    item = queue.pop()
                    fut = pool.submit(_deal_values, item[0], item[1], item[2], deal_limit)
                    pending[fut] = item
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for fut in done:
                    s, deal, decl, number = pending.pop(fut)
                    yield s, deal, decl, number, fut.result()
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise


def _narrow(into: dict[str, Bounds], key: str, b: Bounds) -> None:
    """Keep the tightest interval proved for a value (tries at several limits)."""
    old = into.get(key)
    into[key] = b if old is None else (max(old[0], b[0]), min(old[1], b[1]))


def _write_output(
    path: Path,
    sets: Sequence[_Set],
    have: dict[tuple[str, str], dict[str, object]],
    deals: int,
    seed: int,
    command: str | None,
    cut: dict[tuple[str, str], dict[str, Bounds]] | None = None,
    scaled: dict[str, dict[str, tuple[Fraction, int]]] | None = None,
) -> dict[str, object]:
    """Write the averages of the sets' contracts to ``path``, keeping its other records.

    A record with deals left out at a deal limit also has ``left_out`` (how many) and
    ``mean_with_left_out``: the interval of the mean over the deals done and those,
    from the bounds proved for them.  One with values taken from a scaled twin has
    ``scaled_from``: the twin's rule set and contract, the factor and how many deals."""
    old = list(load_averages(path).records) if path.exists() else []
    new: list[dict[str, object]] = []
    for s in sets:
        for name, key in zip(s.contracts, s.keys, strict=True):
            values = [float(v[key]) for v in have.values() if key in v]  # type: ignore[arg-type]
            if not values:
                continue
            mean, sd, se = _summary(values)
            rec: dict[str, object] = json.loads(key)
            rec.update(
                title=find_contract(name).title,
                scale=s.scale.name if s.scale is not None else s.rules,
                deals=len(values),
                mean=round(mean, 4),
                sd=round(sd, 4),
                stderr=round(se, 4),
                provisional=len(values) < deals,
            )
            left = [
                c[key] for d, c in (cut or {}).items() if key in c and key not in have.get(d, {})
            ]
            if left:
                n = len(values) + len(left)
                rec.update(
                    left_out=len(left),
                    mean_with_left_out=[
                        round((sum(values) + sum(b[0] for b in left)) / n, 4),
                        round((sum(values) + sum(b[1] for b in left)) / n, 4),
                    ],
                )
            if scaled and key in scaled:
                rec["scaled_from"] = [
                    {
                        "rules": json.loads(k2)["rules"],
                        "contract": json.loads(k2)["contract"],
                        "factor": str(f),
                        "deals": n,
                    }
                    for k2, (f, n) in scaled[key].items()
                ]
            if command:
                rec["command"] = command
            new.append(rec)
    keys = {_record_key(r) for r in new}
    kept = [r for r in old if _record_key(r) not in keys]
    data: dict[str, object] = {
        "format": 1,
        "about": (
            "The mean double-dummy value of each contract for its declarer over random "
            "deals (Trumps: best suit; Dominoes: best starting rank). Remade by "
            "python -m barbu_dd.averages (see its module doc); 'provisional' records "
            "come from fewer deals than asked for."
        ),
        "averages": kept + new,
    }
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    tmp.replace(path)
    return data


def main(argv: Sequence[str] | None = None) -> int:
    """The ``python -m barbu_dd.averages`` command; returns the exit code."""
    p = argparse.ArgumentParser(
        prog="python -m barbu_dd.averages",
        description="Average value of each contract for its declarer over random deals.",
    )
    p.add_argument("-o", "--output", required=True, help="the averages file (JSON) to write")
    p.add_argument("--deals", type=int, default=2000, help="how many random deals (2000)")
    p.add_argument("--seed", type=int, default=1, help="the seed of the deals (1)")
    p.add_argument("--rules", action="append", help="a rule set, repeatable (default: classic)")
    p.add_argument("--variant", action="append", default=[], help="a variant, repeatable")
    p.add_argument("--scale", help="a scale file (TOML)")
    p.add_argument("--cards", type=int, default=13, help="cards a hand (below 13: endings)")
    p.add_argument("--contracts", help="only these contracts, comma-separated")
    p.add_argument(
        "--samples",
        action="append",
        default=[],
        help="samples file (JSON lines), repeatable: all are read, the first is appended to",
    )
    p.add_argument("--jobs", type=int, default=None, help="worker processes (one a core)")
    p.add_argument("--tt-mib", type=int, default=64, help="table size of each worker, MiB")
    p.add_argument(
        "--time-limit",
        type=float,
        default=None,
        help="seconds after which no new deal is started (run again later to go on)",
    )
    p.add_argument(
        "--deal-limit",
        type=float,
        default=None,
        metavar="S",
        help="seconds for one deal's searches; a deal taking longer is left out and noted "
        "(run again with a larger limit, or none, to solve it)",
    )
    p.add_argument(
        "--skip",
        action="append",
        default=[],
        metavar="BOARD[,BOARD…]",
        help="leave these boards for a later run (repeatable; the records stay provisional)",
    )
    args = p.parse_args(argv)
    try:
        skip = [int(x) for arg in args.skip for x in arg.split(",") if x.strip()]
    except ValueError:
        p.error(f"--skip takes board numbers, not {args.skip!r}")
    if args.deals < 1 or not 1 <= args.cards <= 13:
        p.error("--deals must be 1 or more and --cards 1..13")
    if args.deal_limit is not None and not 0 < args.deal_limit < math.inf:
        p.error("--deal-limit must be a positive number of seconds")
    if args.time_limit is not None and not 0 <= args.time_limit < math.inf:
        p.error("--time-limit must be 0 (write the records from the samples) or more seconds")
    if args.jobs is not None and args.jobs < 1:
        p.error("--jobs must be 1 or more")
    if args.tt_mib < 1:
        p.error("--tt-mib must be 1 or more")
    command = "python -m barbu_dd.averages " + " ".join(
        sys.argv[1:] if argv is None else list(argv)
    )
    try:
        data = make_averages(
            args.output,
            deals=args.deals,
            seed=args.seed,
            rules=args.rules or ["classic"],
            variants=args.variant,
            scale=args.scale,
            cards=args.cards,
            contracts=args.contracts.split(",") if args.contracts else None,
            samples=args.samples,
            jobs=args.jobs,
            tt_bytes=args.tt_mib << 20,
            time_limit=args.time_limit,
            deal_limit=args.deal_limit,
            skip=skip,
            command=command,
        )
    except BarbuError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted: the samples so far are kept; run again to go on", file=sys.stderr)
        return 130
    n = len(data["averages"])  # type: ignore[arg-type]
    print(f"wrote {n} record(s) to {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
