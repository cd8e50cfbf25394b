"""Contracts, rule sets, variants and scales.

A :class:`Contract` is a frozen spec found by name or alias with
:func:`find_contract`.  :func:`make_game` resolves a contract in a rule set, with
variants, a scale and the trump suit or starting rank, into a :class:`Game`: the
play duties as flags and the scoring lowered to plain tables (points per card, per
trick number, per finishing place) that the search core reads as C arrays.  The
Salad is the sum of the other tables, not a special case.

>>> from barbu_dd.cards import HK
>>> g = make_game("no-king")
>>> g.contract.name, g.card_points[HK], g.total
('barbu', -20, -20)
>>> make_game("salade", rules="french").total
-500
"""

from __future__ import annotations

import tomllib
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Literal, TypeVar

from .cards import (
    RANK_CHARS,
    Rank,
    Suit,
    make_card,
    parse_card,
    parse_rank,
    parse_suit,
)
from .errors import ParseError

__all__ = [
    "RULE_SETS",
    "VARIANTS",
    "VARIANT_RULES",
    "MAX_SCALE_VALUE",
    "MAX_SCALE_TOTAL",
    "Contract",
    "CONTRACTS",
    "Scale",
    "ContractScale",
    "Game",
    "find_contract",
    "contracts_of",
    "played_set",
    "normalize_name",
    "parse_variants",
    "load_scale",
    "default_scale",
    "make_game",
]

RULE_SETS: tuple[str, ...] = ("classic", "french", "bridge")

#: Variant names as written on the command line, with what they change.
VARIANTS: dict[str, str] = {
    "free-trumping": "Trumps: only the duty to follow suit (no forced trumping or overtrumping)",
    "king-duty": "classic Barbu: the holder of K♥ must play it on a heart lead or first discard",
    "low-aces": "Dominoes: each suit runs from Ace to King",
    "ace-replays": "Dominoes: a player who plays an Ace plays again at once",
    "dealer-declares": "the dealer declares; the dealer's left leads the first trick",
    "only-double-declarer": "doubles only against the declarer",
    "other-scores": "K♥ -15, Dominoes +40/+20/+10/-10",
    "ravage-city": "Ravage City is an eighth contract of the session (32 deals)",
}
_VARIANT_ALIASES = {
    "free-trump": "free-trumping",
    "free-trumps": "free-trumping",
    "king-of-hearts-duty": "king-duty",
    "kh-duty": "king-duty",
    "low-ace": "low-aces",
    "aces-low": "low-aces",
    "ace-replay": "ace-replays",
    "dealer-declarer": "dealer-declares",
    "only-double-the-declarer": "only-double-declarer",
    "other-score": "other-scores",
    "ravage": "ravage-city",
}

Kind = Literal["tricks", "dominoes", "ravage"]


@dataclass(frozen=True)
class Contract:
    """A contract: its canonical name, aliases, kind and the rule sets that have it."""

    name: str
    title: str
    kind: Kind
    rule_sets: frozenset[str]
    aliases: tuple[str, ...] = ()
    needs_trump: bool = False
    needs_start: bool = False
    positive: bool = False

    def __str__(self) -> str:
        return self.name


def _c(
    name: str,
    title: str,
    kind: Kind,
    rules: Iterable[str],
    aliases: Iterable[str] = (),
    **kw: Any,
) -> Contract:
    return Contract(name, title, kind, frozenset(rules), tuple(aliases), **kw)


