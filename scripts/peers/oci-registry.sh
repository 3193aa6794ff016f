#!/usr/bin/env bash
# A real OCI registry for the tests: Debian's docker-registry (the CNCF distribution registry,
# 2.8 on bookworm), run unprivileged on 127.0.0.1 with a fresh store per start, plus skopeo
# and umoci as independent readers of what olm-release pushes.
#
#   scripts/peers/oci-registry.sh start   # install (once), start two instances, print exports
#   scripts/peers/oci-registry.sh stop    # stop both by their recorded PIDs, remove the stores
#   scripts/peers/oci-registry.sh install # install only
#
# Instances: one open (no auth) and one with htpasswd Basic auth (a bcrypt entry made by
# `htpasswd -B` for a user with a random password). On stdout only:
#   export OCI_REGISTRY=127.0.0.1:P              # open
#   export OCI_REGISTRY_AUTH=127.0.0.1:Q         # Basic auth
#   export OCI_REGISTRY_USER=olm-release
#   export OCI_REGISTRY_PASSWORD=…
# Everything else goes to stderr. State lives in $OLM_RELEASE_TOOLS/run/oci-registry.*.
set -euo pipefail
. "$(dirname "$0")/lib.bash"
pid_file="$run_dir/oci-registry.pids"
data_file="$run_dir/oci-registry.data"
user=olm-release

install() {
  local missing=()
  command -v docker-registry >/dev/null || missing+=(docker-registry)
  command -v skopeo >/dev/null || missing+=(skopeo)
  command -v umoci >/dev/null || missing+=(umoci)
  command -v htpasswd >/dev/null || missing+=(apache2-utils)
  [ ${#missing[@]} -eq 0 ] && return 0
  apt_install --no-install-recommends "${missing[@]}"
}

stop() {
  stop_recorded "$pid_file" docker-registry
  remove_recorded "$data_file"
}

# config DIR PORT [HTPASSWD]: a loopback-only config with its own store.
config() {
  local dir=$1 port=$2 htpasswd=${3:-}
  mkdir -p "$dir/store"
  {
    echo "version: 0.1"
    echo "log: {level: warn, accesslog: {disabled: true}}"
    echo "storage: {filesystem: {rootdirectory: $dir/store}, delete: {enabled: true}}"
    echo "http: {addr: 127.0.0.1:$port, secret: olm-release-test-$port}"
    if [ -n "$htpasswd" ]; then
      echo "auth: {htpasswd: {realm: olm-release-test, path: $htpasswd}}"
    fi
  } >"$dir/config.yml"
}

# launch DIR: starts the registry on DIR/config.yml; appends its PID.
launch() {
  local dir=$1
  # setsid + exec: the recorded PID is the registry's own process.
  setsid docker-registry serve "$dir/config.yml" </dev/null >"$dir/registry.log" 2>&1 &
  echo $! >>"$pid_file"
}

# registry_ready DIR PORT PID: waits until the registry of DIR answers /v2/ (200, or 401 behind
# auth).
registry_ready() {
  wait_ready "$3" "$1/registry.log" 15 http_answers "http://127.0.0.1:$2/v2/"
}

start() {
  install
  stop
  mkdir -p "$run_dir"
  local data open_port auth_port password
  data="$(mktemp -d "${TMPDIR:-/tmp}/oci-registry.XXXXXX")"
  echo "$data" >"$data_file"
  : >"$pid_file"
  { read -r open_port; read -r auth_port; } < <(free_ports 2)
  password="$(random_secret)"
  mkdir -p "$data/auth"
  htpasswd -B -b -c "$data/auth/htpasswd" "$user" "$password" 2>/dev/null
  config "$data/open" "$open_port"
  config "$data/auth" "$auth_port" "$data/auth/htpasswd"
  launch "$data/open"
  launch "$data/auth"
  local pids
  read -r -a pids <<<"$(tr '\n' ' ' <"$pid_file")"
  if ! registry_ready "$data/open" "$open_port" "${pids[0]}" ||
    ! registry_ready "$data/auth" "$auth_port" "${pids[1]}"; then
    stop
    exit 1
  fi
  log "docker-registry $(docker-registry --version | awk '{print $3}') on 127.0.0.1:$open_port (open) and 127.0.0.1:$auth_port (htpasswd), pids ${pids[*]}, stores under $data"
  echo "export OCI_REGISTRY=127.0.0.1:$open_port"
  echo "export OCI_REGISTRY_AUTH=127.0.0.1:$auth_port"
  echo "export OCI_REGISTRY_USER=$user"
  echo "export OCI_REGISTRY_PASSWORD=$password"
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  install) install ;;
  *) echo "usage: $0 start|stop|install" >&2; exit 2 ;;
esac
