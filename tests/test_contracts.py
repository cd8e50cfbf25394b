"""Contracts, rule sets, variants and scale files (SPEC §3)."""

from __future__ import annotations

from pathlib import Path

import pytest

from barbu_dd.cards import HA, HK, HQ, S2, SQ, Rank, Suit
from barbu_dd.contracts import (
    contracts_of,
    default_scale,
    find_contract,
    load_scale,
    make_game,
    parse_variants,
)
from barbu_dd.errors import ParseError


class TestNames:
    @pytest.mark.parametrize(
        ("alias", "name"),
        [
            ("no-king", "barbu"),
            ("No King of Hearts", "barbu"),
            ("salade", "salad"),
            ("domino", "dominoes"),
            ("Réussite", "reussite"),
            ("no_last_two", "no-last-two"),
            ("TRUMPS", "trumps"),
            ("ravage-city", "ravage"),
            ("bridge", "tricks"),
        ],
    )
    def test_aliases(self, alias: str, name: str) -> None:
        assert find_contract(alias).name == name

    def test_unknown_contract(self) -> None:
        with pytest.raises(ParseError, match="unknown contract: 'no-jacks'"):
            find_contract("no-jacks")

    def test_contract_not_in_rule_set(self) -> None:
        with pytest.raises(ParseError, match="'salad' is not played in the classic rule set"):
            find_contract("salad", "classic")
        with pytest.raises(ParseError, match="unknown rule set"):
            make_game("barbu", rules="german")

    def test_rule_sets(self) -> None:
        assert [c.name for c in contracts_of("classic")] == [
            "no-tricks",
            "no-hearts",
            "no-queens",
            "barbu",
            "no-last-two",
            "trumps",
            "dominoes",
        ]
        assert "ravage" in [c.name for c in contracts_of("classic", ["ravage-city"])]
        assert [c.name for c in contracts_of("bridge")] == ["tricks"]

    def test_variants(self) -> None:
        assert parse_variants(["free trumping", "Low_Aces", "ace-replay"]) == {
            "free-trumping",
            "low-aces",
            "ace-replays",
        }
        with pytest.raises(ParseError, match="unknown variant: 'jokers'"):
            parse_variants(["jokers"])


class TestGames:
    def test_classic_session_sums_to_zero(self) -> None:
        totals = [
            make_game(c.name, trump="S" if c.needs_trump else None).total
            for c in contracts_of("classic")
        ]
        assert totals == [-26, -30, -24, -20, -30, 65, 65]
        assert sum(totals) == 0

    def test_other_scores_sum_to_zero(self) -> None:
        vs = ["other-scores"]
        g = make_game("barbu", variants=vs)
        assert g.card_points[HK] == -15
        assert make_game("dominoes", variants=vs).places == (40, 20, 10, -10)
        games = [
            make_game(c.name, variants=vs, trump="S" if c.needs_trump else None)
            for c in contracts_of("classic")
        ]
        assert sum(g.total for g in games) == 0

    def test_french_scale(self) -> None:
        assert [make_game(c.name, rules="french").total for c in contracts_of("french")] == [
            -130,
            -130,
            -80,
            -80,
            -80,
            -500,
            65,
        ]

    def test_salad_is_the_sum_of_five(self) -> None:
        salad = make_game("salad", rules="french")
        parts = [
            make_game(n, rules="french")
            for n in ("no-tricks", "no-hearts", "no-queens", "barbu", "no-last-two")
        ]
        assert salad.card_points == tuple(sum(p.card_points[i] for p in parts) for i in range(64))
        assert salad.trick_points == tuple(sum(p.trick_points[i] for p in parts) for i in range(13))
        # a Queen of Hearts in the second-to-last trick: a trick, a heart, a queen, trick 12
        assert salad.card_points[HQ] == -30 and salad.trick_points[11] == -40

    def test_tables(self) -> None:
        g = make_game("no-hearts")
        assert g.card_points[HA] == -6 and g.card_points[HK] == -2 and g.card_points[SQ] == 0
        nl2 = make_game("no-last-two")
        assert nl2.trick_points[11:] == (-10, -20) and sum(nl2.trick_points[:11]) == 0
        assert make_game("no-tricks").trick_points == (-2,) * 13

    def test_duty_flags(self) -> None:
        assert make_game("barbu").heart_lead and not make_game("barbu").king_duty
        assert make_game("barbu", variants=["king-duty"]).king_duty
        fb = make_game("barbu", rules="french")
        assert fb.king_duty and not fb.heart_lead
        salad = make_game("salad", rules="french")
        assert salad.king_duty and salad.heart_lead
        assert make_game("trumps", trump="H").trump_duties
        assert not make_game("trumps", trump="H", variants=["free-trumping"]).trump_duties
        assert not make_game("tricks", rules="bridge", trump="S").trump_duties

    def test_trump_and_start(self) -> None:
        with pytest.raises(ParseError, match="needs a trump suit"):
            make_game("trumps")
        with pytest.raises(ParseError, match="has no trump suit"):
            make_game("barbu", trump="S")
        with pytest.raises(ParseError, match="invalid suit: 'X'"):
            make_game("trumps", trump="X")
        assert make_game("trumps", trump="♥").trump == Suit.H
        assert make_game("tricks", rules="bridge", trump="NT").trump is None
        assert make_game("dominoes", start="10").start == Rank.T
        assert make_game("reussite", rules="french").start == Rank.J
        with pytest.raises(ParseError, match="always starts from the Jacks"):
            make_game("reussite", rules="french", start="9")
        with pytest.raises(ParseError, match="has no starting rank"):
            make_game("barbu", start="9")


