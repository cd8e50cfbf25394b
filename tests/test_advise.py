"""Single-dummy advice (advise.py) and the ``advise`` command.

The samples are checked without solving (the declarer's hand kept, the 39 other
cards dealt once each, suit lengths as random as a hypergeometric law says); the
advice itself is run on Dominoes and the Réussite only (fast), on few samples.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from barbu_dd.advise import (
    Advice,
    ContractAdvice,
    _contenders,
    _regret,
    _round_limit,
    _stats,
    _to_settle,
    advise,
    choose_option,
    deal_samples,
    mean_ci,
    parse_hand,
)
from barbu_dd.cards import Seat, hand_to_pbn
from barbu_dd.cli import app
from barbu_dd.errors import InvalidPositionError, ParseError

HAND = "AQT8.K7.A9.J9843"
runner = CliRunner()

#: The 0.999 quantile of the chi-square law, 1..10 degrees of freedom.
CHI2_999 = (10.828, 13.816, 16.266, 18.467, 20.515, 22.458, 24.322, 26.124, 27.877, 29.588)


def test_samples_keep_the_hand_and_deal_the_rest_once() -> None:
    hand = parse_hand(HAND)
    for decl in Seat:
        for d in deal_samples(hand, decl, 50, seed=11):
            masks = d.masks
            assert masks[decl] == hand
            assert all(m.bit_count() == 13 for m in masks)
            union = 0
            for m in masks:
                assert union & m == 0  # no card twice
                union |= m
            assert union.bit_count() == 52


def test_samples_are_uniform_suit_lengths() -> None:
    """Chi-square on each other seat's length in each suit against the hypergeometric
    law (39 unseen cards, 13 a hand), at the 0.1% level, over 3000 samples."""
    hand = parse_hand(HAND)
    n = 3000
    deals = deal_samples(hand, Seat.S, n, seed=5)
    for seat in (Seat.W, Seat.N, Seat.E):
        for suit in range(4):
            left = 13 - ((hand >> (16 * suit)) & 0x1FFF).bit_count()
            counts = np.zeros(left + 1)
            for d in deals:
                counts[((d.mask(seat) >> (16 * suit)) & 0x1FFF).bit_count()] += 1
            p = np.array(
                [math.comb(left, k) * math.comb(39 - left, 13 - k) for k in range(left + 1)],
                dtype=float,
            )
            expected = n * p / math.comb(39, 13)
            # Pool the rare lengths so that every bin expects 5 or more.
            obs, exp, o, e = [], [], 0.0, 0.0
            for k in np.argsort(-expected):
                o, e = o + counts[k], e + expected[k]
                if e >= 5:
                    obs.append(o)
                    exp.append(e)
                    o = e = 0.0
            exp[-1] += e
            obs[-1] += o
            chi2 = sum((a - b) ** 2 / b for a, b in zip(obs, exp, strict=True))
            df = len(obs) - 1
            assert 1 <= df <= len(CHI2_999)
            assert chi2 < CHI2_999[df - 1], (seat, suit, chi2, df)


def test_samples_reproducible_and_prefix() -> None:
    hand = parse_hand(HAND)
    a = [d.to_pbn() for d in deal_samples(hand, "S", 10, seed=3)]
    b = [d.to_pbn() for d in deal_samples(hand, "S", 20, seed=3)]
    c = [d.to_pbn() for d in deal_samples(hand, "S", 10, seed=4)]
    assert a == b[:10] and a != c


def test_bad_hands() -> None:
    with pytest.raises(ParseError, match="13 cards"):
        parse_hand("AK.Q..")
    with pytest.raises(ParseError, match="invalid hand"):
        parse_hand("AKQ")
    with pytest.raises(InvalidPositionError, match="duplicate"):
        parse_hand("AA.KQJT98765432..")
    with pytest.raises(ParseError, match="samples"):
        advise(HAND, samples=0, contracts=["dominoes"], workers=1)
    with pytest.raises(ParseError, match="given twice"):
        advise(HAND, contracts=["dominoes", "dominoes:9"], samples=1, workers=1)
    with pytest.raises(ParseError, match="no contract left"):
        advise(HAND, contracts=["dominoes"], played=["dominoes"], samples=1, workers=1)


def _reussite(**kw: object) -> Advice:
    return advise(HAND, rules="french", contracts=["reussite"], seed=9, **kw)  # type: ignore[arg-type]


def test_same_seed_same_advice_whatever_the_workers() -> None:
    a = _reussite(samples=4, workers=1)
    b = _reussite(samples=4, workers=1)
    c = _reussite(samples=4, workers=2)
    assert a.seed == 9 and a.samples == 4 and a.complete
    for other in (b, c):
        assert np.array_equal(a.values, other.values)
        assert a.contracts == other.contracts and a.best == other.best
    da, dc = a.as_dict(), c.as_dict()
    for d in (da, dc):
        d.pop("seconds")
        d.pop("workers")
    assert da == dc


def test_choose_option_is_on_the_means() -> None:
    # The best of each sample is column 1 twice out of three, but column 0 has
    # the best mean: a suit or rank is named before the hands are seen.
    v = np.array([[30.0, 0.0], [5.0, 6.0], [5.0, 6.0]])
    assert int(np.bincount(v.argmax(axis=1)).argmax()) == 1
    assert choose_option(v) == 0
    assert choose_option(np.array([[1.0, 1.0, 0.0]])) == 0  # first on a tie


def test_dominoes_choice_on_the_averages_of_the_samples() -> None:
    adv = advise(HAND, contracts=["dominoes"], samples=8, seed=3, workers=1)
    c = adv.contract("dominoes")
    assert len(c.options) == 13 and adv.values.shape == (8, 13)
    means = adv.values.mean(axis=0)
    assert c.choice is not None and c.label == f"dominoes:{c.choice}"
    assert c.mean == pytest.approx(means.max())
    assert c.label == adv.labels[int(np.flatnonzero(means == means.max())[0])]
    # The mean is that of one rank named in advance, never the best of each sample.
    assert c.mean <= adv.values.max(axis=1).mean()
    assert c.average is not None and c.gain == pytest.approx(c.mean - c.average)
    assert adv.best is c and adv.ranked_by == "gain"
    assert c.chosen.low <= c.mean <= c.chosen.high


def test_ci_shrinks_as_samples_grow() -> None:
    rng = np.random.default_rng(1)
    data = rng.choice([-5.0, 5.0, 20.0, 45.0], size=4000)
    widths = []
    for n in (10, 100, 1000, 4000):
        mean, sd, lo, hi = mean_ci(data[:n])
        assert lo < mean < hi and sd > 0
        widths.append(hi - lo)
    assert widths == sorted(widths, reverse=True)
    assert widths[2] / widths[3] == pytest.approx(2.0, rel=0.15)  # as 1 / sqrt(n)
    m, sd, lo, hi = mean_ci([1.0, 2.0, 3.0])
    assert (m, sd) == (2.0, 1.0) and hi - m == pytest.approx(4.3027 / math.sqrt(3), rel=1e-4)
    # The same seed's first samples are the start of a longer run's.
    short = _reussite(samples=3, workers=1)
    long_ = _reussite(samples=6, workers=1)
    assert np.array_equal(short.values, long_.values[:3])


def test_advice_interval_shrinks_as_samples_grow() -> None:
    # advise itself, one seed, 10 to 400 samples: the interval of the advised mean
    # narrows, from 100 samples on about as 1 / sqrt(n), and holds the longer run's mean.
    runs = [_reussite(samples=n, workers=1) for n in (10, 100, 400)]
    widths = []
    for adv in runs:
        assert adv.best is not None and adv.complete
        c = adv.best.chosen
        assert c.samples == adv.samples and c.low < c.mean < c.high
        widths.append(c.high - c.low)
    assert widths[0] > widths[1] > widths[2]
    assert widths[1] / widths[2] == pytest.approx(2.0, rel=0.25)
    big = runs[-1].best
    assert big is not None and runs[1].best is not None
    assert runs[1].best.chosen.low < big.mean < runs[1].best.chosen.high


def test_gain_unavailable_without_an_average(tmp_path: Path) -> None:
    # The Réussite has an average; a file without it leaves the gain unknown.
    adv = _reussite(samples=2, workers=1)
    assert adv.best is not None and adv.best.gain is not None
    empty = tmp_path / "no_averages.json"
    empty.write_text('{"format": 1, "averages": []}\n', encoding="utf-8")
    adv = _reussite(samples=2, workers=1, averages=empty)
    assert adv.best is not None and adv.best.gain is None and adv.best.average is None
    assert adv.ranked_by == "mean"
    assert any("no average for reussite" in n for n in adv.notes)
    assert adv.as_dict()["contracts"][0]["gain"] is None  # type: ignore[index]


def test_interrupt_gives_the_samples_so_far() -> None:
    seen: list[int] = []

    def stop(done: int, total: int, leader: str | None) -> None:
        seen.append(done)
        assert leader == "reussite"
        if done == 2:
            raise KeyboardInterrupt

    adv = _reussite(samples=5, workers=1, on_progress=stop)
    assert not adv.complete and adv.samples == 2 and adv.values.shape == (2, 1)
    assert any("interrupted" in n for n in adv.notes)


def test_doubles_from_the_samples_played_out() -> None:
    adv = advise(
        HAND,
        contracts=["dominoes"],
        doubles="dominoes",
        doubles_left=2,
        played=["barbu", "no-queens", "no-tricks", "no-hearts", "no-last-two"],
        samples=4,
        seed=3,
        workers=1,
    )
    d = adv.doubles
    assert d is not None and d.samples == 4
    assert d.label == adv.contract("dominoes").label
    lm = d.line_means
    for a in Seat:
        for b in Seat:
            if a != b:
                assert d.pairs[a][b] == pytest.approx(lm[a] - lm[b])
                assert d.pairs[a][b] == pytest.approx(-d.pairs[b][a])
    assert [s.seat for s in d.seats] == [Seat.W, Seat.N, Seat.E]
    for s in d.seats:
        assert s.mean == pytest.approx(lm[Seat.S] - lm[s.seat])
        assert s.may_double  # anyone may double the declarer
        assert s.redouble_pays == (s.mean > 0)
    assert sum(lm) == pytest.approx(65)  # Dominoes hands out 45 + 20 + 5 - 5
    # A named rank is played out as named, whatever the advised one.
    other = "2" if d.label != "dominoes:2" else "3"
    adv2 = advise(HAND, contracts=["dominoes"], doubles=f"dominoes:{other}", samples=2,
                  seed=3, workers=1)  # fmt: skip
    assert adv2.doubles is not None and adv2.doubles.label == f"dominoes:{other}"
    assert d.reminder is not None and "2 more time(s)" in d.reminder
    assert "this deal" in d.reminder  # two deals left, two doubles owed


def test_doubles_of_a_trick_contract() -> None:
    # Trumps with a named suit: each sample played out trick by trick (the analyser's
    # consistent line); the lines hand out the contract's 65.
    adv = advise(HAND, contracts=["trumps"], doubles="trumps:S", samples=3, seed=3, workers=1)
    d = adv.doubles
    assert d is not None and d.samples == 3 and d.label == "trumps:S"
    lm = d.line_means
    assert sum(lm) == pytest.approx(65)
    totals = np.array(lm) * 3  # each seat's three lines: +5 a trick
    assert np.allclose(totals, np.round(totals)) and all(round(v) % 5 == 0 for v in totals)
    for s in d.seats:
        assert s.mean == pytest.approx(lm[Seat.S] - lm[s.seat])
        assert s.may_double and s.redouble_pays == (s.mean > 0)


def test_doubles_under_a_time_limit() -> None:
    # No Tricks on full deals: exact lines would take minutes a sample; under a
    # limit each sample's line is the one the proved bounds pick, and it still hands
    # out the contract's -26.
    adv = advise(HAND, contracts=["no-tricks"], doubles="no-tricks", samples=2, seed=4,
                 workers=1, time_limit=0.5)  # fmt: skip
    d = adv.doubles
    assert d is not None and d.samples == 2 and d.label == "no-tricks"
    assert sum(d.line_means) == pytest.approx(-26)
    assert all(v <= 0 and round(v) % 2 == 0 for v in np.array(d.line_means) * 2)


def run(*args: str) -> tuple[int, str, str]:
    r = runner.invoke(app, list(args))
    assert "Traceback" not in r.output
    return r.exit_code, r.stdout, r.stderr


def test_cli_json_and_plot(tmp_path: Path) -> None:
    png = tmp_path / "advice.png"
    code, out, err = run(
        "advise", HAND, "-r", "french", "-c", "reussite", "-n", "3", "--seed", "2",
        "-w", "1", "--json", "--plot", str(png),
    )  # fmt: skip
    assert code == 0, err
    rec = json.loads(out)
    assert rec["hand"] == hand_to_pbn(parse_hand(HAND)) and rec["declarer"] == "S"
    assert rec["samples"] == 3 and rec["seed"] == 2 and rec["advice"] == "reussite"
    c = rec["contracts"][0]
    for key in ("mean", "ci", "average", "gain", "options"):
        assert key in c
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_table_and_pbn_file(tmp_path: Path) -> None:
    pbn = tmp_path / "one.pbn"
    pbn.write_text(
        '[Board "1"]\n[Dealer "E"]\n'
        '[Deal "N:KQT2.AT.J6542.85 A86.K9.AQT3.QT97 J9743.J8765.K.64 5.Q432.987.AKJ32"]\n',
        encoding="utf-8",
    )
    code, out, err = run("advise", str(pbn), "-r", "french", "-c", "reussite", "-n", "2", "-w", "1")
    assert code == 0, err
    assert "J9743.J8765.K.64, declarer S" in out and "Advice: Réussite" in out
    code, out, _ = run("advise", str(pbn), "-d", "W", "-r", "french", "-c", "reussite",
                       "-n", "2", "-w", "1", "--json")  # fmt: skip
    assert code == 0 and json.loads(out)["hand"] == "5.Q432.987.AKJ32"


@pytest.mark.parametrize(
    ("dealer", "variants", "seat"),
    [("N", [], "E"), ("E", [], "S"), ("W", [], "N"), ("N", ["dealer-declares"], "N"),
     ("S", ["dealer-declares"], "S")],
)  # fmt: skip
def test_pbn_declarer_is_the_boards(tmp_path: Path, dealer: str, variants: list[str],
                                    seat: str) -> None:  # fmt: skip
    """From a PBN file the default declarer is the board's: the Dealer's left (North
    as the Dealer too: Seat.N is 0), or the Dealer with *dealer declares*."""
    from barbu_dd.cli import _advise_hand

    deal = "N:KQT2.AT.J6542.85 A86.K9.AQT3.QT97 J9743.J8765.K.64 5.Q432.987.AKJ32"
    hands = dict(zip("NESW", deal[2:].split(), strict=True))
    pbn = tmp_path / "one.pbn"
    pbn.write_text(f'[Board "1"]\n[Dealer "{dealer}"]\n[Deal "{deal}"]\n', encoding="utf-8")
    assert _advise_hand(str(pbn), None, None, variants) == (hands[seat], seat)
    assert _advise_hand(str(pbn), None, "W", variants) == (hands["W"], "W")


@pytest.mark.parametrize(
    ("hand", "message"),
    [
        ("AK.Q", "invalid hand"),
        ("AK.Q..", "13 cards"),
        ("AX.KQJT98765432..", "invalid card"),
    ],
)
def test_cli_bad_hand_one_line(hand: str, message: str) -> None:
    code, out, err = run("advise", hand, "-c", "dominoes", "-n", "1", "-w", "1")
    assert code == 1 and out == ""
    assert err.startswith("error: ") and message in err and err.count("\n") == 1


def test_cli_doubles_left_needs_doubles() -> None:
    code, _, err = run("advise", HAND, "-c", "dominoes", "--doubles-left", "1", "-n", "1")
    assert code == 1 and "--doubles" in err


# -- under a time limit ----------------------------------------------------------------


def test_stats_of_intervals() -> None:
    # Two exact scores and one proved to lie in -8..-4: it counts as -6; the mean is
    # proved to lie between the means of the bounds; the 95% interval holds both.
    low, high = np.array([-10.0, -2.0, -8.0]), np.array([-10.0, -2.0, -4.0])
    s = _stats("no-tricks", low, high)
    assert s.mean == pytest.approx(-6.0) and s.unfinished == 1 and s.samples == 3
    assert (s.mean_low, s.mean_high) == pytest.approx((-20 / 3, -16 / 3))
    # the midpoints' sd 4, plus sqrt(2**2 / 2) for the open score's half width 2
    half = 4.3027 * (4.0 + math.sqrt(2.0)) / math.sqrt(3)
    assert (s.low, s.high) == pytest.approx((-20 / 3 - half, -16 / 3 + half), abs=1e-3)
    # whatever the open score is (-8 to -4), the exact interval lies inside
    for v in (-8.0, -6.5, -4.0):
        e = mean_ci([-10.0, -2.0, v])
        assert s.low <= e[2] and e[3] <= s.high
    assert (_stats("x", low[:1], high[:1]).low, _stats("x", low[2:], high[2:]).high) == (-10, -4)
    exact = _stats("no-tricks", low, low)
    assert exact.unfinished == 0 and exact.mean_low == exact.mean == exact.mean_high
    assert (exact.low, exact.high) == pytest.approx(mean_ci(low)[2:])


def test_time_limit_bounds_hold_the_exact_scores() -> None:
    # Barbu and No Last Two on three samples, exact and under a limit too short to
    # finish some searches: every exact score lies in its proved interval.
    def run_(limit: float | None) -> Advice:
        return advise(
            HAND, contracts=["barbu", "no-last-two"], samples=3, seed=5, workers=1, time_limit=limit
        )

    exact, lim = run_(None), run_(1e-3)
    assert exact.unfinished == 0 and exact.time_limit is None
    assert exact.lows is not None and np.array_equal(exact.lows, exact.values)
    assert lim.lows is not None and lim.highs is not None and lim.time_limit == 1e-3
    assert np.all(lim.lows <= exact.values) and np.all(exact.values <= lim.highs)
    assert np.array_equal(lim.values, (lim.lows + lim.highs) / 2)
    assert lim.unfinished == int((lim.lows != lim.highs).sum())
    for c, e in zip(lim.contracts, exact.contracts, strict=True):
        o = c.chosen
        assert o.mean_low <= e.mean <= o.mean_high and o.low <= e.chosen.low + 1e-9
        assert o.high >= e.chosen.high - 1e-9
    assert any("time limit" in n for n in lim.notes) == (lim.unfinished > 0)
    assert exact.settled and exact.contenders == ()
    assert lim.as_dict()["advice_settled"] == lim.settled


def _advice(name: str, low: float, high: float, average: float | None) -> ContractAdvice:
    o = _stats(name, np.array([low]), np.array([high]))
    gain = None if average is None else o.mean - average
    return ContractAdvice(name, name.title(), None, o, (o,), average, gain)


def test_contenders_by_the_proved_intervals() -> None:
    a = _advice("a", 10.0, 10.0, 0.0)  # gain 10, exact
    b = _advice("b", -10.0, 12.0, 0.0)  # gain 1 by the midpoint, may reach 12
    c = _advice("c", -10.0, 8.0, 0.0)  # at most 8: ruled out
    d = _advice("d", 0.0, 30.0, None)  # no average: not ranked by gain
    assert _contenders([a, b, c, d], a, "gain") == ("b",)
    assert _contenders([a, c, d], a, "gain") == ()
    assert _contenders([a, b, c, d], a, "mean") == ("b", "d")
    assert _contenders([a], None, "gain") == ()
    # the most the advice may fall short: b by 2 (gain), d by 20 (mean)
    assert _regret([a, b, c, d], a, "gain") == 2.0 and _regret([a, c], a, "gain") == 0.0
    assert _regret([a, b, c, d], a, "mean") == 20.0


def test_settling_picks_the_scores_that_decide() -> None:
    # a (the advice, gain 10, at least 9.5) has one open score; b's mean (5 by the
    # midpoints) may still reach 15; c's at most 8: a's and b's open scores are solved
    # again, b's wider one first.
    low = np.array([[9.0, -10.0, -10.0], [10.0, 0.0, 8.0]])
    high = np.array([[11.0, 30.0, 8.0], [10.0, 0.0, 8.0]])
    cs = [_stats_advice(name, low[:, k], high[:, k], 0.0) for k, name in enumerate(("a", "b", "c"))]
    assert _contenders(cs, cs[0], "gain") == ("b",)
    assert _to_settle(cs, cs[0], "gain", ("a", "b", "c"), low, high) == [
        (0, 1, "upper"),
        (0, 0, "lower"),
    ]
    # b reaches 5.5 above a: within a tolerance of 6 nothing is left to do
    assert _to_settle(cs, cs[0], "gain", ("a", "b", "c"), low, high, 6.0) == []
    assert len(_to_settle(cs, cs[0], "gain", ("a", "b", "c"), low, high, 5.0)) == 2
    # once b is ruled out (its interval met with a narrower one), nothing is left
    high[0, 1] = 10.0
    cs[1] = _stats_advice("b", low[:, 1], high[:, 1], 0.0)
    assert _to_settle(cs, cs[0], "gain", ("a", "b", "c"), low, high) == []


def test_settling_rounds_share_the_time() -> None:
    # 100 scores, 120 s on 2 workers: the time limit (1 s) is below the fair share
    assert _round_limit(0.0, 1.0, 1, 120.0, 2, 100) == 1.0
    # 300 scores, 60 s on 1 worker: a tenth of a second each
    assert _round_limit(0.0, 1.0, 1, 60.0, 1, 300) == pytest.approx(0.1)
    # later rounds: the cap doubles (2 s in round 2), never less than twice the last
    assert _round_limit(1.0, 1.0, 2, 1000.0, 2, 10) == 2.0
    assert _round_limit(0.1, 1.0, 2, 10.0, 1, 300) == pytest.approx(0.2)


def _stats_advice(name: str, low: np.ndarray, high: np.ndarray, average: float) -> ContractAdvice:
    o = _stats(name, low, high)
    return ContractAdvice(name, name.title(), None, o, (o,), average, o.mean - average)


def test_settling_names_the_exact_advice() -> None:
    # Under a millisecond every score is open and the advice is not settled; the
    # settling rounds settle it, on the contract the exact scores give, and every
    # exact score lies in the interval it ends with.
    def run_(limit: float | None, settle: float | None = None, tol: float = 0.0) -> Advice:
        return advise(
            HAND,
            contracts=["barbu", "no-last-two", "trumps"],
            samples=3,
            seed=5,
            workers=1,
            time_limit=limit,
            settle_time=settle,
            tolerance=tol,
        )

    exact, lim, settled = run_(None), run_(1e-3), run_(1e-3, 300.0)
    assert exact.best is not None and settled.best is not None
    assert settled.settled and settled.best.contract == exact.best.contract
    assert settled.lows is not None and settled.highs is not None
    assert np.all(settled.lows <= exact.values) and np.all(exact.values <= settled.highs)
    assert settled.unfinished <= lim.unfinished
    if not lim.settled:
        assert settled.settle_rounds >= 1 and any("settling:" in n for n in settled.notes)
    rec = settled.as_dict()
    assert rec["settle_time"] == 300.0 and rec["settle_rounds"] == settled.settle_rounds
    with pytest.raises(ParseError, match="settling goes with a time limit"):
        advise(HAND, contracts=["reussite"], rules="french", samples=1, settle_time=1.0)
    with pytest.raises(ParseError, match="settling time must be a positive"):
        advise(HAND, contracts=["barbu"], samples=1, time_limit=1.0, settle_time=0.0)
    with pytest.raises(ParseError, match="tolerance must be a finite number of points, 0 or more"):
        advise(HAND, contracts=["barbu"], samples=1, time_limit=1.0, tolerance=-1.0)
    assert settled.regret == 0.0 and rec["regret"] == 0.0 and rec["tolerance"] == 0.0
    # a loose tolerance stops settling early, and the regret it leaves is within it
    loose = run_(1e-3, 300.0, 50.0)
    assert loose.regret <= 50.0 and loose.tolerance == 50.0


def test_time_limit_stops_a_slow_contract() -> None:
    # No Tricks on a full deal takes seconds: a millisecond leaves intervals, each
    # sample's within the contract's range (0 to -26), Dominoes still exact.
    adv = advise(
        HAND, contracts=["no-tricks", "dominoes:9"], samples=2, seed=1, workers=1, time_limit=1e-3
    )
    assert adv.lows is not None and adv.highs is not None
    nt, dom = adv.labels.index("no-tricks"), adv.labels.index("dominoes:9")
    assert np.all(adv.lows[:, nt] < adv.highs[:, nt])
    assert np.all(adv.lows[:, nt] >= -26) and np.all(adv.highs[:, nt] <= 0)
    assert np.array_equal(adv.lows[:, dom], adv.highs[:, dom])
    assert adv.contract("no-tricks").chosen.unfinished == 2 and adv.unfinished == 2


def test_cli_time_limit(tmp_path: Path) -> None:
    code, out, err = run(
        "advise", HAND, "-c", "no-tricks", "-c", "dominoes:9", "-n", "2", "--seed", "1",
        "-w", "1", "--time-limit", "0.001", "--json",
    )  # fmt: skip
    assert code == 0, err
    rec = json.loads(out)
    assert rec["time_limit"] == 0.001 and rec["unfinished"] == 2
    c = rec["contracts"][0]
    lo, hi = c["mean_bounds"]
    assert c["contract"] == "no-tricks" and c["unfinished"] == 2 and lo < c["mean"] < hi
    code, out, err = run(
        "advise", HAND, "-c", "no-tricks", "-n", "2", "--seed", "1", "-w", "1",
        "--time-limit", "0.001",
    )  # fmt: skip
    assert code == 0 and "proved (open)" in out and "(2)" in out and "time limit" in out
    assert "Advice:" in out
    code, out, err = run("advise", HAND, "-c", "dominoes", "-n", "1", "--time-limit", "0")
    assert code == 1 and out == "" and err.startswith("error: --time-limit must be")
    code, out, err = run("advise", HAND, "-c", "dominoes", "-n", "1", "--settle", "5")
    assert code == 1 and out == "" and err.startswith("error: --settle goes with --time-limit")
    code, out, err = run(
        "advise", HAND, "-c", "barbu", "-c", "dominoes:9", "-n", "2", "--seed", "1", "-w", "1",
        "--time-limit", "0.001", "--settle", "60", "--json",
    )  # fmt: skip
    assert code == 0, err
    rec = json.loads(out)
    assert rec["settle_time"] == 60 and rec["advice_settled"] and rec["contenders"] == []
    code, out, err = run("advise", HAND, "-c", "barbu", "-n", "1", "--tolerance", "1")
    assert code == 1 and out == "" and err.startswith("error: --tolerance goes with --settle")


def test_doubles_contract_outside_the_asked_ones_is_not_advised() -> None:
    """``--doubles barbu`` with ``-c dominoes:9``: Barbu is solved for its doubles only;
    the advice stays among the contracts asked for."""
    adv = advise("AK32.Q54.T98.762", contracts=["dominoes:9"], doubles="barbu", samples=2,
                 seed=1, workers=1, time_limit=0.2)  # fmt: skip
    assert [c.contract for c in adv.contracts] == ["dominoes"]
    assert adv.best is not None and adv.best.contract == "dominoes"
    assert adv.doubles is not None and adv.doubles.label == "barbu"
    with pytest.raises(ParseError, match="doubles_left is 0, 1 or 2"):
        advise("AK32.Q54.T98.762", contracts=["barbu"], doubles="barbu", doubles_left=3,
               samples=1, workers=1)  # fmt: skip
