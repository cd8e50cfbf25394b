"""The reference solver: exhaustive minimax on :mod:`barbu_dd.play`, and random positions.

Nothing but the rules engine and a memo: every legal card is tried at every node, and
positions are only memoised at trick boundaries (Dominoes: on the whole position),
so the values here are obviously right and slow.  The fast search is tested against
them on small endings.

- :func:`ref_trick_value` — the best total a *side* (a set of seats) can guarantee in
  the rest of the play of a trick contract, the other seats playing against it.
- :func:`ref_trick_values` — SPEC §5's answer: each seat alone against the three others.
- :func:`ref_domino_value` — the place points a seat can guarantee in Dominoes.
- :func:`random_ending`, :func:`random_midtrick`, :func:`random_domino_ending` — random
  positions from a :class:`random.Random`; :func:`endings`, :func:`midtricks`,
  :func:`domino_endings` — the same as hypothesis strategies.

The value of a position counts only the rest of the play from it (the trick in
progress included): tricks already completed on the :class:`Deal` object, and in
Ravage City the cards won in them, are not counted (they belong to the earlier,
uncounted tricks of an ending, SPEC §1).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from fractions import Fraction
from pathlib import Path

from hypothesis import strategies as st

from barbu_dd.cards import BB_ALL, Card, Rank, Seat, Suit, make_card, parse_card
from barbu_dd.contracts import Game, load_scale, make_game
from barbu_dd.deal import Deal
from barbu_dd.play import (
    DominoPosition,
    Layout,
    Score,
    domino_finished,
    domino_moves,
    domino_places,
    domino_play,
    legal_cards,
    score_tricks,
    trick_number,
    trick_value,
)

__all__ = [
    "ref_trick_value",
    "ref_trick_values",
    "ref_domino_value",
    "ref_domino_values",
    "all_play_scores",
    "BIASES",
    "random_ending",
    "point_holder_ending",
    "one_card_game",
    "one_card_games",
    "led_position",
    "random_full_deal",
    "random_midtrick",
    "random_domino_ending",
    "random_play",
    "endings",
    "midtricks",
    "domino_endings",
]


def _whole(x: Fraction | int) -> Score:
    if isinstance(x, Fraction) and x.denominator == 1:
        return int(x)
    return x


# -- trick contracts ------------------------------------------------------------------


def ref_trick_value(deal: Deal, game: Game, side: Iterable[int]) -> Score:
    """The best total score the seats of ``side`` can guarantee together in the rest of
    the play, the other seats playing to minimise it (exhaustive minimax).

    ``deal`` may be in the middle of a trick; its leader must be set.  For one seat
    this is SPEC §5's 1-against-3 value.  An empty side gets 0.
    """
    sd = frozenset(Seat(s) for s in side)
    d = deal.copy()
    trick_number(d)  # checks the position
    if game.kind == "ravage":
        zero = ((0, 0, 0, 0),) * 4
        return _whole(_ravage(d, game, sd, zero, {}))
    return _additive(d, game, sd, {})


def _additive(d: Deal, game: Game, side: frozenset[Seat], memo: dict[object, int]) -> int:
    """The side's points in the rest of the play (the trick in progress included)."""
    key = None
    if not d.trick:
        masks = d.masks
        if not any(masks):
            return 0
        key = (masks, d.leader)
        if key in memo:
            return memo[key]
    number = trick_number(d) if len(d.trick) == 3 else 0
    maximise = d.to_move in side
    best: int | None = None
    for c in legal_cards(d, game):
        t = d.play(c, trump=game.trump)
        v = 0
        if t is not None and t.winner in side:
            v = trick_value(game, t.cards, number)
        v += _additive(d, game, side, memo)
        d.unplay()
        if best is None or (v > best if maximise else v < best):
            best = v
    assert best is not None, "a seat to move always has a legal card"
    if key is not None:
        memo[key] = best
    return best


Won = tuple[tuple[int, int, int, int], ...]


