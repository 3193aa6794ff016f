#!/usr/bin/env bash
# migrate of a long app-registry history: a package with 70 cumulative releases (the
# newest carrying all 70 CSVs, as the 2019 path carried them) in a dir: registry, migrated to an
# oci: layout and a file-based catalog; peak resident memory (GNU time) against the target of
# 64 MiB plus the largest release (its uncompressed size), and the time.
#
#   scripts/bench_migrate.sh [MODEL_CSV MODEL_CRD PACKAGE]
#   BENCH_BIN=path/to/olm-release BENCH_MIGRATE_RELEASES=70 scripts/bench_migrate.sh
#   BENCH_BASELINE_BIN=path/to/older/olm-release scripts/bench_migrate.sh   # before and after
#
# Without arguments the model CSV is KubeVirt v0.22.0's (../shared/kubevirt, through
# scripts/bench_bundle.py model), else the sample operator's. Everything stays on this machine.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
n="${BENCH_MIGRATE_RELEASES:-70}"
work="$root/_out/bench/migrate"
log() { echo "bench_migrate.sh: $*" >&2; }
bin="${BENCH_BIN:-}"
if [ -z "$bin" ]; then
  cargo build --release --quiet
  bin="$CARGO_TARGET_DIR/release/olm-release"
fi
rm -rf "$work"
mkdir -p "$work"
if [ $# -ge 3 ]; then
  csv="$1" crd="$2" package="$3"
elif [ -d "$root/../shared/kubevirt/v0.22.0" ]; then
  python3 scripts/bench_bundle.py model --kubevirt "$root/../shared/kubevirt/v0.22.0" --out "$work/model" >/dev/null
  csv="$work/model/model.csv.yaml" crd="$work/model/model.crd.yaml" package=kubevirt
else
  "$bin" -q run pipelines/sample.yaml --out "$work/sample" >/dev/null
  csv=$(ls "$work"/sample/bundle/*.clusterserviceversion.yaml) crd=$(ls "$work"/sample/bundle/*.crd.yaml)
  package=sample-operator
fi

# The history: release k holds CSV copies 1..k (hard links into one generated chain) and the
# package file whose head is copy k.
python3 scripts/bench_bundle.py chain --csv "$csv" --crd "$crd" --package "$package" \
  --count "$n" --out "$work/chain" >&2
mapfile -t csvs < <(ls "$work"/chain/*.clusterserviceversion.yaml | sort -V)
crd_file=$(ls "$work"/chain/*.crd.yaml)
for k in $(seq 1 "$n"); do
  rel="$work/release"
  rm -rf "$rel"
  mkdir -p "$rel"
  ln "$crd_file" "$rel/"
  for i in $(seq 0 $((k - 1))); do ln "${csvs[$i]}" "$rel/"; done
  head=$(basename "${csvs[$((k - 1))]}" .clusterserviceversion.yaml)
  printf 'packageName: %s\nchannels:\n- name: alpha\n  currentCSV: %s\n' "$package" "$head" >"$rel/$package.package.yaml"
  "$bin" -q publish "$rel" --registry "dir:$work/registry" --namespace bench \
    --package "$package" --release "0.$k.0" >/dev/null
done
rm -rf "$work/release"
largest=$(python3 - "$work/registry/bench/$package/blobs/sha256" <<'PY'
import gzip, os, sys
d = sys.argv[1]
print(max(len(gzip.open(os.path.join(d, f)).read()) for f in os.listdir(d)))
PY
)

measure() { # BINARY LABEL
  local out="$work/out-$2"
  rm -rf "$out"
  local t0 t1
  t0=$(date +%s%N)
  /usr/bin/time -f '%M' -o "$work/rss-$2" "$1" -q migrate --registry "dir:$work/registry" \
    --namespace bench --package "$package" --image-target "oci:$out/oci" \
    --image "quay.io/bench/$package-bundle" --catalog "$out/catalog" >/dev/null
  t1=$(date +%s%N)
  local kib
  kib=$(tail -1 "$work/rss-$2")
  awk -v k="$kib" -v l="$largest" -v a="$t0" -v b="$t1" -v label="$2" 'BEGIN {
    peak = k / 1024; budget = 64 + l / 1048576;
    printf "migrate (%s): %.2f s, peak %.1f MiB; target <= 64 MiB + the largest release (%.1f MiB) = %.1f MiB: %s\n",
      label, (b - a) / 1e9, peak, l / 1048576, budget, (peak <= budget ? "met" : "NOT met") }'
}
echo "history: $n releases of $package, the newest $(awk -v l="$largest" 'BEGIN { printf "%.1f MiB", l / 1048576 }') uncompressed ($n CSVs)"
if [ -n "${BENCH_BASELINE_BIN:-}" ]; then
  measure "$BENCH_BASELINE_BIN" before
fi
measure "$bin" after
