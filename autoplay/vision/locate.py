"""Find the board on a whole screenshot without being told where it is.

Every Minesweeper skin draws its cells as a lattice of equal squares separated
by visible edges, and little else on a desktop does that at scale.  So: take
the regions enclosed by edges, keep the square ones, link squares that sit one
(or a few) pitches apart on a common row or column, and the largest linked
family is the board.  Cell centres, not cell outlines, define the lattice,
because a raised hidden tile and a flat revealed tile of the same cell have
different outlines but the same centre.
"""

from __future__ import annotations

from collections.abc import Collection

import cv2
import numpy as np

from autoplay.errors import UnreadableBoardError
from autoplay.vision.classify import squared_distances
from autoplay.vision.extend import ALIKE, FRESH_SHARE, MOST_LINES, extend_to_tiles
from autoplay.vision.features import cell_patches, patch_vectors
from autoplay.vision.grid import Grid
from autoplay.vision.one_way import OneWay, across_edges, strip_board
from autoplay.vision.openings import grow_through_openings
from autoplay.vision.refine import refine_grid
from autoplay.vision.skin import Skin

#: Smallest and largest cell side (pixels) looked for when the skin gives no hint.
DEFAULT_PITCH_RANGE = (8.0, 120.0)
#: A board needs at least this many detected tiles to count as found.
MIN_TILES = 6
#: Fewer rows or columns than this is a board mostly hidden under something, not a game (none is that small).
MIN_SIDE = 4
#: The most cells that may be missing between two detected tiles of one row/column.
MAX_GAP_CELLS = 4
#: Smallest step between neighbouring pixels (any channel, 0-255) that ``steps`` edges take: about what
#: Canny's upper threshold asks of a sharp step.
STEP = 24
#: Ways of finding edges, in the order tried: each only when the ones before it show no whole board.
EDGE_PASSES = (
    ("brightness", False),
    ("brightness", True),
    ("colour", False),
    ("colour", True),
    ("steps", False),
    ("steps", True),
)


def tile_candidates(
    image: np.ndarray, pitch_range: tuple[float, float] = DEFAULT_PITCH_RANGE, edges_by: str = "brightness"
) -> tuple[np.ndarray, np.ndarray]:
    """Centres (N x 2, x/y) and sides (N) of square regions enclosed by edges.

    ``edges_by``: ``brightness`` (Canny on grey), ``colour`` (Canny on every colour channel: an edge where any
    channel steps) or ``steps`` (every pixel beside a step in any channel, with no thinning: Canny keeps one
    edge of the two sides of a 2 px grid line between tiles of one brightness, and the tiles then leak into
    each other through the line's other half).
    """
    edges = edge_map(image, edges_by)
    _, _, stats, _centroids = cv2.connectedComponentsWithStats(255 - edges, connectivity=4)
    x, y, w, h, area = stats.T.astype(np.float64)
    lo, hi = pitch_range
    side = (w + h) / 2
    square = np.abs(w - h) <= np.maximum(2.0, 0.15 * side)
    solid = area >= 0.5 * w * h
    sized = (side >= 0.55 * lo) & (side <= hi)
    keep = square & solid & sized
    centres = np.stack([x + (w - 1) / 2, y + (h - 1) / 2], axis=1)[keep]
    return centres, side[keep]


def edge_map(image: np.ndarray, edges_by: str = "brightness") -> np.ndarray:
    """Edge pixels (255) of ``image`` found the way ``edges_by`` names (see :func:`tile_candidates`)."""
    edges: np.ndarray
    if edges_by == "steps":  # already two pixels wide at every step: no widening
        spread = cv2.morphologyEx(image, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
        strongest = spread if spread.ndim == 2 else spread.max(axis=2)
        return np.where(strongest >= STEP, 255, 0).astype(np.uint8)
    if edges_by == "colour" and image.ndim == 3:
        # The strongest channel's step counts, so a smooth shading that brightness keeps under the thresholds
        # (a gradient of 4 levels a pixel in one channel) would pass them: the colour thresholds are higher.
        edges = cv2.Canny(image, 60, 150)
    else:
        edges = cv2.Canny(image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), 30, 90)
    return cv2.dilate(edges, np.ones((2, 2), np.uint8))


