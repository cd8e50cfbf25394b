"""Tests of the plain rules engine (:mod:`barbu_dd.play`): every duty of SPEC §2, the
scoring of §3 and the Dominoes of §4, on small hand-made positions."""

from __future__ import annotations

import dataclasses
import random
from fractions import Fraction

import pytest

from barbu_dd.cards import (
    BB_ALL,
    Rank,
    Seat,
    Suit,
    card_name,
    hand_from_pbn,
    iter_cards,
    parse_card,
)
from barbu_dd.contracts import ContractScale, Game, make_game
from barbu_dd.deal import Deal, Trick
from barbu_dd.errors import IllegalPlayError, InvalidPositionError
from barbu_dd.play import (
    DominoPosition,
    Layout,
    check_card,
    domino_finished,
    domino_moves,
    domino_places,
    domino_play,
    domino_play_out,
    domino_scores,
    is_legal,
    legal_cards,
    legal_mask,
    play_card,
    play_out,
    points_at_stake,
    score_tricks,
    trick_number,
    trick_value,
)


def names(cards: list[int]) -> list[str]:
    return [card_name(c) for c in cards]


def deal(text: str, leader: str = "N", *played: str) -> Deal:
    """A deal from PBN with a leader, and cards of the first trick played (unchecked)."""
    d = Deal(text, leader=leader)
    for c in played:
        d.play(parse_card(c))
    return d


def C(name: str) -> int:
    return parse_card(name)


# -- follow suit ----------------------------------------------------------------------


class TestFollowSuit:
    def test_must_follow(self) -> None:
        g = make_game("no-tricks")
        d = deal("N:A.2.. Q.3.. J.4.. T.5..", "N", "SA")
        assert names(legal_cards(d, g)) == ["SQ"]
        with pytest.raises(
            IllegalPlayError, match=r"^trick 12: E must follow suit, cannot play H3$"
        ):
            check_card(d, g, "H3")
        check_card(d, g, "SQ")

    def test_void_may_play_anything(self) -> None:
        g = make_game("no-tricks")
        d = deal("N:A.4.. .32.. J.5.. T.6..", "N", "SA")
        assert names(legal_cards(d, g)) == ["H3", "H2"]

    def test_leader_is_free_without_heart_rule(self) -> None:
        d = deal("N:A.2.. Q.3.. J.4.. T.5..")
        for contract in ("no-tricks", "no-queens", "no-last-two", "ravage"):
            assert names(legal_cards(d, make_game(contract))) == ["SA", "H2"]

    def test_not_held(self) -> None:
        g = make_game("no-tricks")
        d = deal("N:A.2.. Q.3.. J.4.. T.5..", "N", "SA")
        with pytest.raises(IllegalPlayError, match=r"^trick 12: E does not hold SA$"):
            check_card(d, g, "SA")
        with pytest.raises(IllegalPlayError, match=r"^trick 12: E does not hold HK$"):
            play_card(d, g, "HK")

    def test_order_is_iter_cards_order(self) -> None:
        g = make_game("no-tricks")
        d = deal("N:A2.K3.Q4.J5 KQ.AQ.AK.AK JT.JT.JT.QT 98.98.98.98")
        assert names(legal_cards(d, g)) == ["SA", "S2", "HK", "H3", "DQ", "D4", "CJ", "C5"]

    def test_play_card_plays_and_returns_trick(self) -> None:
        g = make_game("no-tricks")
        d = deal("N:A.2.. Q.3.. J.4.. T.5..")
        assert play_card(d, g, "SA") is None
        assert play_card(d, g, C("SQ")) is None
        play_card(d, g, "sj")
        t = play_card(d, g, "10s")
        assert t == Trick(Seat.N, (C("SA"), C("SQ"), C("SJ"), C("ST")), Seat.N)
        assert d.leader == Seat.N and trick_number(d) == 13

    def test_dominoes_has_no_tricks(self) -> None:
        g = make_game("dominoes", start="9")
        d = deal("N:A.2.. Q.3.. J.4.. T.5..")
        with pytest.raises(IllegalPlayError, match="dominoes has no tricks"):
            legal_cards(d, g)

    def test_no_leader(self) -> None:
        d = Deal("N:A.2.. Q.3.. J.4.. T.5..")
        with pytest.raises(InvalidPositionError, match="no leader"):
            legal_cards(d, make_game("no-tricks"))

    def test_unknown_hand(self) -> None:
        d = Deal("N:A.2.. - J.4.. T.5..", leader="E")
        with pytest.raises(InvalidPositionError, match="the hand of E is unknown"):
            legal_cards(d, make_game("no-tricks"))


# -- heart lead -------------------------------------------------------------------------


