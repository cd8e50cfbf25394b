"""The fixed benchmark deal set: 50 random full deals (seed 20261130)."""

from __future__ import annotations

import random

from barbu_dd.cards import ALL_CARDS, hand_to_pbn

__all__ = ["BENCH_DEALS", "random_deals", "random_endings"]


def random_deals(n: int, seed: int) -> list[str]:
    """``n`` random full deals as PBN strings, reproducible from ``seed``."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        cards = list(ALL_CARDS)
        rng.shuffle(cards)
        hands = [sum(1 << c for c in cards[13 * k : 13 * k + 13]) for k in range(4)]
        out.append("N:" + " ".join(hand_to_pbn(h) for h in hands))
    return out


def random_endings(n: int, cards: int, seed: int) -> list[str]:
    """``n`` random endings of ``cards`` cards a hand (from random parts of the deck),
    North on lead, as PBN strings, reproducible from ``seed``."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        deck = list(ALL_CARDS)
        rng.shuffle(deck)
        hands = [sum(1 << c for c in deck[cards * k : cards * k + cards]) for k in range(4)]
        out.append("N:" + " ".join(hand_to_pbn(h) for h in hands))
    return out


BENCH_DEALS: list[str] = random_deals(50, 20261130)
