#!/usr/bin/env bash
# The release archive, built once per test-suite run by scripts/dist.sh, for the tests of the
# archive itself (contents, glibc symbol versions, packaging twice) and of the installer (served
# by a loopback server as a GitHub release would serve it).
#
#   scripts/peers/release-archive.sh start   # build (incremental in target/dist), print exports
#   scripts/peers/release-archive.sh stop    # nothing to stop
#
# `start` prints on stdout:
#   export OLM_RELEASE_DIST=<folder holding the .tar.gz, SHA256SUMS and the unpacked folder>
# The first build takes minutes (a release build linked by zig); later runs rebuild only what
# changed. Everything else goes to stderr.
set -euo pipefail
cd "$(dirname "$0")/../.."

case "${1:-}" in
  start)
    version=$(sed -n 's/^version = "\(.*\)"$/\1/p' Cargo.toml | head -n 1)
    out="$PWD/target/dist-test"
    scripts/dist.sh "$version" --out "$out" >&2
    echo "export OLM_RELEASE_DIST=$out"
    ;;
  stop) ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
