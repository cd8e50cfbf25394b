"""Fuzzing: whatever the input, only a BarbuError comes out of the PBN reader and the CLI."""

from __future__ import annotations

import io
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from barbu_dd.errors import BarbuError
from barbu_dd.pbn import BadBoard, Board, parse_pbn, play_sequence, read_pbn

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
SEEDS = [
    (EXAMPLES / n).read_text(encoding="utf-8") for n in ("deals.pbn", "ending.pbn", "played.pbn")
]

FUZZ = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

#: Characters that matter to PBN, to make mangling likely to hit something.
SPECIAL = (
    list('[]"{};%#*-\\\n\r\t :.')
    + list("NESWnesw")
    + list("AKQJT1098765432xX")
    + ["♥", "é", "\x00", "\u2028", "\ufeff"]
)


@st.composite
def mangled(draw: st.DrawFn) -> str:
    """A valid example file with characters deleted, duplicated, replaced or inserted."""
    text = draw(st.sampled_from(SEEDS))
    chars = list(text)
    for _ in range(draw(st.integers(1, 12))):
        if not chars:
            break
        i = draw(st.integers(0, len(chars) - 1))
        op = draw(st.sampled_from(["delete", "duplicate", "replace", "insert", "cut"]))
        if op == "delete":
            del chars[i]
        elif op == "duplicate":
            j = min(len(chars), i + draw(st.integers(1, 40)))
            chars[i:i] = chars[i:j]
        elif op == "replace":
            chars[i] = draw(st.sampled_from(SPECIAL) | st.characters(blacklist_categories=["Cs"]))
        elif op == "insert":
            chars.insert(i, draw(st.sampled_from(SPECIAL)))
        else:
            del chars[i : i + draw(st.integers(1, 200))]
    return "".join(chars)


def consume(items: Iterator[Board | BadBoard]) -> list[Board | BadBoard]:
    """Read everything, and use what was read as a caller would."""
    out = []
    for b in items:
        out.append(b)
        if isinstance(b, Board):
            _ = (b.label, b.location, str(b.deal), b.deal.sizes())
            if b.play_section is not None:
                for trump in (None, 0):
                    try:
                        play_sequence(b, trump)
                    except BarbuError:
                        pass
            try:
                b.declarer()
            except BarbuError:
                pass
    return out


def check_text(text: str) -> None:
    """Raise mode lets only BarbuError out; yield mode lets nothing out and agrees with it."""
    got: list[Board | BadBoard] = []
    error: BarbuError | None = None
    try:
        for b in read_pbn(io.StringIO(text), name="fuzz.pbn"):
            got.append(b)
    except BarbuError as e:
        error = e
    out = consume(read_pbn(io.StringIO(text), name="fuzz.pbn", errors="yield"))
    bad = [i for i, b in enumerate(out) if isinstance(b, BadBoard)]
    if error is None:
        assert not bad and out == got
    else:
        assert bad and out[: bad[0]] == got
        first_bad = out[bad[0]]
        assert isinstance(first_bad, BadBoard) and str(error) == first_bad.reason
        assert str(error).startswith("fuzz.pbn, ")


@pytest.fixture(scope="module")
def scratch() -> Iterator[Path]:
    with tempfile.TemporaryDirectory() as d:
        yield Path(d)


class TestReader:
    @given(mangled())
    @FUZZ
    def test_mangled_pbn(self, text: str) -> None:
        check_text(text)

    @given(st.text(max_size=300))
    @FUZZ
    def test_random_text(self, text: str) -> None:
        check_text(text)

    @given(
        st.lists(
            st.sampled_from(SPECIAL + ['[Deal "', '[Board "', '[Play "N"]', "SA", "N:"]),
            max_size=60,
        )
    )
    @FUZZ
    def test_pbn_ish_soup(self, parts: list[str]) -> None:
        check_text("".join(parts))

    @given(data=st.binary(max_size=400) | mangled().map(lambda t: t.encode("utf-8")))
    @FUZZ
    def test_random_bytes_from_a_file(self, data: bytes, scratch: Path) -> None:
        p = scratch / "fuzz.pbn"
        p.write_bytes(data)
        try:
            consume(read_pbn(p))
        except BarbuError:
            pass
        consume(read_pbn(p, errors="yield"))

    @given(mangled())
    @FUZZ
    def test_parse_pbn_matches_stream(self, text: str) -> None:
        a = parse_pbn(text, errors="yield")
        b = list(read_pbn(io.StringIO(text, newline="\n"), name="<string>", errors="yield"))
        assert a == b


