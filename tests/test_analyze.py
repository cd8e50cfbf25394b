"""The hand analyser (analyze.py, averages.py) and its commands: card values, the cost of
each card played, playouts, tables and the contract advice.

Hand-made positions with answers worked out by hand (a blunder that costs exactly the
K♥, a Trumps line with a ruff, a Dominoes block), and random endings checked against
the solver and the exhaustive reference (tests/reference.py).
"""

from __future__ import annotations

import json
import random
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from reference import random_domino_ending, random_ending, ref_domino_value, ref_trick_value
from typer.testing import CliRunner

from barbu_dd.analyze import (
    analyze,
    best_contract,
    board_record,
    parse_moves,
    pick_contract,
    playout,
    table,
)
from barbu_dd.averages import (
    contract_key,
    declarer_value,
    load_averages,
    make_averages,
    scaled_twins,
)
from barbu_dd.batch import table_contracts
from barbu_dd.cards import Seat, card_name, parse_card
from barbu_dd.cli import app
from barbu_dd.contracts import Game, make_game
from barbu_dd.deal import Deal
from barbu_dd.errors import IllegalPlayError, InvalidPositionError, ParseError
from barbu_dd.pbn import parse_pbn
from barbu_dd.play import (
    DominoPosition,
    domino_play,
    legal_cards,
    play_card,
    points_at_stake,
    trick_number,
    trick_value,
)
from barbu_dd.solver import Solver, solve

runner = CliRunner()

# N, void in spades, should discard the K♥ under W's winning S4 (trick 12); keeping it,
# N must win it in trick 13.  S declares and leads.
BLUNDER = "N:.K.A. 3.2.. Q2... 4.3.."
BLUNDER_PLAY = "S2 S4 DA S3 H3 HK H2 SQ"

# Trumps (♥), N leads: N wins the first spade trick, E (then void in spades) ruffs the
# second with its H2.  Every card of N ties; the lowest (SK) is played first.
TRUMPS = "N:AK... 2.2.. 43... ..32."
TRUMPS_LINE = ["SK", "S2", "S3", "D2", "SA", "H2", "S4", "D3"]

# Dominoes from the 9, W already out, E to move: HK blocks S (whose S2 waits for E's
# S3) and lets E go out next; S3 lets S out first.
BLOCK = "N:.A.2. 3.K.. 2... ..."


def run(*args: str) -> tuple[int, str, str]:
    r = runner.invoke(app, list(args))
    assert "Traceback" not in r.output
    return r.exit_code, r.stdout, r.stderr


def pbn_file(tmp_path: Path, text: str, name: str = "b.pbn") -> str:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)


# -- hand-made positions ----------------------------------------------------------------


def test_blunder_costs_exactly_the_king_of_hearts() -> None:
    a = analyze(BLUNDER, "barbu", declarer="S", play=BLUNDER_PLAY)
    assert [(p.name, p.seat, p.before, p.after, p.cost) for p in a.errors] == [
        ("DA", Seat.N, 0, -20, 20)
    ]
    (err,) = a.errors
    assert err.trick == 12 and err.number == 3
    assert [card_name(c) for c in err.better if c is not None] == ["HK"]
    assert a.costs == (20, 0, 0, 0) and a.total_cost == 20
    assert a.scores == (-20, 0, 0, 0) and a.position is None
    # Every card's guarantee: W's S4 before N's choice risks the K♥ (-20).
    assert [(p.before, p.after) for p in a.plays] == [
        (0, 0), (-20, -20), (0, -20), (0, 0), (0, 0), (-20, -20), (0, 0), (0, 0)
    ]  # fmt: skip


def test_blunder_card_values_and_view() -> None:
    a = analyze(BLUNDER, "barbu", declarer="S", play="S2 S4")
    pv = a.position
    assert pv is not None and pv.mover == Seat.N and pv.view == Seat.N
    assert pv.trick == 12 and [card_name(c) for c in pv.trick_cards] == ["S2", "S4"]
    assert {o.name: (o.value, o.best) for o in pv.options} == {
        "HK": (0, True),
        "DA": (-20, False),
    }
    # From W's point of view: N (one of the three against W) discards the K♥ on W.
    w = analyze(BLUNDER, "barbu", declarer="S", play="S2 S4", seat="W").position
    assert w is not None and w.view == Seat.W
    assert {o.name: (o.value, o.best) for o in w.options} == {
        "HK": (-20, True),
        "DA": (0, False),
    }
    assert w.value == -20


def test_trumps_line_with_a_ruff() -> None:
    p = playout(TRUMPS, "trumps", trump="H", declarer="N")
    assert [s.name for s in p.steps] == TRUMPS_LINE
    assert [(t.winner, [card_name(c) for c in t.cards]) for t in p.tricks] == [
        (Seat.N, TRUMPS_LINE[:4]),
        (Seat.E, TRUMPS_LINE[4:]),
    ]
    assert p.scores == (5, 5, 0, 0) and p.total == 10
    assert p.guarantees == (5, 5, 0, 0)
    assert [s.winner for s in p.steps if s.winner is not None] == [Seat.N, Seat.E]


def test_trumps_ruff_is_forced_and_named() -> None:
    # E, void in spades, must ruff N's SA: discarding D2 is illegal.
    d = "N:AK... .2.2. 43... ..43."
    with pytest.raises(IllegalPlayError, match=r"card 2 of the play: trick 12: E must trump"):
        analyze(d, "trumps", trump="H", declarer="N", play="SA D2")
    a = analyze(d, "trumps", trump="H", declarer="N", play="SA H2")
    assert a.position is not None and a.position.mover == Seat.S


def test_equal_cards_make_a_forced_move() -> None:
    # N's SK and SQ are one group of equal cards: whichever N plays is never an error,
    # however wide a time limit leaves its guarantee's bounds.
    a = analyze("N:KQ... 2.A.. 3.K.. 4.Q..", "no-tricks", declarer="N", play="SK")
    (p,) = a.plays
    assert p.forced and p.before == p.after and not p.error and p.decided
    a = analyze("N:KQ... 52... 3.K.. 4.Q..", "no-tricks", declarer="N", play="SQ S2")
    assert [p.forced for p in a.plays] == [True, False]


