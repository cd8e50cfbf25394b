"""The ``bridge`` rule set with side N+S equals bridge double dummy: DDS's answers.

The answers were made once by DDS (the ``endplay`` package) and stored in
``tests/data`` with the scripts that made them, so these tests do not need DDS:
``dds_endings.json`` (100 endings of 5-7 cards) and the first 100 full deals of
``dds_bridge.json`` run in the regular test run, every strain and leader; the
other 20 full deals in ``pytest -m slow``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from barbu_dd.contracts import make_game
from barbu_dd.solver import Solver

DATA = Path(__file__).parent / "data"
STRAINS = ("S", "H", "D", "C", "NT")
LEADERS = ("N", "E", "S", "W")


def _load(name: str) -> list[dict[str, object]]:
    data = json.loads((DATA / name).read_text())
    assert data["strains"] == list(STRAINS) and data["leaders"] == list(LEADERS)
    boards: list[dict[str, object]] = data["boards"]
    return boards


def _check(boards: list[dict[str, object]]) -> None:
    solver = Solver(tt_bytes=32 << 20)
    mismatches = []
    for b in boards:
        for strain in STRAINS:
            game = make_game("tricks", rules="bridge", trump=strain)
            for i, leader in enumerate(LEADERS):
                got = solver.solve(str(b["deal"]), game, declarer=leader, side="NS").value
                want = b["ns_tricks"][strain][i]  # type: ignore[index]
                if got != want:
                    mismatches.append((b["deal"], strain, leader, got, want))
    assert mismatches == []


def test_endings_match_dds() -> None:
    boards = _load("dds_endings.json")
    assert len(boards) >= 100
    _check(boards)


def test_full_deals_match_dds() -> None:
    """100 full deals × 5 strains × 4 leaders: 2,000 solves (about 4-6 minutes)."""
    boards = _load("dds_bridge.json")[:100]
    assert len(boards) == 100
    _check(boards)


@pytest.mark.slow
def test_more_full_deals_match_dds() -> None:
    boards = _load("dds_bridge.json")[100:]
    assert len(boards) >= 20
    _check(boards)
