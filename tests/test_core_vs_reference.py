"""The fast solver (:mod:`barbu_dd.solver`) against the slow reference (``tests/reference.py``).

The solver is a black box here: its answers are compared with the exhaustive minimax
of the reference, for every contract, rule set and duty variant (the *combos* below).

- ``test_golden``: every position of ``data/reference_endings.json`` (endings of 3 to
  5 cards a hand and mid-trick positions, solved once by the reference), all four
  seats and the stored side values.  Regenerate the file with
  ``PYTHONPATH=src:tests python tests/data/make_reference_data.py`` (about an hour).
- ``test_golden_data_is_current``: a few stored positions a combo, solved again by
  the live reference (a stale file fails here).
- ``test_live_*``: random endings of 1 to 3 cards and mid-trick positions
  (hypothesis, fixed examples): solver == reference, all four seats (mid-trick
  positions on a solver with a tiny transposition table), and sides.
- ``test_card_values_*``: :func:`barbu_dd.solver.card_values` (and
  :meth:`Solver.card_values`) gives every legal card once, each card the reference
  value after it (for the mover, another seat or a side), and the best of them for the
  mover (the worst, if the mover is against the view) is the solve score.
- ``test_slow_live_endings`` (``pytest -m slow``): 1,020 random endings of 3 to 5
  cards and 170 mid-trick positions, duty-heavy, fixed seeds (about 30 minutes).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
import reference
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference import (
    BIASES,
    endings,
    led_position,
    midtricks,
    one_card_game,
    one_card_games,
    point_holder_ending,
    random_ending,
    random_midtrick,
    ref_trick_value,
    ref_trick_values,
)

from barbu_dd import _core
from barbu_dd.cards import Seat, Suit, card_name, parse_card
from barbu_dd.contracts import Game, load_scale, make_game
from barbu_dd.deal import Deal
from barbu_dd.play import legal_cards, play_card, trick_number, trick_value
from barbu_dd.solver import Solver, card_values, solve

DATA_DIR = Path(__file__).resolve().parent / "data"
GOLDEN_FILE = DATA_DIR / "reference_endings.json"

Value = int | float | Fraction


# -- the combos -------------------------------------------------------------------------


@dataclass(frozen=True)
class Combo:
    """A contract in a rule set (written again here, and checked against the data file)."""

    contract: str
    rules: str = "classic"
    variants: tuple[str, ...] = ()
    trumps: tuple[str, ...] | None = None  # drawn from, one per position; "NT": none
    scale: str | None = None  # a scale file in tests/data

    def game(self, trump: str | None = None) -> Game:
        return make_game(
            self.contract,
            rules=self.rules,
            variants=self.variants,
            trump=trump,
            scale=None if self.scale is None else load_scale(DATA_DIR / self.scale),
        )

    def spec(self) -> dict[str, Any]:
        return {
            "contract": self.contract,
            "rules": self.rules,
            "variants": list(self.variants),
            "trumps": None if self.trumps is None else list(self.trumps),
            "scale": self.scale,
        }


SUITS4 = ("S", "H", "D", "C")

COMBOS: dict[str, Combo] = {
    "classic-no-tricks": Combo("no-tricks"),
    "classic-no-hearts": Combo("no-hearts"),
    "classic-no-queens": Combo("no-queens"),
    "classic-barbu": Combo("barbu"),
    "classic-no-last-two": Combo("no-last-two"),
    "classic-trumps": Combo("trumps", trumps=SUITS4),
    "classic-ravage": Combo("ravage"),
    "classic-barbu-king-duty": Combo("barbu", variants=("king-duty",)),
    "classic-trumps-free-trumping": Combo("trumps", variants=("free-trumping",), trumps=SUITS4),
    "french-no-tricks": Combo("no-tricks", "french"),
    "french-no-hearts": Combo("no-hearts", "french"),
    "french-no-queens": Combo("no-queens", "french"),
    "french-barbu": Combo("barbu", "french"),
    "french-no-last-two": Combo("no-last-two", "french"),
    "french-salad": Combo("salad", "french"),
    "bridge-tricks": Combo("tricks", "bridge", trumps=(*SUITS4, "NT")),
    "odd-scale-no-hearts": Combo("no-hearts", scale="odd_scale.toml"),
}
NAMES = list(COMBOS)


# -- helpers ----------------------------------------------------------------------------


def stored(v: int | str) -> Fraction:
    """A stored value: a whole number or ``"a/b"``."""
    return Fraction(v)


def same(got: Value | None, want: Value) -> bool:
    """Exact equality; the solver gives a non-whole Ravage City share as a float."""
    if got is None:
        return False
    if isinstance(got, float):
        return abs(got - float(want)) < 1e-9
    return Fraction(got) == Fraction(want)


def position(rec: dict[str, Any]) -> Deal:
    """A stored position: the PBN deal, its leader and the trick in progress."""
    d = Deal(rec["deal"], leader=rec["leader"])
    d.trick.extend(parse_card(c) for c in rec["trick"])
    return d


def show(d: Deal, game: Game) -> str:
    trick = " ".join(card_name(c) for c in d.trick)
    assert d.leader is not None
    rules = "/".join([game.rules, *sorted(game.variants)])
    return f"{game.describe()} [{rules}] deal {d.to_pbn()!r} leader {d.leader.name}" + (
        f" trick [{trick}]" if trick else ""
    )


def long_suit(trump: str | None, rng_suit: int) -> Suit:
    """The long suit of the 'trumps' bias: the trump if there is one."""
    return Suit(SUITS4.index(trump)) if trump in SUITS4 else Suit(rng_suit)


#: A solver with a tiny transposition table (entries overwritten all the time).
SMALL_TT = Solver(tt_bytes=1 << 12)


def check_four(d: Deal, game: Game, solver: Solver | None = None) -> None:
    """Solver == reference for the four seats."""
    want = ref_trick_values(d, game)
    got = (solver.solve if solver else solve)(d.copy(), game).scores
    assert all(same(g, w) for g, w in zip(got, want, strict=True)), (
        f"{show(d, game)}: solver {got}, reference {want}"
    )


# -- the golden file -------------------------------------------------------------------


def _load() -> dict[str, Any]:
    with GOLDEN_FILE.open(encoding="utf-8") as f:
        return json.load(f)  # type: ignore[no-any-return]


GOLDEN = _load()


def test_golden_file_covers_every_combo() -> None:
    assert list(GOLDEN["combos"]) == NAMES
    for name, combo in COMBOS.items():
        data = GOLDEN["combos"][name]
        assert {k: v for k, v in data.items() if k != "positions"} == combo.spec(), name
        ps = data["positions"]
        sizes = [position(p).tricks_left for p in ps if p["kind"] == "ending"]
        mids = [p for p in ps if p["kind"] == "midtrick"]
        assert len(sizes) >= 100 and set(sizes) == {3, 4, 5}, name
        assert len(mids) >= 20, name
        assert all(1 <= len(p["trick"]) <= 3 for p in mids), name
        assert sum(1 for p in ps if p.get("sides")) >= 4, name
        if combo.trumps is not None:
            assert {p["trump"] for p in ps} == set(combo.trumps), name


# -- regressions ------------------------------------------------------------------


def test_forced_ruff_minimal_reference() -> None:
    """Trumps (spades), W to lead: W must lead a heart; N, void in hearts, must ruff with
    the SQ and wins trick 12 (E and S, with no trump, discard: S keeps the DJ); N must
    lead the D2, E has only D5 D3 and W only hearts: S's DJ wins trick 13.  So S can
    make one trick (+5), and N one.  With free trumping N discards the D2 instead, W
    wins trick 12 and N ruffs trick 13: S makes nothing."""
    d = Deal("N:Q..2. ..53. ..J.Q .62..", leader="W")
    assert ref_trick_values(d, make_game("trumps", trump="S")) == (5, 0, 5, 0)
    free = make_game("trumps", trump="S", variants=["free-trumping"])
    assert ref_trick_values(d, free) == (5, 0, 0, 0)
    assert solve(d.copy(), free).scores == (5, 0, 0, 0)


def test_forced_ruff_minimal_solver() -> None:
    """Regression (found by this file): the solver's quick tricks let W cash both hearts,
    but N, void in hearts, must ruff the first and then has the lead."""
    d = Deal("N:Q..2. ..53. ..J.Q .62..", leader="W")
    assert solve(d.copy(), make_game("trumps", trump="S")).scores == (5, 0, 5, 0)


@pytest.mark.parametrize("variants", [(), ("king-duty",)])
def test_point_safe_cut(variants: tuple[str, ...]) -> None:
    """Barbu, W leads: N's ♥3 is above S's ♥2, so N fails the no-more-tricks test,
    but E, who holds the K♥, must follow hearts with the ♥4 or the K♥: N never wins
    a trick (the test for contracts with one card of points cuts at once)."""
    d = Deal("N:2.3..2 A.K4.. K.2..A Q...KQ", leader="W")
    game = make_game("barbu", variants=variants)
    solver = Solver(tt_bytes=1 << 20)
    sol = solver.solve(d.copy(), game, seats="N")
    assert sol.scores[Seat.N] == 0 and sol.nodes == 1
    assert solver._core.last_stats["null_cuts"] == 1
    assert solve(d.copy(), game).scores == ref_trick_values(d, game) == (0, -20, -20, 0)


def test_point_safe_heart_lead() -> None:
    """Regression (found by the K♥ endings below): classic Barbu, W leads; N holds
    ♠A ♥9 ♥2 and E ♥K ♥Q ♥3, so N's hearts pass the pairing test against E's, but on
    a heart lead E keeps the ♥3 to put under the ♥9 later; N, holding a spade, may
    not then lead its ♥2, leads the ♠A, and E discards the K♥ on it.  With king duty
    E must play the K♥ at once; in French Barbu (no heart-lead rule) N leads hearts:
    then N is safe, on lead or not, and the test cuts at the root."""
    d = Deal("N:A.92.. .KQ3.. ..432. .654..", leader="W")
    barbu = make_game("barbu")
    assert solve(d.copy(), barbu).scores == ref_trick_values(d, barbu) == (-20, 0, 0, 0)
    duty = make_game("barbu", variants=("king-duty",))
    assert solve(d.copy(), duty).scores == ref_trick_values(d, duty) == (0, -20, 0, 0)
    french = make_game("barbu", rules="french")
    for leader in (Seat.W, Seat.N):
        d = Deal("N:A.92.. .KQ3.. ..432. .654..", leader=leader)
        solver = Solver(tt_bytes=1 << 20)
        assert solver.solve(d.copy(), french, seats="N").nodes == 1
        assert solver._core.last_stats["null_cuts"] == 1
        assert solve(d.copy(), french).scores == ref_trick_values(d, french) == (0, -80, 0, 0)


def barbu_games() -> list[Game]:
    """Barbu in classic rules, with king duty and in French rules."""
    return [
        make_game("barbu"),
        make_game("barbu", variants=("king-duty",)),
        make_game("barbu", rules="french"),
    ]


def lone_test_games() -> list[Game]:
    """The contracts whose lone seat has the no-more-tricks or K♥ tests."""
    return [
        make_game("no-tricks"),
        make_game("no-last-two"),
        make_game("salad", rules="french"),
        *barbu_games(),
    ]


def check_lone(d: Deal, game: Game, seat: Seat) -> int:
    """Assert that the solver's value of ``seat`` alone equals the reference's; returns
    1 if the search cut somewhere with the lone seat's tests, 2 if at its root."""
    sol = SMALL_TT.solve(d.copy(), game, seats=seat.name)
    cuts = SMALL_TT._core.last_stats["null_cuts"]
    got = sol.scores[seat]
    want = reference.ref_trick_value(d, game, {seat})
    assert same(got, want), f"{show(d, game)} {seat.name}: solver {got}, reference {want}"
    return 2 if cuts == 1 and sol.nodes == 1 else int(cuts > 0)


