#!/usr/bin/env bash
# Install what the test suite needs, then run the whole suite.
#   bash scripts/test.sh [extra pytest arguments]
set -euo pipefail
cd "$(dirname "$0")/.."

# Browser tests drive Debian's chromium through Playwright.
if ! command -v chromium >/dev/null 2>&1; then
    SUDO=""
    if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then SUDO="sudo"; fi
    $SUDO apt-get update
    $SUDO apt-get install -y chromium
fi

python -m pip install -q -e '.[test]'

# Exit code 5 ("no tests collected") is a failure too.
exec python -m pytest -p no:cacheprovider tests boardlab "$@"