def test_ctrl_c_keeps_the_cards_analysed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    # Ctrl-C during an analysis returns the cards analysed so far; the command prints
    # them and exits with 130, naming how far it got.
    def stop_at(k: int):  # type: ignore[no-untyped-def]
        def on_progress(done: int, total: int) -> None:
            if done == k:
                raise KeyboardInterrupt

        return on_progress

    a = analyze(BLUNDER, "barbu", declarer="S", play=BLUNDER_PLAY, on_progress=stop_at(3))
    assert not a.complete and len(a.plays) == 3 and a.position is None and a.scores is None
    assert a.as_dict()["complete"] is False and [p.name for p in a.plays] == ["S2", "S4", "DA"]
    assert a.costs == (20, 0, 0, 0)  # the blunder is the third card
    whole = analyze(BLUNDER, "barbu", declarer="S", play=BLUNDER_PLAY)
    assert whole.complete and "complete" not in whole.as_dict()
    assert whole.plays[:3] == a.plays
    import barbu_dd.cli as cli

    real = cli.analysis.analyze
    monkeypatch.setattr(
        cli.analysis, "analyze", lambda *x, **kw: real(*x, **{**kw, "on_progress": stop_at(3)})
    )
    f = pbn_file(tmp_path, f'[Board "1"]\n[Dealer "E"]\n[Deal "{BLUNDER}"]\n')
    code, out, err = run("analyze", f, "-c", "barbu", "--play", BLUNDER_PLAY, "--json")
    assert code == 130 and json.loads(out)["complete"] is False
    assert "stops after 3 of 8 cards" in err
    code, out, err = run("analyze", f, "-c", "barbu", "--play", BLUNDER_PLAY)
    assert code == 130 and "Errors: 1" in out and "stops after 3 of 8" in err


def test_dominoes_block() -> None:
    p = playout(BLOCK, "dominoes", start="9", declarer="E")
    assert [s.name for s in p.steps] == ["HK", "pass", "D2", "S3", "S2"]
    assert [s.seat for s in p.steps] == [Seat.E, Seat.S, Seat.N, Seat.E, Seat.S]
    assert p.places == (4, 2, 3, None)
    assert p.scores == (-5, 20, 5, None) and p.total == 20
    a = analyze(BLOCK, "dominoes", start="9", declarer="E")
    assert a.position is not None
    assert {o.name: (o.value, o.best) for o in a.position.options} == {
        "S3": (5, False),
        "HK": (20, True),
    }
    # Not blocking costs E 15; the forced pass of S may be left out of the record.
    b = analyze(BLOCK, "dominoes", start="9", declarer="E", play="S3 S2 D2 HK")
    assert [(p.name, p.cost) for p in b.errors] == [("S3", 15)]
    assert b.costs == (0, 15, 0, 0) and b.scores == (-5, 5, 20, None)
    c = analyze(BLOCK, "dominoes", start="9", declarer="E", play="HK - D2")
    assert [p.name for p in c.plays] == ["HK", "pass", "D2"] and not c.errors
    d = analyze(BLOCK, "dominoes", start="9", declarer="E", play="HK D2")
    assert [p.name for p in d.plays] == ["HK", "pass", "D2"]  # the pass is implied


def test_dominoes_illegal_move_named() -> None:
    with pytest.raises(IllegalPlayError, match=r"move 2: dominoes: S must play|move 2: .*S2"):
        analyze(BLOCK, "dominoes", start="9", declarer="E", play="S3 pass")
    with pytest.raises(IllegalPlayError, match=r"move 1: dominoes: E cannot play SA|E does not"):
        analyze(BLOCK, "dominoes", start="9", declarer="E", play="SA")


def test_illegal_card_names_card_and_trick() -> None:
    with pytest.raises(IllegalPlayError, match=r"card 2 of the play: trick 12: W .*cannot play H3"):
        analyze(BLUNDER, "barbu", declarer="S", play="S2 H3")
    with pytest.raises(IllegalPlayError, match=r"card 9 of the play: SA comes after the end"):
        analyze(BLUNDER, "barbu", declarer="S", play=BLUNDER_PLAY + " SA")
    with pytest.raises(IllegalPlayError, match=r"trick 12: S does not hold HA"):
        analyze(BLUNDER, "barbu", declarer="S", play="HA")
    with pytest.raises(ParseError, match="invalid card"):
        analyze(BLUNDER, "barbu", declarer="S", play="S2 XX")
    with pytest.raises(IllegalPlayError, match="cannot pass"):
        analyze(BLUNDER, "barbu", declarer="S", play="-")


def test_parse_moves() -> None:
    assert parse_moves("sq,10h - PASS p") == [parse_card("SQ"), parse_card("HT"), None, None, None]
    assert parse_moves(["SQ", None, parse_card("C2")]) == [parse_card("SQ"), None, parse_card("C2")]


def test_board_record_trumps_order() -> None:
    # The PBN Play section has seat columns; trick winners (with trumps) give the order.
    text = f"""[Board "1"]
[Dealer "W"]
[Deal "{TRUMPS}"]
[Play "N"]
SK S2 S3 D2
SA H2 S4 D3
"""
    (board,) = parse_pbn(text)
    game = make_game("trumps", trump="H")
    found = board_record(board, game)
    assert found is not None
    d, moves = found
    assert d.leader == Seat.N and [card_name(m) for m in moves if m is not None] == TRUMPS_LINE
    with pytest.raises(ParseError, match="Play section starts with N"):
        board_record(board, game, declarer="E")


def test_ravage_small_lines() -> None:
    one = playout("N:A... K... Q... J...", "ravage", declarer="N", variants=["ravage-city"])
    assert one.scores == (-36, 0, 0, 0)
    # N's A♠ takes four spades, then W's 5♠ four more: N and W share the penalty
    a = analyze(
        "N:A2... K3... Q4... J5...",
        "ravage",
        declarer="N",
        variants=["ravage-city"],
        play="SA SK SQ SJ S2 S3 S4 S5",
    )
    assert a.scores == (-18, 0, 0, -18)


def _won_after(d: Deal) -> tuple[tuple[int, int, int, int], ...]:
    rows = [[0, 0, 0, 0] for _ in range(4)]
    for t in d.tricks:
        for c in t.cards:
            rows[t.winner][c >> 4] += 1
    return tuple((r[0], r[1], r[2], r[3]) for r in rows)


