"""Dominoes and Réussite: the compiled search against the reference, positions, API, CLI.

- Golden endings (``tests/data/dominoes_reference.json``, made by
  ``tests/data/make_dominoes_data.py`` with the exhaustive reference): every stored
  value, all seats, for each combo (classic, low Aces, ace replays, both, Réussite, an
  uneven scale).
- Live: fresh random endings solved by both (small sizes in the regular run; 1,000 in
  the ``slow`` run).
- Full deals: the four guaranteed places are consistent (Hall's condition: no two seats
  can both guarantee 1st place, no three the top two places...).
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from reference import domino_endings, random_domino_ending, ref_domino_values

from barbu_dd.cards import RANK_CHARS, Rank, Seat, hand_from_pbn, hand_to_pbn, parse_card
from barbu_dd.cli import app
from barbu_dd.contracts import Game, make_game
from barbu_dd.deal import Deal
from barbu_dd.errors import IllegalPlayError, InvalidPositionError, ParseError
from barbu_dd.play import DominoPosition
from barbu_dd.solver import Solver, StartChoice, best_start, solve

DATA = Path(__file__).parent / "data"
sys.path.insert(0, str(DATA))
from make_dominoes_data import COMBOS, combo_game  # noqa: E402

REFERENCE = json.loads((DATA / "dominoes_reference.json").read_text(encoding="utf-8"))

#: one solver for the whole module (small tables: the positions are small)
SOLVER = Solver(tt_bytes=8 << 20)

#: combos of the issue's four required kinds, plus extras, for live checks
LIVE_COMBOS = list(COMBOS)
GAME_7_REPLAYS = make_game("dominoes", start="7", variants=["ace-replays"])
GAME_A_LOW = make_game("dominoes", start="A", variants=["low-aces"])


def _solve_position(pos: DominoPosition, game: Game) -> tuple[int | None, ...]:
    deal = Deal(list(pos.hands))
    return SOLVER.solve(deal, game, declarer=pos.to_move).scores


def _random_game(rng: random.Random, combo: str) -> Game:
    return combo_game(combo, rng.choice(RANK_CHARS))


# -- golden endings ---------------------------------------------------------------


def _golden_ids() -> list[str]:
    return [f"{p['combo']}-{p['index']}" for p in REFERENCE["positions"]]


@pytest.mark.parametrize("combo", list(COMBOS))
def test_golden_endings(combo: str) -> None:
    positions = [p for p in REFERENCE["positions"] if p["combo"] == combo]
    assert len(positions) >= 100
    for p in positions:
        game = combo_game(combo, p["start"])
        deal = Deal([hand_from_pbn(h) for h in p["hands"]])
        sol = SOLVER.solve(deal, game, declarer=p["to_move"])
        assert list(sol.scores) == p["values"], (combo, p["index"], p["hands"], p["to_move"])


def test_golden_data_covers_the_issue() -> None:
    counts: dict[str, int] = {}
    big = 0
    for p in REFERENCE["positions"]:
        counts[p["combo"]] = counts.get(p["combo"], 0) + 1
        sizes = [len(h.replace(".", "")) for h in p["hands"]]
        big += max(sizes) >= 6
    for kind in ("classic", "low-aces", "ace-replays", "reussite"):
        assert counts[kind] >= 100
    assert big >= 4
    # some seats already out, every seat to move
    assert any(None in p["values"] for p in REFERENCE["positions"])
    assert {p["to_move"] for p in REFERENCE["positions"]} == {"N", "E", "S", "W"}


# -- live checks against the reference -----------------------------------------------


@pytest.mark.parametrize("combo", LIVE_COMBOS)
def test_live_small_endings(combo: str) -> None:
    rng = random.Random(hash(combo) & 0xFFFF)
    for _ in range(12):
        game = _random_game(rng, combo)
        pos = random_domino_ending(rng, game, sizes=(2, 4), max_out=2)
        assert _solve_position(pos, game) == ref_domino_values(pos, game), str(pos)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pos=domino_endings(GAME_7_REPLAYS, sizes=(1, 3), max_out=3))
def test_hypothesis_endings_ace_replays(pos: DominoPosition) -> None:
    game = GAME_7_REPLAYS
    assert _solve_position(pos, game) == ref_domino_values(pos, game)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pos=domino_endings(GAME_A_LOW, sizes=(1, 3), max_out=3))
def test_hypothesis_endings_low_aces(pos: DominoPosition) -> None:
    game = GAME_A_LOW
    assert _solve_position(pos, game) == ref_domino_values(pos, game)


@pytest.mark.slow
def test_thousand_live_endings() -> None:
    """1,000 fresh endings (250 for each of the issue's four kinds), all seats."""
    rng = random.Random(20260602)
    n = 0
    for combo in ("classic", "low-aces", "ace-replays", "reussite"):
        for i in range(250):
            game = _random_game(rng, combo)
            sizes = (3, 5) if i % 10 == 0 else (3, 4)
            pos = random_domino_ending(rng, game, sizes=sizes, max_out=2)
            assert _solve_position(pos, game) == ref_domino_values(pos, game), (combo, str(pos))
            n += 1
    assert n == 1000


# -- full deals ----------------------------------------------------------------------


def _places(sol_scores: tuple[int | None, ...], game: Game) -> list[int]:
    return [game.places.index(v) + 1 for v in sol_scores if v is not None]


def _consistent(places: list[int]) -> bool:
    """Hall's condition: the guarantees can all hold in one play-out."""
    return all(sum(p <= k for p in places) <= k for k in range(1, 5))


def _full_deal(rng: random.Random) -> str:
    cards = list(range(64))
    cards = [c for c in cards if c & 15 < 13]
    rng.shuffle(cards)
    hands = [sum(1 << c for c in cards[13 * k : 13 * k + 13]) for k in range(4)]
    return "N:" + " ".join(hand_to_pbn(h) for h in hands)


@pytest.mark.parametrize("seed", range(6))
def test_full_deals_consistent_places(seed: int) -> None:
    rng = random.Random(seed)
    deal = _full_deal(rng)
    for game in (
        make_game("reussite", rules="french"),
        make_game("dominoes", start=rng.choice("2AK"), variants=["ace-replays"]),
        make_game("dominoes", start="2", variants=["low-aces"]),
    ):
        decl = Seat(rng.randrange(4))
        sol = SOLVER.solve(deal, game, declarer=decl)
        assert sol.leader == decl
        assert all(v is not None for v in sol.scores)
        assert _consistent(_places(sol.scores, game)), (deal, game.describe(), sol.scores)


def test_consistency_check_itself() -> None:
    assert _consistent([1, 2, 3, 4]) and _consistent([4, 4, 4, 4]) and _consistent([1, 3, 3, 4])
    assert not _consistent([1, 1, 4, 4]) and not _consistent([2, 2, 1, 4])


def test_one_suit_each() -> None:
    # Every seat can always play (its whole suit is its own): the first to play wins.
    deal = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
    for decl, expect in (("N", (45, 20, 5, -5)), ("S", (5, -5, 45, 20))):
        assert solve(deal, "dominoes", start="9", declarer=decl).scores == expect
    assert solve(deal, "reussite", rules="french", declarer="E").scores == (-10, 45, 20, 10)


# -- positions and errors ------------------------------------------------------------


def test_ending_already_out_and_skipped_mover() -> None:
    # W is out; the declarer W has no cards, so N (next) moves.
    sol = solve("N:J... KQ... A... ...", "dominoes", start="9", declarer="W")
    assert sol.leader == Seat.N
    assert sol.scores == (20, 5, -5, None)
    assert sol.as_dict()["scores"] == {"N": 20, "E": 5, "S": -5, "W": None}


def test_three_out_the_last_is_fourth() -> None:
    sol = solve("N:... ... 2... ...", "dominoes", start="9", declarer="N")
    assert sol.scores == (None, None, -5, None)


def test_seats_option() -> None:
    sol = solve("N:J... KQ... A... ...", "dominoes", start="9", declarer="N", seats="NS")
    assert sol.scores == (20, None, -5, None)


def test_dealer_declares_declarer_starts() -> None:
    deal = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
    sol = solve(deal, "dominoes", start="5", declarer="E", variants=["dealer-declares"])
    assert sol.leader == Seat.E and sol.scores[Seat.E] == 45


def test_broken_layout_names_the_suit() -> None:
    with pytest.raises(InvalidPositionError, match="the hearts on the table"):
        solve("N:.K.. .3.. ... ...", "dominoes", start="9", declarer="N")
    # a run that misses the starting rank
    with pytest.raises(InvalidPositionError, match="containing the J"):
        solve("N:J... KQ... A... ...", "reussite", rules="french", declarer="N")


def test_bad_positions() -> None:
    with pytest.raises(InvalidPositionError, match="unknown"):
        solve("N:AK... - QJ... T...", "dominoes", start="9", declarer="N")
    with pytest.raises(InvalidPositionError, match="dealt twice"):
        solve("N:AK... A... ... ...", "dominoes", start="9", declarer="N")
    with pytest.raises(InvalidPositionError, match="no declarer"):
        solve("N:J... KQ... A... ...", "dominoes", start="9")
    d = Deal("N:J... K... Q... A...", leader="N")
    d.play(parse_card("SJ"))
    with pytest.raises(InvalidPositionError, match="no tricks"):
        solve(d, "dominoes", start="9", declarer="N")
    with pytest.raises(ParseError, match="no side"):
        solve("N:J... KQ... A... ...", "dominoes", start="9", declarer="N", side="NS")


def test_core_checks_its_input() -> None:
    from barbu_dd import _dominoes

    core = _dominoes.DominoSolver(1 << 16)
    h = hand_from_pbn
    code, detail, values, _ = core.solve_position(
        [h("AK..."), h("A..."), 0, 0], 0, 7, False, False, [45, 20, 5, -5]
    )
    assert _dominoes.ERRORS[code] == "duplicate" and values == []
    code, detail, values, _ = core.solve_position(
        [h(".K.."), h(".3.."), 0, 0], 0, 7, False, False, [45, 20, 5, -5]
    )
    assert _dominoes.ERRORS[code] == "layout" and detail == 1
    assert core.solve_position([0, 0, 0], 0, 7, False, False, [1, 2, 3, 4])[0] < 0


def test_not_a_dominoes_game() -> None:
    from barbu_dd import _dominoes
    from barbu_dd.dominoes import solve_dominoes

    with pytest.raises(IllegalPlayError):
        solve_dominoes(_dominoes.DominoSolver(1 << 16), "N:A... K... Q... J...", make_game("barbu"))


def test_clear_and_reuse() -> None:
    s = Solver(tt_bytes=1 << 20)
    a = s.solve("N:J... KQ... A... ...", "dominoes", start="9", declarer="N")
    s.clear()
    b = s.solve("N:J... KQ... A... ...", "dominoes", start="9", declarer="N")
    assert a.scores == b.scores


# -- best starting rank --------------------------------------------------------------


def test_best_start_full_deal() -> None:
    rng = random.Random(7)
    deal = _full_deal(rng)
    c = SOLVER.best_start(deal, "S", variants=["ace-replays"])
    assert isinstance(c, StartChoice)
    assert len(c.scores) == 13 and set(c.scores) == set(Rank)
    assert c.score == max(c.scores.values()) == c.scores[c.start]
    assert c.start == c.best[0] and all(c.scores[r] == c.score for r in c.best)
    assert c.solution.scores[Seat.S] == c.score
    assert c.solution.game.start == c.start
    # each rank's score is the plain solve's
    for r in (Rank.R2, Rank.A, c.start):
        g = make_game("dominoes", start=r, variants=["ace-replays"])
        assert SOLVER.solve(deal, g, declarer="S", seats="S").scores[Seat.S] == c.scores[r]
    d = c.as_dict()
    assert d["declarer"] == "S" and len(d["start_scores"]) == 13  # type: ignore[arg-type]


def test_best_start_ending_tries_the_legal_ranks() -> None:
    c = best_start("N:J... KQ... A... ...", "N")
    assert [str(r) for r in c.scores] == list("23456789T")
    with pytest.raises(InvalidPositionError, match="has no cards"):
        best_start("N:J... KQ... A... ...", "W")


# -- CLI -----------------------------------------------------------------------------

PBN = """[Board "1"]
[Dealer "W"]
[Deal "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"]

[Board "2"]
[Dealer "N"]
[Deal "N:J... KQ... A... ..."]
"""


@pytest.fixture
def pbn_file(tmp_path: Path) -> Path:
    p = tmp_path / "dom.pbn"
    p.write_text(PBN, encoding="utf-8")
    return p


def _runner():  # type: ignore[no-untyped-def]
    from typer.testing import CliRunner

    return CliRunner()


def test_cli_dominoes_json(pbn_file: Path) -> None:
    args = ["solve", str(pbn_file), "--contract", "dominoes", "--start", "9", "--json"]
    r = _runner().invoke(app, args)
    assert r.exit_code == 0, r.output
    recs = [json.loads(line) for line in r.output.splitlines() if line.startswith("{")]
    assert recs[0]["scores"] == {"N": 45, "E": 20, "S": 5, "W": -5}
    assert recs[0]["start"] == "9" and recs[0]["declarer"] == "N"
    assert recs[1]["scores"] == {"N": 20, "E": 5, "S": -5, "W": None}  # E declares: passes
    assert recs[1]["leader"] == "E"


def test_cli_dominoes_text_and_variants(pbn_file: Path) -> None:
    r = _runner().invoke(
        app,
        [
            "solve",
            str(pbn_file),
            "-c",
            "dominoes",
            "--start",
            "5",
            "-V",
            "low-aces",
            "-V",
            "ace-replays",
            "--declarer",
            "S",
        ],
    )
    assert r.exit_code == 0, r.output
    assert "Dominoes from the 5" in r.output and "declarer S" in r.output


def test_cli_start_best(pbn_file: Path) -> None:
    args = ["solve", str(pbn_file), "-c", "dominoes", "--start", "best", "--json"]
    r = _runner().invoke(app, args)
    assert r.exit_code == 0, r.output
    recs = [json.loads(line) for line in r.output.splitlines() if line.startswith("{")]
    assert len(recs[0]["start_scores"]) == 13 and recs[0]["start"] == "2"
    assert recs[0]["scores"]["N"] == 45
    r = _runner().invoke(app, ["solve", str(pbn_file), "-c", "dominoes", "--start", "best"])
    assert r.exit_code == 0 and "Best start for N" in r.output


def test_cli_reussite(pbn_file: Path) -> None:
    r = _runner().invoke(
        app, ["solve", str(pbn_file), "--rules", "french", "--contract", "reussite", "--json"]
    )
    # board 2's table (spades 2-T) does not hold the Jack: an error for that board only
    assert r.exit_code == 1
    recs = [json.loads(line) for line in r.output.splitlines() if line.startswith("{")]
    assert recs[0]["scores"] == {"N": 45, "E": 20, "S": 10, "W": -10}
    assert "containing the J" in r.output


def test_cli_start_best_not_dominoes(pbn_file: Path) -> None:
    r = _runner().invoke(app, ["solve", str(pbn_file), "-c", "no-queens", "--start", "best"])
    assert r.exit_code == 1
    assert "error:" in r.output
