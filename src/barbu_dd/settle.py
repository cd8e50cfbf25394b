"""Doubles, settlement, sessions and score sheets (SPEC §6 and §7).

A :class:`Doubles` record says who doubled whom in one deal: a set of ordered
pairs ``(doubler, doubled)``.  :func:`may_double`, :func:`maximum_doubles` and
:func:`check_doubles` apply the doubling rules; :func:`settle` turns the play
scores of a deal and its doubles into the scores written on the sheet.

A :class:`Session` is a whole game of Barbu (28 deals, 32, 24 or 12): it is read
from a TOML file by :func:`load_session` (the format is documented, with complete
examples, in ``examples/session.toml`` and ``examples/session-french.toml``),
validated by :func:`check_session`, and turned into a :class:`ScoreSheet` by
:func:`score_session`.

Errors: :class:`~barbu_dd.errors.ParseError` for malformed text or unknown names,
:class:`~barbu_dd.errors.IllegalPlayError` for anything that breaks a rule of the
game (a double, the declarer order, a contract named twice, compulsory doubles not
made), :class:`~barbu_dd.errors.InvalidPositionError` for play scores that cannot
occur.  Session messages name the deal: ``deal 9: ...``.

The seed's example: Anna (N) declares No Queens, Ben says "maximum", Carla
doubles Anna, Dan passes, Anna redoubles Carla.

>>> d = parse_doubles(["E:max", "S>N", "N>S"], declarer=Seat.N, contract="no-queens")
>>> d.describe(Seat.N)
'E>N,S,W S>N N>S'
>>> settle((-6, 0, -6, -12), d)
(-12, 24, -12, -24)
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeAlias

from .cards import RANK_CHARS, SEATS, SUIT_SYMBOLS, Rank, Seat, Suit, parse_seat, to_seat
from .contracts import (
    RULE_SETS,
    Contract,
    Game,
    Scale,
    contracts_of,
    default_scale,
    find_contract,
    load_scale,
    make_game,
    normalize_name,
    parse_variants,
)
from .errors import BarbuError, IllegalPlayError, InvalidPositionError, ParseError

__all__ = [
    "Doubles",
    "Scores",
    "turn_order",
    "may_double",
    "maximum_doubles",
    "check_doubles",
    "parse_doubles",
    "settle",
    "SESSION_FORMATS",
    "SessionDeal",
    "Session",
    "OwedDoubles",
    "SheetRow",
    "ScoreSheet",
    "check_session",
    "doubles_owed",
    "parse_session",
    "load_session",
    "score_session",
]

#: Four scores in seat order N, E, S, W.
Scores: TypeAlias = tuple[int, int, int, int]
Pair: TypeAlias = tuple[Seat, Seat]

_MAX_WORDS = frozenset({"max", "maximum"})
_PASS_WORDS = frozenset({"pass", "-", ""})


# -- doubles ------------------------------------------------------------------------


def _label(seat: Seat, players: Sequence[str] | None) -> str:
    return f"{players[seat]} ({seat.name})" if players else seat.name


def turn_order(declarer: Seat) -> tuple[Seat, Seat, Seat, Seat]:
    """The doubling order: each player in turn from the declarer's left, the declarer last.

    >>> [s.name for s in turn_order(Seat.S)]
    ['W', 'N', 'E', 'S']
    """
    d = Seat(declarer)
    return (d.left, d.left.left, d.right, d)


def _turn(seat: Seat, declarer: Seat) -> int:
    """0 for the declarer's left ... 3 for the declarer."""
    return (seat - declarer - 1) & 3


