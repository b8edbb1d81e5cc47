#!/usr/bin/env bash
# Set-up and the full test suite in one command: installs what is needed (scripts/install.sh), then runs every
# test, including the end-to-end games on real gnome-mines and xdemineur windows under Xvfb.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
exec .venv/bin/python -m pytest "$@"
