#!/usr/bin/env bash
# Reproducibility of the release archive: builds it a second time from a clean clone of HEAD,
# in another folder with its own fresh target folder, and compares the bytes with the archive
# built from the work tree (by default into the test suite's target/dist-test). .ci/run calls it
# before the suite; it costs one clean release build (minutes on 2 cores).
#
#   scripts/repro.sh [DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
first="${1:-target/dist-test}"
version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
name="olm-release-$version-x86_64-unknown-linux-gnu.tar.gz"
# Built (again) from the work tree first, so an archive left by an older commit is never compared;
# the build is incremental in target/dist.
scripts/dist.sh "$version" --out "$first"
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
  echo "repro.sh: the work tree has uncommitted changes; the clean clone builds HEAD only" >&2
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git clone -q --no-hardlinks "$root" "$tmp/src"
git -C "$tmp/src" checkout -q --detach "$(git rev-parse HEAD)"
echo "repro.sh: second clean build of $(git rev-parse --short HEAD) in $tmp/src" >&2
start=$(date +%s)
(cd "$tmp/src" && OLM_RELEASE_TOOLS="${OLM_RELEASE_TOOLS:-$root/.tools}" CARGO_TARGET_DIR="$tmp/target" \
  scripts/dist.sh "$version" --out "$tmp/dist")
took=$(( $(date +%s) - start ))

a=$(sha256sum "$first/$name" | cut -d' ' -f1)
b=$(sha256sum "$tmp/dist/$name" | cut -d' ' -f1)
if cmp -s "$first/$name" "$tmp/dist/$name"; then
  echo "repro.sh: reproducible: both builds of $name are $(wc -c < "$first/$name") bytes, sha256 $a (clean build ${took}s)"
else
  echo "repro.sh: NOT reproducible: $first/$name is $a, the clean build's is $b" >&2
  for f in olm-release README.md LICENSE man/olm-release.1; do
    d="${name%.tar.gz}/$f"
    mkdir -p "$tmp/x1" "$tmp/x2"
    tar -xzf "$first/$name" -C "$tmp/x1" "$d" && tar -xzf "$tmp/dist/$name" -C "$tmp/x2" "$d"
    cmp -s "$tmp/x1/$d" "$tmp/x2/$d" || echo "repro.sh: differs: $f" >&2
  done
  exit 1
fi
