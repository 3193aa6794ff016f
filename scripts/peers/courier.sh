#!/usr/bin/env bash
# operator-courier 2.1.11, the reference validator of 2019 app-registry bundles (github.com/operator-framework/operator-courier).
#
#   scripts/peers/courier.sh start   # install (idempotent) and print the export lines
#   scripts/peers/courier.sh stop    # nothing to stop: courier is a command, not a server
#
# `start` installs courier with the exact pins pip resolved for 2.1.11 on Python 3.11 into its
# own virtualenv under $OLM_RELEASE_TOOLS/courier (never shared with appr, whose urllib3 pin
# breaks requests on Python >= 3.10), then prints on stdout:
#   export COURIER=<venv>/bin/operator-courier
#   export COURIER_PYTHON=<venv>/bin/python
# Everything else goes to stderr.
set -euo pipefail
. "$(dirname "$0")/lib.bash"
venv="$tools/courier"
pins=(operator-courier==2.1.11 PyYAML==6.0.4 requests==2.34.2 urllib3==2.8.0 semver==3.1.2 validators==0.36.0)
stamp="$venv/.olm-release-pins"

case "${1:-}" in
  start)
    if ! stamped "$stamp" "${pins[*]}" || [ ! -x "$venv/bin/operator-courier" ]; then
      py="${PYTHON311:-python3.11}"
      command -v "$py" >/dev/null || { log "$py not found (courier 2.1.11 needs Python 3.11)"; exit 1; }
      log "installing operator-courier 2.1.11 into $venv"
      rm -rf "$venv"
      "$py" -m venv "$venv" >&2
      "$venv/bin/pip" install --disable-pip-version-check -q "${pins[@]}" >&2
      echo "${pins[*]}" > "$stamp"
    fi
    # courier imports pkg_resources and distutils.dir_util: check it really starts.
    "$venv/bin/operator-courier" --help >/dev/null
    echo "export COURIER=$venv/bin/operator-courier"
    echo "export COURIER_PYTHON=$venv/bin/python"
    ;;
  stop) ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
