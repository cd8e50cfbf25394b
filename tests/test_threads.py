"""Two search threads on one table (``Solver(threads=2)``) give the one-thread values.

The second thread joins a solve after ``par_after`` nodes (100,000 by default); the
tests set it to 0 so that both threads search even the smallest positions, where
they meet in the table most often (the seqlock's and the shared bounds' races are
likeliest there).  The one-thread search is checked against the reference elsewhere
(``test_core_vs_reference``); here the two-thread values must equal it, for every
contract family, on endings, mid-trick positions and full deals, and the second
thread must really have searched.
"""

from __future__ import annotations

import random

import pytest
from reference import random_ending, random_full_deal, random_midtrick, ref_trick_values

from barbu_dd.cards import Seat
from barbu_dd.contracts import Game, make_game
from barbu_dd.deal import Deal
from barbu_dd.errors import ParseError
from barbu_dd.solver import Solver, default_threads

GAMES: list[tuple[str, Game]] = [
    ("no-tricks", make_game("no-tricks")),
    ("no-hearts", make_game("no-hearts")),
    ("no-queens", make_game("no-queens")),
    ("barbu", make_game("barbu")),
    ("no-last-two", make_game("no-last-two")),
    ("trumps", make_game("trumps", trump="S")),
    ("salad", make_game("salad", rules="french")),
    ("ravage", make_game("ravage")),
    ("bridge", make_game("tricks", rules="bridge", trump="H")),
]


def _pair(tt_bytes: int) -> tuple[Solver, Solver]:
    one = Solver(tt_bytes, threads=1)
    two = Solver(tt_bytes, threads=2)
    two._core.par_after = 0
    return one, two


def _same_with_two(one: Solver, two: Solver, d: Deal, name: str, game: Game) -> bool:
    """Asserts that both solvers give ``d`` the same scores; whether the second
    thread took part."""
    a = one.solve(d.copy(), game).scores
    b = two.solve(d.copy(), game).scores
    assert a == b, f"{name} {d.to_pbn()} leader {d.leader}: one thread {a}, two {b}"
    return two._core.last_helper_nodes > 0


@pytest.mark.parametrize("name,game", GAMES, ids=[g[0] for g in GAMES])
def test_two_threads_match_one_on_endings(name: str, game: Game) -> None:
    rng = random.Random(f"threads-{name}")
    one, two = _pair(1 << 22)
    helped = 0
    for i in range(60):
        n = 5 + i % 4
        d = random_midtrick(rng, n, i % 3, game=game) if i % 5 == 4 else random_ending(rng, n)
        helped += _same_with_two(one, two, d, name, game)
        if i % 20 == 0:  # a cold table now and then, a warm one otherwise
            one.clear()
            two.clear()
    # On a loaded machine the second thread may start only after a small solve is
    # over: larger endings until it has taken part in one (compared all the same).
    for _ in range(30):
        if helped:
            break
        one.clear()
        two.clear()
        helped += _same_with_two(one, two, random_ending(rng, 9), name, game)
    assert helped > 0


@pytest.mark.parametrize("name,game", GAMES[:7], ids=[g[0] for g in GAMES[:7]])
def test_two_threads_match_the_reference(name: str, game: Game) -> None:
    rng = random.Random(f"threads-ref-{name}")
    _, two = _pair(1 << 16)  # a small table: entries overwritten while read
    for _ in range(25):
        d = random_ending(rng, 3, bias="duties" if name != "trumps" else "trumps")
        want = ref_trick_values(d, game)
        got = two.solve(d.copy(), game).scores
        assert got == want, f"{name} {d.to_pbn()} leader {d.leader}: {got} != {want}"


def test_two_threads_on_full_deals() -> None:
    # full deals of the contracts that take milliseconds to a second
    rng = random.Random("threads-full")
    one, two = _pair(1 << 26)
    helped = 0
    for name in ("barbu", "trumps"):
        game = dict(GAMES)[name]
        for _ in range(4):
            d = random_full_deal(rng)
            d = Deal(list(d.masks), leader=Seat.N)
            a = one.solve(d.copy(), game, declarer="N", seats="N").scores[0]
            b = two.solve(d.copy(), game, declarer="N", seats="N").scores[0]
            assert a == b, f"{name} {d.to_pbn()}: one thread {a}, two {b}"
            helped += two._core.last_helper_nodes > 0
            one.clear()
            two.clear()
    assert helped > 0


def test_threads_is_checked() -> None:
    assert default_threads() in (1, 2)
    assert Solver(1 << 16, threads=2).threads == 2
    with pytest.raises(ParseError, match="threads must be 1 or 2"):
        Solver(1 << 16, threads=3)


@pytest.mark.slow
@pytest.mark.parametrize("name,game", GAMES, ids=[g[0] for g in GAMES])
def test_slow_two_threads_stress(name: str, game: Game) -> None:
    # larger endings on a table of 64 KiB: buckets written and read by both threads
    # all the time, so a torn read would show as a wrong value
    rng = random.Random(f"threads-stress-{name}")
    one, two = _pair(1 << 16)
    for i in range(60):
        d = random_ending(rng, 7 + i % 2)
        a = one.solve(d.copy(), game).scores
        b = two.solve(d.copy(), game).scores
        assert a == b, f"{name} {d.to_pbn()} leader {d.leader}: one thread {a}, two {b}"


@pytest.mark.parametrize("name,game", GAMES, ids=[g[0] for g in GAMES])
def test_two_threads_under_a_time_limit(name: str, game: Game) -> None:
    # a time limit alone runs in two threads (par_limited): the bounds hold the
    # one-thread value, and a finished score is exact
    rng = random.Random(f"threads-limit-{name}")
    one, two = _pair(1 << 20)
    exact = stopped = helped = 0
    for i in range(30):
        d = random_ending(rng, 6 + i % 3)
        want = one.solve(d.copy(), game).scores
        two.clear()
        sol = two.solve(d.copy(), game, time_limit=(0.0005, 0.003, 0.02)[i % 3])
        helped += two._core.last_helper_nodes > 0
        assert sol.bounds is not None
        for seat in range(4):
            b, w, v = sol.bounds[seat], want[seat], sol.scores[seat]
            assert b is not None and w is not None
            assert b[0] - 1e-9 <= w <= b[1] + 1e-9, f"{name} {d.to_pbn()}: {b} vs {w}"
            if v is not None:
                assert v == w and b[0] == b[1]
                exact += 1
            else:
                stopped += 1
    assert exact > 0
    if name not in ("barbu", "trumps"):  # these finish in microseconds (on a loaded
        assert stopped > 0 and helped > 0  # machine often before the helper starts)


def test_two_threads_time_limit_on_a_full_deal() -> None:
    # No Tricks, a deal of value -8 that takes about a second in one thread
    deal = "N:.AQ94.AKQJ62.AQ2 QJ54.KJT.3.KT653 T932.62.T98.J987 AK876.8753.754.4"
    game = dict(GAMES)["no-tricks"]
    two = Solver(threads=2)
    short = two.solve(deal, game, declarer="N", seats="N", time_limit=0.2)
    assert short.bounds is not None and short.bounds[0] is not None
    lo, hi = short.bounds[0]
    assert lo <= -8 <= hi
    two.clear()
    full = two.solve(deal, game, declarer="N", seats="N", time_limit=60)
    assert full.scores[0] == -8
    assert two._core.last_helper_nodes > 0