def king_holder_endings(count: int, seed: int) -> None:
    """Barbu endings with the K♥ in play and many hearts or voids, in classic Barbu,
    with king duty and in French Barbu: each seat whose search used the no-more-tricks
    or K♥ test is checked against the reference."""
    games = barbu_games()
    rng = random.Random(seed)
    checked = 0
    for _ in range(count):
        d = random_ending(
            rng, rng.choice([3, 4, 4]), bias=rng.choice(["hearts", "kh", "duties", "short"])
        )
        for game in games:
            for seat in Seat:
                got = SMALL_TT.solve(d.copy(), game, seats=seat.name).scores[seat]
                if not SMALL_TT._core.last_stats["null_cuts"]:
                    continue
                checked += 1
                want = reference.ref_trick_value(d, game, {seat})
                assert same(got, want), (
                    f"{show(d, game)} {seat.name}: solver {got}, reference {want}"
                )
    assert checked > count


def test_king_holder_endings() -> None:
    king_holder_endings(150, 1)


@pytest.mark.slow
def test_king_holder_endings_slow() -> None:
    king_holder_endings(1500, 2)


def test_point_safe_low_hearts() -> None:
    """Classic Barbu, W leads: S, across from N, holds the K♥ and the ♥8; N holds the
    ♥A but also two hearts below the ♥8, as many as S has hearts: to every heart
    trick N can play one of them under S's heart, so the K♥ test cuts at the root.
    With the ♥9 for the ♥3 it has one only, and the test does not apply (nor does the
    no-more-tricks test: W holds three hearts, so N's ♥A pairs with the others' third
    heart, the ♥K)."""
    game = make_game("barbu")
    for hands, at_root in (
        ("N:2.A32.. AKQ...2 .K8.AK. .QJT..A", True),
        ("N:2.A92.. AKQ...2 .K8.AK. .QJT..A", False),
    ):
        d = Deal(hands, leader="W")
        solver = Solver(tt_bytes=1 << 20)
        assert (solver.solve(d.copy(), game, seats="N").nodes == 1) == at_root
        assert solve(d.copy(), game).scores == ref_trick_values(d, game) == (0, -20, 0, -20)


def test_point_safe_pairing_is_not_enough() -> None:
    """Regression (found by the endings above): classic Barbu, E leads; N's hearts
    ♥T ♥8 ♥5 pass the pairing test against E's ♥K ♥Q ♥J ♥6, but N also holds the ♠Q,
    which none of the others can follow."""
    d = Deal("N:Q.T85.. .KQJ6.. .A943.. .7..643", leader="E")
    game = make_game("barbu")
    assert solve(d.copy(), game, seats="N").scores[Seat.N] == -20
    assert reference.ref_trick_value(d, game, {Seat.N}) == -20


def test_dump_safe_cut() -> None:
    """Classic Barbu: N holds ♠6 ♠4 ♥5 ♥3 and S the ♥K ♥Q with two spades.  N's
    spades fail the no-more-tricks test (E holds ♠3 ♠2), but N's hearts lie below
    S's and S must follow every spade while N holds one: N may win spade tricks, never
    one with the K♥ (the test of one suit to win in, ``dump_safe``), and the search
    cuts at the root whoever leads.  With S void in spades, N on lead must lead one,
    and S discards the K♥ on it."""
    for rules, variants in (("classic", ()), ("classic", ("king-duty",)), ("french", ())):
        game = make_game("barbu", rules=rules, variants=variants)
        for leader in Seat:
            d = Deal("N:64.53.. 32..AK. 87.KQ.. ...AKQJ", leader=leader)
            solver = Solver(tt_bytes=1 << 20)
            assert solver.solve(d.copy(), game, seats="N").nodes == 1
            assert reference.ref_trick_value(d, game, {Seat.N}) == 0
    game = make_game("barbu")
    d = Deal("N:64.53.. 8732... .KQ.32. ...AKQJ", leader="N")
    assert solve(d.copy(), game, seats="N").scores[Seat.N] == -20
    assert reference.ref_trick_value(d, game, {Seat.N}) == -20


