"""``autoplay watch``'s own window (Tk, from the standard library): the newest position beside the game, never over it.

The window shows what ``--terminal`` shows, drawn: each covered cell in its
heat colour with its mine chance in percent, the move autoplay would make
ringed in blue, the move and its "why", the person's last steps with their
verdicts and the last game's summary.  "Freeze" keeps the position on show
while the game goes on; unfreezing shows the newest one.

Where it goes (:func:`place_beside`): the side of the game's window with the most
room (right, left, below, above), sized to fit there; when no side of the
window has room, a side of the board itself (over the game's frame, never its
board).  It asks the window system not to give it the keyboard focus (ICCCM's
input hint): gnome-mines pauses when it loses the focus.
"""

from __future__ import annotations

import contextlib
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from autoplay.board.model import DIGITS, FLAG, HIDDEN, MINE, QUESTION
from autoplay.insight.coach import Coached
from autoplay.insight.review import Judged, format_judged, format_summary
from autoplay.render.palette import heat_colour, percent_label

#: ``(left, top, width, height)`` on the screen.
Rect = tuple[int, int, int, int]
#: Pixels per cell: the largest drawn, and the smallest still worth showing numbers in.
MAX_CELL, MIN_CELL = 28, 14
#: Space between the game and this window, and the text area's height under the grid.
GAP = 8
TEXT_LINES = 12
LINE_HEIGHT = 15
STEPS_SHOWN = 6
TITLE = "autoplay watch"


def overlaps(a: Rect, b: Rect) -> bool:
    """Whether two ``(left, top, width, height)`` rectangles share a pixel."""
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


@dataclass(frozen=True)
class Placement:
    """Where the window goes and the cell size that fits there."""

    x: int
    y: int
    cell: int
    width: int
    height: int

    @property
    def rect(self) -> Rect:
        return self.x, self.y, self.width, self.height


def window_size(rows: int, cols: int, cell: int) -> tuple[int, int]:
    """The window's size for a board of ``rows`` x ``cols`` drawn at ``cell`` pixels, text included."""
    return max(cols * cell, 360) + 2 * GAP, rows * cell + TEXT_LINES * LINE_HEIGHT + 3 * GAP


def place_beside(game: Rect, board: Rect, rows: int, cols: int, screen: tuple[int, int]) -> Placement | None:
    """The biggest window that fits on the screen beside ``game`` (else beside ``board``) without covering it.

    Tries the four sides of the game's window, then of its board; on each side the cell size is the largest
    (up to ``MAX_CELL``, at least ``MIN_CELL``) whose window fits between that side and the screen's edge.
    None when no side has room even at ``MIN_CELL``: the caller then says so rather than cover the board.
    """
    width, height = screen
    for around in (game, board):
        left, top, w, h = around
        best: Placement | None = None
        for cell in range(MAX_CELL, MIN_CELL - 1, -1):
            ww, wh = window_size(rows, cols, cell)
            spots = [
                (left + w + GAP, top),  # right
                (left - GAP - ww, top),  # left
                (left, top + h + GAP),  # below
                (left, top - GAP - wh),  # above
            ]
            for x, y in spots:
                x, y = min(max(0, x), width - ww), min(max(0, y), height - wh)
                if x < 0 or y < 0 or overlaps((x, y, ww, wh), around):
                    continue
                best = Placement(x, y, cell, ww, wh)
                break
            if best is not None:
                return best
    return None


def _hex(bgr: tuple[int, int, int]) -> str:
    b, g, r = bgr
    return f"#{r:02x}{g:02x}{b:02x}"


