"""Tests of the reference solver (``tests/reference.py``): hand-computed tiny positions,
and properties every exact minimax value must have."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference import (
    BIASES,
    all_play_scores,
    domino_endings,
    endings,
    midtricks,
    random_domino_ending,
    random_ending,
    random_midtrick,
    ref_domino_value,
    ref_domino_values,
    ref_trick_value,
    ref_trick_values,
)

from barbu_dd.cards import (
    BB_ALL,
    BB_HEARTS,
    BB_KH,
    BB_QUEENS,
    BB_SUITS,
    Seat,
    hand_from_pbn,
    parse_card,
)
from barbu_dd.contracts import Game, make_game
from barbu_dd.deal import Deal
from barbu_dd.play import (
    DominoPosition,
    Layout,
    domino_finished,
    domino_moves,
    domino_places,
    domino_play,
    domino_scores,
    legal_cards,
    points_at_stake,
    trick_number,
    trick_value,
)

SETTINGS = settings(
    derandomize=True,  # fixed seeds: the same examples on every run
    deadline=None,
    max_examples=10,
    suppress_health_check=[HealthCheck.too_slow],
)

TRICK_GAMES: list[Game] = [
    make_game("no-tricks"),
    make_game("no-hearts"),
    make_game("no-queens"),
    make_game("barbu"),
    make_game("no-last-two"),
    make_game("trumps", trump="S"),
    make_game("trumps", trump="S", variants=["free-trumping"]),
    make_game("barbu", rules="french"),
    make_game("salad", rules="french"),
    make_game("ravage"),
    make_game("tricks", rules="bridge", trump="S"),
]


def game_id(g: Game) -> str:
    return (
        g.describe()
        + ("/free" if g.trump is not None and not g.trump_duties else "")
        + (f"/{g.rules}")
    )


def D(text: str, leader: str = "N") -> Deal:
    return Deal(text, leader=leader)


def complement(side: frozenset[int]) -> frozenset[int]:
    return frozenset(range(4)) - side


SIDES = [frozenset(s) for s in ({0}, {1}, {0, 2}, {1, 3}, {0, 1, 3})]


# -- hand-computed positions -----------------------------------------------------------


class TestHandComputed:
    def test_one_card_no_tricks(self) -> None:
        # N's SA wins the last trick: -2 for N whatever happens.
        assert ref_trick_values(D("N:A... 2... 3... 4..."), make_game("no-tricks")) == (-2, 0, 0, 0)

    def test_no_queens(self) -> None:
        # N holds only spades (SQ S2) and must lead one; E's SK wins trick 12 in any case.
        # Lead SQ: E takes it (-6 for E).  Lead S2: E wins, leads H2 in trick 13, N
        # discards the SQ and W's H4 wins it (-6 for W).  S can never win a trick.
        d = D("N:Q2... K.2.. 3.3.. 4.4..")
        assert ref_trick_values(d, make_game("no-queens")) == (0, -6, 0, -6)
        assert ref_trick_value(d, make_game("no-queens"), {1, 3}) == -6  # one queen only

    def test_king_duty_matters(self) -> None:
        # N leads S2 or D3; E (HK D2) is void in spades, S holds the SA.
        pos = "N:2..3. .K.2. A..4. 3..5."
        # French Barbu: E must discard the HK the first time he cannot follow, which is
        # always under the SA: S takes it (-80) on every line.
        assert ref_trick_values(D(pos), make_game("barbu", rules="french")) == (0, 0, -80, 0)
        # Classic Barbu: E may keep it.  On the S2 lead E can throw it under S's SA
        # (-20 for S), or throw the D2, and the HK then falls in trick 13 on S's D4 lead,
        # won by W's D5 (-20 for W).
        assert ref_trick_values(D(pos), make_game("barbu")) == (0, 0, -20, -20)
        assert ref_trick_values(D(pos), make_game("barbu", variants=["king-duty"])) == (
            0,
            0,
            -20,
            0,
        )

    def test_no_last_two(self) -> None:
        # All spades.  N: lead the SA (-10) and lose trick 13 with the S2; leading the S2
        # leaves the SA to win trick 13 (-20).  W (SJ S5) is doomed on the SA lead when E
        # and S drop their honours: W wins trick 13 with either card.  E and S can always
        # keep a card low enough.
        d = D("N:A2... K3... Q4... J5...")
        assert ref_trick_values(d, make_game("no-last-two")) == (-10, 0, 0, -20)

    def test_ravage_shared(self) -> None:
        # Whatever N leads, N takes the four spades and E the four hearts: -18 each.
        d = D("N:A.2.. 2.A.. 3.3.. 4.4..")
        assert ref_trick_values(d, make_game("ravage")) == (-18, -18, 0, 0)
        assert ref_trick_value(d, make_game("ravage"), {0, 1}) == -36

    def test_ravage_one_trick(self) -> None:
        d = D("N:A... 2... .3.. .4..")
        assert ref_trick_values(d, make_game("ravage")) == (-36, 0, 0, 0)

    def test_ravage_fraction(self) -> None:
        import dataclasses

        from barbu_dd.contracts import ContractScale

        g = dataclasses.replace(make_game("ravage"), scoring=ContractScale(penalty=-10))
        d = D("N:A.2.. 2.A.. 3.3.. 4.4..")
        assert ref_trick_values(d, g) == (-5, -5, 0, 0)
        # One card of each suit a hand: every trick is won by the ace of its suit, so N,
        # E and S each take four cards of one suit and share the penalty.
        d = D("N:A.2.2. 2.A.3. 3.3.A. 4.4.4.")
        third = Fraction(-10, 3)
        assert ref_trick_values(d, g) == (third, third, third, 0)
        assert ref_trick_value(d, g, {0, 1}) == 2 * third
        assert ref_trick_value(d, g, {0, 1, 2}) == -10
        assert ref_trick_values(d, make_game("ravage")) == (-12, -12, -12, 0)

    def test_trumps(self) -> None:
        # Spades trumps.  N leads a heart; E (S9 S2) must trump, S (SA D2) must overtrump
        # with the SA and wins trick 12, then leads the D2: E trumps again and wins.
        d = D("N:.AK.. 92... A..2. .32..")
        assert ref_trick_values(d, make_game("trumps", trump="S")) == (0, 5, 5, 0)

    def test_bridge_side(self) -> None:
        # No trumps, +1 a trick: N+S hold only spades, E+W only diamonds, the top
        # cards with N and E: the side on lead takes both tricks.
        g = make_game("tricks", rules="bridge")
        pos = "N:AK... ..AK. QJ... ..QJ."
        assert ref_trick_value(D(pos, "N"), g, {0, 2}) == 2
        assert ref_trick_value(D(pos, "N"), g, {1, 3}) == 0
        assert ref_trick_value(D(pos, "E"), g, {0, 2}) == 0
        assert ref_trick_value(D(pos, "W"), g, {1, 3}) == 2

    def test_midtrick(self) -> None:
        # N has led the SA in No Tricks and wins trick 12 (-2); W's H6 wins trick 13.
        d = D("N:A.2.. .43.. 2.5.. 3.6..")
        d.play(parse_card("SA"))
        g = make_game("no-tricks")
        assert trick_number(d) == 12
        assert ref_trick_values(d, g) == (-2, 0, 0, -2)


# -- properties of the trick reference ------------------------------------------------


@pytest.mark.parametrize("game", TRICK_GAMES, ids=game_id)
@SETTINGS
@given(data=st.data())
def test_sides_add_up_to_the_stake(game: Game, data: st.DataObject) -> None:
    """A two-team zero-sum game of perfect information: a side and the rest split the stake."""
    d = data.draw(endings(1, 3, bias="duties" if game.trump is None else "trumps"))
    stake = points_at_stake(d, game)
    assert ref_trick_value(d, game, range(4)) == stake
    assert ref_trick_value(d, game, ()) == 0
    for side in (frozenset({0}), frozenset({1, 2})):
        assert ref_trick_value(d, game, side) + ref_trick_value(d, game, complement(side)) == stake


@pytest.mark.parametrize("game", TRICK_GAMES, ids=game_id)
@SETTINGS
@given(d=midtricks(1, 2))
def test_value_between_worst_and_best_play(game: Game, d: Deal) -> None:
    outcomes = all_play_scores(d, game)
    assert outcomes
    for side in SIDES:
        totals = [sum((o[s] for s in side), 0) for o in outcomes]
        v = ref_trick_value(d, game, side)
        assert min(totals) <= v <= max(totals)
    if game.kind != "ravage":
        assert {sum(o) for o in outcomes} == {points_at_stake(d, game)}


@pytest.mark.parametrize(
    "game",
    [make_game("no-hearts"), make_game("trumps", trump="S"), make_game("ravage")],
    ids=game_id,
)
@SETTINGS
@given(d=midtricks(1, 3, bias="trumps"))
def test_one_step_of_minimax(game: Game, d: Deal) -> None:
    """The value is the best, for the seat to move, of the values after each legal card."""
    if game.kind == "ravage" and len(d.trick) == 3:
        return  # the cards won in a completed trick are part of Ravage's state
    side = frozenset({0, 2})
    number = trick_number(d)
    after = []
    for c in legal_cards(d, game):
        e = d.copy()
        t = e.play(c, trump=game.trump)
        v = ref_trick_value(e, game, side)
        if t is not None and game.kind != "ravage" and t.winner in side:
            v += trick_value(game, t.cards, number)
        after.append(v)
    best = max(after) if d.to_move in side else min(after)
    assert ref_trick_value(d, game, side) == best


@SETTINGS
@given(d=midtricks(1, 3, bias="trumps"))
def test_free_trumping_is_bridge(d: Deal) -> None:
    """Trumps with free trumping is bridge play at +5 a trick: the side values agree."""
    free = make_game("trumps", trump="S", variants=["free-trumping"])
    bridge = make_game("tricks", rules="bridge", trump="S")
    tricks_left = 14 - trick_number(d)
    for side in SIDES:
        v = ref_trick_value(d, bridge, side)
        assert 0 <= v <= tricks_left
        assert ref_trick_value(d, free, side) == 5 * v


def test_ravage_values_are_shares() -> None:
    rng = random.Random(42)
    g = make_game("ravage")
    shares = {Fraction(-36, k) for k in (1, 2, 3, 4)} | {0}
    for _ in range(6):
        d = random_ending(rng, 2, bias="short")
        for v in ref_trick_values(d, g):
            assert Fraction(v) in shares
            assert isinstance(v, int)


# -- Dominoes ---------------------------------------------------------------------------


def H(*pbn: str) -> list[int]:
    return [hand_from_pbn(h) if h else 0 for h in pbn]


def all_domino_places(pos: DominoPosition, game: Game) -> set[tuple[int | None, ...]]:
    """The finishing places of every legal way to play the rest of a Dominoes ending."""
    if domino_finished(pos):
        return {domino_places(pos)}
    out: set[tuple[int | None, ...]] = set()
    moves: list[int | None] = list(domino_moves(pos, game)) or [None]
    for m in moves:
        out |= all_domino_places(domino_play(pos, game, m), game)
    return out


class TestDominoReference:
    def test_forced(self) -> None:
        g = make_game("dominoes", start="9")
        # W is out.  N plays the SJ (2nd), E the SQ, S passes, E the SK (3rd), S last.
        pos = DominoPosition.from_hands(H("J...", "KQ...", "A...", ""), g, Seat.N)
        assert ref_domino_values(pos, g) == (20, 5, -5, None)
        assert ref_domino_value(pos, g, Seat.W) is None

    def test_choice(self) -> None:
        # From the Aces: spades and hearts are on the table from the 5 up, W is out.
        # N must play the S4, E the H4; then S chooses.  The S3 lets E out with the S2
        # and blocks N's H2 (N last); the H3 lets N out and blocks E's S2 (E last).
        g = make_game("dominoes", start="A")
        pos = DominoPosition.from_hands(H("4.2..", "2.4..", "3.3..", ""), g, Seat.N)
        assert ref_domino_values(pos, g) == (-5, -5, 5, None)
        assert all_domino_places(pos, g) == {(4, 2, 3, None), (2, 4, 3, None)}

    def test_reussite_scale(self) -> None:
        g = make_game("reussite", rules="french")
        pos = DominoPosition.from_hands(H("Q...", "", "K...", "A..."), g, Seat.S)
        assert ref_domino_values(pos, g) == (20, None, 10, -10)

    @pytest.mark.parametrize(
        "game",
        [
            make_game("dominoes", start="9"),
            make_game("dominoes", start="2", variants=["low-aces", "ace-replays"]),
            make_game("dominoes", start="A", variants=["ace-replays"]),
            make_game("reussite", rules="french"),
        ],
        ids=game_id,
    )
    @SETTINGS
    @given(data=st.data())
    def test_between_worst_and_best(self, game: Game, data: st.DataObject) -> None:
        pos = data.draw(domino_endings(game, sizes=(1, 3), max_out=2))
        outcomes = all_domino_places(pos, game)
        for s in range(4):
            v = ref_domino_value(pos, game, s)
            if Seat(s) in pos.already_out:
                assert v is None
                continue
            pts = [p for o in outcomes if (p := domino_scores(game, o)[s]) is not None]
            assert v is not None and min(pts) <= v <= max(pts)


# -- the generators -------------------------------------------------------------------


class TestGenerators:
    @pytest.mark.parametrize("bias", BIASES)
    def test_random_ending(self, bias: str | None) -> None:
        rng = random.Random(1)
        for n in (1, 2, 3, 5, 13):
            d = random_ending(rng, n, bias=bias)
            d.validate()
            assert d.sizes() == (n, n, n, n)
            assert d.leader is not None and trick_number(d) == 14 - n
            held = d.masks[0] | d.masks[1] | d.masks[2] | d.masks[3]
            if bias in ("hearts", "queens", "kh", "duties") and n >= 2:
                assert held & BB_KH
            if bias == "queens" and n >= 2:
                assert held & BB_QUEENS == BB_QUEENS
            if n == 13:
                assert held == BB_ALL

    def test_biases_bias(self) -> None:
        rng = random.Random(2)
        plain = [random_ending(rng, 3) for _ in range(30)]
        biased = [random_ending(rng, 3, bias="hearts") for _ in range(30)]

        def n_hearts(ds: list[Deal]) -> int:
            return sum((sum(d.masks) & BB_HEARTS).bit_count() for d in ds)

        assert n_hearts(biased) > 2 * n_hearts(plain)
        trumps = [random_ending(rng, 3, bias="trumps", trump=3) for _ in range(30)]
        clubs = sum((sum(d.masks) & BB_SUITS[3]).bit_count() for d in trumps)
        assert clubs > 30 * 12 * 0.4

    def test_random_midtrick(self) -> None:
        rng = random.Random(3)
        g = make_game("trumps", trump="H")
        for k in range(4):
            d = random_midtrick(rng, 3, k, game=g, bias="trumps", trump=1)
            assert len(d.trick) == k
            assert trick_number(d) == 11
            assert legal_cards(d, g)

    def test_random_domino_ending(self) -> None:
        rng = random.Random(4)
        outs = set()
        for game in (
            make_game("dominoes", start="9"),
            make_game("dominoes", start="A", variants=["low-aces"]),
            make_game("reussite", rules="french"),
        ):
            for _ in range(40):
                pos = random_domino_ending(rng, game, max_out=2)
                sizes = [h.bit_count() for h in pos.hands]
                assert all(s == 0 or 3 <= s <= 7 for s in sizes)
                assert pos.hands[pos.to_move]
                assert (
                    Layout.from_cards(pos.layout.mask, game.start or 0, game.low_aces) == pos.layout
                )
                outs.add(len(pos.already_out))
        assert outs == {0, 1, 2}
