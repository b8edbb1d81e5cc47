"""Types of the C set-up and sweep (``_sweep.c``), built beside the compiled solver."""

from collections.abc import Callable

class OutOfTime(Exception): ...

class Sweep:
    def __init__(
        self,
        sizes: list[int],
        steps: list[int],
        terms: list[list[tuple[int, int, int]]],
        plans: list[list[tuple[int, int, bool]]],
    ) -> None: ...
    def run(self, deadline: float | None, clock: Callable[[], float]) -> dict[int, list[int]] | None: ...
    def counts(
        self, deadline: float | None, clock: Callable[[], float]
    ) -> dict[int, tuple[tuple[int, ...], tuple[tuple[int, ...], ...], int, tuple[int, ...]]] | None: ...
    def set_need(self, c: int, need: int) -> None: ...

def prepare(
    constraints: list[tuple[tuple[int, ...], int]], watched: tuple[int, ...], early: int
) -> tuple[tuple[tuple[int, ...], ...], Sweep]: ...
