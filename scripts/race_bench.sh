#!/usr/bin/env bash
# Measures many jobs publishing to one catalog branch (issue 35, item 4) and prints the table of
# docs/src/targets/catalogs.md: K catalog-only jobs started together (random order, random
# delays up to 40 ms), each its own olm-release process and output folder, pushing to one bare
# git repository on disk through the real git binary. Rows: K = 8, 16, 32 different packages
# (each its first release) and K = 8 versions of one package (above a published 0.1.0),
# RACE_TRIALS trials each (default 5). It prints figures; it is not a timed test.
#
#   scripts/race_bench.sh                    # the whole table
#   RACE_TRIALS=2 RACE_SIZES="8 16" scripts/race_bench.sh
#
# Columns: jobs, exit 0, refused as older than the head (what a sequential run gives a version
# that starts after a higher one landed), other failures (refusals a sequential run would not
# give), lost (exit 0 but not in the final catalog), packages whose channel is not one chain
# from a single head, packages with more than one commit adding the same version, retries per
# job (mean / max), retries that applied the change again / decided again, wall time per job
# (mean / max, from its start to its exit).
set -euo pipefail
cd "$(dirname "$0")/.."
export RACE_TRIALS="${RACE_TRIALS:-5}"
sizes="${RACE_SIZES:-8 16 32}"
versions="${RACE_VERSIONS:-8}"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
cargo build --quiet --tests -p olm-release
run() {
  cargo nextest run --config-file scripts/nextest.toml --no-fail-fast \
    --success-output immediate --failure-output immediate --test it "$1" >>"$out" 2>&1 || status=$?
}
for k in $sizes; do
  RACE_PACKAGES=$k run race::packages::many_packages_racing_on_one_branch_all_publish
done
RACE_VERSIONS=$versions run race::packages::many_versions_of_one_package_racing_on_one_branch_lose_nothing
echo "| jobs on one branch | K | trials | jobs | exit 0 | refused as older | other failures | lost | not one chain | duplicate commits | retries per job (mean / max) | applied again / decided again | wall time per job (mean / max) |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|"
grep -E '^\s*\| (different packages|one package) ' "$out" | sed 's/^\s*//' | awk '!seen[$0]++'
if [ "${status:-0}" != 0 ]; then
  echo "race_bench: a test failed; its output:" >&2
  cat "$out" >&2
  exit 1
fi