CONTRACTS: tuple[Contract, ...] = (
    _c(
        "no-tricks",
        "No Tricks",
        "tricks",
        ("classic", "french"),
        ("no-trick", "plis", "pas-de-plis"),
    ),
    _c(
        "no-hearts",
        "No Hearts",
        "tricks",
        ("classic", "french"),
        ("hearts", "no-heart", "coeurs", "pas-de-coeurs"),
    ),
    _c(
        "no-queens",
        "No Queens",
        "tricks",
        ("classic", "french"),
        ("queens", "no-queen", "no-ladies", "dames", "pas-de-dames"),
    ),
    _c(
        "barbu",
        "Barbu (No King of Hearts)",
        "tricks",
        ("classic", "french"),
        ("no-king", "no-king-of-hearts", "king-of-hearts", "kh", "roi-de-coeur"),
    ),
    _c(
        "no-last-two",
        "No Last Two",
        "tricks",
        ("classic", "french"),
        ("last-two", "no-last-2", "last-2", "deux-derniers", "dernier-pli"),
    ),
    _c(
        "trumps",
        "Trumps",
        "tricks",
        ("classic",),
        ("trump", "atout", "atouts"),
        needs_trump=True,
        positive=True,
    ),
    _c(
        "dominoes",
        "Dominoes",
        "dominoes",
        ("classic",),
        ("domino", "dominos", "fan-tan"),
        needs_start=True,
        positive=True,
    ),
    _c("ravage", "Ravage City", "ravage", ("classic",), ("ravage-city",)),
    _c("salad", "Salad", "tricks", ("french",), ("salade", "french-salad")),
    _c(
        "reussite",
        "Réussite",
        "dominoes",
        ("french",),
        ("reussite", "réussite", "patience"),
        positive=True,
    ),
    _c("tricks", "Tricks (bridge double dummy)", "tricks", ("bridge",), ("bridge",), positive=True),
)
_BY_NAME: dict[str, Contract] = {}
for _k in CONTRACTS:
    _BY_NAME[_k.name] = _k
    for _a in _k.aliases:
        _BY_NAME.setdefault(_a, _k)


def normalize_name(text: str) -> str:
    """Lower case, accents dropped, spaces and underscores as hyphens.

    >>> normalize_name("Réussite"), normalize_name("No_Last Two")
    ('reussite', 'no-last-two')
    """
    if not isinstance(text, str):
        raise ParseError(f"a name is text, not {text!r}")
    t = unicodedata.normalize("NFKD", text.strip().lower())
    t = "".join(ch for ch in t if not unicodedata.combining(ch))
    return "-".join(t.replace("_", " ").replace("-", " ").split())


def find_contract(name: str, rules: str | None = None) -> Contract:
    """The contract named ``name`` (canonical name or alias), in ``rules`` if given.

    :raises ParseError: if no contract has that name, or the rule set lacks it.

    >>> find_contract("domino").name
    'dominoes'
    """
    if not isinstance(name, str):
        raise ParseError(f"a contract is given by name, not {name!r}")
    c = _BY_NAME.get(normalize_name(name))
    if c is None:
        names = ", ".join(k.name for k in CONTRACTS)
        raise ParseError(f"unknown contract: {name!r} (known: {names})")
    if rules is not None:
        r = _rules(rules)
        if r not in c.rule_sets:
            raise ParseError(f"contract {c.name!r} is not played in the {r} rule set")
    return c


def played_set(names: str | Iterable[str], rules: str) -> frozenset[str]:
    """The canonical names of the contracts already played (blank names skipped; one
    name may be given alone, not split into letters).

    :raises ParseError: for an unknown contract, one of another rule set, or one
        named twice.
    """
    out: set[str] = set()
    for p in [names] if isinstance(names, str) else names:
        if p.strip():
            c = find_contract(p, rules).name
            if c in out:
                raise ParseError(f"contract played twice: {c}")
            out.add(c)
    return frozenset(out)


def contracts_of(rules: str, variants: Iterable[str] = ()) -> tuple[Contract, ...]:
    """The contracts of a rule set, in the order of SPEC §3 (Ravage City only with its variant).

    >>> [c.name for c in contracts_of("french")]
    ['no-tricks', 'no-hearts', 'no-queens', 'barbu', 'no-last-two', 'salad', 'reussite']
    """
    r = _rules(rules)
    vs = parse_variants(variants)
    out = []
    for c in CONTRACTS:
        if r in c.rule_sets and (c.name != "ravage" or "ravage-city" in vs):
            out.append(c)
    return tuple(out)


