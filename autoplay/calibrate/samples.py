"""Cut every cell of a screenshot into a sample: the raw crop (saved as a template) and its patch vector."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from autoplay.vision.features import DEFAULT_INSET, DEFAULT_SIZE, cell_image, crop_patch, patch_vectors
from autoplay.vision.grid import Grid


@dataclass(frozen=True, eq=False)
class Samples:
    """Cells of one or more screenshots, flat: ``crops[i]`` is the image of cell ``cells[i]`` of ``sources[i]``."""

    crops: list[np.ndarray]
    vectors: np.ndarray  # (N, D) float32, as the decoder sees them
    cells: list[tuple[int, int]]
    sources: list[int]

    def __len__(self) -> int:
        return len(self.crops)

    @staticmethod
    def concat(parts: list[Samples]) -> Samples:
        return Samples(
            [c for p in parts for c in p.crops],
            np.concatenate([p.vectors for p in parts]),
            [rc for p in parts for rc in p.cells],
            [s for p in parts for s in p.sources],
        )


def cut_cells(
    image: np.ndarray, grid: Grid, source: int = 0, size: int = DEFAULT_SIZE, inset: float = DEFAULT_INSET
) -> Samples:
    """One sample per cell, row-major; vectors come from the crops exactly as templates' will."""
    crops, vectors, cells = [], [], []
    for r in range(grid.rows):
        for c in range(grid.cols):
            crop = cell_image(image, grid, r, c)
            crops.append(crop)
            vectors.append(patch_vectors(crop_patch(crop, size, inset))[0])
            cells.append((r, c))
    return Samples(crops, np.stack(vectors), cells, [source] * len(crops))
