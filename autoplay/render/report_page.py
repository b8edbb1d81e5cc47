"""One self-contained HTML page about a session: summary, a row per game, a filmstrip per game.

Everything the page shows is inside the file (pictures as ``data:`` URIs,
charts as inline SVG, styles inline, no script), so it opens offline, can be
mailed, and looks the same in a year.  This module only lays out what it is
given; :mod:`autoplay.replay.session_report` decides what goes in.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape


@dataclass(frozen=True)
class PageFrame:
    """One decision in a filmstrip: ``badge`` is certain, guess, over, mismatch or failed."""

    title: str
    image: str | None
    move: str
    badge: str
    badge_text: str
    lines: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class PageGame:
    number: int
    result: str
    cells: list[str]  # the game's row in the table, already formatted, after number and result
    final_image: str | None
    frames: list[PageFrame] = field(default_factory=list)


@dataclass(frozen=True)
class PageSection:
    """A titled block of trusted markup (an SVG chart) with an explanatory sentence."""

    heading: str
    text: str
    markup: str


STYLE = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;background:#f4f5f7;color:#1d2330}
header{background:#1d2330;color:#fff;padding:18px 28px}
header h1{margin:0;font-size:22px}header p{margin:4px 0 0;color:#c9cfdb}
main{padding:8px 28px 40px;max-width:1800px}
h2{font-size:18px;margin:26px 0 10px}
.facts{display:flex;flex-wrap:wrap;gap:12px}
.fact{background:#fff;border-radius:8px;padding:10px 16px;box-shadow:0 1px 2px #0002;min-width:150px}
.fact b{display:block;font-size:22px}.fact span{color:#5b6475;font-size:13px}
.card{background:#fff;border-radius:8px;padding:12px 16px;box-shadow:0 1px 2px #0002;overflow-x:auto}
.card p{margin:0 0 8px;color:#5b6475;font-size:13px}
table{border-collapse:collapse;background:#fff;box-shadow:0 1px 2px #0002;border-radius:8px}
th,td{padding:6px 12px;text-align:right;border-bottom:1px solid #e3e6ec;font-size:14px;vertical-align:middle}
th{background:#eef0f4;font-weight:600}td.l,th.l{text-align:left}
.won{color:#1a7f37;font-weight:600}.lost{color:#c62828;font-weight:600}.other{color:#8a6d00;font-weight:600}
.game{margin-top:22px}
.strip{display:flex;align-items:flex-start;gap:12px;overflow-x:auto;padding:4px 2px 12px;scroll-snap-type:x proximity}
.frame{flex:0 0 auto;width:420px;background:#fff;border-radius:8px;box-shadow:0 1px 2px #0002;
  scroll-snap-align:start;overflow:hidden}
.frame{margin:0}.frame[data-kind=guess]{box-shadow:0 0 0 3px #d97706}
.frame[data-kind=mismatch],.frame[data-kind=failed]{box-shadow:0 0 0 3px #c62828}
.frame img{display:block;width:100%;height:auto;background:#ddd}
.frame .txt{padding:8px 10px 10px;font-size:13px;line-height:1.35}
.frame .top{display:flex;justify-content:space-between;align-items:center;gap:8px;margin-bottom:4px}
.frame .move{font-weight:600;word-break:break-word}
.frame ul{margin:4px 0 0;padding-left:18px;color:#3b4352}
.frame .problem{color:#c62828}
.badge{border-radius:10px;padding:1px 8px;font-size:12px;white-space:nowrap;color:#fff}
.certain{background:#1a7f37}.safest{background:#2f6fb0}.guess{background:#d97706}.over{background:#5b6475}
.mismatch,.failed{background:#c62828}
.legend{font-size:13px;color:#3b4352}
.legend i{display:inline-block;width:12px;height:12px;border-radius:2px;margin:0 4px -1px 10px}
"""