# -- the command line ------------------------------------------------------------------------


def _show_command_exists() -> bool:
    try:
        from barbu_dd.cli import app
    except ImportError:
        return False
    names = []
    for c in app.registered_commands:
        name = c.name
        if name is None and c.callback is not None:
            name = c.callback.__name__.lower().replace("_", "-")
        names.append(name)
    return "show" in names


@pytest.mark.skipif(not _show_command_exists(), reason="the CLI has no 'show' command yet")
class TestCliShow:
    @given(text=mangled() | st.text(max_size=200))
    @FUZZ
    def test_show_mangled_file(self, text: str, scratch: Path) -> None:
        from typer.testing import CliRunner

        from barbu_dd.cli import app

        p = scratch / "cli-fuzz.pbn"
        p.write_text(text, encoding="utf-8")
        result = CliRunner().invoke(app, ["show", str(p)])
        assert result.exit_code in (0, 1), result.output
        # CliRunner turns an uncaught exception into exit code 1: there must be none
        assert result.exception is None or isinstance(result.exception, SystemExit), repr(
            result.exception
        )
        assert "Traceback" not in result.output
        if result.exit_code == 1:
            # `show` reports each bad board on stderr as it goes and carries on, so the
            # error lines are the whole of stderr (and its last line), not of the output.
            errors = result.stderr.strip().splitlines()
            assert errors and errors[-1].startswith("error:"), result.output
            assert all(line.startswith("error:") for line in errors), result.stderr
        else:
            assert not result.stderr.strip(), result.stderr

    def test_show_missing_file(self, scratch: Path) -> None:
        from typer.testing import CliRunner

        from barbu_dd.cli import app

        result = CliRunner().invoke(app, ["show", str(scratch / "missing.pbn")])
        assert result.exit_code in (1, 2)  # 2: Typer may check the path itself
        assert "Traceback" not in result.output


ENDING_BYTES = (EXAMPLES / "ending.pbn").read_bytes()


@st.composite
def byte_mangled(draw: st.DrawFn) -> bytes:
    """The example endings with a few bytes replaced (any byte, UTF-8 or not)."""
    data = bytearray(ENDING_BYTES)
    for _ in range(draw(st.integers(1, 6))):
        data[draw(st.integers(0, len(data) - 1))] = draw(st.integers(0, 255))
    return bytes(data)


COMMANDS = [
    ["solve", "-c", "barbu"],
    ["solve", "-c", "dominoes", "--start", "best", "--json"],
    ["table", "--json"],
    ["analyze", "-c", "no-queens"],
    ["playout", "-c", "trumps", "--trump", "H"],
    ["best"],
]


@given(data=st.binary(max_size=300) | byte_mangled(), command=st.sampled_from(COMMANDS))
@FUZZ
def test_commands_on_random_bytes(data: bytes, command: list[str], scratch: Path) -> None:
    """Every command reading a PBN file, fed any bytes: output or one-line errors, exit
    0 or 1, never a traceback."""
    from typer.testing import CliRunner

    from barbu_dd.cli import app

    p = scratch / "bytes.pbn"
    p.write_bytes(data)
    result = CliRunner().invoke(app, [command[0], str(p), *command[1:]])
    assert result.exit_code in (0, 1), result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert "Traceback" not in result.output
    errors = result.stderr.strip().splitlines()
    if result.exit_code == 1:
        assert errors and all(line.startswith(("error:", "warning:")) for line in errors), (
            result.stderr
        )
    else:
        assert not [line for line in errors if line.startswith("error:")], result.stderr
