#!/usr/bin/env python3
"""Generate ``dominoes_reference.json``: Dominoes / Réussite endings solved by the reference.

For every *combo* of :data:`COMBOS` (classic Aces high, low Aces, ace replays, both
variants, the French Réussite, and an uneven scale with tied and non-monotone place
values) this draws random legal endings with
:func:`reference.random_domino_ending` (each suit on the table empty or one run
holding the starting rank, hands of different sizes, up to two seats already out, a
random seat to move; a random starting rank for Dominoes) and solves every seat with
the exhaustive minimax :func:`reference.ref_domino_values`.

Sizes (cards a hand, per combo): 100 endings of 3-4, 15 of 4-5, 6 of 5-6 and 1 of 6-7
(the reference takes seconds at 5-6 and up to a minute at 6-7 cards a hand).

The file is read by ``tests/test_dominoes.py``, which checks that the search gives
every stored value.  Regenerate with (a few minutes on 2 cores)::

    PYTHONPATH=src:tests python tests/data/make_dominoes_data.py

Options: ``--seed`` (default 20260601), ``--processes`` (default 2), ``--out``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
for p in (ROOT / "src", ROOT / "tests"):
    if str(p) not in sys.path:
        sys.path.insert(0, str(p))

from reference import random_domino_ending, ref_domino_values  # noqa: E402

from barbu_dd.cards import RANK_CHARS, hand_to_pbn  # noqa: E402
from barbu_dd.contracts import ContractScale, Game, Scale, make_game  # noqa: E402

#: name -> (contract, rules, variants, places or None for the rule set's default)
COMBOS: dict[str, tuple[str, str, tuple[str, ...], tuple[int, int, int, int] | None]] = {
    "classic": ("dominoes", "classic", (), None),
    "low-aces": ("dominoes", "classic", ("low-aces",), None),
    "ace-replays": ("dominoes", "classic", ("ace-replays",), None),
    "low-aces+ace-replays": ("dominoes", "classic", ("low-aces", "ace-replays"), None),
    "reussite": ("reussite", "french", (), None),
    "odd-scale": ("dominoes", "classic", ("ace-replays",), (10, 10, -3, 7)),
}

#: (how many, sizes, max seats already out) for each combo
SLOTS: tuple[tuple[int, tuple[int, int], int], ...] = (
    (100, (3, 4), 2),
    (15, (4, 5), 1),
    (6, (5, 6), 1),
    (1, (6, 7), 0),
)


def combo_game(name: str, start: str | None) -> Game:
    """The game of a combo, with a starting rank for Dominoes (Réussite: the Jacks)."""
    contract, rules, variants, places = COMBOS[name]
    scale = None
    if places is not None:
        scale = Scale("odd-dominoes", rules, {"dominoes": ContractScale(places=places)})
    return make_game(
        contract,
        rules=rules,
        variants=variants,
        scale=scale,
        start=None if contract == "reussite" else start,
    )


def _task(args: tuple[str, int, tuple[int, int], int, int]) -> dict[str, Any]:
    name, seed, sizes, max_out, index = args
    rng = random.Random(seed)
    start = None if COMBOS[name][0] == "reussite" else rng.choice(RANK_CHARS)
    game = combo_game(name, start)
    pos = random_domino_ending(rng, game, sizes=sizes, max_out=max_out)
    t0 = time.perf_counter()
    values = ref_domino_values(pos, game)
    return {
        "combo": name,
        "index": index,
        "start": RANK_CHARS[game.start] if game.start is not None else None,
        "hands": [hand_to_pbn(h) for h in pos.hands],
        "to_move": pos.to_move.name,
        "values": list(values),
        "seconds": round(time.perf_counter() - t0, 3),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=20260601)
    ap.add_argument("--processes", type=int, default=2)
    ap.add_argument("--out", type=Path, default=HERE / "dominoes_reference.json")
    a = ap.parse_args()
    master = random.Random(a.seed)
    tasks = []
    for name in COMBOS:
        i = 0
        for count, sizes, max_out in SLOTS:
            for _ in range(count):
                tasks.append((name, master.getrandbits(32), sizes, max_out, i))
                i += 1
    t0 = time.perf_counter()
    with multiprocessing.Pool(a.processes) as pool:
        # the big ones first, so the pool ends together
        order = sorted(range(len(tasks)), key=lambda k: -tasks[k][2][1])
        done = pool.map(_task, [tasks[k] for k in order], chunksize=1)
    done.sort(key=lambda r: (list(COMBOS).index(r["combo"]), r["index"]))
    data = {
        "about": "Dominoes endings solved by tests/reference.py (exhaustive minimax); "
        "made by tests/data/make_dominoes_data.py",
        "seed": a.seed,
        "combos": {
            k: {"contract": v[0], "rules": v[1], "variants": list(v[2]), "places": v[3]}
            for k, v in COMBOS.items()
        },
        "positions": done,
    }
    a.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"{len(done)} positions in {time.perf_counter() - t0:.0f} s -> {a.out}")


if __name__ == "__main__":
    main()