class TestScaleFiles:
    def test_shipped_files(self) -> None:
        for rules in ("classic", "french", "bridge"):
            assert default_scale(rules).rules == rules

    def test_user_scale(self, tmp_path: Path) -> None:
        f = tmp_path / "house.toml"
        f.write_text(
            'name = "house"\nrules = "classic"\n'
            "[contracts.no-hearts]\n"
            "cards = { hearts = -1, HA = -5, queens = -3 }\n"
            "per_trick = -1\n"
            'trick = { "13" = -4 }\n'
            "[contracts.dominoes]\nplaces = [50, 25, 0, -10]\n",
            encoding="utf-8",
        )
        sc = load_scale(f)
        g = make_game("no-hearts", scale=sc)
        # a card beats a rank, a rank beats a suit
        assert g.card_points[HA] == -5 and g.card_points[HQ] == -3 and g.card_points[SQ] == -3
        assert g.card_points[HK] == -1 and g.card_points[S2] == 0
        assert g.trick_points[12] == -5 and g.trick_points[0] == -1
        assert make_game("dominoes", scale=sc).places == (50, 25, 0, -10)
        # contracts the file leaves out keep the default
        assert make_game("barbu", scale=sc).card_points[HK] == -20
        assert make_game("barbu", scale=str(f)).card_points[HK] == -20

    def test_other_scores_fills_what_a_file_leaves_out(self, tmp_path: Path) -> None:
        # SPEC §3: the other-scores variant sets the K♥ to -15 and Dominoes to 40/20/10/-10;
        # a scale file of its own values for other contracts keeps them.
        f = tmp_path / "nt.toml"
        f.write_text("[contracts.no-tricks]\nper_trick = -3\n", encoding="utf-8")
        sc = load_scale(f)
        other = ["other-scores"]
        assert make_game("barbu", scale=sc, variants=other).card_points[HK] == -15
        assert make_game("dominoes", scale=sc, variants=other).places == (40, 20, 10, -10)
        assert make_game("no-tricks", scale=sc, variants=other).trick_points == (-3,) * 13
        assert make_game("barbu", scale=sc).card_points[HK] == -20
        # what the file gives stays, variant or not
        f.write_text("[contracts.barbu]\ncards = { HK = -30 }\n", encoding="utf-8")
        assert make_game("barbu", scale=load_scale(f), variants=other).card_points[HK] == -30

    def test_salad_made_of_the_files_parts(self, tmp_path: Path) -> None:
        # SPEC §3: the Salad is the five negative contracts at once, each at its own value.
        f = tmp_path / "fr.toml"
        f.write_text(
            'rules = "french"\n[contracts.no-hearts]\ncards = { hearts = -5 }\n', encoding="utf-8"
        )
        salad = make_game("salad", rules="french", scale=load_scale(f))
        assert salad.card_points[HQ] == -5 - 20 and salad.card_points[HK] == -5 - 80
        assert salad.card_points[SQ] == -20 and salad.total == -500 + 13 * 5
        assert salad.trick_points[12] == -10 - 50
        # combine names contracts in any order, the rule set's own or the file's
        f.write_text(
            'rules = "french"\n[contracts.salad]\ncombine = ["no-queens", "barbu"]\n'
            "[contracts.barbu]\ncards = { HK = -1 }\n",
            encoding="utf-8",
        )
        salad = make_game("salad", rules="french", scale=load_scale(f))
        assert salad.card_points[HK] == -1 and salad.card_points[SQ] == -20
        assert salad.total == -81

    @pytest.mark.parametrize(
        ("text", "message"),
        [
            ("[contracts.no-hearts\n", "bad scale file"),
            ("[contracts.no-jacks]\nper_trick = 1\n", "unknown contract: 'no-jacks'"),
            ("[contracts.barbu]\ncards = { XZ = -1 }\n", "'XZ' is not a card, suit, rank or 'all'"),
            ("[contracts.barbu]\nper_trick = 'a lot'\n", "expected a whole number"),
            ('[contracts.barbu]\ntrick = { "14" = -1 }\n', "trick number '14' is not 1..13"),
            ("[contracts.dominoes]\nplaces = [1, 2]\n", "must be a list of 4 numbers"),
            ("[contracts.barbu]\ncolour = 1\n", "unknown key 'colour'"),
            (
                "[contracts.salad]\ncombine = ['no-queens']\n",
                "'salad' is not played in the classic",
            ),
            (
                "[contracts.no-tricks]\ncombine = ['barbu']\n"
                "[contracts.barbu]\ncombine = ['no-tricks']\n",
                r"loop \(no-tricks -> barbu -> no-tricks\)",
            ),
            (
                "rules = 'bridge'\n[contracts.tricks]\ncombine = ['barbu']\n",
                "not played in the bridge",
            ),
            ("rules = 'german'\n", "unknown rule set"),
        ],
    )
    def test_bad_scale_files(self, tmp_path: Path, text: str, message: str) -> None:
        f = tmp_path / "bad.toml"
        f.write_text(text, encoding="utf-8")
        with pytest.raises(ParseError, match=message):
            load_scale(f)

    def test_missing_scale_file(self, tmp_path: Path) -> None:
        with pytest.raises(ParseError, match="cannot read scale file"):
            load_scale(tmp_path / "nope.toml")
