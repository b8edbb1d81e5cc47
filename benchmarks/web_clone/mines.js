// Web Mines: a Minesweeper page whose whole look and behaviour come from a seed (?look=SEED), for end-to-end tests
// of a screen-reading bot in real browsers.  Served by benchmarks/web_clone.py, which writes the events posted to
// /log as JSON lines: the harness compares them with what the bot believed it saw.
"use strict";

// ------------------------------------------------------------------ parameters

/** Read the URL: every knob a test needs, with the defaults of expert Minesweeper. */
function readParams() {
  const q = new URLSearchParams(window.location.search);
  const int = (name, fallback) => {
    const v = q.get(name);
    if (v === null || v === "" || !/^-?\d+$/.test(v)) return fallback;
    return Number(v);
  };
  const rows = Math.max(2, Math.min(99, int("rows", 16)));
  const cols = Math.max(2, Math.min(99, int("cols", 30)));
  const mines = Math.max(1, Math.min(rows * cols - 1, int("mines", 99)));
  const tile = int("tile", null);
  return {
    look: int("look", 1),
    rows,
    cols,
    mines,
    first: q.get("first") === "safe" ? "safe" : "zero",
    deal: int("deal", null),
    tile: tile === null ? null : Math.max(8, Math.min(96, tile)),
    log: q.get("log") !== "0",
    shift: readMove(q.get("shift")),
    scroll: readMove(q.get("scroll")),
    zoom: readMove(q.get("zoom")),
    moveWait: Math.max(0, Math.min(10000, int("movewait", 250))),
  };
}

/**
 * A mid-game move of the page, "N:V": after the page has logged N clicks (in the whole session), do V.  Null when
 * absent or malformed, so a bad value leaves the page as it was rather than half-moving it.
 */
function readMove(text) {
  const m = text === null ? null : /^(\d+):(-?\d+(?:\.\d+)?)$/.exec(text);
  return m ? { after: Number(m[1]), value: Number(m[2]) } : null;
}

/** The page's own CSS zoom (the "zoom" move), which renderers multiply into the device pixel ratio. */
let pageZoom = 1;

/** Device pixels per CSS px of the board: the browser's ratio times the page's own zoom, so sprites stay crisp. */
function pixelRatio() {
  return (window.devicePixelRatio || 1) * pageZoom;
}

// ------------------------------------------------------------------ random numbers

/**
 * A small seeded generator (xorshift32 behind an integer hash of the seed).  Math.random cannot be seeded, and the
 * same seed must give the same look in every browser, so the page carries its own.
 */
function makeRng(seed) {
  // Fold seeds beyond 32 bits in, then hash, so neighbouring seeds (1, 2, 3) start unrelated streams.
  let s = (seed % 4294967296) ^ Math.floor(seed / 4294967296);
  s = Math.imul(s ^ (s >>> 16), 0x7feb352d);
  s = Math.imul(s ^ (s >>> 15), 0x846ca68b);
  s ^= s >>> 16;
  if (s === 0) s = 0x2545f491; // xorshift stays at zero forever
  const next = () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return s >>> 0;
  };
  for (let i = 0; i < 8; i++) next(); // the first outputs still resemble the hashed seed
  const rng = {
    next,
    /** Uniform in [0, 1). */
    float: () => next() / 4294967296,
    /** Integer in [lo, hi], both ends included. */
    int: (lo, hi) => lo + Math.floor(rng.float() * (hi - lo + 1)),
    uniform: (lo, hi) => lo + rng.float() * (hi - lo),
    pick: (items) => items[Math.floor(rng.float() * items.length)],
    chance: (p) => rng.float() < p,
  };
  return rng;
}

// ------------------------------------------------------------------ colours (RGB triples)

const CLASSIC_DIGITS = [
  [0, 0, 255], [0, 128, 0], [255, 0, 0], [0, 0, 128], [128, 0, 0], [0, 128, 128], [0, 0, 0], [128, 128, 128],
];
/** Below this WCAG contrast a glyph is redrawn; 2.2 still accepts the classic grey 8 on silver. */
const MIN_CONTRAST = 2.2;
/** Covered and opened tiles differ at least this much in some channel, as in any playable game. */
const MIN_COVER_GAP = 48;

/** CSS wants #rrggbb. */
function hex(rgb) {
  return "#" + rgb.map((v) => v.toString(16).padStart(2, "0")).join("");
}

/** WCAG relative luminance: readability depends on perceived brightness, not on channel sums. */
function luminance(rgb) {
  const lin = (v) => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(rgb[0]) + 0.7152 * lin(rgb[1]) + 0.0722 * lin(rgb[2]);
}

