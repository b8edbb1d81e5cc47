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
