#!/usr/bin/env bash
# Installs everything autoplay needs: on Debian/Ubuntu the X11 tools and the real Minesweeper clones (for live play
# and the end-to-end tests), then a virtual environment in .venv with autoplay and the exact Python package versions
# of constraints.txt. Safe to run again: it only adds what is missing.
#
# Usage: bash scripts/install.sh [--no-system]
#   --no-system   skip the system packages (you manage them yourself, or only want solve/simulate/decode/replay)
set -euo pipefail
cd "$(dirname "$0")/.."

APT_PACKAGES=(python3 python3-venv python3-dev gcc python3-tk xvfb xdotool x11-utils openbox gnome-mines xdemineur chromium firefox-esr sgt-puzzles kmines dbus xbomb)

system=1
for arg in "$@"; do
  case "$arg" in
    --no-system) system=0 ;;
    -h | --help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "install.sh: unknown option $arg (see --help)" >&2; exit 2 ;;
  esac
done

cannot_install() {  # what is missing, why we cannot add it, and how to go on
  echo "install.sh: cannot install the system packages: $1." >&2
  echo "  needed: ${missing[*]}" >&2
  echo "  install them yourself (Debian/Ubuntu: apt-get install ${missing[*]}; elsewhere: Python >= 3.11 with venv," >&2
  echo "  and for live play and the end-to-end tests Xvfb, xdotool, xwininfo, gnome-mines, xdemineur)," >&2
  echo "  then run again with --no-system." >&2
  exit 1
}

if [ "$system" -eq 1 ]; then
  missing=("${APT_PACKAGES[@]}")
  if command -v dpkg-query >/dev/null 2>&1; then
    missing=()
    for pkg in "${APT_PACKAGES[@]}"; do
      dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
    done
  fi
  if [ "${#missing[@]}" -gt 0 ]; then
    command -v apt-get >/dev/null 2>&1 || cannot_install "this is not a Debian-like system (no apt-get)"
    if [ "$(id -u)" -eq 0 ]; then
      as_root=()
    elif command -v sudo >/dev/null 2>&1; then
      as_root=(sudo)
    else
      cannot_install "not running as root and sudo is not available"
    fi
    echo "==> installing Debian packages: ${missing[*]}"
    "${as_root[@]}" apt-get update -qq
    "${as_root[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
  fi
fi

PYTHON=${PYTHON:-python3}
command -v "$PYTHON" >/dev/null 2>&1 || { echo "install.sh: $PYTHON not found: install Python >= 3.11" >&2; exit 1; }
"$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' ||
  { echo "install.sh: autoplay needs Python >= 3.11, $PYTHON is $("$PYTHON" --version 2>&1)" >&2; exit 1; }
if [ ! -x .venv/bin/python ]; then
  echo "==> creating .venv with $("$PYTHON" --version)"
  "$PYTHON" -m venv .venv || { echo "install.sh: '$PYTHON -m venv' failed (Debian: apt-get install python3-venv)" >&2; exit 1; }
fi
echo "==> installing autoplay and the versions in constraints.txt into .venv (compiling the solver takes about a minute)"
# pip's own messages pass through (a few "location ... is ignored" notes about local package mirrors are dropped);
# its exit status is kept, so a failed install stops here. PIP_CONSTRAINT pins the build's own tools (mypy compiles
# the solver) to constraints.txt too; without a C compiler the solver installs as pure Python (setup.py).
PIP_CONSTRAINT=constraints.txt .venv/bin/python -m pip install -q --disable-pip-version-check -c constraints.txt -e ".[test,cluster,docs]" \
  2> >(grep -v "is ignored: it is neither a file nor a directory" >&2) ||
  { echo "install.sh: pip could not install autoplay (its error is above)" >&2; exit 1; }
.venv/bin/python -c "import autoplay, cv2, numpy, mss" || { echo "install.sh: installed, but autoplay does not import" >&2; exit 1; }
echo "==> $(.venv/bin/autoplay --version)"
echo "==> ready: 'source .venv/bin/activate' puts autoplay on PATH (or run .venv/bin/autoplay)"