/** WCAG contrast ratio, 1 to 21: one number for "can this glyph be read on that fill". */
function contrast(a, b) {
  const la = luminance(a);
  const lb = luminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/** Largest per-channel difference: how "clearly different" tiles are measured. */
function channelGap(a, b) {
  return Math.max(Math.abs(a[0] - b[0]), Math.abs(a[1] - b[1]), Math.abs(a[2] - b[2]));
}

/** Blend a toward b; bevel edges, hover tints and borders are derived colours. */
function mix(a, b, t) {
  return [0, 1, 2].map((k) => Math.round(a[k] + (b[k] - a[k]) * t));
}

/** A colour inside HSV ranges, so "light", "dark" or "muted" can be asked for directly. */
function hsv(rng, hr, sr, vr) {
  const h = (((rng.uniform(hr[0], hr[1]) % 1) + 1) % 1) * 6;
  const s = rng.uniform(sr[0], sr[1]);
  const v = rng.uniform(vr[0], vr[1]);
  const i = Math.floor(h);
  const f = h - i;
  const p = v * (1 - s);
  const q = v * (1 - s * f);
  const t = v * (1 - s * (1 - f));
  const rgb = [[v, t, p], [q, v, p], [p, v, t], [p, q, v], [t, p, v], [v, p, q]][i % 6];
  return rgb.map((x) => Math.round(x * 255));
}

/** Any colour of the cube: looks must not lean on a palette the bot may have been tuned to. */
function anyColour(rng) {
  return [rng.int(0, 255), rng.int(0, 255), rng.int(0, 255)];
}

/** Black or white, whichever reads better on a background: for labels whose colour is not part of the test. */
function inkOn(bg) {
  return contrast([0, 0, 0], bg) >= contrast([255, 255, 255], bg) ? [0, 0, 0] : [255, 255, 255];
}

/** Redraw a glyph colour until it reads on every background it is drawn over; fall back to black or white. */
function readableOn(backgrounds, draw, need) {
  for (let k = 0; k < 200; k++) {
    const c = draw();
    if (backgrounds.every((bg) => contrast(c, bg) >= need)) return c;
  }
  const worst = (c) => Math.min(...backgrounds.map((bg) => contrast(c, bg)));
  return worst([0, 0, 0]) >= worst([255, 255, 255]) ? [0, 0, 0] : [255, 255, 255];
}

// ------------------------------------------------------------------ the look

/** Fonts Debian ships (fonts-dejavu, fonts-urw-base35) with a generic fallback, so every name paints something. */
const FONTS = [
  '"DejaVu Sans", sans-serif',
  '"DejaVu Serif", serif',
  '"DejaVu Sans Mono", monospace',
  '"Nimbus Sans", "Liberation Sans", sans-serif',
  '"Nimbus Roman", "Liberation Serif", serif',
  '"Nimbus Mono PS", "Liberation Mono", monospace',
  "sans-serif",
  "monospace",
];
/** Characters DejaVu Sans draws, used as mine glyphs by some looks. */
const MINE_CHARS = ["\u25cf", "\u2731", "\u2739", "*"];

/** The colours a covered tile shows in bulk; each must stand apart from the opened fill. */
function coveredParts(style, fill, alt, hover) {
  const parts = style === "gradient" ? [fill, alt, mix(fill, alt, 0.5)] : style === "sprite" ? [fill, alt] : [fill];
  return hover ? parts.concat(parts.map((c) => mix(c, [255, 255, 255], HOVER_ALPHA))) : parts;
}
/** The hover highlight is white laid over the covered tile at this opacity. */
const HOVER_ALPHA = 0.16;

/** Fill, second colour and light edge of the covered tile, redrawn until it is unmistakably not opened. */
function drawCovered(rng, style, opened, hover) {
  for (let k = 0; k < 500; k++) {
    const fill = anyColour(rng);
    let alt = fill;
    let light = fill;
    if (style === "bevel") {
      alt = mix(fill, [0, 0, 0], rng.uniform(0.3, 0.6));
      light = mix(fill, [255, 255, 255], rng.uniform(0.3, 0.7));
    } else if (style === "gradient" || style === "sprite") {
      alt = anyColour(rng);
      if (channelGap(fill, alt) < 40) continue;
    }
    if (coveredParts(style, fill, alt, hover).every((c) => channelGap(c, opened) >= MIN_COVER_GAP)) {
      return { fill, alt, light };
    }
  }
  // Cannot really happen (half the cube is far from any colour); a fixed, valid answer keeps the page alive.
  return { fill: inkOn(opened), alt: inkOn(opened), light: inkOn(opened) };
}

/** Digit colours: classic, one colour, or eight distinct random ones, each readable on the opened fill. */
function drawDigitColours(rng, scheme, opened) {
  if (scheme === "classic") return CLASSIC_DIGITS.slice();
  const lightFill = luminance(opened) > 0.25;
  const draw = () => (lightFill ? hsv(rng, [0, 1], [0.3, 1], [0, 0.75]) : hsv(rng, [0, 1], [0, 0.8], [0.8, 1]));
  if (scheme === "single") {
    const c = readableOn([opened], draw, MIN_CONTRAST);
    return Array(8).fill(c);
  }
  const colours = [];
  for (let d = 0; d < 8; d++) {
    let best = readableOn([opened], draw, MIN_CONTRAST);
    for (let k = 0; k < 200; k++) {
      if (colours.every((o) => Math.hypot(o[0] - best[0], o[1] - best[1], o[2] - best[2]) >= 70)) break;
      best = readableOn([opened], draw, MIN_CONTRAST);
    }
    colours.push(best);
  }
  return colours;
}

/**
 * Every visual and behavioural choice, drawn from the seed in a fixed order so a seed means the same page in every
 * browser.  Colours stay RGB triples here; the renderers turn them into CSS.
 */
function drawLook(seed) {
  const rng = makeRng(seed);
  const L = { seed };
  L.renderer = rng.pick(["dom", "canvas"]);
  L.tile = rng.int(16, 26);
  L.gap = rng.pick([0, 0, 1, 1, 2]);
  L.pageBg = anyColour(rng);
  L.pageMargin = rng.int(0, 40);
  L.centre = rng.chance(0.35);
  L.panelBg = rng.chance(0.5) ? L.pageBg : anyColour(rng);
  L.panelPad = rng.int(0, 16);
  L.panelFrame = rng.pick(["none", "line", "raised", "sunken", "rounded"]);
  L.panelFrameColour = anyColour(rng);
  L.barFg = inkOn(L.panelBg);
  L.barGap = rng.int(2, 12);
  L.counterStyle = rng.pick(["led", "plain", "label", "left"]);
  L.ledColour = hsv(rng, [-0.05, 0.12], [0.7, 1], [0.85, 1]);
  L.button = rng.pick(["face", "face", "text"]);
  L.faceColour = hsv(rng, [0.11, 0.17], [0.6, 1], [0.9, 1]);
  L.faceSize = rng.int(24, 34);
  L.buttonFill = anyColour(rng);
  L.timer = rng.chance(0.5);
  L.footer = rng.pick([null, null, "Left click opens, right click flags. F2: new game.", "Web Mines"]);

  const scheme = rng.pick(["classic", "single", "random"]);
  // Opened tiles are often light; classic digits need a light fill, so redraw it until all eight read on it.
  let opened = [192, 192, 192];
  for (let k = 0; k < 500; k++) {
    if (scheme === "classic" || rng.chance(0.75)) opened = hsv(rng, [0, 1], [0, 0.3], [0.78, 1]);
    else opened = hsv(rng, [0, 1], [0, 1], [0.12, 0.6]);
    if (scheme !== "classic" || CLASSIC_DIGITS.every((d) => contrast(d, opened) >= MIN_CONTRAST)) break;
  }
  L.opened = opened;
  L.openedBorder = rng.chance(0.35) ? mix(opened, [0, 0, 0], rng.uniform(0.12, 0.35)) : null;
  L.digitScheme = scheme;
  L.digits = drawDigitColours(rng, scheme, opened);

  // Behaviours real web games have; each look takes none, some or all of them.
  L.hover = rng.chance(0.4);
  L.cascade = rng.pick([0, 0, 1, 1, 2, 4]); // BFS rings revealed per animation frame; 0 = all at once
  L.fadeMs = rng.chance(0.4) ? rng.int(80, 250) : 0;
  L.pressed = rng.pick(["none", "opened", "darker"]);

  L.coveredStyle = rng.pick(["bevel", "flat", "gradient", "sprite"]);
  const cov = drawCovered(rng, L.coveredStyle, opened, L.hover);
  L.coveredFill = cov.fill;
  L.coveredAlt = cov.alt;
  L.coveredLight = cov.light;
  L.bevel = rng.int(1, 3);
  L.gradientAngle = rng.pick([180, 135]);
  L.spriteRadius = rng.uniform(0.1, 0.3);
  const covered = coveredParts(L.coveredStyle, cov.fill, cov.alt, false);
  if (L.gap === 0 && L.coveredStyle === "flat") L.gap = 1; // flat cells with nothing between: one blank area
  L.grid = anyColour(rng);
  if (L.gap && covered.some((c) => channelGap(L.grid, c) < MIN_COVER_GAP)) {
    L.grid = mix(cov.fill, luminance(cov.fill) > 0.3 ? [0, 0, 0] : [255, 255, 255], 0.5);
  }

  L.font = rng.pick(FONTS);
  L.bold = rng.chance(0.6);
  L.fontFrac = rng.uniform(0.55, 0.8);

  L.mineOnOpened = rng.chance(0.5);
  let exploded = [255, 0, 0];
  for (let k = 0; k < 200; k++) {
    exploded = hsv(rng, [-0.05, 0.1], [0.6, 1], [0.7, 1]);
    if ([opened, ...covered].every((c) => channelGap(exploded, c) >= MIN_COVER_GAP)) break;
  }
  L.exploded = exploded;
  const mineBg = L.mineOnOpened ? [opened] : covered;
  L.mineColour = readableOn([...mineBg, exploded], () => hsv(rng, [0, 1], [0, 1], [0, 0.4]), MIN_CONTRAST);
  L.mineGlyph = rng.pick(["spiked", "star", "square", "char"]);
  L.mineChar = rng.pick(MINE_CHARS);
  L.mineSpikes = rng.int(4, 8);
  L.mineFrac = rng.uniform(0.5, 0.8);

  L.flagGlyph = rng.pick(["pennant", "pennant", "banner", "letter", "triangle"]);
  L.flagColour = readableOn(covered, () => anyColour(rng), MIN_CONTRAST);
  L.poleColour = readableOn(covered, () => hsv(rng, [0, 1], [0, 0.5], [0, 0.35]), 1.8);
  L.flagFrac = rng.uniform(0.5, 0.8);
  L.crossWrong = rng.chance(0.5);
  L.crossColour = readableOn([...covered, L.flagColour], () => anyColour(rng), 1.8);
  L.winFlags = rng.chance(0.5);
  return L;
}

// ------------------------------------------------------------------ the rules

/** Plain Minesweeper with no drawing in it, so the rules do not depend on the look or on animation. */
class Board {
  constructor(rows, cols, mines, first, dealRng) {
    this.rows = rows;
    this.cols = cols;
    this.mineCount = mines;
    this.first = first;
    this.dealRng = dealRng;
    this.n = rows * cols;
    this.mine = new Uint8Array(this.n);
    this.opened = new Uint8Array(this.n);
    this.flag = new Uint8Array(this.n);
    this.count = new Uint8Array(this.n);
    this.openedCount = 0;
    this.flagCount = 0;
    this.exploded = null;
    this.state = "ready"; // ready (not dealt) -> playing -> won | lost
    this.around = [];
    for (let i = 0; i < this.n; i++) this.around.push(this.neighbours(i));
  }

  /** The up-to-8 cells around i, computed once because flood fill asks for them a lot. */
  neighbours(i) {
    const r = Math.floor(i / this.cols);
    const c = i % this.cols;
    const out = [];
    for (let rr = Math.max(0, r - 1); rr <= Math.min(this.rows - 1, r + 1); rr++) {
      for (let cc = Math.max(0, c - 1); cc <= Math.min(this.cols - 1, c + 1); cc++) {
        if (rr !== r || cc !== c) out.push(rr * this.cols + cc);
      }
    }
    return out;
  }

  get ended() {
    return this.state === "won" || this.state === "lost";
  }

  /** Place the mines uniformly among the cells the first-click rule leaves eligible (partial Fisher-Yates). */
  deal(first) {
    const free = new Set([first]);
    if (this.first === "zero") this.around[first].forEach((j) => free.add(j));
    let cells = [];
    for (let i = 0; i < this.n; i++) if (!free.has(i)) cells.push(i);
    if (cells.length < this.mineCount) {
      cells = []; // too dense for an opening: fall back to a safe first click
      for (let i = 0; i < this.n; i++) if (i !== first) cells.push(i);
    }
    for (let k = 0; k < this.mineCount; k++) {
      const j = k + Math.floor(this.dealRng.float() * (cells.length - k));
      [cells[k], cells[j]] = [cells[j], cells[k]];
      this.mine[cells[k]] = 1;
    }
    for (let i = 0; i < this.n; i++) {
      this.count[i] = this.around[i].reduce((sum, j) => sum + this.mine[j], 0);
    }
    this.state = "playing";
  }

  /**
   * Open covered unflagged cells (several at once for a chord).  Returns the newly opened cells as BFS rings from
   * the sources, so the page can animate a cascade ring by ring; a mine among the sources loses the game.
   */
  open(sources) {
    sources = sources.filter((i) => !this.opened[i] && !this.flag[i]);
    if (this.ended || sources.length === 0) return [];
    if (this.state === "ready") this.deal(sources[0]);
    const boom = sources.find((i) => this.mine[i]);
    if (boom !== undefined) {
      this.exploded = boom;
      this.state = "lost";
      return [];
    }
    const rings = [];
    let ring = sources.slice();
    ring.forEach((i) => (this.opened[i] = 1));
    while (ring.length) {
      rings.push(ring);
      const next = [];
      for (const i of ring) {
        if (this.count[i] !== 0) continue;
        for (const j of this.around[i]) {
          if (!this.opened[j] && !this.flag[j]) {
            this.opened[j] = 1;
            next.push(j);
          }
        }
      }
      ring = next;
    }
    this.openedCount += rings.reduce((sum, r) => sum + r.length, 0);
    if (this.openedCount === this.n - this.mineCount) this.state = "won";
    return rings;
  }

  /** Flag or unflag a covered cell; opened cells and ended games ignore it. */
  toggleFlag(i) {
    if (this.ended || this.opened[i]) return false;
    this.flag[i] ^= 1;
    this.flagCount += this.flag[i] ? 1 : -1;
    return true;
  }

  /** A chord (middle click) on an opened number whose flags are all placed opens the rest of its neighbours. */
  chordTargets(i) {
    if (this.ended || !this.opened[i] || this.count[i] === 0) return [];
    const flags = this.around[i].reduce((sum, j) => sum + this.flag[j], 0);
    if (flags !== this.count[i]) return [];
    return this.around[i].filter((j) => !this.opened[j] && !this.flag[j]);
  }

  /** Sorted flat indices of the cells where test is true: the log's lists. */
  list(array) {
    const out = [];
    for (let i = 0; i < this.n; i++) if (array[i]) out.push(i);
    return out;
  }
}

// ------------------------------------------------------------------ glyph painters (canvas 2D, device pixels)

/** Centre text in a box by its ink, not its line box, so every font's digits sit in the middle of the tile. */
function fillCentredText(ctx, text, cx, cy) {
  ctx.textAlign = "center";
  ctx.textBaseline = "alphabetic";
  const m = ctx.measureText(text);
  const asc = m.actualBoundingBoxAscent || 0;
  const desc = m.actualBoundingBoxDescent || 0;
  ctx.fillText(text, cx, Math.round(cy + (asc - desc) / 2));
}

/** The look's mine, centred in the box; used on the board canvas and for the DOM renderer's sprite. */
function paintMine(ctx, L, x, y, w, h) {
  const s = Math.min(w, h);
  const cx = x + w / 2;
  const cy = y + h / 2;
  const rad = (L.mineFrac * s) / 2;
  ctx.fillStyle = ctx.strokeStyle = hex(L.mineColour);
  if (L.mineGlyph === "spiked") {
    ctx.lineWidth = Math.max(1, s / 12);
    ctx.lineCap = "round";
    ctx.beginPath();
    for (let k = 0; k < L.mineSpikes; k++) {
      const a = (2 * Math.PI * k) / L.mineSpikes + Math.PI / 4;
      ctx.moveTo(cx, cy);
      ctx.lineTo(cx + rad * Math.cos(a), cy + rad * Math.sin(a));
    }
    ctx.stroke();
    ctx.beginPath();
    ctx.arc(cx, cy, rad * 0.62, 0, 2 * Math.PI);
    ctx.fill();
    // The little shine of the classic mine, in whichever of black and white shows on the body.
    ctx.fillStyle = hex(inkOn(L.mineColour));
    ctx.beginPath();
    ctx.arc(cx - rad * 0.22, cy - rad * 0.22, Math.max(0.8, rad * 0.14), 0, 2 * Math.PI);
    ctx.fill();
  } else if (L.mineGlyph === "star") {
    const points = Math.max(5, L.mineSpikes);
    ctx.beginPath();
    for (let k = 0; k < points * 2; k++) {
      const r = k % 2 ? rad * 0.45 : rad;
      const a = (Math.PI * k) / points - Math.PI / 2;
      ctx.lineTo(cx + r * Math.cos(a), cy + r * Math.sin(a));
    }
    ctx.closePath();
    ctx.fill();
  } else if (L.mineGlyph === "square") {
    const half = rad * 0.75;
    ctx.fillRect(Math.round(cx - half), Math.round(cy - half), Math.round(2 * half), Math.round(2 * half));
  } else {
    ctx.font = `bold ${Math.round(rad * 2.1)}px "DejaVu Sans", sans-serif`;
    fillCentredText(ctx, L.mineChar, cx, cy);
  }
}

/** The look's flag, drawn with paths (no font needed) except the letter style. */
function paintFlag(ctx, L, x, y, w, h) {
  const s = Math.min(w, h);
  const cx = x + w / 2;
  const cy = y + h / 2;
  const fh = L.flagFrac * s;
  const top = cy - fh / 2;
  const bottom = cy + fh / 2;
  const line = Math.max(1, Math.round(s / 14));
  ctx.fillStyle = hex(L.flagColour);
  if (L.flagGlyph === "letter") {
    ctx.font = `bold ${Math.round(fh)}px "DejaVu Sans", sans-serif`;
    fillCentredText(ctx, "F", cx, cy);
    return;
  }
  if (L.flagGlyph === "triangle") {
    ctx.beginPath();
    ctx.moveTo(cx - fh * 0.35, top);
    ctx.lineTo(cx + fh * 0.45, cy);
    ctx.lineTo(cx - fh * 0.35, bottom);
    ctx.closePath();
    ctx.fill();
    return;
  }
  const pole = Math.round(L.flagGlyph === "pennant" ? cx + fh * 0.1 : cx - fh * 0.3);
  ctx.fillStyle = hex(L.poleColour);
  ctx.fillRect(pole, Math.round(top), line, Math.round(fh));
  ctx.fillRect(Math.round(cx - fh * 0.35), Math.round(bottom - line), Math.round(fh * 0.7), line);
  ctx.fillStyle = hex(L.flagColour);
  ctx.beginPath();
  if (L.flagGlyph === "pennant") {
    ctx.moveTo(pole + line, top);
    ctx.lineTo(pole + line, top + fh * 0.5);
    ctx.lineTo(pole - fh * 0.5, top + fh * 0.25);
  } else {
    ctx.rect(pole + line, top, fh * 0.6, fh * 0.42);
  }
  ctx.closePath();
  ctx.fill();
}

/** An X over a wrong flag at a loss, for looks that mark them. */
function paintCross(ctx, L, x, y, w, h) {
  const m = Math.min(w, h) * 0.18;
  ctx.strokeStyle = hex(L.crossColour);
  ctx.lineWidth = Math.max(1, Math.min(w, h) / 10);
  ctx.lineCap = "round";
  ctx.beginPath();
  ctx.moveTo(x + m, y + m);
  ctx.lineTo(x + w - m, y + h - m);
  ctx.moveTo(x + w - m, y + m);
  ctx.lineTo(x + m, y + h - m);
  ctx.stroke();
}

/** A covered tile as an image (the "sprite" style): a rounded body with an edge colour and a shine. */
function paintSpriteTile(ctx, L, x, y, w, h) {
  const r = Math.min(w, h) * L.spriteRadius;
  ctx.fillStyle = hex(L.coveredAlt);
  ctx.fillRect(x, y, w, h);
  const inset = Math.max(1, Math.round(Math.min(w, h) / 12));
  ctx.fillStyle = hex(L.coveredFill);
  ctx.beginPath();
  ctx.roundRect(x + inset, y + inset, w - 2 * inset, h - 2 * inset, r);
  ctx.fill();
  ctx.fillStyle = hex(mix(L.coveredFill, [255, 255, 255], 0.3));
  ctx.beginPath();
  ctx.roundRect(x + inset * 2, y + inset * 2, (w - 4 * inset) * 0.5, Math.max(1, inset), inset / 2);
  ctx.fill();
}

/** The smiley of the new-game button; its mood follows the game like the classic one. */
function paintFace(ctx, L, size, mood) {
  const c = size / 2;
  const r = size * 0.42;
  ctx.clearRect(0, 0, size, size);
  ctx.fillStyle = hex(L.faceColour);
  ctx.strokeStyle = "#000";
  ctx.lineWidth = Math.max(1, size / 24);
  ctx.beginPath();
  ctx.arc(c, c, r, 0, 2 * Math.PI);
  ctx.fill();
  ctx.stroke();
  ctx.fillStyle = "#000";
  const ex = r * 0.38;
  const ey = c - r * 0.25;
  if (mood === "dead") {
    ctx.beginPath();
    for (const sx of [c - ex, c + ex]) {
      const d = r * 0.14;
      ctx.moveTo(sx - d, ey - d);
      ctx.lineTo(sx + d, ey + d);
      ctx.moveTo(sx + d, ey - d);
      ctx.lineTo(sx - d, ey + d);
    }
    ctx.stroke();
  } else if (mood === "cool") {
    ctx.fillRect(c - r * 0.7, ey - r * 0.12, r * 1.4, r * 0.12);
    for (const sx of [c - ex, c + ex]) {
      ctx.beginPath();
      ctx.arc(sx, ey + r * 0.02, r * 0.22, 0, Math.PI);
      ctx.fill();
    }
  } else {
    for (const sx of [c - ex, c + ex]) {
      ctx.beginPath();
      ctx.arc(sx, ey, r * 0.1, 0, 2 * Math.PI);
      ctx.fill();
    }
  }
  ctx.beginPath();
  if (mood === "oh") {
    ctx.arc(c, c + r * 0.38, r * 0.17, 0, 2 * Math.PI);
    ctx.stroke();
  } else if (mood === "dead") {
    ctx.arc(c, c + r * 0.62, r * 0.38, 1.15 * Math.PI, 1.85 * Math.PI);
    ctx.stroke();
  } else {
    ctx.arc(c, c + r * 0.05, r * 0.5, 0.2 * Math.PI, 0.8 * Math.PI);
    ctx.stroke();
  }
}

/** Draw a painter into a new canvas of size x size device pixels: sprites for the DOM renderer. */
function sprite(size, paint) {
  const cv = document.createElement("canvas");
  cv.width = cv.height = size;
  paint(cv.getContext("2d"), 0, 0, size, size);
  return cv;
}

// ------------------------------------------------------------------ geometry shared by both renderers

/** Where cell i sits in CSS px: gap lines are drawn between and around the tiles. */
function cellBox(L, cols, i) {
  const r = Math.floor(i / cols);
  const c = i % cols;
  const pitch = L.tile + L.gap;
  return { x: L.gap + c * pitch, y: L.gap + r * pitch };
}

// ------------------------------------------------------------------ DOM renderer: one element per cell

/** Cells as divs in a CSS grid, styled by class; CSS does the fades and hover, like many web clones. */
class DomRenderer {
  constructor(L, rows, cols, host) {
    this.L = L;
    this.rows = rows;
    this.cols = cols;
    this.host = host;
    this.style = document.createElement("style");
    document.head.appendChild(this.style);
    this.cells = [];
    const frag = document.createDocumentFragment();
    for (let i = 0; i < rows * cols; i++) {
      const d = document.createElement("div");
      d.dataset.i = String(i);
      this.cells.push(d);
      frag.appendChild(d);
    }
    host.appendChild(frag);
    this.last = new Array(rows * cols).fill("");
    this.buildSheet();
  }

  /** The look's CSS, with glyph sprites rendered at the current device pixel ratio so they stay sharp. */
  buildSheet() {
    const L = this.L;
    const t = L.tile;
    const dpr = pixelRatio();
    const px = Math.max(1, Math.round(t * dpr));
    const url = (paint) => `url(${sprite(px, (ctx, x, y, w, h) => paint(ctx, L, x, y, w, h)).toDataURL()})`;
    const fill = hex(L.coveredFill);
    let covered = `background-color: ${fill};`;
    if (L.coveredStyle === "bevel") {
      const light = hex(L.coveredLight);
      const dark = hex(L.coveredAlt);
      covered += `border: ${L.bevel}px solid; border-color: ${light} ${dark} ${dark} ${light};`;
    } else if (L.coveredStyle === "gradient") {
      covered += `background-image: linear-gradient(${L.gradientAngle}deg, ${fill}, ${hex(L.coveredAlt)});`;
    } else if (L.coveredStyle === "sprite") {
      covered += `background-image: ${url(paintSpriteTile)}; background-size: 100% 100%;`;
    }
    const digits = L.digits.map((c, k) => `#board .c.d${k + 1} { color: ${hex(c)}; }`).join("\n");
    const border = L.openedBorder ? `border: 1px solid ${hex(L.openedBorder)};` : "";
    const fade = L.fadeMs ? `transition: background-color ${L.fadeMs}ms ease-out;` : "";
    const pressed =
      L.pressed === "opened"
        ? `background: ${hex(L.opened)}; ${border}`
        : `${covered} box-shadow: inset 0 0 0 ${t}px rgba(0, 0, 0, 0.22);`;
    const hover = L.hover
      ? `#board:not(.ended) .c.cov:hover { box-shadow: inset 0 0 0 ${t}px rgba(255, 255, 255, ${HOVER_ALPHA}); }`
      : "";
    const glyph = `width: ${t}px; height: ${t}px; margin: -${t / 2}px 0 0 -${t / 2}px; background-size: ${t}px ${t}px;`;
    this.style.textContent = `
#board.dom { display: grid; grid-template-columns: repeat(${this.cols}, ${t}px); grid-auto-rows: ${t}px;
  gap: ${L.gap}px; padding: ${L.gap}px; background: ${hex(L.grid)}; width: max-content; }
#board .c { font-family: ${L.font}; font-weight: ${L.bold ? 700 : 400};
  font-size: ${Math.round(L.fontFrac * t)}px; }
#board .c.cov { ${covered} }
${hover}
#board .c.op { background-color: ${hex(L.opened)}; ${border} ${fade} }
#board .c.pr { ${pressed} }
#board .c.ex { background-color: ${hex(L.exploded)}; }
#board .c.flag::after, #board .c.mine::after, #board .c.cross::before { ${glyph} }
#board .c.flag::after { background-image: ${url(paintFlag)}; }
#board .c.mine::after { background-image: ${url(paintMine)}; }
#board .c.cross::before { background-image: ${url(paintCross)}; z-index: 1; }
${digits}`;
    this.dpr = dpr;
  }

  /** Set one cell's classes and text; skipped when nothing changed.  CSS runs the fades: never asks for frames. */
  paint(i, v) {
    let cls = "c " + v.base;
    if (v.glyph === "flag" || v.glyph === "wrong") cls += " flag";
    if (v.glyph === "wrong") cls += " cross";
    if (v.glyph === "mine") cls += " mine";
    if (v.digit) cls += " d" + v.digit;
    if (this.last[i] === cls) return;
    this.last[i] = cls;
    const d = this.cells[i];
    d.className = cls;
    d.textContent = v.digit ? String(v.digit) : "";
    return false;
  }

  /** The cell under a mouse event, or -1 for the grid lines and outside. */
  cellAt(e) {
    const d = e.target.closest ? e.target.closest("#board .c") : null;
    return d ? Number(d.dataset.i) : -1;
  }

  /** Page zoom changed the device pixel ratio: redraw the sprites so glyphs stay crisp. */
  rescale() {
    if (pixelRatio() !== this.dpr) this.buildSheet();
  }

  /** CSS transitions animate the fades by themselves. */
  animate() {
    return false;
  }

  setHover() {}
}

// ------------------------------------------------------------------ canvas renderer: one canvas for the board

/** The whole board painted into one canvas at device resolution, like canvas-based clones. */
class CanvasRenderer {
  constructor(L, rows, cols, host) {
    this.L = L;
    this.rows = rows;
    this.cols = cols;
    this.canvas = document.createElement("canvas");
    host.appendChild(this.canvas);
    this.ctx = this.canvas.getContext("2d");
    this.views = new Array(rows * cols).fill(null);
    this.fadeStart = new Map(); // cell -> time its fade began
    this.hover = -1;
    this.rescale(true);
  }

  /** Size the backing store for the current device pixel ratio (page zoom, scale factor) and repaint it all. */
  rescale(force) {
    const dpr = pixelRatio();
    if (!force && dpr === this.dpr) return;
    this.dpr = dpr;
    const L = this.L;
    this.cssW = this.cols * (L.tile + L.gap) + L.gap;
    this.cssH = this.rows * (L.tile + L.gap) + L.gap;
    this.canvas.style.width = this.cssW + "px";
    this.canvas.style.height = this.cssH + "px";
    this.canvas.width = Math.round(this.cssW * dpr);
    this.canvas.height = Math.round(this.cssH * dpr);
    const paintTile = (c, x, y, w, h) => paintSpriteTile(c, L, x, y, w, h);
    this.tileSprite = L.coveredStyle === "sprite" ? sprite(Math.round(L.tile * dpr), paintTile) : null;
    this.ctx.fillStyle = hex(L.grid);
    this.ctx.fillRect(0, 0, this.canvas.width, this.canvas.height);
    this.views.forEach((v, i) => v && this.draw(i, v, 1));
  }

  /** A cell's rectangle in device pixels, snapped to whole pixels so tiles stay crisp at any scale. */
  rect(i) {
    const b = cellBox(this.L, this.cols, i);
    const d = this.dpr;
    const x = Math.round(b.x * d);
    const y = Math.round(b.y * d);
    return { x, y, w: Math.round((b.x + this.L.tile) * d) - x, h: Math.round((b.y + this.L.tile) * d) - y };
  }

  /** The covered background of the look. */
  drawCovered(x, y, w, h) {
    const ctx = this.ctx;
    const L = this.L;
    ctx.fillStyle = hex(L.coveredFill);
    ctx.fillRect(x, y, w, h);
    if (L.coveredStyle === "bevel") {
      const b = Math.max(1, Math.round(L.bevel * this.dpr));
      ctx.fillStyle = hex(L.coveredLight);
      ctx.beginPath();
      ctx.moveTo(x, y);
      ctx.lineTo(x + w, y);
      ctx.lineTo(x + w - b, y + b);
      ctx.lineTo(x + b, y + b);
      ctx.lineTo(x + b, y + h - b);
      ctx.lineTo(x, y + h);
      ctx.fill();
      ctx.fillStyle = hex(L.coveredAlt);
      ctx.beginPath();
      ctx.moveTo(x + w, y);
      ctx.lineTo(x + w, y + h);
      ctx.lineTo(x, y + h);
      ctx.lineTo(x + b, y + h - b);
      ctx.lineTo(x + w - b, y + h - b);
      ctx.lineTo(x + w - b, y + b);
      ctx.fill();
    } else if (L.coveredStyle === "gradient") {
      const diag = L.gradientAngle === 135;
      const g = ctx.createLinearGradient(x, y, diag ? x + w : x, y + h);
      g.addColorStop(0, hex(L.coveredFill));
      g.addColorStop(1, hex(L.coveredAlt));
      ctx.fillStyle = g;
      ctx.fillRect(x, y, w, h);
    } else if (L.coveredStyle === "sprite") {
      ctx.drawImage(this.tileSprite, x, y, w, h);
    }
  }

  /** The opened background: fill, with a one-pixel border in some looks. */
  drawOpened(x, y, w, h) {
    const ctx = this.ctx;
    const L = this.L;
    if (L.openedBorder) {
      const b = Math.max(1, Math.round(this.dpr));
      ctx.fillStyle = hex(L.openedBorder);
      ctx.fillRect(x, y, w, h);
      ctx.fillStyle = hex(L.opened);
      ctx.fillRect(x + b, y + b, w - 2 * b, h - 2 * b);
    } else {
      ctx.fillStyle = hex(L.opened);
      ctx.fillRect(x, y, w, h);
    }
  }

  /** Paint one cell; alpha < 1 lays the opened look over the covered one (a fade in progress). */
  draw(i, v, alpha) {
    const ctx = this.ctx;
    const L = this.L;
    const { x, y, w, h } = this.rect(i);
    ctx.save();
    ctx.beginPath();
    ctx.rect(x, y, w, h);
    ctx.clip(); // glyphs and fonts must never bleed into the grid lines or a neighbour
    if (v.base === "cov" || alpha < 1) this.drawCovered(x, y, w, h);
    ctx.globalAlpha = v.base === "cov" ? 1 : alpha;
    if (v.base === "op") this.drawOpened(x, y, w, h);
    else if (v.base === "ex") {
      ctx.fillStyle = hex(L.exploded);
      ctx.fillRect(x, y, w, h);
    } else if (v.base === "pr") {
      if (L.pressed === "opened") this.drawOpened(x, y, w, h);
      else {
        this.drawCovered(x, y, w, h);
        ctx.fillStyle = "rgba(0, 0, 0, 0.22)";
        ctx.fillRect(x, y, w, h);
      }
    }
    if (v.base === "cov" && L.hover && i === this.hover) {
      ctx.fillStyle = `rgba(255, 255, 255, ${HOVER_ALPHA})`;
      ctx.fillRect(x, y, w, h);
    }
    if (v.digit) {
      ctx.fillStyle = hex(L.digits[v.digit - 1]);
      ctx.font = `${L.bold ? 700 : 400} ${Math.round(L.fontFrac * L.tile * this.dpr)}px ${L.font}`;
      fillCentredText(ctx, String(v.digit), x + w / 2, y + h / 2);
    }
    if (v.glyph === "flag" || v.glyph === "wrong") paintFlag(ctx, L, x, y, w, h);
    if (v.glyph === "wrong") paintCross(ctx, L, x, y, w, h);
    if (v.glyph === "mine") paintMine(ctx, L, x, y, w, h);
    ctx.restore();
  }

  /**
   * Remember and paint a cell's view.  A covered cell turning opened starts its fade in looks that fade; then the
   * answer is true, and the caller must run animation frames until animate() says the fades are done.
   */
  paint(i, v) {
    const old = this.views[i];
    this.views[i] = v;
    if (this.L.fadeMs && v.base === "op" && old && old.base !== "op") {
      this.fadeStart.set(i, performance.now());
      this.draw(i, v, 0);
      return true;
    }
    if (v.base !== "op") this.fadeStart.delete(i);
    this.draw(i, v, 1);
    return false;
  }

  /** One animation frame of the fades; true while some are still running. */
  animate(now) {
    for (const [i, start] of this.fadeStart) {
      const a = Math.max(0, Math.min(1, (now - start) / this.L.fadeMs)); // a frame may start before the fade
      this.draw(i, this.views[i], a);
      if (a >= 1) this.fadeStart.delete(i);
    }
    return this.fadeStart.size > 0;
  }

  /** Move the hover highlight (drawn, since a canvas has no :hover). */
  setHover(i) {
    if (!this.L.hover || i === this.hover) return;
    const old = this.hover;
    this.hover = i;
    if (old >= 0 && this.views[old]) this.draw(old, this.views[old], 1);
    if (i >= 0 && this.views[i]) this.draw(i, this.views[i], 1);
  }

  /** The cell under a mouse event; a click on a grid line counts for the cell whose pitch it is in. */
  cellAt(e) {
    const box = this.canvas.getBoundingClientRect();
    const x = ((e.clientX - box.left) / box.width) * this.cssW - this.L.gap;
    const y = ((e.clientY - box.top) / box.height) * this.cssH - this.L.gap;
    const pitch = this.L.tile + this.L.gap;
    if (x < 0 || y < 0) return -1;
    const c = Math.floor(x / pitch);
    const r = Math.floor(y / pitch);
    return r < this.rows && c < this.cols ? r * this.cols + c : -1;
  }
}

// ------------------------------------------------------------------ the event log

/**
 * Events go to the server one at a time, each request waiting for the previous answer, so the file's order is the
 * page's order.  Every event also carries a sequence number.  keepalive lets the last event out during unload.
 */
class EventLog {
  constructor(enabled) {
    this.enabled = enabled;
    this.seq = 0;
    this.tail = Promise.resolve();
  }

  /** Queue one event; the promise settles once it was sent (or failed), so callers can wait for it. */
  post(event) {
    if (!this.enabled) return Promise.resolve();
    const body = JSON.stringify({ ...event, seq: ++this.seq });
    const init = { method: "POST", body, keepalive: true, headers: { "Content-Type": "application/json" } };
    this.tail = this.tail
      .then(() => fetch("/log", init))
      .catch(() => undefined); // no server (file://, a test without /log): the game still plays
    return this.tail;
  }
}

// ------------------------------------------------------------------ the page moves by itself

/**
 * Layout shifts, scrolls and zooms in the middle of a session, as real pages do them (a banner that loads late
 * above the game, a page that scrolls to an element, a zoom control), driven by the page itself so a test needs no
 * input of its own: ?shift=N:DY grows a banner above the game by DY CSS px, ?scroll=N:DY scrolls the page by DY
 * (the page is then made taller than the window so that it can), ?zoom=N:Z sets the game's CSS zoom to Z.  Each
 * happens once the page has logged N clicks and then had no input for ?movewait ms (default 250: the player is
 * thinking, not in the middle of a batch of clicks); N = 0 moves the page as it opens.  Every move is logged as
 * "moved", with where the board is afterwards, and clicks outside the board's cells are logged as "stray".
 */
class PageMover {
  constructor(params, game) {
    this.game = game;
    this.wait = params.moveWait;
    this.pending = ["shift", "scroll", "zoom"].filter((kind) => params[kind]).map((kind) => ({ kind, ...params[kind] }));
    this.active = this.pending.length > 0;
    this.timer = null;
    if (!this.active) return;
    if (params.shift) {
      this.banner = document.createElement("div");
      this.banner.id = "banner";
      this.banner.style.cssText = `height: 0; background: ${hex(mix(game.L.pageBg, inkOn(game.L.pageBg), 0.35))};`;
      const app = document.getElementById("app");
      app.insertBefore(this.banner, app.firstChild);
    }
    if (params.scroll) {
      // Room below the game to scroll into, whatever the window's size.
      const room = document.createElement("div");
      room.style.height = Math.max(2000, 3 * window.innerHeight) + "px";
      document.body.appendChild(room);
    }
  }

  /** Moves due before any click: made as the page opens, once it is laid out. */
  start() {
    if (this.active) this.due(0).forEach((m) => this.apply(m));
  }

  /** A click was logged: restart the quiet wait, after which the moves now due are made. */
  clicked(count) {
    if (!this.active || !this.pending.some((m) => m.after <= count)) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.due(count).forEach((m) => this.apply(m)), this.wait);
  }

  /** Take the moves due after ``count`` clicks off the list. */
  due(count) {
    const now = this.pending.filter((m) => m.after <= count);
    this.pending = this.pending.filter((m) => m.after > count);
    return now;
  }

  apply(m) {
    const game = this.game;
    if (m.kind === "shift") {
      this.banner.style.height = Math.max(0, this.banner.offsetHeight + m.value) + "px";
    } else if (m.kind === "scroll") {
      window.scrollBy(0, m.value);
    } else {
      pageZoom = Math.max(0.25, Math.min(5, m.value));
      document.getElementById("app").style.zoom = String(pageZoom);
      game.r.rescale();
      if (game.mood) game.setFace(game.mood);
    }
    const box = game.boardEl.getBoundingClientRect();
    game.log.post({
      event: "moved", game: game.gameNo, kind: m.kind, value: m.value, clicks: game.clicks, scrollY: window.scrollY,
      board: [box.left, box.top, box.width, box.height].map((v) => Math.round(v * 100) / 100),
      viewport: [window.innerWidth, window.innerHeight],
    });
  }

  /** A press that is on no cell of the board (grid lines, the page around it): logged, so a test can count them. */
  stray(e) {
    if (!this.active) return;
    const button = ["left", "middle", "right"][e.button] || String(e.button);
    this.game.log.post({ event: "stray", game: this.game.gameNo, x: e.clientX, y: e.clientY, button });
  }
}

