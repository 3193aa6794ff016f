#!/usr/bin/env bash
# Measures racing publishes to catalog targets and prints the table of docs/src/targets/catalogs.md:
# K = 4 catalog-only jobs (0.2.0 … 0.5.0 above a published 0.1.0) started together against one
# shared dir: folder and one bare git repository, RACE_TRIALS trials each (default 20).
#
#   scripts/race_catalog.sh          # 20 trials per target kind
#   RACE_TRIALS=5 scripts/race_catalog.sh
#
# Columns: trials, jobs, exits 0, refused as older than the head (what a sequential run gives
# a version that starts after a higher one landed), other failures, versions lost (exit 0 but
# not in the final catalog), forks (a channel that is not one replaces chain), jobs by the
# decisions they took again (0/1/2/3+), jobs that waited for the dir: lock, wall time.
set -euo pipefail
cd "$(dirname "$0")/.."
export RACE_TRIALS="${RACE_TRIALS:-20}"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
cargo nextest run --config-file scripts/nextest.toml --no-fail-fast \
    --success-output immediate --failure-output immediate race::catalog:: >"$out" 2>&1 || status=$?
echo "| target | K | trials | jobs | exit 0 | refused as older | other failures | lost | forks | decided again 0/1/2/3+ | waited for the lock | time |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
grep -E '^\s*\| `' "$out" | sed 's/^\s*//' | sort -u
if [ "${status:-0}" != 0 ]; then
  echo "race_catalog: a test failed; its output:" >&2
  cat "$out" >&2
  exit 1
fi
