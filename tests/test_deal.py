"""Positions: parse/str, play/unplay, validate, complete (barbu_dd.deal)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from barbu_dd.cards import ALL_CARDS, CardSet, Seat, iter_cards, parse_card
from barbu_dd.deal import Deal, Trick, trick_winner
from barbu_dd.errors import IllegalPlayError, InvalidPositionError, ParseError

FULL = "N:KQT2.AT.J6542.85 A86.K9.AQT3.QT97 J954.Q8632.9.J63 73.J754.K87.AK42"


SMALL = "N:AK.Q.. 2.KJ.. Q.32.. J.T9.."


def c(name: str) -> int:
    return parse_card(name)


def random_full_deal(rng: random.Random) -> Deal:
    cards = list(ALL_CARDS)
    rng.shuffle(cards)
    return Deal([sum(1 << x for x in cards[13 * i : 13 * i + 13]) for i in range(4)])


class TestParse:
    def test_full_deal_round_trip(self) -> None:
        d = Deal(FULL)
        assert str(d) == FULL
        assert d.sizes() == (13, 13, 13, 13)
        assert d.hand(Seat.E) == CardSet.from_pbn("A86.K9.AQT3.QT97")
        assert Deal.from_pbn(FULL) == d

    def test_first_seat_and_rotation(self) -> None:
        d = Deal("E:A... K... Q... J...")
        assert d.first == Seat.E
        assert d.hand(Seat.E) == CardSet.from_pbn("A...")
        assert d.hand(Seat.N) == CardSet.from_pbn("J...")
        assert str(d) == "E:A... K... Q... J..."
        assert d.to_pbn(Seat.N) == "N:J... A... K... Q..."
        assert Deal(d.to_pbn(Seat.N)) == d

    def test_unknown_hands(self) -> None:
        d = Deal("N:AKQ... - 432... -")
        assert d.is_known(Seat.N) and not d.is_known(Seat.E)
        assert d.mask(Seat.E) == 0
        with pytest.raises(InvalidPositionError, match="the hand of E is unknown"):
            d.hand(Seat.E)
        assert str(d) == "N:AKQ... - 432... -"

    def test_tens_and_case(self) -> None:
        assert str(Deal("n:ak10... - - -")) == "N:AKT... - - -"

    def test_repr_round_trip(self) -> None:
        d = Deal(FULL)
        assert repr(d) == f"Deal({FULL!r})"
        assert eval(repr(d), {"Deal": Deal}) == d

    @pytest.mark.parametrize(
        ("text", "message"),
        [
            ("", "invalid deal: ''"),
            ("AKQ... - - -", "invalid deal"),
            ("N:AKQ... - -", "expected 4 hands, got 3"),
            ("N:AKQ... - - - -", "expected 4 hands, got 5"),
            ("X:- - - -", "invalid seat: 'X'"),
            ("N:AKX... - - -", r"invalid card in hand 'AKX\.\.\.': S'X'"),
            ("N:AK.. - - -", "need 4 suits"),
        ],
    )
    def test_bad_text(self, text: str, message: str) -> None:
        with pytest.raises(ParseError, match=message):
            Deal(text)

    def test_card_dealt_twice(self) -> None:
        with pytest.raises(InvalidPositionError, match="card SA is dealt twice"):
            Deal("N:A... A... - -")

    def test_wrong_number_of_hands(self) -> None:
        with pytest.raises(InvalidPositionError, match="a deal needs 4 hands, got 3"):
            Deal([0, 0, 0])

    @given(st.randoms(use_true_random=False))
    @settings(max_examples=100, deadline=None)
    def test_random_round_trip(self, rng: random.Random) -> None:
        d = random_full_deal(rng)
        d.first = Seat(rng.randrange(4))
        assert Deal(str(d)) == d
        assert str(Deal(str(d))) == str(d)
        d.validate(full=True)


class TestPlay:
    def test_trick_winner(self) -> None:
        assert trick_winner(Seat.N, [c("S2"), c("SA"), c("HA"), c("H2")]) == Seat.E
        assert trick_winner(Seat.N, [c("S2"), c("SA"), c("HA"), c("H2")], trump=1) == Seat.S
        assert trick_winner(Seat.W, [c("D5"), c("D9"), c("DK"), c("S2")]) == Seat.E
        assert trick_winner(Seat.W, [c("D5"), c("D9"), c("DK"), c("S2")], trump=0) == Seat.S
        assert trick_winner(Seat.E, [c("H2"), c("S3"), c("SK"), c("H3")], trump=0) == Seat.W

    def test_play_a_trick(self) -> None:
        d = Deal(SMALL, leader=Seat.N)
        assert d.to_move == Seat.N
        assert d.play(c("SA")) is None
        assert str(d.to_move) == "E"
        d.play(c("S2"))
        d.play(c("SQ"))
        t = d.play(c("SJ"))
        assert t == Trick(Seat.N, (c("SA"), c("S2"), c("SQ"), c("SJ")), Seat.N)
        assert t.seat_of(2) == Seat.S
        assert d.leader == Seat.N and d.trick == [] and d.tricks == [t]
        assert str(d) == "N:K.Q.. .KJ.. .32.. .T9.."

    def test_play_not_held(self) -> None:
        d = Deal(SMALL, leader=Seat.N)
        with pytest.raises(IllegalPlayError, match="N does not hold S2"):
            d.play(c("S2"))
        d2 = Deal("N:A... - - -", leader=Seat.E)
        with pytest.raises(IllegalPlayError, match="E does not hold"):
            d2.play(c("SK"))

    def test_no_leader(self) -> None:
        d = Deal("N:A... K... Q... J...")
        with pytest.raises(InvalidPositionError, match="no leader"):
            d.play(c("SA"))

    def test_unplay_nothing(self) -> None:
        with pytest.raises(IllegalPlayError, match="no card to take back"):
            Deal(FULL, leader="N").unplay()

    @given(st.randoms(use_true_random=False))
    @settings(max_examples=100, deadline=None)
    def test_play_unplay_restores_everything(self, rng: random.Random) -> None:
        d = random_full_deal(rng)
        d.leader = Seat(rng.randrange(4))
        trump = rng.choice([None, 0, 1, 2, 3])
        snapshots = []
        n = rng.randrange(53)
        for _ in range(n):
            snapshots.append((str(d), list(d.trick), list(d.tricks), d.leader, d.to_move))
            hand = list(iter_cards(d.mask(d.to_move)))
            if d.trick:
                follow = [x for x in hand if x >> 4 == d.trick[0] >> 4]
                hand = follow or hand
            d.play(rng.choice(hand), trump=trump)
        assert len(d.tricks) == n // 4 and len(d.trick) == n % 4
        if n == 52:
            assert d.sizes() == (0, 0, 0, 0)
        for snap in reversed(snapshots):
            d.unplay()
            assert (str(d), d.trick, d.tricks, d.leader, d.to_move) == snap

    def test_copy_is_independent(self) -> None:
        d = Deal(FULL, leader=Seat.W)
        d.play(c("S7"))
        e = d.copy()
        e.play(c("SK"))
        assert len(d.trick) == 1 and len(e.trick) == 2
        assert e.unplay() == c("SK") and e == d

    def test_tricks_left(self) -> None:
        d = Deal(SMALL, leader=Seat.N)
        assert d.tricks_left == 3
        d.play(c("SA"))
        assert d.tricks_left == 3
        for x in ("S2", "SQ", "SJ"):
            d.play(c(x))
        assert d.tricks_left == 2


class TestValidate:
    def test_good(self) -> None:
        Deal(FULL).validate(full=True)
        Deal("N:A.K.. K.A.. Q.Q.. J.J..").validate()
        Deal("N:A.K.. - Q.Q.. -").validate()

    def test_duplicate_between_hands(self) -> None:
        d = Deal([1 << c("SA"), 1 << c("SA"), 0, 0])
        with pytest.raises(InvalidPositionError, match="card SA is dealt twice"):
            d.validate(equal=False)

    def test_unequal_hands(self) -> None:
        with pytest.raises(InvalidPositionError, match="hands of unequal size: N 2, E 1, S 1, W 1"):
            Deal("N:AK... Q... J... T...").validate()

    def test_empty_ending(self) -> None:
        with pytest.raises(InvalidPositionError, match="1 to 13 cards a hand, got 0"):
            Deal("N:... ... ... ...").validate()

    def test_full_deal_missing_a_card(self) -> None:
        d = Deal(FULL)
        d2 = Deal([d.mask(Seat.N) & ~(1 << c("SK")), *d.masks[1:]])
        with pytest.raises(InvalidPositionError, match=r"needs 52 cards, got 51 \(missing SK\)"):
            d2.validate(full=True, equal=False)

    def test_full_deal_unknown_hand(self) -> None:
        with pytest.raises(InvalidPositionError, match="the hand of E is unknown"):
            Deal("N:A... - Q... J...").validate(full=True)

    def test_trick_in_progress(self) -> None:
        d = Deal(SMALL, leader=Seat.N)
        d.play(c("SA"))
        d.validate()  # N holds one card fewer: it played to the trick
        d.trick.append(c("SK"))  # corrupt: SK is still in N's hand
        with pytest.raises(InvalidPositionError, match="SK is both held and in the trick"):
            d.validate(equal=False)


class TestComplete:
    def test_fills_the_unknown_hand(self) -> None:
        d = Deal(FULL)
        partial = Deal(FULL.replace("73.J754.K87.AK42", "-"))
        assert not partial.is_known(Seat.W)
        done = partial.complete()
        assert done == d
        assert not partial.is_known(Seat.W)  # a copy: the original is unchanged

    def test_leaves_two_unknown_hands(self) -> None:
        partial = Deal("N:KQT2.AT.J6542.85 - J954.Q8632.9.J63 -")
        assert partial.complete() == partial

    def test_leaves_an_ending(self) -> None:
        partial = Deal("N:A.K.. K.A.. Q.Q.. -")
        assert not partial.complete().is_known(Seat.W)
