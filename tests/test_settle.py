"""Doubles, settlement, sessions and score sheets (settle.py, SPEC §6 and §7)."""

from __future__ import annotations

import copy
import json
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from barbu_dd.cards import Seat
from barbu_dd.cli import app
from barbu_dd.errors import BarbuError, IllegalPlayError, InvalidPositionError, ParseError
from barbu_dd.settle import (
    Doubles,
    Session,
    check_doubles,
    load_session,
    maximum_doubles,
    may_double,
    parse_doubles,
    parse_session,
    score_session,
    settle,
    turn_order,
)

N, E, S, W = Seat.N, Seat.E, Seat.S, Seat.W
ROOT = Path(__file__).resolve().parents[1]
CLASSIC = ROOT / "examples" / "session.toml"
FRENCH = ROOT / "examples" / "session-french.toml"
PLAYERS = ["Anna", "Ben", "Carla", "Dan"]


def classic_data() -> dict[str, Any]:
    """The example classic session as a fresh, mutable table."""
    return tomllib.loads(CLASSIC.read_text(encoding="utf-8"))


def french_data() -> dict[str, Any]:
    return tomllib.loads(FRENCH.read_text(encoding="utf-8"))


def seat_set(seats: frozenset[Seat]) -> set[str]:
    return {s.name for s in seats}


# -- doubling -----------------------------------------------------------------------


class TestSeedExample:
    """Anna (N) declares No Queens; Ben "maximum"; Carla doubles Anna; Dan passes;
    Anna redoubles Carla; play: Anna -6, Ben 0, Carla -6, Dan -12."""

    def test_doubles_as_called(self) -> None:
        d = parse_doubles(
            ["Ben:max", "Carla>Anna", "Dan:pass", "Anna>Carla"],
            declarer=N,
            contract="no-queens",
            players=PLAYERS,
        )
        assert d == Doubles([(E, N), (E, S), (E, W), (S, N), (N, S)])
        assert d.factor(N, S) == 2  # double and redouble
        assert d.factor(E, N) == 1
        assert d.factor(S, W) == 0
        assert d.describe(N) == "E>N,S,W S>N N>S"
        assert d.describe(N, PLAYERS) == "Ben>Anna,Carla,Dan Carla>Anna Anna>Carla"

    def test_settlement(self) -> None:
        d = Doubles.parse("E>N,S,W S>N N>S")
        after = settle((-6, 0, -6, -12), d)
        assert after == (-12, 24, -12, -24)
        assert sum(after) == -24  # the value of No Queens

    def test_score_sheet_row(self) -> None:
        sheet = score_session(load_session(CLASSIC))
        row = sheet.rows[0]
        assert row.scores == (-6, 0, -6, -12)
        assert row.settled == (-12, 24, -12, -24)
        assert row.running == (-12, 24, -12, -24)
        assert row.doubles_text == "E>N,S,W S>N N>S"


class TestSettle:
    def test_no_doubles(self) -> None:
        assert settle([-20, 0, 0, 0], Doubles()) == (-20, 0, 0, 0)

    def test_one_double(self) -> None:
        # E doubles N; E took 0, N took the K♥ (-20): E gains 20, N loses 20.
        assert settle([-20, 0, 0, 0], [(E, N)]) == (-40, 20, 0, 0)

    def test_double_and_redouble_is_twice(self) -> None:
        assert settle([-20, 0, 0, 0], [(E, N), (N, E)]) == (-60, 40, 0, 0)

    def test_direction_of_the_double_does_not_matter(self) -> None:
        assert settle([5, 30, 20, 10], [(E, S)]) == settle([5, 30, 20, 10], [(S, E)])

    def test_bad_scores(self) -> None:
        with pytest.raises(ParseError, match="four whole numbers"):
            settle([1, 2, 3], Doubles())
        with pytest.raises(ParseError, match="four whole numbers"):
            settle([1, 2, 3, 4.5], Doubles())  # type: ignore[list-item]

    @given(
        st.lists(st.integers(-200, 200), min_size=4, max_size=4),
        st.sets(
            st.tuples(st.sampled_from(list(Seat)), st.sampled_from(list(Seat))).filter(
                lambda p: p[0] != p[1]
            )
        ),
    )
    def test_settling_keeps_the_sum(self, scores: list[int], pairs: set[tuple[Seat, Seat]]) -> None:
        after = settle(scores, Doubles(pairs))
        assert sum(after) == sum(scores)
        # each pair moves factor * difference
        expected = list(scores)
        for a in range(4):
            for b in range(4):
                if a != b:
                    expected[a] += ((a, b) in pairs) * (scores[a] - scores[b])
                    expected[a] += ((b, a) in pairs) * (scores[a] - scores[b])
        assert list(after) == expected


