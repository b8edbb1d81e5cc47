"""A Minesweeper whose whole look is drawn at random from a seed, so the bot can be tested on a game it never saw.

Usage: python benchmarks/tk_clone.py --look SEED [--rows 16 --cols 30 --mines 99] [--tile PX] [--log FILE]
                                     [--first-click zero|safe] [--deal-seed N] [--print-look]

Every visual property (tile pitch, grid lines, covered tile style, opened fill, digit font and colours, mine, flag,
end-of-game marks, optional popup, margins) comes from `random.Random(SEED)`; `--tile` replaces only the pitch.
The rules are plain Minesweeper: mines are dealt at the first left click (`zero`: the clicked cell and its
neighbours stay free, `safe`: only the clicked cell), a 0 opens its neighbours, right click toggles a flag, no
chording.  Key `n`, key F2 or the button in the top bar start a new game.

`--log FILE` appends one JSON line per event (new game, every click on a cell, the layout once dealt, the end with
mines, opened cells, flags and the exploded cell), flushed at once, so the harness can audit what the bot saw.
The window's WM_CLASS is `tkmines` and it sits at +0+0.
"""

from __future__ import annotations

import argparse
import colorsys
import json
import math
import random
import sys
import time
import tkinter as tk
import tkinter.font as tkfont
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import IO, Any

RGB = tuple[int, int, int]

#: The classic Windows digit colours: 1 blue, 2 green, 3 red, 4 navy, 5 maroon, 6 teal, 7 black, 8 grey.
CLASSIC_DIGITS: list[RGB] = [
    (0, 0, 255),
    (0, 128, 0),
    (255, 0, 0),
    (0, 0, 128),
    (128, 0, 0),
    (0, 128, 128),
    (0, 0, 0),
    (128, 128, 128),
]
FONT_CANDIDATES = ("Helvetica", "Courier", "Times", "fixed", "DejaVu Sans")
STIPPLES = ("gray50", "gray25", "gray75", "gray12")
COVERED_STYLES = ("bevel", "flat", "stipple", "gradient", "rounded-ish")
MINE_GLYPHS = ("spiked", "star", "square", "diamond")
FLAG_GLYPHS = ("pennant", "F", "!", "dot")
#: Below this WCAG contrast ratio a glyph is redrawn in another colour; 2.2 still passes classic grey 8 on silver.
MIN_CONTRAST = 2.2
#: Covered and opened tiles must differ at least this much in some RGB channel, as in any playable game.
MIN_COVER_GAP = 48


# ---------------------------------------------------------------- colours


def hexc(rgb: RGB) -> str:
    """Tk wants colours as #rrggbb strings."""
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def unhex(colour: str) -> RGB:
    """The look stores hex strings (JSON-friendly); the checks work on numbers."""
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def luminance(rgb: RGB) -> float:
    """WCAG relative luminance: the contrast checks need perceived brightness, not raw channel sums."""

    def lin(v: int) -> float:
        s = v / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    r, g, b = rgb
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


def contrast(a: RGB, b: RGB) -> float:
    """WCAG contrast ratio (1..21): a single number for 'can this glyph be read on that fill'."""
    la, lb = luminance(a), luminance(b)
    return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)


def gap(a: RGB, b: RGB) -> int:
    """Largest per-channel difference: how the brief measures 'clearly different' tiles."""
    return max(abs(x - y) for x, y in zip(a, b))


