"""Small value records that compiled code builds cheaply: compared, hashed, printed and pickled by their fields.

The solver makes a record for every number each time a neighbour opens (:class:`~autoplay.solver.position.Constraint`)
and one for every certain move (:class:`~autoplay.solver.decide.Move`), hundreds per simulated game.  A frozen
dataclass would do the same job, but its generated ``__init__`` stays interpreted Python even where mypyc compiles
the solver (each field set through ``object.__setattr__``): about 0.5 µs a record against 0.03 µs for a plain class
whose ``__init__`` the compiler keeps native.  A subclass sets its fields in ``__init__``, lists their names in
``_fields`` (the order of ``__repr__``) and returns their values from ``_values`` in the same order.

``Constraint`` is one (a subclass written in a doctest would be interpreted, and interpreted classes cannot
inherit from the compiled base):

>>> from autoplay.solver.position import Constraint
>>> Constraint(0, (1, 2), 1)
Constraint(cell=0, unknowns=(1, 2), mines=1)
>>> Constraint(0, (1, 2), 1) == Constraint(0, (1, 2), 1), len({Constraint(0, (1, 2), 1), Constraint(0, (1, 2), 1)})
(True, 1)
"""

from __future__ import annotations

from typing import ClassVar


class Record:
    """Base of the solver's value records; see the module's docstring."""

    __slots__ = ()
    _fields: ClassVar[tuple[str, ...]] = ()

    def _values(self) -> tuple[object, ...]:
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self) or not isinstance(other, Record):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __reduce__(self) -> tuple[type[Record], tuple[object, ...]]:
        return (type(self), self._values())

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in zip(self._fields, self._values()))
        return f"{type(self).__name__}({shown})"
