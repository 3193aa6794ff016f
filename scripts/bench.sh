#!/usr/bin/env bash
# Performance of olm-release against operator-courier and the floor, in one run.
#
#   scripts/bench.sh                 # N = 10, 100, 500; 3 repeats each; medians
#   BENCH_SIZES=10,100 BENCH_REPEATS=1 scripts/bench.sh     # quicker
#   BENCH_COURIER=0 scripts/bench.sh                         # without operator-courier (b)
#   BENCH_BIN=path/to/olm-release scripts/bench.sh           # measure another build
#   BENCH_PREPARE_ONLY=1 scripts/bench.sh                    # steps 1-3 only (scripts/bench_ab.sh)
#
# What it does:
#  1. `cargo build --profile dist` (timed; the shipped binary: fat LTO), binary size,
#     `olm-release --version` start-up time
#     (hyperfine when installed: `apt-get install hyperfine`; else a loop of 100 runs).
#  2. A model CSV shaped like KubeVirt's: `olm-release render` of ../shared/kubevirt/v0.22.0
#     when the renderer can render it; else the same inputs through scripts/bench_bundle.py's
#     small template subset; without ../shared, the sample operator's CSV
#     (`olm-release run pipelines/sample.yaml`, _out/sample-release/bundle).
#  3. Cumulative bundles of N CSVs chained by replaces (scripts/bench_bundle.py chain).
#  4. The real appr 0.7.4 server (scripts/peers/appr.sh start; stopped on exit) and
#     operator-courier 2.1.11 (scripts/peers/courier.sh, driven through the loopback wrapper
#     scripts/courier_local.py; both install into $OLM_RELEASE_TOOLS).
#  5. scripts/bench_measure.py: (a) olm-release publish, (b) courier verify + push, (c) tar czf +
#     sha256sum + base64 + curl POST, and fetch-previous of the 100-CSV release; a table on
#     stdout with a/b and a/c per N, and _out/bench/results.json.
#  6. benches/catalog.rs: adding a release to a 500-bundle file-based catalog and validating it
#     (read, add, validate, write; target < 0.5 s), also in _out/bench/catalog.txt;
#     benches/operatorhub.rs: a release added to a generated OperatorHub-sized catalog against an
#     empty one (ratio and peak heap), in _out/bench/operatorhub.txt; scripts/bench_migrate.sh:
#     migrate of a 70-release history (peak RSS), in _out/bench/migrate.txt.
# Peak memory comes from GNU time (/usr/bin/time; `apt-get install time` if missing), else from
# the rusage of each child. Courier needs minutes at N = 500, so (b) runs once there
# (BENCH_COURIER_REPEATS_ABOVE_100). Everything talks to 127.0.0.1 only.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export OLM_RELEASE_TOOLS="${OLM_RELEASE_TOOLS:-$root/.tools}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
out="$root/_out/bench"
sizes="${BENCH_SIZES:-10,100,500}"
repeats="${BENCH_REPEATS:-3}"
mkdir -p "$out"
log() { echo "bench.sh: $*" >&2; }

# 1. Build, size, start-up (only the bundles when preparing for another build's binary).
if [ "${BENCH_PREPARE_ONLY:-0}" = 1 ] && [ -n "${BENCH_BIN:-}" ]; then
  bin=$BENCH_BIN
else
  log "cargo build --profile dist"
  start=$(date +%s%N)
  cargo build --profile dist --quiet
  build_s=$(awk -v a="$start" -v b="$(date +%s%N)" 'BEGIN { printf "%.1f", (b - a) / 1e9 }')
  bin="${BENCH_BIN:-$CARGO_TARGET_DIR/dist/olm-release}"
  size=$(stat -c %s "$bin")
  if command -v hyperfine >/dev/null; then
    hyperfine -N --warmup 10 --runs 200 --export-json "$out/startup.json" "$bin --version" >&2
    startup_ms=$(python3 -c "import json,sys; r=json.load(open(sys.argv[1]))['results'][0]; print(round(r['mean']*1000,2))" "$out/startup.json")
    startup_tool=hyperfine
  else
    startup_ms=$(python3 - "$bin" <<'EOF'
import subprocess, sys, time
t = time.perf_counter()
for _ in range(100):
    subprocess.run([sys.argv[1], "--version"], stdout=subprocess.DEVNULL, check=True)
print(round((time.perf_counter() - t) * 10, 2))
EOF
)
    startup_tool="loop of 100"
  fi
  log "binary $size bytes, --version in $startup_ms ms ($startup_tool), build step ${build_s}s"
fi

# 2. The model CSV.
model_dir="$out/model"
rm -rf "$model_dir"
mkdir -p "$model_dir"
kubevirt="$root/../shared/kubevirt/v0.22.0"
model=""
if [ -d "$kubevirt" ]; then
  # The render work's pipeline format; an older renderer refuses it and we fall back below.
  cat >"$model_dir/kubevirt.yaml" <<EOF
name: bench-kubevirt
package: kubevirt
channel: alpha
version: 0.22.0
render:
  templates: manifests/release/olm
  includes: {GeneratedManifests: manifests/generated}
  vars: {Namespace: kubevirt, CSVNamespace: placeholder, DockerPrefix: index.docker.io/kubevirt,
         DockerTag: v0.22.0, ImagePullPolicy: IfNotPresent, Verbosity: '"2"', CsvVersion: 0.22.0,
         ReplacesCsvVersion: "", QuayRepository: kubevirt, PackageName: kubevirt,
         CreatedAt: "2019-10-07 12:00:00", VirtOperatorSha: "", VirtApiSha: "",
         VirtControllerSha: "", VirtHandlerSha: "", VirtLauncherSha: ""}
  csv: {icon: assets/kubevirt_logo.png, vars: {KubeVirtLogo: icon.base64data}}