#: What the marks on a frame mean (render.layers and render.cells draw them).
LEGEND = (
    '<p class="legend">Heat map: mine probability of each hidden cell'
    '<i style="background:#28be3c"></i>safe<i style="background:#ffd700"></i>25%'
    '<i style="background:#dc2828"></i>mine; '
    "green dot: certainly safe, red cross: certainly a mine; ring: the chosen move "
    '(<span style="color:#00a0ff">blue</span> reveal, <span style="color:#c800c8">magenta</span> flag). '
    "Guesses are outlined in orange, decisions the replay did not reproduce in red.</p>"
)


def render_page(
    title: str,
    subtitle: str,
    facts: list[tuple[str, str]],
    sections: list[PageSection],
    columns: list[str],
    games: list[PageGame],
    *,
    steps_heading: str = "Every decision",
    legend: str = LEGEND,
    item: str = "decisions",
) -> str:
    """The page as one HTML string; every text given is escaped, only section markup and ``legend`` (trusted
    markup, like a section's) are taken as is."""
    out = [
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
        "<meta name='viewport' content='width=device-width, initial-scale=1'>",
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>",
        f"<header><h1>{escape(title)}</h1><p>{escape(subtitle)}</p></header><main>",
        "<h2>Summary</h2><div class='facts'>",
    ]
    out += [f"<div class='fact'><b>{escape(value)}</b><span>{escape(name)}</span></div>" for name, value in facts]
    out.append("</div>")
    for section in sections:
        out.append(f"<h2>{escape(section.heading)}</h2><div class='card'><p>{escape(section.text)}</p>")
        out.append(section.markup + "</div>")
    out.append(_games_table(columns, games))
    out.append(f"<h2>{escape(steps_heading)}</h2>" + legend)
    out += [_filmstrip(game, item) for game in games]
    out.append("</main></body></html>\n")
    return "".join(out)


def _result_class(result: str) -> str:
    return result if result in ("won", "lost") else "other"


def _games_table(columns: list[str], games: list[PageGame]) -> str:
    head = "".join(f"<th>{escape(c)}</th>" for c in columns)
    rows = []
    for game in games:
        final = f"<img src='{game.final_image}' alt='game {game.number} at its end'>" if game.final_image else ""
        cells = "".join(f"<td>{escape(c)}</td>" for c in game.cells)
        rows.append(
            f"<tr><td><a href='#game-{game.number}'>{game.number}</a></td>"
            f"<td class='l {_result_class(game.result)}'>{escape(game.result)}</td>{cells}<td class='l'>{final}</td></tr>"
        )
    return (
        "<h2>Games</h2><table><tr><th>game</th><th class='l'>result</th>"
        f"{head}<th class='l'>last board</th></tr>{''.join(rows)}</table>"
    )


def _filmstrip(game: PageGame, item: str = "decisions") -> str:
    frames = "".join(_frame(frame) for frame in game.frames) or f"<p>No {escape(item)} were recorded.</p>"
    heading = f"Game {game.number}: <span class='{_result_class(game.result)}'>{escape(game.result)}</span>"
    count = f" ({len(game.frames)} {item}, scroll sideways)" if game.frames else ""
    return f"<section class='game' id='game-{game.number}'><h2>{heading}{escape(count)}</h2><div class='strip'>{frames}</div></section>"


def _frame(frame: PageFrame) -> str:
    image = f"<img src='{frame.image}' alt='{escape(frame.title)}'>" if frame.image else ""
    items = [f"<li>{escape(line)}</li>" for line in frame.lines]
    items += [f"<li class='problem'>{escape(line)}</li>" for line in frame.problems]
    listing = f"<ul>{''.join(items)}</ul>" if items else ""
    return (
        f"<figure class='frame' data-kind='{escape(frame.badge)}'>{image}<figcaption class='txt'><div class='top'>"
        f"<span>{escape(frame.title)}</span><span class='badge {escape(frame.badge)}'>{escape(frame.badge_text)}</span>"
        f"</div><div class='move'>{escape(frame.move)}</div>{listing}</figcaption></figure>"
    )
