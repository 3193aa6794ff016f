#!/usr/bin/env bash
# Two builds of olm-release, interleaved, against the same floor: whether a change moved the
# speed of a release. Both binaries publish the same bundles to the same appr 0.7.4 server in
# alternating order, round after round (scripts/bench_measure.py each time, without courier),
# and the table gives, per N, the medians over the rounds of each build's publish time and its
# ratio to the floor (tar czf + sha256sum + base64 + one curl POST, measured beside it in the
# same round), and the change from the first build to the second.
#
#   scripts/bench_ab.sh BEFORE_BIN AFTER_BIN
#   BENCH_ROUNDS=5 BENCH_SIZES=10,100 BENCH_REPEATS=3 scripts/bench_ab.sh A B    # the defaults
#
# The bundles are made as scripts/bench.sh makes them (its steps 1-3, which also build the dist
# binary of this tree); everything talks to 127.0.0.1 only. Results: _out/bench/ab/.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
if [ $# -ne 2 ]; then
  echo "usage: scripts/bench_ab.sh BEFORE_BIN AFTER_BIN" >&2
  exit 2
fi
before=$(realpath "$1")
after=$(realpath "$2")
sizes="${BENCH_SIZES:-10,100}"
out="$root/_out/bench"
BENCH_PREPARE_ONLY=1 BENCH_SIZES="$sizes" BENCH_BIN="$after" bash scripts/bench.sh
export OLM_RELEASE_TOOLS="${OLM_RELEASE_TOOLS:-$root/.tools}"
trap 'bash scripts/peers/appr.sh stop' EXIT
eval "$(bash scripts/peers/appr.sh start)"
python3 scripts/bench_ab.py --before "$before" --after "$after" --appr "$APPR_URL" \
  --bundles "$out/bundles" --package "$(cat "$out/bundles/package")" --sizes "$sizes" \
  --rounds "${BENCH_ROUNDS:-5}" --repeats "${BENCH_REPEATS:-3}" --out "$out/ab"