def _linked_components(n: int, pairs: np.ndarray) -> np.ndarray:
    """Component label per node: smallest index reachable through ``pairs`` (min-label propagation).

    Vectorised instead of a Python union-find because a busy desktop links
    tens of thousands of pairs; a board's diameter bounds the iterations.
    """
    labels = np.arange(n)
    a, b = pairs[:, 0], pairs[:, 1]
    while True:
        before = labels.copy()
        np.minimum.at(labels, a, labels[b])
        np.minimum.at(labels, b, labels[a])
        labels = labels[labels]  # jump to the label's own label: halves the remaining distance
        if np.array_equal(labels, before):
            return labels


def _dominant_step(deltas: np.ndarray) -> float | None:
    """The most common spacing among neighbour distances (1-px histogram, then refined)."""
    if len(deltas) == 0:
        return None
    bins = np.bincount(np.round(deltas).astype(int))
    smooth = np.convolve(bins, [1, 1, 1], mode="same")
    peak = int(np.argmax(smooth))
    near = deltas[np.abs(deltas - peak) <= 1.5]
    # The mean, not the median: a pitch of 22.5 px drawn as 22 and 23 has no middle value.
    return float(np.mean(near)) if len(near) else float(peak)


def _lattice_members(centres: np.ndarray, sides: np.ndarray) -> tuple[np.ndarray, float, float]:
    """Indices of the largest family of tiles lying on one lattice, and its x/y pitch."""
    dx = centres[None, :, 0] - centres[:, None, 0]
    dy = centres[None, :, 1] - centres[:, None, 1]
    big = np.maximum(sides[:, None], sides[None, :])
    small = np.minimum(sides[:, None], sides[None, :])
    # Nearest-neighbour spacings: a cell's right/lower neighbour is 1.0-1.8 of its side away.
    horiz = (np.abs(dy) <= 0.2 * small) & (dx >= 0.95 * small) & (dx <= 1.8 * big)
    vert = (np.abs(dx) <= 0.2 * small) & (dy >= 0.95 * small) & (dy <= 1.8 * big)
    pitch_x = _dominant_step(dx[horiz])
    pitch_y = _dominant_step(dy[vert])
    if pitch_x is None and pitch_y is None:
        return np.array([], dtype=int), 0.0, 0.0
    pitch_x = pitch_x or pitch_y or 0.0
    pitch_y = pitch_y or pitch_x
    links = np.zeros_like(horiz)
    for along, across, pitch in ((dx, dy, pitch_x), (dy, dx, pitch_y)):
        steps = along / pitch
        whole = np.round(steps)
        on_lattice = (whole >= 1) & (whole <= MAX_GAP_CELLS) & (np.abs(steps - whole) * pitch <= max(1.5, 0.08 * pitch))
        links |= on_lattice & (np.abs(across) <= max(1.5, 0.12 * pitch))
    # Tiles must also be about the size the pitch implies, which keeps icon grids apart.
    fits = (sides >= 0.55 * min(pitch_x, pitch_y)) & (sides <= 1.05 * max(pitch_x, pitch_y))
    links &= fits[:, None] & fits[None, :]
    pairs = np.argwhere(links)
    roots = _linked_components(len(centres), pairs)
    linked = np.zeros(len(centres), bool)
    linked[pairs[:, 0]] = True
    if not linked.any():
        return np.array([], dtype=int), pitch_x, pitch_y
    labels, counts = np.unique(roots[linked], return_counts=True)
    best = labels[np.argmax(counts)]
    return np.flatnonzero((roots == best) & linked), pitch_x, pitch_y


