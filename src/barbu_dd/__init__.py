"""barbu-dd: the double-dummy solver and hand analyser for the card game Barbu."""

from __future__ import annotations

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

__version__ = "0.1.0"

__all__ = [
    "__version__",
    "BarbuError",
    "Card",
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
    "SolverError",
    "Suit",
    "Trick",
    "card_name",
    "find_contract",
    "load_scale",
    "make_game",
    "parse_card",
]
