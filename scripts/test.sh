#!/usr/bin/env bash
# Runs the whole test suite on a fresh machine: installs and starts the real peers the tests
# talk to (each on 127.0.0.1 only), runs every test, and stops the peers by their PIDs.
#
#   scripts/test.sh            # everything
#   scripts/test.sh FILTER     # only tests whose name contains FILTER
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
export OLM_RELEASE_TOOLS="${OLM_RELEASE_TOOLS:-$root/.tools}"
mkdir -p "$OLM_RELEASE_TOOLS"

stop_peers() {
  for s in scripts/peers/*.sh; do [ -f "$s" ] && bash "$s" stop || true; done
}
trap stop_peers EXIT

# Each peer script installs its tool (idempotent), starts it on loopback and prints
# `export NAME=VALUE` lines for the tests (e.g. APPR_URL). Their shared helpers,
# scripts/peers/lib.bash, are sourced by them and not matched here.
for s in scripts/peers/*.sh; do
  [ -f "$s" ] || continue
  echo "--- peer: $s" >&2
  eval "$(bash "$s" start)"
done

if cargo nextest --version >/dev/null 2>&1; then
  cargo nextest run --workspace --config-file scripts/nextest.toml --no-fail-fast "$@"
else
  cargo test --workspace --no-fail-fast -- "$@"
fi