def _ravage(
    d: Deal, game: Game, side: frozenset[Seat], won: Won, memo: dict[object, Fraction]
) -> Fraction:
    """The side's Ravage City score at the end of the play, given the cards won so far."""
    key = None
    if not d.trick:
        masks = d.masks
        if not any(masks):
            return _ravage_end(game, side, won)
        key = (masks, d.leader, won)
        if key in memo:
            return memo[key]
    maximise = d.to_move in side
    best: Fraction | None = None
    for c in legal_cards(d, game):
        t = d.play(c, trump=game.trump)
        w = won
        if t is not None:
            row = list(won[t.winner])
            for x in t.cards:
                row[x >> 4] += 1
            lst = list(won)
            lst[t.winner] = (row[0], row[1], row[2], row[3])
            w = tuple(lst)
        v = _ravage(d, game, side, w, memo)
        d.unplay()
        if best is None or (v > best if maximise else v < best):
            best = v
    assert best is not None, "a seat to move always has a legal card"
    if key is not None:
        memo[key] = best
    return best


def _ravage_end(game: Game, side: frozenset[Seat], won: Won) -> Fraction:
    """Ravage City's shares from the cards won (the rule itself, written out again)."""
    best = [max(w) for w in won]
    top = max(best)
    if top == 0:
        return Fraction(0)
    losers = [s for s in range(4) if best[s] == top]
    share = Fraction(game.scoring.penalty, len(losers))
    return sum((share for s in losers if s in side), Fraction(0))


def ref_trick_values(deal: Deal, game: Game) -> tuple[Score, Score, Score, Score]:
    """Each seat's optimal score alone against the other three (SPEC §5), N E S W."""
    v = [ref_trick_value(deal, game, {s}) for s in range(4)]
    return (v[0], v[1], v[2], v[3])


def all_play_scores(deal: Deal, game: Game) -> set[tuple[Score, Score, Score, Score]]:
    """The scores of every legal play of the rest of the position (tiny endings only)."""
    d = deal.copy()
    first = trick_number(d)
    n_before = len(d.tricks)
    out: set[tuple[Score, Score, Score, Score]] = set()

    def walk() -> None:
        if not d.trick and not any(d.masks):
            out.add(score_tricks(game, d.tricks[n_before:], first))
            return
        for c in legal_cards(d, game):
            d.play(c, trump=game.trump)
            walk()
            d.unplay()

    walk()
    return out


# -- Dominoes -------------------------------------------------------------------------


def ref_domino_value(pos: DominoPosition, game: Game, seat: int) -> int | None:
    """The place points ``seat`` can guarantee against the other three (exhaustive
    minimax); ``None`` if the seat was already out when the ending began."""
    s = Seat(seat)
    if s in pos.already_out:
        return None
    return _domino(pos, game, s, {})


def _domino(pos: DominoPosition, game: Game, seat: Seat, memo: dict[DominoPosition, int]) -> int:
    if seat in pos.order or domino_finished(pos):
        # The seat's place is settled once it is out, or the deal is over.
        if domino_finished(pos):
            p = domino_places(pos)[seat]
        else:
            p = len(pos.already_out) + pos.order.index(seat) + 1
        assert p is not None
        return game.places[p - 1]
    if pos in memo:
        return memo[pos]
    moves: list[Card | None] = list(domino_moves(pos, game)) or [None]
    maximise = pos.to_move == seat
    vals = [_domino(domino_play(pos, game, m), game, seat, memo) for m in moves]
    best = max(vals) if maximise else min(vals)
    memo[pos] = best
    return best


def ref_domino_values(pos: DominoPosition, game: Game) -> tuple[int | None, ...]:
    """Each seat's optimal place points alone against the other three, N E S W."""
    return tuple(ref_domino_value(pos, game, s) for s in range(4))


# -- random positions -----------------------------------------------------------------

