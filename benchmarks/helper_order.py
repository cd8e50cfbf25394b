"""The second search thread's move order for the others against a lone seat: data and fit.

``PYTHONPATH=src python benchmarks/helper_order.py gen no-queens --positions 1500
--seed 21 -o /tmp/no-queens.jsonl`` (one line a position), then ``PYTHONPATH=src
python benchmarks/helper_order.py fit /tmp/*.jsonl -o
src/barbu_dd/data/helper_order.json`` (the weights the core reads).

With two search threads (``Solver(threads=2)``) the second thread orders the others'
moves against a lone seat (No Tricks, No Hearts, No Queens, No Last Two, the Salad)
by a linear score of a few counts of the move (``helper_score`` in ``_core.pyx``,
:func:`features` here: the same numbers), so that the two threads start the others'
proofs from different first moves and meet in the shared table.  The first thread
keeps the hand-made order, so one-thread solves, and every node count of
``nodes.py``, are unchanged.

``gen``: random endings of 10 cards a hand, a random lone seat, a random trick in
progress (0 to 2 cards) with one of the others to move; for each legal move (a group
of equal cards), the lone seat's exact value after it and the cost of the others'
proof with it: the nodes of the null-window probe at the critical target (the best
move's value plus one step: a move refutes there if it is among the best) after the
move, from a cold table, with one thread.

``ab``: ``PYTHONPATH=src python benchmarks/helper_order.py ab no-queens [--deals 50]
[--time-limit 4]`` solves the benchmark deals with two threads, with the learned
order and without it, each deal with both in turn in one process (the fair
comparison on a machine whose speed drifts).

``fit``: for each contract, a softmax over the moves of each position, fitted (Adam,
300 full passes, L2 1e-4; on three positions in four, a fixed draw, the rest being
for a check) to put first the cheapest move among those that refute.
The number to beat is not this fit's accuracy but the search's: a learned order for
the *first* thread, fitted either to the best moves or to the cheapest refutations,
made solves slower (No Queens, fifty deals, 10 M-node cap: 282.0 M → 332.0 M and
278.5 M nodes), while as the second thread's order it made two-thread solves faster
(``benchmarks/HISTORY.md``, session 39).  The weights are deterministic given the
data files.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np

from barbu_dd.contracts import make_game
from barbu_dd.solver import Solver

RULES = {"salad": "french"}
NF = 44  # features a move (helper_score); the data file pads to 48
NW = 48


def _game(contract: str):  # type: ignore[no-untyped-def]
    return make_game(contract, rules=RULES.get(contract, "classic"))


def _pc(x: int) -> int:
    return bin(x).count("1")


def _lane(h: int, s: int) -> int:
    return (h >> (16 * s)) & 0x1FFF


def _high(x: int) -> int:
    return x.bit_length() - 1


def _low(x: int) -> int:
    return (x & -x).bit_length() - 1


def est_trick_neg(
    pts: dict[int, int], hands: list[int], trick: list[int], leader: int, lone: int, card: int
) -> tuple[int, int]:
    """The core's guess at the winner and the card points of the trick (est_trick_neg)."""
    tot = pts.get(card, 0) + sum(pts.get(x, 0) for x in trick)
    led = (trick[0] if trick else card) >> 4
    seat = (leader + len(trick)) & 3
    wcard, wseat = -1, -1
    for i, x in enumerate(trick):
        if x >> 4 == led and x > wcard:
            wcard, wseat = x, (leader + i) & 3
    if card >> 4 == led and card > wcard:
        wcard, wseat = card, seat
    voids = []
    for i in range(len(trick) + 1, 4):
        o = (leader + i) & 3
        ls = _lane(hands[o], led)
        if not ls:
            voids.append(o)
            continue
        below = ls & ((1 << (wcard & 15)) - 1)
        cand = 16 * led + (_high(below) if below else _low(ls))
        tot += pts.get(cand, 0)
        if cand > wcard:
            wcard, wseat = cand, o
    for o in voids:
        if (o == lone) == (wseat == lone):
            continue
        tot += min([v for b, v in pts.items() if (hands[o] >> b) & 1] + [0])
    return wseat, tot