def test_long_holder() -> None:
    """Barbu: N holds ♠A ♥3 ♥2 ♦4 and E the ♥K with ♠3 ♠2 ♦8.  E holds as many
    cards as N of every suit but hearts (one more spade), and N's hearts lie below
    the K♥: N may win tricks of any suit, but E follows to every suit N holds, and a
    heart trick with the K♥ in it is not N's (``long_holder``), so the search cuts
    at the root whoever leads.
    With the ♠8 for the ♥2, E holds exactly as many spades and diamonds as N and sits
    on N's left, where it discards after N; with S on lead, N cannot avoid the K♥."""
    for variants in ((), ("king-duty",)):
        game = make_game("barbu", variants=variants)
        for leader in Seat:
            d = Deal("N:A.32.4. 32.K.8. K5...65 Q.T9.7.", leader=leader)
            solver = Solver(tt_bytes=1 << 20)
            assert solver.solve(d.copy(), game, seats="N").nodes == 1
            assert solver._core.last_stats["null_cuts"] == 1
            assert solve(d.copy(), game).scores == ref_trick_values(d, game)
    d = Deal("N:A8.3.4. 32.K.8. K5...65 Q.T2.7.", leader="S")
    game = make_game("barbu")
    assert solve(d.copy(), game, seats="N").scores[Seat.N] == -20
    assert reference.ref_trick_value(d, game, {Seat.N}) == -20


def long_holder_ending(rng: random.Random) -> Deal | None:
    """A random ending of 3 or 4 cards a hand, the K♥ not N's, in which the K♥'s
    holder H holds as many cards as N of every suit but hearts that N holds, and N
    has no ♥A (``long_holder``'s test then applies when H sits on N's right or one
    margin at most is 0); None on a miss."""
    n = rng.choice([3, 4])
    kh = parse_card("HK")
    suits = rng.sample(list(Suit), rng.choice([3, 4]))
    pool = [16 * s + r for s in set(suits) | {Suit.H} for r in range(13) if 16 * s + r != kh]
    rng.shuffle(pool)
    cards = [*pool[: 4 * n - 1], kh]
    rng.shuffle(cards)
    hands = [cards[i * n : (i + 1) * n] for i in range(4)]
    h = next(i for i in range(4) if kh in hands[i])
    if h == 0:
        return None

    def count(i: int, s: int) -> int:
        return sum(c >> 4 == s for c in hands[i])

    if parse_card("HA") in hands[0]:
        return None
    if any(count(h, s) < count(0, s) for s in Suit if s != Suit.H):
        return None
    masks = [sum(1 << c for c in hand) for hand in hands]
    return Deal(masks, leader=Seat(rng.randrange(4)))


def long_holder_endings(count: int, seed: int) -> None:
    """N's value in endings where the K♥'s holder is as long as N outside hearts, in
    classic Barbu, with king duty and in French Barbu, against the reference."""
    games = barbu_games()
    rng = random.Random(seed)
    done = cuts = 0
    while done < count:
        d = long_holder_ending(rng)
        if d is None:
            continue
        done += 1
        cuts += sum(check_lone(d, game, Seat.N) > 0 for game in games)
    assert cuts > count


def test_long_holder_endings() -> None:
    long_holder_endings(40, 1)


@pytest.mark.slow
def test_long_holder_endings_slow() -> None:
    long_holder_endings(600, 2)


def test_null_safe_counts_tricks() -> None:
    """N holds ♠7 ♠2 against E's ♠3 and S's ♠4: N's second spade lies above the
    others' second, but E and S each hold one spade, so the others lead one trick of
    spades at most (each must follow to it) and N ducks it with the ♠2.  The
    no-more-tricks test pairs only as many cards as the others' longest holding of the
    suit (:func:`null_safe`), and cuts at the root whoever leads (N leads the ♠2)."""
    d0 = "N:72... 3.A.. 4.K.. .QJ.."
    for name, rules in (("no-tricks", "classic"), ("barbu", "classic"), ("salad", "french")):
        game = make_game(name, rules=rules)
        for leader in Seat:
            d = Deal(d0, leader=leader)
            solver = Solver(tt_bytes=1 << 20)
            assert solver.solve(d.copy(), game, seats="N").nodes == 1
            assert solver._core.last_stats["null_cuts"] == 1
            assert solve(d.copy(), game).scores == ref_trick_values(d, game)


def thin_suit_ending(rng: random.Random) -> Deal:
    """A random ending of 3 or 4 cards a hand in which N holds two or three cards of a
    suit whose other cards (two to four) lie in different hands where possible: the
    others' longest holding of it is shorter than both N's and their total, the case
    where :func:`null_safe` pairs fewer cards than the shorter count."""
    n = rng.choice([3, 4])
    z = rng.randrange(4)
    zs = [16 * z + r for r in range(13)]
    rng.shuffle(zs)
    mine = zs[: rng.choice([2, 3])]
    theirs = zs[len(mine) : len(mine) + rng.choice([2, 3, 4])]
    hands: list[list[int]] = [list(mine), [], [], []]
    seats = [1, 2, 3]
    rng.shuffle(seats)
    for i, c in enumerate(theirs):
        hands[seats[i % 3]].append(c)
    used = set(mine) | set(theirs)
    rest = [c for c in range(64) if c & 15 < 13 and c not in used and c >> 4 != z]
    rng.shuffle(rest)
    for h in hands:
        while len(h) < n:
            h.append(rest.pop())
    masks = [sum(1 << c for c in h) for h in hands]
    return Deal(masks, leader=Seat(rng.randrange(4)))


def thin_suit_endings(count: int, seed: int) -> None:
    """N's value in ``thin_suit_ending`` positions, in the contracts that use the
    no-more-tricks and K♥ tests, against the reference; most cut somewhere."""
    rng = random.Random(seed)
    cuts = 0
    for _ in range(count):
        d = thin_suit_ending(rng)
        cuts += sum(check_lone(d, game, Seat.N) > 0 for game in lone_test_games())
    assert cuts > count


def test_thin_suit_endings() -> None:
    thin_suit_endings(40, 1)


@pytest.mark.slow
def test_thin_suit_endings_slow() -> None:
    thin_suit_endings(500, 2)


def test_lone_seat_cuts_in_a_trick() -> None:
    """W has led the ♥Q and N, void in hearts, is to play: after discarding its ♠7 N
    holds the ♠2 against E's ♠3 and S's ♠4 and takes no trick.  The no-more-tricks
    test is tried on a card that does not win the trick (a discard, or a card below
    the one winning it), before the trick ends: the search cuts at the root.  Not
    in No Tricks, where only tricks count and the test there cut no nodes."""
    d = Deal("N:72... 3.A.. 4.K.. .J..", leader="W")
    d.trick.append(parse_card("HQ"))
    for name, rules, cut in (
        ("no-last-two", "classic", True),
        ("barbu", "classic", True),
        ("salad", "french", True),
        ("no-tricks", "classic", False),
    ):
        game = make_game(name, rules=rules)
        solver = Solver(tt_bytes=1 << 20)
        assert (solver.solve(d.copy(), game, seats="N").nodes == 1) == cut
        assert (solver._core.last_stats["null_cuts"] == 1) == cut
        assert solve(d.copy(), game).scores == ref_trick_values(d, game)


