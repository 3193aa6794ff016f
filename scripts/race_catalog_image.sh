#!/usr/bin/env bash
# Races on one catalog-image tag (the image row of the README's race table): K jobs publish one
# package (0.2.0, 0.3.0, … on a catalog holding 0.1.0) at once against one tag of a real
# registry, TRIALS times; prints a table of what the tag's catalog holds afterwards, read back
# by skopeo.
#
#   scripts/race_catalog_image.sh [TRIALS] [K]     # defaults 20 and 4
#
# Uses the registry of scripts/peers/oci-registry.sh (started here unless OCI_REGISTRY is set)
# and the binary in ${CARGO_TARGET_DIR:-target}/debug (built here). Counted per trial:
#   lost     a job exited 0, and its version is not in the catalog
#   forks    channel entries beyond one chain (two entries replacing the same one)
#   refused  jobs that exited non-zero although their entry is in the catalog, or without an
#            "is older than" refusal (a version below the head when the job decided, which a
#            sequential run in the order the jobs decided gives too: counted as `older`)
#   retries  "deciding again" rounds, over all jobs
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
trials="${1:-20}"
k="${2:-4}"
target_dir="${CARGO_TARGET_DIR:-$root/target}"
export OLM_RELEASE_TOOLS="${OLM_RELEASE_TOOLS:-$root/.tools}"
cargo build -q >&2
bin="$target_dir/debug/olm-release"
started=
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"; if [ -n "$started" ]; then bash scripts/peers/oci-registry.sh stop; fi' EXIT
if [ -z "${OCI_REGISTRY:-}" ]; then
  eval "$(bash scripts/peers/oci-registry.sh start)"
  started=1
fi

# The stand-in opm base (bin/opm as a text file), pushed once.
python3 - "$tmp/base" >/dev/null <<'PY'
import gzip, hashlib, io, json, os, sys, tarfile
d = sys.argv[1]; os.makedirs(d + "/blobs/sha256")
def put(b):
    h = hashlib.sha256(b).hexdigest(); open(f"{d}/blobs/sha256/{h}", "wb").write(b); return "sha256:" + h, len(b)
raw = io.BytesIO()
with tarfile.open(fileobj=raw, mode="w") as t:
    data = b"#!/bin/sh\necho stand-in opm\n"
    i = tarfile.TarInfo("bin/opm"); i.size = len(data); i.mode = 0o755; t.addfile(i, io.BytesIO(data))
tar = raw.getvalue()
layer, lsize = put(gzip.compress(tar, mtime=0))
config, csize = put(json.dumps({"architecture": "amd64", "os": "linux", "config": {"Labels": {"org.example.stand-in": "yes"}},
    "rootfs": {"type": "layers", "diff_ids": ["sha256:" + hashlib.sha256(tar).hexdigest()]}}).encode())
m, msize = put(json.dumps({"schemaVersion": 2, "mediaType": "application/vnd.oci.image.manifest.v1+json",
    "config": {"mediaType": "application/vnd.oci.image.config.v1+json", "digest": config, "size": csize},
    "layers": [{"mediaType": "application/vnd.oci.image.layer.v1.tar+gzip", "digest": layer, "size": lsize}]}).encode())
open(d + "/oci-layout", "w").write('{"imageLayoutVersion":"1.0.0"}')
open(d + "/index.json", "w").write(json.dumps({"schemaVersion": 2, "manifests": [{"mediaType": "application/vnd.oci.image.manifest.v1+json",
    "digest": m, "size": msize, "annotations": {"org.opencontainers.image.ref.name": "base"}}]}))
print(m)
PY
skopeo copy -q --dest-tls-verify=false --digestfile "$tmp/base.digest" "oci:$tmp/base:base" "docker://$OCI_REGISTRY/race/opm:base" >&2
base="$OCI_REGISTRY/race/opm@$(cat "$tmp/base.digest")"

# A work folder per job: the sample pipeline with the catalog kept at the trial's tag.
work() { # DIR TAG
  mkdir -p "$1/fixtures"
  cp -r fixtures/sample-operator "$1/fixtures/"
  cp -r pipelines "$1/"
  sed -i "s|^  dir: _out/catalog-only/catalog\$|  target: image:$OCI_REGISTRY/race/catalog:$2\n  base_image: $base|" "$1/pipelines/sample-catalog.yaml"
}
publish() { # DIR VERSION
  (cd "$1" && env -i PATH="$PATH" HOME="$HOME" SOURCE_DATE_EPOCH=1570449600 \
    "$bin" run pipelines/sample-catalog.yaml --var "VERSION=$2" >"$1/out" 2>"$1/err")
}

