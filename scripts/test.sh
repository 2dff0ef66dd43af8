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

# Python packages from PyPI, the test extra included. axe-core (the accessibility checker that
# tests/web/test_axe.py injects through Playwright) comes inside the pinned PyPI package
# axe-playwright-python, so nothing downloads at test time.
step "could not install boardlab's Python packages from PyPI; run: python -m pip install -e '.[test]'" \
    python -m pip install -q -e '.[test]'

# The compiled core (crates/boardlab-core: Rust, PyO3, built by maturin), where cargo exists.
# Its crates come from crates.io. Without cargo, the suite runs on the Python engine alone and
# the core's tests skip with a one-line reason.
if [ -f crates/boardlab-core/Cargo.toml ]; then
    if command -v cargo >/dev/null 2>&1; then
        step "could not build the compiled core; install Rust (cargo) and maturin (pip install maturin), or see $LOG" \
            python -m pip install -q -e crates/boardlab-core
        step "the compiled core's own tests (cargo test) failed; see $LOG" \
            cargo test -q --manifest-path crates/boardlab-core/Cargo.toml --no-default-features
    else
        echo "scripts/test.sh: cargo not found: the compiled core is not built, its tests skip (install Rust to test it)" >&2
    fi
fi

# The import contracts (pyproject.toml, [tool.importlinter]; docs/architecture.md):
# layers, the per-game module order, and no cycles. A new back edge fails here.
lint-imports --no-cache

# The seed concordance (docs/rules/<game>.concordance.csv): coverage per game, and every problem.
# Skips with a one-line reason where ../shared/seeds is absent; tests/test_concordance.py checks it too.
python scripts/concordance.py

# Exit code 5 ("no tests collected") is a failure too.
exec python -m pytest -p no:cacheprovider tests boardlab "$@"
