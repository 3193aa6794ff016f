#!/usr/bin/env bash
# Prism (stoplight) as a contract checker in front of the tests' fake GitHub (github.com/stoplightio/prism).
#
#   scripts/peers/prism.sh start   # install (idempotent), trim the spec, start; prints exports
#   scripts/peers/prism.sh stop    # stop it by its recorded PID
#
# `start` installs @stoplight/prism-cli and @octokit/openapi with npm into
# $OLM_RELEASE_TOOLS/prism, trims GitHub's own OpenAPI description to the paths the tests
# use (all components kept): /repos/{owner}/{repo} (the default branch),
# /repos/{owner}/{repo}/releases* (release targets), /repos/{owner}/{repo}/git/* (git data:
# refs, commits, trees, blobs) and /repos/{owner}/{repo}/pulls and /pulls/{pull_number} (pull
# requests), and runs
# `prism proxy --errors` on a free 127.0.0.1 port, forwarding to a second free port where the
# test's in-process fake GitHub will listen. Invalid requests get 422 from Prism and never
# reach the fake; non-conforming fake answers become 500. It prints, on stdout only:
#   export PRISM_URL=http://127.0.0.1:P
#   export PRISM_UPSTREAM_PORT=Q
# Everything else goes to stderr.
set -euo pipefail
. "$(dirname "$0")/lib.bash"
dir="$tools/prism"
pidfile="$dir/prism.pid"
log_file="$dir/prism.log"
PRISM_VERSION=5.14.2
OPENAPI_VERSION=23.0.2

install() {
  mkdir -p "$dir"
  local spec="$dir/node_modules/@octokit/openapi/generated/api.github.com.json"
  if [ -x "$dir/node_modules/.bin/prism" ] && [ -f "$spec" ] &&
     grep -q "\"version\": \"$PRISM_VERSION\"" "$dir/node_modules/@stoplight/prism-cli/package.json" 2>/dev/null; then
    return
  fi
  log "installing @stoplight/prism-cli@$PRISM_VERSION @octokit/openapi@$OPENAPI_VERSION into $dir" >&2
  [ -f "$dir/package.json" ] || echo '{"name":"olm-release-prism","private":true}' > "$dir/package.json"
  (cd "$dir" && npm install --no-audit --no-fund --loglevel=error \
      "@stoplight/prism-cli@$PRISM_VERSION" "@octokit/openapi@$OPENAPI_VERSION") >&2
}

# Keeps only the paths the tests use; writes atomically so a half-written spec is never used.
trim() {
  local spec="$dir/node_modules/@octokit/openapi/generated/api.github.com.json"
  local out="$dir/github-trimmed.json"
  if [ -s "$out" ] && [ "$out" -nt "$spec" ]; then return; fi
  log "trimming $spec to the paths the tests use"
  node -e '
    const fs = require("fs");
    const [src, dst] = process.argv.slice(1);
    const spec = JSON.parse(fs.readFileSync(src, "utf8"));
    const paths = {};
    for (const [k, v] of Object.entries(spec.paths)) {
      if (k === "/repos/{owner}/{repo}" ||
          k.startsWith("/repos/{owner}/{repo}/releases") ||
          k.startsWith("/repos/{owner}/{repo}/git/") ||
          k === "/repos/{owner}/{repo}/pulls" ||
          k === "/repos/{owner}/{repo}/pulls/{pull_number}") paths[k] = v;
    }
    spec.paths = paths;
    fs.writeFileSync(dst + ".tmp", JSON.stringify(spec));
    fs.renameSync(dst + ".tmp", dst);
    console.error("prism: kept " + Object.keys(paths).length + " paths: " + Object.keys(paths).join(" "));
  ' "$spec" "$out"
}

running() {
  [ -f "$pidfile" ] && kill -0 "$(cat "$pidfile")" 2>/dev/null
}

start() {
  if running; then
    log "already running (PID $(cat "$pidfile")); stop it first"
    exit 1
  fi
  install
  trim
  local port upstream
  { read -r port; read -r upstream; } < <(free_ports 2)
  log "proxy on 127.0.0.1:$port -> fake GitHub on 127.0.0.1:$upstream"
  # The bin is a node script: the PID recorded is node's own.
  "$dir/node_modules/.bin/prism" proxy -h 127.0.0.1 -p "$port" --errors \
    "$dir/github-trimmed.json" "http://127.0.0.1:$upstream" >"$log_file" 2>&1 &
  echo $! > "$pidfile"
  wait_ready "$(cat "$pidfile")" "$log_file" 120 grep -q "Prism is listening" "$log_file" ||
    { stop; exit 1; }
  echo "export PRISM_URL=http://127.0.0.1:$port"
  echo "export PRISM_UPSTREAM_PORT=$upstream"
}

stop() {
  stop_recorded "$pidfile" prism
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