def lone_midtricks(count: int, seed: int) -> None:
    """Mid-trick endings (1 to 3 cards of the trick played, 3 or 4 cards a hand, many
    with the K♥ or many hearts), the seat to play alone, in the contracts that use the
    no-more-tricks and K♥ tests, against the reference; many cut at the root (the
    tests on a card that does not win the trick; not in No Tricks)."""
    rng = random.Random(seed)
    at_root = 0
    for _ in range(count):
        bias = rng.choice(["kh", "hearts", "short", None])
        k = rng.randint(1, 3)
        for game in lone_test_games():
            d = random_midtrick(rng, rng.choice([3, 4]), k, game=game, bias=bias)
            at_root += check_lone(d, game, Seat((d.leader + len(d.trick)) % 4)) == 2
    assert at_root > count // 2


def test_lone_midtricks() -> None:
    lone_midtricks(100, 1)


@pytest.mark.slow
def test_lone_midtricks_slow() -> None:
    lone_midtricks(500, 2)


def test_dump_safe_needs_low_cards(tmp_path: Path) -> None:
    """Regression (a form of ``dump_safe`` tried and dropped): with the points on the
    ♦7 (S holds ♦A ♦7) and W, alone with ♦T ♦8 ♦3, on lead, W's diamonds pass the
    pairing test against S's and S plays before W to every trick W does not lead, yet
    W leads the ♦3, S overtakes with the ♦A, and W's ♦T ♦8 then lie above the ♦7.  The
    test needs the seat's cards below the holder's lowest, not the pairing."""
    game = one_card_game(tmp_path, "D7")
    d = Deal("N:2.7.4. 8..K6. K..A7. ..T83.", leader="W")
    assert solve(d.copy(), game).scores == ref_trick_values(d, game) == (0, -20, 0, -20)


def point_holder_endings(count: int, seed: int, tmp: Path, sizes: tuple[int, ...]) -> None:
    """Endings shaped for the tests of one card of points (``point_holder_ending``:
    the lone seat with cards of the points' suit and of one other suit, the points'
    holder often long in it), in classic Barbu, with king duty, in French Barbu, and
    with the points on the ♠Q, ♦7 or ♣9: each solve that used one of the lone seat's
    tests is checked against the reference."""
    games = one_card_games(tmp)
    rng = random.Random(seed)
    checked = 0
    for _ in range(count):
        _, game, point = rng.choice(games)
        seat = Seat(rng.randrange(4))
        d = point_holder_ending(rng, rng.choice(sizes), point, seat)
        got = SMALL_TT.solve(d.copy(), game, seats=seat.name).scores[seat]
        if not SMALL_TT._core.last_stats["null_cuts"]:
            continue
        checked += 1
        want = reference.ref_trick_value(d, game, {seat})
        assert same(got, want), f"{show(d, game)} {seat.name}: solver {got}, reference {want}"
    assert checked > count // 2


def test_point_holder_endings(tmp_path: Path) -> None:
    point_holder_endings(200, 1, tmp_path, (3, 4))


@pytest.mark.slow
def test_point_holder_endings_slow(tmp_path: Path) -> None:
    point_holder_endings(1000, 2, tmp_path, (3, 4, 4, 5))


@pytest.mark.parametrize("card", ["SQ", "HJ", "D7"])
def test_one_point_card_scales(card: str, tmp_path: Path) -> None:
    """A scale whose only points are on one card other than the K♥ (the test for a
    single card of points then also runs, with cards above it in play)."""
    game = one_card_game(tmp_path, card)
    suit = Suit("SHDC".index(card[0]))
    rng = random.Random(card)
    for _ in range(40):
        d = random_ending(rng, rng.choice([3, 4]), bias="trumps", trump=suit)
        check_four(d, game, SMALL_TT)


@pytest.mark.parametrize("name", NAMES)
def test_golden(name: str) -> None:
    """The solver reproduces every stored value: four seats and the sides."""
    combo = COMBOS[name]
    games: dict[str | None, Game] = {}
    bad: list[str] = []
    n = 0
    for i, rec in enumerate(GOLDEN["combos"][name]["positions"]):
        trump = rec.get("trump")
        game = games.setdefault(trump, combo.game(trump))
        d = position(rec)
        want = [stored(v) for v in rec["values"]]
        got = solve(d, game).scores
        n += 4
        if not all(same(g, w) for g, w in zip(got, want, strict=True)):
            bad.append(f"#{i} {show(d, game)}: solver {got}, reference {rec['values']}")
        for side, v in rec.get("sides", {}).items():
            n += 1
            sv = solve(d, game, side=side).value
            if not same(sv, stored(v)):
                bad.append(f"#{i} {show(d, game)} side {side}: solver {sv}, reference {v}")
    assert not bad, f"{len(bad)} mismatches:\n" + "\n".join(bad[:25])
    assert n >= 400


def _recheck_picks(ps: list[dict[str, Any]]) -> list[int]:
    """Three cheap stored positions: the first ending and the first mid-trick position
    (both with sides), and the last ending of 3 cards."""
    first_end = next(i for i, p in enumerate(ps) if p["kind"] == "ending")
    first_mid = next(i for i, p in enumerate(ps) if p["kind"] == "midtrick")
    last3 = max(
        i for i, p in enumerate(ps) if p["kind"] == "ending" and position(p).tricks_left == 3
    )
    return [first_end, first_mid, last3]


@pytest.mark.parametrize("name", NAMES)
def test_golden_data_is_current(name: str) -> None:
    """A few stored positions, solved again with the live reference."""
    combo = COMBOS[name]
    ps = GOLDEN["combos"][name]["positions"]
    for i in _recheck_picks(ps):
        rec = ps[i]
        game = combo.game(rec.get("trump"))
        d = position(rec)
        assert list(ref_trick_values(d, game)) == [stored(v) for v in rec["values"]], (
            f"stale #{i}: {show(d, game)}"
        )
        for side, v in rec.get("sides", {}).items():
            seats = {Seat[ch] for ch in side}
            assert ref_trick_value(d, game, seats) == stored(v), f"stale #{i} side {side}"


# -- live random positions (hypothesis) ------------------------------------------------

LIVE = settings(
    max_examples=30,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)


def live_positions(
    combo: Combo, *, mid: bool, min_cards: int = 1, max_cards: int = 3
) -> st.SearchStrategy[tuple[Game, Deal]]:
    """A game of the combo (a random trump if it has one) and a random duty-heavy position
    (mid-trick: 0 to 3 legal cards of the current trick played)."""

    @st.composite
    def strat(draw: st.DrawFn) -> tuple[Game, Deal]:
        trump = draw(st.sampled_from(combo.trumps or (None,)))
        bias = draw(st.sampled_from(BIASES))
        suit = long_suit(trump, draw(st.integers(0, 3)))
        game = combo.game(trump)
        if mid:
            d = draw(midtricks(min_cards, max_cards, game=game, bias=bias, trump=suit))
        else:
            d = draw(endings(min_cards, max_cards, bias=bias, trump=suit))
        return game, d

    return strat()


@pytest.mark.parametrize("name", NAMES)
@LIVE
@given(data=st.data())
def test_live_endings(name: str, data: st.DataObject) -> None:
    game, d = data.draw(live_positions(COMBOS[name], mid=False), label="position")
    check_four(d, game)


@pytest.mark.parametrize("name", NAMES)
@LIVE
@given(data=st.data())
def test_live_midtricks(name: str, data: st.DataObject) -> None:
    game, d = data.draw(live_positions(COMBOS[name], mid=True), label="position")
    check_four(d, game, SMALL_TT)


