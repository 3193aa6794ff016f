#!/usr/bin/env bash
# The reference app registry for the tests: app-registry/appr 0.7.4 on CPython 2.7.18
# (github.com/app-registry/appr), on 127.0.0.1 only, with a fresh filesystem store per start.
#
#   scripts/peers/appr.sh start   # install (once), start, print `export APPR_URL=…` on stdout
#   scripts/peers/appr.sh stop    # stop the server started by `start`, by its PID
#   scripts/peers/appr.sh install # install only
#
# Everything but the export lines goes to stderr. Install location: $OLM_RELEASE_TOOLS/appr
# (default <repo>/.tools). The PID, port and store live in $OLM_RELEASE_TOOLS/run/appr.*.
set -euo pipefail
. "$(dirname "$0")/lib.bash"
appr_dir="$tools/appr"
pid_file="$run_dir/appr.pid"
data_file="$run_dir/appr.data"
log_file="$run_dir/appr.log"

# The exact set that works together on Python 2.7 (no dependency resolution: --no-deps).
pins=(appr==0.7.4 Flask==1.1.4 Werkzeug==0.16.1 Jinja2==2.11.3 MarkupSafe==1.1.1
  itsdangerous==1.1.0 click==7.1.2 flask-cors==3.0.10 six==1.16.0 gevent==1.2.2
  greenlet==0.4.17 semantic_version==2.8.5 PyYAML==5.4.1 requests==2.27.1 urllib3==1.21.1
  idna==2.10 chardet==3.0.4 certifi==2021.10.8 futures==3.3.0 future==0.18.3 tabulate==0.8.10
  termcolor==1.1.0 pathspec==0.9.0 jsonpatch==1.32 jsonpointer==2.3 gunicorn==19.10.0
  redis==3.5.3)

python2() {
  local py
  if py="$(PYENV_VERSION=2.7.18 pyenv which python2.7 2>/dev/null)"; then
    echo "$py"
  elif command -v python2.7 >/dev/null; then
    command -v python2.7
  else
    log "CPython 2.7 is required (pyenv install 2.7.18)"
    exit 1
  fi
}

install() {
  local py stamp="$appr_dir/.installed"
  py="$(python2)"
  if stamped "$stamp" "${pins[*]}"; then
    return 0
  fi
  log "installing appr 0.7.4 into $appr_dir"
  rm -rf "$appr_dir"
  mkdir -p "$appr_dir"
  PIP_DISABLE_PIP_VERSION_CHECK=1 "$py" -m pip install --quiet --target "$appr_dir" \
    --no-deps "${pins[@]}" >&2
  echo "${pins[*]}" >"$stamp"
}

stop() {
  stop_recorded "$pid_file" appr
  remove_recorded "$data_file"
}

start() {
  install
  stop
  mkdir -p "$run_dir"
  local py port data scratch url
  py="$(python2)"
  port="$(free_ports)"
  data="$(mktemp -d "${TMPDIR:-/tmp}/appr-data.XXXXXX")"
  scratch="$data/home"
  mkdir -p "$scratch" "$data/store"
  echo "$data" >"$data_file"
  # exec inside setsid: the recorded PID is the server's own process.
  HOME="$scratch" PYTHONPATH="$appr_dir" DATABASE_URL="$data/store" \
    setsid "$py" "$appr_dir/bin/appr" run-server -b 127.0.0.1 -p "$port" \
    </dev/null >"$log_file" 2>&1 &
  echo $! >"$pid_file"
  url="http://127.0.0.1:$port/cnr"
  wait_ready "$(cat "$pid_file")" "$log_file" 30 http_answers "$url/version" || { stop; exit 1; }
  log "appr 0.7.4 listening on $url (pid $(cat "$pid_file"), store $data/store)"
  echo "export APPR_URL=$url"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  install) install ;;
  *) echo "usage: $0 start|stop|install" >&2; exit 2 ;;
esac