class CoachWindow:
    """The Tk window; ``show`` draws a position (or keeps it for later while frozen)."""

    def __init__(self, root: Any, placement: Placement, display: str | None) -> None:
        import tkinter as tk

        self.root = root
        self.cell = placement.cell
        self.frozen = tk.BooleanVar(root, value=False)
        self.pending: tuple[Coached, float, list[Judged], dict[str, Any] | None] | None = None
        root.title(TITLE)
        root.geometry(f"{placement.width}x{placement.height}+{placement.x}+{placement.y}")
        top = tk.Frame(root)
        top.pack(fill="x", padx=GAP, pady=(GAP, 0))
        self.header = tk.Label(top, anchor="w", font=("TkDefaultFont", 10, "bold"))
        self.header.pack(side="left", fill="x", expand=True)
        tk.Checkbutton(top, text="Freeze", variable=self.frozen, command=self._toggled, takefocus=0).pack(side="right")
        self.canvas = tk.Canvas(root, highlightthickness=0, background="#f0f0f0")
        self.canvas.pack(fill="both", expand=True, padx=GAP, pady=GAP)
        self.text_width = max(40, (placement.width - 2 * GAP) // 7)

    def show(self, coached: Coached, t: float, steps: Sequence[Judged], summary: dict[str, Any] | None) -> None:
        """Draw this position, or keep it as the newest while the view is frozen."""
        self.pending = (coached, t, list(steps), summary)
        if self.frozen.get():
            self.header.configure(text=f"frozen — newer positions waiting (now {t:.1f} s)")
            return
        self._draw()

    def _toggled(self) -> None:
        if not self.frozen.get() and self.pending is not None:
            self._draw()

    def _draw(self) -> None:
        assert self.pending is not None
        coached, t, steps, summary = self.pending
        advice = coached.advice
        board, analysis, decision = advice.board, advice.analysis, advice.decision
        mines = "?" if board.mines is None else str(board.mines)
        self.header.configure(text=f"{t:.1f} s   {board.rows}x{board.cols}, {mines} mines, {coached.state}")
        canvas, size = self.canvas, self.cell
        canvas.delete("all")
        odds = analysis.probabilities if analysis is not None else None
        safe = set(analysis.safe) if analysis is not None else set()
        move = decision.moves[0] if decision is not None and decision.moves else None
        font = ("TkDefaultFont", max(7, size // 3))
        for r in range(board.rows):
            for c in range(board.cols):
                x, y, ch = c * size, r * size, board[r, c]
                p = odds[r][c] if odds is not None and ch in (HIDDEN, QUESTION) else None
                fill = (
                    _hex(heat_colour(p))
                    if p is not None
                    else "#b8bcb6"
                    if ch in (HIDDEN, QUESTION, FLAG)
                    else "#e4e4e2"
                )
                canvas.create_rectangle(x, y, x + size, y + size, fill=fill, outline="#909090")
                label = percent_label(p) if p is not None else ch if ch in DIGITS[1:] or ch in (FLAG, MINE, "X") else ""
                if label:
                    canvas.create_text(x + size / 2, y + size / 2, text=label, font=font)
                if (r, c) in safe:
                    canvas.create_oval(x + 2, y + 2, x + 6, y + 6, fill="#0a0", outline="")
        if move is not None:
            x, y = move.col * size, move.row * size
            canvas.create_rectangle(x + 1, y + 1, x + size - 1, y + size - 1, outline="#1040ff", width=3)
        lines: list[str] = []
        if decision is not None and move is not None:
            kind = "guess" if decision.guess else "certain"
            lines.append(
                f"autoplay would {move.action} ({move.row},{move.col}) [{kind}, {100 * move.probability:.1f}%]"
            )
            why = advice.explanations[0].text if advice.explanations else decision.reason
            lines.extend(textwrap.wrap(f"why: {why}", self.text_width)[:3])
        elif advice.problem:
            lines.append(f"no move: {advice.problem}")
        lines.extend(format_judged(j).strip() for j in steps[-STEPS_SHOWN:])
        if summary is not None:
            lines.extend(textwrap.wrap(format_summary(summary), self.text_width)[:2])
        top = board.rows * size + GAP
        for i, line in enumerate(lines[:TEXT_LINES]):
            canvas.create_text(0, top + i * LINE_HEIGHT, text=line, anchor="nw", font=("TkDefaultFont", 9))


def refuse_focus(root: Any, display: str | None) -> None:
    """Set the ICCCM input hint to False on the Tk window, so a window manager never gives it the keyboard focus.

    Without a window manager nothing gives focus on mapping anyway; this only asks, it sends no input.
    """
    from Xlib import Xutil
    from Xlib import display as xdisplay

    with contextlib.suppress(Exception):
        conn = xdisplay.Display(display)
        try:
            window = conn.create_resource_object("window", int(root.wm_frame(), 16))
            window.set_wm_hints(flags=Xutil.InputHint, input=0)
            conn.sync()
        finally:
            conn.close()
