"""The C set-up and sweep (``_sweep.c``) give count.py's exact answers, or none at all.

Checked against the Python code on the same numbers: the groups and their sweep order, plain, watched and sibling
counts of random positions and of long frontiers, a count past 128 bits (handed to the Python sweep), and the
deadline.  The C module is built with the compiled solver (``setup.py``); these tests import it directly, so a
build that lost it fails here rather than silently counting in Python.
"""

from __future__ import annotations

import random
import time

import pytest

from autoplay.compiled import is_compiled
from autoplay.solver import count as count_module
from autoplay.solver import native
from autoplay.solver._sweep import OutOfTime, Sweep, prepare
from autoplay.solver.analysis import _split
from autoplay.solver.count import (
    BudgetExceeded,
    _by_watched,
    _NativeCounter,
    _prepare,
    _prepare_python,
    count_component,
)
from autoplay.solver.position import read_position
from tests.solver.brute import random_position
from tests.solver.test_limits import dealt

Constraints = list[tuple[tuple[int, ...], int]]


def python_and_c(constraints: Constraints, watched: tuple[int, ...] = ()) -> tuple[dict, dict | None]:
    """The Python sweep's answer and the C sweep's, from the Python set-up."""
    _ordered, enumerator = _prepare_python(constraints, watched, None)
    fresh = Sweep(enumerator.sizes, enumerator.steps, enumerator.terms, enumerator.plans)
    return enumerator._solve(0, ()), fresh.run(None, time.perf_counter)


def pieces(seed: int, positions: int) -> list[Constraints]:
    """The components of random small positions and of a few half-opened expert boards."""
    rng = random.Random(seed)
    found: list[Constraints] = []
    for _ in range(positions):
        found += _split(read_position(random_position(rng)))
    for board_seed in range(4):
        found += _split(read_position(dealt(16, 30, 99, 0.3 + 0.05 * board_seed, seed=board_seed)))
    return found


def test_the_compiled_solver_counts_with_the_c_sweep() -> None:
    assert (native.PREPARE is prepare) == is_compiled()
    _ordered, counter = _prepare([((0, 1, 2), 1)], (), None)
    assert isinstance(counter, _NativeCounter) == is_compiled()


def test_the_c_set_up_makes_the_python_groups_in_the_python_order() -> None:
    """Groups, their order and the counts, with watched cells on and off the numbers and a number swept first."""
    rng = random.Random(3)
    compared = 0
    for piece in pieces(3, 200):
        cells = sorted({j for group, _need in piece for j in group})
        for watched in [(), tuple(rng.sample(cells, min(len(cells), 3))), (1000, 1001)]:
            early = rng.choice([-1, rng.randrange(len(piece))])
            ordered, enumerator = _prepare_python(piece, watched, None, early)
            got_ordered, sweep = prepare(piece, watched, early)
            assert got_ordered == ordered
            want = _by_watched(ordered, enumerator.run())
            got = sweep.counts(None, time.perf_counter)
            assert got is not None and list(got) == list(want)  # the same watched mines, ascending
            for seen, count in want.items():
                assert got[seen] == (count.totals, count.group_mines, count.total_support, count.group_support)
            compared += 1
    assert compared > 500


def test_a_changed_need_forgets_only_what_it_must() -> None:
    """set_need, in any order of needs and asked twice, answers as the Python enumerator's set_need."""
    rng = random.Random(4)
    compared = 0
    for piece in pieces(4, 80):
        if len(piece) < 2:
            continue
        free = rng.randrange(len(piece))
        ordered, enumerator = _prepare_python(piece, (), None, free)
        _ordered, sweep = prepare(piece, (), free)
        needs = list(range(len(piece[free][0]) + 1)) * 2
        rng.shuffle(needs)
        for need in needs:
            enumerator.set_need(free, need)
            sweep.set_need(free, need)
            want = _by_watched(ordered, enumerator.run())
            got = sweep.counts(None, time.perf_counter)
            assert got is not None
            assert {seen: c[0] for seen, c in got.items()} == {seen: c.totals for seen, c in want.items()}
            assert {seen: c[1] for seen, c in got.items()} == {seen: c.group_mines for seen, c in want.items()}
            compared += 1
    assert compared > 200


