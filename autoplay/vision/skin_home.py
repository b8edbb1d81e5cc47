"""Where skins live: the user's own skins first, then the ones shipped inside the package.

A skin folder ("home") holds ``calibration/NAME.toml`` and ``templates/NAME/``.  Skins a user makes go to
their home: ``$AUTOPLAY_HOME`` when set, else the platform's per-user data folder (``~/.local/share/autoplay`` on
Linux, ``%LOCALAPPDATA%\\autoplay`` on Windows, ``~/Library/Application Support/autoplay`` on macOS) — never into
the installed package.  The shipped skins are package data (``autoplay.skins``), found through
``importlib.resources`` in a wheel and in a checkout alike.  A user's skin of the same name wins, so a recalibrated
``gnome-mines`` replaces the shipped one without touching it.
"""

from __future__ import annotations

import os
from importlib.resources import files
from pathlib import Path

from platformdirs import user_data_path

HOME_ENV = "AUTOPLAY_HOME"


def user_home() -> Path:
    """Where ``autoplay calibrate`` writes and the first place skins are looked up: ``$AUTOPLAY_HOME`` or the per-user folder."""
    env = os.environ.get(HOME_ENV)
    return Path(env) if env else user_data_path("autoplay", appauthor=False)


def shipped_home() -> Path:
    """The folder holding the shipped ``calibration/`` and ``templates/`` (inside the installed package, or the checkout)."""
    return Path(str(files("autoplay.skins.calibration"))).parent


def skin_homes() -> list[Path]:
    """Every folder searched for skins, in order: the user's home, then the shipped skins."""
    homes = [user_home(), shipped_home()]
    return [home for i, home in enumerate(homes) if home.resolve() not in {h.resolve() for h in homes[:i]}]
