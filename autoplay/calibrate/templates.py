"""Choosing a few representative templates per label and deriving trust thresholds from their margins."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from autoplay.vision.classify import per_label_best, squared_distances

#: A sample closer than this (RMS, 0..1) to a chosen template needs no template of its own.
COVER_RADIUS = 0.035
MAX_PER_LABEL = 16


def farthest_point_selection(vectors: np.ndarray, cover: float = COVER_RADIUS, limit: int = MAX_PER_LABEL) -> list[int]:
    """Indices of templates that cover ``vectors``: start at the medoid, keep adding the worst-covered one.

    Several templates per label are what absorbs a lighting gradient across
    the board; the cover radius stops identical tiles from piling up.
    """
    d2 = squared_distances(vectors, vectors)
    chosen = [int(np.argmin(d2.sum(axis=1)))]
    nearest = d2[:, chosen[0]].copy()
    while len(chosen) < limit:
        worst = int(np.argmax(nearest))
        if np.sqrt(nearest[worst]) <= cover:
            break
        chosen.append(worst)
        nearest = np.minimum(nearest, d2[:, worst])
    return chosen


def select_templates(vectors: np.ndarray, labels: np.ndarray) -> list[int]:
    """Template indices (into ``vectors``) for every label present."""
    chosen: list[int] = []
    for label in np.unique(labels):
        members = np.flatnonzero(labels == label)
        chosen.extend(int(members[i]) for i in farthest_point_selection(vectors[members]))
    return chosen


def leave_one_out_spreads(vectors: np.ndarray, labels: np.ndarray, min_samples: int = 3) -> dict[str, float]:
    """Per label: how far a tile can be from every *other* example of its label (90th percentile).

    This is what a new screenshot's tile faces: its own pixels are not among
    the templates.  A label drawn the same everywhere scores ~0; one under a
    lighting gradient or drawn at several sizes scores high.  Labels with too
    few examples to say are left out.
    """
    spreads: dict[str, float] = {}
    for label in np.unique(labels):
        members = np.flatnonzero(labels == label)
        if len(members) < min_samples:
            continue
        if len(members) > 600:
            members = members[:: len(members) // 600 + 1]
        d2 = squared_distances(vectors[members], vectors[members])
        np.fill_diagonal(d2, np.inf)
        spreads[str(label)] = float(np.percentile(np.sqrt(d2.min(axis=1)), 90))
    return spreads


@dataclass(frozen=True)
class Margins:
    """How well the chosen templates separate the labelled cells, and the thresholds that follow."""

    worst_own_distance: float  # largest distance of a cell to its own label's nearest template
    closest_other_distance: float  # smallest distance of a cell to another label's template
    worst_confidence: float  # smallest 1 - own/other over all cells
    max_distance: float  # for labels without their own limit
    label_max_distance: dict[str, float]
    min_confidence: float
    misclassified: int


def _distance_limit(spread: float) -> float:
    return round(max(0.04, 2.0 * spread + 0.02), 4)


def derive_margins(vectors: np.ndarray, labels: np.ndarray, chosen: list[int]) -> Margins:
    """Thresholds placed inside the measured gap between classes.

    Each label's ``max_distance`` allows twice its leave-one-out spread (plus
    a small floor for capture noise): a tile of a kind calibration never saw
    (a 6 when the screenshots had none, a dialog over the board) then stays
    unreadable instead of passing as its nearest neighbour, while a label
    that varies across the board (a lighting gradient) gets the room it needs.
    Labels seen too rarely to measure get the median limit, which is also
    every label's minimum.  Telling two close
    labels apart is the job of ``min_confidence``, half the worst margin seen,
    so a genuine cell passes and a tile between two labels does not; it is capped at 0.25
    (the best label at most three quarters as far as the next) so that a label seen only a few
    times, near a similar one (a 5 next to a 3), is not held to the margin of its best examples.
    """
    names, best = per_label_best(squared_distances(vectors, vectors[chosen]), labels[chosen])
    own_col = np.searchsorted(names, labels)
    rows = np.arange(len(vectors))
    own = np.sqrt(best[rows, own_col])
    others = best.copy()
    others[rows, own_col] = np.inf
    other = np.sqrt(others.min(axis=1)) if len(names) > 1 else np.full(len(vectors), 1.0)
    confidence = 1.0 - own / np.maximum(other, 1e-9)
    worst_conf = float(confidence.min())
    spreads = leave_one_out_spreads(vectors, labels)
    per_label = {
        label: _distance_limit(max(spread, float(own[labels == label].max()))) for label, spread in spreads.items()
    }
    default = float(np.median(list(per_label.values()))) if per_label else _distance_limit(float(own.max()))
    # No label gets less room than the typical one: a pixel of misplacement costs every label alike.
    per_label = {label: max(limit, round(default, 4)) for label, limit in per_label.items()}
    min_confidence = float(np.clip(worst_conf / 2, 0.05, 0.25))
    return Margins(
        float(own.max()),
        float(other.min()),
        worst_conf,
        round(default, 4),
        per_label,
        round(min_confidence, 4),
        int(np.sum(own >= other)),
    )
