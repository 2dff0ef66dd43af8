#!/usr/bin/env bash
# Install what the test suite needs, then run the whole suite.
#   bash scripts/test.sh [extra pytest arguments]
set -euo pipefail
cd "$(dirname "$0")/.."

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
    $SUDO apt-get update
    $SUDO apt-get install -y $NEED
fi

python -m pip install -q -e '.[test]'

# axe-core (the accessibility checker tests/web/test_axe.py injects through Playwright), from the
# npm registry into .cache/axe (ignored by git), only if missing: nothing downloads at test time.
if [ ! -f .cache/axe/node_modules/axe-core/axe.min.js ]; then
    mkdir -p .cache/axe
    npm install --prefix .cache/axe --no-save --no-audit --no-fund axe-core@4
fi

# The import contracts (pyproject.toml, [tool.importlinter]; docs/architecture.md):
# layers, the per-game module order, and no cycles. A new back edge fails here.
lint-imports --no-cache

# The seed concordance (docs/rules/<game>.concordance.csv): coverage per game, and every problem.
# Skips with a one-line reason where ../shared/seeds is absent; tests/test_concordance.py checks it too.
python scripts/concordance.py

# Exit code 5 ("no tests collected") is a failure too.
exec python -m pytest -p no:cacheprovider tests boardlab "$@"