def features(rec: dict, card: int, game) -> np.ndarray:  # type: ignore[no-untyped-def]
    """The numbers ``helper_score`` weighs for the move ``card`` of position ``rec``."""
    hands, trick, leader, lone = rec["hands"], rec["trick"], rec["leader"], rec["L"]
    k = len(trick)
    mover = (leader + k) & 3
    s, r = card >> 4, card & 15
    left = _pc(hands[mover])
    pts = {i: v for i, v in enumerate(game.card_points) if v}
    f = np.zeros(NF)
    ls, xs = _lane(hands[lone], s), _lane(hands[mover], s)
    ts = 0
    for h in range(4):
        if h != lone:
            ts |= _lane(hands[h], s)
    os_ = ts & ~xs
    tr = 0
    for x in trick:
        if x >> 4 == s:
            tr |= 1 << (x & 15)
    present = ts | ls | tr
    above, below = ~((1 << (r + 1)) - 1) & 0x1FFF, (1 << r) - 1
    wseat, got = est_trick_neg(pts, hands, trick, leader, lone, card)
    gets = got + game.trick_points[13 - left] if wseat == lone else 0
    seat_played = any(((leader + i) & 3) == lone for i in range(k))
    base = 0 if k == 0 else (14 if s == trick[0] >> 4 else 28)
    f[0] = gets / 10.0
    f[1] = wseat == lone
    below_ts = _pc(ls & ((1 << _low(ts)) - 1)) if ts else _pc(ls)
    f[2 + base : 16 + base] = [
        1.0,
        ls != 0,
        _pc(ls) / 13,
        _pc(ls & above) / 13,
        _pc(ls & below) / 13,
        _pc(os_ & below) / 13,
        _pc(xs) / 13,
        (xs & below) == 0,
        (xs & above) == 0,
        _pc(present & above) / 13,
        -pts.get(card, 0) / 6,
        below_ts / 13,
        seat_played,
        left / 13,
    ]
    return f


def base_key(rec: dict, card: int, game) -> float:  # type: ignore[no-untyped-def]
    """The first thread's order for the others (approximately: the trick's guessed
    value, the lone seat's suits first on lead, then the highest card)."""
    hands, trick, leader, lone = rec["hands"], rec["trick"], rec["leader"], rec["L"]
    pts = {i: v for i, v in enumerate(game.card_points) if v}
    left = _pc(hands[(leader + len(trick)) & 3])
    wseat, got = est_trick_neg(pts, hands, trick, leader, lone, card)
    gets = got + game.trick_points[13 - left] if wseat == lone else 0
    suit_w = 16 if (not trick and _lane(hands[lone], card >> 4)) else 0
    return float(-gets * 2**30 + ((card & 15) + suit_w) * 2**22)


def play_random(rng: random.Random, core, hands: list[int], leader: int, k: int) -> list[int]:  # type: ignore[no-untyped-def]
    """Plays ``k`` random legal cards to a trick ``leader`` leads (taken out of
    ``hands``, in place); returns them."""
    trick: list[int] = []
    for i in range(k):
        c = rng.choice([x for g in core.groups(hands, trick, leader) for x in g])
        hands[(leader + i) & 3] &= ~(1 << c)
        trick.append(c)
    return trick


def gen(contract: str, positions: int, seed: int, out: Path, cards: int) -> None:
    rng = random.Random(seed)
    solver = Solver(1 << 26)
    solver._load_game(_game(contract))
    core = solver._core
    deck = [16 * s + r for s in range(4) for r in range(13)]
    done = 0
    t0 = time.time()
    with open(out, "a") as f:
        while done < positions:
            rng.shuffle(deck)
            hands = [sum(1 << c for c in deck[h * cards : (h + 1) * cards]) for h in range(4)]
            lone, leader, k = rng.randrange(4), rng.randrange(4), rng.randrange(3)
            if (leader + k) & 3 == lone:
                k = (k + 1) % 3
                if (leader + k) & 3 == lone:
                    continue
            trick = play_random(rng, core, hands, leader, k)
            mover = (leader + k) & 3
            groups = core.groups(hands, trick, leader)
            if len(groups) < 2:
                continue
            vals = [core.value_after(hands, trick, leader, 1 << lone, g[0])[0] for g in groups]
            target = min(vals) + core.gcd
            cost = []
            for g in groups:
                after = list(hands)
                after[mover] &= ~(1 << g[0])
                core.clear()
                cost.append(core.probe(after, [*trick, g[0]], leader, 1 << lone, target)[1])
            rec = {"c": contract, "hands": hands, "trick": trick, "leader": leader, "L": lone}
            rec.update(groups=groups, vals=vals, cost=cost)
            f.write(json.dumps(rec) + "\n")
            f.flush()
            done += 1
    print(f"{contract}: {done} positions in {time.time() - t0:.0f} s", file=sys.stderr)