class TestDoublesRecord:
    def test_repr_round_trips(self) -> None:
        d = Doubles([(E, N), (S, N), (N, S)])
        assert eval(repr(d)) == d  # noqa: S307 - repr is a constructor
        assert repr(Doubles()) == "Doubles.parse('')"

    def test_self_double(self) -> None:
        with pytest.raises(IllegalPlayError, match="cannot double themselves"):
            Doubles([(N, N)])

    def test_targets_and_doublers(self) -> None:
        d = Doubles.parse("E>N,S,W S>N N>S")
        assert seat_set(d.targets(E)) == {"N", "S", "W"}
        assert seat_set(d.doublers(N)) == {"E", "S"}
        assert len(d) == 5

    def test_parse_errors(self) -> None:
        with pytest.raises(ParseError, match="invalid double"):
            Doubles.parse("E-N")
        with pytest.raises(ParseError, match="invalid seat"):
            Doubles.parse("E>X")


class TestDoublingRules:
    def test_order(self) -> None:
        assert [s.name for s in turn_order(N)] == ["E", "S", "W", "N"]
        assert [s.name for s in turn_order(W)] == ["N", "E", "S", "W"]
        # S has doubled: E's turn has passed
        assert not may_double(E, N, N, "no-queens", [(S, N)])
        with pytest.raises(IllegalPlayError, match="out of turn, S has already doubled"):
            check_doubles([(S, N), (E, N)], N, "no-queens")
        with pytest.raises(IllegalPlayError, match="out of turn"):
            parse_doubles(["E>N", "S>N", "E>W"], N, "no-hearts")  # E doubles twice
        with pytest.raises(IllegalPlayError, match="out of turn"):
            parse_doubles(["W>N", "E:max"], N, "no-hearts")
        # a table per doubler is put in turn order whatever its order
        d = parse_doubles({"N": "S", "S": "N"}, N, "no-queens")
        assert d == Doubles([(S, N), (N, S)])

    def test_each_pair_once(self) -> None:
        with pytest.raises(IllegalPlayError, match="E has already doubled N"):
            parse_doubles(["E>N", "E>N"], N, "barbu")

    def test_anyone_in_a_negative_contract(self) -> None:
        for target in (N, S, W):
            assert may_double(E, target, N, "no-tricks")
        # a later player redoubles an earlier one
        assert may_double(W, E, N, "no-tricks", [(E, W)])

    def test_declarer_only_redoubles(self) -> None:
        assert not may_double(N, S, N, "no-queens")
        assert may_double(N, S, N, "no-queens", [(S, N)])
        # S doubled W, not N: N still may not double S
        assert not may_double(N, S, N, "no-queens", [(S, W)])
        with pytest.raises(
            IllegalPlayError,
            match=r"the declarer N may only redouble players who doubled them, and S did not",
        ):
            check_doubles([(N, S)], N, "no-queens")
        with pytest.raises(IllegalPlayError, match=r"Anna \(N\) may only redouble"):
            parse_doubles(["Anna>Carla"], N, "no-queens", players=PLAYERS)

    @pytest.mark.parametrize(
        ("contract", "extra"), [("trumps", {}), ("dominoes", {}), ("reussite", {})]
    )
    def test_positive_contract(self, contract: str, extra: dict[str, Any]) -> None:
        assert may_double(E, N, N, contract)
        assert not may_double(E, S, N, contract)
        assert not may_double(W, E, N, contract, [(E, N)])
        # the declarer redoubles those who doubled them
        assert may_double(N, E, N, contract, [(E, N)])
        with pytest.raises(
            IllegalPlayError, match="a positive contract, only the declarer N may be doubled"
        ):
            check_doubles([(E, S)], N, contract)

    def test_maximum(self) -> None:
        assert seat_set(maximum_doubles(E, N, "no-queens")) == {"N", "S", "W"}
        assert seat_set(maximum_doubles(E, N, "trumps")) == {"N"}
        assert seat_set(maximum_doubles(E, N, "dominoes")) == {"N"}
        # the declarer's maximum: redouble everyone who doubled them
        assert seat_set(maximum_doubles(N, N, "no-queens", [(E, N), (W, N), (S, E)])) == {"E", "W"}
        assert maximum_doubles(N, N, "no-queens") == frozenset()
        # "maximum" leaves out who one has already doubled, and whose turn has passed
        assert seat_set(maximum_doubles(E, N, "no-queens", [(E, S)])) == {"N", "W"}
        assert maximum_doubles(E, N, "no-queens", [(S, N)]) == frozenset()
        d = parse_doubles(["E:max", "S:max", "W:max", "N:max"], N, "no-hearts")
        assert len(d) == 12  # everyone doubles everyone: all six pairs redoubled
        assert all(d.factor(a, b) == 2 for a in Seat for b in Seat if a != b)

    def test_only_double_declarer_variant(self) -> None:
        v = ["only-double-declarer"]
        assert may_double(E, N, N, "no-queens", variants=v)
        assert not may_double(E, S, N, "no-queens", variants=v)
        assert may_double(N, E, N, "no-queens", [(E, N)], variants=v)
        assert seat_set(maximum_doubles(E, N, "no-queens", variants=v)) == {"N"}
        with pytest.raises(
            IllegalPlayError, match="only-double-declarer variant, only the declarer N"
        ):
            check_doubles([(E, S)], N, "no-queens", variants=v)

    def test_doubles_text_forms(self) -> None:
        ref = Doubles([(E, N), (E, S), (S, N), (N, E)])
        assert parse_doubles("E>N,S S>N N>E", N, "barbu") == ref
        assert parse_doubles(["E>N, S", "S>N", "N>E"], N, "barbu") == ref
        assert parse_doubles({"N": ["E"], "E": ["N", "S"], "S": "N"}, N, "barbu") == ref
        assert parse_doubles(None, N, "barbu") == Doubles()
        with pytest.raises(ParseError, match="unknown player or seat: 'Zed'"):
            parse_doubles(["Zed>N"], N, "barbu", players=PLAYERS)
        with pytest.raises(ParseError, match="invalid double"):
            parse_doubles(["E N"], N, "barbu")


