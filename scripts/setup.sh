#!/usr/bin/env bash
# Install boardlab from this checkout, and its compiled core where Rust is installed.
#   bash scripts/setup.sh            # boardlab (and the core, if cargo is on the PATH)
#   bash scripts/setup.sh test       # the same with the test extra (scripts/test.sh calls this)
#
# Python packages come from PyPI, Rust crates from crates.io. Without cargo boardlab is complete in
# pure Python: `pip install -e .` is all it needs, and every command runs on the Python rules.
# Each step writes its output to .cache/install.log and, if it fails, prints one line saying what to install.
set -euo pipefail
cd "$(dirname "$0")/.."
mkdir -p .cache
LOG=.cache/install.log
touch "$LOG"

step() {
    local hint="$1"; shift
    if ! "$@" >>"$LOG" 2>&1; then
        echo "scripts/setup.sh: $hint (output in $LOG)" >&2
        exit 1
    fi
}

EXTRA=""
if [ "${1:-}" = "test" ]; then EXTRA="[test]"; fi
step "could not install boardlab's Python packages from PyPI; run: python -m pip install -e '.$EXTRA'" \
    python -m pip install -q -e ".$EXTRA"

# The compiled core (crates/boardlab-core: Rust, PyO3, built by maturin).
if [ -f crates/boardlab-core/Cargo.toml ]; then
    if command -v cargo >/dev/null 2>&1; then
        step "could not build the compiled core; install Rust (cargo) and maturin (pip install maturin)" \
            python -m pip install -q -e crates/boardlab-core
    else
        echo "scripts/setup.sh: cargo not found: boardlab runs on the Python rules alone (install Rust for the compiled core)" >&2
    fi
fi