def _line_centres(values: np.ndarray, kinds: np.ndarray, pitch: float) -> np.ndarray:
    """Centres of every row (or column) the tile centres ``values`` lie on, gaps included.

    Different tile kinds (a raised hidden tile, a flat number; ``kinds`` tells
    them apart by detected size) put their detected centres a few pixels apart,
    so a line's plain median would follow whichever kind dominates it.  Model
    instead centre = straight lattice + per-kind offset + per-line wobble, and
    keep only the wobble (a skin's real irregular pitch) in the result.
    """
    # Lines are counted step by step between neighbouring centres, not as (value - first) / pitch: a pitch
    # measured half a pixel off (a page at 125% snaps 22.5 px tiles to 22 and 23) miscounts the far lines.
    order = np.argsort(values)
    index = np.empty(len(values), dtype=int)
    index[order] = np.concatenate([[0], np.cumsum(np.round(np.diff(values[order]) / pitch))]).astype(int)
    slope, intercept = np.polyfit(index, values, 1) if index.max() > 0 else (pitch, float(np.median(values)))
    index = np.round((values - intercept) / slope).astype(int)
    index -= index.min()
    slope, intercept = np.polyfit(index, values, 1) if index.max() > 0 else (pitch, float(np.median(values)))
    lines = intercept + slope * np.arange(index.max() + 1)
    residual = values - lines[index]
    for kind in np.unique(kinds):
        residual[kinds == kind] -= np.median(residual[kinds == kind])
    wobble = max(1.5, 0.04 * slope)
    for k in np.unique(index):
        lines[k] += float(np.clip(np.median(residual[index == k]), -wobble, wobble))
    return lines


def _edges_from_centres(centres: np.ndarray, pitch: float) -> np.ndarray:
    """Cell edges halfway between neighbouring centres; the outer ones half a pitch out."""
    pitch = float(np.median(np.diff(centres))) if len(centres) > 1 else pitch
    mids = (centres[:-1] + centres[1:]) / 2
    return np.concatenate([[centres[0] - pitch / 2], mids, [centres[-1] + pitch / 2]])


def _lattice(
    image: np.ndarray, pitch_range: tuple[float, float], edges_by: str = "brightness"
) -> tuple[np.ndarray, np.ndarray, float, float] | None:
    """Centres and sides of the tiles of the largest lattice on ``image``, and its x/y pitch; None if none."""
    centres, sides = tile_candidates(image, pitch_range, edges_by)
    if len(centres) < MIN_TILES:
        return None
    members, pitch_x, pitch_y = _lattice_members(centres, sides)
    if len(members) < MIN_TILES:
        return None
    return centres[members], sides[members], pitch_x, pitch_y


