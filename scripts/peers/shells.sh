#!/usr/bin/env bash
# zsh and fish, for the shell-completion tests (bash is already there: scripts run in it).
#
#   scripts/peers/shells.sh start   # install zsh and fish from Debian if missing, print exports
#   scripts/peers/shells.sh stop    # nothing to stop: shells are commands, not servers
#
# `start` prints on stdout:
#   export OLM_RELEASE_ZSH=<path of zsh>
#   export OLM_RELEASE_FISH=<path of fish>
# Everything else goes to stderr. Installing needs root (CI runs as root); without it, a
# missing shell is reported and its tests skip outside CI.
set -euo pipefail
. "$(dirname "$0")/lib.bash"

case "${1:-}" in
  start)
    missing=()
    command -v zsh >/dev/null || missing+=(zsh)
    command -v fish >/dev/null || missing+=(fish)
    if [ ${#missing[@]} -gt 0 ]; then
      if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        apt_install --no-install-recommends "${missing[@]}"
      else
        log "${missing[*]} missing and cannot install (needs root and apt-get)"
      fi
    fi
    if command -v zsh >/dev/null; then echo "export OLM_RELEASE_ZSH=$(command -v zsh)"; fi
    if command -v fish >/dev/null; then echo "export OLM_RELEASE_FISH=$(command -v fish)"; fi
    ;;
  stop) ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