def test_raw_sweeps_count_alike() -> None:
    """The C sweep on the Python set-up returns what the Python sweep returns, vector for vector."""
    rng = random.Random(11)
    for piece in pieces(11, 100):
        cells = sorted({j for group, _need in piece for j in group})
        watched = tuple(rng.sample(cells, min(len(cells), rng.randint(0, 3))))
        want, got = python_and_c(piece, watched)
        assert got == want


def _wide_chain(links: int) -> Constraints:
    """Numbers each needing 4 of 8 cells of their own and of the cells they share with their neighbours."""
    constraints: Constraints = []
    for c in range(links):
        own = tuple(range(10 * c, 10 * c + 8))
        shared = (10 * c + 8, 10 * c + 9) if c + 1 < links else ()
        before = (10 * c - 2, 10 * c - 1) if c else ()
        constraints.append((before + own + shared, 4))
    return constraints


def test_counts_past_128_bits_are_handed_to_the_python_sweep() -> None:
    chain = _wide_chain(30)  # about 70**30 layouts: more than 2**180
    want, got = python_and_c(chain)
    assert got is None
    assert max(vec[0] for vec in want.values()).bit_length() > 128
    _ordered, sweep = prepare(chain, (), -1)
    assert sweep.counts(None, time.perf_counter) is None
    counted = count_component(chain)
    assert sum(counted.totals) == sum(vec[0] for vec in want.values())
    short = _wide_chain(8)  # about 70**8: well inside 128 bits
    want, got = python_and_c(short)
    assert got == want


def test_a_sibling_past_128_bits_goes_on_in_python() -> None:
    """A sibling count that overflows hands the counter to Python, which keeps the needs set since."""
    if not is_compiled():
        pytest.fail("the C sweep runs only beside the compiled solver: build it (pip install -e .)")
    chain = _wide_chain(30)
    ordered, counter = _prepare(chain, (), None, 3)
    assert isinstance(counter, _NativeCounter)
    counter.set_need(3, 5)
    sibling = chain[:3] + [(chain[3][0], 5)] + chain[4:]
    assert counter.counts(ordered)[0].totals == count_component(sibling).totals
    assert counter.native is None and counter.python is not None
    counter.set_need(3, 3)
    sibling = chain[:3] + [(chain[3][0], 3)] + chain[4:]
    assert counter.counts(ordered)[0].totals == count_component(sibling).totals


def test_the_deadline_stops_the_c_sweep() -> None:
    pos = read_position(dealt(16, 30, 99, 0.3, seed=0))
    biggest = max(_split(pos), key=len)
    _ordered, sweep = prepare(biggest, (), -1)
    ticks = iter(range(10**9))

    def clock() -> float:  # each reading a second later than the last
        return float(next(ticks))

    with pytest.raises(OutOfTime):
        sweep.counts(3.5, clock)
    assert next(ticks) == 5  # read every 256 new sub-counts, and stopped at the first reading past the deadline


def test_a_deadline_in_the_c_sweep_is_the_engine_s_budget_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """The counter's own clock (``time.perf_counter`` as count.py sees it) bounds the C sweep too."""
    if not is_compiled():
        pytest.fail("the C sweep runs only beside the compiled solver: build it (pip install -e .)")
    pos = read_position(dealt(16, 30, 99, 0.3, seed=0))
    ordered, counter = _prepare(max(_split(pos), key=len), (), None)
    assert isinstance(counter, _NativeCounter)
    ticks = iter(range(10**9))
    monkeypatch.setattr(count_module.time, "perf_counter", lambda: float(next(ticks)))
    counter.deadline = 2.5
    with pytest.raises(BudgetExceeded):
        counter.counts(ordered)
    assert next(ticks) == 4