def _rules(rules: str) -> str:
    r = normalize_name(rules)
    if r not in RULE_SETS:
        raise ParseError(f"unknown rule set: {rules!r} (known: {', '.join(RULE_SETS)})")
    return r


#: The rule sets each variant belongs to (SPEC: Trumps, the K♥ duty as a variant, the
#: other scores and Ravage City are classic only; the bridge rule set has none).
VARIANT_RULES: dict[str, frozenset[str]] = {
    "free-trumping": frozenset({"classic"}),
    "king-duty": frozenset({"classic"}),
    "low-aces": frozenset({"classic", "french"}),
    "ace-replays": frozenset({"classic", "french"}),
    "dealer-declares": frozenset({"classic", "french"}),
    "only-double-declarer": frozenset({"classic", "french"}),
    "other-scores": frozenset({"classic"}),
    "ravage-city": frozenset({"classic"}),
}


def parse_variants(names: Iterable[str] | None, rules: str | None = None) -> frozenset[str]:
    """Canonical variant names (``None``: none); with ``rules``, each must belong to
    that rule set (:data:`VARIANT_RULES`).

    :raises ParseError: on an unknown variant, or one of another rule set.

    >>> sorted(parse_variants(["Free trumping", "low_ace"]))
    ['free-trumping', 'low-aces']
    """
    if names is None:
        return frozenset()
    if isinstance(names, str):
        names = [names]
    r = None if rules is None else _rules(rules)
    out = set()
    for n in names:
        v = normalize_name(n)
        v = _VARIANT_ALIASES.get(v, v)
        if v not in VARIANTS:
            raise ParseError(f"unknown variant: {n!r} (known: {', '.join(VARIANTS)})")
        if r is not None and r not in VARIANT_RULES[v]:
            raise ParseError(f"variant {v!r} is not one of the {r} rules")
        out.add(v)
    return frozenset(out)


# -- scales -----------------------------------------------------------------------


@dataclass(frozen=True)
class ContractScale:
    """The scoring of one contract, lowered to tables.

    ``card_points`` is indexed by card (64 entries, ``16 * suit + rank``),
    ``trick_points`` by trick number - 1 (per-trick points included),
    ``places`` by finishing place, ``penalty`` is Ravage City's shared penalty.
    """

    card_points: tuple[int, ...] = (0,) * 64
    trick_points: tuple[int, ...] = (0,) * 13
    places: tuple[int, int, int, int] = (0, 0, 0, 0)
    penalty: int = 0

    def __add__(self, other: ContractScale) -> ContractScale:
        return ContractScale(
            tuple(a + b for a, b in zip(self.card_points, other.card_points, strict=True)),
            tuple(a + b for a, b in zip(self.trick_points, other.trick_points, strict=True)),
            (
                self.places[0] + other.places[0],
                self.places[1] + other.places[1],
                self.places[2] + other.places[2],
                self.places[3] + other.places[3],
            ),
            self.penalty + other.penalty,
        )

    def trick_total(self) -> int:
        """The sum of every trick contract point (all cards and all 13 tricks)."""
        return sum(self.card_points) + sum(self.trick_points)


@dataclass(frozen=True)
class Scale:
    """A named scale: a :class:`ContractScale` for each contract it defines."""

    name: str
    rules: str
    contracts: Mapping[str, ContractScale] = field(default_factory=dict)
    source: str = ""
    #: For a scale read from a file: the file's own contract tables (TOML, canonical
    #: names).  A game under a variant that changes the rule set's default (*other
    #: scores*) takes the contracts the file leaves out from that variant's scale.
    tables: Mapping[str, Any] | None = field(default=None, compare=False, repr=False)

    def of(self, contract: str) -> ContractScale:
        """The scoring of a contract.

        :raises ParseError: if this scale does not define it.
        """
        try:
            return self.contracts[contract]
        except KeyError:
            raise ParseError(f"scale {self.name!r} has no values for {contract!r}") from None


