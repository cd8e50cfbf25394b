"""Type stubs of the compiled Dominoes search (see _dominoes.pyx)."""

from collections.abc import Sequence

ERRORS: dict[int, str]

def _race_bounds(
    hands: Sequence[int], mover: int, start: int, low_aces: bool, ace_replays: bool, seat: int
) -> tuple[int, int, int, int]: ...

class DominoSolver:
    tt_entries: int
    tt_bytes: int
    def __init__(self, tt_bytes: int = ...) -> None: ...
    def clear(self) -> None: ...
    @property
    def stats(self) -> dict[str, int]: ...
    def solve_position(
        self,
        hands: Sequence[int],
        mover: int,
        start: int,
        low_aces: bool,
        ace_replays: bool,
        places: Sequence[int],
        seats: int = ...,
        floor: int | None = ...,
    ) -> tuple[int, int, list[int | None], int]: ...