// ------------------------------------------------------------------ the game: input, animation, header

/** Wires rules, renderer, header and log together; what the player sees lags the rules during a cascade. */
class Game {
  constructor(params, L) {
    this.p = params;
    this.L = L;
    this.log = new EventLog(params.log);
    this.dealRng = makeRng(params.deal !== null ? params.deal : (L.seed ^ Date.now()) >>> 0);
    this.gameNo = 0;
    this.boardEl = document.getElementById("board");
    this.counterEl = document.getElementById("counter");
    this.timerEl = document.getElementById("timer");
    this.buttonEl = document.getElementById("newgame");
    this.buildChrome();
    const R = L.renderer === "canvas" ? CanvasRenderer : DomRenderer;
    this.boardEl.classList.add(L.renderer);
    this.r = new R(L, params.rows, params.cols, this.boardEl);
    this.clicks = 0; // cells clicked in the whole session, for the page's own moves
    this.mover = new PageMover(params, this);
    this.bindInput();
    this.newGame();
  }

  /** Page, panel, header and footer styles of the look, all in CSS px so page zoom scales them naturally. */
  buildChrome() {
    const L = this.L;
    const s = document.body.style;
    s.background = hex(L.pageBg);
    s.padding = L.pageMargin + "px";
    if (L.centre) s.textAlign = "center";
    const panel = document.getElementById("panel").style;
    panel.background = hex(L.panelBg);
    panel.padding = L.panelPad + "px";
    panel.color = hex(L.barFg);
    panel.textAlign = "left";
    const frame = hex(L.panelFrameColour);
    const light = hex(mix(L.panelBg, [255, 255, 255], 0.6));
    const dark = hex(mix(L.panelBg, [0, 0, 0], 0.45));
    const frames = {
      none: "",
      line: `border: 1px solid ${frame};`,
      raised: `border: 3px solid; border-color: ${light} ${dark} ${dark} ${light};`,
      sunken: `border: 2px solid; border-color: ${dark} ${light} ${light} ${dark};`,
      rounded: `border: 2px solid ${frame}; border-radius: 8px;`,
    };
    panel.cssText += frames[L.panelFrame];
    const bar = document.getElementById("bar").style;
    bar.marginBottom = L.barGap + "px";
    bar.font = `bold 16px ${L.font}`;
    const counter = this.counterEl.style;
    if (L.counterStyle === "led") {
      counter.background = "#000";
      counter.color = hex(L.ledColour);
      counter.font = 'bold 22px "DejaVu Sans Mono", monospace';
      counter.padding = "1px 3px";
      this.timerEl.style.cssText = counter.cssText;
    }
    if (!L.timer) this.timerEl.style.visibility = "hidden";
    const btn = this.buttonEl.style;
    if (L.button === "face") {
      this.faceCanvas = document.createElement("canvas");
      this.buttonEl.appendChild(this.faceCanvas);
      btn.padding = "2px";
      btn.background = hex(L.panelBg);
      btn.border = "2px outset " + hex(mix(L.panelBg, [128, 128, 128], 0.3));
    } else {
      this.buttonEl.textContent = "New game";
      btn.font = `14px ${L.font}`;
      btn.background = hex(L.buttonFill);
      btn.color = hex(inkOn(L.buttonFill));
      btn.border = `1px solid ${hex(mix(L.buttonFill, [0, 0, 0], 0.4))}`;
      btn.borderRadius = "4px";
      btn.padding = "3px 10px";
    }
    const footer = document.getElementById("footer");
    footer.textContent = L.footer || "";
    footer.style.cssText = `margin-top: 6px; font: 12px ${L.font};`;
  }

