"""The smallest set of numbers that forces a cell, and the level ladder the grader climbs.

Levels, in the order a person would reach for them: ``1``, ``2``, ... up to
``max_numbers`` numbers considered together, then ``count`` (up to
``max_numbers`` numbers plus the global mine count), then ``engine`` (the
full exact analysis: anything certain that needs more).  A proof's "pieces of
information" are its numbers, plus one when it needs the mine count.

Sets are tried smallest first and every set of one size is tried before the
next size, so the first set found is minimal: no cited number can be dropped
(a smaller forcing set would have been found earlier).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass

from autoplay.insight.numbersets import connected_layers, count_layers, sharing_graph
from autoplay.insight.subsystem import NOTHING, Forced, MineCount, Subsystem, count_can_matter
from autoplay.solver.position import Constraint, Position

#: Largest set of numbers searched before handing over to the full engine.
MAX_NUMBERS = 4
COUNT = "count"
ENGINE = "engine"
GUESS = "guess"


def level_names(max_numbers: int = MAX_NUMBERS) -> list[str]:
    """Every level of certain moves, easiest first (guesses are reported apart)."""
    return [str(k) for k in range(1, max_numbers + 1)] + [COUNT, ENGINE]


def level_rank(level: str) -> int:
    """Position on the ladder, for ``--min-level``: numbers count as themselves, then count, then engine."""
    if level.isdigit():
        return int(level)
    return {COUNT: 100, ENGINE: 101, GUESS: 102}[level]


@dataclass(frozen=True)
class Proof:
    """Why ``cell`` (flat index) is safe or a mine.

    ``minimal`` is False for the engine fallback, whose ``numbers`` are the
    whole subsystem the cell belongs to rather than a smallest set;
    ``timed_out`` says the deadline, not the set size, stopped the search.
    """

    cell: int
    mine: bool
    numbers: tuple[Constraint, ...]
    uses_count: bool
    minimal: bool = True
    timed_out: bool = False

    @property
    def pieces(self) -> int:
        return len(self.numbers) + int(self.uses_count)

    @property
    def level(self) -> str:
        if not self.minimal:
            return ENGINE
        return COUNT if self.uses_count else str(len(self.numbers))


class Prover:
    """Minimal proofs for cells of one position, and the grader's easiest moves.

    ``deadline`` (perf_counter seconds) bounds the search on the live path:
    a cell not proved in time gets the engine fallback.
    """

    def __init__(
        self, pos: Position, mines_left: int | None, max_numbers: int = MAX_NUMBERS, deadline: float | None = None
    ) -> None:
        self.pos = pos
        self.constraints = pos.constraints
        self.count = None if mines_left is None else MineCount(mines_left, pos.unknown)
        self.max_numbers = max_numbers
        self.deadline = deadline
        self.graph = sharing_graph(self.constraints)
        self._subsystems: dict[tuple[tuple[int, ...], bool], Subsystem] = {}

    def _subsystem(self, members: tuple[int, ...], with_count: bool) -> Subsystem:
        """Built once per set: the cells of one decision ask the same sets again and again."""
        key = (members, with_count)
        found = self._subsystems.get(key)
        if found is None:
            found = Subsystem([self.constraints[k] for k in members], self.count if with_count else None)
            self._subsystems[key] = found
        return found

    def _late(self) -> bool:
        return self.deadline is not None and time.perf_counter() > self.deadline

    def prove(self, cell: int, mine: bool) -> Proof:
        """The minimal proof that ``cell`` is a mine (``mine``) or safe; the engine fallback if none is found."""
        starts = [k for k, con in enumerate(self.constraints) if cell in con.unknowns]
        for with_count, layers in self._searches(starts):
            for layer in layers:
                for members in layer:
                    if self._late():
                        return self._fallback(cell, mine, starts, timed_out=True)
                    if self._subsystem(members, with_count).forces(cell, mine):
                        return Proof(cell, mine, tuple(self.constraints[k] for k in members), with_count)
        return self._fallback(cell, mine, starts)

    def _searches(self, starts: list[int]) -> Iterator[tuple[bool, Iterator[list[tuple[int, ...]]]]]:
        yield False, connected_layers(starts, self.graph, self.max_numbers)
        if self.count is not None and count_can_matter(self.constraints, self.count):
            yield True, count_layers(len(self.constraints), starts, self.graph, self.max_numbers)

    def _fallback(self, cell: int, mine: bool, starts: list[int], timed_out: bool = False) -> Proof:
        """The cell's whole subsystem (every number, when the cell touches none): what the engine counted."""
        if not starts:
            return Proof(cell, mine, self.constraints, self.count is not None, minimal=False, timed_out=timed_out)
        seen = set(starts)
        todo = list(starts)
        while todo:
            for k in self.graph[todo.pop()]:
                if k not in seen:
                    seen.add(k)
                    todo.append(k)
        numbers = tuple(self.constraints[k] for k in sorted(seen))
        return Proof(cell, mine, numbers, self.count is not None, minimal=False, timed_out=timed_out)

    def easiest_moves(self) -> tuple[str, Forced]:
        """The lowest level at which any set of numbers forces a cell, with every cell forced at that level.

        Returns ``(ENGINE, NOTHING)`` when no set within the ladder forces
        anything; the grader then asks the full engine.
        """
        everything = range(len(self.constraints))
        for with_count, layers in self._searches(list(everything)):
            for layer in layers:
                safe: set[int] = set()
                mines: set[int] = set()
                for members in layer:
                    forced = self._subsystem(members, with_count).forced()
                    safe |= forced.safe
                    mines |= forced.mines
                if safe or mines:
                    level = COUNT if with_count else str(len(layer[0]))
                    return level, Forced(frozenset(safe), frozenset(mines))
        return ENGINE, NOTHING
