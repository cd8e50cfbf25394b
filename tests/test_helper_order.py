"""The second search thread's order for the others against a lone seat.

It only orders moves, so it cannot change a value (``test_threads`` checks two
threads against one, and so this order, on every contract); here: the weights
shipped cover the five negative contracts, and the core's score of each move is the
score ``benchmarks/helper_order.py`` fitted (the same counts, the same weights).
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest

from barbu_dd.contracts import make_game
from barbu_dd.solver import Solver, _helper_weights

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import helper_order  # noqa: E402

CONTRACTS = ["no-queens", "no-last-two"]


def test_weights_cover_the_negative_contracts() -> None:
    weights = _helper_weights()
    assert sorted(weights) == sorted(CONTRACTS)  # where it was measured faster
    for w in weights.values():
        assert len(w) == 48 and all(isinstance(x, float) for x in w)
        assert any(x != 0.0 for x in w)
    s = Solver(1 << 20)
    game = make_game("no-tricks")
    with pytest.raises(ValueError, match="48"):
        s._core.set_rules(list(game.card_points), list(game.trick_points), helper_weights=[1.0])


@pytest.mark.parametrize("contract", CONTRACTS)
def test_core_scores_are_the_fitted_ones(contract: str) -> None:
    game = make_game(contract, rules=helper_order.RULES.get(contract, "classic"))
    w = np.array(_helper_weights()[contract][: helper_order.NF])
    s = Solver(1 << 20)
    s._load_game(game)
    core = s._core
    rng = random.Random(f"helper-{contract}")
    deck = [16 * su + r for su in range(4) for r in range(13)]
    checked = 0
    while checked < 40:
        n = rng.randint(3, 13)
        rng.shuffle(deck)
        hands = [sum(1 << c for c in deck[h * n : (h + 1) * n]) for h in range(4)]
        lone, leader, k = rng.randrange(4), rng.randrange(4), rng.randrange(4)
        if (leader + k) & 3 == lone:
            continue
        trick = helper_order.play_random(rng, core, hands, leader, k)
        rec = {"hands": hands, "trick": trick, "leader": leader, "L": lone}
        got = core.helper_scores(hands, trick, leader, lone)
        cards = [g[0] for g in core.groups(hands, trick, leader)]
        want = [float(helper_order.features(rec, c, game) @ w) for c in cards]
        assert got == pytest.approx(want, abs=1e-9), (rec, cards)
        checked += 1
    with pytest.raises(ValueError, match="lone seat"):
        core.helper_scores(hands, trick, leader, (leader + len(trick)) & 3)
