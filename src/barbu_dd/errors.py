"""The one exception hierarchy of barbu-dd.

Every error caused by bad input is a :class:`BarbuError`; the command-line tool
catches it once and prints a one-line message.
"""

from __future__ import annotations

__all__ = [
    "BarbuError",
    "ParseError",
    "InvalidPositionError",
    "IllegalPlayError",
    "SolverError",
]


class BarbuError(Exception):
    """Base class of every barbu-dd error."""


class ParseError(BarbuError, ValueError):
    """Malformed text: a card, a PBN file, a contract or variant name, a scale file."""


class InvalidPositionError(BarbuError, ValueError):
    """A position that cannot occur: duplicate or missing cards, unequal hands, broken layouts."""


class IllegalPlayError(BarbuError, ValueError):
    """A card that may not be played: not held, a revoke, a heart lead, the K♥ duty."""


class SolverError(BarbuError, RuntimeError):
    """The search core failed: an error code from the core, or out of memory."""
