"""Where the board's cells are on a screenshot.

Edges are stored as arrays rather than origin + pitch because real skins do not
draw a perfectly regular lattice: gnome-mines' rows alternate by a pixel and a
scaled screenshot rounds every edge differently.  Everything downstream (cell
slicing, click targets, debug drawings) reads the edges, never a pitch.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True, eq=False)
class Grid:
    """``xs`` holds cols+1 x pixel edges and ``ys`` rows+1 y edges, both increasing."""

    xs: np.ndarray
    ys: np.ndarray

    def __post_init__(self) -> None:
        xs = np.asarray(self.xs, dtype=np.float64)
        ys = np.asarray(self.ys, dtype=np.float64)
        if xs.ndim != 1 or ys.ndim != 1 or len(xs) < 2 or len(ys) < 2:
            raise ValueError("a grid needs at least two x edges and two y edges")
        if np.any(np.diff(xs) <= 0) or np.any(np.diff(ys) <= 0):
            raise ValueError("grid edges must be strictly increasing")
        object.__setattr__(self, "xs", xs)
        object.__setattr__(self, "ys", ys)

    @property
    def rows(self) -> int:
        return len(self.ys) - 1

    @property
    def cols(self) -> int:
        return len(self.xs) - 1

    @property
    def rect(self) -> tuple[int, int, int, int]:
        """Bounding box ``(x0, y0, x1, y1)`` in whole pixels, x1/y1 exclusive."""
        return (int(round(self.xs[0])), int(round(self.ys[0])), int(round(self.xs[-1])), int(round(self.ys[-1])))

    @property
    def subpixel(self) -> bool:
        """Whether some edge lies between pixels (a board drawn at a fractional pitch, see ``locate``)."""
        return not (np.array_equal(self.xs, np.round(self.xs)) and np.array_equal(self.ys, np.round(self.ys)))

    @property
    def pitch(self) -> tuple[float, float]:
        """Mean cell width and height; a summary for humans, not for slicing."""
        return float(np.mean(np.diff(self.xs))), float(np.mean(np.diff(self.ys)))

    def cell_rect(self, row: int, col: int) -> tuple[int, int, int, int]:
        self._check(row, col)
        return (
            int(round(self.xs[col])),
            int(round(self.ys[row])),
            int(round(self.xs[col + 1])),
            int(round(self.ys[row + 1])),
        )

    def cell_center(self, row: int, col: int) -> tuple[float, float]:
        self._check(row, col)
        return (float(self.xs[col] + self.xs[col + 1]) / 2, float(self.ys[row] + self.ys[row + 1]) / 2)

    def shifted(self, dx: float, dy: float) -> Grid:
        """The same grid in another coordinate frame (e.g. from a window crop to the screen)."""
        return Grid(self.xs + dx, self.ys + dy)

    def to_dict(self) -> dict[str, Any]:
        return {
            "rows": self.rows,
            "cols": self.cols,
            "xs": [round(float(v), 2) for v in self.xs],
            "ys": [round(float(v), 2) for v in self.ys],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Grid:
        grid = cls(np.array(data["xs"], dtype=np.float64), np.array(data["ys"], dtype=np.float64))
        if ("rows" in data and data["rows"] != grid.rows) or ("cols" in data and data["cols"] != grid.cols):
            raise ValueError("grid rows/cols do not match its edge arrays")
        return grid

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Grid) and np.array_equal(self.xs, other.xs) and np.array_equal(self.ys, other.ys)

    def __repr__(self) -> str:
        px, py = self.pitch
        return f"Grid(rows={self.rows}, cols={self.cols}, rect={self.rect}, pitch=({px:.1f}, {py:.1f}))"

    def _check(self, row: int, col: int) -> None:
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            raise IndexError(f"cell ({row},{col}) is outside a {self.rows}x{self.cols} grid")
