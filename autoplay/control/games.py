"""Launching the real Minesweeper clones, and browsers on a Minesweeper page, with settings a bot can play.

What each game needs (command line, private settings, tile size) is in ``launchers``, what each browser needs
in ``browsers``; this module starts the process, waits for its window and picture, and stops it again.  Games
and pages go through the same steps (``_start``) and differ only in how their window is recognised.  Every
launch runs in a process group of its own, so ``stop()`` also ends helpers it started (kmines runs under
``dbus-run-session``, which starts a bus daemon; a browser forks a dozen renderer and utility processes).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Self

from autoplay.control.browsers import (
    BROWSERS,
    DEFAULT_WINDOW,
    BrowserSpec,
    PageRequest,
    check_scale,
    running_as_root,
)
from autoplay.control.capture import grab, wait_settled
from autoplay.control.launchers import (
    GNOME_MODES,
    GNOME_WINDOW,
    SCALABLE,
    SPECS,
    GameSpec,
    LaunchPlan,
    LaunchRequest,
    gnome_mines_keyfile,
    prepare_gnome_mines,
)
from autoplay.control.window import Window, find_window, list_windows
from autoplay.control.window_query import describe_windows
from autoplay.errors import ControlError

__all__ = [
    "BROWSERS",
    "GAMES",
    "GNOME_MODES",
    "GNOME_SIZES",
    "GNOME_WINDOW",
    "WM_CLASS",
    "RunningGame",
    "RunningPage",
    "find_binary",
    "gnome_mines_keyfile",
    "launch_game",
    "launch_page",
    "prepare_gnome_mines",
]

GAMES = tuple(SPECS)
GAME_DIRS = ("/usr/games", "/usr/bin", "/usr/local/games")
#: Window class used to find each game's top-level window.
WM_CLASS = {name: spec.wm_class for name, spec in SPECS.items()}
#: The sizes gnome-mines' modes play (rows, cols, mines): its small board is 8x8, not the classic 9x9.
GNOME_SIZES = SPECS["gnome-mines"].sizes


class _Launched:
    """What every launch returns: its process (the leader of a process group of its own), its window and the
    private folder; ``stop()`` ends the whole group and removes the folder."""

    process: subprocess.Popen[bytes]
    window: Window
    _tempdir: tempfile.TemporaryDirectory[str] | None
    _folder: Path | None

    def stop(self) -> None:
        _end_launch(self.process, self._folder)
        self.window.close_connection()
        if self._tempdir is not None:
            self._tempdir.cleanup()
            self._tempdir = None

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


@dataclass
class RunningGame(_Launched):
    """A launched game process and its window; ``stop()`` ends the process and removes its private settings."""

    name: str
    process: subprocess.Popen[bytes]
    window: Window
    rows: int
    cols: int
    mines: int
    display: str
    _tempdir: tempfile.TemporaryDirectory[str] | None = field(default=None, repr=False)
    _folder: Path | None = field(default=None, repr=False)

    @property
    def spec(self) -> GameSpec:
        return SPECS[self.name]


@dataclass
class RunningPage(_Launched):
    """A browser showing one page, and the page's window; ``stop()`` ends every process of the browser and
    removes its private profile."""

    name: str
    process: subprocess.Popen[bytes]
    window: Window
    url: str
    scale: float
    display: str
    _tempdir: tempfile.TemporaryDirectory[str] | None = field(default=None, repr=False)
    _folder: Path | None = field(default=None, repr=False)

    @property
    def spec(self) -> BrowserSpec:
        return BROWSERS[self.name]

    @property
    def page_title(self) -> str:
        """The page's own title, as the window showed it when it was found."""
        return self.spec.page_title(self.window.title, self.url) or ""


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


#: How long processes that outlive the launch's group may take to leave its private folder by themselves.
STRAY_WAIT = 3.0


def _end_launch(process: subprocess.Popen[bytes], folder: Path | None) -> None:
    """End the launch's process group, then whatever still runs on its private ``folder``.

    Chromium starts its crash handlers in sessions of their own (a double fork), so they are not in the group;
    they keep their database in the private home and leave by themselves within ~0.2 s of the browser.  Their
    going is waited for (then forced) so the folder is not removed while they still write to it.
    """
    _end_process_group(process)
    if folder is None:
        return
    for last_signal in (signal.SIGKILL, None):
        deadline = time.monotonic() + STRAY_WAIT
        while (left := _running_on(folder)) and time.monotonic() < deadline:
            time.sleep(0.05)
        if not left or last_signal is None:
            return
        for pid in left:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, last_signal)


def _running_on(folder: Path) -> list[int]:
    """Live processes (not zombies) whose command line names ``folder``; none where there is no /proc."""
    needle = os.fsencode(folder)
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            if needle not in (entry / "cmdline").read_bytes():
                continue
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue  # ended while we looked, or not ours to read
        if state != "Z" and int(entry.name) != os.getpid():
            found.append(int(entry.name))
    return found


def _group_alive(pgid: int) -> bool:
    """Is any process of the group left (a zombie nobody reaped counts)?"""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    return True  # signalled, or not ours to signal: either way it exists


