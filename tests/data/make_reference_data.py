#!/usr/bin/env python3
"""Generate ``reference_endings.json``: small Barbu endings solved by the slow reference.

For every *combo* (a contract in a rule set, with variants, a trump or a scale, see
:data:`COMBOS`) this draws random endings of 3 to 5 cards a hand (about 75 % at 3,
18 % at 4, 7 % at 5) and mid-trick positions (1 to 3 cards of the current trick
already played, 3 or 4 cards a hand), made duty-heavy on purpose with the ``bias``
options of :func:`reference.random_ending` (many hearts, the queens, the K♥, a long
trump suit, voids), each with a random leader.  Each position is solved with the
exhaustive minimax of ``tests/reference.py``:

- ``values``: the four 1-against-3 values (:func:`reference.ref_trick_values`), N E S W;
- ``sides`` (a few positions per combo): the value of a side of 2 or 3 seats
  (:func:`reference.ref_trick_value`), e.g. ``{"NS": -4, "EW": ...}``.

Values are whole numbers, or strings ``"a/b"`` for fractions (Ravage City shares).
The file is read by ``tests/test_core_vs_reference.py``, which checks that the fast
solver reproduces every stored value and that the reference still gives them.

The reference is slow at 5 cards a hand (seconds to minutes a position), so each
position gets a *node budget* (the reference's calls to ``legal_cards``, counted, never
altered): a position whose four values need more is replaced by a fresh draw from the
same slot's generator.  The choice depends only on the seed, not on the machine.

Regenerate with (about an hour on 2 cores: most of it the 119 endings of 5 cards)::

    PYTHONPATH=src:tests python tests/data/make_reference_data.py

Options: ``--seed`` (default 20260517), ``--per-combo`` (endings a combo, default 100),
``--midtricks`` (default 20), ``--processes`` (default 2), ``--out``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
import time
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
for p in (ROOT / "src", ROOT / "tests"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

import reference  # noqa: E402
from reference import random_ending, random_midtrick, ref_trick_value  # noqa: E402

from barbu_dd.cards import Seat, Suit, card_name  # noqa: E402
from barbu_dd.contracts import Game, load_scale, make_game  # noqa: E402
from barbu_dd.deal import Deal  # noqa: E402

DEFAULT_SEED = 20260517
DEFAULT_PER_COMBO = 100
DEFAULT_MIDTRICKS = 20
DEFAULT_OUT = HERE / "reference_endings.json"
#: The most ``legal_cards`` calls the reference may make for one position (all its
#: values together); about 30 s.  Larger positions are redrawn.
NODE_BUDGET = 600_000
#: Positions per combo (the first ones: the cheapest) that also get side values.
SIDE_ENDINGS = 6
SIDE_MIDTRICKS = 2

SUIT_NAMES = "SHDC"


@dataclass(frozen=True)
class Combo:
    """A contract in a rule set, as the tests rebuild it."""

    name: str
    contract: str
    rules: str = "classic"
    variants: tuple[str, ...] = ()
    #: The trumps drawn from, one per position ("NT": no trump); None: no trump suit.
    trumps: tuple[str, ...] | None = None
    #: A scale file in this directory.
    scale: str | None = None
    #: The ``bias`` options drawn from (repeats weigh more).
    biases: tuple[str | None, ...] = (None,)

    def game(self, trump: str | None = None) -> Game:
        return make_game(
            self.contract,
            rules=self.rules,
            variants=self.variants,
            trump=trump,
            scale=None if self.scale is None else load_scale(HERE / self.scale),
        )

    def spec(self) -> dict[str, Any]:
        return {
            "contract": self.contract,
            "rules": self.rules,
            "variants": list(self.variants),
            "trumps": None if self.trumps is None else list(self.trumps),
            "scale": self.scale,
        }


_PLAIN = (None, "short", "trumps", "hearts", "duties")
_HEARTS = ("hearts", "hearts", "kh", "duties", "short", None)
_QUEENS = ("queens", "queens", "duties", "short", None)
_KING = ("kh", "kh", "hearts", "duties", "queens", "short")
_TRUMPS = ("trumps", "trumps", "short", "hearts", "duties", None)

COMBOS: tuple[Combo, ...] = (
    Combo("classic-no-tricks", "no-tricks", biases=_PLAIN),
    Combo("classic-no-hearts", "no-hearts", biases=_HEARTS),
    Combo("classic-no-queens", "no-queens", biases=_QUEENS),
    Combo("classic-barbu", "barbu", biases=_KING),
    Combo("classic-no-last-two", "no-last-two", biases=_PLAIN),
    Combo("classic-trumps", "trumps", trumps=("S", "H", "D", "C"), biases=_TRUMPS),
    Combo("classic-ravage", "ravage", biases=("short", "short", None, "hearts", "trumps")),
    Combo("classic-barbu-king-duty", "barbu", variants=("king-duty",), biases=_KING),
    Combo(
        "classic-trumps-free-trumping",
        "trumps",
        variants=("free-trumping",),
        trumps=("S", "H", "D", "C"),
        biases=_TRUMPS,
    ),
    Combo("french-no-tricks", "no-tricks", "french", biases=_PLAIN),
    Combo("french-no-hearts", "no-hearts", "french", biases=_HEARTS),
    Combo("french-no-queens", "no-queens", "french", biases=_QUEENS),
    Combo("french-barbu", "barbu", "french", biases=_KING),
    Combo("french-no-last-two", "no-last-two", "french", biases=_PLAIN),
    Combo("french-salad", "salad", "french", biases=("duties", "duties", "hearts", "queens", "kh")),
    Combo(
        "bridge-tricks",
        "tricks",
        "bridge",
        trumps=("S", "H", "D", "C", "NT"),
        biases=(None, "short", "trumps", "hearts"),
    ),
    Combo("odd-scale-no-hearts", "no-hearts", scale="odd_scale.toml", biases=_HEARTS),
)


# -- values ---------------------------------------------------------------------------


def to_json(v: int | Fraction) -> int | str:
    """A value as stored: a whole number, or ``"a/b"``."""
    if isinstance(v, Fraction):
        return int(v) if v.denominator == 1 else f"{v.numerator}/{v.denominator}"
    return int(v)


class OverBudget(Exception):
    pass


_calls = [0]
_budget = [NODE_BUDGET]
_legal_cards = reference.legal_cards


def _counted_legal_cards(deal: Deal, game: Game) -> list[int]:
    _calls[0] += 1
    if _calls[0] > _budget[0]:
        raise OverBudget
    return _legal_cards(deal, game)


def _install_counter(budget: int) -> None:
    # Counts the reference's nodes (its calls to legal_cards); the cards are unchanged.
    reference.legal_cards = _counted_legal_cards  # type: ignore[assignment]
    _budget[0] = budget


@dataclass(frozen=True)
class Slot:
    """One position to draw and solve: its own generator, so redraws are reproducible."""

    combo: int
    index: int
    kind: str  # "ending" or "midtrick"
    n: int
    seed: int
    sides: bool


def _draw(combo: Combo, slot: Slot, rng: random.Random) -> tuple[Deal, str | None, str | None]:
    trump = None if combo.trumps is None else rng.choice(combo.trumps)
    bias = rng.choice(combo.biases)
    # The long suit of the 'trumps' bias: the trump when there is one.
    long_suit = (
        Suit(SUIT_NAMES.index(trump)) if trump in ("S", "H", "D", "C") else Suit(rng.randrange(4))
    )
    if slot.kind == "ending":
        d = random_ending(rng, slot.n, bias=bias, trump=long_suit)
    else:
        k = rng.randint(1, 3)
        d = random_midtrick(rng, slot.n, k, game=combo.game(trump), bias=bias, trump=long_suit)
    return d, trump, bias


def solve_slot(args: tuple[Slot, int]) -> tuple[Slot, dict[str, Any], int]:
    """Draw the slot's position (redrawing while over budget) and solve it."""
    slot, budget = args
    _install_counter(budget)
    combo = COMBOS[slot.combo]
    rng = random.Random(slot.seed)
    redraws = 0
    while True:
        d, trump, bias = _draw(combo, slot, rng)
        game = combo.game(trump)
        side_rng = random.Random(rng.getrandbits(64))
        sides: dict[str, list[int]] = {}
        if slot.sides:
            pair = side_rng.choice([(0, 1), (0, 3), (1, 2), (2, 3), (1, 3)])
            sides = {"NS": [0, 2], "".join(Seat(s).name for s in pair): list(pair)}
            if slot.kind == "midtrick":
                three = sorted(side_rng.sample(range(4), 3))
                sides["".join(Seat(s).name for s in three)] = three
        _calls[0] = 0
        try:
            values = [to_json(ref_trick_value(d, game, {s})) for s in range(4)]
            side_values = {
                name: to_json(ref_trick_value(d, game, set(ss))) for name, ss in sides.items()
            }
        except OverBudget:
            redraws += 1
            continue
        break
    assert d.leader is not None
    rec: dict[str, Any] = {
        "kind": slot.kind,
        "bias": bias,
        "deal": d.to_pbn(),
        "leader": d.leader.name,
        "trick": [card_name(c) for c in d.trick],
    }
    if combo.trumps is not None:
        rec["trump"] = trump
    rec["values"] = values
    if side_values:
        rec["sides"] = side_values
    return slot, rec, redraws


