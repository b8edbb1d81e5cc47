"""Grouping the cells of unlabelled screenshots into distinct tiles."""

from __future__ import annotations

import numpy as np

from autoplay.vision.classify import squared_distances

#: Cells within this RMS colour difference (0..1) of a cluster's first member join it.
CLUSTER_RADIUS = 0.05


def leader_clusters(vectors: np.ndarray, radius: float = CLUSTER_RADIUS) -> tuple[np.ndarray, np.ndarray]:
    """Cluster index per vector and the index of each cluster's leader (its first member).

    Leader clustering needs no cluster count and costs one pass; tiles of a
    skin are either nearly identical or clearly different, so a fixed radius
    separates them, and a lighting gradient merely splits one tile into a few
    clusters that get the same label.
    """
    assignment = np.empty(len(vectors), dtype=int)
    leaders: list[int] = []
    limit = radius * radius
    for start in range(0, len(vectors), 256):
        block = vectors[start : start + 256]
        for offset, vector in enumerate(block):
            i = start + offset
            if leaders:
                d2 = squared_distances(vector[None, :], vectors[leaders])[0]
                best = int(np.argmin(d2))
                if d2[best] <= limit:
                    assignment[i] = best
                    continue
            assignment[i] = len(leaders)
            leaders.append(i)
    return assignment, np.array(leaders, dtype=int)


def medoids(vectors: np.ndarray, assignment: np.ndarray) -> np.ndarray:
    """Index of the most central member of every cluster: the best single template for it."""
    result = np.empty(assignment.max() + 1, dtype=int)
    for k in range(len(result)):
        members = np.flatnonzero(assignment == k)
        if len(members) > 400:
            members = members[:: len(members) // 400 + 1]
        d2 = squared_distances(vectors[members], vectors[members])
        result[k] = members[int(np.argmin(d2.sum(axis=1)))]
    return result
