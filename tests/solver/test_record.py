"""The solver's value records (moves, constraints) behave as values, compiled or not."""

from __future__ import annotations

import pickle

import pytest

from autoplay.solver.decide import Move
from autoplay.solver.position import Constraint


@pytest.mark.parametrize(
    ("make", "other"),
    [
        (lambda: Move("flag", 2, 3, 1.0), Move("flag", 2, 4, 1.0)),
        (lambda: Constraint(5, (4, 6), 1), Constraint(5, (4, 6), 2)),
    ],
)
def test_records_compare_hash_and_pickle_by_value(make, other):
    a, b = make(), make()
    assert a is not b and a == b and hash(a) == hash(b) and len({a, b, other}) == 2
    assert a != other and a != tuple(a._values())  # a record never equals a plain tuple of its fields
    assert pickle.loads(pickle.dumps(a)) == a
    with pytest.raises(AttributeError):
        a.extra = 1  # no attributes beyond the fields (no per-object dict)


def test_records_print_their_fields_in_order():
    assert repr(Move("reveal", 0, 1, 0.25)) == "Move(action='reveal', row=0, col=1, probability=0.25)"
    assert repr(Constraint(5, (4, 6), 1)) == "Constraint(cell=5, unknowns=(4, 6), mines=1)"