def mix(a: RGB, b: RGB, t: float) -> RGB:
    """Blend a toward b; bevel edges, gradients and borders are derived colours."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def hsv(rng: random.Random, h: tuple[float, float], s: tuple[float, float], v: tuple[float, float]) -> RGB:
    """A random colour inside HSV ranges, so 'light', 'dark' or 'warm' can be asked for directly."""
    r, g, b = colorsys.hsv_to_rgb(rng.uniform(*h) % 1.0, rng.uniform(*s), rng.uniform(*v))
    return round(r * 255), round(g * 255), round(b * 255)


def any_colour(rng: random.Random) -> RGB:
    """A colour from the whole cube: looks must not lean on a palette the bot may have been tuned to."""
    return rng.randrange(256), rng.randrange(256), rng.randrange(256)


def readable_on(rng: random.Random, backgrounds: list[RGB], draw: Callable[[], RGB], need: float) -> RGB:
    """Redraw a glyph colour until it reads on every background it is drawn over; fall back to black or white."""
    for _ in range(200):
        colour = draw()
        if all(contrast(colour, bg) >= need for bg in backgrounds):
            return colour
    return max([(0, 0, 0), (255, 255, 255)], key=lambda c: min(contrast(c, bg) for bg in backgrounds))


# ---------------------------------------------------------------- the look


@dataclass
class Look:
    """Every visual choice of one game, drawn once from the seed; `--print-look` dumps it for the harness."""

    seed: int
    tile: int
    line: int
    grid_color: str
    window_bg: str
    pad: int
    bar_fg: str
    button_text: str
    counter_format: str
    covered_style: str
    covered_fill: str
    covered_alt: str  # bevel: dark edge; stipple: stipple colour; gradient: bottom; rounded-ish: border
    covered_light: str  # bevel light edge (unused by the other styles)
    bevel_width: int
    stipple: str
    opened_fill: str
    opened_border: str | None
    font_family: str
    font_bold: bool
    font_frac: float
    digit_scheme: str
    digit_colors: list[str]
    mine_glyph: str
    mine_spikes: int
    mine_frac: float
    mine_color: str
    mine_on_opened: bool
    exploded_color: str
    flag_glyph: str
    flag_color: str
    pole_color: str
    flag_frac: float
    cross_wrong: bool
    cross_color: str
    win_flags: bool
    popup: bool
    popup_fill: str
    popup_fg: str
    covered_colours: list[str] = field(default_factory=list)  # every colour a covered tile shows, for checks


def covered_parts(style: str, fill: RGB, alt: RGB) -> list[RGB]:
    """The colours a covered tile shows in bulk, including blends: each must stand apart from the opened fill."""
    if style in ("stipple", "gradient"):
        return [fill, alt, mix(fill, alt, 0.5)]
    return [fill]


def draw_covered(rng: random.Random, style: str, opened: RGB) -> tuple[RGB, RGB, RGB]:
    """Fill, second colour and light edge of the covered tile, redrawn until it is unmistakably not opened."""
    for _ in range(500):
        fill = any_colour(rng)
        if style == "bevel":
            alt = mix(fill, (0, 0, 0), rng.uniform(0.3, 0.6))
            light = mix(fill, (255, 255, 255), rng.uniform(0.3, 0.7))
        elif style in ("stipple", "gradient", "rounded-ish"):
            alt = any_colour(rng)
            light = fill
            if gap(fill, alt) < 40:
                continue
        else:
            alt = light = fill
        if all(gap(part, opened) >= MIN_COVER_GAP for part in covered_parts(style, fill, alt)):
            return fill, alt, light
    raise RuntimeError("no covered colour found")  # cannot happen: half the cube is far from any one colour


def draw_digit_colours(rng: random.Random, scheme: str, opened: RGB) -> list[RGB]:
    """Digit colours for a scheme; random ones are redrawn until they read on the opened fill (and differ)."""
    if scheme == "classic":
        return list(CLASSIC_DIGITS)
    light_fill = luminance(opened) > 0.25

    def draw() -> RGB:
        if light_fill:
            return hsv(rng, (0, 1), (0.3, 1), (0.0, 0.75))
        return hsv(rng, (0, 1), (0.0, 0.8), (0.8, 1.0))

    if scheme == "single":
        return [readable_on(rng, [opened], draw, MIN_CONTRAST)] * 8
    colours: list[RGB] = []
    for _ in range(8):
        best = readable_on(rng, [opened], draw, MIN_CONTRAST)
        for _ in range(200):
            if all(math.dist(best, other) >= 70 for other in colours):
                break
            best = readable_on(rng, [opened], draw, MIN_CONTRAST)
        colours.append(best)
    return colours


def draw_look(seed: int, fonts: list[str]) -> Look:
    """All look choices from one seed, in a fixed order so the same seed gives the same look on every machine.

    The font is chosen from a uniform draw mapped onto the installed candidates, so which fonts a machine has
    changes only the font, never the colours or sizes drawn after it.
    """
    rng = random.Random(seed)
    tile = rng.randint(16, 36)
    line = rng.choice([0, 1, 2])
    grid = any_colour(rng)
    window_bg = any_colour(rng)
    pad = rng.randint(0, 20)
    bar_fg = max([(0, 0, 0), (255, 255, 255)], key=lambda c: contrast(c, window_bg))
    button_text = rng.choice(["New game", "Restart", "New", ":)", "Again"])
    counter_format = rng.choice(["{:03d}", "{}", "Mines: {}", "{} left"])

    scheme = rng.choice(["classic", "single", "random"])
    # Opened tiles are often light; classic digits need a light fill, so redraw it until all eight read on it.
    for _ in range(500):
        if scheme == "classic" or rng.random() < 0.75:
            opened = hsv(rng, (0, 1), (0.0, 0.3), (0.78, 1.0))
        else:
            opened = hsv(rng, (0, 1), (0.0, 1.0), (0.12, 0.6))
        if scheme != "classic" or all(contrast(d, opened) >= MIN_CONTRAST for d in CLASSIC_DIGITS):
            break
    opened_border = hexc(mix(opened, (0, 0, 0), rng.uniform(0.12, 0.35))) if rng.random() < 0.5 else None
    digits = draw_digit_colours(rng, scheme, opened)

    style = rng.choice(COVERED_STYLES)
    fill, alt, light = draw_covered(rng, style, opened)
    bevel_width = rng.randint(1, 3)
    stipple = rng.choice(STIPPLES)
    covered = covered_parts(style, fill, alt)
    if line == 0 and style in ("flat", "stipple"):
        line = 1  # flat covered cells with nothing between them are one blank area: no one could play that
    if line and any(gap(grid, c) < MIN_COVER_GAP for c in covered):
        grid = mix(fill, (0, 0, 0) if sum(fill) > 380 else (255, 255, 255), 0.5)  # lines that cannot be seen

    font_u = rng.random()
    font_family = fonts[min(int(font_u * len(fonts)), len(fonts) - 1)]
    font_bold = rng.random() < 0.5
    font_frac = rng.uniform(0.45, 0.75)

    mine_on_opened = rng.random() < 0.5
    for _ in range(200):
        exploded = hsv(rng, (-0.05, 0.1), (0.6, 1.0), (0.7, 1.0))
        if gap(exploded, opened) >= MIN_COVER_GAP and all(gap(exploded, c) >= MIN_COVER_GAP for c in covered):
            break
    mine_bg = [opened] if mine_on_opened else covered
    mine_color = readable_on(rng, [*mine_bg, exploded], lambda: hsv(rng, (0, 1), (0, 1), (0.0, 0.4)), MIN_CONTRAST)
    mine_glyph = rng.choice(MINE_GLYPHS)
    mine_spikes = rng.randint(4, 8)
    mine_frac = rng.uniform(0.5, 0.8)

    flag_glyph = rng.choice(FLAG_GLYPHS)
    flag_color = readable_on(rng, covered, lambda: any_colour(rng), MIN_CONTRAST)
    pole_color = readable_on(rng, covered, lambda: hsv(rng, (0, 1), (0, 0.5), (0.0, 0.35)), 1.8)
    flag_frac = rng.uniform(0.5, 0.8)
    cross_wrong = rng.random() < 0.5
    cross_color = readable_on(rng, [*covered, flag_color], lambda: any_colour(rng), 1.8)
    win_flags = rng.random() < 0.5
    popup = rng.random() < 0.3
    popup_fill = any_colour(rng)
    popup_fg = max([(0, 0, 0), (255, 255, 255)], key=lambda c: contrast(c, popup_fill))

    return Look(
        seed=seed,
        tile=tile,
        line=line,
        grid_color=hexc(grid),
        window_bg=hexc(window_bg),
        pad=pad,
        bar_fg=hexc(bar_fg),
        button_text=button_text,
        counter_format=counter_format,
        covered_style=style,
        covered_fill=hexc(fill),
        covered_alt=hexc(alt),
        covered_light=hexc(light),
        bevel_width=bevel_width,
        stipple=stipple,
        opened_fill=hexc(opened),
        opened_border=opened_border,
        font_family=font_family,
        font_bold=font_bold,
        font_frac=round(font_frac, 3),
        digit_scheme=scheme,
        digit_colors=[hexc(d) for d in digits],
        mine_glyph=mine_glyph,
        mine_spikes=mine_spikes,
        mine_frac=round(mine_frac, 3),
        mine_color=hexc(mine_color),
        mine_on_opened=mine_on_opened,
        exploded_color=hexc(exploded),
        flag_glyph=flag_glyph,
        flag_color=hexc(flag_color),
        pole_color=hexc(pole_color),
        flag_frac=round(flag_frac, 3),
        cross_wrong=cross_wrong,
        cross_color=hexc(cross_color),
        win_flags=win_flags,
        popup=popup,
        popup_fill=hexc(popup_fill),
        popup_fg=hexc(popup_fg),
        covered_colours=[hexc(c) for c in covered],
    )


def installed_fonts(root: tk.Misc | None) -> list[str]:
    """The candidate families this machine really renders, so a look never silently falls back to a default.

    Tk maps Helvetica/Courier/Times to installed substitutes (which count); a name that resolves to the same
    family as a made-up name is only Tk's fallback and is dropped.  Without a display every candidate is kept.
    """
    if root is None:
        return list(FONT_CANDIDATES)
    families = set(tkfont.families(root))
    fallback = tkfont.Font(root=root, family="No Such Font Family 7f3a", size=-12).actual("family")
    chosen: list[str] = []
    resolved_seen: set[str] = set()
    for name in FONT_CANDIDATES:
        resolved = str(tkfont.Font(root=root, family=name, size=-12).actual("family"))
        if name not in families and resolved == fallback:
            continue
        if resolved in resolved_seen:
            continue
        resolved_seen.add(resolved)
        chosen.append(name)
    return chosen or ["TkDefaultFont"]


# ---------------------------------------------------------------- the rules


class Board:
    """The game's rules with no drawing in them, so correctness does not depend on the look."""

    def __init__(self, rows: int, cols: int, mines: int, first_click: str, deal_rng: random.Random) -> None:
        self.rows, self.cols, self.mine_count = rows, cols, mines
        self.first_click = first_click
        self.deal_rng = deal_rng
        self.mines: set[int] = set()
        self.opened: set[int] = set()
        self.flags: set[int] = set()
        self.counts: list[int] = [0] * (rows * cols)
        self.exploded: int | None = None
        self.state = "ready"  # ready (not dealt) -> playing -> won | lost
        self.around: list[list[int]] = [self._neighbours(i) for i in range(rows * cols)]

    def _neighbours(self, i: int) -> list[int]:
        """The up-to-8 cells around i; precomputed once because flood fill asks for them a lot."""
        r, c = divmod(i, self.cols)
        return [
            rr * self.cols + cc
            for rr in range(max(0, r - 1), min(self.rows, r + 2))
            for cc in range(max(0, c - 1), min(self.cols, c + 2))
            if (rr, cc) != (r, c)
        ]

    @property
    def ended(self) -> bool:
        """After a win or loss the board ignores clicks until a new game."""
        return self.state in ("won", "lost")

    def deal(self, first: int) -> None:
        """Place mines uniformly among the cells the first-click rule leaves eligible."""
        keep_free = {first} | (set(self.around[first]) if self.first_click == "zero" else set())
        cells = [i for i in range(self.rows * self.cols) if i not in keep_free]
        if len(cells) < self.mine_count:  # too dense for an opening: fall back to a safe first click
            cells = [i for i in range(self.rows * self.cols) if i != first]
        self.mines = set(self.deal_rng.sample(cells, self.mine_count))
        for i in range(self.rows * self.cols):
            self.counts[i] = sum(1 for j in self.around[i] if j in self.mines)
        self.state = "playing"

    def open(self, i: int) -> list[int]:
        """Open a covered unflagged cell (a 0 floods its neighbours); return the cells whose look changed."""
        if self.ended or i in self.opened or i in self.flags:
            return []
        if self.state == "ready":
            self.deal(i)
        if i in self.mines:
            self.exploded = i
            self.state = "lost"
            return [i]
        changed: list[int] = []
        stack = [i]
        while stack:
            j = stack.pop()
            if j in self.opened or j in self.flags:
                continue
            self.opened.add(j)
            changed.append(j)
            if self.counts[j] == 0:
                stack.extend(k for k in self.around[j] if k not in self.opened and k not in self.flags)
        if len(self.opened) == self.rows * self.cols - self.mine_count:
            self.state = "won"
        return changed

    def toggle_flag(self, i: int) -> bool:
        """Flag or unflag a covered cell; opened cells and ended games ignore it."""
        if self.ended or i in self.opened:
            return False
        self.flags ^= {i}
        return True


