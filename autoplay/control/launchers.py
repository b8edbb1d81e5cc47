"""How each supported Minesweeper clone is started with settings a bot can play.

One ``GameSpec`` per game says what to run and what the game is like (window class, new-game key, the board
sizes it offers, how its tile size is chosen); one ``plan_*`` function per game turns a size and a tile size into
a command line and environment.  Every game gets a private settings folder (``root``), so nothing in the user's
own profile is read or changed, and whatever would change the board by itself (animations, question marks,
dialogs over the board) is turned off where the game allows it.  None of these games uploads scores; the ones
that keep a local table get theirs pre-filled or are documented in the README's games table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from autoplay.errors import ControlError

#: A board size as (rows, cols, mines).
Size = tuple[int, int, int]


@dataclass(frozen=True)
class LaunchPlan:
    """The command line and extra environment that start one game."""

    argv: list[str]
    env: dict[str, str]


@dataclass(frozen=True)
class LaunchRequest:
    """What is asked of one launch: the private settings folder, the game's binary, the board size (and the
    game's preset name for it, None for a size no preset has), the tile size and sgt-mines' no-guess mode."""

    root: Path
    binary: str
    size: Size
    preset: str | None
    tile: int | None = None
    no_guess: bool = False
    scale: float = 1.0


#: Games whose whole window can be drawn at a device scale factor, as on a 125% desktop (the toolkit's variable).
SCALABLE = {"kmines": "QT_SCALE_FACTOR"}


@dataclass(frozen=True)
class GameSpec:
    """What autoplay knows about a game before it has seen a pixel of it.

    ``sizes`` maps preset names to the sizes the game itself plays (gnome-mines' and xbomb's small board is 8x8);
    ``any_size`` says whether other sizes can be asked for.  ``tile_sizes`` says how the tile size is chosen
    (``None``: the game fixes it).  ``package`` is the Debian package that installs ``binary``.
    """

    name: str
    binary: str
    package: str
    wm_class: str
    new_game: str
    sizes: dict[str, Size]
    any_size: bool
    tile_sizes: str | None
    plan: Callable[[LaunchRequest], LaunchPlan]


def _private_dirs(root: Path) -> dict[str, str]:
    """XDG folders inside ``root``: the game reads and writes its settings and scores there, not in $HOME."""
    dirs = {"XDG_CONFIG_HOME": root / "config", "XDG_DATA_HOME": root / "data", "XDG_CACHE_HOME": root / "cache"}
    for path in dirs.values():
        path.mkdir(parents=True, exist_ok=True)
    runtime = root / "runtime"
    runtime.mkdir(mode=0o700, parents=True, exist_ok=True)
    return {**{k: str(v) for k, v in dirs.items()}, "XDG_RUNTIME_DIR": str(runtime)}


#: gnome-mines' own size modes and the command-line switch that skips its size chooser.
GNOME_MODES = {"beginner": (0, "--small"), "intermediate": (1, "--medium"), "expert": (2, "--big")}
#: A window big enough that the expert board is not clipped (28 px tiles).
GNOME_WINDOW = (1050, 650)


def gnome_mines_keyfile(rows: int, cols: int, mines: int, mode: int | None) -> str:
    """The ``[org/gnome/Mines]`` settings; ``mode`` None means a custom size (mode 3)."""
    lines = [
        "[org/gnome/Mines]",
        f"mode={3 if mode is None else mode}",
        f"xsize={cols}",
        f"ysize={rows}",
        f"nmines={mines}",
        "use-animations=false",
        "use-question-marks=false",
        "use-autoflag=false",
        "theme='bgcolors'",
        f"window-width={GNOME_WINDOW[0]}",
        f"window-height={GNOME_WINDOW[1]}",
        "window-is-maximized=false",
    ]
    return "\n".join(lines) + "\n"


def prepare_gnome_mines(root: Path, rows: int, cols: int, mines: int, mode: int | None) -> dict[str, str]:
    """Write gnome-mines' keyfile and a full top ten; return the environment that makes it read them."""
    config, data = root / "config", root / "data"
    settings = config / "glib-2.0" / "settings"
    settings.mkdir(parents=True, exist_ok=True)
    (settings / "keyfile").write_text(gnome_mines_keyfile(rows, cols, mines, mode))
    scores = data / "gnome-mines" / "scores"
    scores.mkdir(parents=True, exist_ok=True)
    # Ten unbeatable entries: a win never reaches the top ten, so no dialog covers the board.
    (scores / f"{cols}-{rows}-{mines}").write_text("0 1 bot\n" * 10)
    return {
        "GSETTINGS_BACKEND": "keyfile",
        "XDG_CONFIG_HOME": str(config),
        "XDG_DATA_HOME": str(data),
        "XDG_CACHE_HOME": str(root / "cache"),
        "GDK_BACKEND": "x11",
        "GDK_SCALE": "1",
        "GDK_DPI_SCALE": "1",
        "NO_AT_BRIDGE": "1",
        "GTK_THEME": "Adwaita",
    }


def _preset(request: LaunchRequest) -> str:
    if request.preset is None:
        raise ControlError("this game is launched at its preset sizes only")
    return request.preset


def plan_gnome_mines(request: LaunchRequest) -> LaunchPlan:
    mode, switch = GNOME_MODES[_preset(request)]
    return LaunchPlan([request.binary, switch], prepare_gnome_mines(request.root, *request.size, mode))


def plan_xdemineur(request: LaunchRequest) -> LaunchPlan:
    rows, cols, mines = request.size
    if cols < 12:
        raise ControlError("xdemineur needs at least 12 columns")
    return LaunchPlan([request.binary, "-geometry", f"{cols}x{rows}+0+0", "-m", str(mines)], {})