def find_binary(name: str) -> str:
    """Debian installs the games in /usr/games, which is not on root's PATH."""
    specs: list[GameSpec | BrowserSpec] = [*SPECS.values(), *BROWSERS.values()]
    package = next((spec.package for spec in specs if spec.binary == name), name)
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
    scale: float = 1.0,
) -> RunningGame:
    """Start ``name`` on ``display`` and return once its window is mapped and its picture has settled.

    ``tile`` asks for a tile size in pixels where the game lets one choose (see ``GameSpec.tile_sizes``);
    ``no_guess`` asks sgt-mines for its boards that never need a guess (its own default); ``scale`` draws the
    whole window at a device scale factor where the toolkit allows (``SCALABLE``: kmines' Qt), as a 125% desktop.
    """
    spec = SPECS.get(name)
    if spec is None:
        raise ControlError(f"unknown game {name!r}; choose from {', '.join(SPECS)}")
    if tile is not None and spec.tile_sizes is None:
        raise ControlError(f"{name} has a fixed tile size; --tile is for {', '.join(_resizable())}")
    if no_guess and name != "sgt-mines":
        raise ControlError("--no-guess is for sgt-mines only (the other games deal ordinary boards)")
    if scale != 1.0 and name not in SCALABLE:
        raise ControlError(f"{name} is drawn at one scale; --scale is for {', '.join([*SCALABLE, *BROWSERS])}")
    size = board_size(spec, preset, rows, cols, mines)
    binary = find_binary(spec.binary)
    preset_name = next((p for p, own in spec.sizes.items() if own == size), None)

    def plan(root: Path) -> LaunchPlan:
        return spec.plan(LaunchRequest(root, binary, size, preset_name, tile, no_guess, scale))

    def window(process: subprocess.Popen[bytes], timeout: float) -> Window:
        return find_window(display, spec.wm_class, timeout=timeout)

    process, found, tempdir, folder = _start(name, display, plan, window, workdir, timeout)
    return RunningGame(name, process, found, *size, display, tempdir, folder)


def launch_page(
    browser: str,
    display: str,
    url: str,
    scale: float = 1.0,
    window: tuple[int, int] = DEFAULT_WINDOW,
    workdir: Path | None = None,
    timeout: float = 60.0,
) -> RunningPage:
    """Start ``browser`` on ``url`` in a private profile and return once the page's window shows the page's title
    and its picture has settled.

    ``scale`` is the device scale factor (1.25 draws everything as a 125% desktop would); ``window`` the window's
    size in screen pixels at any scale.  ``timeout`` is how long its window may take to show the page (firefox-esr
    took 5-10 s here); the picture then gets up to ``PAGE_SETTLE_LIMIT`` more to settle.
    """
    spec = BROWSERS.get(browser)
    if spec is None:
        raise ControlError(f"unknown browser {browser!r}; choose from {', '.join(BROWSERS)}")
    check_scale(scale)
    binary = find_binary(spec.binary)

    def plan(root: Path) -> LaunchPlan:
        return spec.plan(PageRequest(root, binary, url, scale, window, running_as_root()))

    def page_window(process: subprocess.Popen[bytes], timeout: float) -> Window:
        return _find_page_window(display, spec, url, process, timeout)

    process, found, tempdir, folder = _start(browser, display, plan, page_window, workdir, timeout, page=True)
    return RunningPage(browser, process, found, url, scale, display, tempdir, folder)


def _start(
    name: str,
    display: str,
    plan: Callable[[Path], LaunchPlan],
    find: Callable[[subprocess.Popen[bytes], float], Window],
    workdir: Path | None,
    timeout: float,
    page: bool = False,
) -> tuple[subprocess.Popen[bytes], Window, tempfile.TemporaryDirectory[str] | None, Path]:
    """Plan the launch in its private folder (a new temporary one unless ``workdir`` is given), start it in a
    process group of its own, find its window with ``find``, focus it and wait until its picture has settled.

    On any failure everything started is ended and the temporary folder removed before the error is raised.
    """
    tempdir = None
    if workdir is None:
        tempdir = tempfile.TemporaryDirectory(prefix=f"autoplay-{name}-")
        workdir = Path(tempdir.name)
    workdir = Path(workdir)
    workdir.mkdir(parents=True, exist_ok=True)
    try:
        launch = plan(workdir)
    except ControlError:
        if tempdir is not None:
            tempdir.cleanup()
        raise
    env = {**os.environ, **launch.env, "DISPLAY": display}
    try:
        process = subprocess.Popen(
            launch.argv,
            env=env,
            cwd=workdir,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            start_new_session=True,
        )
    except BaseException:
        if tempdir is not None:
            tempdir.cleanup()
        raise
    said, reader = _last_words(process)
    try:
        window = find(process, timeout)
        window.focus()
        _wait_drawn(window, display, timeout, page=page)
    except ControlError:
        exited = process.poll()
        _end_launch(process, workdir)
        if tempdir is not None:
            tempdir.cleanup()
        if exited is not None:
            reader.join(timeout=0.5)  # the pipe is at its end once the program and its children are gone
            words = f": {said[-1]}" if said else ""
            raise ControlError(f"{name} exited at start with code {exited}{words}") from None
        raise
    return process, window, tempdir, workdir