@pytest.mark.parametrize("name", NAMES)
@settings(LIVE, max_examples=12)
@given(data=st.data())
def test_live_sides(name: str, data: st.DataObject) -> None:
    """A side of 2 or 3 seats against the rest."""
    game, d = data.draw(live_positions(COMBOS[name], mid=True), label="position")
    side = data.draw(st.sets(st.sampled_from(list(Seat)), min_size=2, max_size=3), label="side")
    want = ref_trick_value(d, game, side)
    got = solve(d.copy(), game, side=sorted(side)).value
    assert same(got, want), f"{show(d, game)} side {sorted(side)}: solver {got}, reference {want}"


# -- card values -------------------------------------------------------------------------


def ref_value_after(d: Deal, game: Game, card: int, side: Iterable[int]) -> Value:
    """The reference value of ``side`` after ``card`` is played, the points of a trick it
    completes included."""
    sd = frozenset(Seat(s) for s in side)
    child = d.copy()
    number = trick_number(child)
    t = play_card(child, game, card)
    if game.kind == "ravage":
        # Not additive: the cards of the trick just won count in the final shares.
        won = [[0, 0, 0, 0] for _ in range(4)]
        if t is not None:
            for c in t.cards:
                won[t.winner][c >> 4] += 1
        w = tuple((r[0], r[1], r[2], r[3]) for r in won)
        return reference._whole(reference._ravage(child, game, sd, w, {}))
    done = trick_value(game, t.cards, number) if t is not None and t.winner in sd else 0
    return done + ref_trick_value(child, game, sd)


def check_card_values(
    d: Deal, game: Game, view: tuple[Seat, ...], solver: Solver | None = None
) -> None:
    where = f"{show(d, game)} view {''.join(s.name for s in view)}"
    values_of = solver.card_values if solver else card_values
    if len(view) == 1:
        cvs = values_of(d.copy(), game, seat=view[0])
    else:
        cvs = values_of(d.copy(), game, side=view)
    cards = [c for cv in cvs for c in (cv.card, *cv.equals)]
    assert sorted(cards) == sorted(legal_cards(d, game)), f"{where}: cards {cvs}"
    for cv in cvs:
        for c in (cv.card, *cv.equals):
            want = ref_value_after(d, game, c, view)
            assert same(cv.value, want), (
                f"{where}: card {card_name(c)} (in {cv.name}'s group) "
                f"solver {cv.value}, reference {want}"
            )
    values = [cv.value for cv in cvs]
    best = max(values) if d.to_move in view else min(values)
    if len(view) == 1:
        score = solve(d.copy(), game, seats=view).scores[view[0]]
    else:
        score = solve(d.copy(), game, side=view).value
    assert score is not None and same(best, score), f"{where}: best card {best}, solve {score}"


@pytest.mark.parametrize("name", NAMES)
@settings(LIVE, max_examples=20)
@given(data=st.data())
def test_card_values_match_reference(name: str, data: st.DataObject) -> None:
    """Each legal card's value for the mover is the reference's value after it."""
    mid = data.draw(st.booleans(), label="mid")
    game, d = data.draw(live_positions(COMBOS[name], mid=mid), label="position")
    check_card_values(d, game, (d.to_move,))


@pytest.mark.parametrize("name", NAMES)
@settings(LIVE, max_examples=10)
@given(data=st.data())
def test_card_values_other_views(name: str, data: st.DataObject) -> None:
    """Another seat's or a side's view of the mover's cards (the worst card for it when
    the mover is against it)."""
    game, d = data.draw(live_positions(COMBOS[name], mid=True), label="position")
    view = data.draw(
        st.sets(st.sampled_from(list(Seat)), min_size=1, max_size=2).map(
            lambda s: tuple(sorted(s))
        ),
        label="view",
    )
    check_card_values(d, game, view, SMALL_TT)


# -- the long sweep -----------------------------------------------------------------------

#: Endings a combo in the slow sweep, by cards a hand (60 a combo, 1,020 in all), and
#: mid-trick positions of 3 or 4 cards (10 a combo).
SLOW_ENDINGS = {3: 46, 4: 12, 5: 2}
SLOW_MIDTRICKS = 10
SLOW_BIASES = ("hearts", "queens", "kh", "trumps", "short", "duties", None, "duties", "hearts")


@pytest.mark.slow
@pytest.mark.parametrize("name", NAMES)
def test_slow_live_endings(name: str) -> None:
    """Run with ``pytest -m slow``: duty-heavy endings of 3 to 5 cards, fixed seeds."""
    combo = COMBOS[name]
    rng = random.Random(f"slow-sweep:{name}")
    jobs = [("ending", n) for n, k in SLOW_ENDINGS.items() for _ in range(k)]
    jobs += [("midtrick", 3 + i % 2) for i in range(SLOW_MIDTRICKS)]
    bad: list[str] = []
    for kind, n in jobs:
        trump = rng.choice(combo.trumps or (None,))
        bias = rng.choice(SLOW_BIASES)
        suit = long_suit(trump, rng.randrange(4))
        game = combo.game(trump)
        if kind == "ending":
            d = random_ending(rng, n, bias=bias, trump=suit)
        else:
            d = random_midtrick(rng, n, rng.randint(1, 3), game=game, bias=bias, trump=suit)
        want = ref_trick_values(d, game)
        got = solve(d.copy(), game).scores
        if not all(same(g, w) for g, w in zip(got, want, strict=True)):
            bad.append(f"{show(d, game)}: solver {got}, reference {want}")
    assert not bad, f"{len(bad)} mismatches:\n" + "\n".join(bad[:25])


# -- team lines of winners (quick tricks with crossings) ------------------------------


def _team_tops(rng: random.Random, n: int) -> Deal:
    """A random ending in which the leader's team holds most of each suit's top cards,
    split between its hands (so that cashing them needs crossings), and sometimes all
    the trumps (spades)."""
    d = random_ending(rng, n)
    hands = list(d.masks)
    team = [int(d.leader), (int(d.leader) + 2) % 4]
    steal = [s for s in range(4) if rng.random() < 0.8]
    if rng.random() < 0.4:
        steal.append(-1)  # all trumps to the team
    for s in steal:
        lane = range(12, -1, -1) if s >= 0 else range(13)
        suit = s if s >= 0 else Suit.S
        tops = [16 * suit + r for r in lane if any(h >> (16 * suit + r) & 1 for h in hands)]
        for card in tops if s < 0 else tops[: rng.randint(1, 3)]:
            owner = next(o for o in range(4) if hands[o] >> card & 1)
            if owner in team:
                continue
            mate = rng.choice(team)
            # swap with the team-mate's lowest card outside this suit (or any card)
            pool = [c for c in range(64) if hands[mate] >> c & 1 and c >> 4 != suit] or [
                c for c in range(64) if hands[mate] >> c & 1
            ]
            give = min(pool, key=lambda c: c & 15)
            hands[owner] ^= (1 << card) | (1 << give)
            hands[mate] ^= (1 << card) | (1 << give)
    return Deal(hands, leader=d.leader)


def _check_side(d: Deal, game: Game, side: list[int], i: int) -> None:
    """The solver's value of ``side`` equals the reference's."""
    want = ref_trick_value(d, game, side)
    got = solve(d.copy(), game, side=side).value
    assert got == want, f"#{i} {show(d, game)} side {side}: solver {got}, reference {want}"


@pytest.mark.parametrize(
    ("contract", "rules", "trump"),
    [("tricks", "bridge", "NT"), ("tricks", "bridge", "S"), ("trumps", "classic", "S")],
)
def test_team_lines(contract: str, rules: str, trump: str) -> None:
    """Positions made for the quick-trick lines (a team's winners split between its
    hands, crossings, only one team with trumps): both teams of two, and each seat
    alone (its three opponents a team), against the reference."""
    game = make_game(contract, rules=rules, trump=trump)
    rng = random.Random(f"team-lines:{contract}:{trump}")
    for i in range(80):
        d = _team_tops(rng, 3)
        lead = int(d.leader)
        for side in (
            [lead, (lead + 2) % 4],
            [(lead + 1) % 4, (lead + 3) % 4],
            [lead],
            [(lead + 1) % 4],
        ):
            _check_side(d, game, side, i)


