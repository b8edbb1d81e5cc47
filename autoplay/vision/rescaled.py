"""Reading tiles drawn at another size than the skin's templates (a resized window, a HiDPI screen).

Cells and templates are both resampled to the same small patch, so a tile at
28 px and its template cut at 20 px already meet at one size.  What does not
scale is the drawing itself: a game redraws its digits with a font of another
pixel size, its bevels a pixel wider or narrower, its flag with another pole,
so an exact skin (a match limit of 0.04 learnt from pixel-identical tiles)
refuses every digit at the new size.  Those cells are compared here a second
way that forgives such redrawing and nothing more: both patches are blurred by
a fraction of a sample (strokes a pixel wider or placed a pixel off then look
alike) and the grid is moved by up to a pixel.

The rule that keeps this from misreading is relative to the skin itself: a cell
is taken as label L only when it is much nearer to L's template than L's
templates are to any other label's (``SHARE`` of that separation), and much
nearer to L than to any other label (the confidence ``1 - d1/d2`` at least
``1 - SHARE``, above every skin's own ``min_confidence``).  A tile the skin has
never seen (a 4 when only 1–3 were calibrated) lies about as far from every
template as the labels lie from each other, so it stays unreadable, as at the
calibrated size.  Used only when some label has no template at the located pitch.

A cell this rule still refuses is looked at once more by its middle alone (``CENTRE_INSET`` of each side left
out, in cells and templates alike), under the same rule with separations measured between the templates'
middles.  A page at 125% draws a 2 px CSS border 2 or 3 px wide and a 3 px bevel 3 or 4 px, depending on where
the tile falls, so the edge of the cell no longer scales with the rest; the middle (the covered tile's fill, a
digit) does.  Labels whose middles look alike (a classic skin's covered tile and its opened 0 are the same grey
inside) are close to each other there, so their separation is small and the middle reads neither; and a middle
is taken only for the label the whole cell was nearest to.  A tile the skin has never seen whose middle is a
known tile's does read as that tile: an exploded mine drawn as the mine on red, in a skin that has not seen it
explode, reads as a mine (12 of 78 such cases in ``benchmarks/last_guess_reads.py`` over 80 skins of the web
page), which is a mine either way.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

import cv2
import numpy as np

from autoplay.vision.classify import Classification, per_label_best, squared_distances
from autoplay.vision.features import cell_patches, crop_patch
from autoplay.vision.grid import Grid
from autoplay.vision.skin import Skin

#: A pitch this share away from every template's size counts as another tile size.
SCALE_TOLERANCE = 0.1
#: Blur of both patches, in patch samples: forgives a stroke redrawn about a pixel wider or off.
BLUR_SAMPLES = 0.7
#: A match must be this share of its label's separation from the other labels, or nearer (and this share of the
#: distance to the next label): a never-seen tile sits near 1.0, every redrawn tile measured at 0.26 at most.
SHARE = 0.4
#: Grid moves tried (px): the located grid is good to a pixel, and a pixel is a fifth of a sample at 28 px tiles.
MOVES = tuple((dx, dy) for dy in (0, -1, 1) for dx in (0, -1, 1))
#: Share of each side of a cell left out when the middle alone is compared: past a CSS border and a gap a device
#: pixel wider or narrower (5 px of a 26 px tile at 125%), short of a digit's strokes.
CENTRE_INSET = 0.25


@dataclass(frozen=True)
class _Bank:
    """The skin's templates as blurred vectors, their labels, and each label's separation from the others."""

    vectors: np.ndarray  # (M, D) float32
    labels: np.ndarray  # (M,) '<U1'
    names: np.ndarray  # (L,) the distinct labels, in per_label_best's order
    separation: np.ndarray  # (L,) RMS distance from the label's templates to the nearest other label's template
    sizes: tuple[float, ...]  # each template's mean side in pixels


_BANKS: weakref.WeakKeyDictionary[Skin, dict[float, _Bank]] = weakref.WeakKeyDictionary()


def _blurred(patches: np.ndarray, size: int) -> np.ndarray:
    """Rows of float32 0..1 vectors of (N, size, size, 3) uint8 patches, each blurred by ``BLUR_SAMPLES``."""
    flat = patches.reshape(-1, size, size, 3).astype(np.float32) * np.float32(1 / 255)
    out = np.empty_like(flat)
    for i, patch in enumerate(flat):
        out[i] = cv2.GaussianBlur(patch, (0, 0), BLUR_SAMPLES, borderType=cv2.BORDER_REPLICATE)
    return out.reshape(len(flat), -1)


def blurred_bank(skin: Skin, inset: float | None = None) -> _Bank:
    """The skin's templates cut with ``inset`` (the skin's own by default) and blurred by ``BLUR_SAMPLES``, with
    each label's separation (cached per skin and inset)."""
    inset = skin.inset if inset is None else inset
    banks = _BANKS.setdefault(skin, {})
    cached = banks.get(inset)
    if cached is None:
        labels, patches, sizes = [], [], []
        for label, img in skin.labelled_templates():
            labels.append(label)
            patches.append(crop_patch(img, skin.patch_size, inset))
            sizes.append((img.shape[0] + img.shape[1]) / 2)
        vectors = _blurred(np.stack(patches), skin.patch_size)
        label_arr = np.array(labels, dtype="<U1")
        names, inverse = np.unique(label_arr, return_inverse=True)
        between = np.sqrt(squared_distances(vectors, vectors))
        separation = np.array(
            [
                between[inverse == k][:, inverse != k].min() if (inverse != k).any() else np.inf
                for k in range(len(names))
            ]
        )
        cached = _Bank(vectors, label_arr, names, separation, tuple(sizes))
        banks[inset] = cached
    return cached


