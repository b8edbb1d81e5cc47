#!/usr/bin/env bash
# Headless demo: starts Xvfb, launches the real gnome-mines (or: --game xdemineur) at expert size, plays a few
# games (default 3) and leaves the recording and annotated pictures in ./runs/demo-<timestamp>/.
# Usage: scripts/demo.sh [--game gnome-mines|xdemineur] [--games N] [--preset expert]
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
[ -x "$PY" ] || PY=python3
exec "$PY" -m autoplay demo "$@"