class TestHeartLead:
    POS = "N:A.2.. Q.3.. J.4.. T.5.."

    @pytest.mark.parametrize(
        ("contract", "rules", "restricted"),
        [
            ("no-hearts", "classic", True),
            ("barbu", "classic", True),
            ("no-hearts", "french", True),
            ("salad", "french", True),
            ("barbu", "french", False),
            ("no-tricks", "classic", False),
            ("no-queens", "french", False),
            ("no-last-two", "classic", False),
        ],
    )
    def test_which_contracts(self, contract: str, rules: str, restricted: bool) -> None:
        g = make_game(contract, rules=rules)
        d = deal(self.POS)
        assert is_legal(d, g, "H2") is not restricted
        assert is_legal(d, g, "SA")

    def test_error_message(self) -> None:
        g = make_game("no-hearts")
        d = deal(self.POS)
        assert names(legal_cards(d, g)) == ["SA"]
        with pytest.raises(
            IllegalPlayError,
            match=r"^trick 12: N may not lead a heart while holding another suit, cannot lead H2$",
        ):
            check_card(d, g, "H2")

    def test_hearts_only_may_lead_hearts(self) -> None:
        g = make_game("no-hearts")
        d = deal("N:.A2.. QJ... T9... 87...")
        assert names(legal_cards(d, g)) == ["HA", "H2"]

    def test_later_trick_leader(self) -> None:
        g = make_game("no-hearts")
        d = deal("N:Q.2.. J.3.. T.4.. K.5..")
        for c in ("SQ", "SJ", "ST", "SK"):
            play_card(d, g, c)
        assert d.leader == Seat.W and trick_number(d) == 13
        assert names(legal_cards(d, g)) == ["H5"]  # only hearts left: a heart lead is fine

    def test_following_with_hearts_is_free(self) -> None:
        g = make_game("no-hearts")
        d = deal("N:A.2.. .K3.. J.4.. T.5..", "N", "SA")
        assert names(legal_cards(d, g)) == ["HK", "H3"]


# -- the King of Hearts duty -----------------------------------------------------------


class TestKingDuty:
    def test_on_heart_lead(self) -> None:
        g = make_game("barbu", rules="french")
        d = deal("N:.2.A. .KQ.. A.3.. K.4..", "N", "H2")
        assert names(legal_cards(d, g)) == ["HK"]
        with pytest.raises(
            IllegalPlayError,
            match=r"^trick 12: E must play HK when hearts are led \(king of hearts duty\), "
            r"cannot play HQ$",
        ):
            check_card(d, g, "HQ")

    def test_on_first_discard(self) -> None:
        g = make_game("barbu", rules="french")
        d = deal("N:A.2.. .K.2. 2.3.. 3.4..", "N", "SA")
        assert names(legal_cards(d, g)) == ["HK"]
        with pytest.raises(
            IllegalPlayError,
            match=r"^trick 12: E must discard HK \(king of hearts duty\), cannot play D2$",
        ):
            check_card(d, g, "D2")

    def test_follow_suit_comes_first(self) -> None:
        g = make_game("barbu", rules="french")
        d = deal("N:A.2.. K.K.. 2.3.. 3.4..", "N", "SA")
        assert names(legal_cards(d, g)) == ["SK"]
        with pytest.raises(
            IllegalPlayError, match=r"^trick 12: E must follow suit, cannot play HK$"
        ):
            check_card(d, g, "HK")

    def test_leading_it_is_never_forced(self) -> None:
        g = make_game("barbu", rules="french")
        d = deal("N:A.K2.. Q.3..J T.4..Q 3.5..K")
        assert names(legal_cards(d, g)) == ["SA", "HK", "H2"]
        g = make_game("salad", rules="french")  # + heart lead rule: the K♥ may not be led
        assert names(legal_cards(d, g)) == ["SA"]

    def test_salad_has_both_rules(self) -> None:
        g = make_game("salad", rules="french")
        assert g.heart_lead and g.king_duty
        d = deal("N:A.2.. .K.2. 2.3.. 3.4..", "N", "SA")
        assert names(legal_cards(d, g)) == ["HK"]

    def test_classic_barbu_has_no_duty(self) -> None:
        g = make_game("barbu")
        d = deal("N:A.2.. .K.2. 2.3.. 3.4..", "N", "SA")
        assert names(legal_cards(d, g)) == ["HK", "D2"]
        d2 = deal("N:.2.A. .KQ.. A.3.. K.4..", "N", "H2")
        assert names(legal_cards(d2, g)) == ["HK", "HQ"]

    def test_king_duty_variant(self) -> None:
        g = make_game("barbu", variants=["king-duty"])
        d = deal("N:A.2.. .K.2. 2.3.. 3.4..", "N", "SA")
        assert names(legal_cards(d, g)) == ["HK"]
        assert not make_game("no-hearts", variants=["king-duty"]).king_duty

    def test_other_players_unaffected(self) -> None:
        g = make_game("barbu", rules="french")
        d = deal("N:.2.A. .KQ.. .A3.. .54..", "N", "H2", "HK")
        assert names(legal_cards(d, g)) == ["HA", "H3"]


# -- Trumps ---------------------------------------------------------------------------

# Trumps in spades, N leads.  N has hearts, E and S are void in hearts, W too.
TRUMPS_POS = "N:.54.3. 3..4.2 92..5. 4..6.3"