#: Lines of a launched program's stderr kept to say why it ended at start (the rest is dropped as it comes).
KEPT_LINES = 3


def _last_words(process: subprocess.Popen[bytes]) -> tuple[deque[str], threading.Thread]:
    """The last non-empty lines the program wrote to stderr, kept up to date by a thread that reads it to its end.

    Why: a game that exits at start (no display, a missing library, a locked profile) says why on stderr; a
    browser writes there for as long as it runs, so the pipe is drained and only the newest lines are kept.
    """
    lines: deque[str] = deque(maxlen=KEPT_LINES)
    stream = process.stderr

    def drain() -> None:
        if stream is None:
            return
        with contextlib.suppress(OSError, ValueError):
            for raw in stream:
                line = raw.decode(errors="replace").strip()
                if line:
                    lines.append(line[:300])

    reader = threading.Thread(target=drain, name="launch-stderr", daemon=True)
    reader.start()
    return lines, reader


def _in_group(pid: int | None, pgid: int) -> bool:
    """Is process ``pid`` in process group ``pgid``?  An unknown pid counts (no _NET_WM_PID and no X-Resource)."""
    if pid is None:
        return True
    try:
        return os.getpgid(pid) == pgid
    except (ProcessLookupError, PermissionError):
        return False


#: How long a page window may show only its address or a blank title before it is taken as a page without a
#: ``<title>`` (firefox then shows just "Mozilla Firefox", chromium the address).
UNTITLED_WAIT = 10.0


def _find_page_window(
    display: str, spec: BrowserSpec, url: str, process: subprocess.Popen[bytes], timeout: float
) -> Window:
    """The browser's window showing the page: the launch's window whose title is the page's title, or after
    ``UNTITLED_WAIT`` seconds of only placeholders, its window all the same.

    The launched process is not necessarily the one that owns the window (browsers fork), so the window's pid
    is compared by process group.  Chromium names an ``--app`` window's WM_CLASS instance after the URL, so only
    the class part is compared.  A window still titled ``about:blank``, ``New Tab`` or with the address has not
    read the page yet.
    """
    deadline = time.monotonic() + timeout
    untitled_since: float | None = None
    while True:
        windows = list_windows(display)
        ours = [
            w
            for w in windows
            if spec.wm_class.lower() in (c.lower() for c in w.wm_class[1:]) and _in_group(w.pid, process.pid)
        ]
        titled = [w for w in ours if spec.page_title(w.title, url) is not None]
        now = time.monotonic()
        if titled:
            return titled[-1]  # the topmost, should a page have opened a second window
        if ours:
            untitled_since = now if untitled_since is None else untitled_since
            if now - untitled_since >= UNTITLED_WAIT:  # the largest: not a permission or menu popup
                return max(ours, key=lambda w: w.width * w.height)
        if now >= deadline or (process.poll() is not None and not _group_alive(process.pid)):
            mine = [w.facts() for w in windows if _in_group(w.pid, process.pid)]
            why = f"exited with code {process.poll()}" if process.poll() is not None else f"within {timeout:g} s"
            raise ControlError(
                f"{spec.name} showed no window with the page {why} on {display} (its windows: {describe_windows(mine)})"
            )
        time.sleep(0.1)


#: How long a page's picture must stay unchanged to count as drawn: pages paint in steps (layout, web fonts,
#: images) tens of milliseconds apart, where a game's first paint is one step.
PAGE_SETTLE = 0.4
#: How long a page whose lower half is one plain colour is watched before it is taken as drawn: the browser may
#: show the title before the page's first paint, but the page may also just be plain.
PLAIN_PAGE_WAIT = 2.0
#: How long a page may keep changing before it is taken as drawn anyway (an animation, a clock ticking fast).
PAGE_SETTLE_LIMIT = 10.0


def _wait_drawn(window: Window, display: str, timeout: float, page: bool = False) -> None:
    """Wait until the window's picture has settled on something other than a blank fill: kmines maps its window
    and shows it empty for a while before the first paint, longer when the machine is busy.

    A ``page`` may be one plain colour, so a settled page whose lower half (the page in either browser) stays
    plain counts as drawn after ``PLAIN_PAGE_WAIT``, and one that keeps moving for ``PAGE_SETTLE_LIMIT`` seconds
    is animated rather than unfinished.
    """
    if page:
        start = time.monotonic()
        limit = start + min(timeout, PAGE_SETTLE_LIMIT)
        while True:
            settled = wait_settled(
                lambda: grab(window.rect, display), interval=PAGE_SETTLE, timeout=max(limit - time.monotonic(), 0.5)
            )
            lower = settled.frame[settled.frame.shape[0] // 2 :].reshape(-1, 3)
            plain = float(lower.std(axis=0).max()) < 1.0  # per channel: one colour, grey or not
            now = time.monotonic()
            if settled.timed_out or not plain or now - start >= PLAIN_PAGE_WAIT or now >= limit:
                return
            time.sleep(0.1)
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