  /** A fresh board, a full repaint and the "new" event; the old game's pending cascade and end screen are dropped. */
  newGame() {
    this.gameNo += 1;
    this.b = new Board(this.p.rows, this.p.cols, this.p.mines, this.p.first, this.dealRng);
    this.shown = new Uint8Array(this.b.n); // opened cells the player can already see
    this.rings = []; // cascade rings still to reveal
    this.endDrawn = false;
    this.pressedCell = -1;
    this.leftDown = false;
    this.started = null;
    this.stopped = null;
    this.endPending = false;
    this.boardEl.classList.remove("ended");
    this.paintAll();
    this.updateBar();
    this.setFace("smile");
    this.log.post({
      event: "new", game: this.gameNo, rows: this.p.rows, cols: this.p.cols, mines: this.p.mines, look: this.L.seed,
    });
  }

  /** What one cell shows now: base (cov, op, pr, ex), glyph (flag, wrong, mine) and digit. */
  view(i) {
    const b = this.b;
    const end = this.endDrawn ? b.state : null;
    if (end === "lost") {
      if (i === b.exploded) return { base: "ex", glyph: "mine", digit: 0 };
      if (b.mine[i] && !b.flag[i]) return { base: this.L.mineOnOpened ? "op" : "cov", glyph: "mine", digit: 0 };
      if (b.flag[i] && !b.mine[i] && this.L.crossWrong) return { base: "cov", glyph: "wrong", digit: 0 };
    }
    if (end === "won" && this.L.winFlags && b.mine[i]) return { base: "cov", glyph: "flag", digit: 0 };
    if (this.shown[i]) return { base: "op", glyph: null, digit: b.count[i] };
    if (b.flag[i]) return { base: "cov", glyph: "flag", digit: 0 };
    if (i === this.pressedCell && !b.ended && this.L.pressed !== "none") return { base: "pr", glyph: null, digit: 0 };
    return { base: "cov", glyph: null, digit: 0 };
  }