_RANK_GROUPS = {
    "twos": 0,
    "threes": 1,
    "fours": 2,
    "fives": 3,
    "sixes": 4,
    "sevens": 5,
    "eights": 6,
    "nines": 7,
    "tens": 8,
    "jacks": 9,
    "queens": 10,
    "kings": 11,
    "aces": 12,
}
_SUIT_GROUPS = {"spades": 0, "hearts": 1, "diamonds": 2, "clubs": 3}


_T = TypeVar("_T")

#: The largest size of one value of a scale, and of a contract's whole scoring (every
#: card's, trick's, place's and the penalty's size added up): the search adds scores in
#: 32-bit integers, so larger scales are refused rather than silently wrapped round.
MAX_SCALE_VALUE = 1_000_000
MAX_SCALE_TOTAL = 100_000_000


def _int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ParseError(f"{where}: expected a whole number, got {value!r}")
    if abs(value) > MAX_SCALE_VALUE:
        raise ParseError(f"{where}: {value} is too large (at most {MAX_SCALE_VALUE:,} in size)")
    return value


def _check_size(scale: ContractScale, name: str, where: str) -> ContractScale:
    size = (
        sum(map(abs, scale.card_points))
        + sum(map(abs, scale.trick_points))
        + sum(map(abs, scale.places))
        + abs(scale.penalty)
    )
    if size > MAX_SCALE_TOTAL:
        raise ParseError(
            f"{where}: [contracts.{name}] is too large: its values add up to {size:,} in size"
            f" (at most {MAX_SCALE_TOTAL:,})"
        )
    return scale


def _contract_scale(name: str, table: Any, total: ContractScale, where: str) -> ContractScale:
    """A contract table lowered, added to ``total`` (the sum of the contracts it combines)."""
    if not isinstance(table, dict):
        raise ParseError(f"{where}: [contracts.{name}] must be a table")
    known = {"per_trick", "trick", "cards", "places", "penalty", "combine"}
    for key in table:
        if key not in known:
            raise ParseError(f"{where}: unknown key {key!r} in [contracts.{name}]")
    cards = [0] * 64
    if "cards" in table:
        spec = table["cards"]
        if not isinstance(spec, dict):
            raise ParseError(f"{where}: cards in [contracts.{name}] must be a table")
        layers: list[list[tuple[int, int]]] = [[], [], [], []]  # all, suit, rank, card
        named: dict[tuple[int, int], str] = {}  # (layer, what) -> the key that named it
        for key, val in spec.items():
            v = _int(val, f"{where}: [contracts.{name}] cards.{key}")
            k = normalize_name(str(key))
            if k == "all":
                what = (0, 0)
                layers[0].extend((make_card(s, r), v) for s in range(4) for r in range(13))
            elif k in _SUIT_GROUPS:
                s = _SUIT_GROUPS[k]
                what = (1, s)
                layers[1].extend((make_card(s, r), v) for r in range(13))
            elif k in _RANK_GROUPS:
                r = _RANK_GROUPS[k]
                what = (2, r)
                layers[2].extend((make_card(s, r), v) for s in range(4))
            else:
                try:
                    c = parse_card(str(key))
                except ParseError:
                    raise ParseError(
                        f"{where}: [contracts.{name}] cards: {key!r} is not a card, suit, rank"
                        " or 'all'"
                    ) from None
                what = (3, c)
                layers[3].append((c, v))
            if what in named:
                raise ParseError(
                    f"{where}: [contracts.{name}] cards: {named[what]!r} and {key!r} name the"
                    " same cards"
                )
            named[what] = str(key)
        for layer in layers:
            for c, v in layer:
                cards[c] = v
    tricks = [0] * 13
    if "per_trick" in table:
        v = _int(table["per_trick"], f"{where}: [contracts.{name}] per_trick")
        tricks = [t + v for t in tricks]
    if "trick" in table:
        spec = table["trick"]
        if not isinstance(spec, dict):
            raise ParseError(f"{where}: trick in [contracts.{name}] must be a table")
        for key, val in spec.items():
            try:
                n = int(key)
            except ValueError:
                n = 0
            if not 1 <= n <= 13:
                raise ParseError(f"{where}: [contracts.{name}] trick number {key!r} is not 1..13")
            tricks[n - 1] += _int(val, f"{where}: [contracts.{name}] trick.{key}")
    places = (0, 0, 0, 0)
    if "places" in table:
        p = table["places"]
        if not isinstance(p, list) or len(p) != 4:
            raise ParseError(f"{where}: places in [contracts.{name}] must be a list of 4 numbers")
        places = tuple(_int(x, f"{where}: [contracts.{name}] places") for x in p)  # type: ignore[assignment]
    penalty = _int(table.get("penalty", 0), f"{where}: [contracts.{name}] penalty")
    return _check_size(
        total + ContractScale(tuple(cards), tuple(tricks), places, penalty), name, where
    )