# -- a partnership that needs every trick left (DDS's LaterTricks) ---------------------


def _few_tops(rng: random.Random, n: int) -> Deal:
    """A random ending (often from two or three suits) in which one partnership holds
    the top cards of most suits: the other one, needing every trick, heads few suits,
    and the first, needing one trick, must find it against discards and squeezes."""
    d = random_ending(rng, n, bias=rng.choice((None, "short")))
    hands = list(d.masks)
    team = rng.choice(([0, 2], [1, 3]))
    for s in range(4):
        if rng.random() < 0.3:
            continue
        present = [16 * s + r for r in range(13) if any(h >> (16 * s + r) & 1 for h in hands)]
        if not present:
            continue
        card = max(present)
        owner = next(o for o in range(4) if hands[o] >> card & 1)
        if owner in team:
            continue
        _give(hands, card, rng.choice(team), rng)
    return Deal(hands, leader=d.leader)


@pytest.mark.parametrize(
    ("contract", "rules", "trump"),
    [("tricks", "bridge", "NT"), ("tricks", "bridge", "S"), ("trumps", "classic", "S")],
)
def test_all_tricks_bound(contract: str, rules: str, trump: str) -> None:
    """Endings in which a partnership heads few suits: the search's cut-off that a team
    whose suits headed carry fewer rounds than the tricks left cannot take them all
    (and that the other team then makes one trick) fires at the ends of the
    bisection; both partnerships against the reference."""
    game = make_game(contract, rules=rules, trump=trump)
    rng = random.Random(f"all-tricks:{contract}:{trump}")
    for i in range(60):
        d = _few_tops(rng, rng.choice((3, 4)))
        for side in ([0, 2], [1, 3]):
            _check_side(d, game, side, i)


# -- sure trump tricks of either team (the top trumps of one hand; all the trumps) ------


def _trump_tops(rng: random.Random, n: int) -> Deal:
    """A random trump-heavy ending in which one hand holds a block of top trumps
    (sometimes with a gap below it), and sometimes one team holds every trump."""
    d = random_ending(rng, n, bias=rng.choice(("trumps", "short", None)))
    hands = list(d.masks)
    present = [
        16 * Suit.S + r for r in range(12, -1, -1) if any(h >> (16 * Suit.S + r) & 1 for h in hands)
    ]
    holder = rng.randrange(4)
    team = [holder, (holder + 2) % 4]
    steal = present if rng.random() < 0.3 else present[: rng.randint(1, 3)]
    for card in steal:
        owner = next(o for o in range(4) if hands[o] >> card & 1)
        to = holder if len(steal) <= 3 else rng.choice(team)
        if owner == to or (len(steal) > 3 and owner in team):
            continue
        _give(hands, card, to, rng)
    if rng.random() < 0.4:
        # the second trump, guarded, just after the top one (not a sure trick)
        present = [c for c in present if any(h >> c & 1 for h in hands)]
        if len(present) >= 2:
            top = next(o for o in range(4) if hands[o] >> present[0] & 1)
            _give(hands, present[1], (top + 1) % 4, rng)
    return Deal(hands, leader=d.leader)


def _give(hands: list[int], card: int, to: int, rng: random.Random) -> None:
    """Move ``card`` to hand ``to`` in exchange for a random card of another suit."""
    owner = next(o for o in range(4) if hands[o] >> card & 1)
    pool = [c for c in range(64) if hands[to] >> c & 1 and c >> 4 != card >> 4]
    if owner != to and pool:
        give = rng.choice(pool)
        hands[owner] ^= (1 << card) | (1 << give)
        hands[to] ^= (1 << card) | (1 << give)


@pytest.mark.parametrize(
    ("contract", "rules", "trump", "variants"),
    [
        ("tricks", "bridge", "S", ()),
        ("trumps", "classic", "S", ()),
        ("trumps", "classic", "S", ("free-trumping",)),
    ],
)
def test_trump_tricks_bound(
    contract: str, rules: str, trump: str, variants: tuple[str, ...]
) -> None:
    """Endings made for the sure trump tricks (a hand's block of top trumps, or every
    trump in one team), which cut the search off for either team whoever leads:
    both partnerships and each seat alone against the reference."""
    game = make_game(contract, rules=rules, trump=trump, variants=list(variants))
    rng = random.Random(f"trump-tricks:{contract}:{variants}")
    for i in range(40):
        d = _trump_tops(rng, 3)
        lead = int(d.leader)
        for side in ([0, 2], [1, 3], [lead], [(lead + 1) % 4]):
            _check_side(d, game, side, i)


# -- a partnership's suits cashed in turn, and the second hand's count -------------------


def _team_suits(rng: random.Random, n: int) -> Deal:
    """A random ending in which the leader's partnership holds the top cards of two or
    three suits, spread over its two hands (so cashing them needs the right order of
    suits, unblocking and crossings, and the opponents' lengths decide long cards);
    in trump contracts (spades) the trumps are often split between the teams."""
    d = random_ending(rng, n, bias=rng.choice((None, None, "short")))
    hands = list(d.masks)
    team = [int(d.leader), (int(d.leader) + 2) % 4]
    for s in rng.sample(range(4), rng.choice((2, 3))):
        present = [
            16 * s + r for r in range(12, -1, -1) if any(h >> (16 * s + r) & 1 for h in hands)
        ]
        for card in present[: rng.randint(1, 4)]:
            owner = next(o for o in range(4) if hands[o] >> card & 1)
            if owner in team:
                continue
            _give(hands, card, rng.choice(team), rng)
    return Deal(hands, leader=d.leader)


@pytest.mark.parametrize(
    ("contract", "rules", "trump"),
    [("tricks", "bridge", "NT"), ("tricks", "bridge", "S"), ("trumps", "classic", "S")],
)
def test_team_plans(contract: str, rules: str, trump: str) -> None:
    """Endings made for the quick-trick plans (a partnership's top cards split over
    its hands, long suits, trumps drawn first) and for the second hand's count (the
    same endings after one card led): both partnerships against the reference."""
    game = make_game(contract, rules=rules, trump=trump)
    rng = random.Random(f"team-plans:{contract}:{trump}")
    for i in range(35):
        d = _team_suits(rng, rng.choice((3, 4, 4)))
        if i % 2:
            d = led_position(rng, d, game, 1)  # one card led
        for side in ([0, 2], [1, 3]):
            _check_side(d, game, side, i)


@pytest.mark.parametrize(("contract", "rules"), [("tricks", "bridge"), ("trumps", "classic")])
def test_trump_plans(contract: str, rules: str) -> None:
    """Short trump-heavy endings (spades): the quick-trick plans that draw trumps
    first or must keep a hand's trumps from ruffing a team-mate's winner, the second
    hand's ruffs, and the bound that a team lacking the top trump, or facing the
    second trump guarded, cannot take every trick (any seat on lead); both
    partnerships against the reference."""
    game = make_game(contract, rules=rules, trump="S")
    rng = random.Random(f"trump-plans:{contract}")
    for i in range(60):
        d = random_ending(rng, rng.choice((2, 3, 3, 4)), bias=rng.choice(("trumps", "short", None)))
        if i % 3 == 2:
            d = led_position(rng, d, game, 1)
        for side in ([0, 2], [1, 3]):
            _check_side(d, game, side, i)


# -- a lone seat that can avoid every trick left (the no-more-tricks test) ---------------