class TestTrumps:
    def test_leader_is_free(self) -> None:
        g = make_game("trumps", trump="S")
        d = deal("N:9.54.. 3..4.2 2.2.5. 4..6.3")
        assert names(legal_cards(d, g)) == ["S9", "H5", "H4"]

    def test_must_trump_when_void(self) -> None:
        g = make_game("trumps", trump="S")
        d = deal(TRUMPS_POS, "N", "H5")
        assert names(legal_cards(d, g)) == ["S3"]
        with pytest.raises(IllegalPlayError, match=r"^trick 11: E must trump, cannot play D4$"):
            check_card(d, g, "D4")

    def test_must_overtrump(self) -> None:
        g = make_game("trumps", trump="S")
        d = deal(TRUMPS_POS, "N", "H5", "S3")
        assert names(legal_cards(d, g)) == ["S9"]
        with pytest.raises(IllegalPlayError, match=r"^trick 11: S must overtrump, cannot play S2$"):
            check_card(d, g, "S2")
        with pytest.raises(IllegalPlayError, match=r"^trick 11: S must overtrump, cannot play D5$"):
            check_card(d, g, "D5")

    def test_may_play_anything_when_unable_to_overtrump(self) -> None:
        g = make_game("trumps", trump="S")
        d = deal(TRUMPS_POS, "N", "H5", "S3", "S9")
        assert names(legal_cards(d, g)) == ["S4", "D6", "C3"]
        t = play_card(d, g, "D6")
        assert t is not None and t.winner == Seat.S  # the highest trump wins

    def test_trumps_led_must_head_the_trick(self) -> None:
        g = make_game("trumps", trump="S")
        d = deal("N:5.54.. 73.2.. 62.3.. 4.6.3.", "N", "S5")
        assert names(legal_cards(d, g)) == ["S7"]
        with pytest.raises(IllegalPlayError, match=r"^trick 11: E must overtrump, cannot play S3$"):
            check_card(d, g, "S3")
        with pytest.raises(
            IllegalPlayError, match=r"^trick 11: E must follow suit, cannot play H2$"
        ):
            check_card(d, g, "H2")
        play_card(d, g, "S7")
        # S holds no trump above the S7: any trump, but still a trump.
        assert names(legal_cards(d, g)) == ["S6", "S2"]
        with pytest.raises(
            IllegalPlayError, match=r"^trick 11: S must follow suit, cannot play H3$"
        ):
            check_card(d, g, "H3")
        play_card(d, g, "S2")
        assert names(legal_cards(d, g)) == ["S4"]  # cannot beat the S7: any trump

    def test_trumps_led_void_plays_anything(self) -> None:
        g = make_game("trumps", trump="S")
        d = deal("N:5.5.. .32.. 6.4.. 4.6..", "N", "S5")
        assert names(legal_cards(d, g)) == ["H3", "H2"]

    def test_no_duty_to_play_high_on_a_plain_suit(self) -> None:
        g = make_game("trumps", trump="S")
        d = deal("N:.5.3. 3..4. .A2.. .K..6", "N", "H5")
        play_card(d, g, "S3")  # E trumps (forced)
        assert names(legal_cards(d, g)) == ["HA", "H2"]  # S follows, high or low
        d = deal("N:.5.3. .43.. .A2.. .K..6", "N", "H5", "H4")
        assert names(legal_cards(d, g)) == ["HA", "H2"]

    def test_free_trumping(self) -> None:
        g = make_game("trumps", trump="S", variants=["free-trumping"])
        assert g.trump == Suit.S and not g.trump_duties
        d = deal(TRUMPS_POS, "N", "H5")
        assert names(legal_cards(d, g)) == ["S3", "D4", "C2"]
        play_card(d, g, "S3")
        assert names(legal_cards(d, g)) == ["S9", "S2", "D5"]
        d = deal("N:5.54.. 73.2.. 62.3.. 4.6.3.", "N", "S5")
        assert names(legal_cards(d, g)) == ["S7", "S3"]  # but still follow suit
        with pytest.raises(IllegalPlayError, match="must follow suit"):
            check_card(d, g, "H2")

    def test_trick_winners(self) -> None:
        g = make_game("trumps", trump="H")
        d = deal("N:A.3.. K.2.. Q.5.. J.4..", "N")
        scores = play_out(d, g, ["SA", "SK", "SQ", "SJ"])
        assert scores == (5, 0, 0, 0)
        d = deal("N:A.3.. .2..K .5.Q. J.4..", "N")
        # E trumps with the H2, S overtrumps with the H5, W follows suit: S wins.
        assert play_out(d, g, ["SA", "H2", "H5", "SJ"]) == (0, 0, 5, 0)
        # The same cards without trumps: the ace of the suit led wins.
        assert play_out(d, make_game("no-tricks"), ["SA", "CK", "DQ", "SJ"]) == (-2, 0, 0, 0)

    def test_bridge_tricks_free_trumping(self) -> None:
        g = make_game("tricks", rules="bridge", trump="S")
        assert not g.trump_duties
        d = deal(TRUMPS_POS, "N", "H5")
        assert names(legal_cards(d, g)) == ["S3", "D4", "C2"]