  /** Paint one cell, and keep the frame loop going when the renderer started a fade there. */
  paintCell(i) {
    if (this.r.paint(i, this.view(i))) this.kick();
  }

  paintAll() {
    for (let i = 0; i < this.b.n; i++) this.paintCell(i);
  }

  /** Counter (mines − flags; 0 once a win flagged every mine), formatted as the look says. */
  updateBar() {
    const b = this.b;
    const left = b.state === "won" && this.L.winFlags ? 0 : b.mineCount - b.flagCount;
    const led = left < 0 ? "-" + String(-left).padStart(2, "0") : String(left).padStart(3, "0");
    const text = { led, plain: String(left), label: `Mines: ${left}`, left: `${left} left` }[this.L.counterStyle];
    this.counterEl.textContent = text;
    const now = this.stopped || Date.now();
    const secs = this.started === null ? 0 : Math.min(999, Math.floor((now - this.started) / 1000));
    this.timerEl.textContent = this.L.counterStyle === "led" ? String(secs).padStart(3, "0") : String(secs);
  }

  /** Redraw the face button in a mood (smile, oh, dead, cool), at the current device pixel ratio. */
  setFace(mood) {
    if (!this.faceCanvas) return;
    this.mood = mood;
    const dpr = pixelRatio();
    const size = this.L.faceSize;
    const px = Math.round(size * dpr);
    this.faceCanvas.width = this.faceCanvas.height = px;
    this.faceCanvas.style.width = this.faceCanvas.style.height = size + "px";
    paintFace(this.faceCanvas.getContext("2d"), this.L, px, mood);
  }