def _low_seat(rng: random.Random, n: int) -> tuple[Deal, int]:
    """A random ending in which one seat, not on lead, holds mostly the low cards of
    its suits (swapped in from the other hands), so that it can often avoid every
    trick left, and sometimes cannot by one card."""
    d = random_ending(rng, n, bias=rng.choice((None, "short", "kh", "hearts")))
    hands = list(d.masks)
    seat = (int(d.leader) + rng.randrange(1, 4)) % 4
    for card in [c for c in range(64) if hands[seat] >> c & 1]:
        if rng.random() < 0.25:
            continue
        s = card >> 4
        lower = [
            (c, o) for o in range(4) if o != seat for c in range(16 * s, card) if hands[o] >> c & 1
        ]
        if lower:
            c, o = min(lower)
            hands[seat] ^= (1 << card) | (1 << c)
            hands[o] ^= (1 << card) | (1 << c)
    return Deal(hands, leader=d.leader), seat


@pytest.mark.parametrize(
    ("contract", "rules"),
    [
        ("no-tricks", "classic"),
        ("no-tricks", "french"),
        ("salad", "french"),
        ("barbu", "classic"),
        ("barbu", "french"),
        ("no-last-two", "classic"),
    ],
)
def test_no_more_tricks_cut(contract: str, rules: str) -> None:
    """Contracts where every trick costs or one card carries the points: the search's
    cut-off that a lone seat, not on lead (or on lead with a lead that loses), whose
    cards of each suit rank below the others' (its i-th lowest below their i-th
    lowest) takes no more tricks fires, and
    every seat's value still equals the reference (the K♥ duties included)."""
    game = make_game(contract, rules=rules)
    rng = random.Random(f"no-more-tricks:{contract}:{rules}")
    solver = Solver(tt_bytes=1 << 16)
    fired = 0
    for _ in range(24):
        d, seat = _low_seat(rng, rng.choice((3, 4, 4)))
        want = ref_trick_values(d, game)
        for s in (seat, (seat + 2) % 4):
            got = solver.solve(d.copy(), game, seats=[s]).scores[s]
            fired += solver._core.last_stats["null_cuts"]
            assert got is not None and same(got, want[s]), (
                f"{show(d, game)} seat {Seat(s).name}: solver {got}, reference {want[s]}"
            )
    assert fired > 0


def test_no_more_tricks_on_lead() -> None:
    """No Tricks, N alone and on lead: its ♠2 loses to any spade and its ♦3 is below
    every other diamond, so the cut-off fires at the root.  With ♠Q ♠2 against W's
    ♠K ♠8 it must not (regression): W wins the ♠2 with the ♠K and leads the ♠8."""
    game = make_game("no-tricks")
    d = Deal("N:2..3. A..Q. K..K. Q..A.", leader="N")
    solver = Solver(tt_bytes=1 << 16)
    assert solver.solve(d.copy(), game, seats="N").nodes == 1
    assert solver._core.last_stats["null_cuts"] == 1
    assert solve(d.copy(), game).scores == ref_trick_values(d, game)
    d = Deal("N:Q2... ..53. ...K9 K8...", leader="N")
    assert solve(d.copy(), game, seats="N").scores[Seat.N] == -2
    assert ref_trick_values(d, game)[Seat.N] == -2


def _loaded_core(game: Game, tt_bytes: int = 1 << 22, **parts: int) -> Any:
    """A compiled core with ``game`` loaded, its optional parts set by ``parts``
    (``no_more_tricks``, ``rounds``, ``budget_from``)."""
    core = _core.Solver(tt_bytes)
    core.set_rules(
        list(game.card_points),
        list(game.trick_points),
        heart_lead=game.heart_lead,
        king_duty=game.king_duty,
        **parts,
    )
    return core


def _seat_values(
    d: Deal, game: Game, *, tt_bytes: int = 1 << 20, **parts: int
) -> tuple[list[int], int]:
    """Each seat's value from the compiled core, with its optional parts set by
    ``parts`` (``no_more_tricks``, ``rounds``, ``budget_from``), and how many nodes
    searched their moves in budgeted rounds."""
    core = _loaded_core(game, tt_bytes, **parts)
    values, rounds = [], 0
    for s in range(4):
        values.append(core.value(list(d.masks), [], int(d.leader), 1 << s)[0])
        rounds += core.last_stats["rounds"]
    return values, rounds


def _core_values(d: Deal, game: Game, cut: bool) -> list[int]:
    """Each seat's value from the compiled core, with or without the cut-off."""
    return _seat_values(d, game, no_more_tricks=cut)[0]


@pytest.mark.parametrize(
    ("contract", "rules"),
    [
        ("no-tricks", "classic"),
        ("salad", "french"),
        ("barbu", "classic"),
        ("no-last-two", "classic"),
    ],
)
def test_no_more_tricks_cut_larger_endings(contract: str, rules: str) -> None:
    """On endings too large for the reference, the search with the cut-off equals the
    search without it (checked against the reference above and in the golden file):
    the cards the cut-off reads keep the table's entries exact."""
    game = make_game(contract, rules=rules)
    rng = random.Random(f"no-more-tricks-large:{contract}")
    for i in range(120):
        n = rng.choice((4, 5, 6, 7))
        d = _low_seat(rng, n)[0] if i % 2 else random_ending(rng, n)
        with_cut, without = _core_values(d, game, True), _core_values(d, game, False)
        assert with_cut == without, f"{show(d, game)}: {with_cut} with the cut, {without} without"


def test_budget_safe_cut() -> None:
    """No Queens, S leads: N holds the ♠Q under E's ♠K and S's ♠A, and the ♥3 ♥2 under
    E's ♥K ♥Q.  N may take its own ♠Q (and W's ♣Q), but never E's ♥Q (the K♥ test of
    Barbu on that card): asked whether N keeps -12, the search answers at its root
    with the bound -12, the points of the other queens (``budget_safe``).  Asked
    whether N keeps 0 it must search."""
    game = make_game("no-queens")
    d = Deal("N:Q.32.. K.KQ.. A..AK. ...AKQ", leader="S")
    core = _loaded_core(game, 1 << 20, budget_from=2)
    assert core.probe(list(d.masks), [], int(d.leader), 1, -12) == (-12, 1)
    assert core.last_stats["null_cuts"] == 1
    assert core.probe(list(d.masks), [], int(d.leader), 1, 0)[1] > 1
    assert solve(d.copy(), game).scores == ref_trick_values(d, game) == (0, 0, -18, 0)


def test_probe_cap() -> None:
    """A probe with a node cap gives up at the cap and says so (``None``); with room
    to spare it proves the same bound as without a cap, from a cold table each."""
    game = make_game("no-hearts")
    d = Deal("N:QJ.32.. K.KQ.8. A.A4..2 .T9.KQ.", leader="S")
    args = (list(d.masks), [], int(d.leader), 1)
    core = _loaded_core(game, 1 << 20)
    free = core.probe(*args, 0)
    assert free[1] > 3
    core.clear()
    assert core.probe(*args, 0, cap=2) == (None, 2)
    core.clear()
    assert core.probe(*args, 0, cap=free[1] + 1) == free
    with pytest.raises(ValueError):
        core.probe(*args, 0, cap=-1)


def budget_endings(count: int, seed: int) -> None:
    """No Queens endings of 3 or 4 cards a hand with the queens in play, classic and
    French: every seat's value with the lone seat's budget test tried from 2 tricks
    left equals the reference; the test cuts somewhere in most of them."""
    rng = random.Random(seed)
    fired = 0
    for i in range(count):
        game = make_game("no-queens", rules=("classic", "french")[i % 2])
        d = random_ending(rng, rng.choice([3, 3, 4]), bias=rng.choice(["queens", "duties"]))
        want = ref_trick_values(d, game)
        core = _loaded_core(game, 1 << 20, budget_from=2)
        cuts = 0
        for s in range(4):
            got = core.value(list(d.masks), [], int(d.leader), 1 << s)[0]
            cuts += core.last_stats["null_cuts"]
            assert same(got, want[s]), f"{show(d, game)} {Seat(s).name}: {got}, reference {want[s]}"
        fired += cuts > 0
    assert fired > count * 3 // 4


