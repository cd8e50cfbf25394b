"""Seats, suits, ranks, cards and card sets (barbu_dd.cards)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from barbu_dd import cards
from barbu_dd.cards import (
    ALL_CARDS,
    BB_AH,
    BB_ALL,
    BB_CLUBS,
    BB_HEARTS,
    BB_KH,
    BB_QUEENS,
    BB_SPADES,
    BB_SUITS,
    CARD_NAMES,
    CardSet,
    Rank,
    Seat,
    Suit,
    card_name,
    card_rank,
    card_suit,
    hand_from_pbn,
    hand_to_pbn,
    iter_cards,
    make_card,
    parse_card,
    parse_rank,
    parse_seat,
    parse_suit,
    popcount,
)
from barbu_dd.errors import BarbuError, InvalidPositionError, ParseError


class TestSeat:
    def test_numbering(self) -> None:
        assert [int(s) for s in Seat] == [0, 1, 2, 3]
        assert [s.name for s in Seat] == ["N", "E", "S", "W"]

    @pytest.mark.parametrize(
        ("seat", "left", "right", "partner"),
        [
            (Seat.N, Seat.E, Seat.W, Seat.S),
            (Seat.E, Seat.S, Seat.N, Seat.W),
            (Seat.S, Seat.W, Seat.E, Seat.N),
            (Seat.W, Seat.N, Seat.S, Seat.E),
        ],
    )
    def test_neighbours(self, seat: Seat, left: Seat, right: Seat, partner: Seat) -> None:
        assert seat.left == left
        assert seat.right == right
        assert seat.partner == partner
        assert seat.left.right == seat

    def test_str(self) -> None:
        assert str(Seat.W) == "W"

    @pytest.mark.parametrize(
        ("text", "seat"),
        [("N", Seat.N), ("e", Seat.E), (" s ", Seat.S), ("West", Seat.W), ("NORTH", Seat.N)],
    )
    def test_parse(self, text: str, seat: Seat) -> None:
        assert parse_seat(text) == seat

    @pytest.mark.parametrize("text", ["", "X", "NE", "Nord"])
    def test_parse_bad(self, text: str) -> None:
        with pytest.raises(ParseError, match=f"invalid seat: {text!r}"):
            parse_seat(text)


class TestSuitRank:
    def test_suit_order_is_pbn(self) -> None:
        assert [s.name for s in Suit] == ["S", "H", "D", "C"]
        assert str(Suit.D) == "D"

    @pytest.mark.parametrize(
        ("text", "suit"),
        [("S", Suit.S), ("h", Suit.H), ("♦", Suit.D), ("♧", Suit.C), ("Hearts", Suit.H)],
    )
    def test_parse_suit(self, text: str, suit: Suit) -> None:
        assert parse_suit(text) == suit

    def test_parse_suit_bad(self) -> None:
        with pytest.raises(ParseError, match="invalid suit: 'X'"):
            parse_suit("X")

    def test_ranks(self) -> None:
        assert [int(r) for r in Rank] == list(range(13))
        assert "".join(str(r) for r in Rank) == "23456789TJQKA"

    @pytest.mark.parametrize(
        ("text", "rank"),
        [
            ("2", Rank.R2),
            ("t", Rank.T),
            ("T", Rank.T),
            ("10", Rank.T),
            ("a", Rank.A),
            ("q", Rank.Q),
        ],
    )
    def test_parse_rank(self, text: str, rank: Rank) -> None:
        assert parse_rank(text) == rank

    @pytest.mark.parametrize("text", ["1", "11", "0", "X", ""])
    def test_parse_rank_bad(self, text: str) -> None:
        with pytest.raises(ParseError, match=f"invalid rank: {text!r}"):
            parse_rank(text)


class TestCard:
    def test_layout(self) -> None:
        assert make_card(Suit.H, Rank.K) == 16 + 11
        assert card_suit(make_card(Suit.C, Rank.R2)) == Suit.C
        assert card_rank(make_card(Suit.C, Rank.A)) == Rank.A
        assert len(ALL_CARDS) == 52 == len(set(ALL_CARDS)) == len(CARD_NAMES)

    def test_constants(self) -> None:
        assert cards.SA == make_card(Suit.S, Rank.A)  # type: ignore[attr-defined]
        assert cards.C2 == make_card(Suit.C, Rank.R2)  # type: ignore[attr-defined]
        assert cards.HT == make_card(Suit.H, Rank.T)  # type: ignore[attr-defined]
        assert "DQ" in cards.__all__

    def test_masks(self) -> None:
        assert popcount(BB_ALL) == 52
        assert BB_SPADES | BB_HEARTS | BB_SUITS[2] | BB_CLUBS == BB_ALL
        assert list(iter_cards(BB_QUEENS)) == [parse_card(t) for t in ("SQ", "HQ", "DQ", "CQ")]
        assert BB_KH == 1 << parse_card("HK")
        assert BB_AH == 1 << parse_card("HA")

    @pytest.mark.parametrize(
        ("text", "name"),
        [
            ("SQ", "SQ"),
            ("qs", "SQ"),
            ("H10", "HT"),
            ("10h", "HT"),
            ("ht", "HT"),
            ("♥K", "HK"),
            ("K♥", "HK"),
            ("♣2", "C2"),
            (" da ", "DA"),
        ],
    )
    def test_parse_card(self, text: str, name: str) -> None:
        assert card_name(parse_card(text)) == name

    @pytest.mark.parametrize("text", ["", "S", "SX", "1H", "S1", "HS", "S11", "XQ", "QQ", "S 10"])
    def test_parse_card_bad(self, text: str) -> None:
        with pytest.raises(ParseError, match=f"invalid card: {text!r}"):
            parse_card(text)

    @given(st.sampled_from(ALL_CARDS))
    @settings(max_examples=100, deadline=None)
    def test_name_round_trip(self, card: int) -> None:
        name = card_name(card)
        assert parse_card(name) == card
        assert parse_card(name[::-1].lower()) == card

    @given(st.text(max_size=6))
    @settings(max_examples=100, deadline=None)
    def test_parse_card_any_text(self, text: str) -> None:
        try:
            c = parse_card(text)
        except BarbuError as e:
            assert isinstance(e, ParseError)
        else:
            assert c in ALL_CARDS


class TestHand:
    def test_round_trip(self) -> None:
        assert hand_to_pbn(hand_from_pbn("KQT2.AT.J6542.85")) == "KQT2.AT.J6542.85"
        assert hand_to_pbn(hand_from_pbn("k10.A..")) == "KT.A.."
        assert hand_to_pbn(hand_from_pbn("2AK.3.4.5")) == "AK2.3.4.5"
        assert hand_from_pbn("...") == 0

    def test_bad_card(self) -> None:
        with pytest.raises(ParseError, match=r"invalid card in hand 'AKX\.2\.3\.4': S'X'"):
            hand_from_pbn("AKX.2.3.4")

    @pytest.mark.parametrize("text", ["AK.2.3", "AK.2.3.4.5", ""])
    def test_bad_suit_count(self, text: str) -> None:
        with pytest.raises(ParseError, match="need 4 suits"):
            hand_from_pbn(text)

    def test_duplicate(self) -> None:
        with pytest.raises(InvalidPositionError, match="duplicate card in hand 'AA...': SA"):
            hand_from_pbn("AA...")
        with pytest.raises(InvalidPositionError, match="HT"):
            hand_from_pbn(".T10..")


class TestCardSet:
    def test_protocol(self) -> None:
        sa, sk, hq = parse_card("SA"), parse_card("SK"), parse_card("HQ")
        s = CardSet([sa, sk, hq])
        assert len(s) == 3
        assert sk in s and parse_card("C2") not in s
        assert "SA" not in s and 99 not in s and -1 not in s
        assert list(s) == [sa, sk, hq]
        assert bool(s) and not CardSet()
        assert int(s) == s.mask == (1 << sa) | (1 << sk) | (1 << hq)
        assert str(s) == "AK.Q.."
        assert repr(s) == "CardSet.from_pbn('AK.Q..')"

    def test_repr_round_trip(self) -> None:
        s = CardSet.from_pbn("AK.Q.T9.2")
        assert eval(repr(s), {"CardSet": CardSet}) == s

    def test_set_algebra(self) -> None:
        a = CardSet.from_pbn("AK.Q..")
        b = CardSet.from_pbn("K.QJ..2")
        assert a | b == CardSet.from_pbn("AK.QJ..2")
        assert a & b == CardSet.from_pbn("K.Q..")
        assert a - b == CardSet.from_pbn("A...")
        assert a.suit(Suit.H) == CardSet.from_pbn(".Q..")
        assert hash(a) == hash(CardSet.from_pbn("AK.Q.."))
        assert a != b and (a == 3) is False

    def test_from_int_masks_out_of_range_bits(self) -> None:
        assert CardSet(1 << 13) == CardSet()  # bit 13 is not a card

    @given(st.sets(st.sampled_from(ALL_CARDS)))
    @settings(max_examples=100, deadline=None)
    def test_pbn_round_trip(self, chosen: set[int]) -> None:
        s = CardSet(chosen)
        assert set(s) == chosen
        assert CardSet.from_pbn(str(s)) == s
        assert len(s) == len(chosen)
