"""Nearest-template classification of cell patches, with a confidence for each.

Each label keeps several templates (the same tile under a lighting gradient,
or at a few positions), and a cell takes the label of its nearest template.
Confidence is the margin to the nearest template of any *other* label, so a
cell that sits between two labels is reported, never silently guessed.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True, eq=False)
class Classification:
    """Per-cell results, flat in row-major order."""

    labels: np.ndarray  # (N,) '<U1'
    distance: np.ndarray  # (N,) RMS colour difference to the best template, 0..1
    confidence: np.ndarray  # (N,) 0..1
    readable: np.ndarray  # (N,) bool


def squared_distances(vectors: np.ndarray, templates: np.ndarray) -> np.ndarray:
    """Mean squared difference between every vector and every template (N x M), via one matrix product."""
    dim = vectors.shape[1]
    # cv2.gemm rather than numpy's matmul: OpenBLAS threads spin badly on a busy 2-core machine.
    cross = cv2.gemm(vectors, templates, 1.0, None, 0.0, flags=cv2.GEMM_2_T)  # type: ignore[call-overload]
    d2 = (
        np.einsum("ij,ij->i", vectors, vectors)[:, None]
        + np.einsum("ij,ij->i", templates, templates)[None, :]
        - 2.0 * cross
    )
    return np.asarray(np.maximum(d2, 0.0) / dim)


def label_gaps(vectors: np.ndarray, labels: np.ndarray) -> dict[str, float]:
    """For each label, the distance (RMS) from its vectors to the nearest vector of another label.

    How close two different tiles of one game come: the scale below which a match says "this tile" and
    not "some tile near it".  A label alone has no entry.

    >>> import numpy as np
    >>> gaps = label_gaps(np.array([[0.0, 0.0], [0.1, 0.1], [0.4, 0.4]], np.float32), np.array(["1", "2", "3"]))
    >>> {k: round(v, 2) for k, v in gaps.items()}
    {'1': 0.1, '2': 0.1, '3': 0.3}
    """
    gaps = {}
    for label in sorted(set(labels.tolist())):
        own = labels == label
        if not own.all():
            gaps[str(label)] = float(np.sqrt(squared_distances(vectors[own], vectors[~own]).min()))
    return gaps


def per_label_best(d2: np.ndarray, template_labels: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct labels and, for every vector, its smallest squared distance to each label (N x L).

    The templates are put in label order once, so every label's minimum is one reduction over its run of columns.

    >>> import numpy as np
    >>> names, best = per_label_best(np.array([[4.0, 1.0, 9.0], [2.0, 8.0, 3.0]]), np.array(["b", "a", "b"]))
    >>> names.tolist(), best.tolist()
    (['a', 'b'], [[1.0, 4.0], [8.0, 2.0]])
    """
    names, inverse = np.unique(template_labels, return_inverse=True)
    if d2.shape[0] == 0 or len(names) == 0:
        return names, np.full((d2.shape[0], len(names)), np.inf, dtype=d2.dtype)
    order = np.argsort(inverse, kind="stable")
    starts = np.searchsorted(inverse[order], np.arange(len(names)))
    return names, np.minimum.reduceat(d2[:, order], starts, axis=1)


def pixel_distances(pixels: np.ndarray, template_pixels: np.ndarray) -> np.ndarray:
    """:func:`squared_distances` of 8-bit rows (N x D) from 8-bit template rows (M x D), computed exactly.

    Every product and sum of 8-bit values is a whole number that a double holds exactly (at most 255² · D, far
    below 2⁵³), so in whatever order the product's blocks are summed nothing is rounded until the one division at
    the end: a row's distances are the same whichever rows it is computed with.  A float32 product of the 0..1
    vectors is not (its sums round in the order the blocks are taken), and a cell re-read alone must read exactly
    as it did with the whole board (:mod:`autoplay.vision.cell_memory`).  numpy's product, on the one thread
    ``autoplay`` gives OpenBLAS: OpenCV's is several times slower for a few rows against many templates.

    >>> import numpy as np
    >>> d2 = pixel_distances(np.array([[0, 255], [255, 255]], np.uint8), np.array([[0, 0]], np.uint8))
    >>> d2.ravel().tolist()
    [0.5, 1.0]
    """
    a = pixels.astype(np.float64)
    b = template_pixels.astype(np.float64)
    d2 = np.einsum("ij,ij->i", a, a)[:, None] + np.einsum("ij,ij->i", b, b)[None, :] - 2.0 * (a @ b.T)
    return np.asarray(d2 / (a.shape[1] * 255.0**2))


def classify(
    vectors: np.ndarray,
    templates: np.ndarray,
    template_labels: np.ndarray,
    max_distance: float,
    min_confidence: float,
    label_max_distance: dict[str, float] | None = None,
) -> Classification:
    """Label each vector by its nearest template; unreadable when too far or too close to another label.

    ``label_max_distance`` gives some labels their own distance limit instead of ``max_distance``.
    """
    d2 = squared_distances(vectors, templates)
    return classify_distances(d2, template_labels, max_distance, min_confidence, label_max_distance)


def classify_distances(
    d2: np.ndarray,
    template_labels: np.ndarray,
    max_distance: float,
    min_confidence: float,
    label_max_distance: dict[str, float] | None = None,
) -> Classification:
    """:func:`classify` from the squared distances (N x M) of every vector to every template, row by row."""
    names, best = per_label_best(d2, template_labels)
    limits = np.array([(label_max_distance or {}).get(str(n), max_distance) for n in names])
    order = np.argsort(best, axis=1)
    rows = np.arange(len(d2))
    d1 = np.sqrt(best[rows, order[:, 0]])
    if len(names) > 1:
        d2nd = np.sqrt(best[rows, order[:, 1]])
        confidence = np.clip(1.0 - d1 / np.maximum(d2nd, 1e-9), 0.0, 1.0)
    else:
        confidence = np.clip(1.0 - d1 / max(float(limits[0]), 1e-9), 0.0, 1.0)
    confidence = np.where(d1 > limits[order[:, 0]], 0.0, confidence)
    readable = confidence >= min_confidence
    return Classification(names[order[:, 0]], d1, confidence, readable)
