#!/usr/bin/env bash
# Reading a large oci: layout index: the catalog-only sample publishes into an image
# layout whose index.json has been padded with N other tagged manifests (default 300,000, about
# 64 MiB, as in the hostile-input probe that cost 1.0 GB), and the peak resident memory (GNU
# time) of that release is compared with the same release into a layout of two entries. The
# difference beyond the index file's own size is what reading and rewriting the index costs.
#
#   scripts/bench_layout_index.sh                      # builds target/release/olm-release
#   BENCH_BIN=path/to/olm-release BENCH_INDEX_ENTRIES=300000 scripts/bench_layout_index.sh
#
# Everything stays on this machine.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
n="${BENCH_INDEX_ENTRIES:-300000}"
work="$root/_out/bench/layout-index"
log() { echo "bench_layout_index.sh: $*" >&2; }
bin="${BENCH_BIN:-}"
if [ -z "$bin" ]; then
  cargo build --release --quiet
  bin="$CARGO_TARGET_DIR/release/olm-release"
fi
[ -x /usr/bin/time ] || { log "needs GNU time (apt-get install time)"; exit 2; }
rm -rf "$work"
mkdir -p "$work"
cp -r pipelines fixtures "$work/"
cd "$work"
export SOURCE_DATE_EPOCH=1570449600
layout=_out/catalog-only/oci/sample-operator-bundle
release() { # VERSION: peak RSS in KiB of one release into the layout
  if ! /usr/bin/time -f %M -o rss.txt "$bin" -q run pipelines/sample-catalog.yaml --var "VERSION=$1" \
    >/dev/null 2>run.txt; then
    log "the release of $1 failed:"; cat run.txt >&2; exit 1
  fi
  tail -1 rss.txt
}
release 0.1.0 >/dev/null
small=$(release 0.2.0) || exit 1
# Pad the index with n tagged manifests of other images (pointers only: no blob is read for
# them), keeping the real entries: once in tag order, as olm-release writes an index, and once
# with the padding first, as tools that append (skopeo, umoci) leave one, which olm-release
# sorts when it rewrites it.
pad() { # LAYOUT_INDEX ORDER
  python3 - "$1" "$n" "$2" <<'PY'
import json, sys
path, n, order = sys.argv[1], int(sys.argv[2]), sys.argv[3]
index = json.load(open(path))
pad = [{"mediaType": "application/vnd.oci.image.manifest.v1+json",
        "digest": "sha256:%064x" % (i + 1), "size": 1000 + i,
        "annotations": {"org.opencontainers.image.ref.name": "pad-%07d" % i}}
       for i in range(n)]
own = index["manifests"]
index["manifests"] = own + pad if order == "sorted" else pad + own
json.dump(index, open(path, "w"), separators=(",", ":"))
PY
}
cd "$root"
for order in sorted unsorted; do
  rm -rf "$work/$order"
  mkdir "$work/$order"
  cp -r "$work/pipelines" "$work/fixtures" "$work/_out" "$work/$order/"
done
size=0
results=""
for order in sorted unsorted; do
  cd "$work/$order"
  pad "$layout/index.json" "$order"
  size=$(stat -c %s "$layout/index.json")
  big=$(release 0.3.0) || exit 1
  results="$results $order:$big"
done
awk -v s="$size" -v a="$small" -v n="$n" -v r="$results" 'BEGIN {
  mib = 1024 * 1024
  printf "index.json padded with %d entries: %.1f MiB\n", n, s / mib
  printf "peak RSS, a release into a layout of 2 entries: %6.1f MiB\n", a / 1024
  split(r, rows, " ")
  for (i in rows) {
    split(rows[i], kv, ":")
    printf "peak RSS, a release into the padded layout (%s): %6.1f MiB; beyond the small run and the file itself: %5.1f MiB\n", kv[1], kv[2] / 1024, (kv[2] - a) / 1024 - s / mib
  }
}'
