#!/usr/bin/env bash
# Set-up and every check in one command: installs what is needed (scripts/install.sh), then the linter, the
# formatter check and the type checker, then every test, including the end-to-end games on real gnome-mines and
# xdemineur windows under Xvfb and the wheel installed into a fresh venv. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
echo "==> ruff check"
.venv/bin/ruff check .
echo "==> ruff format --check"
.venv/bin/ruff format --check .
echo "==> mypy"
.venv/bin/mypy
echo "==> pytest"
exec .venv/bin/pytest "$@"
