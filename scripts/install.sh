#!/usr/bin/env bash
# Installs everything autoplay needs on a Debian/Ubuntu machine: the X11 tools and the real Minesweeper clones
# (for live play and the end-to-end tests), and a virtual environment in .venv with the pinned Python packages.
# Safe to run again: it only adds what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(python3 python3-venv python3-tk xvfb xdotool x11-utils gnome-mines xdemineur sgt-puzzles kmines dbus xbomb)

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

missing=()
for pkg in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "==> installing Debian packages: ${missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "==> creating .venv with $($PYTHON --version)"
  $PYTHON -m venv .venv
fi
echo "==> installing autoplay and its pinned dependencies into .venv"
.venv/bin/python -m pip install -q --disable-pip-version-check -e ".[test]" 2>&1 | grep -v "is ignored" || true
.venv/bin/python -c "import autoplay, cv2, numpy, mss" || { echo "install failed: autoplay does not import" >&2; exit 1; }
echo "==> ready: .venv/bin/autoplay --help"
