"""Launching the real Minesweeper clones with settings a bot can play.

What each game needs (command line, private settings, tile size) is in ``launchers``; this module starts the
process, waits for its window and picture, and stops it again.  Every game runs in a process group of its own,
so ``stop()`` also ends helpers it started (kmines runs under ``dbus-run-session``, which starts a bus daemon).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from autoplay.control.capture import grab, wait_settled
from autoplay.control.launchers import (
    GNOME_MODES,
    GNOME_WINDOW,
    SPECS,
    GameSpec,
    LaunchRequest,
    gnome_mines_keyfile,
    prepare_gnome_mines,
)
from autoplay.control.window import Window, find_window
from autoplay.errors import ControlError

__all__ = [
    "GAMES",
    "GNOME_MODES",
    "GNOME_SIZES",
    "GNOME_WINDOW",
    "WM_CLASS",
    "RunningGame",
    "find_binary",
    "gnome_mines_keyfile",
    "launch_game",
    "prepare_gnome_mines",
]

GAMES = tuple(SPECS)
GAME_DIRS = ("/usr/games", "/usr/bin", "/usr/local/games")
#: Window class used to find each game's top-level window.
WM_CLASS = {name: spec.wm_class for name, spec in SPECS.items()}
#: The sizes gnome-mines' modes play (rows, cols, mines): its small board is 8x8, not the classic 9x9.
GNOME_SIZES = SPECS["gnome-mines"].sizes


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

    @property
    def spec(self) -> GameSpec:
        return SPECS[self.name]

    def stop(self) -> None:
        _end_process_group(self.process)
        self.window.close_connection()
        if self._tempdir is not None:
            self._tempdir.cleanup()
            self._tempdir = None

    def __enter__(self) -> RunningGame:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _end_process_group(process: subprocess.Popen[bytes], timeout: float = 5.0) -> None:
    """Terminate the game and everything it started (its own process group, made at launch).

    Returns only once no process of the group is left: a game started through a wrapper
    (kmines under dbus-run-session) may outlive the wrapper for a moment, and its window would
    then be taken for the next launch's.
    """
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    for last_signal in (signal.SIGKILL, None):
        deadline = time.monotonic() + timeout
        while _group_alive(process.pid) and time.monotonic() < deadline:
            time.sleep(0.05)
        if not _group_alive(process.pid) or last_signal is None:
            return  # gone, or only zombies nobody reaps are left: nothing more to wait for
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, last_signal)


def _group_alive(pgid: int) -> bool:
    """Is any process of the group left (a zombie nobody reaped counts)?"""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True  # signalled, or not ours to signal: either way it exists


def find_binary(name: str) -> str:
    """Debian installs the games in /usr/games, which is not on root's PATH."""
    package = next((spec.package for spec in SPECS.values() if spec.binary == name), name)
    found = shutil.which(name)
    if found:
        return found
    for folder in GAME_DIRS:
        candidate = Path(folder) / name
        if candidate.is_file():
            return str(candidate)
    raise ControlError(f"{name} is not installed (Debian package: {package})")


def board_size(
    spec: GameSpec, preset: str, rows: int | None, cols: int | None, mines: int | None
) -> tuple[int, int, int]:
    """The (rows, cols, mines) to launch: the preset as the game plays it, overridden where the game allows."""
    if preset not in spec.sizes:
        raise ControlError(f"unknown preset {preset!r}; choose from {', '.join(spec.sizes)}")
    own = spec.sizes[preset]
    wanted = tuple(given or default for given, default in zip((rows, cols, mines), own, strict=True))
    if wanted != own and not spec.any_size:
        sizes = ", ".join(f"{p} {r}x{c}/{m}" for p, (r, c, m) in spec.sizes.items())
        raise ControlError(f"{spec.name} is launched at its preset sizes only ({sizes})")
    return wanted[0], wanted[1], wanted[2]


def launch_game(
    name: str,
    display: str,
    preset: str = "expert",
    rows: int | None = None,
    cols: int | None = None,
    mines: int | None = None,
    workdir: Path | None = None,
    timeout: float = 20.0,
    tile: int | None = None,
    no_guess: bool = False,
) -> RunningGame:
    """Start ``name`` on ``display`` and return once its window is mapped and its picture has settled.

    ``tile`` asks for a tile size in pixels where the game lets one choose (see ``GameSpec.tile_sizes``);
    ``no_guess`` asks sgt-mines for its boards that never need a guess (its own default).
    """
    spec = SPECS.get(name)
    if spec is None:
        raise ControlError(f"unknown game {name!r}; choose from {', '.join(SPECS)}")
    if tile is not None and spec.tile_sizes is None:
        raise ControlError(f"{name} has a fixed tile size; --tile is for {', '.join(_resizable())}")
    if no_guess and name != "sgt-mines":
        raise ControlError("--no-guess is for sgt-mines only (the other games deal ordinary boards)")
    size = board_size(spec, preset, rows, cols, mines)
    binary = find_binary(spec.binary)
    tempdir = None
    if workdir is None:
        tempdir = tempfile.TemporaryDirectory(prefix=f"autoplay-{name}-")
        workdir = Path(tempdir.name)
    workdir = Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    preset_name = next((p for p, own in spec.sizes.items() if own == size), None)
    try:
        plan = spec.plan(LaunchRequest(workdir, binary, size, preset_name, tile, no_guess))
    except ControlError:
        if tempdir is not None:
            tempdir.cleanup()
        raise
    env = {**os.environ, **plan.env, "DISPLAY": display}
    process = subprocess.Popen(
        plan.argv, env=env, cwd=workdir, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    try:
        window = find_window(display, spec.wm_class, timeout=timeout)
        window.focus()
        _wait_drawn(window, display, timeout)
    except ControlError:
        exited = process.poll()
        _end_process_group(process)
        if tempdir is not None:
            tempdir.cleanup()
        if exited is not None:
            raise ControlError(f"{name} exited at start with code {exited}") from None
        raise
    return RunningGame(name, process, window, *size, display, tempdir)


def _wait_drawn(window: Window, display: str, timeout: float) -> None:
    """Wait until the window's picture has settled on something other than a blank fill: kmines maps its window
    and shows it empty for a while before the first paint, longer when the machine is busy."""
    deadline = time.monotonic() + timeout
    while True:
        left = max(deadline - time.monotonic(), 0.5)
        settled = wait_settled(lambda: grab(window.rect, display), interval=0.15, timeout=left)
        if settled.frame.std() >= 1.0:
            return
        if time.monotonic() >= deadline:
            raise ControlError(f"{window.title or 'the game'} window stayed blank")
        time.sleep(0.1)


def _resizable() -> list[str]:
    return [name for name, spec in SPECS.items() if spec.tile_sizes is not None]