@pytest.mark.parametrize("seed", range(6))
def test_ravage_after_completed_tricks_matches_reference(seed: int) -> None:
    """Card values after completed tricks know the cards each seat has won."""
    from reference import _ravage, _whole

    rng = random.Random(7100 + seed)
    game = make_game("ravage", variants=["ravage-city"])
    d = random_ending(rng, 3)
    first = [legal_cards(d, game)[0]]
    probe = d.copy()
    play_card(probe, game, first[0])
    while probe.trick:
        c = legal_cards(probe, game)[-1]
        first.append(c)
        play_card(probe, game, c)
    text = " ".join(card_name(c) for c in first)
    a = analyze(d.to_pbn(), game, declarer=d.leader, play=text)
    mover = probe.to_move
    want = _whole(_ravage(probe.copy(), game, frozenset({mover}), _won_after(probe), {}))
    assert a.position is not None
    assert max(v for _, _, v in _options(a.position)) == want
    line = playout(d.to_pbn(), game, declarer=d.leader)
    assert sum(line.scores) == game.total
    assert all(s >= g for s, g in zip(line.scores, line.guarantees, strict=True))


def _options(pv):  # type: ignore[no-untyped-def]
    return [(o.card, o.equals, o.value) for o in pv.options]


# -- random endings: values against the solver and the reference ------------------------

TRICK_CONTRACTS = [
    ("no-tricks", "classic", None),
    ("no-hearts", "classic", None),
    ("no-queens", "classic", None),
    ("barbu", "french", None),
    ("no-last-two", "classic", None),
    ("trumps", "classic", "S"),
    ("salad", "french", None),
]


@pytest.mark.parametrize(("contract", "rules", "trump"), TRICK_CONTRACTS)
def test_card_values_equal_solver_after_the_card(
    contract: str, rules: str, trump: str | None
) -> None:
    rng = random.Random(f"values {contract}")
    game = make_game(contract, rules=rules, trump=trump)
    solver = Solver(1 << 22)
    for _ in range(4):
        deal = random_ending(rng, 4, bias="duties" if contract != "trumps" else "trumps")
        n_played = rng.randrange(4)
        line = _random_line(rng, deal, game, n_played)
        view = Seat(rng.randrange(4))
        a = analyze(deal, game, play=line, seat=view, solver=solver)
        pv = a.position
        assert pv is not None and pv.view == view
        d = deal.copy()
        for c in line:
            play_card(d, game, c)
        assert pv.value == solve(d, game, seats=(view,)).scores[view]
        for opt in pv.options:
            for c in opt.cards:
                assert c is not None
                after = d.copy()
                number = trick_number(after)
                t = play_card(after, game, c)
                got = trick_value(game, t.cards, number) if t and t.winner == view else 0
                rest = solve(after, game, seats=(view,)).scores[view] if any(after.masks) else 0
                assert opt.value == got + rest, (str(d), card_name(c))


def _random_line(rng: random.Random, deal: Deal, game: Game, n: int) -> list[int]:
    """``n`` random legal cards from ``deal`` (which is left as it is)."""
    d = deal.copy()
    out = []
    for _ in range(n):
        c = rng.choice(legal_cards(d, game))
        play_card(d, game, c)
        out.append(c)
    return out


def test_card_values_against_reference() -> None:
    rng = random.Random(5)
    for contract, rules, trump in TRICK_CONTRACTS:
        game = make_game(contract, rules=rules, trump=trump)
        deal = random_ending(rng, 3, bias="duties")
        a = analyze(deal, game)
        assert a.position is not None
        mover = a.position.mover
        for opt in a.position.options:
            d = deal.copy()
            number = trick_number(d)
            t = play_card(d, game, opt.card)  # type: ignore[arg-type]
            got = trick_value(game, t.cards, number) if t and t.winner == mover else 0
            assert opt.value == got + ref_trick_value(d, game, {mover})


def test_costs_add_up_on_random_plays() -> None:
    # Before/after chain: a player's guarantee moves only on its own errors.
    rng = random.Random(11)
    game = make_game("no-hearts")
    solver = Solver(1 << 22)
    for _ in range(3):
        deal = random_ending(rng, 4, bias="hearts")
        line = _random_line(rng, deal, game, 16)
        a = analyze(deal, game, play=line, solver=solver)
        assert a.scores is not None and a.position is None
        for p in a.plays:
            assert p.cost == max(0, p.before - p.after)
        start = solve(deal, game)
        for s in Seat:
            own = [p for p in a.plays if p.seat == s]
            first = own[0].before
            assert first >= start.scores[s]  # others' errors can only help
            assert a.scores[s] >= start.scores[s] - a.costs[s]


LIMITED_GAMES = [
    *((c, r, t, ()) for c, r, t in TRICK_CONTRACTS),
    ("ravage", "classic", None, ("ravage-city",)),
]


def _timeless(rec: dict[str, Any]) -> dict[str, Any]:
    """An analysis's JSON record without its times and time-limit fields."""
    out = {k: v for k, v in rec.items() if k not in ("seconds", "time_limit", "exact",
                                                    "undecided", "cost_bounds")}  # fmt: skip
    out["plays"] = [
        {k: v for k, v in p.items() if not k.endswith("_bounds") and k not in ("decided", "forced")}
        for p in rec["plays"]
    ]
    if rec["position"] is not None:
        pos = {k: v for k, v in rec["position"].items() if k != "bounds"}
        pos["cards"] = [{k: v for k, v in o.items() if k != "bounds"} for o in pos["cards"]]
        out["position"] = pos
    return out


