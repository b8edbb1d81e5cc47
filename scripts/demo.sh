#!/usr/bin/env bash
# Set-up and the main job in one command: installs what is needed (scripts/install.sh), then, on a virtual X
# display, launches the real gnome-mines at expert size (or --game xdemineur), plays a few games (default 3) and
# leaves the recording and an HTML page about it in ./runs/demo-<timestamp>/; the last line printed is the
# page's path (open it in any browser: everything is inside the one file).
# Usage: bash scripts/demo.sh [--game gnome-mines|xdemineur] [--games N] [--preset expert]
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
exec .venv/bin/python -m autoplay demo "$@"
