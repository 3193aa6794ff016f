# Helpers the peer scripts of this folder share, sourced, never run: where the tools and the
# run state live, logging, free loopback ports, waiting until a started peer is ready, stopping
# it by its recorded PIDs, install stamps and Debian packages.
#
# A peer script sources it after `set -euo pipefail`:
#   . "$(dirname "$0")/lib.bash"
# which sets `root` (the repository), `tools` ($OLM_RELEASE_TOOLS, default <repo>/.tools) and
# `run_dir` ($tools/run, where PIDs and state are recorded). Log lines go to stderr, so stdout
# carries only the `export NAME=VALUE` lines scripts/test.sh evaluates.
#
# Its name does not end in .sh: scripts/test.sh runs every scripts/peers/*.sh with start and stop.

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tools="${OLM_RELEASE_TOOLS:-$root/.tools}"
run_dir="$tools/run"
peer_script="$(basename "$0")"

# log MESSAGE…: one line on stderr, named after the peer script.
log() { echo "$peer_script: $*" >&2; }

# free_ports [N]: N (default 1) distinct TCP ports free on 127.0.0.1, one a line, all bound at
# once so the kernel cannot hand out the same one twice.
free_ports() {
  python3 - "${1:-1}" <<'PY'
import socket, sys
socks = [socket.socket() for _ in range(int(sys.argv[1]))]
for s in socks:
    s.bind(("127.0.0.1", 0))
print("\n".join(str(s.getsockname()[1]) for s in socks))
for s in socks:
    s.close()
PY
}

# random_secret: a fresh password for a peer's Basic auth.
random_secret() {
  python3 -c 'import secrets; print(secrets.token_urlsafe(18))'
}

# http_answers URL: whether a server answers URL with an HTTP status below 500 (401 included:
# a registry behind auth is up).
http_answers() {
  python3 - "$1" <<'PY' 2>/dev/null
import sys, urllib.request, urllib.error
try:
    urllib.request.urlopen(sys.argv[1], timeout=1)
except urllib.error.HTTPError as e:
    sys.exit(0 if e.code < 500 else 1)
PY
}

# wait_ready PID LOG SECONDS COMMAND…: polls COMMAND every 0.1 s until it succeeds (0). Fails
# (1), showing the end of LOG, when process PID exits first or SECONDS pass.
wait_ready() {
  local pid=$1 log_file=$2 seconds=$3
  shift 3
  local tries=$((seconds * 10))
  for _ in $(seq "$tries"); do
    if "$@"; then
      return 0
    fi
    if ! kill -0 "$pid" 2>/dev/null; then
      log "exited during start-up (pid $pid); log $log_file:"
      tail -n 40 "$log_file" >&2 || true
      return 1
    fi
    sleep 0.1
  done
  log "not ready within $seconds s (pid $pid); log $log_file:"
  tail -n 40 "$log_file" >&2 || true
  return 1
}

# stop_recorded PID_FILE WHAT: stops each process whose PID PID_FILE records (SIGTERM, then
# SIGKILL after 5 s) and removes the file. Only those PIDs: never a process found by name.
stop_recorded() {
  local pid_file=$1 what=$2 pid
  [ -f "$pid_file" ] || return 0
  for pid in $(cat "$pid_file"); do
    if kill -0 "$pid" 2>/dev/null; then
      kill "$pid" 2>/dev/null || true
      for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
      kill -9 "$pid" 2>/dev/null || true
      log "stopped $what (pid $pid)"
    fi
  done
  rm -f "$pid_file"
}

# remove_recorded DATA_FILE: removes the scratch folder DATA_FILE records, then the file.
remove_recorded() {
  local data_file=$1
  [ -f "$data_file" ] || return 0
  rm -rf "$(cat "$data_file")"
  rm -f "$data_file"
}

# stamped STAMP VALUE: whether the install or build recorded in STAMP was made for VALUE (the
# pins, a source's digest…); the caller writes VALUE to STAMP once it has installed.
stamped() {
  [ -f "$1" ] && [ "$(cat "$1")" = "$2" ]
}

# apt_install [APT-GET OPTION…] PACKAGE…: installs Debian packages, as root or through sudo,
# refreshing the package lists only when the first attempt fails.
apt_install() {
  local sudo=()
  [ "$(id -u)" = 0 ] || sudo=(sudo)
  log "apt-get install $*"
  if ! "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" >&2; then
    "${sudo[@]}" apt-get update -q >&2
    "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "$@" >&2
  fi
}