def test_budget_endings() -> None:
    budget_endings(60, 1)


@pytest.mark.slow
def test_budget_endings_slow() -> None:
    budget_endings(600, 2)


def test_budget_larger_endings() -> None:
    """No Queens endings of 6 to 8 cards a hand (too large for the reference): every
    seat's value is the same with the budget test from 2 tricks left, from 7 (the
    default) and without it."""
    game = make_game("no-queens")
    rng = random.Random("budget-large")
    for _ in range(30):
        d = random_ending(rng, rng.choice([6, 7, 8]), bias="queens")
        base = _seat_values(d, game, budget_from=0)[0]
        for start in (2, 7):
            got = _seat_values(d, game, budget_from=start)[0]
            assert got == base, f"{show(d, game)}: {got} from {start} tricks left, {base} without"


def _rounds_values(d: Deal, game: Game, rounds: bool) -> tuple[list[int], int]:
    """Each seat's value with or without the budgeted rounds, and how many nodes
    searched their moves in rounds."""
    return _seat_values(d, game, tt_bytes=1 << 22, rounds=rounds)


@pytest.mark.parametrize(
    ("contract", "rules"),
    [
        ("no-tricks", "classic"),
        ("no-hearts", "classic"),
        ("no-queens", "classic"),
        ("barbu", "classic"),
        ("no-last-two", "classic"),
        ("salad", "french"),
    ],
)
def test_budgeted_rounds(contract: str, rules: str) -> None:
    """The budgeted rounds at the others' leads (9 or more tricks left; a search out
    of budget stores nothing and is searched again) change no value: 9-card endings,
    every seat, with the rounds and without (the search without them is checked
    against the reference above)."""
    game = make_game(contract, rules=rules)
    rng = random.Random(f"rounds:{contract}")
    fired = 0
    for _ in range(4):
        d = random_ending(rng, 9)
        with_rounds, n = _rounds_values(d, game, True)
        without = _rounds_values(d, game, False)[0]
        fired += n
        assert with_rounds == without, f"{show(d, game)}: {with_rounds} with, {without} without"
    assert fired > 0


@pytest.mark.parametrize(
    ("contract", "rules", "passes"),
    [
        ("no-tricks", "classic", True),
        ("no-queens", "classic", True),
        ("no-last-two", "classic", True),
        ("no-hearts", "classic", False),
        ("salad", "french", False),
        ("barbu", "classic", False),
    ],
)
def test_narrow_passes(contract: str, rules: str, passes: bool) -> None:
    """The narrow passes before each probe (the others' moves limited to their first
    few; a pass that holds the lone seat below the target is final, its other answers
    go to the table under the pass's mark) change no value: 8- and 9-card endings,
    every seat, with the passes and without (the search without them is checked
    against the reference above); and some pass settles a probe.  The contracts with
    points on one card or on more than four run no passes."""
    game = make_game(contract, rules=rules)
    rng = random.Random(f"narrow:{contract}")
    settled = 0
    for _ in range(6):
        d = random_ending(rng, rng.choice([8, 9]))
        with_core = _loaded_core(game, 1 << 22)
        without = _seat_values(d, game, tt_bytes=1 << 22, narrow=False)[0]
        for s in range(4):
            got = with_core.value(list(d.masks), [], int(d.leader), 1 << s)[0]
            settled += with_core.last_stats["narrow_proofs"]
            assert got == without[s], f"{show(d, game)}: seat {s} {got} with, {without[s]} without"
    assert (settled > 0) == passes


def test_narrow_marks_stay_apart() -> None:
    """One table kept through many solves with the narrow passes (their marked
    entries left in it) gives every solve the value of a fresh table without them:
    7-card No Last Two and No Queens endings, every seat."""
    rng = random.Random("narrow-marks")
    for contract in ("no-last-two", "no-queens"):
        game = make_game(contract)
        shared = _loaded_core(game, 1 << 22)
        for _ in range(8):
            d = random_ending(rng, 7)
            for s in range(4):
                fresh = _loaded_core(game, 1 << 22, narrow=False)
                want = fresh.value(list(d.masks), [], int(d.leader), 1 << s)[0]
                got = shared.value(list(d.masks), [], int(d.leader), 1 << s)[0]
                assert got == want, f"{show(d, game)}: seat {s} {got} in the shared table, {want}"


def _salad_endings(seed: str) -> Iterator[tuple[Game, Any, Deal, list[int], int]]:
    """Six random 6-card Salad endings, with one core loaded for them: (game, core,
    ending, hands, leader) each."""
    game = make_game("salad", rules="french")
    rng = random.Random(seed)
    core = _loaded_core(game)
    for _ in range(6):
        d = random_ending(rng, 6)
        yield game, core, d, list(d.masks), int(d.leader)


def test_probe_bounds() -> None:
    """``probe`` returns a fail-soft bound: at or above the target, the value is at
    least the bound; below it, at most the bound."""
    for game, core, d, hands, leader in _salad_endings("probe-bounds"):
        value = core.value(hands, [], leader, 1)[0]
        for target in (value - 40, value - 10, value, value + 10, value + 40):
            bound, nodes = core.probe(hands, [], leader, 1, target)
            assert nodes > 0
            if bound >= target:
                assert value >= target and value >= bound, (show(d, game), target, bound, value)
            else:
                assert value < target and value <= bound, (show(d, game), target, bound, value)


def test_probe_log() -> None:
    """A solve logs its probes: each bound is sound against the value, one of them
    is the value itself, and their nodes add up to the solve's."""
    for game, core, d, hands, leader in _salad_endings("probe-log"):
        value, nodes, _ = core.value(hands, [], leader, 1)
        log = core.last_stats["probes"]
        assert log, show(d, game)
        for target, bound, _ in log:
            if bound >= target:
                assert value >= bound, (show(d, game), target, bound, value)
            else:
                assert value <= bound < target, (show(d, game), target, bound, value)
        assert any(bound == value for _, bound, _ in log), (show(d, game), log, value)
        assert sum(n for _, _, n in log) == nodes


@pytest.mark.parametrize(
    ("contract", "rules"),
    [("no-last-two", "classic"), ("no-queens", "classic"), ("salad", "french")],
)
def test_refutation_memory(contract: str, rules: str) -> None:
    """The refutation memory (the last card that cut off the search, by the mover's
    hand and the trick) orders moves only: a core that never clears, whose memory and
    table carry over from one ending to the next, gives each ending's values as a
    fresh core does; and after ``clear()`` a solve takes exactly the nodes of a fresh
    core's (the memory is forgotten with the table)."""
    game = make_game(contract, rules=rules)
    rng = random.Random(f"memory:{contract}")
    warm = _loaded_core(game)
    endings = [random_ending(rng, 8) for _ in range(6)]
    for d in endings:
        for side in (1, 2, 4, 8, 5):
            fresh = _loaded_core(game)
            expect = fresh.value(list(d.masks), [], int(d.leader), side)[0]
            got = warm.value(list(d.masks), [], int(d.leader), side)[0]
            assert got == expect, (show(d, game), side, got, expect)
    d = endings[0]
    fresh_nodes = _loaded_core(game).value(list(d.masks), [], int(d.leader), 1)[1]
    warm.clear()
    assert warm.value(list(d.masks), [], int(d.leader), 1)[1] == fresh_nodes
