"""Drawing primitives for one cell rectangle ``(x, y, w, h)``, in place on a BGR image.

Every picture (annotated screenshot, drawn board) is built from these, so a
marked move or a certain mine looks identical in all of them.
"""

from __future__ import annotations

import cv2
import numpy as np

from autoplay.render.palette import BGR, MINE_MARK, MOVE_FLAG, MOVE_REVEAL, OUTLINE, SAFE_MARK, TEXT_LIGHT

Rect = tuple[int, int, int, int]

_FONT = cv2.FONT_HERSHEY_SIMPLEX
#: Below this scale Hershey digits smear into blobs; better no text than unreadable text.
MIN_TEXT_SCALE = 0.28


def clip_rect(image: np.ndarray, rect: Rect) -> Rect | None:
    """The part of ``rect`` inside the image, or None when nothing is left (grids may touch the edge)."""
    x, y, w, h = rect
    x0, y0 = max(0, x), max(0, y)
    x1, y1 = min(image.shape[1], x + w), min(image.shape[0], y + h)
    if x1 <= x0 or y1 <= y0:
        return None
    return x0, y0, x1 - x0, y1 - y0


def blend_rect(image: np.ndarray, rect: Rect, colour: BGR, alpha: float) -> None:
    """Tint a cell so the tile underneath stays readable through the colour."""
    clipped = clip_rect(image, rect)
    if clipped is None:
        return
    x, y, w, h = clipped
    roi = image[y : y + h, x : x + w]
    tint = np.empty_like(roi)
    tint[:] = colour
    cv2.addWeighted(tint, alpha, roi, 1.0 - alpha, 0.0, dst=roi)


def fill_rect(image: np.ndarray, rect: Rect, colour: BGR) -> None:
    x, y, w, h = rect
    cv2.rectangle(image, (x, y), (x + w - 1, y + h - 1), colour, thickness=cv2.FILLED)


def fit_text_scale(text: str, width: int, height: int, thickness: int = 1, max_scale: float = 0.6) -> float | None:
    """Largest font scale (up to ``max_scale``) at which ``text`` fits the box, None if it cannot be read."""
    (tw, th), base = cv2.getTextSize(text, _FONT, 1.0, thickness)
    scale = min(max_scale, 0.85 * width / max(tw, 1), 0.6 * height / max(th + base, 1))
    return scale if scale >= MIN_TEXT_SCALE else None


def put_centred_text(
    image: np.ndarray,
    rect: Rect,
    text: str,
    colour: BGR,
    *,
    outline: BGR | None = None,
    max_scale: float = 0.6,
    bold: bool = False,
) -> bool:
    """Write ``text`` centred in the cell; returns False (and draws nothing) when the cell is too small."""
    x, y, w, h = rect
    thickness = 2 if bold and min(w, h) >= 24 else 1
    scale = fit_text_scale(text, w, h, thickness, max_scale)
    if scale is None:
        return False
    (tw, th), _ = cv2.getTextSize(text, _FONT, scale, thickness)
    org = (x + (w - tw) // 2, y + (h + th) // 2)
    if outline is not None:
        cv2.putText(image, text, org, _FONT, scale, outline, thickness + 2, cv2.LINE_AA)
    cv2.putText(image, text, org, _FONT, scale, colour, thickness, cv2.LINE_AA)
    return True


def _centre_radius(rect: Rect) -> tuple[tuple[int, int], int]:
    x, y, w, h = rect
    return (x + w // 2, y + h // 2), max(2, min(w, h) // 2)


def draw_move_ring(image: np.ndarray, rect: Rect, action: str) -> None:
    """A thick ring reaching past the cell plus four ticks, visible even on a busy expert board.

    Reveals are blue and flags magenta: neither occurs in the heat map or in any
    skin's number colours at that thickness, so the eye finds the move at once.
    """
    (cx, cy), r = _centre_radius(rect)
    colour = MOVE_FLAG if action == "flag" else MOVE_REVEAL
    ring = max(3, round(r * 1.15))
    width = max(2, r // 5)
    cv2.circle(image, (cx, cy), ring, OUTLINE, width + 2, cv2.LINE_AA)
    cv2.circle(image, (cx, cy), ring, colour, width, cv2.LINE_AA)
    tick = max(3, r // 2)
    for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        start = (cx + dx * (ring + 1), cy + dy * (ring + 1))
        end = (cx + dx * (ring + tick), cy + dy * (ring + tick))
        cv2.line(image, start, end, OUTLINE, width + 2, cv2.LINE_AA)
        cv2.line(image, start, end, colour, width, cv2.LINE_AA)


def draw_safe_mark(image: np.ndarray, rect: Rect) -> None:
    """A green dot with a white rim: 'certainly safe', distinct from a merely low probability."""
    (cx, cy), r = _centre_radius(rect)
    dot = max(2, r // 2)
    cv2.circle(image, (cx, cy), dot + 1, TEXT_LIGHT, -1, cv2.LINE_AA)
    cv2.circle(image, (cx, cy), dot, SAFE_MARK, -1, cv2.LINE_AA)


def draw_mine_mark(image: np.ndarray, rect: Rect) -> None:
    """A dark red cross: 'certainly a mine' (not yet flagged)."""
    (cx, cy), r = _centre_radius(rect)
    arm = max(2, r // 2)
    width = max(1, r // 5)
    for sx in (-1, 1):
        p0, p1 = (cx - arm, cy - sx * arm), (cx + arm, cy + sx * arm)
        cv2.line(image, p0, p1, TEXT_LIGHT, width + 2, cv2.LINE_AA)
        cv2.line(image, p0, p1, MINE_MARK, width, cv2.LINE_AA)


def draw_flag(image: np.ndarray, rect: Rect) -> None:
    """A red pennant on a black pole, the usual flag picture."""
    x, y, w, h = rect
    pole_x = x + w // 2 + max(1, w // 10)
    top, bottom = y + h // 5, y + h - h // 5
    cv2.line(image, (pole_x, top), (pole_x, bottom), OUTLINE, max(1, w // 14))
    cv2.line(image, (x + w // 4, bottom), (x + 3 * w // 4, bottom), OUTLINE, max(1, w // 14))
    pennant = np.array([[pole_x, top], [pole_x, top + h // 3], [x + w // 5, top + h // 6]], dtype=np.int32)
    cv2.fillPoly(image, [pennant], (0, 0, 230), cv2.LINE_AA)


def draw_mine(image: np.ndarray, rect: Rect) -> None:
    """A black ball with spikes, as a lost game shows its mines."""
    (cx, cy), r = _centre_radius(rect)
    body = max(2, round(r * 0.5))
    spike = max(3, round(r * 0.75))
    for dx, dy in ((1, 0), (0, 1), (1, 1), (1, -1)):
        cv2.line(
            image,
            (cx - dx * spike, cy - dy * spike),
            (cx + dx * spike, cy + dy * spike),
            OUTLINE,
            max(1, r // 7),
            cv2.LINE_AA,
        )
    cv2.circle(image, (cx, cy), body, OUTLINE, -1, cv2.LINE_AA)
    cv2.circle(image, (cx - body // 3, cy - body // 3), max(1, body // 4), TEXT_LIGHT, -1, cv2.LINE_AA)
