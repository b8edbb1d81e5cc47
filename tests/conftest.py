"""Every test, and every process a test starts, sees an empty per-user skin folder and no AUTOPLAY_HOME.

Skins a user made on this machine (``~/.local/share/autoplay``) are found before the shipped ones, so without this
a stale personal ``gnome-mines`` skin would decide what the tests read.
"""

from __future__ import annotations

import os
import shutil
import signal
import tempfile
from pathlib import Path

import pytest

import autoplay  # noqa: F401  (before numpy: the process environment it sets is read when numpy loads)
from tests.packaging.wheel import InstalledWheel, build_and_install

_DATA_HOME = tempfile.mkdtemp(prefix="autoplay-test-data-")


def pytest_configure(config: pytest.Config) -> None:
    os.environ["XDG_DATA_HOME"] = _DATA_HOME
    os.environ.pop("AUTOPLAY_HOME", None)
    # Tests send Ctrl-C (SIGINT) to the commands they start. A shell runs a background job (`cmd &`) with SIGINT
    # ignored, and an ignored signal stays ignored in every program started from it; a handled one does not.
    signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_unconfigure(config: pytest.Config) -> None:
    shutil.rmtree(_DATA_HOME, ignore_errors=True)


@pytest.fixture(autouse=True)
def _temp_files_in_the_test_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What the code under test writes to the system temp folder (the debug pictures nobody named a folder for)
    lands in the test's own folder, which pytest keeps for the last few runs, instead of piling up in /tmp."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))


@pytest.fixture(scope="session")
def installed_wheel(tmp_path_factory: pytest.TempPathFactory) -> InstalledWheel:
    """autoplay built as a wheel and installed in a fresh venv outside the checkout (built once per test run)."""
    return build_and_install(tmp_path_factory.mktemp("wheel"))


#: What pytest-xdist hands out first: live games and browsers, then other slow set-ups, then the quick tests, which
#: fill in behind them.
_LONG_FIRST = ("e2e", "slow")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Group tests for pytest-xdist's ``--dist loadgroup`` (what scripts/test.sh runs) and put the long ones first.

    A module's tests go to one worker together, so a display, game or taught skin it sets up once (a module-scoped
    fixture) is set up once in the whole run, unless the module is marked ``spread``: its tests each start what they
    need and may run on any worker. The tests that use the installed wheel share one group, so it is built once.
    A long test handed out last would keep one worker busy after the others ran dry, so the groups with live or slow
    tests go first, and among those the ones that cannot be split (only under xdist: a plain run keeps the order).
    """
    units: dict[str, str] = {}
    for item in items:
        module = item.nodeid.split("::")[0]
        if item.get_closest_marker("spread") is not None:
            units[item.nodeid] = module
            continue
        if item.get_closest_marker("xdist_group") is None:
            group = "installed-wheel" if "installed_wheel" in item.fixturenames else module
            item.add_marker(pytest.mark.xdist_group(group))
        units[item.nodeid] = "@" + "_".join(sorted({_group_name(m) for m in item.iter_markers("xdist_group")}))
    if getattr(config.option, "dist", "no") == "no":
        return
    rank: dict[str, int] = {}
    for item in items:
        marks = [i for i, name in enumerate(_LONG_FIRST) if item.get_closest_marker(name) is not None]
        rank[units[item.nodeid]] = min(rank.get(units[item.nodeid], len(_LONG_FIRST)), *marks, len(_LONG_FIRST))
    items.sort(key=lambda item: (rank[units[item.nodeid]], not units[item.nodeid].startswith("@")))


def _group_name(mark: pytest.Mark) -> str:
    """The group an ``xdist_group`` mark names, read as pytest-xdist reads it."""
    return str(mark.args[0] if mark.args else mark.kwargs.get("name", "default"))
