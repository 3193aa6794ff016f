#!/usr/bin/env bash
# Bundle image build + push against the floor: `skopeo copy` of the same image from an OCI
# layout to the same registry (target: olm-release ≤ 1.3× the floor).
#
#   scripts/bench_oci.sh                  # 15 runs of each, interleaved; medians
#   BENCH_OCI_RUNS=5 scripts/bench_oci.sh # quicker
#
# What it does:
#  1. `cargo build --release --example bundle_image` (the library's command-line driver).
#  2. A model CSV shaped like KubeVirt v0.22.0 (scripts/bench_bundle.py model, from
#     ../shared/kubevirt/v0.22.0; without it, the sample operator's CSV), then the 100-CSV
#     cumulative app-registry bundle (scripts/bench_bundle.py chain --count 100), and its
#     newest CSV as a registry+v1 bundle folder (`bundle_image folder`).
#  3. The real registry (scripts/peers/oci-registry.sh, its own run folder; stopped on exit).
#  4. The floor's source: the same image written to an OCI layout by `bundle_image push
#     --target oci:…`.
#  5. Interleaved runs, each to a fresh repository so every blob is uploaded:
#     (a) `bundle_image push --folder … --target REGISTRY/bench/a-N` — read the folder, build
#         the image, check the tag, upload config and layer, put the manifest, read it back;
#     (b) `skopeo copy --dest-tls-verify=false oci:LAYOUT:TAG docker://REGISTRY/bench/b-N:TAG`.
#     Both are whole processes, timed from spawn to exit. Prints medians, the ratio, and
#     checks that skopeo stored the same manifest digest.
# Everything talks to 127.0.0.1 only. Results also go to _out/bench/oci.json.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}"
out="$root/_out/bench/oci"
runs="${BENCH_OCI_RUNS:-15}"
log() { echo "bench_oci.sh: $*" >&2; }
rm -rf "$out"
mkdir -p "$out"

log "cargo build --release --example bundle_image"
cargo build --release --quiet --example bundle_image
bin="$CARGO_TARGET_DIR/release/examples/bundle_image"

# 2. The model, the 100-CSV chain, its newest bundle.
kubevirt="$root/../shared/kubevirt/v0.22.0"
if [ -d "$kubevirt" ]; then
  python3 scripts/bench_bundle.py model --kubevirt "$kubevirt" --out "$out/model" >/dev/null
  package=kubevirt
  model="kubevirt v0.22.0 (bench_bundle.py)"
else
  log "../shared/kubevirt is absent; the model is the sample operator's CSV"
  cargo build --release --quiet
  "$CARGO_TARGET_DIR/release/olm-release" -q run pipelines/sample.yaml --out "$out/sample" >/dev/null
  mkdir -p "$out/model"
  cp "$out"/sample/bundle/*.clusterserviceversion.yaml "$out/model/model.csv.yaml"
  cp "$out"/sample/bundle/*.crd.yaml "$out/model/model.crd.yaml"
  package=sample-operator
  model="sample-operator"
fi
python3 scripts/bench_bundle.py chain --csv "$out/model/model.csv.yaml" --crd "$out/model/model.crd.yaml" \
  --package "$package" --count 100 --out "$out/chain" >&2
newest=$("$bin" folder --from "$out/chain" --out "$out/bundle")
log "newest bundle: $newest ($(du -sb "$out/bundle" | cut -f1) bytes in $out/bundle)"

# 3. The registry, in its own run folder so a test run's registry is left alone.
export OLM_RELEASE_TOOLS="$out/tools"
trap 'bash scripts/peers/oci-registry.sh stop' EXIT
eval "$(bash scripts/peers/oci-registry.sh start)"

# 4. The floor's source layout.
"$bin" push --folder "$out/bundle" --target "oci:$out/layout" --tag bench >/dev/null

# 5. Measure.
python3 - "$bin" "$out" "$OCI_REGISTRY" "$runs" "$model" <<'PY'
import json, statistics, subprocess, sys, time
bin_, out, registry, runs, model = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]

def timed(cmd):
    t = time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    dt = time.perf_counter() - t
    if p.returncode != 0:
        sys.exit(f"bench_oci: {' '.join(cmd)} failed:\n{p.stdout}\n{p.stderr}")
    return dt, p.stdout

ours, floor, digest = [], [], None
for i in range(runs + 1):  # the first pair warms caches and is not counted
    a, stdout = timed([bin_, "push", "--folder", f"{out}/bundle", "--target", f"{registry}/bench/a-{i}", "--tag", "0.100.0"])
    b, _ = timed(["skopeo", "copy", "-q", "--dest-tls-verify=false", f"oci:{out}/layout:bench", f"docker://{registry}/bench/b-{i}:0.100.0"])
    digest = stdout.split()[0]
    if i:
        ours.append(a)
        floor.append(b)
_, inspect = timed(["skopeo", "inspect", "--tls-verify=false", f"docker://{registry}/bench/b-1:0.100.0"])
same = json.loads(inspect)["Digest"] == digest
mo, mf = statistics.median(ours), statistics.median(floor)
result = {"model": model, "runs": runs, "digest": digest, "skopeo_stored_same_digest": same,
          "olm_release_median_s": round(mo, 4), "skopeo_copy_median_s": round(mf, 4),
          "ratio": round(mo / mf, 3), "target_ratio": 1.3,
          "olm_release_min_s": round(min(ours), 4), "skopeo_copy_min_s": round(min(floor), 4)}
json.dump(result, open(f"{out}/../oci.json", "w"), indent=2)
print(f"bundle image of the newest of 100 CSVs ({model}), {runs} runs each, medians:")
print(f"  (a) olm-release build + push + read-back: {mo*1000:7.1f} ms (min {min(ours)*1000:.1f})")
print(f"  (b) floor, skopeo copy oci: -> registry:  {mf*1000:7.1f} ms (min {min(floor)*1000:.1f})")
print(f"  a / floor = {mo/mf:.2f} (target <= 1.3); skopeo stored the same digest: {same} ({digest})")
PY