@pytest.mark.parametrize(("contract", "rules", "trump", "variants"), LIMITED_GAMES)
def test_time_limited_analysis_holds_the_exact_one(
    contract: str, rules: str, trump: str | None, variants: tuple[str, ...]
) -> None:
    # Under a tiny time limit every guarantee and card value is an interval holding
    # the exact one, a proved error is an error, every exact cost lies in its
    # interval, and a decided move is decided right; with time to spare the analysis
    # is the exact one.
    rng = random.Random(f"limited {contract}")
    game = make_game(contract, rules=rules, trump=trump, variants=variants)
    bias = "trumps" if contract == "trumps" else "duties"
    for _ in range(2):
        deal = random_ending(rng, 6, bias=bias)
        line = _random_line(rng, deal, game, rng.randrange(4, 20))
        exact = analyze(deal, game, play=line, solver=Solver(1 << 22))
        tight = analyze(deal, game, play=line, solver=Solver(1 << 22), time_limit=1e-5)
        assert tight.time_limit == 1e-5 and exact.time_limit is None and exact.exact
        for e, t in zip(exact.plays, tight.plays, strict=True):
            assert e.before is not None and e.after is not None
            assert t.before_bounds is not None and t.after_bounds is not None
            assert t.before_bounds[0] <= e.before <= t.before_bounds[1]
            assert t.after_bounds[0] <= e.after <= t.after_bounds[1]
            assert t.before in (None, e.before) and t.after in (None, e.after)
            assert t.cost_bounds[0] <= e.cost <= t.cost_bounds[1] and t.cost <= e.cost
            assert not t.error or e.error
            assert not t.decided or t.error == e.error
            assert e.decided and e.cost_bounds == (e.cost, e.cost) and e.forced == t.forced
            if t.forced:  # the only legal card: never an error, however wide the bounds
                assert t.cost_bounds == (0, 0) and t.decided
        for s in Seat:
            lo, hi = tight.cost_bounds[s]
            assert tight.costs[s] == lo <= exact.costs[s] <= hi
        if exact.position is not None:
            assert tight.position is not None and tight.position.bounds is not None
            lo, hi = tight.position.bounds
            assert exact.position.value is not None and lo <= exact.position.value <= hi
            for eo, to in zip(exact.position.options, tight.position.options, strict=True):
                assert eo.cards == to.cards and to.bounds is not None
                assert eo.value is not None and to.bounds[0] <= eo.value <= to.bounds[1]
                assert not eo.best or to.best  # a best card is never ruled out
        loose = analyze(deal, game, play=line, solver=Solver(1 << 22), time_limit=60)
        assert loose.exact and not loose.undecided
        assert _timeless(loose.as_dict()) == _timeless(exact.as_dict())


@pytest.mark.parametrize(("contract", "rules", "trump", "variants"), LIMITED_GAMES)
def test_time_limited_playout(
    contract: str, rules: str, trump: str | None, variants: tuple[str, ...]
) -> None:
    # Under a tiny limit the line's scores still add up, the guarantees' intervals
    # hold the exact ones; with time to spare it is the consistent line.
    rng = random.Random(f"limited line {contract}")
    game = make_game(contract, rules=rules, trump=trump, variants=variants)
    deal = random_ending(rng, 6, bias="trumps" if contract == "trumps" else "duties")
    exact = playout(deal, game, solver=Solver(1 << 22))
    tight = playout(deal, game, solver=Solver(1 << 22), time_limit=1e-5)
    assert tight.time_limit == 1e-5 and tight.guarantee_bounds is not None
    assert sum(tight.scores) == sum(exact.scores)  # type: ignore[arg-type]
    assert len(tight.steps) == len(exact.steps) == 24
    for s in Seat:
        lo, hi = tight.guarantee_bounds[s]
        assert lo <= exact.guarantees[s] <= hi  # type: ignore[operator]
        assert tight.guarantees[s] in (None, exact.guarantees[s])
    for st in tight.steps:
        assert st.bounds is not None and st.value in (None, st.bounds[0])
    loose = playout(deal, game, solver=Solver(1 << 22), time_limit=60)
    assert loose.exact and loose.steps == tuple(
        replace(st, bounds=(st.value, st.value)) for st in exact.steps
    )
    assert (loose.guarantees, loose.scores) == (exact.guarantees, exact.scores)


@pytest.mark.parametrize(("contract", "rules", "trump"), TRICK_CONTRACTS)
def test_playout_sums_to_total_on_endings(contract: str, rules: str, trump: str | None) -> None:
    rng = random.Random(f"playout {contract}")
    game = make_game(contract, rules=rules, trump=trump)
    solver = Solver(1 << 22)
    for n in (3, 5):
        deal = random_ending(rng, n)
        p = playout(deal, game, solver=solver)
        assert p.total == points_at_stake(deal, game)
        assert len(p.steps) == 4 * n and len(p.tricks) == n
        for s in Seat:
            assert p.scores[s] >= p.guarantees[s]
        assert p.guarantees == solve(deal, game).scores
        # The line is legal and scores what it says.
        a = analyze(deal, game, play=[s.card for s in p.steps], solver=solver)
        assert a.scores == p.scores and not a.errors


def test_playout_sums_to_total_on_full_deals() -> None:
    # The quick trick contracts on whole deals (the negative ones take minutes there).
    rng = random.Random("playout full deals")
    solver = Solver(1 << 26)
    for contract, trump in (("barbu", None), ("trumps", "H"), ("barbu", None), ("trumps", "S")):
        deal = random_ending(rng, 13)
        game = make_game(contract, trump=trump)
        p = playout(deal, game, solver=solver)
        assert p.total == game.total == points_at_stake(deal, game)
        assert len(p.steps) == 52 and len(p.tricks) == 13
        for s in Seat:
            assert p.scores[s] >= p.guarantees[s]


def test_playout_dominoes_full_deals() -> None:
    rng = random.Random(3)
    solver = Solver(1 << 24)
    for variants, start in (((), "9"), (("ace-replays",), "7")):
        deal = random_ending(rng, 13)
        game = make_game("dominoes", start=start, variants=variants)
        p = playout(deal, game, declarer="N", solver=solver)
        assert p.total == game.total == 65
        assert sorted(x for x in p.places if x is not None) == [1, 2, 3, 4]
        for s in Seat:
            assert p.scores[s] >= p.guarantees[s]


def test_dominoes_values_against_reference() -> None:
    rng = random.Random(8)
    game = make_game("dominoes", start="8")
    for _ in range(3):
        pos = random_domino_ending(rng, game, sizes=(2, 4))
        deal = Deal(list(pos.hands))
        a = analyze(deal, game, declarer=pos.to_move)
        assert a.position is not None
        mover = pos.to_move
        for opt in a.position.options:
            after = domino_play(pos, game, opt.card)
            want = ref_domino_value(after, game, mover)
            assert opt.value == want


