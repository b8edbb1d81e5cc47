"""What a browser launch plans (command line, private profile, environment), how the page's window is told apart,
and how ``autoplay launch`` refuses options of the other kind of target.  No browser and no X display needed."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from autoplay.cli.main import main
from autoplay.control import games
from autoplay.control.browsers import BROWSERS, PageRequest, looks_like_address, user_js
from autoplay.control.games import find_binary, launch_page
from autoplay.control.window import Window
from autoplay.errors import ControlError

URL = "http://127.0.0.1:8765/index.html"


def _plan(name: str, root: Path, scale: float = 1.0, window: tuple[int, int] = (1100, 800), as_root: bool = False):
    spec = BROWSERS[name]
    return spec.plan(PageRequest(root, f"/usr/bin/{spec.binary}", URL, scale, window, as_root))


def _prefs(profile: Path) -> dict[str, str]:
    """user.js as name -> value text, checking every line is a well-formed ``user_pref("name", value);``."""
    prefs = {}
    for line in (profile / "user.js").read_text().splitlines():
        match = re.fullmatch(r'user_pref\("([\w.-]+)", (true|false|-?\d+|"(?:[^"\\]|\\.)*")\);', line)
        assert match, line
        prefs[match[1]] = match[2]
    return prefs


@pytest.mark.parametrize(("scale", "size"), [(1.0, "1100,800"), (1.25, "880,640"), (1.5, "733,533"), (2.0, "550,400")])
def test_chromium_opens_the_page_alone_in_a_private_profile_at_the_scale_asked(tmp_path, scale, size):
    plan = _plan("chromium", tmp_path, scale)
    assert plan.argv[0] == "/usr/bin/chromium"
    assert plan.argv[1] == f"--app={URL}"  # no tabs, no address bar: the page is the window
    assert f"--user-data-dir={tmp_path / 'chromium-profile'}" in plan.argv
    assert (tmp_path / "chromium-profile").is_dir()
    assert f"--force-device-scale-factor={scale:g}" in plan.argv
    # the browser multiplies the size it is given by the scale: it is asked for less, so the window is 1100x800
    assert f"--window-size={size}" in plan.argv and "--window-position=0,0" in plan.argv
    for flag in (
        "--test-type",
        "--no-first-run",
        "--no-default-browser-check",
        "--disable-extensions",
        "--disable-gpu",
        "--disable-features=Translate",
        "--deny-permission-prompts",
        "--password-store=basic",
    ):
        assert flag in plan.argv, flag
    assert "--no-sandbox" not in plan.argv  # only root needs it
    assert "--no-sandbox" in _plan("chromium", tmp_path, as_root=True).argv
    # crash reports and caches go to the private folder, not the user's home
    assert all(plan.env[key].startswith(str(tmp_path)) for key in ("HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME"))


@pytest.mark.parametrize(("scale", "size"), [(1.0, ["1100", "800"]), (1.25, ["880", "640"])])
def test_firefox_gets_a_private_profile_whose_user_js_turns_off_everything_that_covers_the_page(tmp_path, scale, size):
    plan = _plan("firefox", tmp_path, scale)
    profile = tmp_path / "firefox-profile"
    assert plan.argv == [
        "/usr/bin/firefox-esr",
        "--no-remote",
        "--profile",
        str(profile),
        "--width",
        size[0],
        "--height",
        size[1],
        "--new-window",
        URL,
    ]
    prefs = _prefs(profile)
    assert prefs["layout.css.devPixelsPerPx"] == f'"{scale:g}"'
    expected = {
        "browser.shell.checkDefaultBrowser": "false",  # default-browser question
        "browser.aboutwelcome.enabled": "false",  # first-run pages
        "startup.homepage_welcome_url": '""',
        "browser.startup.homepage_override.mstone": '"ignore"',
        "datareporting.policy.dataSubmissionEnabled": "false",  # telemetry
        "toolkit.telemetry.reportingpolicy.firstRun": "false",
        "datareporting.policy.dataSubmissionPolicyBypassNotification": "true",
        "browser.sessionstore.resume_from_crash": "false",  # session restore
        "browser.startup.page": "0",
        "app.update.auto": "false",  # updates
        "permissions.default.geo": "2",  # a location prompt over the page, seen here
    }
    assert {name: prefs.get(name) for name in expected} == expected
    assert plan.env["HOME"].startswith(str(tmp_path)) and plan.env["MOZ_ENABLE_WAYLAND"] == "0"


def test_user_js_writes_javascript_literals():
    assert user_js({"a.b": True, "c": 0, "d": 'say "hi" \\'}) == (
        'user_pref("a.b", true);\nuser_pref("c", 0);\nuser_pref("d", "say \\"hi\\" \\\\");\n'
    )


def test_a_window_showing_a_placeholder_or_the_address_is_not_yet_the_page():
    chromium, firefox = BROWSERS["chromium"], BROWSERS["firefox"]
    assert chromium.page_title("Expert Mines", URL) == "Expert Mines"
    assert firefox.page_title("Expert Mines — Mozilla Firefox", URL) == "Expert Mines"
    for placeholder in ("", "about:blank", "New Tab", "Chromium", "127.0.0.1_/index.html", "127.0.0.1:8765/index.html"):
        assert chromium.page_title(placeholder, URL) is None, placeholder
    for placeholder in ("Mozilla Firefox", "New Tab — Mozilla Firefox", "127.0.0.1:8765/index.html — Mozilla Firefox"):
        assert firefox.page_title(placeholder, URL) is None, placeholder
    # a title that merely shares words with the address is the page's own
    assert not looks_like_address("Minesweeper", "https://minesweeper.example/")
    assert looks_like_address("minesweeper.example", "https://minesweeper.example/")


def test_unknown_browser_bad_scale_and_missing_binary_are_refused_before_starting(monkeypatch):
    with pytest.raises(ControlError, match="unknown browser"):
        launch_page("netscape", ":0", URL)
    with pytest.raises(ControlError, match="scale 5 is outside"):
        launch_page("chromium", ":0", URL, scale=5)
    monkeypatch.setattr(games.shutil, "which", lambda name: None)
    monkeypatch.setattr(games, "GAME_DIRS", ())
    with pytest.raises(ControlError, match=r"firefox-esr is not installed \(Debian package: firefox-esr\)"):
        find_binary("firefox-esr")
    with pytest.raises(ControlError, match=r"Debian package: chromium"):
        launch_page("chromium", ":0", URL)


def test_a_page_launch_starts_its_plan_in_a_new_session_and_leaves_no_folder_when_it_fails(tmp_path, monkeypatch):
    started = {}

    def fake_popen(argv, env, **kwargs):
        started.update(argv=argv, env=env, **kwargs)
        raise OSError("stop before any window is looked for")

    monkeypatch.setattr(games, "find_binary", lambda name: f"/usr/bin/{name}")
    monkeypatch.setattr(games.subprocess, "Popen", fake_popen)
    with pytest.raises(OSError, match="stop before"):
        launch_page("firefox", ":7", URL, scale=1.5, window=(900, 600))
    assert started["argv"][:2] == ["/usr/bin/firefox-esr", "--no-remote"] and started["env"]["DISPLAY"] == ":7"
    assert started["start_new_session"]  # its own process group: stop() ends every process the browser forks
    profile = Path(started["argv"][3])
    assert not profile.exists()  # the private temporary folder went with the failed launch


class _Process:
    """A stand-in for the browser's Popen whose process group is this test's own."""

    pid = os.getpgid(0)

    def poll(self) -> None:
        return None


def _window(title: str, classes: tuple[str, ...], pid: int | None, size: tuple[int, int] = (1100, 800)) -> Window:
    return Window(1, 0, 0, *size, ":9", classes, title, pid=pid, titles=(title,))


@pytest.fixture
def stranger() -> Iterator[int]:
    """The pid of a process in a process group of its own (someone else's browser)."""
    process = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"], start_new_session=True)
    yield process.pid
    process.kill()
    process.wait()


def test_the_page_window_is_the_launchs_own_once_it_shows_a_title(monkeypatch, stranger):
    """Another browser's window with a real title, and the launch's own window before the page is read, are not
    the page; the launch's window is, once titled."""
    others = _window("Someone's Mines", ("x", "Chromium"), stranger)
    shown = [
        [others],
        [others, _window("127.0.0.1_/index.html", ("127.0.0.1__index.html", "Chromium"), os.getpid())],
        [others, _window("Mines", ("127.0.0.1__index.html", "Chromium"), os.getpid())],
    ]
    monkeypatch.setattr(games, "list_windows", lambda display: shown.pop(0) if len(shown) > 1 else shown[0])
    monkeypatch.setattr(games.time, "sleep", lambda s: None)
    found = games._find_page_window(":9", BROWSERS["chromium"], URL, _Process(), timeout=5)
    assert found.title == "Mines"
    assert len(shown) == 1  # every picture was looked at: the stranger's titled window was never taken


def test_a_page_without_a_title_is_taken_after_a_while_and_no_window_is_a_clear_error(monkeypatch):
    firefox = BROWSERS["firefox"]
    popup = _window("Firefox", ("Firefox", "firefox-esr"), os.getpid(), (415, 140))
    untitled = _window("Mozilla Firefox", ("Navigator", "firefox-esr"), os.getpid())
    monkeypatch.setattr(games, "list_windows", lambda display: [untitled, popup])
    monkeypatch.setattr(games, "UNTITLED_WAIT", 0.2)
    assert games._find_page_window(":9", firefox, URL, _Process(), timeout=5) is untitled
    monkeypatch.setattr(games, "list_windows", lambda display: [])
    with pytest.raises(ControlError, match=r"^firefox showed no window with the page within 0.3 s on :9"):
        games._find_page_window(":9", firefox, URL, _Process(), timeout=0.3)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["chromium"], "chromium needs --url"),
        (["firefox", "--scale", "1.25"], "firefox needs --url"),
        (["gnome-mines", "--url", URL], "--url is for browsers, not gnome-mines"),
        (["xdemineur", "--scale", "2"], "--scale is for browsers"),
        (["sgt-mines", "--window", "900x700"], "--window is for browsers"),
        (["chromium", "--url", URL, "--preset", "beginner"], "--preset is for the desktop games, not chromium"),
        (["firefox", "--url", URL, "--mines", "10", "--tile", "20"], "--mines, --tile are for the desktop games"),
        (["chromium", "--url", URL, "--no-guess"], "--no-guess is for the desktop games"),
        (["chromium", "--url", URL, "--scale", "7"], "argument --scale: must be from 0.5 to 4"),
        (["chromium", "--url", URL, "--scale", "big"], "argument --scale: expected a number"),
        (["firefox", "--url", URL, "--window", "1100"], "argument --window: expected WIDTHxHEIGHT"),
        (["firefox", "--url", URL, "--window", "100x80"], "argument --window: must be at least 200x200"),
    ],
)
def test_launch_refuses_the_options_of_the_other_kind_of_target_in_one_line(argv, message, capsys, monkeypatch):
    monkeypatch.setattr(games, "launch_page", lambda *a, **k: pytest.fail("nothing may be started"))
    monkeypatch.setattr(games, "launch_game", lambda *a, **k: pytest.fail("nothing may be started"))
    assert main(["launch", *argv, "--display", ":9"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err, err


def test_stopping_also_ends_what_runs_on_the_private_folder_outside_the_group(tmp_path, monkeypatch):
    """Chromium's crash handlers double-fork into sessions of their own with their database in the private home:
    ending the group misses them, so whatever still names the folder on its command line is ended too."""
    monkeypatch.setattr(games, "STRAY_WAIT", 0.3)
    sleeper = "import sys, time; time.sleep(30)"
    leader = subprocess.Popen([sys.executable, "-c", sleeper], start_new_session=True)
    stray = subprocess.Popen([sys.executable, "-c", sleeper, f"--database={tmp_path}/home"], start_new_session=True)
    time.sleep(0.3)
    assert games._running_on(tmp_path) == [stray.pid]
    games._end_launch(leader, tmp_path)
    assert stray.wait(timeout=5) == -signal.SIGKILL
    assert leader.poll() is not None and games._running_on(tmp_path) == []
