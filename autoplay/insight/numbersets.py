"""Which sets of numbers to try, smallest first: shared by the explanations and the level-limited solver.

Numbers interact only through shared unknown cells, so without the mine
count a set that forces a cell can always be shrunk to one connected through
shared cells (the other parts are independent and change nothing).  Only
connected sets are generated, grown one neighbour at a time, which keeps the
search local.  With the mine count, parts far apart do interact (through the
total), so small boards also try every set of up to ``max_size`` numbers.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from itertools import combinations

from autoplay.solver.position import Constraint

#: With the mine count, every subset (not only connected ones) is tried when the board has at most this many numbers.
COUNT_POOL = 10


def sharing_graph(constraints: Sequence[Constraint]) -> list[set[int]]:
    """For each number (by position in ``constraints``), the numbers sharing at least one unknown cell with it."""
    by_cell: dict[int, list[int]] = {}
    for k, con in enumerate(constraints):
        for j in con.unknowns:
            by_cell.setdefault(j, []).append(k)
    graph: list[set[int]] = [set() for _ in constraints]
    for members in by_cell.values():
        for k in members:
            graph[k].update(members)
    for k, near in enumerate(graph):
        near.discard(k)
    return graph


def connected_layers(starts: Iterable[int], graph: list[set[int]], max_size: int) -> Iterator[list[tuple[int, ...]]]:
    """Connected sets holding at least one of ``starts``, one list per size 1, 2, ... ``max_size`` (sorted, no repeats).

    Sizes are produced lazily so a caller that finds what it needs at size 2
    never pays for the much larger size-3 layer.
    """
    layer: list[tuple[int, ...]] = sorted({(k,) for k in starts})
    for size in range(1, max_size + 1):
        if not layer:
            return
        yield layer
        if size == max_size:
            return
        grown: set[tuple[int, ...]] = set()
        for members in layer:
            inside = set(members)
            reach = set().union(*(graph[k] for k in members)) - inside
            for k in reach:
                grown.add(tuple(sorted(inside | {k})))
        layer = sorted(grown)


def count_layers(
    n_constraints: int, starts: Iterable[int], graph: list[set[int]], max_size: int
) -> Iterator[list[tuple[int, ...]]]:
    """Sets to try together with the mine count: the empty set, then each size up to ``max_size``.

    All subsets when the board has few numbers (``COUNT_POOL``), otherwise the
    connected ones (far-apart numbers rarely matter except in small endgames).
    """
    yield [()]
    if n_constraints <= COUNT_POOL:
        for size in range(1, min(max_size, n_constraints) + 1):
            yield list(combinations(range(n_constraints), size))
    else:
        yield from connected_layers(starts, graph, max_size)
