"""The C sweep (``_sweep.c``) gives count._Enumerator's exact answers, or none at all.

Checked against the Python sweep on the same set-up: plain, watched and sibling counts of random positions
and of long frontiers, a count past 128 bits (handed to the Python sweep), and the deadline.  The C module is
built with the compiled solver (``setup.py``); these tests import it directly, so a build that lost it fails
here rather than silently counting in Python.
"""

from __future__ import annotations

import random
import time

import pytest

from autoplay.compiled import is_compiled
from autoplay.solver import count as count_module
from autoplay.solver import native
from autoplay.solver._sweep import OutOfTime, Sweep
from autoplay.solver.analysis import _split
from autoplay.solver.count import BudgetExceeded, _by_watched, _prepare, count_component
from autoplay.solver.position import read_position
from tests.solver.brute import random_position
from tests.solver.test_limits import dealt

Constraints = list[tuple[tuple[int, ...], int]]


def python_and_c(constraints: Constraints, watched: tuple[int, ...] = ()) -> tuple[dict, dict | None]:
    """The Python sweep's answer and the C sweep's, from one set-up."""
    _ordered, enumerator = _prepare(constraints, watched, None)
    fresh = Sweep(enumerator.sizes, enumerator.steps, enumerator.terms, enumerator.plans)
    return enumerator._solve(0, ()), fresh.run(None, time.perf_counter)


def test_the_compiled_solver_counts_with_the_c_sweep() -> None:
    assert (native.SWEEP is Sweep) == is_compiled()
    _ordered, enumerator = _prepare([((0, 1, 2), 1)], (), None)
    assert (enumerator.native is not None) == is_compiled()


def test_random_positions_count_alike() -> None:
    rng = random.Random(11)
    compared = 0
    for _ in range(150):
        pos = read_position(random_position(rng))
        for piece in _split(pos):
            cells = sorted({j for group, _need in piece for j in group})
            watched = tuple(rng.sample(cells, min(len(cells), rng.randint(0, 3))))
            want, got = python_and_c(piece, watched)
            assert got == want
            compared += 1
    assert compared > 100


def test_counts_by_watched_mines_are_the_python_regrouping() -> None:
    """Sweep.counts gives, per watched mines, the fields count._by_watched makes from the raw answer."""
    rng = random.Random(12)
    compared = 0
    for _ in range(100):
        pos = read_position(random_position(rng))
        for piece in _split(pos):
            cells = sorted({j for group, _need in piece for j in group})
            watched = tuple(rng.sample(cells, min(len(cells), rng.randint(0, 4))))
            ordered, enumerator = _prepare(piece, watched, None)
            want = _by_watched(ordered, enumerator.run())
            got = Sweep(enumerator.sizes, enumerator.steps, enumerator.terms, enumerator.plans).counts(
                None, time.perf_counter
            )
            assert got is not None and list(got) == list(want)  # the same watched mines, ascending
            for seen, count in want.items():
                assert got[seen] == (count.totals, count.group_mines, count.total_support, count.group_support)
            compared += 1
    assert compared > 50


def test_long_frontiers_count_alike() -> None:
    """Expert boards opened at random: components of a hundred groups and more, widths past twenty."""
    widest = 0
    for seed in range(8):
        pos = read_position(dealt(16, 30, 99, 0.3 + 0.05 * seed, seed=seed))
        for piece in _split(pos):
            want, got = python_and_c(piece)
            assert got == want
            widest = max(widest, len(piece))
    assert widest > 50


def test_a_changed_need_forgets_only_what_it_must() -> None:
    """set_need, in any order of needs and asked twice, answers as a fresh sweep of each sibling."""
    rng = random.Random(4)
    for _ in range(60):
        pos = read_position(random_position(rng))
        pieces = [p for p in _split(pos) if len(p) >= 2]
        if not pieces:
            continue
        piece = pieces[0]
        free = rng.randrange(len(piece))
        _ordered, enumerator = _prepare(piece, (), None, free)
        assert enumerator.native is not None or not is_compiled()
        c_sweep = Sweep(enumerator.sizes, enumerator.steps, enumerator.terms, enumerator.plans)
        needs = list(range(len(piece[free][0]) + 1)) * 2
        rng.shuffle(needs)
        for need in needs:
            enumerator.set_need(free, need)
            first = enumerator.first[free]
            c_sweep.set_need(first, enumerator.terms[first], enumerator.plans[first])
            sibling = piece[:free] + [(piece[free][0], need)] + piece[free + 1 :]
            want, _ = python_and_c(sibling)
            got = c_sweep.run(None, time.perf_counter)
            # the sibling's own set-up may order the groups otherwise: compare what does not depend on it
            assert (got is None) == (want is None)
            assert got is not None and want is not None
            assert {key: vec[0] for key, vec in got.items()} == {key: vec[0] for key, vec in want.items()}


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
    counted = count_component(chain)
    assert sum(counted.totals) == sum(vec[0] for vec in want.values())
    short = _wide_chain(8)  # about 70**8: well inside 128 bits
    want, got = python_and_c(short)
    assert got == want


def test_the_deadline_stops_the_c_sweep() -> None:
    pos = read_position(dealt(16, 30, 99, 0.3, seed=0))
    biggest = max(_split(pos), key=len)
    _ordered, enumerator = _prepare(biggest, (), None)
    c_sweep = Sweep(enumerator.sizes, enumerator.steps, enumerator.terms, enumerator.plans)
    ticks = iter(range(10**9))

    def clock() -> float:  # each reading a second later than the last
        return float(next(ticks))

    with pytest.raises(OutOfTime):
        c_sweep.run(3.5, clock)
    assert next(ticks) == 5  # read every 256 new sub-counts, and stopped at the first reading past the deadline


def test_a_deadline_in_the_c_sweep_is_the_engine_s_budget_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """The enumerator's own clock (``time.perf_counter`` as count.py sees it) bounds the C sweep too."""
    if not is_compiled():
        pytest.fail("the C sweep runs only beside the compiled solver: build it (pip install -e .)")
    pos = read_position(dealt(16, 30, 99, 0.3, seed=0))
    _ordered, enumerator = _prepare(max(_split(pos), key=len), (), None)
    assert enumerator.native is not None
    ticks = iter(range(10**9))
    monkeypatch.setattr(count_module.time, "perf_counter", lambda: float(next(ticks)))
    enumerator.deadline = 2.5
    with pytest.raises(BudgetExceeded):
        enumerator.counts(())
    assert next(ticks) == 4
