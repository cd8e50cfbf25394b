"""Multi-board PBN files: read (streaming), write, and the Play section.

A PBN file is a sequence of boards; each board is a group of tags
``[Name "value"]`` and, after some tags (``Play``, ``Auction``, the ``...Table``
tags), lines of section data.  :func:`read_pbn` reads a file line by line and
yields one :class:`Board` at a time, so a file of a million boards is never held
in memory.  Every tag is kept, in its order, even the ones barbu-dd ignores.

>>> text = '''
... [Board "1"]
... [Dealer "N"]
... [Deal "N:AKQ... JT9... 876... 543..."]
... '''
>>> (board,) = parse_pbn(text)
>>> board.label, board.dealer, board.declarer(), board.deal.sizes()
('board 1', <Seat.N: 0>, <Seat.E: 1>, (3, 3, 3, 3))
>>> print(board_to_pbn(board), end="")
[Board "1"]
[Dealer "N"]
[Deal "N:AKQ... JT9... 876... 543..."]

Decisions (the PBN 2.1 points that matter here):

- Lines are split on ``\\n`` only; a file is decoded as UTF-8 line by line, and a
  line that is not valid UTF-8 is read as Latin-1 (the PBN standard's charset).
- A board ends at a blank line, or when a ``Board`` or ``Event`` tag comes after
  the board's ``Deal`` tag.  ``%`` in the first column starts a comment line;
  ``;`` comments to the end of the line and ``{...}`` comments (over several
  lines too) are dropped.
- The value ``#`` copies the tag's value from the previous board (any tag).
- A board needs a ``Deal`` tag.  The ``Board`` value is a label: a non-numeric one
  is kept, and ``number`` is then ``None``.  ``Dealer`` may be empty or ``?``.
- The Play section is kept as in the file (rows of seat columns from the ``Play``
  tag's seat, see :attr:`Board.play_section`): putting it in play order needs each
  trick's winner, so the trump suit; :func:`play_sequence` does it.  Reading checks
  what needs no trump: the tokens, 4 cards a trick (the last may be short or end
  with ``*``), no card twice, each card held by its column's seat.
- Errors name the file and the board (its number, else the line it starts on),
  e.g. ``"deals.pbn, board 3: invalid card in hand 'AKX.2.3.4': S'X'"``.  A bad
  board raises (``errors="raise"``, the default) or comes out as a
  :class:`BadBoard` while reading goes on (``errors="yield"``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, TextIO, overload

from .cards import Card, Seat, Suit, card_name, parse_card, parse_seat, parse_suit, to_seat
from .contracts import normalize_name, parse_variants
from .deal import Deal, trick_winner
from .errors import BarbuError, ParseError

__all__ = [
    "Board",
    "BadBoard",
    "no_board_error",
    "ErrorMode",
    "read_pbn",
    "parse_pbn",
    "write_pbn",
    "board_to_pbn",
    "make_board",
    "play_sequence",
    "play_section_from_sequence",
]

ErrorMode = Literal["raise", "yield"]

#: The tags of the PBN "mandatory tag set", in their export order.  Tags that
#: :func:`board_to_pbn` has to add (``Board``, ``Dealer``, ``Deal``) go after the
#: last tag already present that comes before them in this order.
_ROSTER: tuple[str, ...] = (
    "Event",
    "Site",
    "Date",
    "Board",
    "West",
    "North",
    "East",
    "South",
    "Dealer",
    "Vulnerable",
    "Deal",
    "Scoring",
    "Declarer",
    "Contract",
    "Result",
)
_ROSTER_INDEX = {name: i for i, name in enumerate(_ROSTER)}

_NAME = r"[A-Za-z0-9_]+"
_VALUE = r'"((?:[^"\\]|\\.)*)"'
_TAG = re.compile(rf"\[\s*({_NAME})\s*{_VALUE}\s*\]")
_TAG_LINE = re.compile(rf"\[\s*({_NAME})\s*{_VALUE}\s*\]\s*\Z")
_TAG_NAME = re.compile(rf"{_NAME}\Z")
_WORD = re.compile(r"[^\s\[;{]+")
_UNESCAPE = re.compile(r'\\(["\\])')
_DIGITS = re.compile(r"[0-9]{1,4000}\Z")
_PLAY_NOTE = re.compile(r"=[0-9]+=|\$[0-9]+")
_UNKNOWN = ("", "?")
_SUIT_HOLDING = "A?K?Q?J?T?9?8?7?6?5?4?3?2?"
_HAND = rf"(?:{_SUIT_HOLDING}\.){{3}}{_SUIT_HOLDING}|-"
#: A Deal value already in the form Deal.to_pbn() writes (a cheap test, in C).
_CANONICAL_DEAL = re.compile(rf"[NESW]:(?:{_HAND})(?: (?:{_HAND})){{3}}\Z")


# -- boards -------------------------------------------------------------------------


@dataclass
class Board:
    """One board of a PBN file: every tag as read, and what barbu-dd reads from them.

    ``deal``, ``number``, ``dealer`` and the Play section (``play_section``,
    ``play_first``) are the truth when the board is written; ``tags`` keeps every
    tag in its order (``Deal`` normalised to the deal's PBN).  ``play_section``
    holds the Play section as in the file: one row a trick, the columns in seat
    order from ``play_first`` (the seat of the ``Play`` tag), ``'-'`` for no card.
    ``sections`` holds the data lines of other sections (``Auction``, tables).
    ``source`` and ``line`` say where the board was read; they do not take part in
    equality.

    >>> b = make_board("N:A... K... Q... J...", 2, "E")
    >>> b.label, b.declarer(), b.declarer(["dealer-declares"]), b.first_leader(["dealer-declares"])
    ('board 2', <Seat.S: 2>, <Seat.E: 1>, <Seat.S: 2>)
    """

    tags: dict[str, str]
    deal: Deal
    number: int | None = None
    dealer: Seat | None = None
    play_section: list[list[str]] | None = None
    play_first: Seat | None = None
    sections: dict[str, list[str]] = field(default_factory=dict)
    source: str = field(default="<board>", compare=False)
    line: int = field(default=0, compare=False)
    #: an earlier board of the same file has the same number (the label adds the line)
    repeat: bool = field(default=False, compare=False)

    @property
    def label(self) -> str:
        """``'board 7'``; without a numeric Board tag, its value or the line it starts on;
        ``'board 7 at line 40'`` when an earlier board of the file is numbered 7 too."""
        return _label(self.number, self.tags.get("Board"), self.line, self.repeat)

    @property
    def location(self) -> str:
        """The file and the board, as errors name them: ``'deals.pbn, board 7'``."""
        return f"{self.source}, {self.label}"

    @property
    def play(self) -> list[str] | None:
        """The cards of the Play section in play order, or ``None`` without one.

        Trick winners are found without trumps, which is right for every contract
        but Trumps; for Trumps call :func:`play_sequence` with the trump suit.

        :raises ParseError: if a card follows a missing one in play order.
        """
        if self.play_section is None:
            return None
        return play_sequence(self)

    def declarer(
        self, variants: Iterable[str] = (), override: Seat | int | str | None = None
    ) -> Seat:
        """The declarer (SPEC §1): the seat on the left of the Dealer, or the dealer
        in the ``dealer-declares`` variant; an explicit ``override`` wins.

        :raises ParseError: for an unknown variant or override seat, or if the board
            has no Dealer and no override is given.

        >>> make_board("N:A... K... Q... J...", 1, "W").declarer()
        <Seat.N: 0>
        """
        vs = parse_variants(variants)
        if override is not None:
            return to_seat(override)
        if self.dealer is None:
            raise ParseError(
                f"{self.location}: no Dealer tag, so the declarer is not known"
                " (give one: --declarer)"
            )
        return self.dealer if "dealer-declares" in vs else self.dealer.left

    def first_leader(
        self, variants: Iterable[str] = (), override: Seat | int | str | None = None
    ) -> Seat:
        """The seat that leads the first trick: the declarer, except in the
        ``dealer-declares`` variant, where the declarer's (the dealer's) left leads.

        :raises ParseError: as :meth:`declarer`.

        >>> make_board("N:A... K... Q... J...", 1, "W").first_leader(["dealer-declares"])
        <Seat.N: 0>
        """
        d = self.declarer(variants, override)
        return d.left if "dealer-declares" in parse_variants(variants) else d

    def set_play(
        self,
        cards: Sequence[Card | str],
        leader: Seat | int | str,
        trump: Suit | int | str | None = None,
    ) -> None:
        """Store a play given in play order as this board's Play section.

        :raises ParseError: for a bad card, a card played twice or by a seat that
            does not hold it.

        >>> b = make_board("N:A... K... Q... J...", 1, "W")
        >>> b.set_play(["SK", "SQ", "SJ", "SA"], "E")
        >>> b.play_first, b.play_section, b.play
        (<Seat.E: 1>, [['SK', 'SQ', 'SJ', 'SA']], ['SK', 'SQ', 'SJ', 'SA'])
        """
        first = to_seat(leader)
        try:
            rows = play_section_from_sequence(cards, first, trump)
            _check_play(self.deal, rows, first)
        except BarbuError as e:
            raise type(e)(f"{self.location}: {e}") from None
        self.play_section = rows
        self.play_first = first
        self.tags["Play"] = first.name


@dataclass(frozen=True)
class BadBoard:
    """A board that could not be read (``read_pbn(..., errors="yield")``).

    ``reason`` is the full message, file and board included; ``error`` the exception.

    >>> text = '[Board "3"]\\n[Deal "N:AKX.2.3.4 - - -"]\\n'
    >>> (bad,) = parse_pbn(text, name="deals.pbn", errors="yield")
    >>> bad.number, bad.line, bad.reason
    (3, 1, "deals.pbn, board 3: invalid card in hand 'AKX.2.3.4': S'X'")
    """

    number: int | None
    line: int
    reason: str
    source: str = "<board>"
    error: BarbuError | None = field(default=None, compare=False, repr=False)

    @property
    def label(self) -> str:
        """``'board 7'``, or ``'board at line 12'``."""
        return _label(self.number, None, self.line)

    def __str__(self) -> str:
        return self.reason


def _label(number: int | None, board_tag: str | None, line: int, repeat: bool = False) -> str:
    if number is not None:
        return f"board {number} at line {line}" if repeat and line > 0 else f"board {number}"
    if board_tag is not None and board_tag.strip() not in _UNKNOWN:
        return f"board {board_tag!r}"
    return f"board at line {line}" if line > 0 else "board"


def _to_trump(value: Suit | int | str | None) -> int | None:
    if value is None:
        return None
    if isinstance(value, str):
        if normalize_name(value) in ("nt", "no-trump", "notrump", "none", ""):
            return None
        return parse_suit(value)
    try:
        return Suit(value)
    except ValueError:
        raise ParseError(f"invalid suit: {value!r}") from None


def _number_of(value: str | None) -> int | None:
    if value is None:
        return None
    v = value.strip()
    return int(v) if _DIGITS.match(v) else None


# -- the Play section -----------------------------------------------------------------


def play_sequence(board: Board, trump: Suit | int | str | None = None) -> list[str]:
    """The cards of a board's Play section in play order.

    The PBN columns are seats, starting at the ``Play`` tag's seat; the winner of
    each trick (found with ``trump``, none by default) leads the next one.  The
    sequence stops at the first missing card (``-``).

    :raises ParseError: for a bad trump, or a card that follows a missing one.

    >>> b = parse_pbn('''[Deal "N:A2... K3... Q4... J5..."]
    ... [Play "E"]
    ... SK SQ SJ SA
    ... S3 S4 S5 S2''')[0]
    >>> play_sequence(b)
    ['SK', 'SQ', 'SJ', 'SA', 'S2', 'S3', 'S4', 'S5']
    """
    if board.play_section is None or board.play_first is None:
        return []
    tr = _to_trump(trump)
    first = board.play_first
    leader = first
    out: list[str] = []
    stopped: tuple[int, Seat] | None = None
    for k, row in enumerate(board.play_section, 1):
        cards: list[Card] = []
        for i in range(4):
            seat = Seat((leader + i) & 3)
            tok = row[(seat - first) & 3] if (seat - first) & 3 < len(row) else "-"
            if tok == "-":
                if stopped is None:
                    stopped = (k, seat)
                continue
            if stopped is not None:
                raise ParseError(
                    f"{board.location}: Play section, trick {k}: {seat.name} plays {tok} "
                    f"after the missing card of {stopped[1].name} in trick {stopped[0]}"
                )
            cards.append(parse_card(tok))
            out.append(tok)
        if len(cards) == 4:
            leader = trick_winner(leader, cards, tr)
    return out


def play_section_from_sequence(
    cards: Sequence[Card | str], leader: Seat | int | str, trump: Suit | int | str | None = None
) -> list[list[str]]:
    """The Play section rows (columns by seat from ``leader``) of a play given in play order.

    :raises ParseError: for a bad card, leader or trump.

    >>> play_section_from_sequence(["SK", "SQ", "SJ", "SA", "S2"], "E")
    [['SK', 'SQ', 'SJ', 'SA'], ['-', '-', '-', 'S2']]
    """
    first = to_seat(leader)
    tr = _to_trump(trump)
    rows: list[list[str]] = []
    lead = first
    for start in range(0, len(cards), 4):
        trick = [c if isinstance(c, int) else parse_card(c) for c in cards[start : start + 4]]
        row = ["-"] * 4
        for i, c in enumerate(trick):
            if not 0 <= c < 64 or (c & 15) > 12:
                raise ParseError(f"invalid card: {c!r}")
            row[(lead + i - first) & 3] = card_name(c)
        rows.append(row)
        if len(trick) == 4:
            lead = trick_winner(lead, trick, tr)
    return rows


def _parse_play(rows: list[list[str]]) -> list[list[str]]:
    """Play section tokens (one list per line) to rows of canonical card names."""
    out: list[list[str]] = []
    ended = False
    for tokens in rows:
        row: list[str] = []
        for tok in tokens:
            if ended:
                raise ParseError(f"text after '*' in the Play section: {tok!r}")
            if tok == "*":
                ended = True
                continue
            if _PLAY_NOTE.fullmatch(tok):
                continue
            t = tok.rstrip("!?") or tok
            if t == "-":
                row.append("-")
                continue
            try:
                row.append(card_name(parse_card(t)))
            except ParseError:
                raise ParseError(f"invalid card in the Play section: {tok!r}") from None
        if row:
            out.append(row)
    for k, row in enumerate(out, 1):
        if len(row) > 4:
            raise ParseError(
                f"trick {k} of the Play section has {len(row)} cards: {' '.join(row)!r}"
            )
        if len(row) < 4:
            if k != len(out):
                raise ParseError(
                    f"trick {k} of the Play section has only {len(row)} cards: {' '.join(row)!r}"
                )
            row.extend("-" * (4 - len(row)))
    if len(out) > 13:
        raise ParseError(f"the Play section has {len(out)} tricks (13 at most)")
    return out


def _check_play(deal: Deal, rows: list[list[str]], first: Seat) -> None:
    """Each card once, and played by a seat that holds it (when the hand is known)."""
    seen = 0
    for k, row in enumerate(rows, 1):
        for col, tok in enumerate(row):
            if tok == "-":
                continue
            c = parse_card(tok)
            if seen >> c & 1:
                raise ParseError(f"Play section, trick {k}: {tok} is played twice")
            seen |= 1 << c
            seat = Seat((first + col) & 3)
            if deal.is_known(seat) and not deal.mask(seat) >> c & 1:
                raise ParseError(f"Play section, trick {k}: {seat.name} does not hold {tok}")


# -- reading ---------------------------------------------------------------------------


def _takes_section(tag: str) -> bool:
    return tag in ("Play", "Auction") or tag.endswith("Table")


class _Pending:
    """A board being read: its tags, section data and first error."""

    __slots__ = ("line", "tags", "data", "section", "row_line", "error")

    def __init__(self, line: int) -> None:
        self.line = line
        self.tags: dict[str, str] = {}
        self.data: dict[str, list[list[str]]] = {}
        self.section: str | None = None
        self.row_line = 0
        self.error: tuple[type[BarbuError], str] | None = None

    def fail(self, message: str, cls: type[BarbuError] = ParseError) -> None:
        if self.error is None:
            self.error = (cls, message)


class _Reader:
    """The line-by-line PBN state machine; finished boards collect in ``out``."""

    def __init__(self, source: str, errors: ErrorMode) -> None:
        self.source = source
        self.errors = errors
        self.out: list[Board | BadBoard] = []
        self.prev: dict[str, str] = {}
        self.pending: _Pending | None = None
        self.brace_line = 0  # line where an open {...} comment started, 0 if none
        self.numbers: set[int] = set()  # the Board numbers met so far

    # -- lines --------------------------------------------------------------------
    def feed(self, lineno: int, line: str) -> None:
        i = 0
        if self.brace_line:
            j = line.find("}")
            if j < 0:
                return
            self.brace_line = 0
            i = j + 1
        else:
            if not line or line.isspace():
                self.finish()
                return
            if line[0] == "%":
                return
            m = _TAG_LINE.match(line)
            if m:
                self.tag(lineno, m.group(1), m.group(2))
                return
        n = len(line)
        while i < n:
            ch = line[i]
            if ch.isspace():
                i += 1
            elif ch == ";":
                return
            elif ch == "{":
                j = line.find("}", i + 1)
                if j < 0:
                    self.brace_line = lineno
                    return
                i = j + 1
            elif ch == "[":
                m = _TAG.match(line, i)
                if m is None:
                    self.board(lineno).fail(f"malformed tag: {line[i:].strip()!r}")
                    return
                self.tag(lineno, m.group(1), m.group(2))
                i = m.end()
            else:
                w = _WORD.match(line, i)
                assert w is not None
                self.word(lineno, w.group())
                i = w.end()

    def board(self, lineno: int) -> _Pending:
        if self.pending is None:
            self.pending = _Pending(lineno)
        return self.pending

    def tag(self, lineno: int, name: str, raw: str) -> None:
        p = self.pending
        # Without a blank line between boards, a Board or Event tag after a Deal starts
        # the next board, unless this board has had no Board tag yet (tags in any order:
        # [Deal] [Board] [Dealer] is one board).
        if (
            p is not None
            and name in ("Board", "Event")
            and "Deal" in p.tags
            and (name in p.tags or "Board" in p.tags)
        ):
            self.finish()
        p = self.board(lineno)
        value = _UNESCAPE.sub(r"\1", raw)
        p.section = name if _takes_section(name) else None
        p.row_line = 0
        if value == "#":
            if name not in self.prev:
                p.fail(f"tag {name} is '#' but the previous board has no {name} tag")
                return
            value = self.prev[name]
        if name in p.tags:
            p.fail(f"duplicate tag {name!r}")
            p.section = None
            return
        p.tags[name] = value

    def word(self, lineno: int, word: str) -> None:
        p = self.board(lineno)
        if p.section is None:
            after = f" after tag {next(reversed(p.tags))}" if p.tags else ""
            p.fail(f"unexpected text{after}: {word!r}")
            return
        if p.error is not None:
            return
        rows = p.data.setdefault(p.section, [])
        if p.row_line != lineno or not rows:
            rows.append([])
            p.row_line = lineno
        rows[-1].append(word)

    def end(self) -> None:
        if self.brace_line:
            msg = f"unterminated {{ comment starting at line {self.brace_line}"
            if self.pending is not None:
                self.pending.fail(msg)
            else:
                self.emit_error(
                    ParseError(f"{self.source}, line {self.brace_line}: {msg}"),
                    None,
                    self.brace_line,
                )
        self.finish()

    # -- boards -------------------------------------------------------------------
    def finish(self) -> None:
        p = self.pending
        if p is None:
            return
        self.pending = None
        self.prev = p.tags
        number = _number_of(p.tags.get("Board"))
        repeat = number in self.numbers
        if number is not None:
            self.numbers.add(number)
        where = f"{self.source}, {_label(number, p.tags.get('Board'), p.line, repeat)}"
        if p.error is not None:
            cls, msg = p.error
            self.emit_error(cls(f"{where}: {msg}"), number, p.line)
            return
        try:
            board = self.build(p, number)
            board.repeat = repeat
        except BarbuError as e:
            self.emit_error(type(e)(f"{where}: {e}"), number, p.line)
            return
        self.out.append(board)

    def emit_error(self, error: BarbuError, number: int | None, line: int) -> None:
        if self.errors == "raise":
            raise error
        self.out.append(BadBoard(number, line, str(error), self.source, error))

    def build(self, p: _Pending, number: int | None) -> Board:
        tags = dict(p.tags)
        if "Deal" not in tags:
            raise ParseError("no Deal tag")
        deal = Deal(tags["Deal"])
        if not _CANONICAL_DEAL.match(tags["Deal"]):
            tags["Deal"] = deal.to_pbn()
        dealer: Seat | None = None
        dv = tags.get("Dealer")
        if dv is not None and dv.strip() not in _UNKNOWN:
            try:
                dealer = parse_seat(dv)
            except ParseError:
                raise ParseError(f"invalid Dealer tag: {dv!r}") from None
        play_section: list[list[str]] | None = None
        play_first: Seat | None = None
        raw_play = p.data.get("Play", [])
        pv = tags.get("Play")
        if pv is not None:
            if pv.strip() in (*_UNKNOWN, "-"):
                if any(tok not in ("*",) for row in raw_play for tok in row):
                    raise ParseError(f"Play section without the seat of its first column: {pv!r}")
            else:
                try:
                    play_first = parse_seat(pv)
                except ParseError:
                    raise ParseError(f"invalid Play tag: {pv!r}") from None
                play_section = _parse_play(raw_play)
                _check_play(deal, play_section, play_first)
        sections = {
            name: [" ".join(row) for row in rows] for name, rows in p.data.items() if name != "Play"
        }
        return Board(
            tags, deal, number, dealer, play_section, play_first, sections, self.source, p.line
        )


def _decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def _file_lines(path: Path, name: str) -> Iterator[tuple[int, str]]:
    try:
        f = open(path, "rb")  # noqa: SIM115 - closed by the with below
    except OSError as e:
        raise ParseError(f"cannot read {name!r}: {e.strerror or e}") from None
    with f:
        try:
            for n, raw in enumerate(f, 1):
                line = _decode(raw).rstrip("\r\n")
                if n == 1:
                    line = line.removeprefix("\ufeff")
                yield n, line
        except OSError as e:
            raise ParseError(f"cannot read {name!r}: {e.strerror or e}") from None


def _stream_lines(stream: TextIO | Iterable[str | bytes], name: str) -> Iterator[tuple[int, str]]:
    n = 0
    it = iter(stream)
    while True:
        try:
            raw = next(it)
        except StopIteration:
            return
        except UnicodeDecodeError as e:
            raise ParseError(
                f"{name}: not valid text after line {n} ({e.reason}; open the file "
                "in binary mode or pass its path to read it as UTF-8 or Latin-1)"
            ) from None
        n += 1
        line = _decode(raw) if isinstance(raw, bytes) else raw
        line = line.rstrip("\r\n")
        if n == 1:
            line = line.removeprefix("\ufeff")
        yield n, line


def _parse(
    lines: Iterator[tuple[int, str]], source: str, errors: ErrorMode
) -> Iterator[Board | BadBoard]:
    reader = _Reader(source, errors)
    for lineno, line in lines:
        reader.feed(lineno, line)
        if reader.out:
            yield from reader.out
            reader.out.clear()
    reader.end()
    yield from reader.out


def _check_errors(errors: str) -> ErrorMode:
    if errors not in ("raise", "yield"):
        raise ValueError(f"errors must be 'raise' or 'yield', got {errors!r}")
    return errors  # type: ignore[return-value]


def no_board_error(source: str | Path) -> ParseError:
    """The error for a PBN file that holds no board (the commands refuse such a file)."""
    return ParseError(f"{str(source)!r} holds no board (no Deal tag)")


@overload
def read_pbn(
    source: str | Path | TextIO, *, name: str | None = ..., errors: Literal["raise"] = ...
) -> Iterator[Board]: ...
@overload
def read_pbn(
    source: str | Path | TextIO, *, name: str | None = ..., errors: Literal["yield"]
) -> Iterator[Board | BadBoard]: ...
@overload
def read_pbn(
    source: str | Path | TextIO, *, name: str | None = ..., errors: ErrorMode
) -> Iterator[Board | BadBoard]: ...
def read_pbn(
    source: str | Path | TextIO, *, name: str | None = None, errors: ErrorMode = "raise"
) -> Iterator[Board] | Iterator[Board | BadBoard]:
    """The boards of a PBN file, one at a time (the file is read line by line).

    ``source`` is a path (``str`` or :class:`~pathlib.Path`) or an open text
    stream; ``name`` is the file name errors show (default: the path, or the
    stream's ``name``).  With ``errors="raise"`` the first bad board raises; with
    ``errors="yield"`` it comes out as a :class:`BadBoard` and reading goes on with
    the next board.

    :raises ParseError: (while iterating) for a file that cannot be read, and with
        ``errors="raise"`` for a malformed board, naming file, board and bad text.
    :raises InvalidPositionError: (with ``errors="raise"``) for a card dealt twice.
    :raises ValueError: for an ``errors`` mode other than ``"raise"`` or ``"yield"``.

    >>> import io
    >>> f = io.StringIO('[Board "1"]\\n[Deal "N:A... K... Q... J..."]\\n\\n'
    ...                 '[Board "2"]\\n[Deal "N:A... K... Q... A..."]\\n')
    >>> for b in read_pbn(f, name="t.pbn", errors="yield"):
    ...     print(b.label if isinstance(b, Board) else b.reason)
    board 1
    t.pbn, board 2: card SA is dealt twice in 'N:A... K... Q... A...'

    """
    mode = _check_errors(errors)
    if isinstance(source, (str, Path)):
        src = name if name is not None else str(source)
        return _parse(_file_lines(Path(source), src), src, mode)
    src = name if name is not None else str(getattr(source, "name", None) or "<stream>")
    return _parse(_stream_lines(source, src), src, mode)


@overload
def parse_pbn(text: str, *, name: str = ..., errors: Literal["raise"] = ...) -> list[Board]: ...
@overload
def parse_pbn(
    text: str, *, name: str = ..., errors: Literal["yield"]
) -> list[Board | BadBoard]: ...
@overload
def parse_pbn(text: str, *, name: str = ..., errors: ErrorMode) -> list[Board | BadBoard]: ...
def parse_pbn(
    text: str, *, name: str = "<string>", errors: ErrorMode = "raise"
) -> list[Board] | list[Board | BadBoard]:
    """The boards of PBN text held in a string (see :func:`read_pbn`).

    :raises ParseError: with ``errors="raise"``, for a malformed board.
    :raises InvalidPositionError: with ``errors="raise"``, for a card dealt twice.

    >>> parse_pbn('[Deal "N:A... K... Q... J..."]')[0].deal
    Deal('N:A... K... Q... J...')
    """
    mode = _check_errors(errors)
    # a byte-order mark opening the text is not part of it (as read_pbn reads files)
    text = text.removeprefix("\ufeff")
    lines = ((n, line.rstrip("\r")) for n, line in enumerate(text.split("\n"), 1))
    return list(_parse(lines, name, mode))


# -- writing ---------------------------------------------------------------------------


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _insert_tag(tags: dict[str, str], name: str, value: str) -> dict[str, str]:
    """``tags`` with ``name`` added after the last present tag that precedes it in the roster."""
    if name == "Play":
        return {**tags, name: value}
    rank = _ROSTER_INDEX[name]
    items = list(tags.items())
    pos = 0
    for i, (k, _) in enumerate(items):
        if _ROSTER_INDEX.get(k, len(_ROSTER)) < rank:
            pos = i + 1
    items.insert(pos, (name, value))
    return dict(items)


def _tags_for_writing(board: Board) -> dict[str, str]:
    tags = dict(board.tags)
    wanted: dict[str, str | None] = {"Deal": board.deal.to_pbn()}
    bt = tags.get("Board")
    if board.number is not None:
        if _number_of(bt) != board.number:
            wanted["Board"] = str(board.number)
    elif _number_of(bt) is not None:
        wanted["Board"] = None
    dt = tags.get("Dealer")
    if board.dealer is not None:
        if _seat_or_none(dt) != board.dealer:
            wanted["Dealer"] = board.dealer.name
    elif _seat_or_none(dt) is not None:
        wanted["Dealer"] = None
    pt = tags.get("Play")
    if board.play_first is not None:
        if _seat_or_none(pt) != board.play_first:
            wanted["Play"] = board.play_first.name
    elif _seat_or_none(pt) is not None:
        wanted["Play"] = None
    for name, value in wanted.items():
        if value is None:
            tags.pop(name, None)
        elif name in tags:
            tags[name] = value
        else:
            tags = _insert_tag(tags, name, value)
    # A Board or Event tag after the Deal starts a new board: keep them before it.
    names = list(tags)
    late = [k for k in ("Event", "Board") if k in tags and names.index(k) > names.index("Deal")]
    if late:
        items = [(k, v) for k, v in tags.items() if k not in late]
        pos = [k for k, _ in items].index("Deal")
        tags = dict(items[:pos] + [(k, tags[k]) for k in late] + items[pos:])
    return tags


def _seat_or_none(value: str | None) -> Seat | None:
    if value is None or value.strip() in (*_UNKNOWN, "-"):
        return None
    try:
        return parse_seat(value)
    except ParseError:
        return None


def board_to_pbn(board: Board) -> str:
    """The PBN text of one board (tags in their order, each on its own line).

    ``Deal``, ``Board``, ``Dealer`` and ``Play`` are written from the board's
    fields; a missing one is added at its place in the PBN tag order.

    :raises ParseError: for a tag name that is not letters, digits and ``_``, a tag
        value ``#`` or holding a line break, or section lines that PBN cannot hold
        (a line break, or a section after a tag other than Play, Auction, ``*Table``).

    >>> print(board_to_pbn(make_board("E:AKQJT98765432.A.. - - -", 3, "S", Event="Test")), end="")
    [Event "Test"]
    [Board "3"]
    [Dealer "S"]
    [Deal "E:AKQJT98765432.A.. - - -"]
    """
    lines: list[str] = []
    for name, value in _tags_for_writing(board).items():
        if not _TAG_NAME.match(name):
            raise ParseError(f"{board.location}: invalid tag name {name!r}")
        if "\n" in value or "\r" in value:
            raise ParseError(f"{board.location}: tag {name} holds a line break: {value!r}")
        if value == "#":
            raise ParseError(
                f"{board.location}: tag {name} cannot be written as '#' "
                "(in PBN it means 'as in the previous board')"
            )
        lines.append(f'[{name} "{_escape(value)}"]')
        if name == "Play" and board.play_section is not None:
            rows = board.play_section
            try:
                _check_play(board.deal, _parse_play(rows), board.play_first or Seat.N)
            except ParseError as e:
                raise ParseError(f"{board.location}: {e}") from None
            lines.extend(" ".join(row) for row in rows)
            if any("-" in row for row in rows) or len(rows) < max(board.deal.sizes()):
                lines.append("*")
        elif name in board.sections:
            if not _takes_section(name):
                raise ParseError(f"{board.location}: tag {name} cannot have a section")
            for data in board.sections[name]:
                if any(ch in data for ch in "\n\r[;{"):
                    raise ParseError(
                        f"{board.location}: {name} section line {data!r} holds a line break, "
                        "'[', ';' or '{'"
                    )
                # '%' in the first column would make the line a comment
                lines.append(" " + data if data.startswith("%") else data)
    return "\n".join(lines) + "\n"


def write_pbn(boards: Iterable[Board], dest: str | Path | TextIO, *, header: bool = True) -> int:
    """Write boards to a PBN file (a path, or an open text stream), a blank line apart.

    Returns the number of boards written.  With ``header`` the file starts with
    ``% PBN 2.1``.

    :raises ParseError: as :func:`board_to_pbn`, or if the file cannot be written.

    >>> import io
    >>> out = io.StringIO()
    >>> write_pbn([make_board("N:A... K... Q... J...", 1, "N")], out)
    1
    >>> parse_pbn(out.getvalue())[0].number
    1
    """
    if isinstance(dest, (str, Path)):
        try:
            with open(dest, "w", encoding="utf-8", newline="\n") as f:
                return _write(boards, f, header)
        except OSError as e:
            raise ParseError(f"cannot write {str(dest)!r}: {e.strerror or e}") from None
    return _write(boards, dest, header)


def _write(boards: Iterable[Board], f: TextIO, header: bool) -> int:
    n = 0
    if header:
        f.write("% PBN 2.1\n")
    for board in boards:
        if n or header:
            f.write("\n")
        f.write(board_to_pbn(board))
        n += 1
    return n


def make_board(
    deal: Deal | str,
    number: int | None = None,
    dealer: Seat | int | str | None = None,
    **tags: str,
) -> Board:
    """A new board; ``tags`` are more PBN tags (``Event="..."``, ``Vulnerable="None"``).

    Tags go in the order Event, Site, Date, Board, Dealer, Deal, then the others.

    :raises ParseError: for a malformed deal or seat.
    :raises InvalidPositionError: for a card dealt twice.
    :raises ValueError: if ``tags`` names Deal, Board, Dealer or Play (give them as
        arguments or with :meth:`Board.set_play`).

    >>> make_board("N:A... K... Q... J...", 5, "S", Event="Club").tags
    {'Event': 'Club', 'Board': '5', 'Dealer': 'S', 'Deal': 'N:A... K... Q... J...'}
    """
    for k in ("Deal", "Board", "Dealer", "Play"):
        if k in tags:
            raise ValueError(f"give {k} as an argument of make_board, not as a tag")
    if number is not None and number < 0:
        raise ValueError(f"a board number is 0 or more, got {number}")
    d = deal if isinstance(deal, Deal) else Deal(deal)
    seat = None if dealer is None else to_seat(dealer)
    out: dict[str, str] = {k: tags[k] for k in ("Event", "Site", "Date") if k in tags}
    if number is not None:
        out["Board"] = str(number)
    if seat is not None:
        out["Dealer"] = seat.name
    out["Deal"] = d.to_pbn()
    out.update((k, v) for k, v in tags.items() if k not in out)
    return Board(out, d, number, seat)
