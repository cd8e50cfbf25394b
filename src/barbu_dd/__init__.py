"""barbu-dd: the double-dummy solver and hand analyser for the card game Barbu."""

from __future__ import annotations

# (``analyze()`` and ``advise()`` stay in their modules: exporting them here would
# hide the submodules ``barbu_dd.analyze`` and ``barbu_dd.advise``.)
from .advise import Advice
from .analyze import best_contract, playout, table
from .batch import iter_solve, solve_many
from .cards import Card, CardSet, Rank, Seat, Suit, card_name, parse_card
from .contracts import Contract, Game, Scale, find_contract, load_scale, make_game
from .deal import Deal, Trick
from .errors import (
    BarbuError,
    IllegalPlayError,
    InvalidPositionError,
    ParseError,
    SolverError,
)
from .solver import CardValue, Solution, Solver, best_start, card_values, solve

__version__ = "0.1.0"

__all__ = [
    "__version__",
    "Advice",
    "BarbuError",
    "Card",
    "CardValue",
    "CardSet",
    "Contract",
    "Deal",
    "Game",
    "IllegalPlayError",
    "InvalidPositionError",
    "ParseError",
    "Rank",
    "Scale",
    "Seat",
    "Solution",
    "Solver",
    "SolverError",
    "Suit",
    "Trick",
    "best_contract",
    "best_start",
    "card_name",
    "card_values",
    "find_contract",
    "iter_solve",
    "load_scale",
    "make_game",
    "parse_card",
    "playout",
    "solve",
    "solve_many",
    "table",
]