def test_dominoes_playout_on_endings_sums() -> None:
    rng = random.Random(9)
    game = make_game("dominoes", start="J")
    for _ in range(4):
        pos = random_domino_ending(rng, game, sizes=(2, 5))
        p = playout(Deal(list(pos.hands)), game, declarer=pos.to_move)
        left = sum(1 for h in pos.hands if h)
        assert p.total == sum(game.places[4 - left :])
        assert isinstance(p.places, tuple)


# -- table and best -------------------------------------------------------------------


def test_table_on_an_ending() -> None:
    deal = random_ending(random.Random(2), 4)
    t = table(deal, declarer="E")
    labels = [r.label for r in t.rows]
    assert labels[:9] == [
        "no-tricks", "no-hearts", "no-queens", "barbu", "no-last-two",
        "trumps:S", "trumps:H", "trumps:D", "trumps:C",
    ]  # fmt: skip
    for r in t.rows[:9]:
        want = solve(deal, r.contract, trump=r.trump, declarer="E").scores
        assert r.scores == want
    trumps = {r.trump: r.scores[Seat.E] for r in t.rows if r.trump}
    assert t.best_trump_value == max(trumps.values())
    assert t.best_trump == next(s for s, v in trumps.items() if v == t.best_trump_value)
    # the progress callback: each row as it starts, then the end
    calls: list[tuple[str | None, int, int]] = []
    again = table(deal, declarer="E", on_progress=lambda *a: calls.append(a))
    n = len(table_contracts("classic"))
    assert calls[-1] == (None, n, n) and [c[1:] for c in calls[:-1]] == [(k, n) for k in range(n)]
    assert sorted(c[0] for c in calls[:-1]) == sorted(x.label for x in table_contracts("classic"))
    assert [r.scores for r in again.rows] == [r.scores for r in t.rows]


def test_table_on_worker_processes() -> None:
    # the trick contracts' solves on two spawned processes: the same table
    rng = random.Random(5)
    for rules, decl in (("classic", "S"), ("french", "W")):
        deal = random_ending(rng, 4)
        one = table(deal, declarer=decl, rules=rules)
        two = table(deal, declarer=decl, rules=rules, workers=2)
        assert [r.label for r in two.rows] == [r.label for r in one.rows]
        assert [(r.scores, r.title, r.trump, r.start, r.best) for r in two.rows] == [
            (r.scores, r.title, r.trump, r.start, r.best) for r in one.rows
        ]
        assert (two.best_trump, two.best_trump_value) == (one.best_trump, one.best_trump_value)
    with pytest.raises(ParseError, match="workers must be 1 to"):
        table(deal, declarer="N", workers=0)
    with pytest.raises(ParseError, match="workers must be 1 to"):
        table(deal, declarer="N", workers=10_000)
    # a worker's error reaches the caller as itself
    with pytest.raises(InvalidPositionError, match="unequal size"):
        table("N:A2.K3.. Q4.2.3. 5.A4.. 6.Q.5.", declarer="N", workers=2)


