"""Second looks at the cells that match no template where the grid says they are.

Three reasons make a known tile unlike its template: the grid is a pixel or two
off (a frame whose board moved, a skin whose pitch wobbles), the tile is drawn
at another size than the templates (see :mod:`autoplay.vision.rescaled`), or
it is drawn see-through over a picture (see :mod:`autoplay.vision.shading`).  Each
unreadable cell is looked at again for both; a cell that is still unlike every
template stays unreadable.

In live play such a cell is mostly a tile the skin has never seen, and it is
still there, pixel for pixel, at the next decision and the one after.  Its
second look is therefore remembered by a digest of the cell's own pixels (with a
margin the shifted samples reach into), its place on the grid and the grid: a cell whose
pixels, grid and skin are unchanged gets the answer it got before without the
24 shifted resamples of the whole board, and reads exactly as if looked at again.
"""

from __future__ import annotations

import hashlib
import weakref
from collections import OrderedDict

import numpy as np

from autoplay.vision.classify import Classification, classify
from autoplay.vision.features import cell_patches, patch_vectors, shrink_factor
from autoplay.vision.grid import Grid
from autoplay.vision.rescaled import classify_rescaled, off_scale
from autoplay.vision.shading import classify_shaded
from autoplay.vision.skin import Skin

#: Whole-pixel moves of the grid tried, nearest first, for cells that match no template where they are.
SHIFTS = tuple(
    (dx, dy)
    for reach in (1, 2)
    for dy in range(-reach, reach + 1)
    for dx in range(-reach, reach + 1)
    if max(abs(dx), abs(dy)) == reach
)
#: Second looks remembered per skin (a few frames' worth of unknown cells on the largest boards).
CACHE_SIZE = 4096

#: One remembered outcome: label, distance, confidence, readable.
Outcome = tuple[str, float, float, bool]
_CACHES: weakref.WeakKeyDictionary[Skin, OrderedDict[tuple[object, ...], Outcome]] = weakref.WeakKeyDictionary()


def retry_unreadable(image: np.ndarray, grid: Grid, skin: Skin, result: Classification) -> Classification:
    """``result`` with its unreadable cells looked at again: shifted by up to 2 px, then at another size."""
    bad = np.flatnonzero(~result.readable)
    cache = _CACHES.setdefault(skin, OrderedDict())
    context = (grid.xs.tobytes(), grid.ys.tobytes(), image.shape)
    margin = 3 + 3 * shrink_factor(grid, skin.patch_size, skin.inset)
    keys = [(*context, int(i), pixels) for i, pixels in zip(bad, _pixels(image, grid, bad, margin), strict=True)]
    unseen = [k for k, key in enumerate(keys) if key not in cache]
    if unseen:
        cells = bad[unseen]
        start = Classification(
            result.labels[cells], result.distance[cells], result.confidence[cells], result.readable[cells]
        )
        looked = _look_again(image, grid, skin, cells, start)
        for j, k in enumerate(unseen):
            cache[keys[k]] = (
                str(looked.labels[j]),
                float(looked.distance[j]),
                float(looked.confidence[j]),
                bool(looked.readable[j]),
            )
    labels, distance = result.labels.copy(), result.distance.copy()
    confidence, readable = result.confidence.copy(), result.readable.copy()
    for key, i in zip(keys, bad, strict=True):
        cache.move_to_end(key)
        labels[i], distance[i], confidence[i], readable[i] = cache[key]
    while len(cache) > CACHE_SIZE:
        cache.popitem(last=False)
    return Classification(labels, distance, confidence, readable)


def _pixels(image: np.ndarray, grid: Grid, cells: np.ndarray, margin: int) -> list[bytes]:
    """A digest of the pixels a second look at each flat cell index can read: its rectangle widened by ``margin``.

    A 128-bit BLAKE2 digest stands for the pixels (a 77 px tile with its margin is 27 KB; thousands are kept).
    """
    height, width = image.shape[:2]
    xs = np.clip(np.round(grid.xs).astype(int) + [[-margin], [margin]], 0, width)
    ys = np.clip(np.round(grid.ys).astype(int) + [[-margin], [margin]], 0, height)
    rows, cols = np.divmod(cells, grid.cols)
    return [
        hashlib.blake2b(image[ys[0, r] : ys[1, r + 1], xs[0, c] : xs[1, c + 1]].tobytes(), digest_size=16).digest()
        for r, c in zip(rows.tolist(), cols.tolist(), strict=True)
    ]


def _look_again(image: np.ndarray, grid: Grid, skin: Skin, cells: np.ndarray, start: Classification) -> Classification:
    """The shifted search for the flat cell indices ``cells`` (first read as ``start``), then the other-size rule.

    A cell no second look reads keeps its first reading (its best guess, marked unreadable).
    """
    labels, distance = start.labels.copy(), start.distance.copy()
    confidence, readable = start.confidence.copy(), start.readable.copy()
    templates, template_labels = skin.template_matrix()
    height, width = image.shape[:2]
    for dx, dy in SHIFTS:
        todo = np.flatnonzero(~readable)
        if not len(todo):
            break
        moved = grid.shifted(dx, dy)
        x0, y0, x1, y1 = moved.rect
        if x0 < 0 or y0 < 0 or x1 > width or y1 > height:
            continue
        vectors = patch_vectors(cell_patches(image, moved, skin.patch_size, skin.inset))[cells[todo]]
        again = classify(
            vectors, templates, template_labels, skin.max_distance, skin.min_confidence, skin.match_limits()
        )
        _take_readable((labels, distance, confidence, readable), todo, again)
    todo = np.flatnonzero(~readable)
    # On a sub-pixel grid (a page at 125%) a tile looks a little otherwise at each fraction of a pixel it falls on,
    # as a tile redrawn at another size does: the same forgiving rule reads it (benchmarks/last_guess_reads.py: of
    # the numbers and exploded mines of 23 skins made at 125% and 150%, each drawn half a pixel off, it read 543 of
    # the 574 the exact rule could not, and none wrong).
    if len(todo) and (off_scale(grid, skin) or grid.subpixel):
        _take_readable(
            (labels, distance, confidence, readable), todo, classify_rescaled(image, grid, skin, cells[todo])
        )
    todo = np.flatnonzero(~readable)
    if len(todo):
        _take_readable((labels, distance, confidence, readable), todo, classify_shaded(image, grid, skin, cells[todo]))
    return Classification(labels, distance, confidence, readable)


def _take_readable(
    into: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray], rows: np.ndarray, looked: Classification
) -> None:
    """Copy the readable answers of ``looked`` (one per index in ``rows``) into the arrays ``into``, in place."""
    labels, distance, confidence, readable = into
    fixed = rows[looked.readable]
    labels[fixed] = looked.labels[looked.readable]
    distance[fixed] = looked.distance[looked.readable]
    confidence[fixed] = looked.confidence[looked.readable]
    readable[fixed] = True