# -- sessions -----------------------------------------------------------------------


class TestClassicSession:
    def test_full_session_sums_to_zero(self) -> None:
        sheet = score_session(load_session(CLASSIC))
        assert sheet.complete and sheet.deals_played == sheet.deals_total == 28
        assert sum(sheet.totals) == 0
        assert sheet.totals == (-45, 190, 114, -259)
        assert sheet.rows[-1].running == sheet.totals
        assert sheet.winners == (E,) and sheet.winner_names == ("Ben",)
        assert not sheet.doubles_owed
        assert sum(1 for r in sheet.rows if r.doubles) == 17
        # every deal keeps its contract's total through the settling
        for r in sheet.rows:
            assert sum(r.settled) == sum(r.scores)

    def test_blocks_of_seven(self) -> None:
        sheet = score_session(load_session(CLASSIC))
        for block, seat in enumerate((N, E, S, W)):
            rows = sheet.rows[7 * block : 7 * block + 7]
            assert {r.declarer for r in rows} == {seat}
            assert len({r.contract for r in rows}) == 7

    def test_json(self) -> None:
        data = score_session(load_session(CLASSIC)).to_dict()
        json.dumps(data)
        assert data["winners"] == ["Ben"]
        assert data["deals"][0]["doubles"] == ["E>N", "E>S", "E>W", "S>N", "N>S"]
        assert data["deals"][3]["trump"] == "S"
        assert data["deals"][5]["start"] == "9"

    def test_partial_session(self) -> None:
        data = classic_data()
        data["deal"] = data["deal"][:9]  # Ben's block has begun: deals 8 and 9
        sheet = score_session(parse_session(data))
        assert not sheet.complete
        assert (sheet.deals_played, sheet.deals_total) == (9, 28)
        assert sheet.doubles_owed
        owed = {(o.player.name, o.owed) for o in sheet.owed}
        assert owed == {("W", 1)}  # Dan doubled Ben once so far; Carla and Anna twice
        assert all(o.declarer == E and o.deals_left == 5 for o in sheet.owed)
        assert sheet.winners == (N,)  # the leader so far

    def test_empty_session(self) -> None:
        data = classic_data()
        del data["deal"]
        sheet = score_session(parse_session(data))
        assert sheet.deals_played == 0 and sheet.winners == () and sheet.totals == (0, 0, 0, 0)

    def test_tie(self) -> None:
        data = {
            "players": PLAYERS,
            "deal": [{"declarer": "Anna", "contract": "no-last-two", "scores": [-10, -20, 0, 0]}],
        }
        assert score_session(parse_session(data)).winner_names == ("Carla", "Dan")

    def test_contract_named_twice(self) -> None:
        data = classic_data()
        data["deal"][1]["contract"] = "no-queens"
        data["deal"][1]["scores"] = [-6, -6, -6, -6]
        with pytest.raises(
            IllegalPlayError, match=r"deal 2: Anna \(N\) already named No Queens in deal 1"
        ):
            parse_session(data)

    def test_wrong_declarer_order(self) -> None:
        data = classic_data()
        data["deal"][7]["declarer"] = "Carla"  # after Anna comes Ben, on her left
        with pytest.raises(
            IllegalPlayError,
            match=r"deal 8: Carla \(S\) may not declare: "
            r"Ben \(E\), on the left of Anna \(N\), declares deals 8-14",
        ):
            parse_session(data)

    def test_declarer_changes_inside_a_block(self) -> None:
        data = classic_data()
        data["deal"][2]["declarer"] = "Ben"
        with pytest.raises(
            IllegalPlayError,
            match=r"deal 3: Ben \(E\) may not declare: Anna \(N\) declares deals 1-7",
        ):
            parse_session(data)

    def test_counter_clockwise_is_wrong(self) -> None:
        data = classic_data()
        for d in data["deal"][7:14]:
            d["declarer"] = "Dan"
        with pytest.raises(IllegalPlayError, match="deal 8: Dan"):
            parse_session(data)

    def test_scores_that_do_not_add_up(self) -> None:
        data = classic_data()
        data["deal"][0]["scores"] = [-6, 0, -6, -6]
        with pytest.raises(
            InvalidPositionError,
            match=r"deal 1: play scores \[-6, 0, -6, -6\] add up to -18, "
            r"but No Queens hands out -24",
        ):
            parse_session(data)

    def test_scores_no_play_can_give(self) -> None:
        # No Queens: each queen costs 6, so -5 and -7 are impossible though the total holds
        data = classic_data()
        data["deal"][0]["scores"] = [-5, -7, -6, -6]
        with pytest.raises(InvalidPositionError, match=r"deal 1: .*: -5 is no sum of the points"):
            parse_session(data)

    def test_scores_with_the_wrong_sign(self) -> None:
        data = classic_data()
        data["deal"][0]["scores"] = [6, -30, 0, 0]
        with pytest.raises(InvalidPositionError, match="deal 1: .* hands out only penalties"):
            parse_session(data)

    def test_dominoes_scores_are_places(self) -> None:
        data = classic_data()
        data["deal"][5]["scores"] = [40, 25, 5, -5]  # adds up to 65, but no such places
        with pytest.raises(
            InvalidPositionError, match=r"deal 6: .* not the finishing places \[45, 20, 5, -5\]"
        ):
            parse_session(data)

    def test_illegal_double_in_a_session(self) -> None:
        data = classic_data()
        data["deal"][3]["doubles"] = ["Ben>Carla"]  # Trumps
        with pytest.raises(
            IllegalPlayError,
            match=r"deal 4: illegal double Ben \(E\) > Carla \(S\): in Trumps, a positive contract",
        ):
            parse_session(data)
        data = classic_data()
        data["deal"][4]["doubles"] = ["Anna>Ben"]  # the declarer doubles first
        with pytest.raises(
            IllegalPlayError, match=r"deal 5: illegal double Anna \(N\) > Ben \(E\): the declarer"
        ):
            parse_session(data)

    def test_compulsory_doubles(self) -> None:
        data = classic_data()
        # Dan doubles Anna in deals 2, 3 and 7: keep only deal 2
        data["deal"][2]["doubles"] = {"Carla": "Anna"}
        data["deal"][6]["doubles"] = []
        with pytest.raises(
            IllegalPlayError,
            match=r"deal 7: Dan \(W\) doubled the declarer Anna \(N\) only once in deals 1-7, "
            r"but 2 doubles are compulsory",
        ):
            parse_session(data)
        # still in progress: not an error, reported as owed
        data["deal"] = data["deal"][:6]
        sheet = score_session(parse_session(data))
        assert [(o.player, o.owed, o.deals_left) for o in sheet.owed] == [(W, 1, 1)]

    def test_compulsory_doubles_setting(self) -> None:
        data = classic_data()
        for d in data["deal"]:
            d.pop("doubles", None)
        with pytest.raises(IllegalPlayError, match="deal 7: Ben .* never"):
            parse_session(data)
        data["compulsory_doubles"] = 0
        sheet = score_session(parse_session(data))
        assert sum(sheet.totals) == 0 and not sheet.doubles_owed
        data["compulsory_doubles"] = 8
        with pytest.raises(ParseError, match="compulsory_doubles must be 0..7"):
            parse_session(data)

    def test_too_many_deals(self) -> None:
        data = classic_data()
        data["deal"].append({"declarer": "Anna", "contract": "barbu", "scores": [0, 0, 0, -20]})
        with pytest.raises(IllegalPlayError, match="deal 29: the session is over after 28 deals"):
            parse_session(data)

    def test_ravage_city(self) -> None:
        data = classic_data()
        ravage = {"contract": "ravage", "scores": [-18, 0, -18, 0]}
        with pytest.raises(
            IllegalPlayError, match="deal 7: Ravage City is not played in this session"
        ):
            parse_session({**data, "deal": [*data["deal"][:6], {**ravage, "declarer": "Anna"}]})
        data["variants"] = ["ravage-city"]
        deals = data["deal"]
        data["deal"] = []
        for block, name in enumerate(PLAYERS):
            data["deal"] += deals[7 * block : 7 * block + 7] + [{**ravage, "declarer": name}]
        sheet = score_session(parse_session(data))
        assert sheet.complete and sheet.deals_total == 32
        assert [r.declarer for r in sheet.rows[7::8]] == [N, E, S, W]
        assert sum(sheet.totals) == 4 * -36  # Ravage City adds its penalty to the zero sum
        bad = copy.deepcopy(data)
        bad["deal"][7]["scores"] = [-30, 0, -6, 0]
        with pytest.raises(InvalidPositionError, match="deal 8: .* shared equally"):
            parse_session(bad)

    def test_other_scores_and_scale_files(self, tmp_path: Path) -> None:
        data = classic_data()
        data["deal"] = data["deal"][:3]
        data["variants"] = ["other-scores"]  # K♥ -15
        with pytest.raises(InvalidPositionError, match="deal 3: .* hands out -15"):
            parse_session(data)
        data["deal"][2]["scores"] = [0, 0, -15, 0]
        assert score_session(parse_session(data)).rows[2].settled == (15, 0, -30, 0)
        # a scale file, relative to the session file
        (tmp_path / "mine.toml").write_text(
            'rules = "classic"\n[contracts.barbu]\ncards = { HK = -40 }\n'
        )
        data["variants"] = []
        data["scale"] = "mine.toml"
        data["deal"][2]["scores"] = [0, 0, -40, 0]
        assert score_session(parse_session(data, base_dir=tmp_path)).scale == "mine"
        # a scale file with the other-scores variant: what the file leaves out (the
        # K♥) is the variant's
        (tmp_path / "nt.toml").write_text("[contracts.no-tricks]\nper_trick = -3\n")
        data["variants"] = ["other-scores"]
        data["scale"] = "nt.toml"
        data["deal"][2]["scores"] = [0, 0, -15, 0]
        assert score_session(parse_session(data, base_dir=tmp_path)).rows[2].settled == (
            15,
            0,
            -30,
            0,
        )
        data["variants"] = []
        (tmp_path / "fr.toml").write_text('rules = "french"\n')
        data["scale"] = "fr.toml"
        with pytest.raises(ParseError, match="is for the french rules"):
            parse_session(data, base_dir=tmp_path)

    @pytest.mark.parametrize(
        ("change", "message"),
        [
            ({"colour": "red"}, "unknown key 'colour'"),
            ({"players": ["Anna", "Ben", "Carla"]}, "players must be four names"),
            ({"players": ["Anna", "Ben", "anna", "Dan"]}, "player name given twice"),
            ({"players": ["Anna", "Ben", "S", "Dan"]}, "it is a seat name"),
            ({"rules": "bridge"}, "rules must be classic or french"),
            ({"format": "short"}, "unknown format 'short' for the classic rules"),
            ({"variants": ["jokers"]}, "unknown variant"),
        ],
    )
    def test_malformed_session(self, change: dict[str, Any], message: str) -> None:
        data = classic_data()
        data.update(change)
        with pytest.raises(ParseError, match=message):
            parse_session(data)

    @pytest.mark.parametrize(
        ("index", "change", "message"),
        [
            (0, {"contract": "no-spades"}, "deal 1: unknown contract: 'no-spades'"),
            (
                0,
                {"contract": "salad"},
                "deal 1: contract 'salad' is not played in the classic rule set",
            ),
            (3, {"trump": None}, "deal 4: contract 'trumps' needs a trump suit"),
            (5, {"start": None}, "deal 6: Dominoes needs a starting rank"),
            (0, {"scores": [-6, 0, -6]}, "deal 1: scores must be four whole numbers"),
            (0, {"scores": {"Anna": -6, "Ben": 0}}, "deal 1: scores needs all four players"),
            (0, {"declarer": "Zed"}, "deal 1: unknown player or seat: 'Zed'"),
            (0, {"doubles": ["Ben-Anna"]}, "deal 1: invalid double"),
            (0, {"lead": "SA"}, "deal 1: unknown key 'lead'"),
        ],
    )
    def test_malformed_deal(self, index: int, change: dict[str, Any], message: str) -> None:
        data = classic_data()
        for k, v in change.items():
            if v is None:
                data["deal"][index].pop(k, None)
            else:
                data["deal"][index][k] = v
        with pytest.raises(ParseError, match=message):
            parse_session(data)

    def test_load_errors(self, tmp_path: Path) -> None:
        with pytest.raises(ParseError, match="cannot read session file"):
            load_session(tmp_path / "missing.toml")
        bad = tmp_path / "bad.toml"
        bad.write_text("players = [\n")
        with pytest.raises(ParseError, match="bad session file"):
            load_session(bad)
        broken = tmp_path / "broken.toml"
        broken.write_text(
            CLASSIC.read_text(encoding="utf-8").replace("[-6, 0, -6, -12]", "[-6, 0, -6, -6]")
        )
        with pytest.raises(InvalidPositionError, match=r"broken\.toml: deal 1: play scores"):
            load_session(broken)

    def test_session_built_in_python(self) -> None:
        loaded = load_session(CLASSIC)
        again = Session(loaded.players, loaded.deals[:3])
        assert score_session(again).totals == (20, -22, -62, -10)
        # score_session checks a hand-built session too
        swapped = Session(loaded.players, (loaded.deals[0], loaded.deals[8]))
        with pytest.raises(IllegalPlayError, match="deal 2: Ben"):
            score_session(swapped)