# -- trick numbers and scores ---------------------------------------------------------


class TestTrickNumbers:
    def test_ending_numbers(self) -> None:
        g = make_game("no-tricks")
        d = deal("N:AKQ... JT9... 876... 543...")
        assert trick_number(d) == 11
        play_card(d, g, "SA")
        assert trick_number(d) == 11
        for c in ("SJ", "S8", "S5"):
            play_card(d, g, c)
        assert trick_number(d) == 12

    def test_full_deal_starts_at_one(self) -> None:
        d = random_full(1)
        assert trick_number(d) == 1

    def test_over(self) -> None:
        g = make_game("no-tricks")
        d = deal("N:A... K... Q... J...")
        play_out_in_place(d, g, ["SA", "SK", "SQ", "SJ"])
        assert trick_number(d) == 14

    def test_unequal_hands(self) -> None:
        with pytest.raises(InvalidPositionError, match="hands of unequal size: N 2, E 1, S 1, W 1"):
            trick_number(deal("N:AK... Q... J... T..."))
        with pytest.raises(InvalidPositionError, match="hands of unequal size: N 3, E 1, S 2, W 2"):
            trick_number(deal("N:AKQ... J... T9... 87..."))
        # E led the SA, so E should hold one card fewer than N.
        d = Deal("N:K... QJ... T9... 87...", leader="E")
        d.trick.append(parse_card("SA"))
        with pytest.raises(InvalidPositionError, match="hands of unequal size"):
            trick_number(d)
        d.leader = Seat.N
        assert trick_number(d) == 12

    def test_midtrick_with_other_leader(self) -> None:
        d = Deal("N:AK... QJ... 65... T9...", leader="W")
        d.play(parse_card("ST"))
        assert trick_number(d) == 12


def play_out_in_place(d: Deal, g: Game, cards: list[str]) -> None:
    for c in cards:
        play_card(d, g, c)


def random_full(seed: int) -> Deal:
    rng = random.Random(seed)
    cards = list(range(64))
    cards = [c for c in cards if BB_ALL >> c & 1]
    rng.shuffle(cards)
    hands = [0, 0, 0, 0]
    for i, c in enumerate(cards):
        hands[i % 4] |= 1 << c
    return Deal(hands, leader=Seat(rng.randrange(4)))


def random_playout(d: Deal, g: Game, rng: random.Random) -> list[int]:
    d = d.copy()
    seq = []
    while any(d.masks) or d.trick:
        legal = legal_cards(d, g)
        assert legal, "a seat to move always has a legal card"
        c = rng.choice(legal)
        play_card(d, g, c)
        seq.append(c)
    return seq