  /** Log a click on a cell, as the Tk clone does: every click on a cell, whatever it does. */
  logClick(i, button) {
    const row = Math.floor(i / this.b.cols);
    const col = i % this.b.cols;
    this.log.post({ event: "click", game: this.gameNo, row, col, button, t: Date.now() / 1000 });
    this.clicks += 1;
    this.mover.clicked(this.clicks);
  }

  /** Open cells (a left click, or a chord's targets), then reveal them as the look animates them. */
  openCells(sources) {
    const b = this.b;
    const wasReady = b.state === "ready";
    const wasEnded = b.ended;
    const rings = b.open(sources);
    if (wasReady && b.state !== "ready") {
      this.started = Date.now();
      this.log.post({ event: "layout", game: this.gameNo, rows: b.rows, cols: b.cols, mines: b.list(b.mine) });
    }
    this.reveal(rings);
    if (b.ended && !wasEnded) this.finish();
  }

  leftClick(i) {
    this.logClick(i, "left");
    this.openCells([i]);
  }

  rightClick(i) {
    this.logClick(i, "right");
    if (this.b.toggleFlag(i)) {
      this.paintCell(i);
      this.updateBar();
    }
  }

  middleClick(i) {
    this.logClick(i, "middle");
    const targets = this.b.chordTargets(i);
    if (targets.length) this.openCells(targets);
  }

