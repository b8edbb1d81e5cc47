"""Reading tiles a game draws see-through over a picture, so each place shades them a little differently.

kmines draws its opened tiles translucent over a background picture: the same
1 is lighter at one place of the board than at another, by 10–16 grey levels.
A skin learnt from one game holds the 1s of the places that game opened, and an
exact match limit (learnt from tiles that differ by less) refuses the others,
which the player must then play as covered.  What the picture adds under a
tile is, within one tile, close to an even shift of its colour, so those cells
are compared a second way: each patch and each template less its own mean
colour.  The shape of the tile (a digit's strokes, a flag, a bevel) is then
compared and the shift is not, up to ``MAX_SHIFT``.

The rule that keeps this from misreading is the one the other-size look uses
(:mod:`autoplay.vision.rescaled`), relative to the skin itself: a cell is taken
as label L only when it is much nearer to L (shape against shape) than L's
templates are to any other label's (``SHARE`` of that separation), and much
nearer to L than to any other label.  A tile the skin has never seen (a 5 when
only 1–4 were seen) has another shape, so it stays unreadable; two tiles that
differ only in their colour (a covered and an opened tile of a flat skin) have
no separation left without their colour, so neither is read this way.

>>> import numpy as np
>>> flat = np.zeros((1, 12 * 12 * 3), np.float32) + 0.5
>>> bool(np.allclose(without_mean(flat, 12), 0))
True
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

import numpy as np

from autoplay.vision.classify import Classification, per_label_best, squared_distances
from autoplay.vision.features import cell_patches, crop_patch, patch_vectors
from autoplay.vision.grid import Grid
from autoplay.vision.skin import UNNAMED_MARK, Skin

#: A match must be this share of its label's shape separation from the other labels, or nearer (and this share of
#: the distance to the next label).
SHARE = 0.35
#: The largest even colour shift (0..1, per channel) a place of the board may add: kmines' picture adds up to ~0.06.
MAX_SHIFT = 0.1


@dataclass(frozen=True)
class _Bank:
    """The skin's named templates less their mean colour, their labels, means and shape separations."""

    vectors: np.ndarray  # (M, D) float32, each template less its per-channel mean
    means: np.ndarray  # (M, 3) the per-channel means taken out
    labels: np.ndarray  # (M,) '<U1'
    separation: np.ndarray  # (M,) shape distance from each template to the nearest template of another label


_BANKS: weakref.WeakKeyDictionary[Skin, _Bank] = weakref.WeakKeyDictionary()


def channel_means(vectors: np.ndarray, size: int) -> np.ndarray:
    """(N, 3) mean colour of each flattened ``size`` x ``size`` x 3 patch."""
    return np.asarray(vectors.reshape(len(vectors), size * size, 3).mean(axis=1))


def without_mean(vectors: np.ndarray, size: int) -> np.ndarray:
    """Flattened patches less their own per-channel mean colour: the tile's shape, not its shade."""
    pixels = vectors.reshape(len(vectors), size * size, 3)
    return np.asarray((pixels - pixels.mean(axis=1, keepdims=True)).reshape(len(vectors), -1), dtype=np.float32)


def _bank(skin: Skin) -> _Bank:
    cached = _BANKS.get(skin)
    if cached is None:
        named = [(label, img) for label, img in skin.labelled_templates()]
        raw = patch_vectors(np.stack([crop_patch(img, skin.patch_size, skin.inset) for _, img in named]))
        labels = np.array([label for label, _ in named], dtype="<U1")
        shapes = without_mean(raw, skin.patch_size)
        between = np.sqrt(squared_distances(shapes, shapes))
        other = labels[:, None] != labels[None, :]
        separation = np.where(other, between, np.inf).min(axis=1)
        cached = _Bank(shapes, channel_means(raw, skin.patch_size), labels, separation)
        _BANKS[skin] = cached
    return cached


def classify_shaded(image: np.ndarray, grid: Grid, skin: Skin, cells: np.ndarray) -> Classification:
    """Classify the flat cell indices ``cells`` of ``grid`` by shape, forgiving an even shade (unreadable if unsure)."""
    bank = _bank(skin)
    size = skin.patch_size
    raw = patch_vectors(cell_patches(image, grid, size, skin.inset))[cells]
    d2 = squared_distances(without_mean(raw, size), bank.vectors)  # (N, M)
    n = len(cells)
    rows = np.arange(n)
    nearest = np.argmin(d2, axis=1)
    label = bank.labels[nearest]
    d1 = np.sqrt(d2[rows, nearest])
    names, best = per_label_best(d2, bank.labels)
    others = np.where(names[None, :] == label[:, None], np.inf, best)
    d_other = np.sqrt(others.min(axis=1)) if len(names) > 1 else np.full(n, np.inf)
    ratio = np.maximum(d1 / np.maximum(bank.separation[nearest], 1e-9), d1 / np.maximum(d_other, 1e-9))
    shift = np.abs(channel_means(raw, size) - bank.means[nearest]).max(axis=1)
    readable = (ratio <= SHARE) & (shift <= MAX_SHIFT) & (label != UNNAMED_MARK)
    confidence = np.clip(1.0 - d1 / np.maximum(d_other, 1e-9), 0.0, 1.0)
    return Classification(label, d1, np.where(readable, confidence, 0.0), readable)