class TestScoring:
    def test_trick_value(self) -> None:
        g = make_game("no-hearts")
        assert trick_value(g, [C("HA"), C("H2"), C("S2"), C("D2")], 1) == -8
        g = make_game("no-last-two")
        assert trick_value(g, [C("HA"), C("H2"), C("S2"), C("D2")], 12) == -10
        assert trick_value(g, [C("HA"), C("H2"), C("S2"), C("D2")], 13) == -20
        assert trick_value(g, [C("HA"), C("H2"), C("S2"), C("D2")], 11) == 0
        with pytest.raises(ValueError, match="invalid trick number: 14"):
            trick_value(g, [], 14)

    def test_no_last_two_ending(self) -> None:
        g = make_game("no-last-two")
        d = deal("N:AKQ... JT9... 876... 543...")
        # A 3-card ending: N wins tricks 11 (0), 12 (-10) and 13 (-20).
        seq = ["SA", "S9", "S8", "S5", "SQ", "SJ", "S7", "S4", "SK", "ST", "S6", "S3"]
        assert play_out(d, g, seq) == (-30, 0, 0, 0)
        # A 2-card ending: E wins trick 12 (-10), N trick 13 (-20).
        d = deal("N:AQ... K2... J3... T4...")
        assert trick_number(d) == 12
        assert play_out(d, g, ["SQ", "SK", "SJ", "ST", "S2", "S3", "S4", "SA"]) == (-20, -10, 0, 0)
        assert points_at_stake(d, g) == -30

    def test_partial_play_out(self) -> None:
        g = make_game("no-last-two")
        d = deal("N:AQ... K2... J3... T4...")
        assert play_out(d, g, ["SQ", "SK", "SJ", "ST", "S2"]) == (0, -10, 0, 0)
        assert play_out(d, g, []) == (0, 0, 0, 0)

    def test_play_out_illegal_card(self) -> None:
        g = make_game("no-hearts")
        d = deal("N:A.2.. Q.3.. J.4.. T.5..")
        with pytest.raises(
            IllegalPlayError, match=r"^trick 12: S must follow suit, cannot play H4$"
        ):
            play_out(d, g, ["SA", "SQ", "H4"])
        assert d.masks == deal("N:A.2.. Q.3.. J.4.. T.5..").masks  # a copy was played

    def test_salad_is_the_sum_of_five(self) -> None:
        salad = make_game("salad", rules="french")
        parts = [
            make_game(c, rules="french")
            for c in ("no-tricks", "no-hearts", "no-queens", "barbu", "no-last-two")
        ]
        rng = random.Random(7)
        for _ in range(5):
            d = random_full(rng.randrange(10**6))
            seq = random_playout(d, salad, rng)
            played = d.copy()
            for c in seq:
                played.play(c)
            total = score_tricks(salad, played.tricks, 1)
            by_part = [score_tricks(g, played.tricks, 1) for g in parts]
            assert total == tuple(sum(p[s] for p in by_part) for s in range(4))
            assert sum(total) == -500
        # The seed's example: the Q♥ in the second-to-last trick.
        t = [C("HQ"), C("S2"), C("S3"), C("S4")]
        assert trick_value(salad, t, 12) == -10 - 10 - 20 - 30

    @pytest.mark.parametrize(
        ("contract", "rules", "trump", "total"),
        [
            ("no-tricks", "classic", None, -26),
            ("no-hearts", "classic", None, -30),
            ("no-queens", "classic", None, -24),
            ("barbu", "classic", None, -20),
            ("no-last-two", "classic", None, -30),
            ("trumps", "classic", "H", 65),
            ("ravage", "classic", None, -36),
            ("salad", "french", None, -500),
            ("barbu", "french", None, -80),
            ("no-hearts", "french", None, -130),
        ],
    )
    def test_full_play_out_adds_to_total(
        self, contract: str, rules: str, trump: str | None, total: int
    ) -> None:
        g = make_game(contract, rules=rules, trump=trump)
        rng = random.Random(f"{contract}/{rules}")
        for _ in range(3):
            d = random_full(rng.randrange(10**6))
            assert points_at_stake(d, g) == total
            seq = random_playout(d, g, rng)
            assert len(seq) == 52
            scores = play_out(d, g, seq)
            assert sum(scores) == total == g.total
            assert all(isinstance(s, int) for s in scores)

    def test_classic_totals_add_to_zero(self) -> None:
        rng = random.Random(3)
        d = random_full(11)
        grand: int | Fraction = 0
        for contract, trump in (
            ("no-tricks", None),
            ("no-hearts", None),
            ("no-queens", None),
            ("barbu", None),
            ("no-last-two", None),
            ("trumps", "C"),
        ):
            g = make_game(contract, trump=trump)
            grand += sum(play_out(d, g, random_playout(d, g, rng)))
        grand += sum(make_game("dominoes", start="9").places)
        assert grand == 0


class TestRavage:
    G = make_game("ravage")

    @staticmethod
    def trick(cards: str, winner: Seat) -> Trick:
        cs = [C(x) for x in cards.split()]
        return Trick(Seat.N, (cs[0], cs[1], cs[2], cs[3]), winner)

    def test_one_loser(self) -> None:
        t = [self.trick("S2 S3 S4 S5", Seat.E), self.trick("H2 D3 C4 S6", Seat.W)]
        assert score_tricks(self.G, t, 12) == (0, -36, 0, 0)

    def test_shares(self) -> None:
        spades = self.trick("S2 S3 S4 S5", Seat.N)
        hearts = self.trick("H2 H3 H4 H5", Seat.E)
        diamonds = self.trick("D2 D3 D4 D5", Seat.S)
        clubs = self.trick("C2 C3 C4 C5", Seat.W)
        assert score_tricks(self.G, [spades, hearts], 12) == (-18, -18, 0, 0)
        assert score_tricks(self.G, [spades, hearts, diamonds], 11) == (-12, -12, -12, 0)
        assert score_tricks(self.G, [spades, hearts, diamonds, clubs], 10) == (-9, -9, -9, -9)

    def test_largest_suit_counts_not_total(self) -> None:
        # N wins 8 cards but at most 3 of a suit; E wins 4 spades.
        t = [
            self.trick("H2 H3 H4 D2", Seat.N),
            self.trick("D3 D4 C2 C3", Seat.N),
            self.trick("S2 S3 S4 S5", Seat.E),
        ]
        assert score_tricks(self.G, t, 11) == (0, -36, 0, 0)
        t[2] = self.trick("S2 S3 S4 C5", Seat.E)  # now 3 and 3: shared
        assert score_tricks(self.G, t, 11) == (-18, -18, 0, 0)

    def test_fraction_when_not_whole(self) -> None:
        g = dataclasses.replace(self.G, scoring=ContractScale(penalty=-10))
        t = [
            self.trick("S2 S3 S4 S5", Seat.N),
            self.trick("H2 H3 H4 H5", Seat.E),
            self.trick("D2 D3 D4 D5", Seat.S),
        ]
        assert score_tricks(g, t, 11) == (Fraction(-10, 3), Fraction(-10, 3), Fraction(-10, 3), 0)

    def test_no_tricks_no_score(self) -> None:
        assert score_tricks(self.G, [], 14) == (0, 0, 0, 0)

    def test_play_out(self) -> None:
        d = deal("N:A.2.. 2.A.. 3.3.. 4.4..")
        assert play_out(d, self.G, ["SA", "S2", "S3", "S4", "H2", "HA", "H3", "H4"]) == (
            -18,
            -18,
            0,
            0,
        )

    def test_bad_numbers(self) -> None:
        with pytest.raises(ValueError, match="invalid trick numbers"):
            score_tricks(make_game("no-tricks"), [self.trick("S2 S3 S4 S5", Seat.N)] * 2, 13)


