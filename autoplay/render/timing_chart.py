"""Where the time went, as an inline SVG bar chart: no plotting library, no file, any browser draws it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

#: One colour per phase of the live loop (colour-blind-safe palette, Okabe and Ito).
PHASE_COLOURS = {
    "capture": "#0072B2",
    "settle": "#E69F00",
    "decode": "#009E73",
    "solve": "#CC79A7",
    "click": "#56B4E9",
}
OTHER_COLOUR = "#999999"


def stacked_bars_svg(
    rows: Sequence[tuple[str, Mapping[str, float]]],
    unit: str,
    width: int = 760,
    bar_px: int = 22,
) -> str:
    """One horizontal bar per ``(label, {phase: value})`` row, split by phase, with its total at the end.

    All bars share one scale so rows compare by length; a legend names the phases.
    """
    phases = list(dict.fromkeys(p for _, values in rows for p in values))
    label_px, total_px, gap = 120, 90, 8
    plot = max(1, width - label_px - total_px)
    longest = max((sum(values.values()) for _, values in rows), default=0.0) or 1.0
    legend_y = gap
    top = legend_y + 28
    height = top + len(rows) * (bar_px + gap)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" font-family="sans-serif" font-size="12">'
    ]
    x = label_px
    for phase in phases:
        colour = PHASE_COLOURS.get(phase, OTHER_COLOUR)
        parts.append(f'<rect x="{x}" y="{legend_y}" width="12" height="12" fill="{colour}"/>')
        parts.append(f'<text x="{x + 16}" y="{legend_y + 11}">{escape(phase)}</text>')
        x += 24 + 7 * len(phase) + 12
    for i, (label, values) in enumerate(rows):
        y = top + i * (bar_px + gap)
        parts.append(f'<text x="{label_px - 8}" y="{y + bar_px * 0.7:.1f}" text-anchor="end">{escape(label)}</text>')
        x0 = float(label_px)
        for phase in phases:
            value = values.get(phase, 0.0)
            w = plot * value / longest
            if w <= 0:
                continue
            colour = PHASE_COLOURS.get(phase, OTHER_COLOUR)
            parts.append(
                f'<rect x="{x0:.1f}" y="{y}" width="{w:.1f}" height="{bar_px}" fill="{colour}">'
                f"<title>{escape(label)}: {escape(phase)} {value:.3g} {escape(unit)}</title></rect>"
            )
            x0 += w
        total = sum(values.values())
        parts.append(f'<text x="{x0 + 6:.1f}" y="{y + bar_px * 0.7:.1f}">{total:.3g} {escape(unit)}</text>')
    parts.append("</svg>")
    return "".join(parts)