  /** Show newly opened cells: all at once, or a few BFS rings per animation frame in looks that cascade. */
  reveal(rings) {
    if (!rings.length) return;
    if (!this.L.cascade) {
      rings.forEach((ring) => ring.forEach((i) => this.show(i)));
      return;
    }
    this.rings.push(...rings);
    this.kick();
  }

  show(i) {
    this.shown[i] = 1;
    this.paintCell(i);
  }

  /** Make sure one animation loop runs while cascades, fades or an end screen are pending. */
  kick() {
    if (!this.frameRequested) {
      this.frameRequested = true;
      requestAnimationFrame((now) => this.frame(now));
    }
  }

  /** One frame: the next cascade rings, the canvas fades, and the end screen once everything is visible. */
  frame(now) {
    this.frameRequested = false;
    const game = this.gameNo;
    for (let k = 0; k < this.L.cascade && this.rings.length; k++) this.rings.shift().forEach((i) => this.show(i));
    const fading = this.r.animate(now);
    if (this.rings.length || fading) this.kick();
    if (!this.rings.length && this.endPending && game === this.gameNo) this.drawEnd();
  }

  /**
   * The game ended: log it first, and draw the end screen only once the event was sent and the cascade has been
   * shown, so a harness that sees the end screen can already read the end in the log.
   */
  finish() {
    const b = this.b;
    const game = this.gameNo;
    this.stopped = Date.now();
    this.boardEl.classList.add("ended");
    const sent = this.log.post({
      event: "end", game, result: b.state, mines: b.list(b.mine), opened: b.list(b.opened), flags: b.list(b.flag),
      exploded: b.exploded,
    });
    if (b.state === "lost") this.rings = []; // the loss screen shows everything at once
    sent.then(() => {
      if (game !== this.gameNo) return;
      this.endPending = true;
      this.kick();
    });
  }