# ---------------------------------------------------------------- drawing


def tile_image(master: tk.Misc, size: int, pixel: Callable[[int, int], RGB | None]) -> tk.PhotoImage:
    """A tile background as one image: one canvas item per cell keeps a full redraw far under 100 ms."""
    img = tk.PhotoImage(master=master, width=size, height=size)
    rows = []
    clear: list[tuple[int, int]] = []
    for y in range(size):
        row = []
        for x in range(size):
            colour = pixel(x, y)
            if colour is None:
                clear.append((x, y))
                colour = (0, 0, 0)
            row.append(hexc(colour))
        rows.append("{" + " ".join(row) + "}")
    img.put(" ".join(rows), to=(0, 0))
    for x, y in clear:
        img.transparency_set(x, y, True)
    return img


class App:
    """The window: top bar, canvas board, event log; redraws only the cells a move changed."""

    def __init__(self, args: argparse.Namespace, look: Look, root: tk.Tk) -> None:
        self.args, self.look, self.root = args, look, root
        self.rows, self.cols, self.mines = args.rows, args.cols, args.mines
        self.deal_rng = random.Random(args.deal_seed) if args.deal_seed is not None else random.Random()
        self.log_file: IO[str] | None = open(args.log, "a", encoding="utf-8") if args.log else None  # noqa: SIM115
        self.game_no = 0
        self.items: list[list[int]] = [[] for _ in range(self.rows * self.cols)]
        self.tile = look.tile
        self.line = look.line
        self.size = self.tile - self.line  # the square content of a cell; the rest of the pitch is grid line

        root.title(f"Mines (look {look.seed})")
        root.geometry("+0+0")
        root.resizable(False, False)
        root.configure(bg=look.window_bg)
        frame = tk.Frame(root, bg=look.window_bg, padx=look.pad, pady=look.pad, bd=0, highlightthickness=0)
        frame.pack()
        bar = tk.Frame(frame, bg=look.window_bg)
        bar.pack(fill="x", pady=(0, max(2, look.pad // 2)))
        self.counter = tk.Label(bar, bg=look.window_bg, fg=look.bar_fg, font=("Courier", 14, "bold"), width=10)
        self.counter.pack(side="left")
        self.button = tk.Button(bar, text=look.button_text, command=self.new_game, highlightthickness=0)
        self.button.pack(side="left", expand=True)
        self.status = tk.Label(bar, bg=look.window_bg, fg=look.bar_fg, font=("Helvetica", 14, "bold"), width=10)
        self.status.pack(side="right")
        width = self.cols * self.tile + self.line
        height = self.rows * self.tile + self.line
        self.canvas = tk.Canvas(
            frame, width=width, height=height, bg=look.grid_color, highlightthickness=0, bd=0, relief="flat"
        )
        self.canvas.pack()
        self._make_resources()

        self.canvas.bind("<ButtonPress-1>", lambda e: self.on_click(e, "left"))
        self.canvas.bind("<ButtonPress-3>", lambda e: self.on_click(e, "right"))
        root.bind("<KeyPress-n>", lambda _e: self.new_game())
        root.bind("<F2>", lambda _e: self.new_game())
        root.protocol("WM_DELETE_WINDOW", self.quit)
        self.new_game()

    # -- resources

    def _make_resources(self) -> None:
        """Fonts and tile images built once per window: drawing a cell then only places items."""
        lk, s = self.look, self.size
        digit_px = max(6, round(lk.font_frac * self.tile))
        self.digit_font = tkfont.Font(
            root=self.root, family=lk.font_family, size=-digit_px, weight="bold" if lk.font_bold else "normal"
        )
        self.glyph_font = tkfont.Font(root=self.root, family="Helvetica", size=-max(6, round(s * 0.65)), weight="bold")
        self.star_font = tkfont.Font(root=self.root, family="Helvetica", size=-max(8, round(s * 1.1)), weight="bold")
        self.popup_font = tkfont.Font(
            root=self.root, family=lk.font_family, size=-max(10, round(self.tile * 0.6)), weight="bold"
        )
        fill, alt, light = unhex(lk.covered_fill), unhex(lk.covered_alt), unhex(lk.covered_light)
        opened = unhex(lk.opened_fill)
        border = unhex(lk.opened_border) if lk.opened_border else None
        edge = max(1, min(lk.bevel_width, s // 5))
        last = s - 1

        def on_rim(x: int, y: int) -> bool:
            return x in (0, last) or y in (0, last)

        def covered_px(x: int, y: int) -> RGB | None:
            if lk.covered_style == "bevel":
                if (y < edge and x < s - y) or (x < edge and y < s - x):
                    return light
                if y >= s - edge or x >= s - edge:
                    return alt
                return fill
            if lk.covered_style == "gradient":
                return mix(fill, alt, y / max(1, last))
            if lk.covered_style == "rounded-ish":
                if x in (0, last) and y in (0, last):
                    return None  # clipped corners let the grid colour through
                return alt if on_rim(x, y) else fill
            return fill

        def opened_px(x: int, y: int) -> RGB | None:
            return border if border is not None and on_rim(x, y) else opened

        exploded = unhex(lk.exploded_color)
        self.covered_img = tile_image(self.root, s, covered_px)
        self.opened_img = tile_image(self.root, s, opened_px)
        self.exploded_img = tile_image(self.root, s, lambda _x, _y: exploded)

    # -- events

    def log(self, **event: Any) -> None:
        """One JSON line per event, flushed at once so a harness tailing the file never waits."""
        if self.log_file is not None:
            self.log_file.write(json.dumps(event) + "\n")
            self.log_file.flush()

    def quit(self) -> None:
        """Close the log before the window goes."""
        if self.log_file is not None:
            self.log_file.close()
            self.log_file = None
        self.root.destroy()

    def new_game(self) -> None:
        """Fresh board and a full redraw; the popup of the last game goes with the old items."""
        self.game_no += 1
        self.board = Board(self.rows, self.cols, self.mines, self.args.first_click, self.deal_rng)
        self.canvas.delete("all")
        self.items = [[] for _ in range(self.rows * self.cols)]
        for i in range(self.rows * self.cols):
            self.draw_cell(i)
        self.update_bar()
        self.log(event="new", game=self.game_no, rows=self.rows, cols=self.cols, mines=self.mines)

    def cell_at(self, x: int, y: int) -> int | None:
        """Map a click to a cell; a click on a grid line counts for the cell it borders."""
        if x < 0 or y < 0:
            return None
        r, c = min(y // self.tile, self.rows - 1), min(x // self.tile, self.cols - 1)
        return r * self.cols + c

    def on_click(self, event: tk.Event, button: str) -> None:
        """Apply a click to the board, log it, and redraw just the cells it changed."""
        i = self.cell_at(event.x, event.y)
        if i is None:
            return
        b = self.board
        r, c = divmod(i, self.cols)
        self.log(event="click", game=self.game_no, row=r, col=c, button=button, t=time.time())
        was_ready = b.state == "ready"
        if button == "left":
            changed = b.open(i)
        else:
            changed = [i] if b.toggle_flag(i) else []
        if was_ready and b.state != "ready":
            self.log(event="layout", game=self.game_no, rows=self.rows, cols=self.cols, mines=sorted(b.mines))
        if b.ended:
            self.finish()
        else:
            for j in changed:
                self.draw_cell(j)
        self.update_bar()

    def finish(self) -> None:
        """Show the end (all mines at a loss, optional flags at a win), log it, and maybe draw the popup."""
        b, lk = self.board, self.look
        self.log(
            event="end",
            game=self.game_no,
            result=b.state,
            mines=sorted(b.mines),
            opened=sorted(b.opened),
            flags=sorted(b.flags),
            exploded=b.exploded,
        )
        for i in range(self.rows * self.cols):
            self.draw_cell(i)
        if lk.popup:
            self.draw_popup("You win" if b.state == "won" else "Game over")

    def update_bar(self) -> None:
        """Counter (mines − flags, or 0 once a win flagged every mine) and status text, outside the board."""
        b = self.board
        left = 0 if b.state == "won" and self.look.win_flags else self.mines - len(b.flags)
        self.counter.configure(text=self.look.counter_format.format(left))
        self.status.configure(text={"won": "You won", "lost": "Boom"}.get(b.state, ""))

    # -- drawing a cell

    def draw_cell(self, i: int) -> None:
        """Replace the items of one cell with those of its current state."""
        cv, b, lk = self.canvas, self.board, self.look
        for item in self.items[i]:
            cv.delete(item)
        r, c = divmod(i, self.cols)
        x0, y0 = c * self.tile + self.line, r * self.tile + self.line
        items: list[int] = []
        mine_shown = b.state == "lost" and i in b.mines and i not in b.flags
        if i == b.exploded:
            items.append(cv.create_image(x0, y0, image=self.exploded_img, anchor="nw"))
        elif i in b.opened or (mine_shown and lk.mine_on_opened):
            items.append(cv.create_image(x0, y0, image=self.opened_img, anchor="nw"))
        else:
            items += self.covered_items(x0, y0)
        if i in b.opened:
            n = b.counts[i]
            if n:
                cx, cy = x0 + self.size / 2, y0 + self.size / 2
                items.append(
                    cv.create_text(
                        cx, cy, text=str(n), fill=lk.digit_colors[n - 1], font=self.digit_font, anchor="center"
                    )
                )
        elif mine_shown:
            items += self.mine_items(x0, y0)
        elif i in b.flags or (b.state == "won" and lk.win_flags and i in b.mines):
            items += self.flag_items(x0, y0)
            if b.state == "lost" and lk.cross_wrong and i not in b.mines:
                items += self.cross_items(x0, y0)
        self.items[i] = items

    def covered_items(self, x0: int, y0: int) -> list[int]:
        """The covered background: one image, or two rectangles for a real Tk stipple.

        The stipple is anchored at each cell's corner (offset nw), so every covered cell shows the same pixels
        whatever the pitch, as a game blitting one bitmap would.
        """
        cv, lk, s = self.canvas, self.look, self.size
        if lk.covered_style != "stipple":
            return [cv.create_image(x0, y0, image=self.covered_img, anchor="nw")]
        return [
            cv.create_rectangle(x0, y0, x0 + s, y0 + s, fill=lk.covered_fill, outline="", width=0),
            cv.create_rectangle(
                x0, y0, x0 + s, y0 + s, fill=lk.covered_alt, outline="", width=0, stipple=lk.stipple, offset="nw"
            ),
        ]

    def mine_items(self, x0: int, y0: int) -> list[int]:
        """The mine glyph of this look, centred in the cell."""
        cv, lk, s = self.canvas, self.look, self.size
        cx, cy = x0 + s / 2, y0 + s / 2
        rad = lk.mine_frac * s / 2
        colour = lk.mine_color
        if lk.mine_glyph == "spiked":
            body = rad * 0.62
            width = max(1, round(s / 14))
            out = [cv.create_oval(cx - body, cy - body, cx + body, cy + body, fill=colour, outline="")]
            for k in range(lk.mine_spikes):
                a = 2 * math.pi * k / lk.mine_spikes + math.pi / 4
                out.append(
                    cv.create_line(cx, cy, cx + rad * math.cos(a), cy + rad * math.sin(a), fill=colour, width=width)
                )
            return out
        if lk.mine_glyph == "star":
            return [cv.create_text(cx, cy + s * 0.18, text="*", fill=colour, font=self.star_font, anchor="center")]
        if lk.mine_glyph == "square":
            h = rad * 0.75
            return [cv.create_rectangle(cx - h, cy - h, cx + h, cy + h, fill=colour, outline="")]
        return [cv.create_polygon(cx, cy - rad, cx + rad, cy, cx, cy + rad, cx - rad, cy, fill=colour, outline="")]

    def flag_items(self, x0: int, y0: int) -> list[int]:
        """The flag glyph of this look, drawn over the covered background."""
        cv, lk, s = self.canvas, self.look, self.size
        cx, cy = x0 + s / 2, y0 + s / 2
        h = lk.flag_frac * s
        if lk.flag_glyph == "pennant":
            top, bottom = cy - h / 2, cy + h / 2
            pole_x = cx + h * 0.12
            width = max(1, round(s / 16))
            return [
                cv.create_line(pole_x, top, pole_x, bottom, fill=lk.pole_color, width=width),
                cv.create_line(pole_x - h * 0.3, bottom, pole_x + h * 0.25, bottom, fill=lk.pole_color, width=width),
                cv.create_polygon(
                    pole_x,
                    top,
                    pole_x,
                    top + h * 0.5,
                    pole_x - h * 0.55,
                    top + h * 0.25,
                    fill=lk.flag_color,
                    outline="",
                ),
            ]
        if lk.flag_glyph in ("F", "!"):
            return [
                cv.create_text(cx, cy, text=lk.flag_glyph, fill=lk.flag_color, font=self.glyph_font, anchor="center")
            ]
        rad = h / 2.6
        return [cv.create_oval(cx - rad, cy - rad, cx + rad, cy + rad, fill=lk.flag_color, outline="")]

    def cross_items(self, x0: int, y0: int) -> list[int]:
        """An X over a wrong flag at a loss, when this look marks them."""
        cv, s = self.canvas, self.size
        m = s * 0.15
        width = max(1, round(s / 10))
        colour = self.look.cross_color
        return [
            cv.create_line(x0 + m, y0 + m, x0 + s - m, y0 + s - m, fill=colour, width=width),
            cv.create_line(x0 + s - m, y0 + m, x0 + m, y0 + s - m, fill=colour, width=width),
        ]

    def draw_popup(self, text: str) -> None:
        """A ~6x2-tile box over the middle of the board; it lives until the next new game clears the canvas."""
        cv, lk = self.canvas, self.look
        w = min(6 * self.tile, self.cols * self.tile - 4)
        h = min(2 * self.tile, self.rows * self.tile - 4)
        cx = (self.cols * self.tile + self.line) / 2
        cy = (self.rows * self.tile + self.line) / 2
        cv.create_rectangle(
            cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2, fill=lk.popup_fill, outline=lk.popup_fg, width=2
        )
        cv.create_text(cx, cy, text=text, fill=lk.popup_fg, font=self.popup_font, anchor="center")


# ---------------------------------------------------------------- entry point


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """Command line; the sizes are checked here so the board never has to handle impossible games."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--look", type=int, required=True, help="seed for every visual choice")
    p.add_argument("--rows", type=int, default=16)
    p.add_argument("--cols", type=int, default=30)
    p.add_argument("--mines", type=int, default=99)
    p.add_argument("--tile", type=int, default=None, help="override only the tile pitch in px")
    p.add_argument("--log", default=None, help="append JSON event lines here")
    p.add_argument("--first-click", choices=["zero", "safe"], default="zero")
    p.add_argument("--deal-seed", type=int, default=None, help="seed the mine layouts (default: unseeded)")
    p.add_argument("--print-look", action="store_true", help="print the look as JSON and exit")
    args = p.parse_args(argv)
    if args.rows < 2 or args.cols < 2 or not 1 <= args.mines < args.rows * args.cols:
        p.error("need rows, cols >= 2 and 1 <= mines < rows*cols")
    if args.tile is not None and args.tile < 8:
        p.error("--tile must be at least 8")
    return args


def main(argv: list[str] | None = None) -> int:
    """Draw the look, then print it or open the game window."""
    args = parse_args(argv)
    try:
        root: tk.Tk | None = tk.Tk(className="tkmines")
    except tk.TclError:
        if not args.print_look:
            raise
        root = None  # no display: --print-look still works, over all candidate fonts
    if root is not None:
        root.withdraw()  # hidden until built, so the first frame shown is complete
    look = draw_look(args.look, installed_fonts(root))
    if args.tile is not None:
        look.tile = args.tile
    if args.print_look:
        print(json.dumps(asdict(look), indent=2))
        if root is not None:
            root.destroy()
        return 0
    assert root is not None
    App(args, look, root)
    root.deiconify()
    root.focus_force()  # no window manager hands out focus, and keys n/F2 must reach the window
    root.mainloop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
