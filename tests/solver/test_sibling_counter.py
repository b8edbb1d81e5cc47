"""Sibling positions counted by one enumerator (count.SiblingCounter) equal fresh counts of each sibling.

The depth-3 search asks about one follow-up cell in every position a candidate's numbers lead to; those
positions differ only in what the candidate's own number needs, and share one enumerator's memo.  The answers
must be the fresh counts (the groups may come in another order), whatever order the siblings are asked in.
"""

from __future__ import annotations

import random
import time
from fractions import Fraction

import pytest

from autoplay.solver.analysis import _SIBLINGS, analyze, clear_component_cache, reveal_outcomes
from autoplay.solver.count import ComponentCount, SiblingCounter, count_by_watched
from autoplay.solver.deeper import _TIE, _Search
from autoplay.solver.guess import _candidates
from autoplay.solver.position import read_position, with_reveal
from tests.solver.brute import random_position


def by_cell(count: ComponentCount) -> tuple[tuple[int, ...], dict[int, tuple[int, ...]]]:
    """The totals and each cell's mines by total, whatever the order of the groups."""
    cells: dict[int, tuple[int, ...]] = {}
    for group, per_m, support in zip(count.groups, count.group_mines, count.group_support):
        assert support == sum(1 << m for m, v in enumerate(per_m) if v)
        for j in group:
            cells[j] = per_m
    return count.totals, cells


def test_each_need_counts_as_a_fresh_enumeration():
    # a strip of numbers over cells 0..9, with the third number left free; watch two cells
    constraints = [((0, 1, 2), 1), ((1, 2, 3), 1), ((2, 3, 4, 5), 2), ((4, 5, 6), 1), ((6, 7, 8, 9), 2)]
    rng = random.Random(3)
    for _ in range(5):
        counter = SiblingCounter(constraints, 2, (3, 7), None)
        needs = [0, 1, 2, 3, 4]
        rng.shuffle(needs)
        for need in needs + needs[:2]:  # asked again: the same answer
            sibling = constraints[:2] + [(constraints[2][0], need)] + constraints[3:]
            fresh = count_by_watched(sibling, (3, 7))
            got = counter.counts(need, None)
            assert sorted(got) == sorted(fresh)
            for seen, count in fresh.items():
                assert by_cell(got[seen]) == by_cell(count)
                assert count.total_support == got[seen].total_support


def probabilities(tally) -> dict[int, Fraction]:
    return {j: Fraction(num, den) for cells, num, den in tally.shares for j in cells}


def test_sibling_outcomes_equal_fresh_outcomes():
    rng = random.Random(5)
    compared = 0
    families = 0
    for _ in range(400):
        board = random_position(rng, flags=True)
        pos = read_position(board)
        mines = board.mines
        parent = rng.choice(pos.unknown)
        clear_component_cache()
        first = reveal_outcomes(pos, mines, parent)  # only numbers some layout shows, as in the search
        children = [with_reveal(pos, parent, v) for v in first.numbers() if first.safe_cells(v) is not None]
        if len(children) < 2 or len(children[0].unknown) < 2:
            continue
        follow = rng.choice(children[0].unknown)
        clear_component_cache()
        shared = [reveal_outcomes(child, mines, follow, sibling_of=parent) for child in children]
        families += len(_SIBLINGS)  # the siblings went through one shared counter
        for child, got in zip(children, shared):
            clear_component_cache()
            fresh = reveal_outcomes(child, mines, follow)
            assert got.numbers() == fresh.numbers()
            for value in fresh.numbers():
                assert got.safe_cells(value) == fresh.safe_cells(value), (board.to_text(), parent, follow)
                expected = fresh.joined(value)
                found = got.joined(value)
                assert (found is None) == (expected is None)
                if expected is not None:
                    assert found is not None and found.solutions == expected.solutions
                    assert probabilities(found) == probabilities(expected)
                    assert got.lowest_probability(value) == fresh.lowest_probability(value)
                    compared += 1
    assert compared > 100 and families > 20


def test_a_challenger_loses_or_wins_exactly_as_its_full_value_says():
    rng = random.Random(11)
    checked = 0
    while checked < 30:
        board = random_position(rng, max_unknown=12)
        pos = read_position(board)
        analysis = analyze(board)
        if analysis.safe or analysis.mines or not pos.constraints:
            continue
        risk = {board.index(r, c): float(p) for (r, c), p in analysis.exact.items()}
        for cell in sorted(risk, key=risk.__getitem__)[:2]:
            search = _Search(board.mines, time.perf_counter() + 30, _candidates)
            full = search.survive_three(pos, analysis.solutions, cell)
            assert full is not None
            for beat in (full - 0.2, full - 1e-6, full - 2 * _TIE, full, full + 1e-6, full + 0.1):
                got = _Search(board.mines, time.perf_counter() + 30, _candidates).survive_three(
                    pos, analysis.solutions, cell, beat
                )
                assert got is not None
                if full > beat + _TIE:
                    assert got == full, board.to_text()  # the same float, summed in the same order
                else:
                    assert got <= beat + _TIE
            checked += 1
    assert checked >= 30


@pytest.mark.parametrize("need", [0, 1, 2])
def test_a_need_no_layout_allows_counts_nothing(need):
    # two cells under a number that needs 2, and a free number over one of them
    counter = SiblingCounter([((0, 1), 2), ((1, 2), need)], 1, (), None)
    got = counter.counts(need, None)
    fresh = count_by_watched([((0, 1), 2), ((1, 2), need)], ())
    assert sorted(got) == sorted(fresh)
    assert [by_cell(c) for c in got.values()] == [by_cell(c) for c in fresh.values()]