def _in_file(where: str, find: Callable[[str], _T], name: str) -> _T:
    """``find(name)`` for a rule set's or contract's name read from a scale file: its
    error names the file."""
    try:
        return find(name)
    except ParseError as e:
        raise ParseError(f"{where}: {e}") from None


def _contract_in(where: str, name: str, rules: str) -> str:
    """The canonical name of a contract named in a scale file of ``rules``."""
    return _in_file(where, lambda n: find_contract(n, rules), name).name


def _parts(name: str, table: Any, where: str, rules: str) -> list[str]:
    """The contracts a contract table combines (canonical names)."""
    if not isinstance(table, dict) or "combine" not in table:
        return []
    parts = table["combine"]
    if not isinstance(parts, list):
        raise ParseError(f"{where}: combine in [contracts.{name}] must be a list of names")
    return [_contract_in(where, str(p), rules) for p in parts]


def _lower(
    tables: Mapping[str, Any], rules: str, where: str, base: str = ""
) -> dict[str, ContractScale]:
    """Every contract table lowered; a combined contract (the Salad) sums its parts as
    these tables give them, in any order."""
    done: dict[str, ContractScale] = {}

    def lower(name: str, path: tuple[str, ...]) -> None:
        if name in done:
            return
        if name in path:
            loop = " -> ".join((*path[path.index(name) :], name))
            raise ParseError(f"{where}: contracts combine each other in a loop ({loop})")
        total = ContractScale()
        for p in _parts(name, tables[name], where, rules):
            if p not in tables:
                raise ParseError(
                    f"{where}: [contracts.{name}] combines {p!r}, which has no values here{base}"
                )
            lower(p, (*path, name))
            total = total + done[p]
        done[name] = _contract_scale(name, tables[name], total, where)

    for name in tables:
        lower(name, ())
    return {name: done[name] for name in tables}


def _parse_scale(data: dict[str, Any], where: str, base: Scale | None = None) -> Scale:
    """A scale file's content; the contracts it leaves out are ``base``'s (whose
    tables a combined contract may use)."""
    name = str(data.get("name", Path(where).stem))
    rules = _in_file(where, _rules, str(data.get("rules", "classic")))
    contracts = data.get("contracts", {})
    if not isinstance(contracts, dict):
        raise ParseError(f"{where}: [contracts] must be a table of contract tables")
    for key in data:
        if key not in {"name", "rules", "contracts"}:
            raise ParseError(f"{where}: unknown top-level key {key!r}")
    own: dict[str, Any] = {}
    for cname, table in contracts.items():
        c = _contract_in(where, str(cname), rules)
        if not isinstance(table, dict):
            raise ParseError(f"{where}: [contracts.{c}] must be a table")
        own[c] = table
    if base is None:
        return Scale(name, rules, _lower(own, rules, where), where, own)
    return _over(Scale(name, rules, {}, where, own), base)


def _over(scale: Scale, base: Scale) -> Scale:
    """A file's scale whose left-out contracts are ``base``'s."""
    assert scale.tables is not None and base.tables is not None
    tables = {**base.tables, **scale.tables}
    note = f" or in the {base.name} scale"
    return Scale(
        scale.name,
        scale.rules,
        _lower(tables, scale.rules, scale.source, note),
        scale.source,
        scale.tables,
    )


