"""A growing catalogue of the distinct tiles seen during live calibration.

Cells are grouped as they arrive (leader clustering: a cell joins the nearest
cluster whose first member is within the radius, else starts a new one), so
every frame of a game can be turned into cluster numbers at once and the
rules of the game can be checked while it is still being played.  A few
members of each cluster are kept: their crops become the skin's templates and
their vectors the thresholds' evidence.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from autoplay.calibrate.cluster import CLUSTER_RADIUS
from autoplay.vision.classify import label_gaps, squared_distances

#: Members kept per cluster (crops and vectors) for templates and thresholds.
KEEP_MEMBERS = 60
#: Tightest radius a game's own fresh board may set (RMS, 0..1).
MIN_RADIUS = 0.01
#: How many times the fresh board's spread two cells of one tile may differ by.
SPREAD_FACTOR = 3.0


def fresh_radius(vectors: np.ndarray) -> float:
    """The clustering radius a game's fresh board (every cell the same covered tile) calls for.

    A fixed radius cannot serve every game: kmines draws its tiles over a picture, so one tile differs from
    cell to cell by 0.03 or more, while a game drawing faint one-pixel digits in one grey shows its 1 within
    0.04 of its empty opened tile, and a radius wide enough for the first merges the second's numbers into
    one tile.  The fresh board measures how much one tile varies in this game: the radius is a few times the
    spread of its cells (the 90th percentile, so a few odd cells do not widen it), between ``MIN_RADIUS`` and
    the general ``CLUSTER_RADIUS``.

    >>> import numpy as np
    >>> round(fresh_radius(np.zeros((480, 432), np.float32)), 6)  # a pixel-exact game
    0.01
    """
    median = np.median(vectors, axis=0)
    spread = np.sqrt(((vectors - median) ** 2).mean(axis=1))
    return float(np.clip(SPREAD_FACTOR * np.percentile(spread, 90), MIN_RADIUS, CLUSTER_RADIUS))


def twin_radius(vectors: np.ndarray) -> float:
    """The tightest radius a fresh board allows: a few times how far its cells lie from their nearest twin.

    A board drawn at a fractional pitch (a page at 125%: tiles snapped to 22 and 23 px, or drawn between pixels)
    shows its covered tile in a few exact looks, one per sub-pixel phase, or shaded by a gradient; their spread
    around the median (:func:`fresh_radius`) can then exceed the gap between two of the game's own faint digits.
    Every cell still has an exact twin elsewhere (a cell of the same phase or row), and this radius, measured to
    the twin, keeps each look and each digit apart.  Live calibration falls back to it when the wider radius
    made a tile that no single value explains (see ``calibrate_live``).

    >>> import numpy as np
    >>> phases = np.repeat(np.array([[0.0] * 4, [0.03] * 4], np.float32), 240, axis=0)  # two looks of one tile
    >>> round(fresh_radius(phases), 3), round(twin_radius(phases), 3)
    (0.045, 0.01)
    """
    return float(np.clip(SPREAD_FACTOR * np.percentile(nearest_other(vectors), 90), MIN_RADIUS, CLUSTER_RADIUS))


def nearest_other(vectors: np.ndarray) -> np.ndarray:
    """Per vector, the RMS distance to the nearest other one (infinite for a lone vector).

    >>> import numpy as np
    >>> nearest_other(np.array([[0.0], [0.0], [0.5]], np.float32)).round(3).tolist()
    [0.0, 0.0, 0.5]
    """
    d2 = squared_distances(vectors, vectors)
    np.fill_diagonal(d2, np.inf)
    return np.asarray(np.sqrt(d2.min(axis=1)))


#: Pictures per label compared by :func:`separation_radius` (distinct ones; enough to find the nearest pair).
SEPARATION_SAMPLE = 24


def separation_radius(vectors: np.ndarray, labels: list[str]) -> float:
    """The clustering radius for unknown tiles on a board whose other cells read as ``labels``.

    Unknown tiles are grouped so that one look stands for one value, and a group is named as a whole; a
    radius wider than the gap between two different tiles of this game would put, say, its 2s and its 3s in
    one group and name them all alike.  That gap is measured on the board itself: the nearest two cells
    read as different labels (the patch ``vectors`` of the read cells, in the order of ``labels``).  The
    radius is half of it, at most the general ``CLUSTER_RADIUS``; pixel-identical tiles (distance 0) stay
    together at any radius.

    >>> import numpy as np
    >>> vectors = np.array([[0.0, 0.0], [0.0, 0.0], [0.06, 0.06]], np.float32)
    >>> round(separation_radius(vectors, ["2", "2", "3"]), 3)
    0.03
    >>> separation_radius(vectors[:2], ["2", "2"]) == CLUSTER_RADIUS  # one label: nothing to measure
    True
    """
    names = np.array(labels, dtype="<U1")
    samples, sample_labels = [], []
    for label in sorted(set(labels)):  # distinct pictures only, a few per label: enough to find the nearest pair
        distinct = np.unique(np.round(vectors[names == label], 3), axis=0)[:SEPARATION_SAMPLE]
        samples.append(distinct.astype(np.float32))
        sample_labels += [label] * len(distinct)
    gaps = label_gaps(np.concatenate(samples), np.array(sample_labels, dtype="<U1")) if samples else {}
    nearest = min(gaps.values(), default=2.0 * CLUSTER_RADIUS)
    return float(np.clip(nearest / 2.0, MIN_RADIUS / 2.0, CLUSTER_RADIUS))


class TileBook:
    """Cluster id per cell patch, stable for the whole calibration session."""

    def __init__(self, radius: float = CLUSTER_RADIUS) -> None:
        self.radius = radius
        self.leaders: list[np.ndarray] = []
        self.members: list[list[np.ndarray]] = []
        self.crops: list[list[np.ndarray]] = []
        self.counts: list[int] = []

    def __len__(self) -> int:
        return len(self.leaders)

    def assign(self, vectors: np.ndarray, crop_of: Callable[[int], np.ndarray]) -> np.ndarray:
        """Cluster id of every vector (N x D), creating clusters for new tiles; ``crop_of(i)`` is cell i's image."""
        ids = np.full(len(vectors), -1, dtype=int)
        limit = self.radius * self.radius
        if self.leaders:  # one matrix product for the common case: every tile already known
            d2 = squared_distances(vectors, np.stack(self.leaders))
            nearest = np.argmin(d2, axis=1)
            known = d2[np.arange(len(vectors)), nearest] <= limit
            ids[known] = nearest[known]
        for i in np.flatnonzero(ids < 0):
            d2 = squared_distances(vectors[i][None, :], np.stack(self.leaders))[0] if self.leaders else np.zeros(0)
            if len(d2) and d2.min() <= limit:
                ids[i] = int(np.argmin(d2))
                continue
            ids[i] = len(self.leaders)
            self.leaders.append(vectors[i].copy())
            self.members.append([])
            self.crops.append([])
            self.counts.append(0)
        for k, cluster in enumerate(ids.tolist()):
            self.counts[cluster] += 1
            if len(self.members[cluster]) < KEEP_MEMBERS:
                self.members[cluster].append(vectors[k].copy())
                self.crops[cluster].append(crop_of(k))
        return ids

    def medoid(self, cluster: int) -> int:
        """Index (into the kept members) of the most central member of ``cluster``."""
        members = np.stack(self.members[cluster])
        return int(np.argmin(squared_distances(members, members).sum(axis=1)))