@dataclass(frozen=True, init=False)
class Doubles:
    """Who doubled whom in one deal: a set of ordered pairs ``(doubler, doubled)``.

    When both ``(a, b)`` and ``(b, a)`` are present, one of them is the redouble.
    The record holds no rules; :func:`check_doubles` checks it against a deal.

    :raises ParseError: if a pair is not two seats.
    :raises IllegalPlayError: if a player doubles themselves.

    >>> d = Doubles([(Seat.E, Seat.N), (Seat.N, Seat.E)])
    >>> d
    Doubles.parse('N>E E>N')
    >>> d.factor(Seat.N, Seat.E), d.factor(Seat.N, Seat.S)
    (2, 0)
    """

    pairs: frozenset[Pair]

    def __init__(self, pairs: Iterable[tuple[Seat | int | str, Seat | int | str]] = ()) -> None:
        out: set[Pair] = set()
        for p in pairs:
            try:
                a, b = p
            except (TypeError, ValueError):
                raise ParseError(
                    f"a double is a (doubler, doubled) pair of seats, got {p!r}"
                ) from None
            sa, sb = to_seat(a), to_seat(b)
            if sa == sb:
                raise IllegalPlayError(
                    f"illegal double {sa.name}>{sb.name}: a player cannot double themselves"
                )
            out.add((sa, sb))
        object.__setattr__(self, "pairs", frozenset(out))

    @classmethod
    def parse(cls, text: str) -> Doubles:
        """Doubles from plain text: calls ``DOUBLER>TARGET[,TARGET...]`` separated by spaces.

        Only seat letters here, and no ``max``: use :func:`parse_doubles` for player
        names, ``max`` and the rules.

        :raises ParseError: on malformed text.

        >>> sorted(Doubles.parse("E>N,S S>N"))
        [(<Seat.E: 1>, <Seat.N: 0>), (<Seat.E: 1>, <Seat.S: 2>), (<Seat.S: 2>, <Seat.N: 0>)]
        """
        pairs: list[Pair] = []
        for token in text.split():
            if ">" not in token:
                raise ParseError(f"invalid double: {token!r} (write DOUBLER>TARGET, e.g. 'E>N')")
            who, _, targets = token.partition(">")
            doubler = parse_seat(who)
            for t in targets.split(","):
                pairs.append((doubler, parse_seat(t)))
        return cls(pairs)

    def __contains__(self, pair: object) -> bool:
        return pair in self.pairs

    def __iter__(self) -> Iterator[Pair]:
        return iter(sorted(self.pairs))

    def __len__(self) -> int:
        return len(self.pairs)

    def __bool__(self) -> bool:
        return bool(self.pairs)

    def factor(self, a: Seat, b: Seat) -> int:
        """How many doubles there are between ``a`` and ``b``: 0, 1 or 2 (redoubled)."""
        return ((a, b) in self.pairs) + ((b, a) in self.pairs)

    def targets(self, doubler: Seat) -> frozenset[Seat]:
        """The players ``doubler`` doubled."""
        return frozenset(b for a, b in self.pairs if a == doubler)

    def doublers(self, target: Seat) -> frozenset[Seat]:
        """The players who doubled ``target``."""
        return frozenset(a for a, b in self.pairs if b == target)

    def calls(self, declarer: Seat | None = None) -> tuple[Pair, ...]:
        """The doubles in the order they are made: by doubler in turn from the declarer's
        left (seat order N, E, S, W without a declarer), then by target in seat order."""
        if declarer is None:
            return tuple(sorted(self.pairs))
        return tuple(sorted(self.pairs, key=lambda p: (_turn(p[0], declarer), p[1])))

    def describe(self, declarer: Seat | None = None, players: Sequence[str] | None = None) -> str:
        """The doubles as text, one call per doubler: ``'E>N,S,W S>N N>S'`` (``''`` if none).

        With ``players`` the names replace the seat letters.
        """
        groups: dict[Seat, list[Seat]] = {}
        for a, b in self.calls(declarer):
            groups.setdefault(a, []).append(b)

        def name(s: Seat) -> str:
            return players[s] if players else s.name

        return " ".join(f"{name(a)}>{','.join(name(b) for b in bs)}" for a, bs in groups.items())

    def __str__(self) -> str:
        return self.describe()

    def __repr__(self) -> str:
        return f"Doubles.parse({self.describe()!r})"


def _as_doubles(value: Doubles | Iterable[tuple[Seat, Seat]]) -> Doubles:
    return value if isinstance(value, Doubles) else Doubles(value)


def _as_contract(contract: Contract | Game | str) -> Contract:
    if isinstance(contract, Game):
        return contract.contract
    if isinstance(contract, Contract):
        return contract
    return find_contract(contract)


def _out_of_turn(
    doubler: Seat, declarer: Seat, earlier: Doubles, players: Sequence[str] | None = None
) -> str | None:
    """Why ``doubler``'s turn has passed (a player after them has doubled), or None."""
    later = sorted(
        {a for a, _ in earlier if _turn(a, declarer) > _turn(doubler, declarer)},
        key=lambda s: _turn(s, declarer),
    )
    if not later:
        return None
    order = ", ".join(s.name for s in turn_order(declarer))
    return (
        f"out of turn, {_label(later[0], players)} has already doubled "
        f"(each player once, in the order {order}: the declarer last)"
    )


def _why_not(
    doubler: Seat,
    target: Seat,
    declarer: Seat,
    contract: Contract,
    earlier: Doubles,
    variants: frozenset[str],
    players: Sequence[str] | None = None,
) -> str | None:
    """Why ``doubler`` may not double ``target`` now, or None if they may."""

    def lab(s: Seat) -> str:
        return _label(s, players)

    if doubler == target:
        return "a player cannot double themselves"
    late = _out_of_turn(doubler, declarer, earlier, players)
    if late is not None:
        return late
    if (doubler, target) in earlier:
        return f"{lab(doubler)} has already doubled {lab(target)}"
    if doubler == declarer:
        if (target, declarer) not in earlier:
            return (
                f"the declarer {lab(declarer)} may only redouble players who doubled them, "
                f"and {lab(target)} did not"
            )
        return None
    if target != declarer:
        if contract.positive:
            return (
                f"in {contract.title}, a positive contract, only the declarer "
                f"{lab(declarer)} may be doubled"
            )
        if "only-double-declarer" in variants:
            return (
                f"with the only-double-declarer variant, only the declarer "
                f"{lab(declarer)} may be doubled"
            )
    return None


def may_double(
    doubler: Seat,
    target: Seat,
    declarer: Seat,
    contract: Contract | Game | str,
    earlier_doubles: Doubles | Iterable[tuple[Seat, Seat]] = (),
    variants: Iterable[str] = (),
) -> bool:
    """Whether ``doubler`` may double ``target`` after ``earlier_doubles`` (SPEC §6).

    Each player in turn from the declarer's left, the declarer last, may double any
    of the others, once each; doubling one who doubled you is a redouble.  The
    declarer may only redouble.  In a positive contract (Trumps, Dominoes, Réussite),
    or with the ``only-double-declarer`` variant, only the declarer may be doubled.
    A player whose turn has passed (someone after them in the order has doubled)
    may not double any more.

    :raises ParseError: for an unknown contract or variant name.

    >>> may_double(Seat.E, Seat.S, Seat.N, "no-queens")
    True
    >>> may_double(Seat.E, Seat.S, Seat.N, "trumps")
    False
    >>> may_double(Seat.N, Seat.S, Seat.N, "no-queens", [(Seat.S, Seat.N)])
    True
    """
    reason = _why_not(
        to_seat(doubler),
        to_seat(target),
        to_seat(declarer),
        _as_contract(contract),
        _as_doubles(earlier_doubles),
        parse_variants(variants),
    )
    return reason is None