def make_slots(seed: int, per_combo: int, midtricks: int) -> list[Slot]:
    n5 = round(per_combo * 0.07)
    n4 = round(per_combo * 0.18)
    n3 = per_combo - n4 - n5
    m4 = midtricks // 2
    m3 = midtricks - m4
    slots: list[Slot] = []
    for ci, combo in enumerate(COMBOS):
        rng = random.Random(f"{seed}:{combo.name}")
        sizes = [("ending", 3)] * n3 + [("ending", 4)] * n4 + [("ending", 5)] * n5
        sizes += [("midtrick", 3)] * m3 + [("midtrick", 4)] * m4
        e = m = 0
        for i, (kind, n) in enumerate(sizes):
            if kind == "ending":
                sides, e = e < SIDE_ENDINGS, e + 1
            else:
                sides, m = m < SIDE_MIDTRICKS, m + 1
            slots.append(Slot(ci, i, kind, n, rng.getrandbits(64), sides))
    return slots


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=DEFAULT_SEED)
    ap.add_argument("--per-combo", type=int, default=DEFAULT_PER_COMBO, help="endings a combo")
    ap.add_argument(
        "--midtricks", type=int, default=DEFAULT_MIDTRICKS, help="mid-trick positions a combo"
    )
    ap.add_argument("--processes", type=int, default=2)
    ap.add_argument("--budget", type=int, default=NODE_BUDGET, help="reference nodes a position")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = ap.parse_args(argv)

    slots = make_slots(args.seed, args.per_combo, args.midtricks)
    # The largest first, so the two processes finish together.
    order = sorted(slots, key=lambda s: (-s.n - (s.kind == "ending"), s.combo, s.index))
    results: dict[tuple[int, int], dict[str, Any]] = {}
    t0 = time.time()
    total_redraws = 0
    with multiprocessing.Pool(args.processes) as pool:
        work = [(s, args.budget) for s in order]
        for done, (slot, rec, redraws) in enumerate(pool.imap_unordered(solve_slot, work), 1):
            results[(slot.combo, slot.index)] = rec
            total_redraws += redraws
            if done % 50 == 0 or done == len(slots) or slot.n == 5:
                print(
                    f"[{time.time() - t0:7.1f}s] {done}/{len(slots)} "
                    f"({COMBOS[slot.combo].name} {slot.kind} {slot.n}, redraws {total_redraws})",
                    file=sys.stderr,
                    flush=True,
                )
    out: dict[str, Any] = {
        "about": "Barbu endings solved by tests/reference.py (tests/data/make_reference_data.py)",
        "seed": args.seed,
        "per_combo": args.per_combo,
        "midtricks": args.midtricks,
        "node_budget": args.budget,
        "combos": {},
    }
    for ci, combo in enumerate(COMBOS):
        n = sum(1 for s in slots if s.combo == ci)
        out["combos"][combo.name] = {
            **combo.spec(),
            "positions": [results[(ci, i)] for i in range(n)],
        }
    # One position a line: small diffs, readable file.
    args.out.write_text(_compact(out) + "\n", encoding="utf-8")
    print(f"wrote {len(slots)} positions to {args.out} in {time.time() - t0:.0f}s", file=sys.stderr)
    return 0


def _compact(data: dict[str, Any]) -> str:
    """The data as JSON text with each position on one line."""
    lines = ["{"]
    top = [(k, v) for k, v in data.items() if k != "combos"]
    for k, v in top:
        lines.append(f" {json.dumps(k)}: {json.dumps(v, ensure_ascii=False)},")
    lines.append(' "combos": {')
    names = list(data["combos"])
    for i, name in enumerate(names):
        c = data["combos"][name]
        lines.append(f"  {json.dumps(name)}: {{")
        for k, v in c.items():
            if k != "positions":
                lines.append(f"   {json.dumps(k)}: {json.dumps(v)},")
        lines.append('   "positions": [')
        ps = c["positions"]
        for j, p in enumerate(ps):
            lines.append(
                "    " + json.dumps(p, ensure_ascii=False) + ("," if j < len(ps) - 1 else "")
            )
        lines.append("   ]")
        lines.append("  }" + ("," if i < len(names) - 1 else ""))
    lines.append(" }")
    lines.append("}")
    out = "\n".join(lines)
    assert json.loads(out) == data
    return out


if __name__ == "__main__":
    sys.exit(main())
