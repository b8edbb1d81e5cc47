"""Paths shared by the vision tests: the real screenshots and the shipped skins."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO / "tests" / "fixtures"
SHARED = FIXTURES / "real-screenshots"


@pytest.fixture(autouse=True)
def _repo_home(monkeypatch: pytest.MonkeyPatch) -> None:
    """Skins come from this checkout, whatever AUTOPLAY_HOME the machine has."""
    monkeypatch.setenv("AUTOPLAY_HOME", str(REPO))
