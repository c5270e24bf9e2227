#!/usr/bin/env bash
# Readies the student page's browser test (tests/browser) for `make test`:
# chromium, node and npm from the system's packages (install-deps.sh
# --browser), then the test's npm packages (puppeteer-core, pinned by
# tests/browser/package-lock.json) with `npm ci` when node_modules is missing
# or older than the lock file. It runs before CMake configures, which
# registers the test only when all of them are there.
# No browser is ever downloaded (PUPPETEER_SKIP_DOWNLOAD): the test drives
# the system's chromium. Where npm cannot install (no registry), it says so
# and the build goes on without the browser test rather than failing.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

bash "$root/scripts/install-deps.sh" --browser

cd "$root/tests/browser"
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "attnviz: node or npm not found: the browser test (tests/browser) is skipped." >&2
  exit 0
fi
# npm writes node_modules/.package-lock.json on every install: it is the
# stamp of what is installed.
stamp=node_modules/.package-lock.json
if [ -f "$stamp" ] && [ ! package-lock.json -nt "$stamp" ] && [ ! package.json -nt "$stamp" ]; then
  exit 0
fi
echo "attnviz: installing the browser test's npm packages (tests/browser: npm ci)"
if ! PUPPETEER_SKIP_DOWNLOAD=1 npm ci --no-audit --no-fund; then
  rm -rf node_modules
  echo "attnviz: npm ci failed in tests/browser: the browser test is skipped (see above)." >&2
fi
