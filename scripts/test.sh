#!/usr/bin/env bash
# Set-up and every check in one command: installs what is needed (scripts/install.sh), then the linter, the
# formatter check and the type checker, then every test, including the end-to-end games on real gnome-mines and
# xdemineur windows under Xvfb and the wheel installed into a fresh venv. Extra arguments go to pytest.
#
# The tests run in parallel: pytest-xdist with AUTOPLAY_TEST_WORKERS workers (4 unless set; each live test starts
# its own Xvfb, so workers never share a display); `-n 0` among the arguments runs them in this one process.
#
# Usage: bash scripts/test.sh [--fast] [pytest arguments]
#   --fast   the inner loop, in under 2 minutes: no set-up (run this script once without it first), the same ruff
#            and mypy checks, then every test but the live games and browsers (marker e2e) and the slow builds
#            (marker slow)
set -euo pipefail
cd "$(dirname "$0")/.."
select=()
if [ "${1:-}" = "--fast" ]; then
  shift
  select=(-m "not e2e and not slow")
  .venv/bin/python -c "import xdist" 2>/dev/null ||
    { echo "test.sh: --fast needs the set-up done: run bash scripts/install.sh (or bash scripts/test.sh) first" >&2; exit 1; }
else
  bash scripts/install.sh
fi
# Python's bytecode caches are written even where the environment turns them off (PYTHONDONTWRITEBYTECODE): every
# worker would otherwise rewrite and compile each test module on every run (5 s a collection instead of 2), and
# each of the suite's few hundred autoplay processes would compile the package afresh. __pycache__ is ignored by git.
unset PYTHONDONTWRITEBYTECODE
echo "==> ruff check"
.venv/bin/ruff check .
echo "==> ruff format --check"
.venv/bin/ruff format --check .
echo "==> mypy"
.venv/bin/mypy
echo "==> pytest"
exec .venv/bin/pytest -n "${AUTOPLAY_TEST_WORKERS:-4}" --dist loadgroup --no-loadscope-reorder "${select[@]}" "$@"