def maximum_doubles(
    doubler: Seat,
    declarer: Seat,
    contract: Contract | Game | str,
    earlier_doubles: Doubles | Iterable[tuple[Seat, Seat]] = (),
    variants: Iterable[str] = (),
) -> frozenset[Seat]:
    """The players ``doubler`` doubles by saying "maximum": everyone they may double now.

    :raises ParseError: for an unknown contract or variant name.

    >>> sorted(s.name for s in maximum_doubles(Seat.E, Seat.N, "no-queens"))
    ['N', 'S', 'W']
    >>> sorted(s.name for s in maximum_doubles(Seat.E, Seat.N, "dominoes"))
    ['N']
    """
    d, decl = to_seat(doubler), to_seat(declarer)
    c = _as_contract(contract)
    earlier = _as_doubles(earlier_doubles)
    vs = parse_variants(variants)
    return frozenset(t for t in SEATS if _why_not(d, t, decl, c, earlier, vs) is None)


def check_doubles(
    calls: Doubles | Iterable[tuple[Seat, Seat]],
    declarer: Seat,
    contract: Contract | Game | str,
    variants: Iterable[str] = (),
    players: Sequence[str] | None = None,
) -> Doubles:
    """Check the doubles of one deal against the rules and return them as a :class:`Doubles`.

    ``calls`` is either a :class:`Doubles` (checked in the order of play, see
    :meth:`Doubles.calls`) or a sequence of ``(doubler, doubled)`` pairs in the order
    they were made, which must then follow the turn order too.  ``players`` (four
    names, seat order) only makes the messages friendlier.

    :raises IllegalPlayError: for the first double that breaks a rule, with the reason.
    :raises ParseError: for an unknown contract or variant, or a pair that is not two seats.

    >>> check_doubles([(Seat.S, Seat.N), (Seat.E, Seat.N)], Seat.N, "barbu")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    barbu_dd.errors.IllegalPlayError: illegal double E>N: out of turn, S has already doubled ...
    """
    decl = to_seat(declarer)
    c = _as_contract(contract)
    vs = parse_variants(variants)
    seq: Sequence[tuple[Any, Any]] = (
        calls.calls(decl) if isinstance(calls, Doubles) else list(calls)
    )
    done: list[Pair] = []
    for pair in seq:
        one = Doubles([pair])  # validates the pair
        ((a, b),) = one.pairs
        reason = _why_not(a, b, decl, c, Doubles(done), vs, players)
        if reason is not None:
            who = (
                f"{_label(a, players)} > {_label(b, players)}" if players else f"{a.name}>{b.name}"
            )
            raise IllegalPlayError(f"illegal double {who}: {reason}")
        done.append((a, b))
    return Doubles(done)


def _who(text: str, players: Sequence[str] | None) -> Seat:
    t = text.strip()
    if players:
        for i, name in enumerate(players):
            if name.casefold() == t.casefold():
                return Seat(i)
    try:
        return parse_seat(t)
    except ParseError:
        known = f" (players: {', '.join(players)})" if players else ""
        raise ParseError(f"unknown player or seat: {text!r}{known}") from None


def _calls_of(
    spec: object, declarer: Seat, players: Sequence[str] | None
) -> list[tuple[Seat, str | Seat]]:
    """Turn the doubles spec into a list of (doubler, target-or-'max') in the written order."""
    out: list[tuple[Seat, str | Seat]] = []

    def targets(doubler: Seat, value: object, where: str) -> None:
        if isinstance(value, str):
            words = (
                [value] if normalize_name(value) in _MAX_WORDS | _PASS_WORDS else value.split(",")
            )
            items: list[object] = list(words)
        elif isinstance(value, list):
            items = list(value)
        else:
            raise ParseError(
                f"invalid doubles for {where}: {value!r} (a name, a list of names, 'max' or 'pass')"
            )
        for item in items:
            if not isinstance(item, str):
                raise ParseError(f"invalid doubled player: {item!r}")
            word = normalize_name(item)
            if word in _MAX_WORDS:
                out.append((doubler, "max"))
            elif word in _PASS_WORDS:
                continue
            else:
                out.append((doubler, _who(item, players)))

    if spec is None:
        return out
    if isinstance(spec, Mapping):
        keyed = [(_who(str(k), players), v, str(k)) for k, v in spec.items()]
        seen: set[Seat] = set()
        for seat, _, k in keyed:
            if seat in seen:
                raise ParseError(f"doubles: {k!r} is given twice")
            seen.add(seat)
        for seat, value, k in sorted(keyed, key=lambda x: _turn(x[0], declarer)):
            targets(seat, value, repr(k))
        return out
    if isinstance(spec, str):
        items = spec.split()
    elif isinstance(spec, list | tuple):
        items = list(spec)
    else:
        raise ParseError(f"invalid doubles: {spec!r} (a list of calls such as 'E>N,S' or 'E:max')")
    for item in items:
        if not isinstance(item, str):
            raise ParseError(f"invalid double: {item!r} (write 'E>N', 'E>N,S' or 'E:max')")
        text = item.strip()
        cut = min((i for i in (text.find(">"), text.find(":")) if i >= 0), default=-1)
        if cut <= 0:
            raise ParseError(f"invalid double: {item!r} (write 'E>N', 'E>N,S' or 'E:max')")
        doubler = _who(text[:cut], players)
        rest = text[cut + 1 :].strip()
        if not rest:
            raise ParseError(f"invalid double: {item!r} (nobody doubled)")
        targets(doubler, rest, repr(item))
    return out


