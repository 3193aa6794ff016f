#!/usr/bin/env bash
# git over smart HTTP on 127.0.0.1 for the git catalog target's tests: `git http-backend`
# behind a small Python server (scripts/peers/git_http.py) with HTTP Basic auth on every
# request, serving the bare repositories under a fresh folder.
#
#   scripts/peers/git-http.sh start   # start it; prints the export lines
#   scripts/peers/git-http.sh stop    # stop it by its recorded PID, remove the repositories
#
# `start` prints on stdout only:
#   export GIT_HTTP_URL=http://127.0.0.1:P       # a repository NAME.git is $GIT_HTTP_URL/NAME.git
#   export GIT_HTTP_ROOT=<folder>                # tests create bare repositories here
#   export GIT_HTTP_USER=olm-release
#   export GIT_HTTP_PASSWORD=<random>
# Everything else goes to stderr. State lives in $OLM_RELEASE_TOOLS/run/git-http.*.
set -euo pipefail
. "$(dirname "$0")/lib.bash"
pid_file="$run_dir/git-http.pid"
data_file="$run_dir/git-http.data"
user=olm-release

stop() {
  stop_recorded "$pid_file" "git http-backend's server"
  remove_recorded "$data_file"
}

start() {
  command -v git >/dev/null || { log "git is missing"; exit 1; }
  git http-backend </dev/null >/dev/null 2>&1 || true
  stop
  mkdir -p "$run_dir"
  local data password port_file
  data="$(mktemp -d "${TMPDIR:-/tmp}/git-http.XXXXXX")"
  echo "$data" >"$data_file"
  mkdir -p "$data/repos"
  port_file="$data/port"
  password="$(random_secret)"
  setsid python3 "$root/scripts/peers/git_http.py" "$data/repos" "$port_file" "$user" "$password" \
    </dev/null >"$data/server.log" 2>&1 &
  echo $! >"$pid_file"
  # The server writes the port it bound to once it listens.
  wait_ready "$(cat "$pid_file")" "$data/server.log" 10 test -s "$port_file" || { stop; exit 1; }
  log "git http-backend ($(git --version)) on 127.0.0.1:$(cat "$port_file"), repositories under $data/repos"
  echo "export GIT_HTTP_URL=http://127.0.0.1:$(cat "$port_file")"
  echo "export GIT_HTTP_ROOT=$data/repos"
  echo "export GIT_HTTP_USER=$user"
  echo "export GIT_HTTP_PASSWORD=$password"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
