"""How each supported web browser is started on one Minesweeper page, in a private profile, ready to play.

Most people play Minesweeper in a web page, so a browser is a launch target like the desktop clones.  One
``BrowserSpec`` per browser says what to run and how to tell its page window from its other windows; one
``plan_*`` function turns a URL, a device scale factor and a window size into a command line, environment and
profile.  Everything the browser writes (profile, caches, crash reports, a Downloads folder) stays in the
launch's private folder (``root``): nothing of the user's own browser is read or changed, and a fresh profile
has no session to restore.  Whatever would cover the page by itself (first-run pages, default-browser
questions, translation and permission bubbles) is turned off.

Measured on Debian 12 under Xvfb (chromium 156, firefox-esr 153): both browsers multiply the window size they
are given by the scale factor, so the plans divide it first and ``window`` is the X window's size in screen
pixels at every scale.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from autoplay.control.launchers import LaunchPlan
from autoplay.errors import ControlError

#: The window a page gets unless asked otherwise (screen pixels, at +0+0): room for a 30x16 board of 30 px tiles
#: below firefox's tab and address bars.
DEFAULT_WINDOW = (1100, 800)
#: Device scale factors a user may ask for; 1, 1.25, 1.5 and 2 are the usual desktop settings (100% to 200%).
SCALE_RANGE = (0.5, 4.0)


def check_scale(scale: float) -> None:
    """Refuse a device scale factor outside ``SCALE_RANGE`` (ControlError, one line)."""
    low, high = SCALE_RANGE
    if not low <= scale <= high:
        raise ControlError(f"scale {scale:g} is outside {low:g}-{high:g} (1, 1.25, 1.5 and 2 are the usual ones)")


@dataclass(frozen=True)
class PageRequest:
    """What one page launch asks for: the private folder, the browser's binary, the page, the device scale
    factor, the window size in screen pixels and whether we run as root (chromium's sandbox refuses root)."""

    root: Path
    binary: str
    url: str
    scale: float = 1.0
    window: tuple[int, int] = DEFAULT_WINDOW
    as_root: bool = False


@dataclass(frozen=True)
class BrowserSpec:
    """What autoplay knows about a browser before it has seen a pixel of it.

    ``wm_class`` is the class part of WM_CLASS every page window of this browser carries (chromium's instance
    part is derived from the URL, so only the class part is fixed); ``title_suffix`` is what the browser appends
    to the page's title in the window title; ``placeholder_titles`` are the titles a window shows before the
    page has a title of its own (a blank tab, the browser's name), so such a window is not yet the page.
    """

    name: str
    binary: str
    package: str
    wm_class: str
    title_suffix: str
    placeholder_titles: frozenset[str]
    plan: Callable[[PageRequest], LaunchPlan]

    def page_title(self, window_title: str, url: str) -> str | None:
        """The page's own title shown by a window titled ``window_title``; None while it shows a placeholder.

        Placeholders are the titles of a blank tab or of the browser itself, and the page's address: chromium
        titles an ``--app`` window ``127.0.0.1_/index.html`` until the page has told it its ``<title>``.
        """
        title = window_title.strip()
        if self.title_suffix and title.endswith(self.title_suffix):
            title = title[: -len(self.title_suffix)].strip()
        if not title or title.lower() in self.placeholder_titles or looks_like_address(title, url):
            return None
        return title


def _squash(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


def looks_like_address(title: str, url: str) -> bool:
    """Is ``title`` the page's address written some way (with or without scheme and port, ``/`` or ``_``)?

    Only titles with a ``.``, ``/`` or ``:`` count, so a page titled "Minesweeper" at minesweeper.example is
    still taken at its word.
    """
    if not any(mark in title for mark in "./:"):
        return False
    parts = urlsplit(url)
    squashed = _squash(title)
    return bool(squashed) and (squashed in _squash(url) or squashed in _squash(f"{parts.hostname or ''}{parts.path}"))


def scaled_window(window: tuple[int, int], scale: float) -> tuple[int, int]:
    """The size to ask the browser for so that its X window is ``window`` screen pixels at ``scale``."""
    return round(window[0] / scale), round(window[1] / scale)


def format_scale(scale: float) -> str:
    """``1``, ``1.25``, ``1.5``: a plain decimal, the form both browsers parse (no ``1.0`` or exponent)."""
    return f"{scale:g}"


def private_home(root: Path) -> dict[str, str]:
    """HOME and the XDG folders inside ``root``.

    Given its own profile folder, each browser still writes next to it in the user's home: chromium its crash
    reports (``~/.config/chromium``), firefox its start-up cache and a ``~/Downloads`` folder.
    """
    home = root / "home"
    dirs = {
        "HOME": home,
        "XDG_CONFIG_HOME": home / ".config",
        "XDG_DATA_HOME": home / ".local" / "share",
        "XDG_CACHE_HOME": home / ".cache",
    }
    for path in dirs.values():
        path.mkdir(parents=True, exist_ok=True)
    runtime = root / "runtime"
    runtime.mkdir(mode=0o700, parents=True, exist_ok=True)
    return {**{key: str(path) for key, path in dirs.items()}, "XDG_RUNTIME_DIR": str(runtime)}


#: Things the X11 toolkits read that would otherwise follow the user's desktop: X11 even in a Wayland session
#: (the window is looked for on the X display), no accessibility bus to wait for.
_X11_ENV = {"GDK_BACKEND": "x11", "NO_AT_BRIDGE": "1"}


def plan_chromium(request: PageRequest) -> LaunchPlan:
    """``--app=URL``: one window with the page only (no tabs, no address bar), titled with the page's title.

    Besides the obvious (private profile, no first-run or default-browser questions, no extensions, software
    painting that mss can read):
    ``--test-type`` hides the warning bar ``--no-sandbox`` would bring (root needs the latter);
    ``--deny-permission-prompts`` answers a page's notification or location request with "no" instead of a
    bubble over the top-left of the page (seen here covering 320x180 px of it);
    ``--disable-features=Translate`` keeps the translation bubble off foreign-language pages;
    ``--password-store=basic`` keeps chromium from asking a desktop keyring for a password;
    ``--ozone-platform=x11`` keeps it on the X display in a Wayland session.
    No crash-restore bubble is hidden: the private profile is new at every launch, and even a reused profile
    after a SIGKILL showed none in an ``--app`` window here.
    """
    profile = request.root / "chromium-profile"
    profile.mkdir(parents=True, exist_ok=True)
    width, height = scaled_window(request.window, request.scale)
    argv = [
        request.binary,
        f"--app={request.url}",
        f"--user-data-dir={profile}",
        *(["--no-sandbox"] if request.as_root else []),
        "--test-type",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-extensions",
        "--disable-gpu",
        "--disable-features=Translate",
        "--deny-permission-prompts",
        "--password-store=basic",
        "--ozone-platform=x11",
        f"--force-device-scale-factor={format_scale(request.scale)}",
        "--window-position=0,0",
        f"--window-size={width},{height}",
    ]
    return LaunchPlan(argv, {**private_home(request.root), **_X11_ENV})


def firefox_prefs(scale: float) -> dict[str, bool | int | str]:
    """The ``user.js`` preferences of a page launch, grouped by what they keep away from the page."""
    return {
        # first-run, welcome and what's-new pages; the default-browser question
        "browser.aboutwelcome.enabled": False,
        "browser.startup.homepage_override.mstone": "ignore",
        "startup.homepage_welcome_url": "",
        "startup.homepage_welcome_url.additional": "",
        "browser.shell.checkDefaultBrowser": False,
        # telemetry, and the privacy-notice tab it opens on first run
        "datareporting.policy.dataSubmissionEnabled": False,
        "datareporting.policy.dataSubmissionPolicyBypassNotification": True,
        "datareporting.healthreport.uploadEnabled": False,
        "toolkit.telemetry.enabled": False,
        "toolkit.telemetry.unified": False,
        "toolkit.telemetry.reportingpolicy.firstRun": False,
        # no session restore: start on a blank page, never offer to restore after a crash
        "browser.startup.page": 0,
        "browser.sessionstore.resume_from_crash": False,
        # no updates of the browser or add-ons while a game runs
        "app.update.auto": False,
        "extensions.update.enabled": False,
        # no bubbles over the page: permission requests refused, no translation offer, no close-tabs question
        "permissions.default.desktop-notification": 2,
        "permissions.default.geo": 2,
        "browser.translations.automaticallyPopup": False,
        "browser.tabs.warnOnClose": False,
        # the device scale factor (a string: the preference is parsed as a decimal number)
        "layout.css.devPixelsPerPx": format_scale(scale),
    }


def user_js(prefs: dict[str, bool | int | str]) -> str:
    """``user_pref("name", value);`` lines, values written as JavaScript literals."""

    def literal(value: bool | int | str) -> str:
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, int):
            return str(value)
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'

    return "".join(f'user_pref("{name}", {literal(value)});\n' for name, value in prefs.items())


def plan_firefox(request: PageRequest) -> LaunchPlan:
    """An ordinary window with tabs and an address bar (autoplay locates the board inside it) on the page.

    ``--no-remote`` starts a browser of its own even when the user's firefox is running (otherwise the URL would
    open in that one and this process exit); ``--profile`` a private profile whose ``user.js`` holds the
    settings; ``--new-window`` opens the page as the only tab.
    """
    profile = request.root / "firefox-profile"
    profile.mkdir(parents=True, exist_ok=True)
    (profile / "user.js").write_text(user_js(firefox_prefs(request.scale)), encoding="utf-8")
    width, height = scaled_window(request.window, request.scale)
    argv = [
        request.binary,
        "--no-remote",
        "--profile",
        str(profile),
        "--width",
        str(width),
        "--height",
        str(height),
        "--new-window",
        request.url,
    ]
    env = {**private_home(request.root), **_X11_ENV, "MOZ_ENABLE_WAYLAND": "0", "MOZ_CRASHREPORTER_DISABLE": "1"}
    return LaunchPlan(argv, env)


BROWSERS: dict[str, BrowserSpec] = {
    spec.name: spec
    for spec in (
        BrowserSpec(
            "chromium",
            "chromium",
            "chromium",
            "Chromium",
            "",
            frozenset({"about:blank", "new tab", "untitled", "chromium", "loading..."}),
            plan_chromium,
        ),
        BrowserSpec(
            "firefox",
            "firefox-esr",
            "firefox-esr",
            "firefox-esr",
            "— Mozilla Firefox",
            frozenset({"about:blank", "new tab", "mozilla firefox", "firefox", "firefox-esr"}),
            plan_firefox,
        ),
    )
}


def running_as_root() -> bool:
    """Chromium refuses to start as root unless its sandbox is turned off."""
    return hasattr(os, "geteuid") and os.geteuid() == 0
