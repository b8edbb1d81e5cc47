"""Launching the real Minesweeper clones with settings a bot can play.

gnome-mines is configured through a private GSettings keyfile (no D-Bus, no
user profile touched): animations off so a click is fully drawn in ~60 ms,
question marks and auto-flagging off so the board only changes when we act,
and a pre-filled score table so a win never opens the high-score dialog over
the board.  xdemineur takes everything on its command line.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from autoplay.board.rules import PRESETS
from autoplay.control.capture import grab, wait_settled
from autoplay.control.window import Window, find_window
from autoplay.errors import ControlError

GAMES = ("gnome-mines", "xdemineur")
GAME_DIRS = ("/usr/games", "/usr/bin", "/usr/local/games")
#: Window class used to find each game's top-level window.
WM_CLASS = {"gnome-mines": "gnome-mines", "xdemineur": "xdemineur"}
#: gnome-mines' own size modes and the command-line switch that skips its size chooser.
GNOME_MODES = {"beginner": (0, "--small"), "intermediate": (1, "--medium"), "expert": (2, "--big")}
#: The sizes those modes play (rows, cols, mines): its small board is 8x8, not the classic 9x9.
GNOME_SIZES = {"beginner": (8, 8, 10), "intermediate": (16, 16, 40), "expert": (16, 30, 99)}
#: A window big enough that the expert board is not clipped (28 px tiles).
GNOME_WINDOW = (1050, 650)


@dataclass
class RunningGame:
    """A launched game process and its window; ``stop()`` ends the process and removes its private settings."""

    name: str
    process: subprocess.Popen[bytes]
    window: Window
    rows: int
    cols: int
    mines: int
    display: str
    _tempdir: tempfile.TemporaryDirectory[str] | None = field(default=None, repr=False)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.window.close_connection()
        if self._tempdir is not None:
            self._tempdir.cleanup()
            self._tempdir = None

    def __enter__(self) -> RunningGame:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def find_binary(name: str) -> str:
    """Debian installs the games in /usr/games, which is not on root's PATH."""
    found = shutil.which(name)
    if found:
        return found
    for folder in GAME_DIRS:
        candidate = Path(folder) / name
        if candidate.is_file():
            return str(candidate)
    raise ControlError(f"{name} is not installed (Debian package: {name})")


def _size(preset: str, rows: int | None, cols: int | None, mines: int | None) -> tuple[int, int, int]:
    if preset not in PRESETS:
        raise ControlError(f"unknown preset {preset!r}; choose from {', '.join(PRESETS)}")
    base = PRESETS[preset]
    return rows or base.rows, cols or base.cols, mines or base.mines


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


def launch_game(
    name: str,
    display: str,
    preset: str = "expert",
    rows: int | None = None,
    cols: int | None = None,
    mines: int | None = None,
    workdir: Path | None = None,
    timeout: float = 20.0,
) -> RunningGame:
    """Start ``name`` on ``display`` and return once its window is mapped and its picture has settled."""
    import os

    if name not in GAMES:
        raise ControlError(f"unknown game {name!r}; choose from {', '.join(GAMES)}")
    if name == "gnome-mines" and preset in GNOME_SIZES:
        own = GNOME_SIZES[preset]
        if any(given not in (None, default) for given, default in zip((rows, cols, mines), own)):
            raise ControlError(
                "gnome-mines is launched at its preset sizes only (beginner 8x8/10, intermediate "
                "16x16/40, expert 16x30/99)"
            )
        rows, cols, mines = own
    rows, cols, mines = _size(preset, rows, cols, mines)
    binary = find_binary(name)
    tempdir = None
    if workdir is None:
        tempdir = tempfile.TemporaryDirectory(prefix=f"autoplay-{name}-")
        workdir = Path(tempdir.name)
    workdir = Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "DISPLAY": display}
    if name == "gnome-mines":
        mode, switch = GNOME_MODES[preset]
        env.update(prepare_gnome_mines(workdir, rows, cols, mines, mode))
        argv = [binary, switch]
    else:
        if cols < 12:
            raise ControlError("xdemineur needs at least 12 columns")
        argv = [binary, "-geometry", f"{cols}x{rows}+0+0", "-m", str(mines)]
    process = subprocess.Popen(
        argv, env=env, cwd=workdir, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    try:
        window = find_window(display, WM_CLASS[name], timeout=timeout)
        window.focus()
        settled = wait_settled(lambda: grab(window.rect, display), interval=0.15, timeout=timeout)
        if settled.frame.std() < 1.0:
            raise ControlError(f"{name} window stayed blank")
    except ControlError:
        if process.poll() is not None:
            message = f"{name} exited at start with code {process.returncode}"
        else:
            message = None
            process.terminate()
            process.wait(timeout=5)
        if tempdir is not None:
            tempdir.cleanup()
        if message:
            raise ControlError(message) from None
        raise
    return RunningGame(name, process, window, rows, cols, mines, display, tempdir)
