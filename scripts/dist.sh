#!/usr/bin/env bash
# Builds olm-release's release archive for x86_64-unknown-linux-gnu, runnable on glibc >= 2.17,
# reproducibly: the same commit gives the same bytes.
#
#   scripts/dist.sh VERSION [--out DIR]      # VERSION must be Cargo.toml's (e.g. 0.1.0)
#
# Writes into DIR (default _dist):
#   olm-release-VERSION-x86_64-unknown-linux-gnu.tar.gz   the binary, README.md, LICENSE,
#                                                          man/ (olm-release.1 and one page per
#                                                          command) and completions/
#                                                          (bash, zsh, fish)
#   SHA256SUMS                                             its sha256, as `sha256sum -c` reads it
#   olm-release-VERSION-x86_64-unknown-linux-gnu/          the same files unpacked (the release
#                                                          job runs this binary)
# and prints the archive's size and sha256 and the binary's highest GLIBC_ symbol version.
#
# How the bytes stay the same:
# - the binary is linked by zig (cargo-zigbuild) against glibc 2.17's symbol versions, with
#   pinned versions of zig and cargo-zigbuild, `--locked` dependencies, the checkout and cargo
#   home folders remapped out of the binary (--remap-path-prefix for Rust, -ffile-prefix-map
#   for the C parts of ring), no build id, and a clean environment for the build;
# - the archive is written by GNU tar with entries sorted by name, owner and group 0, modes
#   0755/0644, every mtime = SOURCE_DATE_EPOCH (default: the commit time of HEAD), and gzip
#   without a name or a timestamp (-n).
#
# Tools: ziglang from PyPI into $OLM_RELEASE_TOOLS/zig (default .tools/zig) and cargo-zigbuild
# from crates.io (`cargo install --locked`), each installed once at the pinned version.
# CARGO_TARGET_DIR defaults to target/dist, so a dist build never disturbs target/debug.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

ZIG_VERSION=0.15.2
ZIGBUILD_VERSION=0.24.1
TARGET=x86_64-unknown-linux-gnu
GLIBC=2.17

die() { echo "dist.sh: $*" >&2; exit 1; }

version="" out="_dist"
while [ $# -gt 0 ]; do
  case "$1" in
    --out) out=${2:?--out needs a folder}; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    -*) die "unknown option $1 (usage: scripts/dist.sh VERSION [--out DIR])" ;;
    *) [ -z "$version" ] || die "one VERSION only"; version=$1; shift ;;
  esac