def load_scale(path: str | Path) -> Scale:
    """Read a scale file (TOML); a contract it leaves out keeps its rule set's default
    (under the *other scores* variant, that variant's values: see :func:`make_game`).
    ``combine`` sums contracts as this file gives them (a Salad left out is remade
    from the file's parts).

    :raises ParseError: naming the file and the problem.
    """
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise ParseError(f"cannot read scale file {str(p)!r}: {e.strerror}") from None
    except UnicodeDecodeError:
        raise ParseError(f"scale file {str(p)!r} is not UTF-8 text") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ParseError(f"bad scale file {str(p)!r}: {e}") from None
    rules = _in_file(str(p), _rules, str(data.get("rules", "classic")))
    return _parse_scale(data, str(p), default_scale(rules))


_DEFAULTS: dict[str, Scale] = {}


def default_scale(rules: str = "classic", variants: Iterable[str] = ()) -> Scale:
    """The shipped scale of a rule set (``other-scores`` with that variant).

    >>> from barbu_dd.cards import HK
    >>> default_scale("french").of("barbu").card_points[HK]
    -80
    """
    r = _rules(rules)
    vs = parse_variants(variants)
    name = "other-scores" if (r == "classic" and "other-scores" in vs) else r
    if name not in _DEFAULTS:
        text = resources.files("barbu_dd").joinpath(f"scales/{name}.toml").read_text("utf-8")
        _DEFAULTS[name] = _parse_scale(tomllib.loads(text), f"{name}.toml")
    return _DEFAULTS[name]


def shipped_scale_path(name: str) -> str:
    """The path of a shipped scale file (``classic``, ``french``, ``other-scores``, ``bridge``)."""
    return str(resources.files("barbu_dd").joinpath(f"scales/{name}.toml"))


# -- games ------------------------------------------------------------------------


@dataclass(frozen=True)
class Game:
    """A contract resolved in a rule set, with variants and scale: everything a solver reads."""

    contract: Contract
    rules: str
    variants: frozenset[str]
    scoring: ContractScale
    trump: Suit | None = None
    start: Rank | None = None
    heart_lead: bool = False
    king_duty: bool = False
    trump_duties: bool = False

    @property
    def kind(self) -> Kind:
        """``'tricks'``, ``'dominoes'`` or ``'ravage'``."""
        return self.contract.kind

    @property
    def trump_label(self) -> str | None:
        """The trump suit as JSON records give it: ``'S'`` … ``'C'``, ``'NT'`` for the
        bridge rule set's notrump, ``None`` for a contract without trumps."""
        if self.trump is not None:
            return "SHDC"[self.trump]
        return "NT" if self.contract.name == "tricks" else None

    @property
    def card_points(self) -> tuple[int, ...]:
        """Points for winning each card (64 entries)."""
        return self.scoring.card_points

    @property
    def trick_points(self) -> tuple[int, ...]:
        """Points for winning trick number ``i + 1`` (per-trick points included)."""
        return self.scoring.trick_points

    @property
    def places(self) -> tuple[int, int, int, int]:
        """Points for going out 1st, 2nd, 3rd, 4th (Dominoes, Réussite)."""
        return self.scoring.places

    @property
    def low_aces(self) -> bool:
        """Dominoes runs Ace ... King."""
        return "low-aces" in self.variants

    @property
    def ace_replays(self) -> bool:
        """A player who plays an Ace in Dominoes plays again."""
        return "ace-replays" in self.variants

    @property
    def total(self) -> int:
        """What the contract hands out in one full deal."""
        if self.kind == "dominoes":
            return sum(self.places)
        if self.kind == "ravage":
            return self.scoring.penalty
        return self.scoring.trick_total()

    def describe(self) -> str:
        """A short human name: ``'Trumps (♥)'``, ``'Dominoes from the 9'``."""
        t = self.contract.title
        if self.trump is not None:
            t += f" ({'♠♥♦♣'[self.trump]})"
        if self.start is not None:
            t += f" from the {RANK_CHARS[self.start]}"
        if self.contract.name == "tricks":
            t += f" ({'NT' if self.trump is None else 'SHDC'[self.trump]})"
        return t