def parse_doubles(
    spec: str | Sequence[str] | Mapping[str, Any] | None,
    declarer: Seat,
    contract: Contract | Game | str,
    variants: Iterable[str] = (),
    players: Sequence[str] | None = None,
) -> Doubles:
    """Read the doubles of a deal and check them against the rules.

    ``spec`` is one of:

    - a list of calls in the order they were made: ``["E>N,S,W", "S>N", "N>S"]``;
      ``"E:max"`` (or ``"E>max"``) is "maximum" at that point, ``"W:pass"`` a pass;
    - the same calls in one string separated by spaces: ``"E:max S>N N>S"``;
    - a table per doubler, any order: ``{E = "max", S = ["N"], N = "S"}``.

    Players are seat letters or, with ``players``, their names (any case).

    :raises ParseError: for malformed text or an unknown name.
    :raises IllegalPlayError: for a double that breaks a rule (:func:`check_doubles`).

    >>> parse_doubles({"Anna": "max", "Ben": "Anna"}, Seat.N, "trumps",
    ...               players=["Anna", "Ben", "Carla", "Dan"]).describe(Seat.N)
    'E>N N>E'
    """
    decl = to_seat(declarer)
    c = _as_contract(contract)
    vs = parse_variants(variants)
    done: list[Pair] = []
    for doubler, target in _calls_of(spec, decl, players):
        if target == "max":
            reason = _out_of_turn(doubler, decl, Doubles(done), players)
            if reason is not None:
                raise IllegalPlayError(
                    f"illegal double {_label(doubler, players)} > maximum: {reason}"
                )
            for t in turn_order(decl):
                if _why_not(doubler, t, decl, c, Doubles(done), vs) is None:
                    done.append((doubler, t))
        else:
            assert isinstance(target, Seat)
            done.append((doubler, target))
            check_doubles(done, decl, c, vs, players)
    return check_doubles(done, decl, c, vs, players)


def settle(scores: Sequence[int], doubles: Doubles | Iterable[tuple[Seat, Seat]]) -> Scores:
    """The scores of a deal after settling the doubles (SPEC §6).

    For each of the six pairs ``(a, b)``: no double, nothing; one double, ``a`` gains
    ``sa - sb`` and ``b`` gains ``sb - sa``; double and redouble, twice that.  The
    sum of the four scores does not change.

    :raises ParseError: if ``scores`` is not four whole numbers.

    >>> settle((-6, 0, -6, -12), Doubles.parse("E>N,S,W S>N N>S"))
    (-12, 24, -12, -24)
    """
    s = _four_ints(scores, "scores")
    d = _as_doubles(doubles)
    out = list(s)
    for a in range(4):
        for b in range(a + 1, 4):
            f = d.factor(Seat(a), Seat(b))
            if f:
                delta = f * (s[a] - s[b])
                out[a] += delta
                out[b] -= delta
    return (out[0], out[1], out[2], out[3])


def _four_ints(values: object, what: str) -> Scores:
    if isinstance(values, str | bytes) or not isinstance(values, Sequence) or len(values) != 4:
        raise ParseError(f"{what} must be four whole numbers (seats N, E, S, W), got {values!r}")
    for v in values:
        if isinstance(v, bool) or not isinstance(v, int):
            raise ParseError(f"{what} must be four whole numbers, got {v!r}")
    return (int(values[0]), int(values[1]), int(values[2]), int(values[3]))


# -- sessions -----------------------------------------------------------------------

#: The session formats of each rule set, with the contracts a declarer names.
SESSION_FORMATS: dict[str, dict[str, str]] = {
    "classic": {
        "full": "each declarer names the seven contracts once: 28 deals (32 with ravage-city)",
    },
    "french": {
        "full": "each declarer names the seven contracts once: 28 deals",
        "no-salad": "six contracts, no Salad: 24 deals",
        "short": "three freely chosen contracts per declarer: 12 deals",
    },
}


@dataclass(frozen=True)
class SessionDeal:
    """One deal of a session: declarer, the resolved contract, play scores, doubles."""

    declarer: Seat
    game: Game
    scores: Scores
    doubles: Doubles = Doubles()
    note: str = ""