def _fit(data: list[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
    w, m, v = np.zeros(NF), np.zeros(NF), np.zeros(NF)
    for ep in range(300):
        g = np.zeros(NF)
        for x, best in data:
            if best.all():
                continue  # every move as cheap: nothing to learn (but counted below)
            z = x @ w
            p = np.exp(z - z.max())
            p /= p.sum()
            g += x.T @ p - (x[best].T @ p[best]) / p[best].sum()
        g = g / len(data) + 1e-4 * w
        m = 0.9 * m + 0.1 * g
        v = 0.999 * v + 0.001 * g * g
        step = (m / (1 - 0.9 ** (ep + 1))) / (np.sqrt(v / (1 - 0.999 ** (ep + 1))) + 1e-8)
        w -= 0.05 * step
    return w


def _order_cost(scores: np.ndarray, ref: np.ndarray, cost: np.ndarray) -> float:
    tot = 0.0
    for i in np.argsort(-scores, kind="stable"):
        tot += cost[i]
        if ref[i]:
            break
    return tot


def fit(files: list[Path], out: Path) -> None:
    by: dict[str, list[dict]] = {}
    for path in files:
        for line in open(path):
            rec = json.loads(line)
            by.setdefault(rec["c"], []).append(rec)
    weights = {}
    for contract, recs in sorted(by.items()):
        game = _game(contract)
        data, order = [], []
        for rec in recs:
            cards = [g[0] for g in rec["groups"]]
            vals, cost = np.array(rec["vals"]), np.array(rec["cost"], dtype=float)
            ref = vals == vals.min()
            x = np.array([features(rec, c, game) for c in cards])
            b = np.array([base_key(rec, c, game) for c in cards]) - 1e-9 * np.arange(len(cards))
            cheap = np.where(ref, cost, np.inf)
            data.append((x, cheap == cheap.min()))
            order.append((x, b, ref, cost))
        # fitted on three positions in four (a fixed draw), as measured
        keep = np.random.default_rng(0).permutation(len(data))[: int(0.75 * len(data))]
        w = _fit([data[i] for i in keep])
        weights[contract] = [round(float(a), 6) for a in w] + [0.0] * (NW - NF)
        first = sum(_order_cost(b, ref, cost) for x, b, ref, cost in order)
        learned = sum(_order_cost(x @ w, ref, cost) for x, b, ref, cost in order)
        print(
            f"{contract}: {len(recs)} positions; nodes to the first refutation, "
            f"first thread's order {first:,.0f}, learned {learned:,.0f}",
            file=sys.stderr,
        )
    doc = {
        "about": "Weights of the second search thread's order for the others against a "
        "lone seat (helper_score in _core.pyx); made by benchmarks/helper_order.py fit.",
        "features": NF,
        "weights": weights,
    }
    out.write_text(json.dumps(doc, indent=1) + "\n")


def side_by_side(contract: str, deals: int, time_limit: float) -> None:
    """Two-thread solves of the benchmark deals (North alone, on lead) with the second
    thread's learned order and without it (its older order: the first two moves
    swapped), each deal with both in turn in one process, cold tables."""
    import statistics

    sys.path.insert(0, str(Path(__file__).parent))
    from deals import BENCH_DEALS

    import barbu_dd.solver as sv

    orig = sv._helper_weights
    real = orig()
    if contract not in real:
        raise SystemExit(f"no learned order for {contract}: {', '.join(real)}")
    game = _game(contract)
    runs: dict[str, list[float]] = {"swap": [], "learned": []}
    solvers = {"swap": Solver(threads=2), "learned": Solver(threads=2)}
    try:
        for i in range(deals):
            for name, weights in (("swap", {}), ("learned", real)):
                sv._helper_weights = lambda w=weights: w  # type: ignore[misc]
                s = solvers[name]
                s.clear()
                t0 = time.perf_counter()
                sol = s.solve(BENCH_DEALS[i], game, declarer="N", seats="N", time_limit=time_limit)
                runs[name].append(time.perf_counter() - t0 if sol.exact else float("inf"))
    finally:
        sv._helper_weights = orig  # type: ignore[assignment]
    both = [i for i in range(deals) if all(runs[n][i] < float("inf") for n in runs)]
    for name, t in runs.items():
        done = [x for x in t if x < float("inf")]
        med = statistics.median(t)
        med_text = f"{med * 1000:8.1f} ms" if med < float("inf") else "over the limit"
        print(
            f"{contract} {name:8} median {med_text}  over 2 s "
            f"{sum(x > 2 for x in t):2}  finished {len(done)}/{deals}  "
            f"deals both finished {sum(t[i] for i in both):.1f} s"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("gen", help="labelled positions of one contract (JSON lines)")
    g.add_argument("contract")
    g.add_argument("--positions", type=int, default=600)
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--cards", type=int, default=10)
    g.add_argument("-o", "--output", type=Path, required=True)
    f = sub.add_parser("fit", help="the weights from position files")
    f.add_argument("files", nargs="+", type=Path)
    f.add_argument("-o", "--output", type=Path, required=True)
    b = sub.add_parser("ab", help="two threads with the learned order and without, in turn")
    b.add_argument("contract")
    b.add_argument("--deals", type=int, default=50)
    b.add_argument("--time-limit", type=float, default=4.0)
    args = ap.parse_args()
    if args.cmd == "ab":
        side_by_side(args.contract, args.deals, args.time_limit)
    elif args.cmd == "gen":
        gen(args.contract, args.positions, args.seed, args.output, args.cards)
    else:
        fit(args.files, args.output)


if __name__ == "__main__":
    main()