# -- Dominoes -------------------------------------------------------------------------


def hands(*pbn: str) -> list[int]:
    return [hand_from_pbn(h) if h else 0 for h in pbn]


class TestLayout:
    def test_from_cards(self) -> None:
        lay = Layout.from_cards(hand_from_pbn("JT9.9..AKQJT98765432"), Rank.R9)
        assert lay.runs == ((Rank.R9, Rank.J), (Rank.R9, Rank.R9), None, (Rank.R2, Rank.A))
        assert lay.mask == hand_from_pbn("JT9.9..AKQJT98765432")
        assert names(list_cards(lay.playable)) == ["SQ", "S8", "HT", "H8", "D9"]
        assert str(lay) == "S:9-J H:9 D:- C:2-A"

    def test_broken_runs_raise(self) -> None:
        with pytest.raises(
            InvalidPositionError,
            match=r"invalid layout: the spades on the table \(J9\) are not one unbroken run "
            r"containing the 9",
        ):
            Layout.from_cards(hand_from_pbn("J9..."), Rank.R9)
        with pytest.raises(InvalidPositionError, match=r"the hearts on the table \(JT\)"):
            Layout.from_cards(hand_from_pbn(".JT.."), Rank.R9)
        with pytest.raises(InvalidPositionError, match=r"does not contain the 9"):
            Layout(((Rank.T, Rank.J), None, None, None), Rank.R9)
        g = make_game("dominoes", start="9")
        # N holds the S9 but the S8 and ST are on the table.
        with pytest.raises(InvalidPositionError, match="the spades on the table"):
            DominoPosition.from_hands(hands("9...", "", "", ""), g, Seat.N)

    def test_low_aces(self) -> None:
        low = Layout.from_cards(hand_from_pbn("32A..."), Rank.R2, low_aces=True)
        assert low.runs[0] == (Rank.A, Rank.R3)
        spades = hand_from_pbn("AKQJT98765432...")
        assert names(list_cards(low.playable & spades)) == ["S4"]
        with pytest.raises(InvalidPositionError, match="not one unbroken run"):
            Layout.from_cards(hand_from_pbn("32A..."), Rank.R2)
        # With low aces nothing goes above the King; with high aces the Ace does.
        top = hand_from_pbn("KQJT9876543...")
        low = Layout.from_cards(top, Rank.R3, low_aces=True)
        assert names(list_cards(low.playable & spades)) == ["S2"]
        high = Layout.from_cards(top, Rank.R3)
        assert names(list_cards(high.playable & spades)) == ["SA", "S2"]
        # Starting from the Ace with low aces: the suit only builds up.
        lay = Layout.empty(Rank.A, low_aces=True).add(C("SA"))
        assert names(list_cards(lay.playable & hand_from_pbn("AKQJT98765432..."))) == ["S2"]

    def test_add_unplayable(self) -> None:
        with pytest.raises(IllegalPlayError, match="S8 is not playable"):
            Layout.empty(Rank.R9).add(C("S8"))


def list_cards(mask: int) -> list[int]:
    return list(iter_cards(mask))