@dataclass(frozen=True)
class Session:
    """A game of Barbu: players, rules, variants, scale, format and the deals so far.

    ``scale`` None means the rule set's default (with ``other-scores`` if that
    variant is on).  ``compulsory_doubles`` None means the rule set's default: 2 in
    classic (SPEC §6), 0 in French (the French rules have no compulsory doubles).
    """

    players: tuple[str, str, str, str]
    deals: tuple[SessionDeal, ...] = ()
    rules: str = "classic"
    variants: frozenset[str] = frozenset()
    scale: Scale | None = None
    format: str = "full"
    compulsory_doubles: int | None = None
    title: str = ""
    source: str = ""

    @property
    def contracts(self) -> tuple[Contract, ...]:
        """The contracts a declarer may name in this session."""
        cs = contracts_of(self.rules, self.variants)
        if self.format == "no-salad":
            cs = tuple(c for c in cs if c.name != "salad")
        return cs

    @property
    def per_declarer(self) -> int:
        """How many deals each declarer plays: 7 (8 with Ravage City), 6 or 3."""
        return 3 if self.format == "short" else len(self.contracts)

    @property
    def length(self) -> int:
        """The number of deals of the complete session."""
        return 4 * self.per_declarer

    @property
    def complete(self) -> bool:
        """Whether every deal has been played."""
        return len(self.deals) == self.length

    @property
    def required_doubles(self) -> int:
        """How many times each player must double each declarer during their deals."""
        if self.compulsory_doubles is not None:
            return self.compulsory_doubles
        return 2 if self.rules == "classic" else 0

    def label(self, seat: Seat) -> str:
        """``'Anna (N)'``."""
        return _label(seat, self.players)


@dataclass(frozen=True)
class OwedDoubles:
    """Compulsory doubles not yet made against the declarer of an unfinished block."""

    declarer: Seat
    player: Seat
    owed: int
    deals_left: int


def _restate(e: BarbuError, prefix: str) -> BarbuError:
    return type(e)(f"{prefix}: {e}")


class _Checker:
    """Checks a session deal by deal, so that the first broken deal is the one named."""

    def __init__(self, session: Session) -> None:
        self.s = session
        fmts = SESSION_FORMATS.get(session.rules)
        if fmts is None:
            raise ParseError(
                f"sessions are played with the classic or french rules, not {session.rules!r}"
            )
        if session.format not in fmts:
            raise ParseError(
                f"unknown format {session.format!r} for the {session.rules} rules "
                f"(known: {', '.join(fmts)})"
            )
        if "ravage-city" in session.variants and session.rules != "classic":
            raise ParseError("the ravage-city variant needs the classic rules")
        req = session.required_doubles
        if not 0 <= req <= session.per_declarer:
            raise ParseError(
                f"compulsory_doubles must be 0..{session.per_declarer} "
                f"(one double a deal at most), got {req}"
            )
        self.allowed = {c.name for c in session.contracts}
        self.named: dict[str, int] = {}

    def structure(self, i: int, deal: SessionDeal) -> None:
        s, n, k = self.s, i + 1, self.s.per_declarer
        if i >= s.length:
            raise IllegalPlayError(f"deal {n}: the session is over after {s.length} deals")
        first = s.deals[0].declarer if s.deals else deal.declarer
        block = i // k
        expected = Seat((first + block) & 3)
        if i % k == 0:
            self.named = {}
        if deal.declarer != expected:
            if block == 0:
                why = f"{s.label(expected)} declares deals 1-{k}"
            else:
                prev = Seat((expected + 3) & 3)
                why = (
                    f"{s.label(expected)}, on the left of {s.label(prev)}, declares deals "
                    f"{block * k + 1}-{block * k + k}"
                )
            raise IllegalPlayError(f"deal {n}: {s.label(deal.declarer)} may not declare: {why}")
        g = deal.game
        if g.rules != s.rules:
            raise ParseError(
                f"deal {n}: the contract is in the {g.rules} rules, the session is {s.rules}"
            )
        name = g.contract.name
        if name not in self.allowed:
            raise IllegalPlayError(
                f"deal {n}: {g.contract.title} is not played in this session "
                f"(contracts: {', '.join(sorted(self.allowed))})"
            )
        if name in self.named:
            raise IllegalPlayError(
                f"deal {n}: {s.label(deal.declarer)} already named {g.contract.title} "
                f"in deal {self.named[name]}"
            )
        self.named[name] = n
        try:
            _check_scores(deal.scores, g)
        except BarbuError as e:
            raise _restate(e, f"deal {n}") from None

    def doubles(self, i: int, deal: SessionDeal) -> None:
        try:
            check_doubles(deal.doubles, deal.declarer, deal.game, self.s.variants, self.s.players)
        except BarbuError as e:
            raise _restate(e, f"deal {i + 1}") from None

    def block_end(self, i: int) -> None:
        s, k, req = self.s, self.s.per_declarer, self.s.required_doubles
        if req == 0 or i % k != k - 1:
            return
        start = i - k + 1
        block = s.deals[start : i + 1]
        decl = block[0].declarer
        for p in turn_order(decl)[:3]:
            count = sum((p, decl) in d.doubles for d in block)
            if count < req:
                times = {0: "never", 1: "only once"}.get(count, f"only {count} times")
                raise IllegalPlayError(
                    f"deal {i + 1}: {s.label(p)} doubled the declarer {s.label(decl)} {times} "
                    f"in deals {start + 1}-{i + 1}, but {req} doubles are compulsory"
                )