class TestFrenchSession:
    def test_short_game_of_twelve_deals(self) -> None:
        session = load_session(FRENCH)
        assert (session.rules, session.format, session.length, session.per_declarer) == (
            "french",
            "short",
            12,
            3,
        )
        sheet = score_session(session)
        assert sheet.complete and sheet.deals_played == 12
        assert sheet.totals == (-500, -315, -445, -400)
        assert sheet.winner_names == ("Marc",)  # the least negative total
        assert sheet.rows[3].contract == "salad" and sum(sheet.rows[3].scores) == -500
        assert sheet.rows[1].contract == "reussite"
        assert not sheet.doubles_owed  # no compulsory doubles in the French rules

    def test_short_game_contract_twice(self) -> None:
        data = french_data()
        data["deal"][2] = {"declarer": "Élise", "contract": "no-hearts", "scores": [-130, 0, 0, 0]}
        with pytest.raises(
            IllegalPlayError, match=r"deal 3: Élise \(N\) already named No Hearts in deal 1"
        ):
            parse_session(data)

    def test_short_game_declarer_order(self) -> None:
        data = french_data()
        data["deal"][3]["declarer"] = "Élise"  # Élise has had her three deals
        with pytest.raises(
            IllegalPlayError, match=r"deal 4: Élise \(N\) may not declare: Marc \(E\)"
        ):
            parse_session(data)

    def test_french_scale_totals(self) -> None:
        data = french_data()
        data["deal"][3]["scores"] = [-130, -130, -80, -80]  # -420: a Salad is -500
        with pytest.raises(InvalidPositionError, match="deal 4: .* Salad hands out -500"):
            parse_session(data)

    def test_formats(self) -> None:
        data = french_data()
        data["format"] = "full"
        sheet = score_session(parse_session({**data, "deal": data["deal"][:3]}))
        assert (sheet.deals_total, sheet.complete) == (28, False)
        with pytest.raises(IllegalPlayError, match="deal 4: Marc .* may not declare: Élise"):
            parse_session(data)  # in the full game Élise declares seven deals
        data["format"] = "no-salad"
        sheet = score_session(parse_session({**data, "deal": data["deal"][:3]}))
        assert sheet.deals_total == 24
        salad_first = [{"declarer": "Élise", "contract": "salad", "scores": [-500, 0, 0, 0]}]
        with pytest.raises(IllegalPlayError, match="deal 1: Salad is not played in this session"):
            parse_session({**data, "deal": salad_first})
        data["format"] = "six"
        with pytest.raises(ParseError, match="unknown format 'six' for the french rules"):
            parse_session(data)

    def test_classic_contract_in_french(self) -> None:
        data = french_data()
        data["deal"][0] = {
            "declarer": "Élise",
            "contract": "trumps",
            "trump": "S",
            "scores": [65, 0, 0, 0],
        }
        with pytest.raises(
            ParseError, match="deal 1: contract 'trumps' is not played in the french rule set"
        ):
            parse_session(data)

    def test_doubles_in_french(self) -> None:
        data = french_data()
        data["deal"][1]["doubles"] = ["Marc>Élise", "Sophie>Marc"]  # Réussite is positive
        with pytest.raises(
            IllegalPlayError, match="deal 2: illegal double Sophie .* positive contract"
        ):
            parse_session(data)
        data["deal"][1]["doubles"] = ["Marc>Élise", "Élise>Marc"]
        sheet = score_session(parse_session(data))
        assert sheet.rows[1].settled == (20 + 60, -10 - 60, 45, 10)
        assert sum(sheet.totals) == -1660