printf '%-6s %-9s %-6s %-6s %-8s %-6s %s\n' trial published lost forks refused older retries
sum_lost=0; sum_forks=0; sum_refused=0; sum_older=0; sum_ok=0; trials_lost=0
rounds=(0 0 0 0)
start=$SECONDS
for t in $(seq "$trials"); do
  tag="t$t-$RANDOM"
  work "$tmp/seed$t" "$tag"
  publish "$tmp/seed$t" 0.1.0 || { cat "$tmp/seed$t/err" >&2; exit 1; }
  pids=()
  for j in $(seq "$k"); do
    work "$tmp/job$t-$j" "$tag"
    publish "$tmp/job$t-$j" "0.$((j + 1)).0" & pids+=($!)
  done
  codes=()
  for p in "${pids[@]}"; do if wait "$p"; then codes+=(0); else codes+=(1); fi; done
  skopeo copy -q --src-tls-verify=false "docker://$OCI_REGISTRY/race/catalog:$tag" "oci:$tmp/read$t:t" >&2
  umoci unpack --rootless --image "$tmp/read$t:t" "$tmp/unpacked$t" >/dev/null 2>&1
  catalog="$tmp/unpacked$t/rootfs/configs/sample-operator/catalog.yaml"
  row="$(python3 - "$catalog" "$k" "${codes[@]}" <<'PY'
import sys, yaml
cat, k, codes = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
docs = list(yaml.safe_load_all(open(cat)))
entries = [e for d in docs if d and d.get("schema") == "olm.channel" for e in d["entries"]]
names = {e["name"] for e in entries}
replaced = [e.get("replaces") for e in entries if e.get("replaces")]
forks = len(replaced) - len(set(replaced))
present = [f"sample-operator.v0.{j + 2}.0" in names for j in range(len(codes))]
print(sum(1 for c in codes if c == "0"), sum(1 for j, c in enumerate(codes) if c == "0" and not present[j]), forks,
      sum(1 for j, c in enumerate(codes) if c != "0" and present[j]))
PY
)"
  read -r ok lost forks stray <<<"$row"
  refused=0; older=0; retries=0
  for j in $(seq "$k"); do
    err="$tmp/job$t-$j/err"
    n=$(grep -c "deciding again" "$err" || true)
    retries=$((retries + n))
    rounds[$((n > 3 ? 3 : n))]=$((rounds[$((n > 3 ? 3 : n))] + 1))
    if [ "${codes[$((j - 1))]}" != 0 ]; then
      if grep -q "is older than" "$err"; then older=$((older + 1)); else refused=$((refused + 1)); fi
    fi
  done
  # A job that failed although its entry is in the catalog: a sequential run would not refuse it.
  older=$((older - stray)); refused=$((refused + stray))
  printf '%-6s %-9s %-6s %-6s %-8s %-6s %s\n' "$t" "$ok/$k" "$lost" "$forks" "$refused" "$older" "$retries"
  sum_ok=$((sum_ok + ok)); sum_lost=$((sum_lost + lost)); sum_forks=$((sum_forks + forks))
  sum_refused=$((sum_refused + refused)); sum_older=$((sum_older + older))
  [ "$lost" = 0 ] || trials_lost=$((trials_lost + 1))
done
echo
echo "| target | K | trials | jobs | exit 0 | refused as older | other failures | lost | forks | decided again 0/1/2/3+ | waited for the lock | time |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|"
echo "| catalog image tag | $k | $trials | $((trials * k)) | $sum_ok | $sum_older | $sum_refused | $sum_lost | $sum_forks | ${rounds[0]}/${rounds[1]}/${rounds[2]}/${rounds[3]} | 0 | $((SECONDS - start)) s |"
echo "total: $trials trials of K=$k jobs: $sum_ok/$((trials * k)) published, $sum_lost versions lost ($trials_lost trials with a loss), $sum_forks forks, $sum_refused refusals a sequential run would not give, $sum_older refused as below the head (a sequential run in that order refuses them too)"
