"""The ``bridge`` rule set with side N+S equals bridge double dummy: DDS's answers.

The answers were made once by DDS (the ``endplay`` package) and stored in
``tests/data`` with the scripts that made them, so these tests do not need DDS:
``dds_endings.json`` (100 endings of 5-7 cards, every strain and leader) runs in
the regular test run; ``dds_bridge.json`` (120 full deals) in ``pytest -m slow``.
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


@pytest.mark.slow
def test_full_deals_match_dds() -> None:
    boards = _load("dds_bridge.json")
    assert len(boards) >= 100
    _check(boards)