#: The ``bias`` options of :func:`random_ending`.
BIASES: tuple[str | None, ...] = (None, "hearts", "queens", "kh", "trumps", "short", "duties")


def _sample(
    rng: random.Random, k: int, forced: Iterable[Card], weight: Callable[[Card], float]
) -> list[Card]:
    """``k`` distinct cards: the forced ones, then a weighted sample of the rest."""
    chosen = list(dict.fromkeys(forced))[:k]
    rest = [c for s in range(4) for c in (make_card(s, r) for r in range(13)) if c not in chosen]
    # Efraimidis-Spirakis: the k largest u ** (1 / w) are a weighted sample.
    keyed = sorted(rest, key=lambda c: rng.random() ** (1.0 / weight(c)), reverse=True)
    chosen += keyed[: k - len(chosen)]
    return chosen


def random_ending(
    rng: random.Random, n_cards: int, *, bias: str | None = None, trump: int = Suit.S
) -> Deal:
    """A random ending of ``n_cards`` a hand (from a random part of the deck), leader set.

    ``bias`` makes duty-heavy positions on purpose: ``'hearts'`` (many hearts, K♥ and
    A♥ in play), ``'queens'`` (the queens and K♥ in play), ``'kh'`` (K♥ in play),
    ``'trumps'`` (many cards of ``trump``, few other suits: voids and ruffs),
    ``'short'`` (cards from two or three suits: voids), ``'duties'`` (all of these at
    once: hearts, queens, K♥, few suits).
    """
    if not 1 <= n_cards <= 13:
        raise ValueError(f"n_cards must be 1..13, got {n_cards}")
    if bias not in BIASES:
        raise ValueError(f"unknown bias: {bias!r} (known: {BIASES})")
    k = 4 * n_cards
    hk, ah = make_card(Suit.H, Rank.K), make_card(Suit.H, Rank.A)
    queens = [make_card(s, Rank.Q) for s in range(4)]
    forced: list[Card] = []
    weights = [1.0, 1.0, 1.0, 1.0]
    if bias == "hearts":
        forced = [hk, ah]
        weights[Suit.H] = 6.0
    elif bias == "queens":
        forced = [hk, *queens]
    elif bias == "kh":
        forced = [hk]
    elif bias == "trumps":
        weights = [0.15] * 4
        weights[trump] = 5.0
        for s in rng.sample([s for s in range(4) if s != trump], 2):
            weights[s] = 1.0
    elif bias == "short":
        weights = [0.05] * 4
        for s in rng.sample(range(4), rng.choice((2, 3))):
            weights[s] = 1.0
    elif bias == "duties":
        forced = [hk, *rng.sample(queens, 2)]
        weights = [0.1] * 4
        weights[Suit.H] = 4.0
        weights[rng.choice((0, 2, 3))] = 1.0
    cards = _sample(rng, k, forced, lambda c: weights[c >> 4])
    rng.shuffle(cards)
    hands = [0, 0, 0, 0]
    for i, c in enumerate(cards):
        hands[i % 4] |= 1 << c
    return Deal(hands, leader=Seat(rng.randrange(4)))


