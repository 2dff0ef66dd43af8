#!/usr/bin/env bash
# Install what the test suite needs, then run the whole suite.
#   bash scripts/test.sh [extra pytest arguments]
#
# Every package comes from Debian's packages (apt), PyPI (pip) or crates.io (cargo); nothing
# here, nor in the tests, needs the npm registry. Each install step writes its output to
# .cache/install.log and, if it fails, prints one line that says what to install.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .cache
LOG=.cache/install.log
: >"$LOG"

# step "what failed; what to install" command...: runs one install step quietly.
step() {
    local hint="$1"; shift
    if ! "$@" >>"$LOG" 2>&1; then
        echo "scripts/test.sh: $hint (output in $LOG)" >&2
        exit 1
    fi
}

# Browser tests drive Debian's chromium through Playwright; the web server's
# persistence tests also run on a throwaway cluster of Debian's PostgreSQL.
NEED=""
command -v chromium >/dev/null 2>&1 || NEED="$NEED chromium"
if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && ! command -v initdb >/dev/null 2>&1; then
    NEED="$NEED postgresql"
fi
if [ -n "$NEED" ]; then
    SUDO=""
    if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi
    step "apt-get update failed; install Debian's$NEED by hand (apt-get install$NEED)" $SUDO apt-get update
    step "could not install Debian's$NEED; install it by hand (apt-get install -y$NEED)" \
        env DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y --no-install-recommends $NEED
fi

# Python packages from PyPI, the test extra included (axe-core, the accessibility checker that
# tests/web/test_axe.py injects through Playwright, comes inside the pinned PyPI package
# axe-playwright-python, so nothing downloads at test time), and the compiled core
# (crates/boardlab-core, crates from crates.io) where cargo exists: scripts/setup.sh.
bash scripts/setup.sh test

# The compiled core's own unit tests. Without cargo, the suite runs on the Python rules alone and
# the core's tests skip with a one-line reason.
if [ -f crates/boardlab-core/Cargo.toml ] && command -v cargo >/dev/null 2>&1; then
    cargo test -q --manifest-path crates/boardlab-core/Cargo.toml --no-default-features
fi

# The import contracts (pyproject.toml, [tool.importlinter]; docs/architecture.md):
# layers, the per-game module order, and no cycles. A new back edge fails here.
lint-imports --no-cache

# The seed concordance (docs/rules/<game>.concordance.csv): coverage per game, and every problem.
# Skips with a one-line reason where ../shared/seeds is absent; tests/test_concordance.py checks it too.
python scripts/concordance.py

# Exit code 5 ("no tests collected") is a failure too.
exec python -m pytest -p no:cacheprovider tests boardlab "$@"
