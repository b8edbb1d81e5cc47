"""Make the pictures of the docs site and the README from real runs (nothing drawn by hand).

Usage: .venv/bin/python scripts/docs_pictures.py [--out docs/images] [--games 2]

On a private Xvfb it teaches autoplay the real sgt-mines (a game with no shipped skin) by ``calibrate --live`` alone,
as "Teach it your game" tells a user to, then plays a few games with ``play --record``, makes the session page with
``autoplay report`` and photographs it in headless Chromium.  Written to ``--out``:

- ``game.png``: the game's window as the bot sees it;
- ``contact-sheet.png``: the contact sheet calibration wrote (every tile it cut, with the name it gave);
- ``first-game.png``: the first recorded decision of the first game, drawn by ``autoplay replay`` (heat map, move);
- ``report.png``: the top of the session page, as a browser shows it.

Run it again whenever those screens change; the docs test checks that every picture the pages name exists.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import cv2  # noqa: E402

from autoplay.control.capture import grab  # noqa: E402
from autoplay.control.games import launch_game  # noqa: E402
from autoplay.control.xserver import VirtualDisplay  # noqa: E402

SKIN = "sgtmines"
#: What a user would pass for sgt-mines (README, "Supported games"): an opening at the first click, n for a new game.
TEACH = ["--first-click", "zero", "--win", "reveal", "--new-game-key", "n", "--mines", "16x30=99"]


def run(cmd: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """Run an autoplay command; a failure stops the script with what the command said."""
    proc = subprocess.run([sys.executable, "-m", "autoplay", *cmd], env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"docs_pictures: autoplay {cmd[0]} exited {proc.returncode}: {proc.stderr.strip()[-400:]}")
    return proc


def first_guess(recording: Path) -> str:
    """The frame name of the first guess after the opening click: a board with a heat map worth looking at."""
    decisions = [json.loads(line) for line in (recording / "decisions.jsonl").read_text().splitlines() if line]
    decisions = [d for d in decisions if d.get("type") == "decision"]
    chosen = next((d for d in decisions[1:] if d["guess"]), decisions[len(decisions) // 3])
    return Path(chosen["frame"]).name.split(".")[0]


def photograph(page: Path, out: Path, size: str = "1280,1000") -> None:
    """A screenshot of ``page`` as headless Chromium draws it."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None:
        sys.exit("docs_pictures: chromium is needed to photograph the report page (bash scripts/install.sh)")
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(
            [chromium, "--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}",
             f"--window-size={size}", f"--screenshot={out}", page.as_uri()],
            capture_output=True, timeout=120, check=True,
        )  # fmt: skip


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "images", help="folder for the pictures")
    ap.add_argument("--games", type=int, default=2, help="games to play and record (default 2)")
    ap.add_argument("--keep", type=Path, help="also keep the skin and the recording in this folder")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp, VirtualDisplay(1280, 900) as display:
        work = Path(tmp)
        env = {**os.environ, "DISPLAY": display.name, "AUTOPLAY_HOME": str(work / "home")}
        with launch_game("sgt-mines", display.name) as game:
            w = game.window
            cv2.imwrite(str(args.out / "game.png"), grab((w.x, w.y, w.width, w.height), display.name))
            teach = ["calibrate", "--live", "--window-class", "sgt-mines", "--name", SKIN, *TEACH]
            run([*teach, "--out-root", str(work / "home")], env)
            shutil.copy(work / "home" / "templates" / SKIN / "contact-sheet.png", args.out / "contact-sheet.png")
            recording = work / "session"
            run(["play", "--skin", SKIN, "--games", str(args.games), "--record", str(recording)], env)
        run(["replay", str(recording), "--out", str(work / "drawn")], env)
        shutil.copy(work / "drawn" / f"{first_guess(recording)}.png", args.out / "first-game.png")
        run(["report", str(recording)], env)
        photograph(recording / "report.html", args.out / "report.png")
        if args.keep is not None:
            shutil.copytree(work, args.keep, dirs_exist_ok=True)
    print(f"pictures in {args.out}: " + ", ".join(sorted(p.name for p in args.out.glob("*.png"))))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