def point_holder_ending(rng: random.Random, n_cards: int, point: Card, seat: Seat) -> Deal:
    """A random ending of ``n_cards`` a hand shaped for the lone seat's tests in a
    contract with one card of points (``point``): ``seat`` holds cards of the
    points' suit (often low ones) and of one other suit, sometimes a card or two of
    the others; another seat holds ``point``, often with many cards of that other
    suit.  ``seat`` leads four times in ten."""
    xs = point >> 4
    deck = [make_card(s, r) for s in range(4) for r in range(13) if make_card(s, r) != point]
    rng.shuffle(deck)
    hands: list[list[Card]] = [[], [], [], []]
    holder = rng.choice([s for s in range(4) if s != seat])
    hands[holder].append(point)
    y = rng.choice([s for s in range(4) if s != xs])

    def take(i: int, pool: list[Card], n: int) -> None:
        for c in pool[: max(0, min(n, n_cards - len(hands[i])))]:
            hands[i].append(c)
            deck.remove(c)

    top = rng.choice((3, 5, 6, 8, 10, 11, 12, 13))
    lows = [c for c in deck if c >> 4 == xs and (c & 15) < top]
    take(seat, lows, n_cards if rng.random() < 0.3 else rng.randrange(n_cards + 1))
    if rng.random() < 0.5:
        for _ in range(rng.randrange(1, 3)):
            cap = rng.choice((3, 5, 8, 13))
            side = [c for c in deck if c >> 4 not in (y, xs) and (c & 15) < cap]
            take(seat, [rng.choice(side)] if side else [], 1)
    take(seat, [c for c in deck if c >> 4 == y], n_cards)
    if rng.random() < 0.5:
        take(holder, [c for c in deck if c >> 4 == y], rng.randrange(n_cards))
    for i in range(4):
        take(i, list(deck), n_cards)
    masks = [0, 0, 0, 0]
    for i, h in enumerate(hands):
        for c in h:
            masks[i] |= 1 << c
    leader = seat if rng.random() < 0.4 else rng.randrange(4)
    return Deal(masks, leader=Seat(leader))


def one_card_game(tmp: Path, card: str) -> Game:
    """Classic Barbu with a scale (written to ``tmp``) whose only points are -20 on
    ``card``."""
    path = tmp / f"{card}.toml"
    path.write_text(
        f'name = "one"\nrules = "classic"\n\n[contracts.barbu]\ncards = {{ {card} = -20 }}\n',
        encoding="utf-8",
    )
    return make_game("barbu", scale=load_scale(path))


def one_card_games(tmp: Path) -> list[tuple[str, Game, Card]]:
    """Contracts whose points are on one card, for :func:`point_holder_ending`:
    Barbu in classic rules, with king duty and in French rules, and classic scales
    (written to ``tmp``) with the points on the ♠Q, ♦7 or ♣9 alone.  Each with a
    name and its card of points."""
    kh = make_card(Suit.H, Rank.K)
    games = [
        ("barbu", make_game("barbu"), kh),
        ("barbu king-duty", make_game("barbu", variants=("king-duty",)), kh),
        ("french barbu", make_game("barbu", rules="french"), kh),
    ]
    for card in ("SQ", "D7", "C9"):
        games.append((f"barbu, points on {card}", one_card_game(tmp, card), parse_card(card)))
    return games


def led_position(rng: random.Random, deal: Deal, game: Game, n: int) -> Deal:
    """``n`` random legal cards played on ``deal`` (in place), returned as a fresh
    deal whose only history is the trick in progress (a mid-trick position)."""
    random_play(rng, deal, game, n)
    led = Deal(list(deal.masks), leader=deal.leader)
    led.trick.extend(deal.trick)
    return led


def random_full_deal(rng: random.Random) -> Deal:
    """A random deal of all 52 cards, with a random leader."""
    return random_ending(rng, 13)


def random_play(rng: random.Random, deal: Deal, game: Game, n: int) -> list[Card]:
    """Play ``n`` random legal cards on ``deal`` (in place); the cards played."""
    played = []
    for _ in range(n):
        c = rng.choice(legal_cards(deal, game))
        deal.play(c, trump=game.trump)
        played.append(c)
    return played


def random_midtrick(
    rng: random.Random,
    n: int,
    k_played: int,
    *,
    game: Game | None = None,
    bias: str | None = None,
    trump: int = Suit.S,
) -> Deal:
    """A random ending of ``n`` cards a hand with ``k_played`` (0..3) legal cards of the
    first trick already played (legal in ``game``, default: only follow suit)."""
    if not 0 <= k_played <= 3:
        raise ValueError(f"k_played must be 0..3, got {k_played}")
    d = random_ending(rng, n, bias=bias, trump=trump)
    random_play(rng, d, game or make_game("no-tricks"), k_played)
    # A fresh deal: the cards of the trick in progress are its only history.
    out = Deal(list(d.masks), leader=d.leader)
    for c in d.trick:
        out.trick.append(c)
    return out