def plan_sgt_mines(request: LaunchRequest) -> LaunchPlan:
    """``--game CxRnM`` plays that size; the trailing ``a`` allows ordinary boards (without it every board is
    solvable without guessing).  The tile size comes from ``MINES_TILESIZE``."""
    rows, cols, mines = request.size
    params = f"{cols}x{rows}n{mines}" + ("" if request.no_guess else "a")
    env = {
        **_private_dirs(request.root),
        "GDK_BACKEND": "x11",
        "GDK_SCALE": "1",
        "GDK_DPI_SCALE": "1",
        "NO_AT_BRIDGE": "1",
    }
    env["GTK_THEME"] = "Adwaita"
    if request.tile is not None:
        env["MINES_TILESIZE"] = str(request.tile)
    return LaunchPlan([request.binary, "--game", params], env)


#: kmines' difficulty names for its three standard sizes.
KMINES_LEVELS = {"beginner": "Easy", "intermediate": "Medium", "expert": "Hard"}
#: Window size per tile pixel and fixed extra, measured on kmines 22.12 (menu, toolbar, status bar, board frame).
KMINES_WINDOW = (1000, 700)


def kmines_config(level: str) -> str:
    """``kminesrc``: the difficulty, no question marks, no confirmation dialog after a lost game."""
    return (
        "[KgDifficulty]\n"
        f"Level={level}\n\n"
        "[General]\n"
        "question mark=false\n"
        "kmines_reset=false\n"
        "disable_score_on_reset=true\n"
        "explore_with_left_click_on_number_cells=false\n"
    )


def plan_kmines(request: LaunchRequest) -> LaunchPlan:
    """kmines needs a D-Bus session bus (``dbus-run-session``); the board is scaled to the window, so the tile size
    is chosen by the window size given to Qt (``-qwindowgeometry``)."""
    level = KMINES_LEVELS[_preset(request)]
    env = _private_dirs(request.root)
    (Path(env["XDG_CONFIG_HOME"]) / "kminesrc").write_text(kmines_config(level))
    env.update({"QT_QPA_PLATFORM": "xcb", "QT_SCALE_FACTOR": f"{request.scale:g}", "QT_AUTO_SCREEN_SCALE_FACTOR": "0"})
    env["QT_ACCESSIBILITY"] = "0"
    width, height = kmines_window(request.size, request.tile)
    # Qt sizes the window in scaled units: the window on screen is the same size at any scale, its tiles larger.
    width, height = round(width / request.scale), round(height / request.scale)
    runner = find_dbus_run_session()
    return LaunchPlan([runner, "--", request.binary, "-qwindowgeometry", f"{width}x{height}+0+0"], env)


def kmines_window(size: Size, tile: int | None) -> tuple[int, int]:
    """The window that gives about ``tile`` px tiles: kmines fits the board, plus one tile of border all round,
    into its view, which is the window less 84 px of menu, tool and status bars."""
    if tile is None:
        return KMINES_WINDOW
    rows, cols, _ = size
    return (cols + 2) * tile + 4, (rows + 2) * tile + 84


def find_dbus_run_session() -> str:
    import shutil

    found = shutil.which("dbus-run-session")
    if found is None:
        raise ControlError("dbus-run-session is not installed (Debian package: dbus); kmines needs a session bus")
    return found


#: xbomb's level switches for its three sizes.
XBOMB_LEVELS = {"beginner": "-1", "intermediate": "-2", "expert": "-3"}
#: xbomb's default tile pitch; the window around the grid adds 10 px across and 56 px down (buttons, status).
XBOMB_TILE = 20


def xbomb_window(size: Size, tile: int | None) -> tuple[int, int]:
    """xbomb draws square tiles as large as its window allows: this window gives ``tile`` px pitch."""
    rows, cols, _ = size
    pitch = tile or XBOMB_TILE
    return cols * pitch + 10, rows * pitch + 56


def plan_xbomb(request: LaunchRequest) -> LaunchPlan:
    """Square grid, one of its three levels, the window sized for the tile size.  Its text and digits use the X
    server's built-in ``fixed`` font, so they look the same on every machine (its default fonts are often not
    installed, and then whatever the font path offers is used instead)."""
    width, height = xbomb_window(request.size, request.tile)
    level = XBOMB_LEVELS[_preset(request)]
    fonts = ["-xrm", "*font: fixed", "-xrm", "*grid.font: fixed"]
    argv = [request.binary, "-square", level, "-geometry", f"{width}x{height}+0+0", *fonts]
    return LaunchPlan(argv, _private_dirs(request.root))


_CLASSIC = {"beginner": (9, 9, 10), "intermediate": (16, 16, 40), "expert": (16, 30, 99)}
_SMALL8 = {"beginner": (8, 8, 10), "intermediate": (16, 16, 40), "expert": (16, 30, 99)}

SPECS: dict[str, GameSpec] = {
    spec.name: spec
    for spec in (
        GameSpec("gnome-mines", "gnome-mines", "gnome-mines", "gnome-mines", "ctrl+r", _SMALL8, False,
                 None, plan_gnome_mines),
        GameSpec("xdemineur", "xdemineur", "xdemineur", "xdemineur", "click the face", _CLASSIC, True,
                 None, plan_xdemineur),
        GameSpec("sgt-mines", "sgt-mines", "sgt-puzzles", "sgt-mines", "n", _CLASSIC, True,
                 "MINES_TILESIZE", plan_sgt_mines),
        GameSpec("kmines", "kmines", "kmines", "kmines", "ctrl+n", _CLASSIC, False,
                 "window size", plan_kmines),
        GameSpec("xbomb", "xbomb", "xbomb", "xbomb", "s", _SMALL8, False,
                 "window size", plan_xbomb),
    )
}  # fmt: skip