def locate_grid(image: np.ndarray, skin: Skin | None = None, *, one_way: bool = True) -> Grid:
    """The board's grid on ``image`` (a window grab or a whole desktop).

    With a skin, its pitch range narrows the search (fewer false tiles on a busy
    desktop).  Raises :class:`UnreadableBoardError` when no lattice of tiles is found.  ``one_way=False`` leaves
    out boards whose lattice shows in one direction only (:func:`locate_one_way`), for a caller that confirms
    such a board's other direction itself.
    """
    pitch_range = skin.pitch_range if skin is not None and skin.pitch_range else DEFAULT_PITCH_RANGE
    # A stipple of one-pixel period (xbomb's covered tiles) is all edges to Canny, so no outline encloses a tile;
    # averaged over 3x3 pixels it is nearly flat (a checkerboard keeps 1/9 of its contrast, below Canny's
    # thresholds), while grid lines and tile edges stay, and a symmetric average moves no edge, so every frame of
    # a game is located on the same pixels.  Grid lines may differ from the tiles in hue alone (a violet line
    # across a purple gradient has the gradient's brightness half-way down each tile): then only the colour
    # channels show them.  A 2 px line between tiles of one brightness keeps one Canny edge: then only the
    # unthinned steps enclose the tiles.  Each way is tried only when the ones before it show no board of at
    # least MIN_SIDE rows and columns, so every board found before is found exactly as before.
    blurred: np.ndarray | None = None
    best: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None = None
    for edges_by, blur in EDGE_PASSES:
        if edges_by == "colour" and image.ndim == 2:
            continue
        if blur and blurred is None:
            blurred = cv2.blur(image, (3, 3))
        on = blurred if blur and blurred is not None else image
        found = _lattice(on, pitch_range, edges_by)
        if found is None:
            continue
        centres, sides, pitch_x, pitch_y = found
        kinds = np.round(sides / 2).astype(int)
        lines = (on, _line_centres(centres[:, 0], kinds, pitch_x), _line_centres(centres[:, 1], kinds, pitch_y))
        if best is None or len(lines[1]) * len(lines[2]) > len(best[1]) * len(best[2]):
            best = (*lines, np.array([pitch_x, pitch_y]))
        if len(lines[1]) >= MIN_SIDE and len(lines[2]) >= MIN_SIDE and _near_known_size(lines, skin):
            break
    if one_way and (best is None or len(best[1]) < MIN_SIDE or len(best[2]) < MIN_SIDE):
        # No square tiles, or too few: a board whose tiles show edges in one direction only is found by its rows.
        sizes = skin.mines_by_size if skin is not None else {}
        strips = locate_one_way(image, sizes, pitch_range, None if skin is None else skin.subpixel)
        if strips is not None:
            return _confirmed(image, strips, skin)
    if best is None:
        raise UnreadableBoardError("no Minesweeper board found on the image (no grid of tiles)")
    located_on, col_centres, row_centres, (pitch_x, pitch_y) = best
    if len(col_centres) < MIN_SIDE or len(row_centres) < MIN_SIDE:
        raise UnreadableBoardError(
            f"unreadable cells: only a {len(row_centres)}x{len(col_centres)} patch of tiles is visible, the rest "
            "of the board is covered (a dialog or another window?)"
        )
    raw = Grid(_edges_from_centres(col_centres, pitch_x), _edges_from_centres(row_centres, pitch_y))
    grid = _drawn_edges(image, raw, None if skin is None else skin.subpixel)
    side = _outside_side(raw, image.shape) or _cut_side(located_on, grid)
    if side:
        raise _cut_board(side)
    if skin is not None:
        # Refined first: a line beyond the lattice is read on the tiles' own alignment (see vision/openings.py).
        # A lattice that does not grow ends exactly as it did before that step existed: refine(extend(lattice)).
        refined = refine_grid(image, grid, skin)
        opened = grow_through_openings(image, refined, skin)
        extended = extend_to_tiles(image, grid if opened is refined else opened, skin)
        grid = refined if extended is grid else refine_grid(image, extended, skin)
        side = _flush_side(grid, image.shape)
        if side and skin.mines_by_size and (grid.rows, grid.cols) not in skin.mines_by_size:
            raise _cut_board(side)
    return grid


def locate_one_way(
    image: np.ndarray,
    sizes: Collection[tuple[int, int]] = (),
    pitch_range: tuple[float, float] = DEFAULT_PITCH_RANGE,
    subpixel: bool | None = None,
) -> OneWay | None:
    """A board that shows its lattice in one direction only (see :mod:`autoplay.vision.one_way`), found with the
    first way of finding edges that shows its stack of strips; None when none does.  Its edges are placed as every
    board's (:func:`_drawn_edges`, ``subpixel`` the skin's choice): on whole pixels at a whole pitch, so that live
    calibration cuts its templates as play samples its cells.  Without a skin a fractional pitch keeps its edges
    between pixels: a fresh board of this kind looks the same under either placement (nothing changes along its
    strips), so counting its looks cannot choose, and a fractional pitch is a page drawn at a scale."""
    blurred: np.ndarray | None = None
    for edges_by, blur in EDGE_PASSES:
        if edges_by == "colour" and image.ndim == 2:
            continue
        if blur and blurred is None:
            blurred = cv2.blur(image, (3, 3))
        found = strip_board(image, edge_map(blurred if blur and blurred is not None else image, edges_by), sizes,
                            pitch_range)  # fmt: skip
        if found is not None:
            return OneWay(_drawn_edges(image, found.grid, True if subpixel is None else subpixel), found.inferred)
    return None