class TestDominoes:
    G9 = make_game("dominoes", start="9")

    def seed_position(self) -> DominoPosition:
        # Anna (N) plays the 9♥, Ben (E) the 9♠, Carla (S) the 10♠ ...
        dan = hand_from_pbn("J8.T8.9432.95432")
        anna = hand_from_pbn("AK.9.AKQJ.AKQJT8")  # 13
        ben = hand_from_pbn("9765.AKQ76.T8.76")  # 13
        rest = BB_ALL & ~(dan | anna | ben)
        carla = rest
        assert carla >> C("ST") & 1 and carla.bit_count() == 13
        return DominoPosition.from_hands([anna, ben, carla, dan], self.G9, Seat.N)

    def test_seed_example(self) -> None:
        pos = self.seed_position()
        assert names(domino_moves(pos, self.G9)) == ["H9"]
        pos = domino_play(pos, self.G9, "H9")
        assert pos.to_move == Seat.E and names(domino_moves(pos, self.G9)) == ["S9"]
        pos = domino_play(pos, self.G9, "S9")
        assert names(domino_moves(pos, self.G9)) == ["ST"]
        pos = domino_play(pos, self.G9, "ST")
        assert pos.to_move == Seat.W
        assert sorted(names(domino_moves(pos, self.G9))) == sorted(
            ["H8", "HT", "S8", "SJ", "D9", "C9"]
        )

    def test_only_start_cards_on_an_empty_table(self) -> None:
        pos = self.seed_position()
        pos = DominoPosition(pos.hands, pos.layout, Seat.W)
        moves = domino_moves(pos, self.G9)
        assert names(moves) == ["D9", "C9"]
        pos = DominoPosition(pos.hands, pos.layout, Seat.E)
        assert names(domino_moves(pos, self.G9)) == ["S9"]

    def test_forced_pass(self) -> None:
        g = self.G9
        # Table: everything but S2..S8 and the S10..SA; W is out.
        pos = DominoPosition.from_hands(hands("765432...", "8...", "AKQJT...", ""), g, Seat.N)
        assert domino_moves(pos, g) == []
        with pytest.raises(IllegalPlayError, match=r"^dominoes: N cannot play S7, it does not fit"):
            domino_play(pos, g, "S7")
        with pytest.raises(IllegalPlayError, match=r"^dominoes: N does not hold S8$"):
            domino_play(pos, g, "S8")
        pos = domino_play(pos, g, None)
        assert pos.to_move == Seat.E
        with pytest.raises(IllegalPlayError, match=r"^dominoes: E must play \(S8\), cannot pass$"):
            domino_play(pos, g, None)
        pos = domino_play(pos, g, "S8")
        assert pos.order == (Seat.E,)
        assert pos.to_move == Seat.S  # W is out and skipped after S
        assert names(domino_moves(pos, g)) == ["ST"]
        pos = domino_play(pos, g, "ST")
        assert pos.to_move == Seat.N and names(domino_moves(pos, g)) == ["S7"]

    def test_finishing_order_and_scores(self) -> None:
        g = self.G9
        pos = DominoPosition.from_hands(hands("2...", "A...", ".2..", ".A.."), g, Seat.E)
        assert pos.already_out == frozenset()
        pos = domino_play_out(pos, g, ["SA", "H2", "HA"])
        assert pos.order == (Seat.E, Seat.S, Seat.W)
        assert domino_finished(pos)
        assert domino_places(pos) == (4, 1, 2, 3)
        assert domino_scores(g, domino_places(pos)) == (-5, 45, 20, 5)
        with pytest.raises(IllegalPlayError, match="the deal is over"):
            domino_play(pos, g, "S2")
        assert domino_moves(pos, g) == []

    def test_already_out_seats_have_no_place(self) -> None:
        g = make_game("reussite", rules="french")
        pos = DominoPosition.from_hands(hands("Q...", "", "K...", "A..."), g, Seat.E)
        assert pos.already_out == frozenset({Seat.E})
        assert pos.to_move == Seat.S  # E has no cards: skipped
        assert not domino_finished(pos)
        with pytest.raises(InvalidPositionError, match="not over"):
            domino_places(pos)
        pos = domino_play_out(pos, g, ["pass", "pass", "SQ", "SK"])
        assert domino_places(pos) == (2, None, 3, 4)
        assert domino_scores(g, domino_places(pos)) == (20, None, 10, -10)

    def test_three_already_out_is_over(self) -> None:
        g = self.G9
        pos = DominoPosition.from_hands(hands("", "", "", "A..."), g, Seat.N)
        assert domino_finished(pos)
        assert domino_places(pos) == (None, None, None, 4)

    def test_low_aces_game(self) -> None:
        g = make_game("dominoes", start="2", variants=["low-aces"])
        high = make_game("dominoes", start="2")
        # Table: spades 2..Q.  With low aces the SA goes below the S2.
        h = hands("A...", "K...", ".A..", "")
        assert names(domino_moves(DominoPosition.from_hands(h, g, Seat.N), g)) == ["SA"]
        assert domino_moves(DominoPosition.from_hands(h, high, Seat.N), high) == []
        # Table: spades A..Q: a run with low aces only.
        h = hands("K...", ".A..", "", "")
        assert names(domino_moves(DominoPosition.from_hands(h, g, Seat.N), g)) == ["SK"]
        with pytest.raises(InvalidPositionError, match="not one unbroken run"):
            DominoPosition.from_hands(h, high, Seat.N)

    def test_ace_replays(self) -> None:
        g = make_game("dominoes", start="9", variants=["ace-replays"])
        h = hands("A.A.A.", "2...", ".2..", "..2.")
        pos = DominoPosition.from_hands(h, g, Seat.N)
        assert names(domino_moves(pos, g)) == ["SA", "HA", "DA"]
        after = domino_play(pos, g, "SA")
        assert after.to_move == Seat.N  # plays again at once
        after = domino_play_out(after, g, ["HA", "DA"])
        assert after.order == (Seat.N,) and after.to_move == Seat.E
        plain = make_game("dominoes", start="9")
        assert domino_play(pos, plain, "SA").to_move == Seat.E

    def test_ace_replay_when_unable(self) -> None:
        g = make_game("dominoes", start="9", variants=["ace-replays"])
        pos = DominoPosition.from_hands(hands("A.2..", "2...", ".3..", "..2."), g, Seat.N)
        after = domino_play(pos, g, "SA")
        assert after.to_move == Seat.E  # N holds only the H2, not playable yet
        pos = DominoPosition.from_hands(hands("A...", "2...", ".2..", "..2."), g, Seat.N)
        after = domino_play(pos, g, "SA")
        assert after.order == (Seat.N,) and after.to_move == Seat.E

    def test_not_a_dominoes_game(self) -> None:
        with pytest.raises(IllegalPlayError, match="no-tricks is not a dominoes contract"):
            DominoPosition.from_hands(
                hands("A...", "2...", ".2..", "..2."), make_game("no-tricks"), 0
            )

    def test_from_deal(self) -> None:
        d = Deal("N:A... 2... .2.. ..2.", leader="S")
        pos = DominoPosition.from_deal(d, self.G9)
        assert pos.to_move == Seat.S and pos.hands == tuple(d.masks)

    def test_bad_positions(self) -> None:
        g = self.G9
        pos = DominoPosition.from_hands(hands("A...", "2...", ".2..", "..2."), g, Seat.N)
        with pytest.raises(InvalidPositionError, match="neither held nor on the table"):
            DominoPosition((0, *pos.hands[1:]), pos.layout, Seat.E)
        with pytest.raises(InvalidPositionError, match="N is out but holds cards"):
            DominoPosition(pos.hands, pos.layout, Seat.N, (), frozenset({Seat.N}))
        with pytest.raises(InvalidPositionError, match="dealt twice"):
            DominoPosition.from_hands(hands("A...", "A...", "", ""), g, Seat.N)
        with pytest.raises(ValueError, match="invalid finishing place: 5"):
            domino_scores(g, [5, None, 1, 2])