def off_scale(grid: Grid, skin: Skin) -> bool:
    """Whether the grid's cells are drawn at a size some label has no template cut at.

    Per label, not for the skin as a whole: ``play --learn`` adds tiles at the new size one by one (xbomb's 1 and
    2 at 32 px after the first game of a 20 px skin), and the labels not learnt yet still need this second look
    (without it the whole next board, covered tiles included, matched nothing).
    """
    pitch = float(np.mean(grid.pitch))
    bank = blurred_bank(skin)
    at_size = {label for label, size in zip(bank.labels, bank.sizes) if abs(pitch - size) <= SCALE_TOLERANCE * size}
    return bool(set(bank.names.tolist()) - at_size)


def label_distances(image: np.ndarray, grid: Grid, skin: Skin, cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct labels and, per flat cell index in ``cells``, its RMS distance to each label's nearest blurred
    template, the nearest over the grid moved by up to a pixel (``MOVES``): (L,), (len(cells), L)."""
    bank = blurred_bank(skin)
    height, width = image.shape[:2]
    nearest = np.full((len(cells), len(bank.names)), np.inf)
    for dx, dy in MOVES:
        moved = grid.shifted(dx, dy)
        x0, y0, x1, y1 = moved.rect
        if x0 < 0 or y0 < 0 or x1 > width or y1 > height:
            continue
        size = skin.patch_size
        patches = cell_patches(image, moved, size, skin.inset).reshape(-1, size, size, 3)
        _, best = per_label_best(squared_distances(_blurred(patches[cells], size), bank.vectors), bank.labels)
        nearest = np.minimum(nearest, best)
    return bank.names, np.sqrt(nearest)


def classify_rescaled(image: np.ndarray, grid: Grid, skin: Skin, cells: np.ndarray) -> Classification:
    """Classify the flat cell indices ``cells`` of ``grid`` by the size-forgiving rule above (unreadable if unsure):
    whole cells first, then the middles of those still unread."""
    whole = _classify_cut(image, grid, skin, cells, skin.inset)
    todo = np.flatnonzero(~whole.readable)
    if not len(todo) or skin.inset >= CENTRE_INSET:
        return whole
    middle = _classify_cut(image, grid, skin, cells[todo], CENTRE_INSET)
    labels, distance = whole.labels.copy(), whole.distance.copy()
    confidence, readable = whole.confidence.copy(), whole.readable.copy()
    agree = middle.readable & (middle.labels == whole.labels[todo])
    took = todo[agree]
    labels[took] = middle.labels[agree]
    distance[took] = middle.distance[agree]
    confidence[took] = middle.confidence[agree]
    readable[took] = True
    return Classification(labels, distance, confidence, readable)


def _classify_cut(image: np.ndarray, grid: Grid, skin: Skin, cells: np.ndarray, inset: float) -> Classification:
    """The rule above for the flat cell indices ``cells``, cells and templates both cut with ``inset``."""
    bank = blurred_bank(skin, inset)
    # A glyph drawn at a fixed pixel size covers 1/f of the side of a tile f times larger, so at the larger size
    # every difference between labels can shrink by f: each template's separation is divided by it.
    growth = np.maximum(1.0, float(np.mean(grid.pitch)) / np.array(bank.sizes))
    names, inverse = np.unique(bank.labels, return_inverse=True)
    reach = bank.separation[inverse] / growth  # (M,) how far from each template a cell may be
    height, width = image.shape[:2]
    n = len(cells)
    ratio = np.full(n, np.inf)
    labels = np.full(n, "?", dtype="<U1")
    d_best = np.ones(n)
    confidence = np.zeros(n)
    rows = np.arange(n)
    for dx, dy in MOVES:
        moved = grid.shifted(dx, dy)
        x0, y0, x1, y1 = moved.rect
        if x0 < 0 or y0 < 0 or x1 > width or y1 > height:
            continue
        patches = cell_patches(image, moved, skin.patch_size, inset).reshape(-1, skin.patch_size, skin.patch_size, 3)
        d2_all = squared_distances(_blurred(patches[cells], skin.patch_size), bank.vectors)
        _, best = per_label_best(d2_all, bank.labels)
        _, within = per_label_best(d2_all / reach[None, :] ** 2, bank.labels)  # (distance / reach)^2 per label
        order = np.argsort(best, axis=1)
        d1 = np.sqrt(best[rows, order[:, 0]])
        d2 = np.sqrt(best[rows, order[:, 1]]) if len(names) > 1 else np.full(n, np.inf)
        here = np.maximum(np.sqrt(within[rows, order[:, 0]]), d1 / np.maximum(d2, 1e-9))
        better = here < ratio
        ratio[better] = here[better]
        labels[better] = names[order[better, 0]]
        d_best[better] = d1[better]
        confidence[better] = np.clip(1.0 - d1[better] / np.maximum(d2[better], 1e-9), 0.0, 1.0)
    readable = ratio <= SHARE
    return Classification(labels, d_best, np.where(readable, confidence, 0.0), readable)