def _confirmed(image: np.ndarray, found: OneWay, skin: Skin | None) -> Grid:
    """The grid of a board located from one direction, once what the board shows does not contradict it: edges
    across its cells lie on its inferred lines, or it shows none and every cell looks alike (a fresh board, read
    the same wherever those lines fall)."""
    verdict = across_edges(image, found.grid, found.inferred)
    seen = "rows" if found.inferred == "columns" else "columns"
    if verdict == "off":
        raise UnreadableBoardError(
            f"the board shows its {seen} but not its {found.inferred}, and the {found.inferred} taken from its "
            "outline do not lie where its opened cells' edges are"
        )
    if verdict == "none" and not _mostly_alike(image, found.grid):
        raise UnreadableBoardError(
            f"the board shows its {seen} but not its {found.inferred}, and no opened cells to place them by"
        )
    return found.grid if skin is None else refine_grid(image, found.grid, skin)


def _mostly_alike(image: np.ndarray, grid: Grid) -> bool:
    """Whether ``FRESH_SHARE`` of the cells show the board's commonest look (a fresh board, maybe with a flag)."""
    vectors = patch_vectors(cell_patches(image, grid))
    distance = np.sqrt(((vectors - np.median(vectors, axis=0)) ** 2).mean(axis=1))
    return bool(np.mean(distance < ALIKE) >= FRESH_SHARE)


def _cut_board(side: str) -> UnreadableBoardError:
    """The one message for a board that part of lies outside the picture (a page scrolled, a window too small)."""
    return UnreadableBoardError(
        f"the board runs off the {side} edge of the image: part of it is out of view (scroll the page, zoom out "
        "or enlarge the window so that the whole board shows; for a screenshot, capture the whole window)"
    )


def _flush_side(grid: Grid, shape: tuple[int, ...]) -> str | None:
    """The image edge the grid ends at, within a quarter of a cell, if any.

    A board cut exactly between two rows (a page scrolled by a whole number of cells) leaves no partial cell and no
    strip for :func:`_cut_side` to look at: its last visible row simply ends at the image's edge.  A board drawn
    flush with its window's edge ends there too, so this alone proves nothing; :func:`locate_grid` calls it a cut
    only when the skin also knows the board's sizes and this is none of them.
    """
    height, width = shape[:2]
    px, py = grid.pitch
    for name, gap, pitch in (
        ("top", grid.ys[0], py),
        ("bottom", height - grid.ys[-1], py),
        ("left", grid.xs[0], px),
        ("right", width - grid.xs[-1], px),
    ):
        if gap <= max(2.0, pitch / 4):
            return name
    return None


def _near_known_size(lines: tuple[np.ndarray, np.ndarray, np.ndarray], skin: Skin | None) -> bool:
    """Is a lattice of these column and row centres a whole board, as far as the skin knows its boards' sizes?

    A pass may find only part of a board (a page whose tiles merge with the browser's frame in one pass showed a
    13x5 corner of a 30x16 board); when the skin knows what sizes its boards are, a lattice that cannot become one
    of them by the few lines :func:`extend_to_tiles` may add lets the remaining passes look further.  The largest
    lattice found is still taken when none fits.
    """
    sizes = skin.mines_by_size if skin is not None else {}
    cols, rows = len(lines[1]), len(lines[2])
    return not sizes or any(
        (0 <= r - rows <= MOST_LINES and 0 <= c - cols <= MOST_LINES)
        or (0 <= rows - r <= MOST_LINES and 0 <= cols - c <= MOST_LINES)  # ran on into the page: cut back
        for r, c in sizes
    )


def second_board(image: np.ndarray, grid: Grid, skin: Skin | None = None) -> Grid | None:
    """Another whole board on ``image`` besides ``grid`` (two game windows on one desktop), else None.

    The located board is blanked out and the search run again: a screenshot with two boards must not
    be read as whichever one the lattice search happened to prefer.
    """
    x0, y0, x1, y1 = grid.rect
    masked = image.copy()
    masked[max(0, y0) : max(0, y1), max(0, x0) : max(0, x1)] = 0
    try:
        return locate_grid(masked, skin)
    except UnreadableBoardError:
        return None