def _check_scores(scores: Scores, game: Game) -> None:
    total = game.total
    got = sum(scores)
    title = game.contract.title
    if game.kind == "dominoes":
        if sorted(scores) != sorted(game.places):
            raise InvalidPositionError(
                f"play scores {list(scores)} are not the finishing places {list(game.places)} "
                f"of {title} in some order"
            )
        return
    if got != total:
        raise InvalidPositionError(
            f"play scores {list(scores)} add up to {got}, but {title} hands out {total}"
        )
    if game.kind == "ravage":
        losers = [v for v in scores if v != 0]
        if losers and total % len(losers) == 0 and any(v != total // len(losers) for v in losers):
            raise InvalidPositionError(
                f"play scores {list(scores)}: the penalty {total} of {title} is shared equally"
            )
        return
    values = [*game.card_points, *game.trick_points]
    if all(v <= 0 for v in values) and any(v > 0 for v in scores):
        raise InvalidPositionError(f"play scores {list(scores)}: {title} hands out only penalties")
    if all(v >= 0 for v in values) and any(v < 0 for v in scores):
        raise InvalidPositionError(f"play scores {list(scores)}: {title} hands out no penalties")
    # each player's score is the sum of some of the deal's point items (cards with
    # points, and each trick's own points): a necessary test, not a sufficient one
    items = [v for i, v in enumerate(game.card_points) if v and (i & 15) < 13]
    items += [v for v in game.trick_points if v]
    sums = _subset_sums(items)
    if sums is not None:
        for v in scores:
            if v not in sums:
                raise InvalidPositionError(
                    f"play scores {list(scores)}: {v} is no sum of the points {title} hands out"
                )


def _subset_sums(items: list[int], cap: int = 100_000) -> set[int] | None:
    """Every sum of a sub-multiset of ``items``; ``None`` past ``cap`` sums (a scale
    with many distinct values: then no test)."""
    sums = {0}
    for v in items:
        sums |= {x + v for x in sums}
        if len(sums) > cap:
            return None
    return sums


def check_session(session: Session) -> None:
    """Check a session against the rules of SPEC §7, deal by deal.

    Checked: the format and the number of deals; each declarer in turn (clockwise
    from the first) for a block of 7 deals (8 with Ravage City, 6 without the Salad,
    3 in the short game); no contract named twice by a declarer; contracts of the
    session only; play scores that add up to the contract's total under the
    session's scale, each a sum of some of its point items (Dominoes/Réussite: the
    finishing places); legal doubles; and,
    for each finished block, the compulsory doubles.  A session still in progress is
    fine (see :func:`doubles_owed`).

    :raises ParseError: for a bad format, rule set or setting.
    :raises IllegalPlayError: for a broken rule, naming the deal.
    :raises InvalidPositionError: for impossible play scores, naming the deal.
    """
    ck = _Checker(session)
    for i, deal in enumerate(session.deals):
        ck.structure(i, deal)
        ck.doubles(i, deal)
        ck.block_end(i)


def doubles_owed(session: Session) -> tuple[OwedDoubles, ...]:
    """The compulsory doubles still owed to the declarer of an unfinished block.

    >>> doubles_owed(Session(("A", "B", "C", "D")))
    ()
    """
    k, req, n = session.per_declarer, session.required_doubles, len(session.deals)
    if req == 0 or n == 0 or n % k == 0 or n >= session.length:
        return ()
    start = n - n % k
    block = session.deals[start:]
    decl = block[0].declarer
    out = []
    for p in turn_order(decl)[:3]:
        count = sum((p, decl) in d.doubles for d in block)
        if count < req:
            out.append(OwedDoubles(decl, p, req - count, k - len(block)))
    return tuple(out)


# -- reading a session file ---------------------------------------------------------

_TOP_KEYS = (
    "title",
    "rules",
    "variants",
    "scale",
    "format",
    "compulsory_doubles",
    "players",
    "deal",
)
_DEAL_KEYS = ("declarer", "contract", "trump", "start", "scores", "doubles", "note")


def _players(value: object) -> tuple[str, str, str, str]:
    if isinstance(value, Mapping):
        by_seat: dict[Seat, str] = {}
        for k, v in value.items():
            by_seat[parse_seat(str(k))] = v
        if len(by_seat) != 4:
            raise ParseError(f"players needs the four seats N, E, S, W, got {sorted(value)!r}")
        names: list[object] = [by_seat[s] for s in SEATS]
    elif isinstance(value, list):
        names = list(value)
    else:
        raise ParseError("players must be a list of four names (seats N, E, S, W)")
    if len(names) != 4:
        raise ParseError(f"players must be four names (seats N, E, S, W), got {len(names)}")
    seen: set[str] = set()
    for name in names:
        if not isinstance(name, str) or not name.strip():
            raise ParseError(f"invalid player name: {name!r}")
        if any(ch in name for ch in ">:,"):
            raise ParseError(f"invalid player name: {name!r} (no '>', ':' or ',')")
        try:
            parse_seat(name)
        except ParseError:
            pass
        else:
            raise ParseError(f"invalid player name: {name!r} (it is a seat name)")
        if name.strip().casefold() in seen:
            raise ParseError(f"player name given twice: {name!r}")
        seen.add(name.strip().casefold())
    return (
        str(names[0]).strip(),
        str(names[1]).strip(),
        str(names[2]).strip(),
        str(names[3]).strip(),
    )


def _str(table: Mapping[str, Any], key: str, default: str | None = None) -> str | None:
    v = table.get(key, default)
    if v is None or isinstance(v, str):
        return v
    raise ParseError(f"{key} must be text, got {v!r}")


def _scores(value: object, players: Sequence[str]) -> Scores:
    if isinstance(value, Mapping):
        by_seat: dict[Seat, object] = {}
        for k, v in value.items():
            by_seat[_who(str(k), players)] = v
        if len(by_seat) != 4:
            raise ParseError(f"scores needs all four players, got {sorted(value)!r}")
        value = [by_seat[s] for s in SEATS]
    return _four_ints(value, "scores")


def _deal(table: object, session: Session) -> SessionDeal:
    if not isinstance(table, Mapping):
        raise ParseError("each [[deal]] must be a table")
    for key in table:
        if key not in _DEAL_KEYS:
            raise ParseError(f"unknown key {key!r} (known: {', '.join(_DEAL_KEYS)})")
    if "declarer" not in table or "contract" not in table or "scores" not in table:
        missing = [k for k in ("declarer", "contract", "scores") if k not in table]
        raise ParseError(f"missing {', '.join(missing)}")
    declarer = _who(str(table["declarer"]), session.players)
    contract = find_contract(_str(table, "contract") or "", session.rules)
    trump = _str(table, "trump")
    start = table.get("start")
    if isinstance(start, int) and not isinstance(start, bool):
        start = str(start)
    if start is not None and not isinstance(start, str):
        raise ParseError(f"start must be a rank, got {start!r}")
    if contract.needs_start and start is None:
        raise ParseError(f'{contract.title} needs a starting rank (start = "9")')
    game = make_game(
        contract,
        rules=session.rules,
        variants=session.variants,
        scale=session.scale,
        trump=trump,
        start=start,
    )
    scores = _scores(table["scores"], session.players)
    note = _str(table, "note", "") or ""
    return SessionDeal(declarer, game, scores, Doubles(), note)


def parse_session(
    data: Mapping[str, Any], *, base_dir: str | Path | None = None, source: str = ""
) -> Session:
    """A session from the parsed TOML table of a session file, checked as it is read.

    ``base_dir`` is where a relative ``scale`` path is looked up.  The format is
    described in ``examples/session.toml``.

    :raises ParseError: for a malformed session or an unknown name.
    :raises IllegalPlayError: for a broken rule (see :func:`check_session`).
    :raises InvalidPositionError: for impossible play scores.

    >>> s = parse_session({"players": ["Anna", "Ben", "Carla", "Dan"], "deal": [
    ...     {"declarer": "Anna", "contract": "no-queens", "scores": [-6, 0, -6, -12],
    ...      "doubles": ["Ben:max", "Carla>Anna", "Anna>Carla"]}]})
    >>> score_session(s).totals
    (-12, 24, -12, -24)
    """
    for key in data:
        if key not in _TOP_KEYS:
            raise ParseError(f"unknown key {key!r} (known: {', '.join(_TOP_KEYS)})")
    rules = normalize_name(_str(data, "rules", "classic") or "classic")
    if rules not in RULE_SETS or rules not in SESSION_FORMATS:
        raise ParseError(f"rules must be classic or french, got {data.get('rules')!r}")
    raw_variants = data.get("variants", [])
    if isinstance(raw_variants, str):
        raw_variants = [raw_variants]
    if not isinstance(raw_variants, list) or not all(isinstance(v, str) for v in raw_variants):
        raise ParseError(f"variants must be a list of names, got {raw_variants!r}")
    variants = parse_variants(raw_variants)
    fmt = normalize_name(_str(data, "format", "full") or "full")
    scale_path = _str(data, "scale")
    if scale_path:
        p = Path(scale_path)
        if not p.is_absolute() and base_dir is not None:
            p = Path(base_dir) / p
        scale = load_scale(p)
        if scale.rules != rules:
            raise ParseError(
                f"scale file {scale_path!r} is for the {scale.rules} rules, the session for {rules}"
            )
    else:
        scale = default_scale(rules, variants)
    comp = data.get("compulsory_doubles")
    if comp is not None and (isinstance(comp, bool) or not isinstance(comp, int)):
        raise ParseError(f"compulsory_doubles must be a whole number, got {comp!r}")
    if "players" not in data:
        raise ParseError("missing players (four names, seats N, E, S, W)")
    players = _players(data["players"])
    title = _str(data, "title", "") or ""
    raw_deals = data.get("deal", [])
    if not isinstance(raw_deals, list):
        raise ParseError("deals are written as [[deal]] tables")
    session = Session(players, (), rules, variants, scale, fmt, comp, title, source)
    ck = _Checker(session)
    deals: list[SessionDeal] = []
    for i, table in enumerate(raw_deals):
        n = i + 1
        try:
            deal = _deal(table, session)
        except BarbuError as e:
            raise _restate(e, f"deal {n}") from None
        # structure first (declarer, contract, scores), then the doubles
        deals.append(deal)
        ck.s = Session(players, tuple(deals), rules, variants, scale, fmt, comp, title, source)
        ck.structure(i, deal)
        try:
            doubles = parse_doubles(
                table.get("doubles"), deal.declarer, deal.game, variants, players
            )
        except BarbuError as e:
            raise _restate(e, f"deal {n}") from None
        deal = SessionDeal(deal.declarer, deal.game, deal.scores, doubles, deal.note)
        deals[-1] = deal
        ck.s = Session(players, tuple(deals), rules, variants, scale, fmt, comp, title, source)
        ck.block_end(i)
    return Session(players, tuple(deals), rules, variants, scale, fmt, comp, title, source)


def load_session(path: str | Path) -> Session:
    """Read and check a session file (TOML); see ``examples/session.toml``.

    :raises ParseError: for an unreadable or malformed file, naming the file.
    :raises IllegalPlayError: for a broken rule, naming the file and the deal.
    :raises InvalidPositionError: for impossible play scores, naming the file and the deal.
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise ParseError(f"cannot read session file {str(p)!r}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise ParseError(f"session file {str(p)!r} is not UTF-8 text") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ParseError(f"bad session file {str(p)!r}: {e}") from None
    try:
        return parse_session(data, base_dir=p.parent, source=str(p))
    except BarbuError as e:
        raise _restate(e, str(p)) from None


# -- score sheets -------------------------------------------------------------------


@dataclass(frozen=True)
class SheetRow:
    """One deal on the score sheet."""

    number: int
    declarer: Seat
    contract: str
    description: str
    scores: Scores
    doubles: Doubles
    settled: Scores
    running: Scores
    note: str = ""
    trump: Suit | None = None
    start: Rank | None = None

    @property
    def short(self) -> str:
        """A short label: ``'no-queens'``, ``'trumps ♥'``, ``'dominoes 9'``."""
        if self.trump is not None:
            return f"{self.contract} {SUIT_SYMBOLS[self.trump]}"
        if self.start is not None and self.contract != "reussite":
            return f"{self.contract} {'10' if self.start == Rank.T else RANK_CHARS[self.start]}"
        return self.contract

    @property
    def doubles_text(self) -> str:
        """The doubles in the order they were made: ``'E>N,S,W S>N N>S'``."""
        return self.doubles.describe(self.declarer)


@dataclass(frozen=True)
class ScoreSheet:
    """The score sheet of a session: a row per deal, totals, the winner(s).

    ``winners`` are the seats with the highest total (several on a tie, none before
    the first deal); while the session is in progress they are the leaders.
    ``owed`` lists the compulsory doubles still owed in the current declarer's deals.
    """

    players: tuple[str, str, str, str]
    rules: str
    variants: frozenset[str]
    format: str
    scale: str
    title: str
    rows: tuple[SheetRow, ...]
    totals: Scores
    winners: tuple[Seat, ...]
    deals_total: int
    owed: tuple[OwedDoubles, ...] = ()

    @property
    def deals_played(self) -> int:
        """How many deals are on the sheet."""
        return len(self.rows)

    @property
    def complete(self) -> bool:
        """Whether the session is over."""
        return len(self.rows) == self.deals_total

    @property
    def doubles_owed(self) -> bool:
        """Whether compulsory doubles are still owed in the current declarer's deals."""
        return bool(self.owed)

    @property
    def winner_names(self) -> tuple[str, ...]:
        """The names of the winner(s)."""
        return tuple(self.players[s] for s in self.winners)

    def to_dict(self) -> dict[str, Any]:
        """The sheet as plain data for JSON; every score list is in seat order N, E, S, W."""

        def name(s: Seat) -> str:
            return self.players[s]

        return {
            "title": self.title,
            "rules": self.rules,
            "variants": sorted(self.variants),
            "format": self.format,
            "scale": self.scale,
            "players": {s.name: self.players[s] for s in SEATS},
            "deals_played": self.deals_played,
            "deals_total": self.deals_total,
            "complete": self.complete,
            "deals": [
                {
                    "number": r.number,
                    "declarer": r.declarer.name,
                    "declarer_name": name(r.declarer),
                    "contract": r.contract,
                    "description": r.description,
                    "trump": None if r.trump is None else r.trump.name,
                    "start": None if r.start is None else RANK_CHARS[r.start],
                    "scores": list(r.scores),
                    "doubles": [f"{a.name}>{b.name}" for a, b in r.doubles.calls(r.declarer)],
                    "settled": list(r.settled),
                    "running": list(r.running),
                    **({"note": r.note} if r.note else {}),
                }
                for r in self.rows
            ],
            "totals": list(self.totals),
            "winners": [name(s) for s in self.winners],
            "doubles_owed": [
                {
                    "declarer": name(o.declarer),
                    "player": name(o.player),
                    "owed": o.owed,
                    "deals_left": o.deals_left,
                }
                for o in self.owed
            ],
        }


def score_session(session: Session) -> ScoreSheet:
    """Check a session and settle it into a :class:`ScoreSheet`.

    :raises ParseError: for a bad format or setting.
    :raises IllegalPlayError: for a broken rule, naming the deal.
    :raises InvalidPositionError: for impossible play scores, naming the deal.

    >>> sheet = score_session(Session(("Anna", "Ben", "Carla", "Dan")))
    >>> sheet.complete, sheet.deals_total, sheet.winners
    (False, 28, ())
    """
    check_session(session)
    rows: list[SheetRow] = []
    running = (0, 0, 0, 0)
    for i, d in enumerate(session.deals):
        settled = settle(d.scores, d.doubles)
        running = (
            running[0] + settled[0],
            running[1] + settled[1],
            running[2] + settled[2],
            running[3] + settled[3],
        )
        rows.append(
            SheetRow(
                i + 1,
                d.declarer,
                d.game.contract.name,
                d.game.describe(),
                d.scores,
                d.doubles,
                settled,
                running,
                d.note,
                d.game.trump,
                d.game.start,
            )
        )
    best = max(running)
    winners = tuple(s for s in SEATS if running[s] == best) if rows else ()
    scale = session.scale or default_scale(session.rules, session.variants)
    return ScoreSheet(
        session.players,
        session.rules,
        session.variants,
        session.format,
        scale.name,
        session.title,
        tuple(rows),
        running,
        winners,
        session.length,
        doubles_owed(session),
    )