registry: {url: dir:$model_dir/registry, namespace: kubevirt}
stages: [render]
EOF
  if "$bin" render "$model_dir/kubevirt.yaml" --source "$kubevirt" --out "$model_dir/render" \
    >"$model_dir/render.log" 2>&1; then
    csv=$(ls "$model_dir"/render/bundle/*clusterserviceversion*.yaml 2>/dev/null | head -1 || true)
    crd=$(ls "$model_dir"/render/bundle/*crd*.yaml 2>/dev/null | head -1 || true)
    if [ -n "$csv" ] && [ -n "$crd" ]; then
      cp "$csv" "$model_dir/model.csv.yaml"
      cp "$crd" "$model_dir/model.crd.yaml"
      model="kubevirt v0.22.0 (olm-release render)"
    fi
  fi
  if [ -z "$model" ]; then
    log "olm-release render cannot render KubeVirt's inputs yet ($(tail -1 "$model_dir/render.log")); using bench_bundle.py model"
    python3 scripts/bench_bundle.py model --kubevirt "$kubevirt" --out "$model_dir" >/dev/null
    model="kubevirt v0.22.0 (bench_bundle.py template subset)"
  fi
  package=kubevirt
else
  log "../shared/kubevirt is absent; the model is the sample operator's CSV"
  "$bin" -q run pipelines/sample.yaml --out "$model_dir/sample" >/dev/null
  cp "$model_dir"/sample/bundle/*.clusterserviceversion.yaml "$model_dir/model.csv.yaml"
  cp "$model_dir"/sample/bundle/*.crd.yaml "$model_dir/model.crd.yaml"
  model="sample-operator (pipelines/sample.yaml)"
  package=sample-operator
fi
log "model: $model ($(stat -c %s "$model_dir/model.csv.yaml") bytes)"

# 3. Bundles.
for n in ${sizes//,/ }; do
  python3 scripts/bench_bundle.py chain --csv "$model_dir/model.csv.yaml" \
    --crd "$model_dir/model.crd.yaml" --package "$package" --count "$n" \
    --out "$out/bundles/$n" >&2
done

echo "$package" >"$out/bundles/package"
if [ "${BENCH_PREPARE_ONLY:-0}" = 1 ]; then
  log "BENCH_PREPARE_ONLY=1: bundles ready in $out/bundles"
  exit 0
fi

# 4. Peers.
trap 'bash scripts/peers/appr.sh stop' EXIT
eval "$(bash scripts/peers/appr.sh start)"
courier_args=()
if [ "${BENCH_COURIER:-1}" = 0 ]; then
  log "BENCH_COURIER=0: (b) is left out"
elif eval "$(bash scripts/peers/courier.sh start)"; then
  courier_args=(--courier-python "$COURIER_PYTHON" --courier-wrapper "$root/scripts/courier_local.py")
else
  log "operator-courier could not be installed: (b) is left out"
fi

# 5. Measure.
extra=$(printf '{"binary_bytes": %s, "build_release_step_s": %s, "startup_ms": %s, "startup_tool": "%s"}' \
  "$size" "$build_s" "$startup_ms" "$startup_tool")
python3 scripts/bench_measure.py --bin "$bin" --appr "$APPR_URL" --bundles "$out/bundles" \
  --package "$package" --sizes "$sizes" --repeats "$repeats" "${courier_args[@]}" \
  --courier-repeats-above-100 "${BENCH_COURIER_REPEATS_ABOVE_100:-1}" \
  --model "$model" --work "$out/work" --out "$out/results.json" --extra "$extra"
echo "binary: $size bytes; olm-release --version: $startup_ms ms ($startup_tool); release build step: ${build_s}s"

# 6. The catalog stage on a 500-bundle catalog, and on an OperatorHub-sized catalog (400
#    packages, 8,000 bundles; ratios to an empty catalog and peak heap).
log "cargo bench --bench catalog"
cargo bench --quiet --bench catalog | tee "$out/catalog.txt"
log "cargo bench --bench operatorhub"
cargo bench --quiet --bench operatorhub | tee "$out/operatorhub.txt"
# 6b. migrate of a 70-release history: peak memory against 64 MiB + the largest
#     release (scripts/bench_migrate.sh; BENCH_MIGRATE=0 leaves it out).
if [ "${BENCH_MIGRATE:-1}" != 0 ]; then
  BENCH_BIN="$bin" bash scripts/bench_migrate.sh "$model_dir/model.csv.yaml" "$model_dir/model.crd.yaml" "$package" \
    | tee "$out/migrate.txt"
fi

# 6c. A release into an oci: layout whose index.json holds 300,000 manifests: peak
#     memory beyond the file (scripts/bench_layout_index.sh; BENCH_LAYOUT_INDEX=0 leaves it out).
if [ "${BENCH_LAYOUT_INDEX:-1}" != 0 ]; then
  BENCH_BIN="$bin" bash scripts/bench_layout_index.sh | tee "$out/layout-index.txt"
fi

# 7. Bundle image build + push against `skopeo copy` of the same image (scripts/bench_oci.sh;
#    BENCH_OCI=0 leaves it out).
if [ "${BENCH_OCI:-1}" != 0 ]; then
  bash scripts/bench_oci.sh
fi