def test_legal_mask_matches_legal_cards() -> None:
    g = make_game("salad", rules="french")
    d = deal("N:A.2.. .K.2. 2.3.. 3.4..", "N", "SA")
    assert list_cards(legal_mask(d, g)) == legal_cards(d, g)


# -- the engine against the rules written out again, on many random positions ---------


def spec_allows(hand: list[int], trick: list[int], card: int, g: Game) -> bool:
    """SPEC §2, sentence by sentence, on lists of cards (a second, independent reading)."""

    def suit(c: int) -> int:
        return c >> 4

    hk = C("HK")
    if card not in hand:
        return False
    if not trick:
        if g.heart_lead and suit(card) == Suit.H:
            return all(suit(c) == Suit.H for c in hand)
        return True
    led = suit(trick[0])
    following = [c for c in hand if suit(c) == led]
    if following:
        if suit(card) != led:
            return False
        if g.king_duty and led == Suit.H and hk in hand:
            return card == hk
        if g.trump_duties and led == g.trump:
            best = max(c for c in trick if suit(c) == g.trump)
            higher = [c for c in following if c > best]
            return card in higher if higher else True
        return True
    if g.king_duty and hk in hand:
        return card == hk
    if g.trump_duties and g.trump is not None:
        trumps = [c for c in hand if suit(c) == g.trump]
        if trumps:
            in_trick = [c for c in trick if suit(c) == g.trump]
            if not in_trick:
                return suit(card) == g.trump
            higher = [c for c in trumps if c > max(in_trick)]
            if higher:
                return card in higher
    return True


@pytest.mark.parametrize(
    ("contract", "rules", "trump", "variants"),
    [
        ("no-hearts", "classic", None, []),
        ("barbu", "classic", None, ["king-duty"]),
        ("barbu", "french", None, []),
        ("salad", "french", None, []),
        ("trumps", "classic", "S", []),
        ("trumps", "classic", "H", ["free-trumping"]),
        ("no-queens", "classic", None, []),
    ],
)
def test_engine_agrees_with_the_rules_text(
    contract: str, rules: str, trump: str | None, variants: list[str]
) -> None:
    g = make_game(contract, rules=rules, trump=trump, variants=variants)
    rng = random.Random(f"{contract}/{rules}/{trump}/{variants}")
    checked = refused = 0
    for _ in range(12):
        d = random_full(rng.randrange(10**6))
        while any(d.masks):
            seat = d.to_move
            hand = list(iter_cards(d.masks[seat]))
            legal = legal_cards(d, g)
            assert legal
            for c in hand:
                ok = spec_allows(hand, list(d.trick), c, g)
                assert (c in legal) == ok, (str(d), d.trick, card_name(c))
                if ok:
                    check_card(d, g, c)
                else:
                    refused += 1
                    with pytest.raises(IllegalPlayError, match=rf"^trick \d+: {seat.name} "):
                        check_card(d, g, c)
                checked += 1
            play_card(d, g, rng.choice(legal))
    assert checked > 300 and refused > 30