def random_domino_ending(
    rng: random.Random,
    game: Game,
    *,
    sizes: tuple[int, int] = (3, 7),
    max_out: int = 1,
) -> DominoPosition:
    """A random legal Dominoes ending: each suit on the table empty or one run holding
    the starting rank, hands of ``sizes[0]..sizes[1]`` cards (possibly different), up
    to ``max_out`` seats already out, a random seat with cards to move."""
    assert game.start is not None
    n_out = rng.randint(0, max_out)
    out = set(rng.sample(range(4), n_out))
    counts = [0 if s in out else rng.randint(*sizes) for s in range(4)]
    total = sum(counts)
    if total > 52:
        raise ValueError("hands too large")
    # Start from a full table and take cards off the ends of the runs.
    lay = Layout.from_cards(BB_ALL, game.start, game.low_aces)
    runs = list(lay.runs)
    low = game.low_aces

    def order(rank: int) -> int:  # the place of a rank in a run: 2..A, or A..K
        return (rank + 1) % 13 if low else rank

    def rank_at(place: int) -> Rank:
        return Rank((place - 1) % 13 if low else place)

    removed: list[Card] = []
    while len(removed) < total:
        s = rng.choice([i for i in range(4) if runs[i] is not None])
        run = runs[s]
        assert run is not None
        lo, hi = order(run[0]), order(run[1])
        st0 = order(game.start)
        if lo == hi:
            removed.append(make_card(s, rank_at(lo)))
            runs[s] = None
            continue
        ends = []
        if lo < st0:
            ends.append("lo")
        if hi > st0:
            ends.append("hi")
        if rng.choice(ends) == "lo":
            removed.append(make_card(s, rank_at(lo)))
            runs[s] = (rank_at(lo + 1), run[1])
        else:
            removed.append(make_card(s, rank_at(hi)))
            runs[s] = (run[0], rank_at(hi - 1))
    rng.shuffle(removed)
    hands = [0, 0, 0, 0]
    i = 0
    for s in range(4):
        for c in removed[i : i + counts[s]]:
            hands[s] |= 1 << c
        i += counts[s]
    with_cards = [s for s in range(4) if hands[s]]
    to_move = rng.choice(with_cards) if with_cards else 0
    return DominoPosition.from_hands(hands, game, to_move)


# -- hypothesis strategies ------------------------------------------------------------

_SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def endings(
    min_cards: int = 1, max_cards: int = 3, *, bias: str | None = None, trump: int = Suit.S
) -> st.SearchStrategy[Deal]:
    """Random endings of ``min_cards..max_cards`` cards a hand (see :func:`random_ending`)."""
    return st.builds(
        lambda seed, n: random_ending(random.Random(seed), n, bias=bias, trump=trump),
        _SEEDS,
        st.integers(min_cards, max_cards),
    )


def midtricks(
    min_cards: int = 1,
    max_cards: int = 3,
    *,
    game: Game | None = None,
    bias: str | None = None,
    trump: int = Suit.S,
) -> st.SearchStrategy[Deal]:
    """Random endings with 0..3 cards of the first trick played (see :func:`random_midtrick`)."""
    return st.builds(
        lambda seed, n, k: random_midtrick(
            random.Random(seed), n, k, game=game, bias=bias, trump=trump
        ),
        _SEEDS,
        st.integers(min_cards, max_cards),
        st.integers(0, 3),
    )


def domino_endings(
    game: Game, *, sizes: tuple[int, int] = (3, 7), max_out: int = 1
) -> st.SearchStrategy[DominoPosition]:
    """Random Dominoes endings (see :func:`random_domino_ending`)."""
    return st.builds(
        lambda seed: random_domino_ending(random.Random(seed), game, sizes=sizes, max_out=max_out),
        _SEEDS,
    )