# -- the command line ---------------------------------------------------------------

runner = CliRunner()


class TestScoreCommand:
    def test_table(self) -> None:
        result = runner.invoke(app, ["score", str(CLASSIC)])
        assert result.exit_code == 0, result.output
        assert "Winner: Ben (+190)" in result.output
        assert "Anna (N)" in result.output and "no-queens" in result.output

    def test_french(self) -> None:
        result = runner.invoke(app, ["score", str(FRENCH)])
        assert result.exit_code == 0, result.output
        assert "Winner: Marc" in result.output

    def test_json(self) -> None:
        result = runner.invoke(app, ["score", str(CLASSIC), "--json"])
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        assert data["winners"] == ["Ben"]
        assert data["totals"] == [-45, 190, 114, -259]
        assert len(data["deals"]) == 28

    def test_in_progress(self, tmp_path: Path) -> None:
        text = CLASSIC.read_text(encoding="utf-8")
        partial = tmp_path / "partial.toml"
        # the first two deals: Carla and Dan have doubled Anna once each
        partial.write_text(text[: text.index('[[deal]]\ndeclarer = "Anna"\ncontract = "barbu"')])
        result = runner.invoke(app, ["score", str(partial)])
        assert result.exit_code == 0, result.output
        assert "In progress: 2 of 28 deals." in result.output
        assert "Leading: Anna (0)" in result.output
        assert "Carla must still double Anna 1 more time(s) in the last 5 deal(s)" in result.output
        assert "Dan must still double Anna 1 more time(s)" in result.output

    def test_broken_session(self, tmp_path: Path) -> None:
        broken = tmp_path / "broken.toml"
        broken.write_text(
            CLASSIC.read_text(encoding="utf-8").replace('declarer = "Ben"', 'declarer = "Carla"', 1)
        )
        result = runner.invoke(app, ["score", str(broken)])
        assert result.exit_code == 1
        lines = [ln for ln in result.output.splitlines() if ln.strip()]
        assert len(lines) == 1 and lines[0].startswith("error: ")
        assert "deal 8: Carla (S) may not declare" in lines[0]
        assert "Traceback" not in result.output
        assert isinstance(result.exception, SystemExit)

    def test_missing_file(self, tmp_path: Path) -> None:
        result = runner.invoke(app, ["score", str(tmp_path / "nope.toml")])
        assert result.exit_code == 1
        assert result.output.startswith("error: cannot read session file")


def test_errors_are_barbu_errors() -> None:
    for cls in (ParseError, IllegalPlayError, InvalidPositionError):
        assert issubclass(cls, BarbuError) and issubclass(cls, ValueError)