def make_game(
    contract: str | Contract,
    *,
    rules: str = "classic",
    variants: Iterable[str] = (),
    scale: Scale | str | Path | None = None,
    trump: Suit | int | str | None = None,
    start: Rank | int | str | None = None,
) -> Game:
    """Resolve a contract into a :class:`Game`.

    In the ``bridge`` rule set the trump may be ``'NT'`` (none); Trumps needs a suit;
    Dominoes takes a starting rank (Réussite always starts from the Jacks).

    :raises ParseError: for an unknown contract, rule set, variant or suit, a Trumps
        contract without a suit, or a scale without this contract.

    >>> make_game("trumps", trump="h").describe()
    'Trumps (♥)'
    """
    r = _rules(rules)
    c = contract if isinstance(contract, Contract) else find_contract(contract, r)
    if r not in c.rule_sets:
        raise ParseError(f"contract {c.name!r} is not played in the {r} rule set")
    vs = parse_variants(variants, r)
    if scale is None:
        sc = default_scale(r, vs)
    elif isinstance(scale, Scale):
        sc = scale
    elif isinstance(scale, str | Path):
        sc = load_scale(scale)
    else:
        raise ParseError(f"a scale is a Scale or a scale file's path, not {scale!r}")
    if sc.rules != r:
        where = f"scale file {sc.source!r}" if sc.source else f"scale {sc.name!r}"
        raise ParseError(
            f"{where} is for the {sc.rules} rules, not the {r} rules (its rules key,"
            " classic when left out)"
        )
    if sc.tables is not None and default_scale(r, vs) is not default_scale(r):
        # A file's scale under *other scores*: what the file leaves out is that variant's.
        sc = _over(sc, default_scale(r, vs))
    if c.name not in sc.contracts:
        sc = Scale(sc.name, sc.rules, {**default_scale(r, vs).contracts, **sc.contracts})
    scoring = sc.of(c.name)
    tr: Suit | None = None
    if isinstance(trump, str) and not trump.strip():
        raise ParseError(f"invalid trump suit: {trump!r} (S, H, D, C or NT)")
    if trump is not None and not (
        isinstance(trump, str) and normalize_name(trump) in ("nt", "n", "none")
    ):
        try:
            tr = (
                trump
                if isinstance(trump, Suit)
                else (parse_suit(trump) if isinstance(trump, str) else Suit(trump))
            )
        except ParseError:
            raise
        except ValueError:
            raise ParseError(f"invalid trump suit: {trump!r} (S, H, D, C or NT)") from None
    if c.needs_trump and tr is None:
        raise ParseError(f"contract {c.name!r} needs a trump suit (S, H, D or C)")
    if tr is not None and c.name not in ("trumps", "tricks"):
        raise ParseError(f"contract {c.name!r} has no trump suit")
    st: Rank | None = None
    if c.kind == "dominoes":
        if c.name == "reussite":
            if start is not None and Rank(_rank(start)) != Rank.J:
                raise ParseError("the Réussite always starts from the Jacks")
            st = Rank.J
        else:
            st = Rank.J if start is None else _rank(start)
    elif start is not None:
        raise ParseError(f"contract {c.name!r} has no starting rank")
    name = c.name
    heart_lead = (name in ("no-hearts", "barbu") and r == "classic") or (
        name in ("no-hearts", "salad") and r == "french"
    )
    king_duty = (r == "french" and name in ("barbu", "salad")) or (
        name == "barbu" and "king-duty" in vs
    )
    trump_duties = name == "trumps" and "free-trumping" not in vs
    return Game(c, r, vs, scoring, tr, st, heart_lead, king_duty, trump_duties)


def _rank(value: Rank | int | str) -> Rank:
    if isinstance(value, str):
        return parse_rank(value)
    try:
        return Rank(value)
    except ValueError:
        raise ParseError(f"invalid rank: {value!r} (0..12, or 2..9, T, J, Q, K, A)") from None