def _outside_side(raw: Grid, shape: tuple[int, ...]) -> str | None:
    """The image edge that cuts through the lattice's outer cells, if any (more than a pixel of slack)."""
    height, width = shape[:2]
    for name, beyond in (
        ("left", raw.xs[0] < -1.5),
        ("right", raw.xs[-1] > width + 1.5),
        ("top", raw.ys[0] < -1.5),
        ("bottom", raw.ys[-1] > height + 1.5),
    ):
        if beyond:
            return name
    return None


def _cut_side(image: np.ndarray, grid: Grid) -> str | None:
    """The image edge the board continues past, if any.

    Partial cells at an image border are not square, so they are never found
    as tiles and the lattice simply stops short of the border.  What gives the
    cut away is the strip between the lattice and the border: where a game
    frame would be plain, a cut board carries on its row (or column)
    separators into it.
    """
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    gray = gray.astype(np.int16)
    height, width = gray.shape
    x0, y0, x1, y1 = grid.rect
    px, py = grid.pitch
    inner_rows = [int(y) for y in grid.ys[1:-1]]
    inner_cols = [int(x) for x in grid.xs[1:-1]]

    def separator_energy(lines: list[int], lo: int, hi: int, axis: int) -> np.ndarray:
        """Mean step across each separator line, measured only between ``lo`` and ``hi`` along it."""
        if hi - lo < 2 or not lines:
            return np.zeros(0)
        # A separator may be a gap a few pixels wide whose middle is flat: take its strongest step nearby.
        if axis == 0:  # horizontal separators, looked at in columns lo:hi
            steps = [
                max(np.abs(gray[y + d, lo:hi] - gray[y + d - 1, lo:hi]).mean() for d in range(-2, 3))
                for y in lines
                if 2 < y < height - 2
            ]
        else:
            steps = [
                max(np.abs(gray[lo:hi, x + d] - gray[lo:hi, x + d - 1]).mean() for d in range(-2, 3))
                for x in lines
                if 2 < x < width - 2
            ]
        return np.array(steps, dtype=np.float64)

    strips = (
        ("left", 0, x0, px, inner_rows, 0, x0 + int(px) // 2, x0 + int(px)),
        ("right", x1, width, px, inner_rows, 0, x1 - int(px), x1 - int(px) // 2),
        ("top", 0, y0, py, inner_cols, 1, y0 + int(py) // 2, y0 + int(py)),
        ("bottom", y1, height, py, inner_cols, 1, y1 - int(py), y1 - int(py) // 2),
    )
    for name, lo, hi, pitch, lines, axis, ref_lo, ref_hi in strips:
        if not 2 <= hi - lo < pitch:
            continue
        inside = separator_energy(lines, ref_lo, ref_hi, axis)
        outside = separator_energy(lines, lo + 1, hi - 1, axis)
        if len(outside) and inside.mean() > 0 and np.mean(outside > 0.5 * inside) >= 0.75:
            return name
    return None


#: A pitch further than this (px) from a whole number may be drawn between pixels (a page at 125%: 18 px x 1.25);
#: nearer, it is a whole pitch measured a little off (sgt-mines' 20 px rows measured as 19.94 on a busy board).
WHOLE_PITCH = 0.08
#: Two cells this near (RMS, 0..1) count as one look when :func:`distinct_looks` counts a board's tiles.
ONE_LOOK = 0.05
#: The sub-pixel lattice is taken when whole pixels show at least this many times as many looks: an interpolated
#: page splits each tile into one look per pixel phase (5-7 times as many, measured at 110-150%), while a lattice
#: measured a little off a whole pitch on a pixel-exact game (sgt-mines' 20 px rows measured as 19.94) shows
#: about as many either way.
CLEARLY_FEWER = 2


def distinct_looks(image: np.ndarray, grid: Grid, box: int | None = None) -> int:
    """How many different pictures the cells of ``grid`` show (greedy groups of radius ``ONE_LOOK``).

    The right placement of a board's cells is the one on which equal tiles look equal, whatever the game: a board
    shows a handful of tiles, and a placement off by part of a pixel in some cells splits each tile into one look
    per offset.  No label is needed, so this works before any skin exists.

    >>> import numpy as np
    >>> tile = np.full((10, 10, 3), 200, np.uint8); tile[:, 0] = tile[0, :] = 90
    >>> distinct_looks(np.tile(tile, (4, 5, 1)), Grid(np.arange(0.0, 51.0, 10), np.arange(0.0, 41.0, 10)))
    1
    """
    vectors = patch_vectors(cell_patches(image, grid, box=box))
    leaders = np.zeros((0, vectors.shape[1]), np.float32)
    limit = ONE_LOOK * ONE_LOOK
    for vector in vectors:
        if len(leaders) and squared_distances(vector[None, :], leaders).min() <= limit:
            continue
        leaders = np.vstack([leaders, vector[None, :]])
    return len(leaders)


def _even_lattice(edges: np.ndarray) -> np.ndarray:
    """Edges at one constant, possibly fractional, pitch: the least-squares line through the measured edges."""
    index = np.arange(len(edges), dtype=np.float64)
    slope, intercept = np.polyfit(index, edges, 1)
    return np.asarray(intercept + slope * index)


def _drawn_edges(image: np.ndarray, raw: Grid, subpixel: bool | None = None) -> Grid:
    """The cell edges where the game drew them: whole pixels, or between pixels when its tiles are scaled.

    A game that draws its tiles pixel by pixel puts every edge on a whole pixel, even at an odd pitch (gnome-mines
    spreads 28.4 px rows as 28 and 29): rounding the measured edges finds them.  A scaled page (a browser at 125%,
    a Qt game with a scale factor) draws its tiles at a fractional pitch and interpolates them, so each cell sits
    at another part of a pixel: rounded edges then cut every cell a different fraction off, and one tile becomes
    several looks that no skin can hold.  Both placements are tried only when the pitch is fractional, and the
    sub-pixel one is taken when the board shows clearly fewer distinct looks on it (``CLEARLY_FEWER``); otherwise
    whole pixels stay, as every pixel-exact game had before.  :func:`~autoplay.vision.features.cell_patches` samples at the sub-pixel edges directly.

    With a skin the choice is the skin's (``subpixel``: how calibration located this game): its templates were cut
    from one kind of sampling, and a board located the other way on a busy frame (a lost board whose last column
    merged with the frame) would match none of them.
    """
    whole = _clip_to_image(raw, image.shape)
    pitch_x, pitch_y = raw.pitch
    if max(abs(pitch_x - round(pitch_x)), abs(pitch_y - round(pitch_y))) <= WHOLE_PITCH:
        return whole
    even = Grid(_even_lattice(raw.xs), _even_lattice(raw.ys))
    height, width = image.shape[:2]
    if even.xs[0] < 0 or even.ys[0] < 0 or even.xs[-1] > width or even.ys[-1] > height:
        return whole
    if subpixel is not None:
        return even if subpixel else whole
    # Each placement is read as it would be (cell_patches averages a sub-pixel lattice's samples, not a whole one's).
    return even if CLEARLY_FEWER * distinct_looks(image, even) <= distinct_looks(image, whole) else whole


def _clip_to_image(grid: Grid, shape: tuple[int, ...]) -> Grid:
    """Whole-pixel edges inside the image.

    Whole pixels make a cell sampled on the board and the same cell cut out as
    a template file see exactly the same pixels, so templates match their own
    tiles to the last grey level on pixel-exact games.
    """
    height, width = shape[:2]
    xs = np.clip(np.round(grid.xs), 0, width)
    ys = np.clip(np.round(grid.ys), 0, height)
    return Grid(xs, ys)