def test_table_dominoes_best_and_all() -> None:
    deal = "N:AKQJT98765432... .AKQJT98765432.. ..AKQJT98765432. ...AKQJT98765432"
    t = table(deal, declarer="N")
    row = t.row("dominoes:best")
    assert row.best and t.best_start == row.start and t.best_start_value == 45
    assert len(t.start_scores) == 13
    t_all = table(deal, declarer="S", dominoes="all")
    dom = [r for r in t_all.rows if r.contract == "dominoes"]
    assert [r.start for r in dom] == list("23456789TJQKA")
    assert t_all.best_start_value == max(r.scores[Seat.S] for r in dom)
    with pytest.raises(ParseError, match="dominoes must be"):
        table(deal, declarer="N", dominoes="some")  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def ending_averages(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("avg") / "averages.json"
    make_averages(out, deals=6, seed=3, cards=3, jobs=1, log=False, command="test")
    return out


def test_averages_file(ending_averages: Path) -> None:
    data = json.loads(ending_averages.read_text())
    recs = {r["contract"]: r for r in data["averages"]}
    assert set(recs) == {"no-tricks", "no-hearts", "no-queens", "barbu", "no-last-two", "trumps"}
    assert all(r["deals"] == 6 and r["cards"] == 3 and not r["provisional"] for r in recs.values())
    samples = ending_averages.with_suffix(".samples.jsonl")
    lines = samples.read_text().splitlines()
    assert len(lines) == 6
    # The mean is the mean of the declarer values in the samples.
    vals = [json.loads(x)["values"] for x in lines]
    key = next(k for k in vals[0] if '"no-tricks"' in k)
    assert recs["no-tricks"]["mean"] == pytest.approx(sum(v[key] for v in vals) / 6, abs=1e-4)
    # A declarer value, remade: board 1 is dealt by N, so E declares.
    first = json.loads(lines[0])
    sv = Solver(1 << 20)
    dv = declarer_value(sv, first["deal"], "trumps", first["declarer"])
    tkey = next(k for k in vals[0] if '"trumps"' in k)
    assert dv.value == first["values"][tkey]
    # Resuming with more deals solves only the new ones; the records are provisional
    # while fewer deals than asked for are in.
    make_averages(ending_averages, deals=7, seed=3, cards=3, jobs=1, log=False)
    assert len(samples.read_text().splitlines()) == 7
    avg = load_averages(ending_averages).lookup("barbu", cards=3)
    assert avg.deals == 7 and not avg.provisional
    # A skipped board is left out and the records stay provisional without it.
    make_averages(ending_averages, deals=9, seed=3, cards=3, jobs=1, log=False, skip=[8])
    lines = samples.read_text().splitlines()
    assert [json.loads(x)["board"] for x in lines[7:]] == [9]
    avg = load_averages(ending_averages).lookup("barbu", cards=3)
    assert avg.deals == 8 and avg.provisional
    with pytest.raises(ParseError, match="no average for barbu .*king-duty"):
        load_averages(ending_averages).lookup("barbu", variants=["king-duty"], cards=3)


def test_averages_deal_limit(tmp_path: Path) -> None:
    # No Tricks on a full deal takes seconds: at a 1 ms limit the deal is left out,
    # noted in the samples with the bounds proved, and not tried again at that limit.
    out = tmp_path / "averages.json"
    samples = out.with_suffix(".samples.jsonl")
    opts: dict[str, Any] = {
        "deals": 1,
        "seed": 1,
        "contracts": ["no-tricks"],
        "jobs": 1,
        "log": False,
    }
    make_averages(out, deal_limit=0.001, tt_bytes=1 << 20, **opts)
    (line,) = [json.loads(x) for x in samples.read_text().splitlines()]
    assert line["board"] == 1 and line["values"] == {} and line["limit"] == 0.001
    ((key, (lo, hi)),) = line["unfinished"].items()
    assert '"no-tricks"' in key and -26 <= lo < hi <= 0
    assert json.loads(out.read_text())["averages"] == []
    make_averages(out, deal_limit=0.001, tt_bytes=1 << 20, **opts)
    assert len(samples.read_text().splitlines()) == 1
    # A larger limit tries the deal again.
    make_averages(out, deal_limit=0.002, tt_bytes=1 << 20, **opts)
    lines = [json.loads(x) for x in samples.read_text().splitlines()]
    assert len(lines) == 2 and lines[1]["limit"] == 0.002
    # With one deal done (a made-up sample), the record says how many deals were left
    # out and where the mean would lie with them (the tightest bounds proved).
    b1, b2 = lines[0]["unfinished"][key], lines[1]["unfinished"][key]
    lo, hi = max(b1[0], b2[0]), min(b1[1], b2[1])
    with samples.open("a") as f:
        f.write(json.dumps({"deal": "made up", "declarer": "N", "values": {key: -10}}) + "\n")
    make_averages(out, deal_limit=0.002, time_limit=0, **opts)
    (rec,) = json.loads(out.read_text())["averages"]
    assert rec["deals"] == 1 and rec["mean"] == -10 and rec["left_out"] == 1
    assert rec["mean_with_left_out"] == [(-10 + lo) / 2, (-10 + hi) / 2]
    # A declarer value within a limit: bounds only when the search was stopped.
    deal = lines[0]["deal"]
    dv = declarer_value(Solver(1 << 20), deal, "no-tricks", "E", time_limit=0.001)
    assert not dv.exact and dv.bounds is not None and dv.value == dv.bounds[0]
    ending = random_ending(random.Random(4), 3)
    for c in ("no-tricks", "trumps"):
        exact = declarer_value(Solver(1 << 20), ending, c, "N")
        limited = declarer_value(Solver(1 << 20), ending, c, "N", time_limit=60)
        assert exact.exact and limited == exact


def test_averages_scaled_twins(tmp_path: Path) -> None:
    # French No Tricks and No Queens are the classic ones scaled (x5, x10/3): their
    # values are taken from the classic ones, not solved again.
    assert scaled_twins("no-hearts", rules="french") == []  # the A-heart differs
    ((key, f),) = scaled_twins("no-tricks", rules="french")
    assert (key["rules"], key["contract"], f) == ("classic", "no-tricks", 5)
    out = tmp_path / "averages.json"
    samples = out.with_suffix(".samples.jsonl")
    opts: dict[str, Any] = {"deals": 4, "seed": 5, "cards": 3, "jobs": 1, "log": False}
    make_averages(out, rules=["classic", "french"], contracts=["no-tricks", "no-queens"], **opts)
    lines = [json.loads(x) for x in samples.read_text().splitlines()]
    assert [x["rules"] for x in lines] == ["classic"] * 4  # nothing solved twice
    recs = {(r["rules"], r["contract"]): r for r in json.loads(out.read_text())["averages"]}
    for c, factor in (("no-tricks", 5), ("no-queens", Fraction(10, 3))):
        fr, cl = recs["french", c], recs["classic", c]
        assert fr["deals"] == cl["deals"] == 4
        assert fr["mean"] == pytest.approx(float(cl["mean"] * factor), abs=1e-3)
        assert fr["scaled_from"] == [
            {"rules": "classic", "contract": c, "factor": str(factor), "deals": 4}
        ]
        assert "scaled_from" not in cl
        # each French value is the French solve's
        ck = next(k for k in lines[0]["values"] if f'"{c}"' in k)
        for x in lines:
            dv = declarer_value(Solver(1 << 20), x["deal"], c, x["declarer"], rules="french")
            assert dv.value == x["values"][ck] * factor
    # A French-only run finds the classic samples and solves nothing.
    make_averages(out, rules=["french"], contracts=["no-queens"], **opts)
    assert len(samples.read_text().splitlines()) == 4
    # A deal left out for the classic contract is left out for its twin, bounds scaled.
    key_nt = next(k for k in lines[0]["values"] if '"no-tricks"' in k)
    with samples.open("a") as f:
        cut = {"deal": "made up", "declarer": "N", "unfinished": {key_nt: [-4, -2]}, "limit": 9}
        f.write(json.dumps(cut) + "\n")
    make_averages(out, rules=["french"], contracts=["no-tricks"], deal_limit=9, **opts)
    (rec,) = [
        r
        for r in json.loads(out.read_text())["averages"]
        if r["rules"] == "french" and r["contract"] == "no-tricks"
    ]
    assert rec["left_out"] == 1
    nt = [x["values"][key_nt] * 5 for x in lines]
    assert rec["mean_with_left_out"] == pytest.approx([(sum(nt) - 20) / 5, (sum(nt) - 10) / 5])


def test_best_contract(ending_averages: Path) -> None:
    deal = random_ending(random.Random(4), 3)
    adv = best_contract(deal, declarer="N", averages=ending_averages)
    names = [o.contract for o in adv.options]
    assert names == ["no-tricks", "no-hearts", "no-queens", "barbu", "no-last-two", "trumps"]
    assert adv.best.gain == max(o.gain for o in adv.options)
    avgs = load_averages(ending_averages)
    for o in adv.options:
        assert o.value == declarer_value(Solver(1 << 20), deal, o.contract, "N").value
        assert o.gain == pytest.approx(o.value - avgs.lookup(o.contract, cards=3).mean)
    # With the K-heart duty Barbu has no average in the file: still valued, no gain, out
    # of the advice, and the advice says so.
    kd = best_contract(deal, declarer="N", averages=ending_averages, variants=["king-duty"])
    (barbu,) = [o for o in kd.options if o.contract == "barbu"]
    assert (
        barbu.value
        == declarer_value(Solver(1 << 20), deal, "barbu", "N", variants=["king-duty"]).value
    )
    assert barbu.average is barbu.gain is barbu.gain_bounds is None
    assert kd.missing == ("barbu",) and "no average for barbu" in kd.notes[0]
    others = [o for o in kd.options if o.contract != "barbu"]
    assert kd.best is not None and kd.best.gain == max(o.gain for o in others)
    assert barbu not in kd.contenders and kd.as_dict()["missing"] == ["barbu"]
    # With none at all, the command that makes them.
    with pytest.raises(ParseError, match="no average for no-tricks .*french"):
        best_contract(deal, declarer="N", averages=ending_averages, rules="french")
    calls: list[tuple[str | None, int, int]] = []
    fewer = best_contract(
        deal,
        declarer="N",
        averages=ending_averages,
        played=["barbu", "trumps"],
        on_progress=lambda *a: calls.append(a),
    )
    assert [o.contract for o in fewer.options] == names[:3] + ["no-last-two"]
    assert calls == [(c, k, 4) for k, c in enumerate(names[:3] + ["no-last-two"])] + [(None, 4, 4)]
    with pytest.raises(ParseError, match="unknown contract"):
        best_contract(deal, declarer="N", averages=ending_averages, played=["chess"])


def test_shipped_averages_load() -> None:
    a = load_averages()
    assert a.records
    for r in a.records:
        assert r["cards"] == 13 and r["provisional"] == (r["deals"] < 2000)
        # a record taken from a scaled twin is the twin's times the factor
        for src in r.get("scaled_from", []):
            (twin,) = [
                t
                for t in a.records
                if (t["rules"], t["contract"], t["variants"])
                == (src["rules"], src["contract"], r["variants"])
            ]
            assert src["deals"] == r["deals"] == twin["deals"]
            assert r["mean"] == pytest.approx(
                float(twin["mean"] * Fraction(src["factor"])), abs=1e-3
            )
    assert a.lookup("dominoes").deals >= 1
    assert a.lookup("no-queens", rules="french").deals == a.lookup("no-queens").deals


# -- the commands ----------------------------------------------------------------------------


def test_cli_analyze_json_with_play_section(tmp_path: Path) -> None:
    f = pbn_file(
        tmp_path,
        f"""[Board "1"]
[Dealer "E"]
[Deal "{BLUNDER}"]
[Play "S"]
S2 S4 DA S3
SQ H3 HK H2
""",
    )
    code, out, _ = run("analyze", f, "-c", "barbu", "--json")
    assert code == 0
    rec = json.loads(out)
    assert rec["board"] == "1" and rec["errors"] == 1 and rec["total_cost"] == 20
    assert rec["costs"] == {"N": 20, "E": 0, "S": 0, "W": 0}
    assert rec["scores"]["N"] == -20
    code, out, _ = run("analyze", f, "-c", "barbu")
    assert code == 0 and "Errors: 1" in out
    code, out, _ = run("analyze", f, "-c", "barbu", "--play", "S2 S4", "--seat", "W", "--json")
    rec = json.loads(out)
    assert rec["position"]["view"] == "W" and rec["position"]["value"] == -20
    code, _, err = run("analyze", f, "-c", "barbu", "--play", "S2 H3")
    assert code == 1 and "card 2 of the play: trick 12" in err and "H3" in err


def test_cli_analyze_time_limit(tmp_path: Path) -> None:
    # A full deal of No Tricks: with 20 ms a search nothing early is exact; every
    # interval is well formed, and the text shows intervals and undecided moves.
    deal = "N:53.92.K42.KT5432 QT2.KT876.AQ986. A9876.A43.T53.J8 KJ4.QJ5.J7.AQ976"
    f = pbn_file(tmp_path, f'[Board "1"]\n[Dealer "N"]\n[Deal "{deal}"]\n')
    args = ["analyze", f, "-c", "no-tricks", "--play", "H6 H4 H5 H2", "--time-limit", "0.02"]
    code, out, err = run(*args, "--json")
    assert code == 0, err
    rec = json.loads(out)
    assert rec["time_limit"] == 0.02 and rec["exact"] is False
    assert set(rec["cost_bounds"]) == set("NESW")
    for p in rec["plays"]:
        (b_lo, b_hi), (a_lo, a_hi), (c_lo, c_hi) = (
            p["before_bounds"], p["after_bounds"], p["cost_bounds"]
        )  # fmt: skip
        assert -26 <= b_lo <= b_hi <= 0 and -26 <= a_lo <= a_hi <= 0 and 0 <= c_lo <= c_hi
        assert p["before"] == (b_lo if b_lo == b_hi else None)
    pos = rec["position"]
    assert pos["mover"] == "E" and all(len(o["bounds"]) == 2 for o in pos["cards"])
    code, out, _ = run(*args)
    assert code == 0 and "proved" in out and ".." in out
    code, _, err = run(*args[:-1], "0")
    assert code == 1 and "--time-limit must be" in err and err.count("\n") == 1
    # playout: the line the bounds pick, its scores adding up to the total
    code, out, err = run("playout", f, "-c", "no-tricks", "--time-limit", "0.01", "--json")
    assert code == 0, err
    rec = json.loads(out)
    assert rec["time_limit"] == 0.01 and rec["total"] == -26 and len(rec["line"]) == 52
    assert all(lo <= hi for lo, hi in rec["guarantee_bounds"].values())


def test_cli_playout_and_table(tmp_path: Path) -> None:
    f = pbn_file(tmp_path, f'[Board "1"]\n[Dealer "W"]\n[Deal "{TRUMPS}"]\n')
    code, out, _ = run("playout", f, "-c", "trumps", "-t", "H", "--json")
    assert code == 0
    rec = json.loads(out)
    assert [s["card"] for s in rec["line"]] == TRUMPS_LINE and rec["total"] == 10
    code, out, _ = run("playout", f, "-c", "trumps", "-t", "H")
    assert code == 0 and "won by" in out
    code, out, _ = run("table", f, "--json")
    assert code == 0
    rec = json.loads(out)
    row = {r["label"]: r for r in rec["rows"]}
    assert row["trumps:H"]["scores"]["N"] == 5 and rec["declarer"] == "N"
    code, out2, _ = run("table", f, "--json", "--workers", "2")
    assert code == 0
    rows2 = json.loads(out2)["rows"]
    assert [(r["label"], r["scores"]) for r in rows2] == [
        (r["label"], r["scores"]) for r in rec["rows"]
    ]
    code, out, _ = run("table", f)
    assert code == 0 and "best trump for N" in out
    g = pbn_file(tmp_path, f'[Board "2"]\n[Dealer "N"]\n[Deal "{BLOCK}"]\n', "dom.pbn")
    code, out, _ = run("playout", g, "-c", "dominoes", "--start", "9", "--json")
    assert code == 0 and json.loads(out)["places"] == {"N": 4, "E": 2, "S": 3, "W": None}
    code, out, _ = run("playout", g, "-c", "dominoes", "--start", "9")
    assert code == 0 and "round" in out


def test_cli_best(tmp_path: Path, ending_averages: Path) -> None:
    deal = random_ending(random.Random(4), 3)
    f = pbn_file(tmp_path, f'[Board "7"]\n[Dealer "W"]\n[Deal "{deal}"]\n')
    code, out, _ = run("best", f, "--averages", str(ending_averages), "--json")
    assert code == 0
    rec = json.loads(out)
    want = best_contract(deal, declarer="N", averages=ending_averages)
    assert rec["advice"] == want.best.contract and rec["board"] == "7"
    code, out, _ = run("best", f, "--averages", str(ending_averages), "--played", "no-tricks")
    assert code == 0 and "Advice:" in out and "No Tricks" not in out
    code, _, err = run("best", f, "--averages", str(tmp_path / "none.json"))
    assert code == 1 and "cannot read averages file" in err
    code, out, _ = run("best", f, "--averages", str(ending_averages), "--variant", "king-duty")
    assert code == 0 and "Advice:" in out and "note: no average for barbu" in out
    # A time limit that the ending's searches never reach changes nothing.
    code, out, _ = run("best", f, "--averages", str(ending_averages), "--time-limit", "60")
    assert code == 0 and f"Advice: {want.best.title}" in out and "Stopped" not in out
    code, _, err = run("best", f, "--averages", str(ending_averages), "--time-limit", "0")
    assert code == 1 and "--time-limit" in err


def test_best_contract_time_limit(tmp_path: Path, ending_averages: Path) -> None:
    # An ending: every search finishes well within the limit, the same advice.
    deal = random_ending(random.Random(4), 3)
    want = best_contract(deal, declarer="N", averages=ending_averages)
    got = best_contract(deal, declarer="N", averages=ending_averages, time_limit=60)
    assert got.exact and got.options == want.options and got.best == want.best
    assert got.contenders == (want.best,)
    # A full deal and 0.2 s: No Tricks, No Hearts and No Queens take longer (made-up
    # averages for them).  A value not finished is an interval, and the advice is
    # given only where the intervals decide it.
    data = {"format": 1, "averages": list(load_averages().records)}
    for c in ("no-tricks", "no-hearts", "no-queens"):
        if not any(r["contract"] == c and r["rules"] == "classic" for r in data["averages"]):
            rec = dict(contract_key(c), title=c, scale="classic", deals=1, mean=-10.0)
            data["averages"].append(dict(rec, sd=0.0, stderr=0.0, provisional=True))
    f = tmp_path / "averages.json"
    f.write_text(json.dumps(data))
    full = "N:A643.KJT8.92.AK3 2.653.QJT7.T9842 KQ97.Q9.AK54.J75 JT85.A742.863.Q6"
    adv = best_contract(full, declarer="E", averages=f, time_limit=0.2)
    assert not adv.exact
    for o in adv.options:
        lo, hi = o.value_bounds
        if o.bounds is None:
            assert o.value == lo == hi and o.gain == pytest.approx(o.value - o.average)
        else:
            assert o.value is None and o.gain is None and lo < hi
    assert pick_contract(adv.options) == (adv.best, adv.contenders)
    floor = max(o.gain_bounds[0] for o in adv.options)
    assert {o.contract for o in adv.contenders} == {
        o.contract for o in adv.options if o.gain_bounds[1] >= floor
    }
    if adv.best is not None:
        assert all(adv.best.gain_bounds[0] >= o.gain_bounds[1] for o in adv.contenders)
    else:
        assert len(adv.contenders) > 1
    rec = adv.as_dict()
    assert rec["exact"] is False and rec["contenders"] == [o.contract for o in adv.contenders]


def test_dominoes_position_reuses_solver() -> None:
    # A DominoPosition stepped by the analyser agrees with the play engine's places.
    game = make_game("dominoes", start="9")
    pos = DominoPosition.from_hands([Deal(BLOCK).mask(s) for s in Seat], game, Seat.E)
    p = playout(BLOCK, game, declarer="E")
    from barbu_dd.play import domino_places, domino_play_out

    end = domino_play_out(pos, game, [s.card for s in p.steps])
    assert domino_places(end) == p.places


def test_ravage_won_is_checked() -> None:
    from barbu_dd.errors import InvalidPositionError
    from barbu_dd.solver import solve

    d = "N:A2... K3... Q4... J5..."
    with pytest.raises(InvalidPositionError, match="won: 13 cards of suit S"):
        solve(
            d, "ravage", variants=["ravage-city"], declarer="N", won=[[13, 0, 0, 0]] + [[0] * 4] * 3
        )
    with pytest.raises(InvalidPositionError, match="4 rows"):
        solve(d, "ravage", variants=["ravage-city"], declarer="N", won=[[0, 0, 0, 0]])
    # N has won 5 spades already: whoever takes the rest, N's 5 spades are the most
    sol = solve(
        d, "ravage", variants=["ravage-city"], declarer="N", won=[[5, 0, 0, 0]] + [[0] * 4] * 3
    )
    assert sol.scores == (-36, 0, 0, 0)


def test_package_keeps_submodules_reachable() -> None:
    """``from barbu_dd import analyze`` must stay the module (the CLI relies on it)."""
    import inspect

    import barbu_dd

    assert inspect.ismodule(barbu_dd.analyze) and inspect.ismodule(barbu_dd.advise)
