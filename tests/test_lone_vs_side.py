"""A lone seat's value against the value of the other three as a side.

The game is constant-sum: a seat's best guarantee and the best the other three can
make together add up to the points still to hand out.  The two searches take
different paths through the core: the lone seat's search uses the tests that only a
lone seat has (no more tricks, the K♥ test, the rounds of the others' leads) and
the side's does not.  Cheap enough for endings of 5 to 9 cards a hand, where the
exhaustive reference is too slow.  A check of this kind found the K♥ test's fault
under the heart-lead rule (`test_core_vs_reference.test_point_safe_heart_lead`): one
classic Barbu ending in a thousand of 5 to 7 cards showed it.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from reference import BIASES, led_position, one_card_games, point_holder_ending, random_ending

from barbu_dd.cards import Seat
from barbu_dd.contracts import Game, make_game
from barbu_dd.deal import Deal
from barbu_dd.play import points_at_stake
from barbu_dd.solver import Solver

GAMES: dict[str, Game] = {
    "no-tricks": make_game("no-tricks"),
    "no-hearts": make_game("no-hearts"),
    "no-queens": make_game("no-queens"),
    "barbu": make_game("barbu"),
    "barbu king-duty": make_game("barbu", variants=("king-duty",)),
    "no-last-two": make_game("no-last-two"),
    "trumps H": make_game("trumps", trump="H"),
    "trumps S free-trumping": make_game("trumps", trump="S", variants=("free-trumping",)),
    "french barbu": make_game("barbu", rules="french"),
    "french no-hearts": make_game("no-hearts", rules="french"),
    "french no-tricks": make_game("no-tricks", rules="french"),
    "salad": make_game("salad", rules="french"),
}

SOLVER = Solver(tt_bytes=16 << 20)


def compare(rng: random.Random, pos: Deal, game: Game, name: str, seat: Seat | None = None) -> None:
    """Play one to three random cards first (a quarter of the time), then check
    that ``seat``'s value alone (a random seat if None) and the other three's as a
    side add up to the points in play."""
    if rng.random() < 0.25:
        pos = led_position(rng, pos, game, rng.randrange(1, 4))
    if seat is None:
        seat = Seat(rng.randrange(4))
    others = "".join(s.name for s in Seat if s != seat)
    lone = SOLVER.solve(pos.copy(), game, seats=seat.name).scores[seat]
    side = SOLVER.solve(pos.copy(), game, side=others).value
    total = points_at_stake(pos, game)
    assert lone + side == total, (
        f"{name}, {pos} ({pos.leader.name} leads, trick {list(pos.trick)}), "
        f"{seat.name} alone: {lone}, {others}: {side}, in play {total}"
    )


def check_lone_vs_side(count: int, seed: int, sizes: tuple[int, ...]) -> int:
    """``count`` random endings (a quarter of them in the middle of a trick), every
    contract of ``GAMES``, a random seat each: lone value + side value == points in
    play.  Returns the number of solves compared."""
    rng = random.Random(seed)
    biases = list(BIASES)
    n = 0
    for _ in range(count):
        d = random_ending(rng, rng.choice(sizes), bias=rng.choice(biases))
        for name, game in GAMES.items():
            compare(rng, d.copy(), game, name)
            n += 1
    return n


def test_lone_vs_side() -> None:
    assert check_lone_vs_side(300, 1, (5, 6, 7)) == 300 * len(GAMES)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3])
def test_lone_vs_side_slow(seed: int) -> None:
    assert check_lone_vs_side(2000, seed, (6, 7, 8)) == 2000 * len(GAMES)


def check_point_holder(count: int, seed: int, tmp: Path) -> int:
    """``count`` endings of 3 to 8 cards shaped for the tests of one card of points
    (``point_holder_ending``; a quarter in the middle of a trick): the lone seat's
    value + the side's == points in play.  Returns the number of solves compared."""
    games = one_card_games(tmp)
    rng = random.Random(seed)
    for _ in range(count):
        name, game, point = rng.choice(games)
        seat = Seat(rng.randrange(4))
        pos = point_holder_ending(rng, rng.choice((3, 4, 5, 6, 7, 8)), point, seat)
        compare(rng, pos, game, name, seat)
    return count


def test_point_holder_vs_side(tmp_path: Path) -> None:
    assert check_point_holder(2000, 1, tmp_path) == 2000


@pytest.mark.slow
def test_point_holder_vs_side_slow(tmp_path: Path) -> None:
    assert check_point_holder(40000, 2, tmp_path) == 40000
