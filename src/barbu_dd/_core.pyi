"""Type stubs of the compiled trick search (see _core.pyx)."""

from collections.abc import Sequence
from typing import Any

_Won = Sequence[Sequence[int]] | None

class Solver:
    tt_entries: int
    tt_bytes: int
    hint_bytes: int
    rules_id: object
    threads: int  # 1 or 2: the search threads of a value() call
    par_after: int  # threads == 2: nodes the first thread searches alone (0: none)
    last_helper_nodes: int  # the second thread's nodes in the last value() call
    def __init__(self, tt_bytes: int) -> None: ...
    def clear(self) -> None: ...
    def set_rules(
        self,
        card_points: Sequence[int],
        trick_points: Sequence[int],
        *,
        trump: int = ...,
        heart_lead: bool = ...,
        king_duty: bool = ...,
        trump_duties: bool = ...,
        ravage: bool = ...,
        ravage_penalty: int = ...,
        rules_id: object = ...,
        no_more_tricks: bool = ...,
        rounds: bool = ...,
        narrow: bool = ...,
        helper_weights: Sequence[float] | None = ...,
    ) -> None: ...
    def value(
        self, hands: Sequence[int], trick: Sequence[int], leader: int, side: int, won: _Won = ...
    ) -> tuple[int, int, int]: ...
    def value_bounds(
        self,
        hands: Sequence[int],
        trick: Sequence[int],
        leader: int,
        side: int,
        won: _Won = ...,
        *,
        max_nodes: int = ...,
        seconds: float = ...,
        want: int = ...,
    ) -> tuple[int, int, int, int]: ...
    def value_after(
        self,
        hands: Sequence[int],
        trick: Sequence[int],
        leader: int,
        side: int,
        card: int,
        won: _Won = ...,
        *,
        seconds: float = ...,
        max_nodes: int = ...,
    ) -> tuple[int, int, int]: ...
    def probe(
        self,
        hands: Sequence[int],
        trick: Sequence[int],
        leader: int,
        side: int,
        target: int,
        won: _Won = ...,
    ) -> tuple[int, int]: ...
    def helper_scores(
        self, hands: Sequence[int], trick: Sequence[int], leader: int, lone: int
    ) -> list[float]: ...
    def legal(self, hands: Sequence[int], trick: Sequence[int], leader: int) -> int: ...
    def groups(
        self, hands: Sequence[int], trick: Sequence[int], leader: int
    ) -> list[list[int]]: ...
    @property
    def gcd(self) -> int: ...
    @property
    def last_stats(self) -> dict[str, Any]: ...