done
[ -n "$version" ] || die "usage: scripts/dist.sh VERSION [--out DIR]"
version=${version#v}
crate_version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
[ "$version" = "$crate_version" ] \
  || die "VERSION $version is not Cargo.toml's version $crate_version: set version = \"$version\" in Cargo.toml (and commit) first"

# --- tools -----------------------------------------------------------------------------------
tools="${OLM_RELEASE_TOOLS:-$root/.tools}"
zig_venv="$tools/zig"
if [ "$(cat "$zig_venv/.version" 2>/dev/null)" != "$ZIG_VERSION" ]; then
  echo "dist.sh: installing ziglang $ZIG_VERSION into $zig_venv" >&2
  rm -rf "$zig_venv"
  python3 -m venv "$zig_venv" >&2
  "$zig_venv/bin/pip" install --disable-pip-version-check -q "ziglang==$ZIG_VERSION" >&2
  echo "$ZIG_VERSION" > "$zig_venv/.version"
fi
zig_dir=$("$zig_venv/bin/python" -c 'import os, ziglang; print(os.path.dirname(ziglang.__file__))')
export PATH="$zig_dir:$PATH"
[ "$(zig version)" = "$ZIG_VERSION" ] || die "zig $(zig version) found, $ZIG_VERSION expected"

if [ "$(cargo-zigbuild --version 2>/dev/null | awk '{print $2}')" != "$ZIGBUILD_VERSION" ]; then
  echo "dist.sh: installing cargo-zigbuild $ZIGBUILD_VERSION (cargo install --locked)" >&2
  cargo install --locked --quiet "cargo-zigbuild@$ZIGBUILD_VERSION" >&2
fi

# --- build -----------------------------------------------------------------------------------
if [ -z "${SOURCE_DATE_EPOCH:-}" ]; then
  SOURCE_DATE_EPOCH=$(git log -1 --format=%ct 2>/dev/null) \
    || die "not a git checkout: set SOURCE_DATE_EPOCH"
fi
export SOURCE_DATE_EPOCH
if [ -n "$(git status --porcelain --untracked-files=no 2>/dev/null)" ]; then
  echo "dist.sh: warning: the work tree has uncommitted changes; the archive is not the commit's" >&2
fi

cargo_home="${CARGO_HOME:-$HOME/.cargo}"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target/dist}"
export RUSTFLAGS="--remap-path-prefix=$root=/build/olm-release --remap-path-prefix=$cargo_home=/cargo -C link-arg=-Wl,--build-id=none"
export CFLAGS="-ffile-prefix-map=$root=/build/olm-release -ffile-prefix-map=$cargo_home=/cargo"
# The dependencies first, with the caller's network settings (proxies, certificates); then the
# build offline in a clean environment, so nothing of the caller's (CARGO_*, CC, a test runner's
# variables) can change the bytes or make the build scripts of dependencies rerun.
cargo fetch --locked --quiet >&2
keep=(PATH="$PATH" HOME="$HOME" CARGO_TARGET_DIR="$CARGO_TARGET_DIR" RUSTFLAGS="$RUSTFLAGS"
  CFLAGS="$CFLAGS" SOURCE_DATE_EPOCH="$SOURCE_DATE_EPOCH")
for v in CARGO_HOME RUSTUP_HOME RUSTUP_TOOLCHAIN; do
  if [ -n "${!v:-}" ]; then keep+=("$v=${!v}"); fi
done
echo "dist.sh: building olm-release $version for $TARGET (glibc $GLIBC) in $CARGO_TARGET_DIR" >&2
env -i "${keep[@]}" cargo zigbuild --locked --offline --profile dist --quiet \
  --target "$TARGET.$GLIBC" --bin olm-release >&2
bin="$CARGO_TARGET_DIR/$TARGET/dist/olm-release"

glibc_max=$(objdump -T "$bin" | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -n 1)
if [ "$(printf '%s\n%s\n' "$glibc_max" "$GLIBC" | sort -V | tail -n 1)" != "$GLIBC" ]; then
  die "the binary needs GLIBC_$glibc_max, above $GLIBC"
fi

# --- package ---------------------------------------------------------------------------------
name="olm-release-$version-$TARGET"
mkdir -p "$out"
stage="$out/$name"
rm -rf "$stage" "$out/$name.tar.gz" "$out/SHA256SUMS"
mkdir -p "$stage/man" "$stage/completions"
cp "$bin" "$stage/olm-release"
cp README.md LICENSE "$stage/"
"$stage/olm-release" man --dir "$stage/man" >/dev/null
"$stage/olm-release" completions bash > "$stage/completions/olm-release.bash"
"$stage/olm-release" completions zsh > "$stage/completions/_olm-release"
"$stage/olm-release" completions fish > "$stage/completions/olm-release.fish"
find "$stage" -type d -exec chmod 0755 {} +
find "$stage" -type f -exec chmod 0644 {} +
chmod 0755 "$stage/olm-release"

LC_ALL=C tar --sort=name --format=gnu --owner=0 --group=0 --numeric-owner \
  --mtime="@$SOURCE_DATE_EPOCH" -C "$out" -cf - "$name" | gzip -9n > "$out/$name.tar.gz"
(cd "$out" && sha256sum "$name.tar.gz" > SHA256SUMS)

size=$(wc -c < "$out/$name.tar.gz")
echo "dist.sh: $out/$name.tar.gz: $size bytes, sha256 $(cut -d' ' -f1 "$out/SHA256SUMS")" >&2
echo "dist.sh: binary $(wc -c < "$bin") bytes, highest symbol version GLIBC_$glibc_max" >&2