  drawEnd() {
    this.endPending = false;
    this.endDrawn = true;
    const b = this.b;
    for (let i = 0; i < b.n; i++) if (b.opened[i]) this.shown[i] = 1;
    this.paintAll();
    this.updateBar();
    this.setFace(b.state === "won" ? "cool" : "dead");
  }

  /** Mouse handling as in desktop Minesweeper: left acts on release (pressed look while held), right on press. */
  bindInput() {
    const board = this.boardEl;
    board.addEventListener("contextmenu", (e) => e.preventDefault());
    document.addEventListener("contextmenu", (e) => e.preventDefault());
    document.addEventListener("mousedown", (e) => {
      if (!board.contains(e.target) && !this.buttonEl.contains(e.target)) this.mover.stray(e);
    });
    board.addEventListener("mousedown", (e) => {
      e.preventDefault(); // no text selection, no focus change, no middle-click autoscroll
      const i = this.r.cellAt(e);
      if (i < 0) this.mover.stray(e);
      if (e.button === 0) {
        this.leftDown = true;
        this.press(i);
        if (!this.b.ended) this.setFace("oh");
      } else if (e.button === 2 && i >= 0) {
        this.rightClick(i);
      } else if (e.button === 1) {
        this.middleDown = true;
      }
    });
    board.addEventListener("mousemove", (e) => {
      const i = this.r.cellAt(e);
      if (this.leftDown && e.buttons & 1) this.press(i);
      this.r.setHover(this.b.ended ? -1 : i);
    });
    board.addEventListener("mouseleave", () => {
      this.press(-1);
      this.r.setHover(-1);
    });
    // Releases are watched on the whole window: a press that ends outside the board must still let go.
    window.addEventListener("mouseup", (e) => {
      const i = board.contains(e.target) ? this.r.cellAt(e) : -1;
      if (e.button === 0 && this.leftDown) {
        this.leftDown = false;
        this.press(-1);
        if (!this.b.ended) this.setFace("smile");
        if (i >= 0) this.leftClick(i);
      } else if (e.button === 1 && this.middleDown) {
        this.middleDown = false;
        if (i >= 0) this.middleClick(i);
      }
    });
    this.buttonEl.addEventListener("click", () => this.newGame());
    this.buttonEl.addEventListener("mousedown", (e) => e.preventDefault()); // keep keyboard focus on the page
    window.addEventListener("keydown", (e) => {
      if (e.key === "F2" || (e.key === "n" && !e.ctrlKey && !e.altKey && !e.metaKey)) {
        e.preventDefault();
        this.newGame();
      }
    });
    window.addEventListener("resize", () => {
      this.r.rescale();
      if (this.mood) this.setFace(this.mood);
    });
    setInterval(() => this.updateBar(), 250); // the timer, in looks that show one
  }

  /** Move the pressed look to cell i (-1: none); only covered unflagged cells of a running game look pressed. */
  press(i) {
    const b = this.b;
    const target = i >= 0 && !b.ended && !this.shown[i] && !b.opened[i] && !b.flag[i] ? i : -1;
    if (target === this.pressedCell) return;
    const old = this.pressedCell;
    this.pressedCell = target;
    if (old >= 0) this.paintCell(old);
    if (target >= 0) this.paintCell(target);
  }

  /** For debugging and tests: the rules' state and what is shown. */
  state() {
    const b = this.b;
    return {
      game: this.gameNo, state: b.state, rows: b.rows, cols: b.cols, mines: b.list(b.mine), opened: b.list(b.opened),
      flags: b.list(b.flag), exploded: b.exploded, shown: b.list(this.shown), endDrawn: this.endDrawn,
    };
  }
}

// ------------------------------------------------------------------ start

/** Build the page from the URL, then show it in one go. */
function start() {
  const params = readParams();
  const L = drawLook(params.look);
  if (params.tile !== null) L.tile = params.tile;
  const game = new Game(params, L);
  document.getElementById("app").hidden = false;
  game.mover.start();
  window.webMines = {
    look: L.seed,
    params,
    lookChoices: L,
    state: () => game.state(),
    newGame: () => game.newGame(),
  };
}

start();
